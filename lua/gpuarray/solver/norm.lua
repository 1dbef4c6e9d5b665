--- linalg.norm(x[, ord][, axis][, keepdims]) or (x, {ord=, axis=,
-- keepdims=}), NumPy's: vector ords 2 (default), 1, inf, -inf, 0 and any
-- p; matrix ords "fro" (default), "nuc", 1, -1, 2, -2, inf, -inf. The
-- default 2-norm of a whole float32/float64 array is one bandwidth-bound
-- reduction (sqrt of the sum of squares, at copy speed).
return function(ga, linalg)
  local internal = require("gpuarray.internal")
  local def = require("gpuarray.api").def
  local fail = internal.fail
  local h = linalg._helpers
  local inf = math.huge

  local l2_kernel
  local function l2_all(x)
    if (x.dtype == "float32" or x.dtype == "float64") and ga.ReductionKernel then
      l2_kernel = l2_kernel or ga.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "ga_l2norm")
      return l2_kernel(x)
    end
    local ax = ga.abs(x)
    return ga.sqrt(ga.sum(ga.multiply(ax, ax)))
  end

  local function float_of(x)
    local dt = x.dtype
    if dt == "float32" or dt == "float64" or dt == "complex64" or dt == "complex128" then return x end
    if dt == "float16" or dt == "bfloat16" then return x:astype("float32") end
    return x:astype("float64")
  end

  local function vector_norm(x, ord, axis, keepdims)
    local o = { axis = axis, keepdims = keepdims }
    local ax = ga.abs(x)
    if ord == nil or ord == 2 then return ga.sqrt(ga.sum(ga.multiply(ax, ax), o)) end
    if ord == inf then return ga.max(ax, o) end
    if ord == -inf then return ga.min(ax, o) end
    if ord == 0 then return ga.sum(ga.not_equal(ax, 0):astype(ax.dtype), o) end
    if ord == 1 then return ga.sum(ax, o) end
    if type(ord) ~= "number" then fail(("linalg.norm: invalid vector ord %s"):format(tostring(ord))) end
    return ga.power(ga.sum(ga.power(ax, ord), o), 1 / ord)
  end

  local function norm_axis(a, nd)
    if math.type(a) ~= "integer" then fail("linalg.norm: axes are integers") end
    local r = a < 0 and nd + a + 1 or a
    if r < 1 or r > nd then fail(("linalg.norm: axis %d is out of range for %d dimensions"):format(a, nd)) end
    return r
  end

  -- singular values of the matrices on axes r, c (moved last)
  local function svals(x, r, c)
    local perm = {}
    for d = 1, x.ndim do if d ~= r and d ~= c then perm[#perm + 1] = d end end
    perm[#perm + 1], perm[#perm + 2] = r, c
    return linalg.svdvals(x:transpose(perm))
  end

  local function restore(res, r, c, keepdims)
    if not keepdims then return res end
    local lo, hi = math.min(r, c), math.max(r, c)
    return ga.expand_dims(ga.expand_dims(res, lo), hi)
  end

  local function matrix_norm(x, ord, r, c, keepdims)
    if r == c then fail("linalg.norm: the two axes are the same") end
    if ord == nil or ord == "fro" then
      local ax = ga.abs(x)
      return ga.sqrt(ga.sum(ga.multiply(ax, ax), { axis = { r, c }, keepdims = keepdims }))
    end
    if ord == "nuc" or ord == 2 or ord == -2 then
      local S = svals(x, r, c)
      local res = ord == "nuc" and ga.sum(S, { axis = -1 }) or ord == 2 and ga.max(S, { axis = -1 })
        or ga.min(S, { axis = -1 })
      return restore(res, r, c, keepdims)
    end
    local ax = ga.abs(x)
    local sum_axis, red_axis
    if ord == 1 or ord == -1 then sum_axis, red_axis = r, c
    elseif ord == inf or ord == -inf then sum_axis, red_axis = c, r
    else fail(("linalg.norm: invalid matrix ord %s"):format(tostring(ord))) end
    local s = ga.sum(ax, { axis = sum_axis, keepdims = true })
    local f = (ord == 1 or ord == inf) and ga.max or ga.min
    local res = f(s, { axis = red_axis, keepdims = true })
    if keepdims then return res end
    return res:squeeze(math.max(r, c)):squeeze(math.min(r, c))
  end

  local function norm(x, ord, axis, keepdims)
    x = float_of(h.array_arg(x, "linalg.norm"))
    local nd = x.ndim
    if axis == nil then
      if ord == nil then
        local r = l2_all(x:ravel())
        if keepdims then
          local ones = {}
          for d = 1, nd do ones[d] = 1 end
          return r:reshape(ones)
        end
        return r
      end
      if nd == 1 then return vector_norm(x, ord, 1, keepdims) end
      if nd == 2 then return matrix_norm(x, ord, 1, 2, keepdims) end
      fail("linalg.norm: an ord for an array of more than 2 axes needs axis")
    end
    if type(axis) == "table" then
      if #axis == 1 then return vector_norm(x, ord, norm_axis(axis[1], nd), keepdims) end
      if #axis ~= 2 then fail("linalg.norm: axis is one axis or two") end
      return matrix_norm(x, ord, norm_axis(axis[1], nd), norm_axis(axis[2], nd), keepdims)
    end
    return vector_norm(x, ord, norm_axis(axis, nd), keepdims)
  end

  def(linalg, [[
linalg.norm(x: array_like, ord: number|"fro"|"nuc"?, axis: axes?, keepdims: boolean = false) -> ndarray
Matrix or vector norm (NumPy's): vector ords 2 (default), 1, inf, -inf, 0 and any p; matrix ords "fro"
(default), "nuc", 1, -1, 2, -2, inf, -inf. axis: one axis (vectors) or two (matrices), 1-based.
]], norm)

  def(linalg, [[
linalg.vector_norm(x: array_like, *, axis: axes?, keepdims: boolean = false, ord: number = 2) -> ndarray
The vector norm over axis (nil: every element, as one flat vector), NumPy 2's.
]], function(x, axis, keepdims, ord)
    x = float_of(h.array_arg(x, "linalg.vector_norm"))
    if axis == nil then
      local r = vector_norm(x:ravel(), ord, 1, false)
      if keepdims then
        local ones = {}
        for d = 1, x.ndim do ones[d] = 1 end
        return r:reshape(ones)
      end
      return r
    end
    if type(axis) == "table" and #axis ~= 1 then
      -- several axes: move them last and flatten them into one
      local nd, keep, moved = x.ndim, {}, {}
      local chosen = {}
      for _, a in ipairs(axis) do chosen[norm_axis(a, nd)] = true end
      local perm = {}
      for d = 1, nd do if not chosen[d] then perm[#perm + 1] = d; keep[#keep + 1] = x.shape[d] end end
      for d = 1, nd do if chosen[d] then perm[#perm + 1] = d; moved[#moved + 1] = x.shape[d] end end
      local count = 1
      for _, v in ipairs(moved) do count = count * v end
      local shape = { table.unpack(keep) }
      shape[#shape + 1] = count
      local r = vector_norm(x:transpose(perm):reshape(shape), ord, #shape, false)
      if keepdims then
        local full = {}
        for d = 1, nd do full[d] = chosen[d] and 1 or x.shape[d] end
        return r:reshape(full)
      end
      return r
    end
    if type(axis) == "table" then axis = axis[1] end
    return vector_norm(x, ord, norm_axis(axis, x.ndim), keepdims)
  end)

  def(linalg, [[
linalg.matrix_norm(x: array_like, *, keepdims: boolean = false, ord: number|"fro"|"nuc" = "fro") -> ndarray
The norm of each matrix of x (its last two axes), NumPy 2's.
]], function(x, keepdims, ord)
    x = float_of(h.matrices(x, "matrix_norm"))
    return matrix_norm(x, ord, x.ndim - 1, x.ndim, keepdims)
  end)
end
