--- N-d footprint filters as one ElementwiseKernel per (rank, footprint
-- box, origins, modes, operation, dtypes): each output element walks the
-- footprint box in nested loops, reads the input through the boundary
-- mode's index mapping (ndimage/cuda.lua, gnd_fix) and combines:
--   corr  sum of weight * value over the nonzero weights (correlate and
--         every weighted filter; SciPy skips zero weights too)
--   min / max  over the footprint, less / plus the structure's values
--         when there are any (grey erosion / dilation)
--   rank  the rank-th smallest value of the footprint: a sorting network
--         in registers when the footprint is small and full (median_filter
--         with size=3: median_filter_f32_2048^2_3_ms), else a selection
-- The input is read C-contiguous; shapes are scalar arguments, so one
-- compile serves every size.
return function(ga, S)
  local CUDA = require("gpuarray.scipy.ndimage.cuda")
  local St = {}

  --- Batcher's odd-even merge sort for n values as a comparator list (a
  -- power of two's network with the comparators past n dropped: those
  -- compare with +infinity and never move a value)
  local function batcher(n)
    local p2 = 1
    while p2 < n do p2 = p2 * 2 end
    local out = {}
    local p = 1
    while p < p2 do
      local k = p
      while k >= 1 do
        for j = k % p, p2 - 1 - k, 2 * k do
          for i = 0, k - 1 do
            local a, b = i + j, i + j + k
            if (a // (2 * p)) == (b // (2 * p)) and b < n then out[#out + 1] = { a, b } end
          end
        end
        k = k // 2
      end
      p = p * 2
    end
    return out
  end
  St.batcher = batcher

  local SELECT = [[
// the r-th smallest of v[0..n-1] (reorders v): Hoare's selection
template <typename T> __device__ T gnd_select(T *v, int n, int r) {
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    const T piv = v[(lo + hi) / 2];
    int a = lo, b = hi;
    while (a <= b) {
      while (v[a] < piv) ++a;
      while (piv < v[b]) --b;
      if (a <= b) { const T t = v[a]; v[a] = v[b]; v[b] = t; ++a; --b; }
    }
    if (r <= b) hi = b; else if (r >= a) lo = a; else return v[r];
  }
  return v[r];
}
]]

  --- the kernel for spec = { ndim, fshape (list), half (list: the offset
  -- of the footprint's first element from the output position, negated),
  -- modes (list of codes), op, full (every footprint element set), count
  -- (nonzero footprint elements, rank), rank (0-based), structure (min/max
  -- with structure values) }
  function St.kernel(spec)
    local N = spec.ndim
    local key = table.concat({ "stencil", N, table.concat(spec.fshape, "x"), table.concat(spec.half, ","),
      table.concat(spec.modes, ","), spec.op, tostring(spec.full), spec.count or 0, spec.rank or 0,
      tostring(spec.structure) }, "|")
    return S.kernel(key, function()
      local params = { "raw X x" }
      if spec.op == "corr" then params[#params + 1] = "raw W w"
      else
        if not spec.full then params[#params + 1] = "raw bool fp" end
        if spec.structure then params[#params + 1] = "raw float64 sv" end
      end
      for d = 0, N - 1 do params[#params + 1] = "int64 n" .. d end
      params[#params + 1] = "float64 cval"
      local b = {}
      local function emit(s) b[#b + 1] = s end
      emit("long long r_ = i;")
      for d = N - 1, 0, -1 do
        emit(("const long long c%d = r_ %% n%d; r_ /= n%d;"):format(d, d, d))
      end
      local op = spec.op
      local A = op == "corr" and "W" or (spec.structure and "double" or "X")
      if op == "corr" then emit("W acc = 0;")
      elseif op == "rank" then emit(("X v_[%d];"):format(spec.count))
      else emit(A .. " acc = 0; bool have_ = false;") end
      emit("int k_ = 0; int m_ = 0; (void)m_;")
      for d = 0, N - 1 do
        emit(("#pragma unroll\nfor (int j%d = 0; j%d < %d; ++j%d) {"):format(d, d, spec.fshape[d + 1], d))
        emit(("const long long q%d = gnd_fix(c%d + j%d - %d, n%d, %d);"):format(d, d, d, spec.half[d + 1], d,
                                                                             spec.modes[d + 1]))
      end
      local off = "q0"
      for d = 1, N - 1 do off = ("(%s) * n%d + q%d"):format(off, d, d) end
      local outside = {}
      for d = 0, N - 1 do outside[#outside + 1] = "q" .. d .. " < 0" end
      local read = ("((%s) ? (X)cval : x[%s])"):format(table.concat(outside, " || "), off)
      if op == "corr" then
        emit("const W wv = w[k_];")
        emit(("if (wv != (W)0) acc += wv * (W)%s;"):format(read))
      else
        if not spec.full then emit("if (fp[k_]) {") end
        if op == "rank" then
          emit(("v_[m_++] = %s;"):format(read))
        else
          local val = spec.structure and ("(double)%s %s sv[k_]"):format(read, op == "min" and "-" or "+")
            or read
          local cmp = op == "min" and "<" or ">"
          emit(("{ const %s v = %s; if (!have_ || v %s acc) { acc = v; have_ = true; } }"):format(A, val, cmp))
        end
        if not spec.full then emit("}") end
      end
      emit("++k_;")
      for _ = 0, N - 1 do emit("}") end
      if op == "rank" then
        local n, r = spec.count, spec.rank
        if spec.full and n <= 32 then
          for _, c in ipairs(batcher(n)) do
            emit(("{ const X a = v_[%d], b = v_[%d]; if (b < a) { v_[%d] = b; v_[%d] = a; } }"):format(c[1], c[2],
                                                                                                  c[1], c[2]))
          end
          emit(("y = (Y)v_[%d];"):format(r))
        else
          emit(("y = (Y)gnd_select<X>(v_, %d, %d);"):format(n, r))
        end
      else
        emit("y = (Y)acc;")
      end
      return ga.ElementwiseKernel(table.concat(params, ", "), "Y y", table.concat(b, "\n"), "gnd_stencil",
                                  { preamble = CUDA.SOURCE .. SELECT })
    end)
  end

  --- run it: x contiguous input, weights (corr: the weights array, dtype
  -- W), fp (bool footprint array or nil), sv (float64 structure or nil)
  function St.run(spec, x, ydtype, extra, cval)
    local k = St.kernel(spec)
    x = ga.ascontiguousarray(x)
    local args = { x }
    for _, a in ipairs(extra) do args[#args + 1] = a end
    local shape = x.shape
    for d = 1, spec.ndim do args[#args + 1] = shape[d] end
    args[#args + 1] = cval
    local y = ga.empty(shape, ydtype)
    if y.size == 0 then return y end
    args[#args + 1] = y
    k(table.unpack(args))
    return y
  end

  return St
end
