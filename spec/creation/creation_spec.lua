-- The creation room: empty/zeros/ones/full and _like (order, shape, array
-- fill values), array/asarray (copy=, order=, ndmin=), ranges (arange,
-- linspace with arrays and axis, logspace, geomspace, meshgrid, mgrid,
-- ogrid), matrices (eye with order, tri, diagflat, vander), frombuffer,
-- fromstring, fromiter, fromfunction, the ndarray constructor, pinned.
-- CI (no GPU): declarations, errors, shapes of empty results, NVRTC.
-- GPU: values against Lua references on random data.
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it
local internal = require "gpuarray.internal"

local function close(a, b, rtol)
  return helper.same(a, b, rtol or 1e-12)
end

describe("creation without a device", function()
  it("empty shapes need no device: order, _like shape, dtypes", function()
    local z = ga.zeros({ 0, 3 }, "int16", "F")
    assert.are.same({ 0, 3 }, z.shape)
    assert.are.equal("int16", z.dtype)
    assert.is_true(z.flags.f_contiguous)
    assert.are.same({ 0, 3 }, ga.empty({ 0, 3 }, { order = "F" }).shape)
    local p = ga.empty({ 4, 0 }, "float32")
    assert.are.same({ 2, 0, 5 }, ga.zeros_like(p, nil, "K", { shape = { 2, 0, 5 } }).shape)
    assert.are.equal("float32", ga.ones_like(p).dtype)
    assert.are.equal("int8", ga.empty_like(p, "int8").dtype)
    assert.are.same({ 0 }, ga.full_like(p, 3, { shape = 0 }).shape)
    assert.are.equal("uint8", ga.full_like(p, 7, "uint8").dtype)
    assert.are.same({ 4, 0 }, ga.ndarray({ 4, 0 }, "float32").shape)
    assert.are.same({ 0 }, ga.arange(5, 2).shape)
    assert.are.equal("int64", ga.arange(3, 3).dtype)
    assert.are.equal("float32", ga.arange(0, 0, 0.5, "float32").dtype)
    assert.are.equal("int32", ga.arange(0, { dtype = "int32" }).dtype)
    assert.are.same({ 0 }, ga.linspace(0, 1, 0).shape)
    assert.are.same({ 0, 0 }, ga.eye(0, 0, 0, "int8").shape)
    assert.are.same({ 0, 3 }, ga.eye(0, 3, { dtype = "bool" }).shape)
    local a, b = ga.meshgrid(ga.empty(0), ga.empty(0, "float32"))
    assert.are.same({ 0, 0 }, a.shape)
    assert.are.equal("float32", b.dtype)
    local u, v = ga.meshgrid(ga.empty(0, "int8"), ga.empty(0), { indexing = "ij", sparse = true })
    assert.are.same({ 0, 1 }, u.shape)
    assert.are.same({ 1, 0 }, v.shape)
  end)

  it("raises on bad arguments, naming the function", function()
    helper.assert_gaerror(function() ga.zeros(3, 4) end, "zeros: the shape is one argument: write ga.zeros({3, 4})")
    helper.assert_gaerror(function() ga.empty({ 2 }, "flot32") end, "empty: dtype must be a dtype or nil")
    helper.assert_gaerror(function() ga.ones({ 2 }, nil, "X") end, 'ones: order must be one of "C", "F"')
    helper.assert_gaerror(function() ga.full_like(ga.empty(0), 1, { shap = 2 }) end,
                          "full_like: unknown option 'shap' (did you mean 'shape'?)")
    helper.assert_gaerror(function() ga.arange(1, "int8", 2) end, "arange: the dtype comes last")
    helper.assert_gaerror(function() ga.arange(1, nil, 2) end, "arange: a step needs a stop")
    helper.assert_gaerror(function() ga.linspace(0, 1, -1) end, "linspace: the number of samples -1 is negative")
    helper.assert_gaerror(function() ga.linspace(0, 1, 5, { axis = 2 }) end, "linspace: axis 2 is out of range")
    helper.assert_gaerror(function() ga.eye(-1) end, "eye: negative dimensions")
    helper.assert_gaerror(function() ga.eye(2, "int8", 1) end, "eye: the dtype comes after the sizes")
    helper.assert_gaerror(function() ga.identity(-2) end, "identity: negative dimension -2")
    helper.assert_gaerror(function() ga.tri(-1) end, "tri: negative dimensions")
    helper.assert_gaerror(function() ga.array({ 1 }, { ndmin = 40 }) end, "array: ndmin must be in 0..32")
    helper.assert_gaerror(function() ga.array({ 1 }, { copy = false }) end, "array: copy = false, but a copy is needed")
    helper.assert_gaerror(function() ga.array({ 1 }, { shape = 1 }) end, "array: shape is for byte strings only")
    helper.assert_gaerror(function() ga.asarray({ 1 }, nil, nil, { copy = false }) end,
                          "asarray: copy = false, but a copy is needed")
    helper.assert_gaerror(function() ga.frombuffer("abc", "int16") end,
                          "frombuffer: 3 bytes are not a whole number of int16 elements")
    helper.assert_gaerror(function() ga.frombuffer("abcd", "int16", 3) end,
                          "frombuffer: 3 elements of int16 need 6 bytes, the buffer has 4")
    helper.assert_gaerror(function() ga.frombuffer("abcd", "int8", -1, 5) end, "frombuffer: offset 5 is outside")
    helper.assert_gaerror(function() ga.fromstring("1 2 x", "int32", { sep = " " }) end,
                          "fromstring: item 3, 'x', is not a number")
    helper.assert_gaerror(function() ga.fromstring("1 2", "int32", 3, { sep = " " }) end,
                          "fromstring: 3 items asked for, the string has 2")
    helper.assert_gaerror(function() ga.fromstring("1, 2", "complex64", { sep = "," }) end,
                          "fromstring: complex numbers cannot be read from text")
    helper.assert_gaerror(function() ga.fromiter({ 1, 2 }, "int8", 3) end,
      "fromiter: 3 items asked for, the list has 2")
    helper.assert_gaerror(function() ga.fromiter(function() return nil end, "int8", 1) end,
                          "fromiter: 1 items asked for, the iterator gave 0")
    helper.assert_gaerror(function() ga.fromiter({ 1 }) end, "fromiter: missing argument 'dtype'")
    helper.assert_gaerror(function() ga.ndarray({ 2, 3 }, "float32", { strides = { 4 } }) end,
                          "ndarray: 1 strides for 2 dimensions")
    helper.assert_gaerror(function() ga.ndarray({ 2 }, "float32", { strides = { 6 } }) end,
                          "ndarray: stride 6 is not a multiple of the itemsize 4")
    helper.assert_gaerror(function() return ga.mgrid[{ { 0, "x" } }] end,
      "mgrid: a range's start and stop must be numbers")
    helper.assert_gaerror(function() ga.mgrid({ 0, 5, 0 }) end, "mgrid: a step of 0")
    helper.assert_gaerror(function() ga.ogrid({ 1, 2, 3, 4 }) end, "ogrid: a range is {start, stop[, step]}")
    helper.assert_gaerror(function() ga.mgrid(5) end, "mgrid: each extra argument must be a list")
    helper.assert_gaerror(function() ga.vander(ga.empty({ 0, 2 })) end, "vander: x must be 1-D")
    helper.assert_gaerror(function() ga.meshgrid(ga.empty(0), { indexing = "xx" }) end,
      'meshgrid: indexing must be one of')
    helper.assert_gaerror(function() ga.geomspace(1, 2, -3) end, "geomspace: the number of samples -3 is negative")
  end)

  it("the ndarray fields and ga.help: asanyarray is asarray, empty_pinned is pinned_empty", function()
    assert.are.equal(ga.asarray, ga.asanyarray)
    assert.are.equal(ga.pinned_empty, ga.empty_pinned)
    assert.matches("Also reached as: `asanyarray`", ga.help(ga.asarray), 1, true)
    assert.matches("fromfunction%(fn: function, shape: shape", ga.help("fromfunction"))
    assert.is_nil(ga.mgrid.anything)
  end)

  it("vander's dtype is x's promoted with int64, as NumPy's (empty x: no device)", function()
    -- np.vander(np.array([], dtype=dt)).dtype, NumPy 1.24
    local want = { int32 = "int64", float32 = "float64", float64 = "float64", float16 = "float64",
                   int8 = "int64", uint8 = "int64", bool = "int64", complex64 = "complex128",
                   uint64 = "float64" }
    for dt, r in pairs(want) do
      local v = ga.vander(ga.empty(0, dt), 3)
      assert.equal(r, v.dtype, dt)
      assert.same({ 0, 3 }, v.shape)
    end
  end)

  it("the Vandermonde kernel compiles with NVRTC for every result dtype", function()
    for _, dt in ipairs { "int64", "float16", "float32", "float64", "complex64", "complex128" } do
      local k = internal.vander_kernel(dt)
      local src, opts = ga._core._test.elementwise_kernel_source(k, {
        types = { dt == "int64" and "int32" or dt, "int64", "bool", dt },
        scalar = { nil, true, true }, raw_nd = { 1 }, layout = "flat", vec = 1 })
      local ok, err = pcall(ga.RawModule, src, { options = opts })
      assert(ok, dt .. ": " .. tostring(err))
    end
  end)
end)

---------------------------------------------------------------------------
-- GPU
---------------------------------------------------------------------------

local function flat(x)
  local out = {}
  local function walk(v)
    if type(v) ~= "table" or type(v[1]) == "number" and x.dtype:find("complex") then
      out[#out + 1] = v
      return
    end
    for _, e in ipairs(v) do walk(e) end
  end
  if x.ndim == 0 then return { x:item() } end
  walk(x:totable())
  return out
end

describe("creation on the device", function()
  gpu_it("full, full_like with arrays and shape, order F, ndarray with strides", function()
    local row = { math.random(-9, 9), math.random(-9, 9), math.random(-9, 9) }
    local f = ga.full({ 2, 3 }, row, "int16")
    assert.are.same({ row, row }, f:totable())
    assert.are.equal("int64", ga.full({ 2 }, ga.array({ 4, 5 })).dtype)
    local a = ga.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "float32")
    local fl = ga.full_like(a, 2.5, { shape = { 4 } })
    assert.are.same({ 2.5, 2.5, 2.5, 2.5 }, fl:totable())
    assert.are.equal("float32", fl.dtype)
    assert.are.same({ 7, 7 }, ga.full_like(a, 7.9, "int8", { shape = 2 }):totable())
    local F = ga.ones({ 3, 4 }, "float64", "F")
    assert.is_true(F.flags.f_contiguous)
    assert.are.same({ 8, 24 }, F.strides)
    assert.is_true(ga.empty_like(ga.zeros({ 3, 2 }, nil, "F")).flags.f_contiguous)
    local n = ga.ndarray({ 2, 3 }, "int32", { strides = { 4, 8 } })
    assert.are.same({ 4, 8 }, n.strides)
    n:fill(3)
    assert.are.same({ { 3, 3, 3 }, { 3, 3, 3 } }, n:totable())
  end)

  gpu_it("array and asarray: copy, order, ndmin, dtype, byte strings", function()
    local x = ga.array({ { 1, 2 }, { 3, 4 } }, "float32")
    assert.are.equal(x, ga.asarray(x))
    assert.are.equal(x, ga.asarray(x, "float32", { copy = false }))
    assert.are_not.equal(x, ga.asarray(x, { copy = true }))
    assert.are.equal(x, ga.array(x, { copy = false }))
    helper.assert_gaerror(function() ga.array(x, "int32", { copy = false }) end, "array: copy = false, but a copy")
    helper.assert_gaerror(function() ga.asarray(x:transpose(), nil, "C", { copy = false }) end, "copy = false")
    local y = ga.array(x:transpose(), { order = "K" })
    assert.is_true(y.flags.f_contiguous)
    assert.are.same({ { 1, 3 }, { 2, 4 } }, y:totable())
    local z = ga.array({ 1, 2, 3 }, "int8", { ndmin = 3 })
    assert.are.same({ 1, 1, 3 }, z.shape)
    local c = ga.ascontiguousarray(5)
    assert.are.same({ 1 }, c.shape)
    assert.is_true(ga.asfortranarray(x).flags.f_contiguous)
    local b = ga.array(string.pack("<i4i4i4", 7, -8, 9), "int32", { shape = { 3 } })
    assert.are.same({ 7, -8, 9 }, b:totable())
    assert.are.same({ 9.5 }, ga.astype(ga.array({ 9.5 }), "float32"):totable())
    assert.are.equal(x, x:astype("float32", { copy = false }))
    local t = x:transpose():astype("float64", "F")
    assert.is_true(t.flags.f_contiguous)
    assert.is_true(x:copy("F").flags.f_contiguous)
  end)

  gpu_it("arange, linspace (arrays, axis, retstep, integer dtypes), logspace, geomspace", function()
    assert.are.same({ 0, 1, 2, 3 }, ga.arange(4):totable())
    assert.are.same({ 2.0, 2.5, 3.0 }, ga.arange(2, 3.5, 0.5, "float64"):totable())
    local y, step = ga.linspace(0, 1, 5, { retstep = true })
    assert.are.same({ 0, 0.25, 0.5, 0.75, 1 }, y:totable())
    assert.are.equal(0.25, step)
    assert.are.same({ 0, 0.25, 0.5, 0.75 }, ga.linspace(0, 1, 4, false):totable())
    -- arrays of starts and stops, along a new axis
    local s, e = { 0, 10, -4 }, { 1, 20, 4 }
    local m = ga.linspace(s, e, 5)
    assert.are.same({ 5, 3 }, m.shape)
    local mt = ga.linspace(ga.array(s), ga.array(e), 5, { axis = -1 }):totable()
    for i = 1, 3 do
      for k = 1, 5 do
        local want = s[i] + (e[i] - s[i]) * (k - 1) / 4
        assert(math.abs(mt[i][k] - want) < 1e-12, ("linspace row %d sample %d: %s vs %s"):format(i, k, mt[i][k], want))
      end
    end
    -- integer dtypes round toward minus infinity
    assert.are.same({ -3, -2, -1, 0 }, ga.linspace(-3, 0.5, 4, { dtype = "int32" }):totable())
    local l = ga.logspace(0, 3, 4):totable()
    assert.is_true(close({ 1, 10, 100, 1000 }, l, 1e-12))
    assert.is_true(close({ 1, 2, 4, 8 }, ga.logspace(0, 3, 4, { base = 2 }):totable(), 1e-12))
    local g = ga.geomspace(1, 1000, 4):totable()
    assert.are.same({ 1, 1000 }, { g[1], g[4] })       -- the ends exact
    assert.is_true(close({ 1, 10, 100, 1000 }, g, 1e-12))
    local gn = ga.geomspace(-1000, -1, 4):totable()
    assert.is_true(close({ -1000, -100, -10, -1 }, gn, 1e-12))
    helper.assert_gaerror(function() ga.geomspace(0, 1) end, "geomspace: a geometric sequence cannot include zero")
    assert.are.equal("float32", ga.geomspace(1, 8, 4, { dtype = "float32" }).dtype)
  end)

  gpu_it("meshgrid xy/ij, sparse, copy; mgrid and ogrid with steps and complex steps", function()
    local x = { 1, 2, 3 }
    local yv = { 10, 20 }
    local X, Y = ga.meshgrid(x, yv)
    assert.are.same({ { 1, 2, 3 }, { 1, 2, 3 } }, X:totable())
    assert.are.same({ { 10, 10, 10 }, { 20, 20, 20 } }, Y:totable())
    local I, J = ga.meshgrid(x, yv, { indexing = "ij" })
    assert.are.same({ 3, 2 }, I.shape)
    assert.are.same({ { 10, 20 }, { 10, 20 }, { 10, 20 } }, J:totable())
    local sx, sy = ga.meshgrid(x, yv, { sparse = true })
    assert.are.same({ 1, 3 }, sx.shape)
    assert.are.same({ 2, 1 }, sy.shape)
    local g = ga.mgrid[{ { 0, 3 }, { 1, 3 } }]
    assert.are.same({ 2, 3, 2 }, g.shape)
    assert.are.same({ { { 0, 0 }, { 1, 1 }, { 2, 2 } }, { { 1, 2 }, { 1, 2 }, { 1, 2 } } }, g:totable())
    assert.are.equal("int64", g.dtype)
    assert.are.same({ 0, 0.5, 1.0, 1.5 }, ga.mgrid[{ 0, 2, 0.5 }]:totable())
    local c = ga.mgrid[{ -1, 1, { 0, 5 } }]:totable()        -- 5j: five points, both ends
    assert.is_true(close({ -1, -0.5, 0, 0.5, 1 }, c, 1e-15))
    local o1, o2 = ga.ogrid({ 0, 2 }, { 5, 8 })
    assert.are.same({ { 0 }, { 1 } }, o1:totable())
    assert.are.same({ { 5, 6, 7 } }, o2:totable())
    assert.are.same(ga.mgrid({ 0, 3 }):totable(), ga.mgrid[{ 0, 3 }]:totable())
  end)

  gpu_it("eye (order F, k, dtype positions), identity, tri, diagflat, vander", function()
    local e = ga.eye(3, 4, 1, "int32"):totable()
    assert.are.same({ { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 } }, e)
    assert.are.same(e, ga.eye(3, 4, 1, "int32", "F"):totable())
    assert.is_true(ga.eye(3, 4, 1, "int32", "F").flags.f_contiguous)
    assert.are.equal("float32", ga.eye(2, "float32").dtype)
    assert.are.same({ { 1, 0 }, { 0, 1 } }, ga.identity(2, "int8"):totable())
    assert.are.same({ { 1, 1, 0 }, { 1, 1, 1 } }, ga.tri(2, 3, 1, "int16"):totable())
    assert.are.same({ { 0, 1, 0 }, { 0, 0, 2 }, { 0, 0, 0 } }, ga.diagflat({ { 1, 2 } }, 1):totable())
    for _, dt in ipairs { "int32", "float32", "float64" } do
      local n = math.random(2, 5)
      local xs = {}
      for i = 1, n do xs[i] = math.random(-5, 5) end
      local cols = math.random(1, 5)
      local v = ga.vander(ga.array(xs, dt), cols)
      -- NumPy promotes x's dtype with int64: np.vander(float32 x).dtype is float64
      assert.are.equal(({ int32 = "int64", float32 = "float64", float64 = "float64" })[dt], v.dtype)
      local inc = ga.vander(ga.array(xs, dt), cols, true):totable()
      local t = v:totable()
      for i = 1, n do
        for j = 1, cols do
          assert.are.equal(xs[i] ^ (cols - j), t[i][j] + 0.0, ("vander %s [%d][%d]"):format(dt, i, j))
          assert.are.equal(xs[i] ^ (j - 1), inc[i][j] + 0.0)
        end
      end
    end
  end)

  gpu_it("frombuffer, fromstring, fromiter, fromfunction (1-based coordinates)", function()
    local s = string.pack("<ffff", 1.5, -2, 3.25, 8)
    assert.are.same({ 1.5, -2, 3.25, 8 }, ga.frombuffer(s, "float32"):totable())
    assert.are.same({ -2, 3.25 }, ga.frombuffer(s, "float32", 2, 4):totable())
    assert.are.same({ 1, 2, 3 }, ga.fromstring("1, 2,3", "int32", { sep = "," }):totable())
    assert.are.same({ 1.5, -2 }, ga.fromstring(" 1.5   -2 \n", "float64", { sep = " " }):totable())
    assert.are.same({ 5 }, ga.fromstring("5 6 7", "int64", 1, { sep = " " }):totable())
    local i = 0
    local it = function()
      i = i + 1
      if i <= 4 then return i * i end
    end
    assert.are.same({ 1, 4, 9, 16 }, ga.fromiter(it, "int16"):totable())
    assert.are.same({ 3, 4 }, ga.fromiter({ 3, 4, 5 }, "float64", 2):totable())
    local r = ga.fromfunction(function(a, b) return a * 10 + b end, { 2, 3 }, { dtype = "int32" })
    assert.are.same({ { 11, 12, 13 }, { 21, 22, 23 } }, r:totable())
    assert.are.same(3, #flat(ga.fromfunction(function(a) return a end, 3)))
  end)

  gpu_it("pinned arrays: zeros_pinned, empty_like_pinned, zeros_like_pinned", function()
    local z = ga.zeros_pinned({ 2, 3 }, "int16")
    assert.are.same({ { 0, 0, 0 }, { 0, 0, 0 } }, z:totable())
    local x = ga.ones({ 4 }, "float32")
    local e = ga.empty_like_pinned(x)
    assert.are.same({ 4 }, e.shape)
    assert.are.equal("float32", e.dtype)
    assert.are.same({ 0, 0, 0, 0 }, ga.zeros_like_pinned(x):totable())
    assert.are.same({ 2, 2 }, ga.zeros_like_pinned(x, "int8", { shape = { 2, 2 } }).shape)
  end)
end)
