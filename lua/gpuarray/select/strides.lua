--- Views by strides (API.md §14): ga.lib.stride_tricks.as_strided and
-- sliding_window_view. Both are views of the same memory made by the C
-- core.ndarray.as_strided, which refuses a view that would reach outside the
-- array's memory block or misalign its elements (NumPy's as_strided reads
-- whatever memory the strides reach; here a bad view raises instead).
-- Views are writable (gpuarray has no read-only arrays): writing through
-- overlapping windows writes the shared elements.
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail = internal.fail
  local as_strided_view = ga._core.ndarray.as_strided

  ga.lib = ga.lib or {}
  local st = ga.lib.stride_tricks or {}
  ga.lib.stride_tricks = st

  api.def(st, [[
lib.stride_tricks.as_strided(x: ndarray, shape: shape?, strides: shape?, *, offset: integer = 0) -> ndarray
A view of x's memory with the given shape and strides (in bytes, negative
allowed; x's own when nil), starting offset bytes after x's first element.
Raises when the view would reach outside x's memory block.
]], function(x, shape, strides, offset)
    shape = shape or x.shape
    strides = strides or x.strides
    if type(shape) ~= "table" then shape = { shape } end
    if type(strides) ~= "table" then strides = { strides } end
    if #shape ~= #strides then
      fail(("as_strided: %d strides for %d dimensions"):format(#strides, #shape))
    end
    return as_strided_view(x, shape, strides, offset)
  end)

  api.def(st, [[
lib.stride_tricks.sliding_window_view(x: array_like, window_shape: shape, axis: axes?) -> ndarray
A view of every window of x of window_shape: the result has x's axes
(shortened to the number of window positions) followed by the window's
axes. axis says which axes the window lengths slide along (1-based, one
may repeat); every axis when nil.
]], function(x, window_shape, axis)
    x = args.array(ga, x, "sliding_window_view")
    local w = type(window_shape) == "table" and window_shape or { window_shape }
    local nd = x.ndim
    local axes = {}
    if axis == nil then
      if #w ~= nd then
        fail(("sliding_window_view: without axis, window_shape gives every axis: %d lengths for %d dimensions")
          :format(#w, nd))
      end
      for d = 1, nd do axes[d] = d end
    else
      for i, a in ipairs(type(axis) == "table" and args.plain(axis, "sliding_window_view", "axis") or { axis }) do
        axes[i] = args.axis(a, nd, "sliding_window_view")
      end
      if #w ~= #axes then
        fail(("sliding_window_view: %d window lengths for %d axes"):format(#w, #axes))
      end
    end
    local shape, strides = x.shape, x.strides
    local out_strides = {}
    for d = 1, nd do out_strides[d] = strides[d] end
    for i, ax in ipairs(axes) do
      if w[i] < 0 then fail("sliding_window_view: window_shape cannot be negative") end
      if shape[ax] < w[i] then
        fail(("sliding_window_view: a window of %d along axis %d is longer than the axis (%d)")
          :format(w[i], ax, shape[ax]))
      end
      shape[ax] = shape[ax] - (w[i] - 1)
      out_strides[nd + i] = strides[ax]
    end
    for i = 1, #w do shape[nd + i] = w[i] end
    return as_strided_view(x, shape, out_strides, 0)
  end)
end
