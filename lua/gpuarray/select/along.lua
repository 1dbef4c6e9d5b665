--- take_along_axis and put_along_axis (API.md §14; bench key
-- take_along_axis_f32_GBps): one ElementwiseKernel over the index space,
-- the array raw. Each element splits its linear index into coordinates
-- (32-bit divisions when the index space has fewer than 2^31 elements),
-- replaces the axis coordinate by its index, and reads (or writes) there.
--
-- Indices are 1-based and wrap like every integer-array index here (no
-- check, which would need a sync): on an axis of length n, k selects the
-- 0-based position (k - 1) mod n for k >= 0 and (k + n) mod n for k < 0.
-- The non-axis dimensions of the array and the indices broadcast.
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail, shape_str = internal.fail, internal.shape_str
  local def = api.def

  local PREAMBLE = [[
template <typename I> __device__ __forceinline__ I ga_wrap1(I k, I n) {
  I z = k >= 0 ? k - 1 : k + n;
  if (z >= 0 && z < n) return z;
  z %= n;
  return z < 0 ? z + n : z;
}
]]

  -- The coordinates of element i of the index space (the array's shape,
  -- with klen along the axis), the axis coordinate from the index j
  local function coords(nd, axis0, U, S)
    local L = {}
    L[#L + 1] = ("      %s _r = (%s)i;"):format(U, U)
    L[#L + 1] = ("      %s _c[%d];"):format(S, nd)
    for d = nd - 1, 0, -1 do
      local len = d == axis0 and ("(%s)klen"):format(U) or ("(%s)x.shape()[%d]"):format(U, d)
      if d > 0 then
        L[#L + 1] = ("      _c[%d] = (%s)(_r %% %s); _r = _r / %s;"):format(d, S, len, len)
      else
        L[#L + 1] = ("      _c[0] = (%s)_r;"):format(S)
      end
    end
    L[#L + 1] = ("      _c[%d] = ga_wrap1<%s>((%s)j, (%s)x.shape()[%d]);"):format(axis0, S, S, S, axis0)
    return table.concat(L, "\n")
  end

  -- take: y is assigned by the first statement (the engine then does not
  -- load it first); put: x written at the element's position
  local function op(nd, axis0, kind)
    local action = kind == "take" and "return x[_c];" or "x[_c] = v;"
    local body = ("    if (_ind.size() <= 0x7fffffffLL) {\n%s\n      %s\n    } else {\n%s\n      %s\n    }"):format(
      coords(nd, axis0, "unsigned", "int"), action, coords(nd, axis0, "unsigned long long", "long long"), action)
    if kind == "take" then return "    y = [&]() -> T {\n" .. body .. "\n    }()" end
    return body
  end

  local kernels = {}
  local function kernel(kind, nd, axis0)
    local key = kind .. nd .. "_" .. axis0
    local k = kernels[key]
    if not k then
      if kind == "take" then
        k = ga.ElementwiseKernel("raw T x, J j, int64 klen", "T y", op(nd, axis0, "take"),
                                 ("ga_take_along_%d_%d"):format(nd, axis0), { preamble = PREAMBLE })
      else
        k = ga.ElementwiseKernel("raw T x, J j, T v, int64 klen", "", op(nd, axis0, "put"),
                                 ("ga_put_along_%d_%d"):format(nd, axis0), { preamble = PREAMBLE })
      end
      kernels[key] = k
    end
    return k
  end
  internal.along_kernel = kernel   -- for the CPU spec's NVRTC compile

  -- (x, indices, axis) checked; returns x (broadcast along the other axes),
  -- the index array, the 1-based axis and the index space's shape
  local function prepare(arr, indices, axis, fname)
    local x = args.array(ga, arr, fname)
    local idx = args.array(ga, indices, fname)
    if not args.INDEX_DTYPES[idx.dtype] then
      fail(("%s: indices must be integers, got %s"):format(fname, idx.dtype))
    end
    if axis == false then
      if idx.ndim ~= 1 then fail(fname .. ": without an axis, indices must be 1-D") end
      x = x:ravel()
      axis = 1
    end
    if x.ndim ~= idx.ndim then
      fail(("%s: indices and the array must have the same number of dimensions, got %d and %d")
        :format(fname, idx.ndim, x.ndim))
    end
    local nd = x.ndim
    if nd == 0 then fail(fname .. ": a 0-d array has no axis") end
    local ax = args.axis(axis, nd, fname)
    local xs, is = x.shape, idx.shape
    local space = {}
    for d = 1, nd do
      if d == ax then
        space[d] = is[d]
      elseif xs[d] == is[d] or is[d] == 1 then
        space[d] = xs[d]
      elseif xs[d] == 1 then
        space[d] = is[d]
      else
        fail(("%s: shapes %s (array) and %s (indices) do not broadcast outside axis %d")
          :format(fname, shape_str(xs), shape_str(is), ax))
      end
    end
    local xt = {}
    for d = 1, nd do xt[d] = d == ax and xs[d] or space[d] end
    if not args.same_shape(xt, xs) then x = ga.broadcast_to(x, xt) end
    if xs[ax] == 0 and args.prod(space) > 0 then
      fail(("%s: cannot index an empty axis %d"):format(fname, ax))
    end
    return x, idx, ax, space
  end

  def(ga, [[
take_along_axis(arr: array_like, indices: array_like, axis: integer|false = -1) -> ndarray
Elements of arr picked along axis by indices (1-based, wrapping as
integer-array indices do), which has arr's number of dimensions; the other
axes of the two broadcast. axis = false: arr flattened, indices 1-D.
Positions from argsort/argmax (keepdims) fit as they are.
]], function(arr, indices, axis)
    local x, idx, ax, space = prepare(arr, indices, axis, "take_along_axis")
    local y = ga.empty(space, x.dtype)
    if y.size == 0 then return y end
    local j = args.same_shape(idx.shape, space) and idx or ga.broadcast_to(idx, space)
    kernel("take", x.ndim, ax - 1)(x, j, space[ax], y)
    return y
  end)

  def(ga, [[
put_along_axis(arr: ndarray, indices: array_like, values: array_like, axis: integer|false)
arr's elements at indices along axis (1-based, wrapping) set to values
(broadcast to the indices' space, cast to arr's dtype), in place. The
other axes of arr and indices broadcast. Where an index repeats, which
value lands is unspecified.
]], function(arr, indices, values, axis)
    local x, idx, ax, space = prepare(arr, indices, axis, "put_along_axis")
    local size = args.prod(space)
    if size == 0 then return end
    local v = args.array(ga, values, "put_along_axis", x.dtype)
    local ok, vs = pcall(ga.broadcast_shapes, v.shape, space)
    if not ok or not args.same_shape(vs, space) then
      fail(("put_along_axis: values of shape %s do not broadcast to %s"):format(shape_str(v.shape), shape_str(space)))
    end
    local j = args.same_shape(idx.shape, space) and idx or ga.broadcast_to(idx, space)
    -- reading what it writes would race: the values are taken first
    if not args.same_shape(v.shape, space) then v = ga.broadcast_to(v, space) end
    if v.base ~= nil and (v.base == arr or v.base == arr.base) then v = v:copy() end
    kernel("put", x.ndim, ax - 1)(x, j, v, space[ax])
  end)
end
