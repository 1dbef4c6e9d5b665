--- Cumulative sums and products beyond cumsum/cumprod: the NaN-ignoring
-- ones (nancumsum, nancumprod: NaN counts as 0 / 1) and NumPy 2's
-- array-API cumulative_sum / cumulative_prod (axis required beyond 1-D,
-- include_initial). All run on the scan engine.
local api = require "gpuarray.api"
local internal = require "gpuarray.internal"

return function(ga)
  local fail = internal.fail
  local def = api.def

  local U = require "gpuarray.math.util"
  local inexact = U.inexact

  for _, c in ipairs { { "nancumsum", ga.cumsum, 0, "sum", "zero" },
                       { "nancumprod", ga.cumprod, 1, "product", "one" } } do
    local name, scan, neutral, what, as = c[1], c[2], c[3], c[4], c[5]
    def(ga, ([[
%s(a: array_like, axis: axis?, dtype: dtype?, out: ndarray?) -> ndarray
Cumulative %s along axis (1-based; the flattened array without one)
treating NaN as %s; integers as %s does.
]]):format(name, what, as, name:sub(4)), function(a, axis, dtype, out)
      a = ga.asarray(a)
      if inexact(a.dtype) then a = ga.where(ga.isnan(a), neutral, a) end
      return scan(a, axis, dtype, out)
    end)
  end

  for _, c in ipairs { { "cumulative_sum", ga.cumsum, 0, "sum" }, { "cumulative_prod", ga.cumprod, 1, "product" } } do
    local name, scan, neutral, what = c[1], c[2], c[3], c[4]
    def(ga, ([[
%s(x: array_like, *, axis: axis?, dtype: dtype?, out: ndarray?, include_initial: boolean = false) -> ndarray
Cumulative %s along axis (1-based; required for more than one dimension),
NumPy 2's array-API form: include_initial starts each result with the
identity (%d), one element longer along axis.
]]):format(name, what, neutral), function(x, axis, dtype, out, include_initial)
      x = ga.asarray(x)
      if x.ndim == 0 then fail(name .. ": the input must have at least one dimension") end
      if axis == nil then
        if x.ndim > 1 then fail(name .. ": axis is required for arrays of more than one dimension") end
        axis = 1
      end
      if not include_initial then return scan(x, axis, dtype, out) end
      local r = scan(x, axis, dtype)
      local a = axis > 0 and axis or x.ndim + axis + 1
      local shape = r.shape
      shape[a] = shape[a] + 1
      local full = ga.empty(shape, r.dtype)
      U.slice(full, a, 1, 1):fill(neutral)
      if r.size > 0 then U.slice(full, a, 2, shape[a]):set(r) end
      if out == nil then return full end
      internal.check_out(out, shape, name)
      out:set(full)
      return out
    end)
  end
end
