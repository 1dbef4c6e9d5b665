-- Typed scalars do arithmetic as NumPy's scalars do (NEP 50: typed scalars
-- strong, Lua numbers weak), compared with NumPy's answers in
-- core/scalar_ref.lua (written by core/scalar_ref.py). No GPU: the values
-- are computed on the host.
local helper = require "helper"
local ref = require "core.scalar_ref"
local ga = helper.ga

local NAMES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float16", "float32", "float64", "complex64", "complex128" }
local BY_CHAR = {}
for _, name in ipairs(NAMES) do BY_CHAR[ga[name].char] = name end

local OPS = {
  add = function(a, b) return a + b end,
  subtract = function(a, b) return a - b end,
  multiply = function(a, b) return a * b end,
  divide = function(a, b) return a / b end,
  floor_divide = function(a, b) return a // b end,
  remainder = function(a, b) return a % b end,
  power = function(a, b) return a ^ b end,
  bitwise_and = function(a, b) return a & b end,
  bitwise_or = function(a, b) return a | b end,
  bitwise_xor = function(a, b) return a ~ b end,
  left_shift = function(a, b) return a << b end,
  right_shift = function(a, b) return a >> b end,
  negative = function(a) return -a end,
  invert = function(a) return ~a end,
}
local BINARY = { "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power", "bitwise_and",
                 "bitwise_or", "bitwise_xor", "left_shift", "right_shift" }

local function kind(dt) return ga.dtype(dt).kind end

local function float_of(tok)
  if tok == "nan" then return 0 / 0 end
  if tok == "inf" then return math.huge end
  if tok == "-inf" then return -math.huge end
  local v = assert(tonumber(tok), tok)
  return math.type(v) == "integer" and v + 0.0 or v   -- (-0.0 + 0.0 would lose the sign)
end

-- a decimal integer token as Lua's int64 bits (uint64 past 2^63 wraps)
local function int_bits(tok)
  local neg, n = tok:sub(1, 1) == "-", 0
  for d in tok:gmatch("%d") do n = n * 10 + (d + 0) end
  return neg and -n or n
end

--- The typed scalar of dtype dt that a token names
local function typed(dt, tok)
  local k = kind(dt)
  if k == "b" then return ga.bool(tok == "true") end
  if k == "i" then return ga[dt](int_bits(tok)) end
  if k == "u" then return ga[dt](ga.int64(int_bits(tok))) end   -- a C cast: uint64 values past 2^63
  if k == "f" then return ga[dt](float_of(tok)) end
  local re, im = tok:match("^([^,]+),(.+)$")
  return ga[dt](float_of(re), float_of(im))
end

--- An operand: a typed scalar, or a weak Lua value (lua_int, lua_float, lua_bool, lua_pair)
local function operand(dt, tok)
  if dt == "lua_int" then return math.tointeger(int_bits(tok)) end
  if dt == "lua_float" then return float_of(tok) end
  if dt == "lua_bool" then return tok == "true" end
  if dt == "lua_pair" then
    local re, im = tok:match("^([^,]+),(.+)$")
    return { float_of(re), float_of(im) }
  end
  return typed(dt, tok)
end

local function same_float(x, y, rtol)
  if x ~= x then return y ~= y end
  if x == 0 and y == 0 then return 1 / x == 1 / y end      -- the sign of zero
  if rtol and x ~= y and x == x and y == y and math.abs(x) ~= math.huge then
    return math.abs(x - y) <= rtol * math.abs(y)
  end
  return x == y
end

-- a few units in the last place, for powers (the C library's pow may round
-- differently elsewhere)
local POW_RTOL = { float16 = 2 ^ -8, float32 = 2 ^ -20, float64 = 2 ^ -48, complex64 = 2 ^ -20,
                   complex128 = 2 ^ -48 }

--- Does the typed scalar r hold the result token tok of dtype dt?
local function holds(r, dt, tok, rtol)
  if ga.dtype(r) ~= ga.dtype(dt) then return false, ("dtype %s, expected %s"):format(r.dtype, dt) end
  local k, ok = kind(dt), nil
  if k == "b" then
    ok = r:item() == (tok == "true")
  elseif k == "i" or k == "u" then
    ok = tostring(r) == ("%s(%s)"):format(dt, tok)
  elseif k == "f" then
    ok = same_float(r:item(), float_of(tok), rtol)
  else
    local re, im = tok:match("^([^,]+),(.+)$")
    local v = r:item()
    ok = same_float(v[1], float_of(re), rtol) and same_float(v[2], float_of(im), rtol)
  end
  return ok, ("got %s, expected %s"):format(tostring(r), tok)
end

local function words(s)
  local t = {}
  for w in s:gmatch("%S+") do t[#t + 1] = w end
  return t
end

describe("typed scalar arithmetic", function()
  it("gives NumPy's result dtype for every operator and pair of dtypes, typed or weak", function()
    local weak = { 1, 1.0, true, { 0, 1 } }
    local weak_name = { "Lua integer", "Lua float", "Lua boolean", "{re, im}" }
    for _, op in ipairs(BINARY) do
      local rows = ref.promotion[op]
      assert.equal(14, #rows)
      for i, a in ipairs(NAMES) do
        local typed_row, weak_row = rows[i]:match("^(%S+) (%S+)$")
        for j = 1, 18 do
          local c = j <= 14 and typed_row:sub(j, j) or weak_row:sub(j - 14, j - 14)
          local y = j <= 14 and ga[NAMES[j]](1) or weak[j - 14]
          local what = ("%s(%s, %s)"):format(op, a, j <= 14 and NAMES[j] or weak_name[j - 14])
          if c == "-" then
            local err = helper.assert_gaerror(function() return OPS[op](ga[a](1), y) end, op .. ": ")
            assert.falsy(err:find("attempt to", 1, true), what)
          else
            local r = OPS[op](ga[a](1), y)
            assert.equal(BY_CHAR[c], r.dtype, what)
            if j > 14 then assert.equal(BY_CHAR[c], OPS[op](y, ga[a](1)).dtype, what .. " reversed") end
          end
        end
      end
    end
    for _, op in ipairs({ "negative", "invert" }) do
      for i, a in ipairs(NAMES) do
        local c = ref.promotion[op]:sub(i, i)
        if c == "-" then
          helper.assert_gaerror(function() return OPS[op](ga[a](1)) end, op .. ": ")
        else
          assert.equal(BY_CHAR[c], OPS[op](ga[a](1)).dtype, op .. " " .. a)
        end
      end
    end
  end)

  it("computes NumPy's values for every pair of each dtype's edge values", function()
    local n = 0
    for rec in ref.pairs:gmatch("@([^@]+)") do
      local toks = words(rec)
      local op, dt, rdt = toks[1], toks[2], toks[3]
      local vals = words(ref.values[dt])
      local results, k = {}, 3
      if OPS[op] and #toks - 3 == #vals then   -- unary
        for i, x in ipairs(vals) do results[#results + 1] = { x, nil, toks[3 + i] } end
      else
        for _, x in ipairs(vals) do
          for _, y in ipairs(vals) do
            k = k + 1
            results[#results + 1] = { x, y, toks[k] }
          end
        end
        assert.equal(#toks, k, op .. " " .. dt)
      end
      local rtol = op == "power" and POW_RTOL[rdt] or nil
      for _, c in ipairs(results) do
        local x, y, want = c[1], c[2], c[3]
        local what = ("%s(%s(%s)%s)"):format(op, dt, x, y and (", " .. y) or "")
        local a, b = typed(dt, x), y and typed(dt, y)
        if want == "!" then
          helper.assert_gaerror(function() return OPS[op](a, b) end, op .. ": ")
        else
          local ok, msg = holds(OPS[op](a, b), rdt, want, rtol)
          assert(ok, what .. ": " .. msg)
        end
        n = n + 1
      end
    end
    assert.is_true(n > 3000, "cases: " .. n)
  end)

  it("computes NumPy's values with mixed dtypes and weak Lua operands, on either side", function()
    local n = 0
    for line in ref.mixed:gmatch("[^\n]+") do
      local op, adt, atok, bdt, btok, rdt, rtok = table.unpack(words(line))
      local a, b = operand(adt, atok), operand(bdt, btok)
      local what = ("%s(%s %s, %s %s)"):format(op, adt, atok, bdt, btok)
      if rdt == "!" then
        local err = helper.assert_gaerror(function() return OPS[op](a, b) end, op .. ": ")
        assert(err:find("does not fit", 1, true) or err:find("negative integer powers", 1, true), what .. ": " .. err)
      else
        local ok, msg = holds(OPS[op](a, b), rdt, rtok, op == "power" and POW_RTOL[rdt] or nil)
        assert(ok, what .. ": " .. msg)
      end
      n = n + 1
    end
    assert.equal(40 * #BINARY, n)
  end)

  it("follows NEP 50 in the examples of API.md and issue 23", function()
    local r = ga.int32(7) + 1
    assert.equal("int32", r.dtype)
    assert.equal(8, r:item())
    assert.equal("float32", (ga.float32(0.5) * 2).dtype)
    assert.equal("float64", (ga.int32(7) + 0.5).dtype)
    assert.equal(7.5, (ga.int32(7) + 0.5):item())
    -- NumPy 2 wraps on integer overflow (with a warning there; silently here)
    assert.equal("int8(-56)", tostring(ga.int8(100) + ga.int8(100)))
    assert.equal("uint64(0)", tostring(ga.iinfo("uint64").max + 1))
    assert.equal("int64(-9223372036854775808)", tostring(ga.int64(math.mininteger) // -1))
    -- a Lua integer that does not fit the typed scalar's integer dtype raises
    helper.assert_gaerror(function() return ga.int8(100) + 300 end, "add: Lua integer 300 does not fit int8")
    helper.assert_gaerror(function() return ga.uint8(1) - (-1) end, "subtract: Lua integer -1 does not fit uint8")
    -- a Lua float past float16's range becomes inf, as NumPy converts it
    assert.equal(math.huge, (ga.float16(1) + 1e10):item())
    -- division by zero: integers give 0 (NumPy warns), floats IEEE
    assert.equal("int32(0)", tostring(ga.int32(7) // 0))
    assert.equal("int32(0)", tostring(ga.int32(7) % 0))
    assert.equal(-math.huge, (ga.int16(-3) / ga.int16(0)):item())
  end)

  it("raise gpuarray errors naming the operation", function()
    helper.assert_gaerror(function() return ga.int32(2) ^ -1 end,
                          "power: integers to negative integer powers are not allowed")
    helper.assert_gaerror(function() return ga.bool(true) - true end, "subtract: the boolean subtract is not supported")
    helper.assert_gaerror(function() return -ga.bool(true) end, "negative: the boolean negative is not supported")
    helper.assert_gaerror(function() return ga.complex64(1) // 1 end, "floor_divide: not supported for complex64")
    helper.assert_gaerror(function() return ga.float32(1) << 1 end, "left_shift: not supported for float32")
    helper.assert_gaerror(function() return ga.uint64(1) & ga.int64(1) end, "bitwise_and: not supported for float64")
    helper.assert_gaerror(function() return ga.int32(7) + "x" end, "add: argument 2 must be an ndarray or a number")
    helper.assert_gaerror(function() return {} * ga.int32(7) end, "multiply: argument 1 must be an ndarray or a number")
    helper.assert_gaerror(function() return ga.int32(7) + ga.float32 end, "add: argument 2")
    helper.assert_gaerror(function() return ga.int32(7) < "x" end, "<: argument 2")
    helper.assert_gaerror(function() return ga.complex64(1) < 2 end, "<: complex values are not ordered")
    helper.assert_gaerror(function() return 1 <= ga.int8(1) + { 1, 2 } end, "<=: complex values are not ordered")
  end)

  it("leave an operand of another type with its own metamethod to it (fuse's tracer, a user's object)", function()
    local calls = {}
    local mt = {}
    for _, ev in ipairs({ "__add", "__sub", "__pow", "__band", "__lt", "__le", "__eq" }) do
      mt[ev] = function(a, b)
        calls[#calls + 1] = ev
        return ev == "__lt" or ev == "__le" or ev == "__eq" or { ev, a, b }
      end
    end
    local obj = setmetatable({}, mt)
    local s = ga.int32(7)
    local r = s + obj
    assert.equal("__add", r[1])
    assert.equal(s, r[2])
    assert.equal(obj, r[3])
    assert.equal("__sub", (obj - s)[1])
    assert.equal("__pow", (s ^ obj)[1])
    assert.equal("__band", (s & obj)[1])
    assert.is_true(s < obj)
    assert.is_true(obj <= s)
    local u = setmetatable({}, mt)   -- a table: Lua never compares it with a userdata by __eq
    assert.is_false(s == u)
    assert.same({ "__add", "__sub", "__pow", "__band", "__lt", "__le" }, calls)
    -- without a metamethod of its own it is a gpuarray error
    helper.assert_gaerror(function() return s + setmetatable({}, {}) end, "add: argument 2 must be")
  end)

  it("with an ndarray operand are the array operation, the scalar strong (zero-size arrays: no GPU)", function()
    local x = ga.empty({ 0 }, "int8")
    local cases = {
      { ga.int32(7) + x, "int32" }, { x + ga.int32(7), "int32" }, { x * ga.float32(2), "float32" },
      { ga.uint8(1) - x, "int16" }, { ga.float64(1) // x, "float64" }, { ga.bool(true) & x, "int8" },
      { ga.int8(1) / x, "float64" }, { ga.complex64(1, 1) ^ x, "complex64" }, { ga.uint64(1) + x, "float64" },
    }
    for i, c in ipairs(cases) do
      assert.is_true(ga.is_ndarray(c[1]), i)
      assert.equal(c[2], c[1].dtype, i)
      assert.same({ 0 }, c[1].shape)
    end
    assert.same({ 0, 3 }, (ga.float16(1) + ga.empty({ 0, 3 }, "bool")).shape)
    helper.assert_gaerror(function() return ga.int32(7) < x end, "< on arrays")
    helper.assert_gaerror(function() return ga.int8(1) + x + 300 end, "add: Lua integer 300 does not fit int8")
    helper.assert_gaerror(function() return ga.complex64(1) // x end, "floor_divide: ")
  end)

  helper.gpu_it("with an ndarray operand promote as arrays (typed scalars strong)", function()
    local x = ga.array({ 1, 2, 3 }, "int8")
    local r = ga.int32(7) + x
    assert.equal("int32", r.dtype)
    assert.same({ 8, 9, 10 }, r:totable())
    r = x * ga.float32(0.5)
    assert.equal("float32", r.dtype)
    assert.same({ 0.5, 1, 1.5 }, r:totable())
    assert.equal("int16", (ga.uint8(200) - x).dtype)
    assert.equal("float64", (ga.float64(1) / x).dtype)
    assert.same({ -1, -2, -3 }, (ga.int8(0) - x):totable())
    local z = ga.array(5, "float32")   -- 0-d: < and <= read it
    assert.is_true(ga.int32(4) < z)
    assert.is_true(ga.float64(5) <= z)
    assert.is_false(ga.float64(5) < z)
  end)
end)

describe("typed scalar comparisons", function()
  it("compare every pair of dtypes as NumPy does (==, <, <=)", function()
    local n = 0
    for rec in ref.compare:gmatch("@([^@]+)") do
      local toks = words(rec)
      local a, b = toks[1], toks[2]
      local xs, ys, k = words(ref.cmp_values[a]), words(ref.cmp_values[b]), 2
      for _, x in ipairs(xs) do
        for _, y in ipairs(ys) do
          k = k + 1
          local want, p, q = toks[k], typed(a, x), typed(b, y)
          local what = ("%s vs %s"):format(tostring(p), tostring(q))
          assert.equal(want:sub(1, 1) == "1", p == q, what .. " ==")
          assert.equal(want:sub(1, 1) == "1", q == p, what .. " == (reversed)")
          if #want == 3 then
            assert.equal(want:sub(2, 2) == "1", p < q, what .. " <")
            assert.equal(want:sub(3, 3) == "1", p <= q, what .. " <=")
          end
          n = n + 1
        end
      end
      assert.equal(#toks, k)
    end
    assert.is_true(n > 1000)
  end)

  it("compare with Lua numbers exactly, as NumPy 2 compares Python integers", function()
    -- NumPy 2: comparisons with a Python int out of the dtype's range are exact, not errors
    assert.is_true(ga.uint8(3) < 1000)
    assert.is_false(ga.uint8(3) <= -1)
    assert.is_true(-1 < ga.uint8(0))
    assert.is_true(ga.int8(-128) < 128)
    assert.is_true(ga.iinfo("uint64").max > math.maxinteger)
    assert.is_true(ga.int64(math.maxinteger) >= math.maxinteger)
    assert.is_true(ga.int32(7) < 8)
    assert.is_true(ga.int32(7) <= 7)
    assert.is_false(7 < ga.int32(7))
    -- a Lua float meets the typed scalar's dtype (weak): float16(0.1) <= 0.1 rounds 0.1 to float16
    assert.is_true(ga.float16(0.1) <= 0.1)
    assert.is_false(ga.float16(0.1) < 0.1)
    assert.is_true(ga.int32(7) < 7.5)
    assert.is_false(ga.float32(0 / 0) < 1)
    assert.is_false(ga.float32(0 / 0) >= 1)
    assert.is_true(ga.bool(true) > 0)
    assert.is_true(ga.int32(0) < true)
  end)

  it("== holds between typed scalars of equal value, never with other values", function()
    assert.is_true(ga.int32(7) == ga.int32(7))
    assert.is_true(ga.int32(7) == ga.float32(7))
    assert.is_true(ga.complex64(1, 2) == ga.complex128(1, 2))
    assert.is_false(ga.complex64(1, 2) == ga.complex64(1, -2))
    assert.is_false(ga.float32(0 / 0) == ga.float32(0 / 0))
    assert.is_true(ga.float32(0) == ga.float32(-0.0))
    assert.is_false(ga.float16(0.1) == ga.float32(0.1))
    assert.is_true(ga.iinfo("uint64").max == ga.uint64(ga.int64(-1)))
    assert.is_false(ga.iinfo("uint64").max == ga.int64(-1))
    -- Lua never asks __eq between a userdata and a number (documented)
    assert.is_false(ga.int32(7) == 7)
    assert.is_false(ga.float32 == ga.float32(0))
    assert.is_false(ga.float32(0) == ga.float32)
  end)
end)

describe("typed scalar values", function()
  it("complex constructors take (re, im) and {re, im}", function()
    assert.same({ 1, 2 }, ga.complex64(1, 2):item())
    assert.same({ 1.5, -2.25 }, ga.complex128(1.5, -2.25):item())
    assert.same({ 3, 0 }, ga.complex64(3):item())
    assert.same({ 1, 2 }, ga.complex64({ 1, 2 }):item())
    assert.same({ 1.5, 0 }, ga.complex64(ga.float32(1.5)):item())
    helper.assert_gaerror(function() ga.complex64(1e39, 0) end, "complex64: 1e+39 does not fit complex64")
    helper.assert_gaerror(function() ga.complex64({ 0, -1e39 }) end, "does not fit complex64")
    helper.assert_gaerror(function() ga.complex64(1, "2") end,
                          "complex64: the real and imaginary parts must be numbers")
    helper.assert_gaerror(function() ga.float32(1, 2) end, "float32: takes one value")
    helper.assert_gaerror(function() ga.complex64(1, 2, 3) end, "complex64: too many arguments")
    helper.assert_gaerror(function() ga.int32() end, "int32: the value is missing")
    assert.same({ 1e39, 0 }, ga.complex128(1e39, 0):item())
  end)

  it("convert back to Lua values with :item() and .value", function()
    assert.equal(7, ga.int32(7):item())
    assert.equal(math.type(ga.int32(7):item()), "integer")
    assert.equal(0.5, ga.float32(0.5):item())
    assert.equal(true, ga.bool(1):item())
    assert.equal(ga.int16(-3).value, ga.int16(-3):item())
    assert.equal(2 ^ 64, ga.iinfo("uint64").max:item())   -- past Lua's integers: the nearest float
    assert.equal("int32", ga.int32(7).dtype)
    assert.equal(4, ga.int32(7).itemsize)
    assert.is_nil(ga.int32(7).nothing)
  end)

  it("print as NumPy's repr: the shortest digits that read back", function()
    local cases = {
      { ga.float32(0.1), "float32(0.1)" }, { ga.float16(0.1), "float16(0.1)" }, { ga.float64(0.1), "float64(0.1)" },
      { ga.float32(0.5), "float32(0.5)" }, { ga.float64(100), "float64(100.0)" }, { ga.float64(-0.0), "float64(-0.0)" },
      { ga.float64(1e16), "float64(1e+16)" }, { ga.float32(1.5e-5), "float32(1.5e-05)" },
      { ga.float32(1 / 3), "float32(0.33333334)" }, { ga.float16(65504), "float16(65504.0)" },
      { ga.float64(0 / 0), "float64(nan)" }, { ga.float32(-math.huge), "float32(-inf)" },
      { ga.complex64(1, 2), "complex64(1+2j)" }, { ga.complex128(1.5, -0.25), "complex128(1.5-0.25j)" },
      { ga.complex64(0.1, 0), "complex64(0.1+0j)" }, { ga.bool(true), "bool(true)" }, { ga.int8(-128), "int8(-128)" },
      { ga.iinfo("uint64").max, "uint64(18446744073709551615)" },
      { ga.int64(math.mininteger), "int64(-9223372036854775808)" },
    }
    for _, c in ipairs(cases) do assert.equal(c[2], tostring(c[1])) end
  end)
end)
