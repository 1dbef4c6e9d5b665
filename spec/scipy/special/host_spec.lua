--- kernels/special's device functions compiled for the host and checked
-- against SciPy's values (refs.lua) without a GPU: tools/special/harness.cpp
-- with a host C++ compiler (pending where there is none). The GPU runs the
-- same source (values_gpu_spec.lua); CUDA's own math functions (erf, lgamma,
-- j0, ...) stand in for themselves here through libm and host_shim.h.
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

  it("matches SciPy within each function's tolerance", function()
    local input = os.tmpname()
    local h = assert(io.open(input, "w"))
    local order = {}
    for _, name in ipairs(list) do
      for _, a in ipairs(sfref.refs[name].args) do
        local row = { name }
        for k = 1, 4 do row[#row + 1] = ("%.17g"):format(a[k] or 0) end
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
    local bad = {}
    for _, name in ipairs(list) do
      local r = sfref.refs[name]
      local msg = sfref.check(name, r.args, got[name], r.f64, r.ulps, 52, r.atol, r.logk)
      if msg then bad[#bad + 1] = msg end
    end
    assert(#bad == 0, table.concat(bad, "\n"))
  end)
end)
