-- Every copy-engine template instantiation the launch paths can generate
-- compiles with NVRTC for sm_90 (no GPU needed). Each kind is one program
-- holding all its dtype pairs, so CI compiles a handful of programs.
local helper = require "helper"
local ga = helper.ga
local core = ga._core

local NAMES = ga.dtype_names()

local function compile(wrappers)
  local src = core.compile.kernel_source("common") .. core.compile.kernel_source("copy") .. table.concat(wrappers)
  return core._test.compile(src, nil, 90)
end

describe("copy engine kernels compile for sm_90", function()
  it("flat casts, every dtype pair and vector width", function()
    local w = {}
    for i, to in ipairs(NAMES) do
      for j, from in ipairs(NAMES) do
        local wide = math.max(ga.dtype(to).itemsize, ga.dtype(from).itemsize)
        local v = math.max(1, 16 // wide)
        w[#w + 1] = core._test.copy_wrapper("flat", ("k%d_%d"):format(i, j), to, from, v, 1, false)
        w[#w + 1] = core._test.copy_wrapper("flat", ("k%d_%d_s"):format(i, j), to, from, 1, 1, true)
      end
    end
    assert.is_true(compile(w) > 0)
  end)

  it("strided casts, every dtype pair, 32- and 64-bit indexing", function()
    local w = {}
    for i, to in ipairs(NAMES) do
      for j, from in ipairs(NAMES) do
        w[#w + 1] = core._test.copy_wrapper("strided", ("k%d_%d"):format(i, j), to, from, 1, 1 + (i + j) % 4, false)
        w[#w + 1] = core._test.copy_wrapper("strided", ("q%d_%d"):format(i, j), to, from, 1, 3, true)
      end
    end
    assert.is_true(compile(w) > 0)
  end)

  it("tiled (transposing) casts, every dtype pair", function()
    local w = {}
    for i, to in ipairs(NAMES) do
      for j, from in ipairs(NAMES) do
        w[#w + 1] = core._test.copy_wrapper("tiled", ("k%d_%d"):format(i, j), to, from)
      end
    end
    assert.is_true(compile(w) > 0)
  end)

  it("fill and arange, every dtype", function()
    local w = {}
    for i, t in ipairs(NAMES) do
      w[#w + 1] = core._test.copy_wrapper("fill", "f" .. i, t, t, math.max(1, 16 // ga.dtype(t).itemsize), 1, false)
      w[#w + 1] = core._test.copy_wrapper("fill_strided", "s" .. i, t, t, 1, 2, false)
      w[#w + 1] = core._test.copy_wrapper("fill_strided", "S" .. i, t, t, 1, 5, true)
      w[#w + 1] = core._test.copy_wrapper("arange", "a" .. i, t, t)
    end
    assert.is_true(compile(w) > 0)
  end)

  it("reports a compile error with the offending line", function()
    local err = helper.assert_gaerror(function()
      core._test.compile(core.compile.kernel_source("common") .. "\n__global__ void bad() { int x = ; }\n", nil, 90)
    end, "compile error")
    assert.truthy(err:find("int x = ;", 1, true))
  end)
end)
