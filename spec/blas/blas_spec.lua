-- The library-handle home (src/libs/) through its first user, cuBLAS's dot:
-- values against a Lua sum, on the current stream, from several streams.
local helper = require "helper"
local ga = helper.ga
local core = ga._core

local function lua_dot(a, b)
  local s = 0
  for i = 1, #a do s = s + a[i] * b[i] end
  return s
end

describe("libs: cuBLAS through the handle home", function()
  it("raises a gpuarray error for bad arguments, without a GPU too", function()
    local ok, err = pcall(core._test.blas_dot, 1, 2)
    assert.is_false(ok)
    assert.matches("^gpuarray: ", tostring(err))
  end)

  for _, dt in ipairs({ "float32", "float64" }) do
    helper.gpu_it("dot of random " .. dt .. " vectors matches a Lua sum", function()
      for _, n in ipairs({ 1, 7, 1000, 4097 }) do
        local a, b = {}, {}
        for i = 1, n do a[i], b[i] = math.random() * 2 - 1, math.random() * 2 - 1 end
        local r = core._test.blas_dot(ga.array(a, dt), ga.array(b, dt))
        assert.are.equal(dt, r.dtype)
        assert.are.same({}, r.shape)
        local want = lua_dot(a, b)
        local tol = dt == "float32" and 1e-5 * n or 1e-12 * n
        local got = r:item()
        assert.is_true(math.abs(got - want) <= tol * (1 + math.abs(want)), ("n=%d: %g vs %g"):format(n, got, want))
      end
    end)
  end

  helper.gpu_it("strided views and several streams use one handle each, bound per call", function()
    local n = 3000
    local a = ga.array((function() local t = {} for i = 1, 2 * n do t[i] = math.random() end return t end)(), "float64")
    local v = a[{ { 1, -1, 2 } }]
    local w = a[{ { 2, -1, 2 } }]
    local av, aw = v:totable(), w:totable()
    local want = lua_dot(av, aw)
    for _ = 1, 3 do
      local s = ga.Stream({ non_blocking = true })
      local _ <close> = s:scope()
      local r = core._test.blas_dot(v, w)
      s:synchronize()
      assert.is_true(math.abs(r:item() - want) <= 1e-12 * n * (1 + math.abs(want)))
    end
    assert.are.equal(0, core._test.blas_dot(ga.empty(0, "float32"), ga.empty(0, "float32")):item())
  end)

  helper.gpu_it("mismatched dtypes and shapes raise naming the function", function()
    local ok, err = pcall(core._test.blas_dot, ga.ones(3, "float32"), ga.ones(3, "float64"))
    assert.is_false(ok)
    assert.matches("gpuarray: _blas_dot: float32 or float64", tostring(err))
    ok, err = pcall(core._test.blas_dot, ga.ones(3), ga.ones(4))
    assert.is_false(ok)
    assert.matches("gpuarray: _blas_dot: vectors of one length", tostring(err))
  end)
end)
