-- ga.jit's % and // with Lua's meaning (issue 26): for floats, every sign
-- combination, signed zeros, infinities and NaN against Lua's own
-- operators; for integers, every sign combination (a zero divisor gives 0
-- in a kernel, where Lua raises). The translation is checked here; the
-- values on the GPU.
local helper = require "helper"
local ga = helper.ga
local jit = ga.jit

local function modk(a, b, m, q, n)
  local i = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
  if i < n then
    m[i] = a[i] % b[i]
    q[i] = a[i] // b[i]
  end
end

local inf, nan = math.huge, 0 / 0
local FLOATS = { -7.5, 7.5, -2.0, 2.0, 0.0, -0.0, inf, -inf, nan, 3.25, -3.25, 5.0, -5.0, 1e300, -1e-300 }
local INTS = { -7, 7, -2, 2, 3, -3, 1, -1, 0, 100, -100, math.maxinteger, math.mininteger }

local function same(x, y)
  if x ~= x then return y ~= y end
  return x == y and (x ~= 0 or math.type(x) == "integer" or 1 / x == 1 / y)
end

describe("jit % and //", function()
  it("translate % on floats to the helper with Lua's sign rule, which NVRTC compiles", function()
    local src = jit.rawkernel(modk):source("float64[]", "float64[]", "float64[]", "float64[]", "int64")
    assert.is_truthy(src:find("_jit_fmod_lua(", 1, true))
    assert.is_truthy(src:find("(m < 0.0 && b > 0.0)", 1, true))
    assert.is_nil(src:find("b != m", 1, true))
    assert.is_true(ga._core._test.compile(src, nil, 90) > 0)
  end)

  helper.gpu_it("match Lua's operators on floats (float64 and float32), every pair of special values", function()
    local k = jit.rawkernel(modk)
    for _, dt in ipairs { "float64", "float32" } do
      local ha, hb = {}, {}
      for _, a in ipairs(FLOATS) do
        for _, b in ipairs(FLOATS) do
          local function exact(v) return v ~= v or helper.to_f32(v) == v end   -- float32 holds it as it is
          if dt == "float64" or (exact(a) and exact(b)) then
            ha[#ha + 1], hb[#hb + 1] = a, b
          end
        end
      end
      local n = #ha
      local a, b = ga.array(ha, dt), ga.array(hb, dt)
      local m, q = ga.empty(n, dt), ga.empty(n, dt)
      k((n + 127) // 128, 128, { a, b, m, q, n })
      local gm, gq = m:totable(), q:totable()
      for i = 1, n do
        local wm, wq = ha[i] % hb[i], ha[i] // hb[i]
        assert(same(wm, gm[i]), ("%s: %.17g %% %.17g: got %.17g, Lua gives %.17g"):format(dt, ha[i], hb[i], gm[i], wm))
        assert(same(wq, gq[i]), ("%s: %.17g // %.17g: got %.17g, Lua gives %.17g"):format(dt, ha[i], hb[i], gq[i], wq))
      end
    end
  end)

  helper.gpu_it("match Lua's operators on integers (int64 and int32); a zero divisor gives 0", function()
    local k = jit.rawkernel(modk)
    for _, dt in ipairs { "int64", "int32" } do
      local ha, hb = {}, {}
      for _, a in ipairs(INTS) do
        for _, b in ipairs(INTS) do
          -- int32 takes the values it holds (math.abs(math.mininteger) wraps
          -- to itself: a range test, not a magnitude test)
          local function fits32(v) return v >= -(1 << 31) and v < (1 << 31) end
          if dt == "int64" or (fits32(a) and fits32(b)) then
            ha[#ha + 1], hb[#hb + 1] = a, b
          end
        end
      end
      local n = #ha
      local a, b = ga.array(ha, dt), ga.array(hb, dt)
      local m, q = ga.empty(n, dt), ga.empty(n, dt)
      k((n + 127) // 128, 128, { a, b, m, q, n })
      local gm, gq = m:totable(), q:totable()
      for i = 1, n do
        local wm, wq = 0, 0
        if hb[i] ~= 0 then wm, wq = ha[i] % hb[i], ha[i] // hb[i] end
        if dt == "int32" then   -- int32 wraps as the kernel's arithmetic does
          wq = ((wq + (1 << 31)) % (1 << 32)) - (1 << 31)
        end
        assert(wm == gm[i], ("%s: %d %% %d: got %d, Lua gives %d"):format(dt, ha[i], hb[i], gm[i], wm))
        assert(wq == gq[i], ("%s: %d // %d: got %d, Lua gives %d"):format(dt, ha[i], hb[i], gq[i], wq))
      end
    end
  end)
end)
