--- label (SciPy 1.10): connected components of the nonzero elements,
-- numbered 1..n in the raster order of each component's first element
-- (as SciPy numbers them; labels are values, not positions). A union-find
-- on the GPU (label_2048^2_ms):
--   1. p[i] = i where the input is set, -1 elsewhere
--   2. every set element unites with its set neighbours of the structure's
--      backward half (the structure is symmetric): lock-free unions that
--      hang the larger root under the smaller with atomicMin, so a
--      component's root ends as its first element in raster order
--   3. every element points at its root
--   4. roots are counted in raster order (a scan), which numbers the
--      components 1..n; each element takes its root's number.
return function(ga, M, S)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  local fail, is_array = internal.fail, internal.is_array

  local UF = [[
// the root of x; reads through L2 (other blocks' unions are visible)
__device__ __forceinline__ int gnd_find(int *p, int x) {
  int q = __ldcg(p + x);
  while (q != x) {
    x = q;
    q = __ldcg(p + x);
  }
  return x;
}
__device__ __forceinline__ void gnd_unite(int *p, int a, int b) {
  for (;;) {
    a = gnd_find(p, a);
    b = gnd_find(p, b);
    if (a == b) return;
    if (a > b) { const int t = a; a = b; b = t; }
    // hang b (the larger root) under a, unless b stopped being a root
    const int old = atomicMin(p + b, a);
    if (old == b) return;
    b = old;
  }
}
]]

  --- the neighbour offsets (lists of per-axis steps in -1..1) of the
  -- structure's backward half
  local function backward(structure, N)
    local offs = {}
    local total = 3 ^ N
    for k = 0, math.tointeger(total) - 1 do
      local steps, r, lin = {}, k, 0
      for d = N, 1, -1 do
        steps[d] = r % 3 - 1
        r = r // 3
      end
      for d = 1, N do lin = lin * 3 + steps[d] end
      if structure[k + 1] and lin < 0 then offs[#offs + 1] = steps end
    end
    return offs
  end

  local function merge_kernel(N, offs)
    local key = "label_merge|" .. N .. "|"
    for _, s in ipairs(offs) do key = key .. table.concat(s, ",") .. ";" end
    return S.kernel(key, function()
      local params = { "raw int32 p" }
      for d = 0, N - 1 do params[#params + 1] = "int64 n" .. d end
      local b = { "if (p[i] >= 0) {", "long long r_ = i;" }
      for d = N - 1, 0, -1 do b[#b + 1] = ("const long long c%d = r_ %% n%d; r_ /= n%d;"):format(d, d, d) end
      for _, s in ipairs(offs) do
        local conds, idx = {}, nil
        for d = 0, N - 1 do
          local st = s[d + 1]
          if st < 0 then conds[#conds + 1] = ("c%d > 0"):format(d) end
          if st > 0 then conds[#conds + 1] = ("c%d + 1 < n%d"):format(d, d) end
          local term = st == 0 and ("c%d"):format(d) or ("(c%d %s 1)"):format(d, st < 0 and "-" or "+")
          idx = idx and ("(%s) * n%d + %s"):format(idx, d, term) or term
        end
        local cond = #conds > 0 and table.concat(conds, " && ") or "true"
        b[#b + 1] = ("if (%s) { const long long j_ = %s; if (__ldcg(&p[j_]) >= 0) gnd_unite(&p[0], (int)i, (int)j_); }")
          :format(cond, idx)
      end
      b[#b + 1] = "}"
      return ga.ElementwiseKernel(table.concat(params, ", "), "", table.concat(b, "\n"), "gnd_label_merge",
                                  { preamble = UF })
    end)
  end
  M._label_merge_kernel = merge_kernel

  local function kernels()
    return S.kernel("label_k", function()
      return {
        init = ga.ElementwiseKernel("X x", "int32 p", "p = x != X(0) ? (int)i : -1;", "gnd_label_init"),
        flat = ga.ElementwiseKernel("raw int32 p", "int32 root, int32 isroot", [[
const int v = p[i];
root = v < 0 ? -1 : gnd_find(&p[0], (int)i);
isroot = (v == (int)i) ? 1 : 0;
]], "gnd_label_flatten", { preamble = UF }),
        number = ga.ElementwiseKernel("int32 root, raw int32 cs", "Y out", "out = root < 0 ? (Y)0 : (Y)cs[root];",
                                      "gnd_label_number"),
      }
    end)
  end
  M._label_kernels = kernels

  --- SciPy's default structure: the cross (connectivity 1), as a flat list
  local function cross(N)
    local flat = {}
    for k = 0, math.tointeger(3 ^ N) - 1 do
      local r, far = k, 0
      for _ = 1, N do
        far = far + math.abs(r % 3 - 1)
        r = r // 3
      end
      flat[k + 1] = far <= 1
    end
    return flat
  end
  M._cross = cross

  api.def(M, [[
scipy.ndimage.label(input: array_like, structure: array_like?, output: ndarray|dtype?) -> ndarray, integer
The connected components of the nonzero elements numbered 1..n (labels are values, in SciPy's order) and n;
with an output array given, only n.
]], function(input, structure, output)
    local fname = "scipy.ndimage.label"
    local x = is_array(input) and input or ga.asarray(input)
    if S.COMPLEX[x.dtype] then fail(fname .. ": Complex type not supported") end
    local x1 = x.ndim == 0 and x:reshape(1) or x
    local N = x1.ndim
    -- the structure has 3^N entries, walked on the host (SciPy has no bound)
    if N > 12 then fail(("%s: arrays of %d dimensions: at most 12 are supported"):format(fname, N)) end
    local flat
    if structure == nil then
      flat = cross(N)
    else
      local s = is_array(structure) and structure or ga.asarray(structure)
      if s.ndim ~= N then fail(fname .. ": structure and input must have equal rank") end
      for d = 1, N do
        if s.shape[d] ~= 3 then fail(fname .. ": structure dimensions must be equal to 3") end
      end
      flat = s:astype("bool"):reshape(-1):totable()
    end
    if x1.size >= 2 ^ 31 then fail(fname .. ": arrays of 2^31 elements or more are not supported") end
    local ydtype, out = "int32", nil
    if output ~= nil then ydtype, out = S.output(output, "int32", x.shape, fname) end
    local K = kernels()
    local xc = ga.ascontiguousarray(x1)
    if x1.size == 0 then
      local y = ga.zeros(x.shape, ydtype)
      if out then return 0 end
      return y, 0
    end
    local p = K.init(xc)
    local args = { p }
    for d = 1, N do args[#args + 1] = x1.shape[d] end
    args[#args + 1] = { size = x1.size }
    local offs = backward(flat, N)
    if #offs > 0 then merge_kernel(N, offs)(table.unpack(args)) end
    local root, isroot = K.flat(p, ga.empty(x1.shape, "int32"), ga.empty(x1.shape, "int32"))
    local cs = ga.cumsum(isroot:reshape(-1)):astype("int32")
    local n = math.tointeger(cs[x1.size])
    local y = K.number(root, cs, ga.empty(x1.shape, ydtype))
    if x.ndim == 0 then y = y:reshape({}) end
    if out then
      out:set(y)
      return n
    end
    return y, n
  end)
end
