--- Issue 23's "tried as a new user would" list, one case per example: each
-- failed on the main of that day and passes now. Without a GPU the binder's
-- side of each call is checked (api.apply: the values the implementation
-- receives, or the error raised before any device work); with one, the call
-- itself.
local helper = require "spec.helper"
local ga = require "gpuarray"
local api = require "gpuarray.api"

local gpu_it = helper.gpu_it

local function applied(qualname, ...)
  return table.pack(api.apply(api.by_name[qualname].decl, ...))
end

describe("issue 23: options tables", function()
  it("random.choice's {replace = false} is replace, not a truthy size", function()
    local v = applied("random.choice", 100, 50, { replace = false })
    assert.equal(100, v[1])
    assert.equal(50, v[2])
    assert.equal(false, v[3])
  end)

  gpu_it("random.choice without replacement gives distinct values", function()
    local t = ga.random.choice(100, 50, { replace = false }):totable()
    local seen = {}
    for _, x in ipairs(t) do
      assert.is_nil(seen[x], "repeated " .. x)
      seen[x] = true
    end
    assert.equal(50, #t)
  end)

  it("triu, diag, tensordot and sparse.eye take their optional arguments by name", function()
    assert.equal(1, applied("triu", { { 1 } }, { k = 1 })[2])
    assert.equal(-2, applied("diag", { 1, 2 }, { k = -2 })[2])
    assert.equal(1, applied("tensordot", { 1 }, { 1 }, { axes = 1 })[3])
    local v = applied("sparse.eye", 3, 4, 1)
    assert.same({ 3, 4, 1 }, { v[1], v[2], v[3] })
  end)

  gpu_it("triu, diag, tensordot and sparse.eye compute NumPy's values", function()
    local x = ga.arange(1, 10):reshape(3, 3)
    assert.same({ { 0, 2, 3 }, { 0, 0, 6 }, { 0, 0, 0 } }, ga.triu(x, { k = 1 }):totable())
    local d = ga.diag(ga.array({ 5, 7 }), { k = -2 }):totable()
    assert.same({ { 0, 0, 0, 0 }, { 0, 0, 0, 0 }, { 5, 0, 0, 0 }, { 0, 7, 0, 0 } }, d)
    local a, b = ga.arange(6.0):reshape(2, 3), ga.arange(6.0):reshape(3, 2)
    assert.same({ { 10, 13 }, { 28, 40 } }, ga.tensordot(a, b, { axes = 1 }):totable())
    assert.same({ { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 } }, ga.sparse.eye(3, 4, 1):toarray():totable())
    assert.same(ga.eye(3, 4, 1):totable(), ga.sparse.eye(3, 4, 1):toarray():totable())
  end)

  it("a misspelled key raises with the nearest name", function()
    helper.assert_gaerror(function() ga.sum({ 1, 2 }, { axsi = 2 }) end,
                          "sum: unknown option 'axsi' (did you mean 'axis'?)")
    helper.assert_gaerror(function() ga.fuse(function(x) return x end, { nam = "f" }) end,
                          "fuse: unknown option 'nam' (did you mean 'name'?)")
    local ok, err = pcall(api.apply, api.by_name["MemoryPool:set_limit"].decl, ga.MemoryPool, { sise = 1 })
    assert.is_false(ok)
    assert.matches("unknown option 'sise' %(did you mean 'size'%?%)", err)
  end)

  gpu_it("pool:set_limit refuses a misspelled key", function()
    local pool = ga.MemoryPool()
    helper.assert_gaerror(function() pool:set_limit({ sise = 1 }) end,
                          "set_limit: unknown option 'sise' (did you mean 'size'?)")
  end)
end)

describe("issue 23: values", function()
  it("complex64(1, 2) keeps the imaginary part", function()
    assert.equal("complex64(1+2j)", tostring(ga.complex64(1, 2)))
  end)

  it("int32(7) + 1 is int32(8), NumPy's scalar promotion", function()
    local v = ga.int32(7) + 1
    assert.equal("int32(8)", tostring(v))
    assert.equal(ga.int32, ga.dtype(v))
  end)

  it("dtype values are interned", function()
    assert.equal(ga.dtype("float32"), ga.dtype("float32"))
    assert.is_true(ga.dtype("float32") == ga.float32)
  end)
end)

describe("issue 23: errors name the function called", function()
  -- without a device the first device use raises; the message names the
  -- public function, never the helper it called
  local cases = {
    { "linalg.inv", function() return ga.linalg.inv({ { 1, 2 }, { 2, 4 } }) end },
    { "fft.fftfreq", function() return ga.fft.fftfreq(0) end },
    { "random.random", function() return ga.random.random(-1) end },
    { "benchmark", function() return ga.benchmark(print, { n_repeat = 0 }) end },
    { "reshape", function() return ga.reshape(1, 2) end },
  }
  for _, c in ipairs(cases) do
    it(c[1], function()
      local ok, err = pcall(c[2])
      assert.is_false(ok)
      assert.equal("gpuarray: " .. c[1] .. ": ", tostring(err):sub(1, #c[1] + 12))
    end)
  end
end)
