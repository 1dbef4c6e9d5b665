-- ga.where, ga.clip, ga.isclose, ga.allclose, ga.array_equal, ga.around.
-- CI (no GPU): every kernel definition compiles with NVRTC for sm_90 under
-- many dtype bindings (through a stand-in for the elementwise engine's
-- wrapper), argument errors, results that need no device. GPU: values
-- against Lua references on random data (NaN, infinities, broadcasting).
local helper = require "helper"
local ga = helper.ga
local core = ga._core
local gpu_it = helper.gpu_it

local REAL = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
               "float16", "float32", "float64" }
local FLOATS = { "float16", "float32", "float64" }
local COMPLEX = { "complex64", "complex128" }

-- "T a, float64 b" -> {{type, name}, ...}
local function parse_params(s)
  local out = {}
  for ty, name in s:gmatch("([%w_]+)%s+([%w_]+)") do out[#out + 1] = { ty, name } end
  return out
end

-- A stand-in for what ElementwiseKernel generates: placeholders bound by
-- typedefs, each parameter a local of its type, the operation, the store.
local count = 0
local function mock(def, bind)
  count = count + 1
  local ins, outs = parse_params(def[1]), parse_params(def[2])
  local lines, args, body = {}, {}, {}
  for ph, dt in pairs(bind) do lines[#lines + 1] = ("typedef %s %s;"):format(dt, ph) end
  for _, p in ipairs(ins) do
    args[#args + 1] = ("const %s *p_%s"):format(p[1], p[2])
    body[#body + 1] = ("%s %s = p_%s[i];"):format(p[1], p[2], p[2])
  end
  for _, p in ipairs(outs) do
    args[#args + 1] = ("%s *p_%s"):format(p[1], p[2])
    body[#body + 1] = ("%s %s;"):format(p[1], p[2])
  end
  body[#body + 1] = def[3] .. ";"
  for _, p in ipairs(outs) do body[#body + 1] = ("p_%s[i] = %s;"):format(p[2], p[2]) end
  return ("namespace m%d {\n%s\nextern \"C\" __global__ void k%d(%s) {\nint i = threadIdx.x;\n%s\n}\n}\n")
    :format(count, table.concat(lines, "\n"), count, table.concat(args, ", "), table.concat(body, "\n"))
end

-- the headers the elementwise engine puts before a preamble (those present)
local function headers()
  local h = {}
  for _, name in ipairs({ "common", "math", "elementwise" }) do
    local ok, src = pcall(core.compile.kernel_source, name)
    if ok then h[#h + 1] = src end
  end
  return table.concat(h, "\n")
end

local function compile(mocks)
  local src = headers() .. "\n" .. require("gpuarray.internal").select_defs.preamble .. table.concat(mocks)
  return core._test.compile(src, nil, 90)
end

describe("select kernels compile for sm_90", function()
  local D = require("gpuarray.internal").select_defs

  it("where for mixed condition and value dtypes", function()
    local m = {}
    local combos = { { "float32", "int32", "float64" }, { "float16", "float16", "float16" },
                     { "complex64", "float32", "complex64" }, { "bool", "bool", "bool" },
                     { "uint64", "int64", "float64" }, { "int8", "uint8", "int16" },
                     { "complex128", "float16", "complex128" } }
    for _, cdt in ipairs({ "bool", "float32", "int8", "complex64", "float16" }) do
      for _, c in ipairs(combos) do
        m[#m + 1] = mock(D.def_of("where"), { C = cdt, X = c[1], Y = c[2], Z = c[3] })
      end
    end
    assert.is_true(compile(m) > 0)
  end)

  it("clip, clip_lo, clip_hi for every real dtype", function()
    local m = {}
    for _, z in ipairs(REAL) do
      for _, other in ipairs({ z, "int8", "float64", "bool" }) do
        m[#m + 1] = mock(D.def_of("clip"), { X = z, A = other, B = z, Z = z })
        m[#m + 1] = mock(D.def_of("clip_lo"), { X = other, A = z, Z = z })
        m[#m + 1] = mock(D.def_of("clip_hi"), { X = z, B = other, Z = z })
      end
    end
    assert.is_true(compile(m) > 0)
  end)

  it("isclose and array_equal for their compute dtypes", function()
    local m = {}
    for _, f in ipairs({ "float16", "float32", "float64", "complex64", "complex128" }) do
      for _, a in ipairs({ f, "int32", "bool", "float16" }) do
        m[#m + 1] = mock(D.def_of("isclose", f), { A = a, B = f })
      end
    end
    for _, list in ipairs({ REAL, COMPLEX }) do
      for _, f in ipairs(list) do
        m[#m + 1] = mock(D.def_of("equal", f), { A = f, B = f })
        m[#m + 1] = mock(D.def_of("equal", f), { A = "bool", B = f })
      end
    end
    assert.is_true(compile(m) > 0)
  end)

  it("around for floats, complex and integers", function()
    local m = {}
    for _, t in ipairs(FLOATS) do m[#m + 1] = mock(D.def_of("round"), { X = t, Z = t }) end
    for _, t in ipairs(COMPLEX) do m[#m + 1] = mock(D.def_of("round"), { X = t, Z = t }) end
    m[#m + 1] = mock(D.def_of("round"), { X = "float32", Z = "float64" })
    for _, t in ipairs(REAL) do
      if not t:find("float") then m[#m + 1] = mock(D.def_of("round_int"), { X = t, Z = t }) end
    end
    assert.is_true(compile(m) > 0)
  end)
end)

describe("select without a device", function()
  it("where: one argument is nonzero, two is an error", function()
    local saved = ga.nonzero
    ga.nonzero = function(c) return "nz", c end
    local a, b = ga.where("cond")
    ga.nonzero = saved
    assert.are.equal("nz", a)
    assert.are.equal("cond", b)
    helper.assert_gaerror(function() ga.where(ga.empty(0), 1) end, "where: give both x and y")
    helper.assert_gaerror(function() ga.where(ga.empty(0), nil, 1) end, "where: give both x and y")
  end)

  it("where and clip check shapes before launching", function()
    helper.assert_gaerror(function() ga.where(ga.empty({ 0, 2 }, "bool"), ga.empty({ 0, 3 }), 1) end,
                          "where: shapes {0,2}, {0,3}, {} cannot be broadcast together")
    helper.assert_gaerror(function() ga.clip(ga.empty({ 0, 2 }), ga.empty({ 0, 3 }), 1) end,
                          "clip: shapes {0,2}, {0,3}, {} cannot be broadcast together")
    helper.assert_gaerror(function() ga.clip(ga.empty({ 0, 2 }), 0, 1, { out = ga.empty({ 0, 3 }) }) end,
                          "clip: out has shape {0,3}, the result has shape {0,2}")
  end)

  it("clip takes complex dtypes (ordered lexicographically, as NumPy)", function()
    assert.equal("complex64", ga.clip(ga.empty(0, "complex64"), 0, 1).dtype)
    assert.equal("complex128", ga.clip(ga.empty(0, "float32"), 0, 1, { dtype = "complex128" }).dtype)
  end)

  it("array_equal answers shape mismatches and empty arrays without the device", function()
    assert.is_false(ga.array_equal(ga.empty({ 0, 2 }), ga.empty({ 0, 3 })))
    assert.is_false(ga.array_equal(ga.empty({ 0 }), ga.empty({ 0, 1 })))
    assert.is_true(ga.array_equal(ga.empty({ 0, 2 }, "int8"), ga.empty({ 0, 2 }, "float32")))
  end)

  it("around and isclose check their arguments", function()
    helper.assert_gaerror(function() ga.around(ga.empty(0), 1.5) end, "around: decimals must be an integer")
    helper.assert_gaerror(function() ga.isclose(ga.empty(0), ga.empty(0), { rtol = "x" }) end,
                          "isclose: rtol must be a number or nil")
    helper.assert_gaerror(function() ga.around(ga.empty(0), 0, { out = ga.empty(1 - 1, "int8"):reshape(0, 1) }) end,
                          "around: out has shape {0,1}")
  end)
end)

---------------------------------------------------------------------------
-- GPU
---------------------------------------------------------------------------

local function rint(v)
  if v ~= v or v == math.huge or v == -math.huge then return v end
  local f = math.floor(v)
  local r = v - f
  if r > 0.5 or (r == 0.5 and f % 2 == 1) then f = f + 1 end
  return f + 0.0
end

local function f32(v) return helper.to_f32(v) end

local function random_floats(n, nan_rate)
  local t = {}
  for i = 1, n do
    if math.random() < (nan_rate or 0) then t[i] = 0 / 0
    else t[i] = f32((math.random() - 0.5) * 20) end
  end
  return t
end

local function map(t, fn)
  local out = {}
  for i, v in ipairs(t) do out[i] = fn(v, i) end
  return out
end

local function check(expected, got, dtype, shape)
  assert.are.equal(dtype, got.dtype)
  assert.are.same(shape, got.shape)
  helper.assert_same(expected, got:totable())
end

describe("select on the GPU", function()
  gpu_it("where: random condition, mixed dtypes, broadcasting, scalars", function()
    local n = 200
    local cond = map(random_floats(n), function(v) return v > 0 end)
    local xs = map(random_floats(n), function(v) return math.floor(v * 10) end)
    local ys = random_floats(n)
    local c = ga.array(cond, "bool")
    local x = ga.array(xs, "int32")
    local y = ga.array(ys, "float32")
    local z = ga.where(c, x, y)
    check(map(cond, function(b, i) return b and xs[i] or ys[i] end), z, "float64", { n })
    -- scalars are weak: int32 array with a Lua float -> float64; with an int -> int32
    check(map(cond, function(b, i) return b and xs[i] or 2.5 end), ga.where(c, x, 2.5), "float64", { n })
    check(map(cond, function(b, i) return b and -7 or xs[i] end), ga.where(c, -7, x), "int32", { n })
    -- a non-bool condition is cast (0 and NaN... NaN is true, as in NumPy)
    local cf = ga.array({ 0, 1.5, -2, 0 / 0 }, "float32")
    check({ 20, 1, 1, 1 }, ga.where(cf, 1, ga.array({ 20, 20, 20, 20 }, "int16")), "int16", { 4 })
    -- broadcasting: (3,1) condition, (1,4) x, scalar y; out given
    local cb = ga.array({ { true }, { false }, { true } })
    local xb = ga.array({ { 1, 2, 3, 4 } }, "float64")
    local out = ga.zeros({ 3, 4 }, "float64")
    assert.are.equal(out, ga.where(cb, xb, -1, { out = out }))
    check({ { 1, 2, 3, 4 }, { -1, -1, -1, -1 }, { 1, 2, 3, 4 } }, out, "float64", { 3, 4 })
    -- NaN passes through untouched
    local zn = ga.where(ga.array({ true, false }), ga.array({ 0 / 0, 1 }), 0)
    local t = zn:totable()
    assert.is_true(t[1] ~= t[1] and t[2] == 0)
    -- a negative-stride condition and an empty one
    local cr = c[{ { nil, nil, -1 } }]
    check(map(cond, function(_, i) return cond[n + 1 - i] and xs[i] or ys[i] end), ga.where(cr, x, y), "float64",
          { n })
    check({}, ga.where(ga.empty(0, "bool"), ga.empty(0, "int8"), 1), "int8", { 0 })
  end)

  gpu_it("clip: NaN propagation, nil bounds, array bounds, integer bounds", function()
    local vals = random_floats(300, 0.1)
    local x = ga.array(vals, "float32")
    local function ref(v, lo, hi)
      if v ~= v then return v end
      if lo and lo ~= lo then return lo end
      if lo and v < lo then v = lo end
      if hi and hi ~= hi then return hi end
      if hi and v > hi then v = hi end
      return v
    end
    check(map(vals, function(v) return ref(v, -2.5, 3.25) end), ga.clip(x, -2.5, 3.25), "float32", { 300 })
    check(map(vals, function(v) return ref(v, -1, nil) end), ga.clip(x, -1), "float32", { 300 })
    check(map(vals, function(v) return ref(v, nil, 0.5) end), ga.clip(x, nil, 0.5), "float32", { 300 })
    check(map(vals, function(v) return ref(v, 1, -1) end), ga.clip(x, 1, -1), "float32", { 300 })  -- lo > hi
    check(map(vals, function(v) return ref(v, 0 / 0, 1) end), ga.clip(x, 0 / 0, 1), "float32", { 300 })
    -- array bounds broadcast, on a transposed x
    local m = ga.array({ { 1, 5, -3 }, { 7, 0, 2 } }, "float64")
    local lo = ga.array({ 0, 1, 2 }, "int32")
    check({ { 1, 3 }, { 3, 1 }, { 2, 2 } }, ga.clip(m.T, ga.array({ { 0 }, { 1 }, { 2 } }, "int32"), 3),
          "float64", { 3, 2 })
    check({ { 1, 3, 2 }, { 3, 1, 2 } }, ga.clip(m, lo, 3), "float64", { 2, 3 })
    -- integer arrays keep their dtype; out-of-range Lua bounds are clamped (NumPy 2.1)
    local u = ga.array({ 0, 100, 255 }, "uint8")
    check({ 0, 100, 255 }, ga.clip(u, -1, 300), "uint8", { 3 })
    check({ 10, 100, 200 }, ga.clip(u, 10, 200), "uint8", { 3 })
    check({ 10, 100, 200.5 }, ga.clip(u, 10, 200.5), "float64", { 3 })
    -- method form and out
    local out = ga.empty({ 3 }, "float32")
    assert.are.equal(out, u:clip(1, 99, { out = out }))
    check({ 1, 99, 99 }, out, "float32", { 3 })
  end)

  gpu_it("isclose / allclose: tolerances, infinities, NaN, dtypes", function()
    local n = 400
    local b = random_floats(n)
    local a = {}
    local expect = {}
    for i = 1, n do
      local tol = 1e-8 + 1e-5 * math.abs(b[i])
      local factor = ({ 0, 0.4, 2.5, 50 })[i % 4 + 1]
      a[i] = b[i] + (i % 2 == 0 and 1 or -1) * factor * tol
      expect[i] = factor < 1
    end
    local ga_a, ga_b = ga.array(a, "float64"), ga.array(b, "float64")
    check(expect, ga.isclose(ga_a, ga_b), "bool", { n })
    assert.is_false(ga.allclose(ga_a, ga_b))
    assert.is_true(ga.allclose(ga_a, ga_b, { rtol = 1e-3, atol = 1e-5 }))
    -- special values
    local inf, nan = math.huge, 0 / 0
    local sa = { inf, inf, -inf, inf, 1, nan, nan, 1, 0 }
    local sb = { inf, -inf, -inf, 1, inf, nan, 1, nan, 0 }
    local plain = { true, false, true, false, false, false, false, false, true }
    local eqn = { true, false, true, false, false, true, false, false, true }
    for _, dt in ipairs({ "float64", "float32", "float16" }) do
      check(plain, ga.isclose(ga.array(sa, dt), ga.array(sb, dt)), "bool", { 9 })
      check(eqn, ga.isclose(ga.array(sa, dt), ga.array(sb, dt), { equal_nan = true }), "bool", { 9 })
    end
    -- float32 computes in float32: 1 + 2^-23 is within the default tolerance of 1
    check({ true }, ga.isclose(ga.array({ 1 + 2 ^ -23 }, "float32"), 1), "bool", { 1 })
    -- integers (computed in float64), broadcasting, atol
    check({ { true, false }, { false, true } },
          ga.isclose(ga.array({ { 10 }, { 20 } }, "int32"), ga.array({ 10, 20 }, "int64")), "bool", { 2, 2 })
    check({ true, true, false }, ga.isclose(ga.array({ 0, 0.5, 2 }), 0, { atol = 1 }), "bool", { 3 })
    -- complex: magnitude of the difference
    local c1 = ga.array({ { 1, 1 }, { 0, 1 } }, "complex64")
    local c2 = ga.array({ { 1, 1 + 1e-7 }, { 0, 2 } }, "complex64")
    check({ true, false }, ga.isclose(c1, c2), "bool", { 2 })
    -- a reversed view against its reference, 0-d and empty operands
    local ra = {}
    for i = 1, n do ra[i] = a[n + 1 - i] end
    check(expect, ga.isclose(ga.array(ra, "float64")[{ { nil, nil, -1 } }], ga_b), "bool", { n })
    local z0 = ga.isclose(ga.array(1.0), 1.0 + 1e-9)
    assert.are.same({}, z0.shape)
    assert.is_true(z0:item())
    check({}, ga.isclose(ga.empty(0, "float32"), 1), "bool", { 0 })
    assert.is_true(ga.allclose(ga.empty({ 0, 3 }), ga.empty({ 3 })))
  end)

  gpu_it("clip and where on 0-d and empty arrays", function()
    local c0 = ga.clip(ga.array(7.5, "float32"), 0, 5)
    assert.are.same({}, c0.shape)
    assert.are.equal("float32", c0.dtype)
    assert.are.equal(5, c0:item())
    check({}, ga.clip(ga.empty({ 0 }, "int16"), 1, 2), "int16", { 0 })
    local w0 = ga.where(ga.array(false), ga.array(1, "int8"), ga.array(2, "int8"))
    assert.are.same({}, w0.shape)
    assert.are.equal(2, w0:item())
    check({ { 2, 2 }, { 2, 2 } }, ga.where(ga.array(false), 1, ga.full({ 2, 2 }, 2, "int32")), "int32", { 2, 2 })
  end)

  gpu_it("array_equal: values, dtypes, NaN, layouts", function()
    local vals = random_floats(100)
    local a = ga.array(vals, "float64")
    assert.is_true(ga.array_equal(a, ga.array(vals, "float64")))
    assert.is_true(ga.array_equal(a[{ { nil, nil, -1 } }], ga.array(vals, "float64")[{ { nil, nil, -1 } }]))
    local other = { table.unpack(vals) }
    other[57] = other[57] + 1
    assert.is_false(ga.array_equal(a, ga.array(other, "float64")))
    assert.is_true(ga.array_equal(ga.array({ 1, 2, 3 }, "int32"), ga.array({ 1, 2, 3 }, "float64")))
    assert.is_false(ga.array_equal(ga.array({ 1, 2 }), ga.array({ 1, 2, 3 })))
    local withnan = ga.array({ 1, 0 / 0 })
    assert.is_false(ga.array_equal(withnan, withnan))
    assert.is_true(ga.array_equal(withnan, withnan, true))
    assert.is_true(ga.array_equal(withnan, ga.array({ 1, 0 / 0 }), { equal_nan = true }))
    assert.is_true(ga.array_equal(ga.array(3), ga.array(3.0)))
  end)

  gpu_it("around: half to even, decimals of both signs, dtypes", function()
    local vals = { 0.5, 1.5, 2.5, -0.5, -1.5, 0.25, 1.234567, -7.125, 15, 25, 1e300, 0 / 0 }
    local function ref(v, d)
      local f = 10.0 ^ math.abs(d)
      if d >= 0 then return rint(v * f) / f end
      return rint(v / f) * f
    end
    for _, d in ipairs({ 0, 1, 2, -1, -2 }) do
      check(map(vals, function(v) return ref(v, d) end), ga.around(ga.array(vals, "float64"), d), "float64",
            { #vals })
    end
    -- float32 rounds in float32
    local v32 = map(random_floats(200), function(v) return v end)
    local function ref32(v, d)
      local g = f32(10.0 ^ math.abs(d))
      if d >= 0 then return f32(rint(f32(v * g)) / g) end
      return f32(rint(f32(v / g)) * g)
    end
    for _, d in ipairs({ 0, 2, -1 }) do
      check(map(v32, function(v) return ref32(v, d) end), ga.round(ga.array(v32, "float32"), d), "float32", { 200 })
    end
    -- integers: unchanged for decimals >= 0, rounded half to even in tens for -1
    local ints = ga.array({ 15, 25, -15, 14, 123 }, "int32")
    check({ 15, 25, -15, 14, 123 }, ga.around(ints), "int32", { 5 })
    check({ 20, 20, -20, 10, 120 }, ga.around(ints, -1), "int32", { 5 })
    -- complex rounds both parts; a transposed input; method form with out
    check({ { 2, -0.0 }, { 0.0, 3 } }, ga.around(ga.array({ { 2.5, -0.4 }, { 0.49, 2.51 } }, "complex128")),
          "complex128", { 2 })
    local m = ga.array({ { 0.15, 0.25 }, { 1.35, 2.45 } }, "float64")
    check({ { ref(0.15, 1), ref(1.35, 1) }, { ref(0.25, 1), ref(2.45, 1) } }, m.T:round(1), "float64", { 2, 2 })
    local out = ga.empty({ 2, 2 }, "float32")
    assert.are.equal(out, ga.around(m, 0, { out = out }))
    check({ { 0, 0 }, { 1, 2 } }, out, "float32", { 2, 2 })
    check({}, ga.around(ga.empty(0, "float16"), 3), "float16", { 0 })
  end)
end)
