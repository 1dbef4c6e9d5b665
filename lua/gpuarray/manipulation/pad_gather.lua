--- pad's fast path (bench key pad_reflect_f32_4096^2_GBps): one
-- ElementwiseKernel over the padded result, with the input as a raw array.
-- Each output element finds its source element along every axis
-- (constant, edge, reflect, symmetric and wrap have a closed form per
-- axis), reads it and writes itself: one read and one write per element,
-- like a copy, where padding by copies into views would write the result
-- twice. The divisions of the output index into coordinates are 32-bit
-- when the result has fewer than 2^31 elements.
--
-- The closed forms are the repeated reflections of NumPy's pad where its
-- chunks reflect about a true centre (always for pads shorter than the
-- axis); pad.lua checks that per axis and takes the view path otherwise.
local gather = {}

-- 0-based source position of t (the output position minus the pad before)
-- on an axis of n elements. I is a signed index type.
gather.PREAMBLE = [[
template <typename I> __device__ __forceinline__ I ga_pad_reflect(I t, I n) {
  if (t >= 0 && t < n) return t;
  if (n == 1) return 0;
  const I p = 2 * (n - 1);
  if (t < 0) t = -t;
  if (t >= n) { t = t % p; if (t >= n) t = p - t; }
  return t;
}
template <typename I> __device__ __forceinline__ I ga_pad_symmetric(I t, I n) {
  if (t >= 0 && t < n) return t;
  if (t < 0) t = -1 - t;
  if (t >= n) { const I p = 2 * n; t = t % p; if (t >= n) t = p - 1 - t; }
  return t;
}
template <typename I> __device__ __forceinline__ I ga_pad_wrap(I t, I n) {
  if (t >= 0 && t < n) return t;
  t = t % n;
  return t < 0 ? t + n : t;
}
template <typename I> __device__ __forceinline__ I ga_pad_edge(I t, I n) {
  return t < 0 ? 0 : (t >= n ? n - 1 : t);
}
]]

gather.MODES = { constant = true, edge = true, reflect = true, symmetric = true, wrap = true }

-- how many axes each kernel can take: its scalars (2 per axis, 4 with the
-- constant values) and the two arrays within the engine's 32 parameters
function gather.max_axes(mode)
  return mode == "constant" and 7 or 15
end

--- The body for index types U (unsigned, the divisions) and S (signed)
local function body(nd, mode, U, S)
  local L = {}
  L[#L + 1] = ("      %s _r = (%s)i;"):format(U, U)
  L[#L + 1] = ("      %s _k[%d];"):format(S, nd)
  if mode == "constant" then L[#L + 1] = "      bool _hit = false; T _cv = T();" end
  for d = nd - 1, 0, -1 do
    L[#L + 1] = "      {"
    if d > 0 then
      L[#L + 1] = ("        const %s _o = _r %% (%s)o%d;"):format(U, U, d)
      L[#L + 1] = ("        _r = _r / (%s)o%d;"):format(U, d)
    else
      L[#L + 1] = ("        const %s _o = _r;"):format(U)
    end
    L[#L + 1] = ("        const %s _n = (%s)x.shape()[%d];"):format(S, S, d)
    L[#L + 1] = ("        %s _t = (%s)_o - (%s)b%d;"):format(S, S, S, d)
    if mode == "constant" then
      L[#L + 1] = ("        if (!_hit && (_t < 0 || _t >= _n)) { _hit = true; _cv = _t < 0 ? c%d : e%d; }"):format(d, d)
    else
      L[#L + 1] = ("        _t = ga_pad_%s(_t, _n);"):format(mode)
    end
    L[#L + 1] = ("        _k[%d] = _t;"):format(d)
    L[#L + 1] = "      }"
  end
  if mode == "constant" then L[#L + 1] = "      if (_hit) return _cv;" end
  L[#L + 1] = "      return x[_k];"
  return table.concat(L, "\n")
end

--- The kernel's parameters and operation for nd axes
function gather.definition(nd, mode)
  local ins = { "raw T x" }
  for d = 0, nd - 1 do
    ins[#ins + 1] = ("int64 b%d, int64 o%d"):format(d, d)
  end
  if mode == "constant" then
    for d = 0, nd - 1 do ins[#ins + 1] = ("T c%d, T e%d"):format(d, d) end
  end
  -- y assigned by its first statement, so the engine does not load it
  -- first (a read the bandwidth would pay for)
  local op = ("    y = [&]() -> T {\n    if (_ind.size() <= 0x7fffffffLL) {\n%s\n    } else {\n%s\n    }\n    }()")
    :format(body(nd, mode, "unsigned", "int"), body(nd, mode, "unsigned long long", "long long"))
  return table.concat(ins, ", "), "T y", op
end

local cache = {}

--- The ElementwiseKernel for nd axes and a mode (built once per Lua state)
function gather.kernel(ga, nd, mode)
  local key = mode .. nd
  local k = cache[key]
  if not k then
    local ins, outs, op = gather.definition(nd, mode)
    k = ga.ElementwiseKernel(ins, outs, op, ("ga_pad_%s%d"):format(mode, nd), { preamble = gather.PREAMBLE })
    cache[key] = k
  end
  return k
end

--- Axes that are not padded merge with their neighbour when the input's
-- strides allow (a reshape that is a view); returns the input view, the
-- per-axis {before, after} of the merged layout, for each merged axis
-- the (first) axis of x it stands for, and the view's shape and strides
-- (read once here, not again by the caller). Padded axes never merge.
function gather.merge(x, widths)
  local shape, strides = x.shape, x.strides
  local ms, mst, mw, first = {}, {}, {}, {}
  for d = 1, #shape do
    local w = widths[d]
    local last = #ms
    local prev = mw[last]
    if last > 0 and w[1] == 0 and w[2] == 0 and prev[1] == 0 and prev[2] == 0
        and strides[d - 1] == strides[d] * shape[d] then
      ms[last] = ms[last] * shape[d]
      mst[last] = strides[d]      -- a contiguous run: its innermost stride
    else
      ms[last + 1] = shape[d]
      mst[last + 1] = strides[d]
      mw[last + 1] = { w[1], w[2] }
      first[last + 1] = d
    end
  end
  if #ms == #shape then return x, mw, first, shape, strides end
  return x:reshape(ms), mw, first, ms, mst
end

--- out = pad(x) for a gather mode; values: per axis {before, after} typed
-- scalars (constant mode); out: a new C-contiguous array of the result's
-- merged shape
function gather.run(ga, x, widths, mode, values, out)
  local nd = x.ndim
  local a = { x }
  local oshape = out.shape
  for d = 1, nd do
    a[#a + 1] = widths[d][1]
    a[#a + 1] = oshape[d]
  end
  if mode == "constant" then
    for d = 1, nd do
      a[#a + 1] = values[d][1]
      a[#a + 1] = values[d][2]
    end
  end
  a[#a + 1] = out
  gather.kernel(ga, nd, mode)(table.unpack(a))
  return out
end

return gather
