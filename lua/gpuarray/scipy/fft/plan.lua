--- Plans for scipy.fft's plan= and fftpack.get_fft_plan (CuPy's). gpuarray
-- caches cuFFT plans itself (ga.fft.cache_info): a plan object here
-- records what it was made for, and a call given one checks that the
-- array and axes match it, as CuPy does, then uses the cache.
-- One metatable for the whole process: scipy.fft and scipy.fftpack each
-- call this module's function, and a plan made by either must be
-- recognised by both.
local PlanMT = { __name = "gpuarray.FFTPlan" }
PlanMT.__index = PlanMT
function PlanMT.__tostring(p)
  return ("<FFTPlan %s shape {%s} axes {%s}>"):format(p.value_type, table.concat(p.shape, ","),
                                                       table.concat(p.fft_axes, ","))
end

return function()
  local internal = require "gpuarray.internal"
  local fail = internal.fail
  local M = {}

  function M.new(shape, axes, value_type)
    return setmetatable({ shape = shape, fft_axes = axes, value_type = value_type }, PlanMT)
  end

  function M.is_plan(v) return getmetatable(v) == PlanMT end

  --- raise unless plan (nil, or made by get_fft_plan) fits x and axes
  function M.check(plan, x, axes, name)
    if plan == nil then return end
    if not M.is_plan(plan) then fail(("scipy.fft.%s: plan must come from fftpack.get_fft_plan"):format(name)) end
    local sh = x.shape
    local same = #sh == #plan.shape
    for d = 1, #sh do same = same and sh[d] == plan.shape[d] end
    if not same then
      fail(("scipy.fft.%s: the plan was made for shape {%s}, x has shape {%s}"):format(name,
        table.concat(plan.shape, ","), table.concat(sh, ",")))
    end
    if axes ~= nil then
      local list = type(axes) == "table" and axes or { axes }
      local nd = #sh
      local want = {}
      for i, a in ipairs(plan.fft_axes) do want[i] = a < 0 and a + nd + 1 or a end
      local ok = #list == #want
      for i, a in ipairs(list) do ok = ok and (a < 0 and a + nd + 1 or a) == want[i] end
      if not ok then fail(("scipy.fft.%s: the plan was made for other axes"):format(name)) end
    end
  end
  return M
end
