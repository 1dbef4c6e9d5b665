--- kernels/special's device functions compiled for the host and checked
-- against SciPy's values (refs.lua) without a GPU: tools/special/harness.cpp
-- with a host C++ compiler (pending where there is none). The GPU runs the
-- same source (values_gpu_spec.lua); CUDA's own math functions (erf, lgamma,
-- ...) stand in for themselves here through libm and host_shim.h.
local helper = require "helper"
local sfref = require "spec.scipy.special.sfref"

local ok_cxx = helper.sh("command -v c++")

describe("scipy.special on the host", function()
  if not ok_cxx then
    pending("no host C++ compiler")
    return
  end
  local exe = os.tmpname()
  setup(function()
    local ok, out = helper.sh(("c++ -O1 -Ikernels/special tools/special/harness.cpp -o %s"):format(exe))
    assert(ok, out)
  end)
  teardown(function() os.remove(exe) end)

  local names = {}
  local f = assert(io.open("tools/special/harness_list.h"))
  for line in f:lines() do
    local n = line:match("^F%d%((%w[%w_]*),")
    if n then names[n] = true end
  end
  f:close()
  local list = {}
  for name in pairs(sfref.refs) do if names[name] then list[#list + 1] = name end end
  table.sort(list)

  --- every function of list at its points (args transformed by conv),
  -- through the harness: name -> results
  local function run(conv, hname)
    local input = os.tmpname()
    local h = assert(io.open(input, "w"))
    local order = {}
    for _, name in ipairs(list) do
      for _, a in ipairs(sfref.refs[name].args) do
        local row = { hname and hname(name) or name }
        for k = 1, 4 do row[#row + 1] = ("%.17g"):format(conv(a[k] or 0)) end
        h:write(table.concat(row, " "):gsub("%-?nan", "nan"):gsub("inf", "inf"), "\n")
        order[#order + 1] = name
      end
    end
    h:close()
    local ok, out = helper.sh(("%s < %s"):format(exe, input))
    os.remove(input)
    assert(ok, out)
    local got, pos = {}, 0
    for v in out:gmatch("%S+") do
      pos = pos + 1
      local n = order[pos]
      got[n] = got[n] or {}
      got[n][#got[n] + 1] = tonumber(v) or (v:find("nan") and 0 / 0) or (v:find("^%-inf") and -1 / 0) or 1 / 0
    end
    return got
  end

  it("matches SciPy within each function's tolerance", function()
    local got = run(function(v) return v end)
    local bad = {}
    for _, name in ipairs(list) do
      local r = sfref.refs[name]
      local msg = sfref.check(name, r.args, got[name], r.f64, r.ulps, 52, r.atol, r.logk)
      if msg then bad[#bad + 1] = msg end
    end
    assert(#bad == 0, table.concat(bad, "\n"))
  end)

  -- the float32 loops: the points rounded to float32 (beyond its range:
  -- inf, as NumPy's astype), the double function's result rounded, or the
  -- float overload where one computes as SciPy's float32 loop (f32_<name>
  -- in harness_list.h), against SciPy's float32 values as
  -- values_gpu_spec.lua checks; not the overloads that call CUDA's float
  -- functions (host libm's differ)
  local CUDA_FLOAT = { erf = true, erfc = true, erfcx = true, erfinv = true, erfcinv = true, gammaln = true,
                       expit = true }
  it("float32 loops match SciPy's float32 values", function()
    local got = run(helper.to_f32, function(name) return names["f32_" .. name] and "f32_" .. name or name end)
    local bad = {}
    for _, name in ipairs(list) do
      if not CUDA_FLOAT[name] then
        local r = sfref.refs[name]
        local args32, y32 = {}, {}
        for i, a in ipairs(r.args) do
          args32[i] = {}
          for k, v in ipairs(a) do args32[i][k] = helper.to_f32(v) end
          y32[i] = helper.to_f32(got[name][i])
        end
        local msg = sfref.check(name .. " float32", args32, y32, r.f32, math.max(r.ulps32, 2), 23,
                                math.max(r.atol, 1e-30), r.logk)
        if msg then bad[#bad + 1] = msg end
      end
    end
    assert(#bad == 0, table.concat(bad, "\n"))
  end)
end)
