-- The indexing routines: take/put modes, take_along_axis, put_along_axis,
-- indices, ix_, ravel_multi_index, unravel_index, diag/tril/triu indices,
-- mask_indices, ndindex, choose, compress, select, extract, place,
-- putmask, fill_diagonal, as_strided, sliding_window_view, r_, c_, and
-- scatter_add/max/min (the engine ufunc.at shares). Every index given or
-- returned is 1-based.
-- CI (no GPU): Lua integer forms, iterators, kernels compiled with NVRTC,
-- errors, empty shapes. GPU: values against Lua references on random data.
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it
local R = require "ndref"
local internal = require "gpuarray.internal"

local function E(shape, dtype) return ga.empty(shape, dtype or "float64") end

local function compile(k, types, scalar, raw_nd)
  local src, opts = ga._core._test.elementwise_kernel_source(k, {
    types = types, scalar = scalar, raw_nd = raw_nd, raw_contig = { false }, layout = "flat", vec = 1 })
  local ok, err = pcall(ga.RawModule, src, { options = opts })
  assert(ok, tostring(err))
  return src
end

describe("indexing without a device", function()
  it("unravel_index and ravel_multi_index on Lua integers, C and F order, modes", function()
    local shape = { 3, 4, 5 }
    for flat = 1, 60 do
      local i, j, k = ga.unravel_index(flat, shape)
      assert.are.equal(flat, (i - 1) * 20 + (j - 1) * 5 + k)
      assert.are.equal(flat, ga.ravel_multi_index({ i, j, k }, shape))
      local a, b, c = ga.unravel_index(flat, shape, "F")
      assert.are.equal(flat, a + (b - 1) * 3 + (c - 1) * 12)
      assert.are.equal(flat, ga.ravel_multi_index({ a, b, c }, shape, { order = "F" }))
    end
    assert.are.equal(60, ga.ravel_multi_index({ 0, 0, 0 }, shape, "wrap"))      -- 0 wraps to the last
    assert.are.equal(60, ga.ravel_multi_index({ 9, 9, 9 }, shape, "clip"))
    assert.are.equal(56, ga.ravel_multi_index({ 3, 4, 1 }, shape, { "raise", "raise", "clip" }))
    helper.assert_gaerror(function() ga.ravel_multi_index({ 4, 1, 1 }, shape) end,
                          "ravel_multi_index: coordinate 4 is out of range for axis 1 of length 3")
    helper.assert_gaerror(function() ga.ravel_multi_index({ 1, 1 }, shape) end, "2 coordinate arrays for 3 dimensions")
    helper.assert_gaerror(function() ga.ravel_multi_index({ 1, 1, 1 }, shape, { "wrap" }) end, "1 modes for 3")
    helper.assert_gaerror(function() ga.unravel_index(61, shape) end, "unravel_index: position 61 is out of range")
    helper.assert_gaerror(function() ga.unravel_index(0, shape) end, "unravel_index: position 0 is out of range")
    assert.are.same({ 2 }, { ga.unravel_index(2, 5) })
  end)

  it("ndindex walks 1-based indices in C order; keys that read an element", function()
    local seen = {}
    for idx in ga.ndindex(2, 3) do seen[#seen + 1] = table.concat(idx, ",") end
    assert.are.same({ "1,1", "1,2", "1,3", "2,1", "2,2", "2,3" }, seen)
    local n = 0
    for _ in ga.ndindex({ 2, 0, 3 }) do n = n + 1 end
    assert.are.equal(0, n)
    local once = {}
    for idx in ga.ndindex() do once[#once + 1] = #idx end
    assert.are.same({ 0 }, once)
    helper.assert_gaerror(function() ga.ndindex(2, -1) end, "ndindex: each length must be a non-negative integer")
  end)

  it("compiles the take/put-along kernels with NVRTC", function()
    for _, c in ipairs { { "take", 2, 1, "float32" }, { "take", 3, 0, "int8" }, { "put", 2, 0, "complex64" },
                         { "put", 1, 0, "float16" } } do
      local k = internal.along_kernel(c[1], c[2], c[3])
      local types = c[1] == "take" and { c[4], "int64", "int64", c[4] } or { c[4], "int32", c[4], "int64" }
      local scalar = c[1] == "take" and { nil, nil, true } or { nil, nil, nil, true }
      local src = compile(k, types, scalar, { c[2] })
      if c[1] == "take" then assert.is_nil(src:find("ga_vload%(_v3"), "y must not be loaded first") end
    end
  end)

  it("scatter's ranges are x[key]'s (one parser in C) against a Lua reference, on random ranges", function()
    local index_range = ga._core.ndarray.index_range
    -- NumPy's slice on an axis of n, written with inclusive 1-based ends
    -- (negatives from the end): 0-based first, count, step
    local function ref(a, b, step, n)
      step = step or 1
      local s = a ~= nil and (a < 0 and n + a or a - 1) or (step > 0 and 0 or n - 1)
      local e = b ~= nil and (b < 0 and n + b or b - 1) or (step > 0 and n - 1 or 0)
      local count
      if step > 0 then
        s, e = math.max(s, 0), math.min(e, n - 1)
        count = e >= s and (e - s) // step + 1 or 0
      else
        s, e = math.min(s, n - 1), math.max(e, 0)
        count = s >= e and (s - e) // -step + 1 or 0
      end
      return count > 0 and s or 0, count, step
    end
    local function maybe(lo, hi) if math.random() < 0.25 then return nil end return math.random(lo, hi) end
    for _ = 1, 3000 do
      local n = math.random(0, 40)
      local a, b = maybe(-50, 50), maybe(-50, 50)
      local step = math.random() < 0.3 and nil or (math.random(1, 9) * (math.random() < 0.5 and -1 or 1))
      local what = ("{%s, %s, %s} on %d"):format(tostring(a), tostring(b), tostring(step), n)
      local f1, c1, s1 = index_range({ a, b, step }, n, "scatter_add")
      local f2, c2, s2 = ref(a, b, step, n)
      assert.are.same({ f2, c2, s2 }, { f1, c1, s1 }, what)
    end
    assert.are.same({ 0, 7, 1 }, { index_range({}, 7, "scatter_add") })
    -- a step of math.mininteger takes one element (-step overflows in Lua)
    assert.are.same({ 4, 1, math.mininteger }, { index_range({ nil, nil, math.mininteger }, 5, "scatter_add") })
    helper.assert_gaerror(function() index_range({ 1, 2, 0 }, 5, "scatter_min") end,
                          "scatter_min: a range step cannot be 0")
    helper.assert_gaerror(function() index_range({ 1, 2, 3, 4 }, 5, "scatter_min") end,
                          "scatter_min: a range is {start, stop, step}")
    helper.assert_gaerror(function() index_range({ 1.5 }, 5, "scatter_min") end,
                          "scatter_min: a range start must be an integer, got number")
  end)

  it("scatter, along and strides check their arguments before any device work", function()
    local a = E({ 0, 3 }, "float32")
    helper.assert_gaerror(function() ga.scatter_add(a, E({ 0 }, "float32"), 1) end,
                          "scatter_add: index arrays must be integers, got float32")
    helper.assert_gaerror(function() ga.scatter_max(a, "x", 1) end, "scatter_max: the key must be an integer")
    -- an empty selection updates nothing, and needs no device
    ga.scatter_add(a, { {}, 2 }, E({ 0 }, "float32"))
    helper.assert_gaerror(function() ga.scatter_add(a, { {}, 2 }, E({ 0, 2 }, "float32")) end,
      "scatter_add: a value of shape {0,2} does not broadcast to the selection {0}")
    helper.assert_gaerror(function() ga.scatter_add(a, { 1, 2, 3 }, 1) end, "scatter_add: too many indices (3) for 2")
    helper.assert_gaerror(function() ga.scatter_add(a, { ga.ellipsis, ga.ellipsis }, 1) end, "only one ellipsis")
    helper.assert_gaerror(function() ga.take_along_axis(a, E({ 0 }, "int64"), 1) end,
                          "take_along_axis: indices and the array must have the same number of dimensions")
    helper.assert_gaerror(function() ga.take_along_axis(a, E({ 0, 2 }, "float32"), 1) end,
                          "take_along_axis: indices must be integers, got float32")
    helper.assert_gaerror(function() ga.take_along_axis(a, E({ 1, 0, 1 }, "int64"), 1) end, "same number of dimensions")
    helper.assert_gaerror(function() ga.take_along_axis(a, E({ 0, 2 }, "int64"), false) end,
                          "take_along_axis: without an axis, indices must be 1-D")
    assert.are.same({ 0, 5 }, ga.take_along_axis(a, E({ 0, 5 }, "int64"), 2).shape)
    assert.are.same({ 0, 0 }, ga.take_along_axis(a, E({ 1, 0 }, "int32"), 2).shape)
    helper.assert_gaerror(function() ga.take_along_axis(E({ 0, 3 }, "int8"), E({ 0, 4 }, "int64"), 1) end,
                          "take_along_axis: shapes {0,3} (array) and {0,4} (indices) do not broadcast outside axis 1")
    local st = ga.lib.stride_tricks
    assert.are.same({ 0, 2, 3 }, st.sliding_window_view(E({ 0, 4 }), { 3 }, { axis = 2 }):reshape(0, 2, 3).shape)
    helper.assert_gaerror(function() st.sliding_window_view(E({ 0, 4 }), { 5 }, 2) end,
                          "sliding_window_view: a window of 5 along axis 2 is longer than the axis (4)")
    helper.assert_gaerror(function() st.sliding_window_view(E({ 0, 4 }), { 1 }) end,
                          "without axis, window_shape gives every axis: 1 lengths for 2 dimensions")
    helper.assert_gaerror(function() st.as_strided(E({ 0 }), { 4 }, { 8 }) end,
      "as_strided: the array has no memory to view")
    helper.assert_gaerror(function() st.as_strided(E({ 0 }), { 4, 2 }, { 8 }) end,
      "as_strided: 1 strides for 2 dimensions")
    assert.are.same({ 3, 0 }, st.as_strided(E({ 0 }), { 3, 0 }, { 8, 8 }).shape)
  end)

  it("r_ and c_ directives; errors before any upload", function()
    helper.assert_gaerror(function() return ga.r_[{ "r", E({ 0 }) }] end,
      "r_: the matrix directives 'r' and 'c' are not supported")
    helper.assert_gaerror(function() return ga.r_[{ "1,2,3,4", E({ 0 }) }] end, 'r_: unknown directive "1,2,3,4"')
    helper.assert_gaerror(function() return ga.r_[{ E({ 0 }), "1" }] end, "r_: a directive must be the first item")
    assert.are.same({ 0 }, ga.r_[{ E({ 0 }), E({ 0 }, "int8") }].shape)
    assert.are.same({ 0, 2 }, ga.c_[{ E({ 0 }), E({ 0 }) }].shape)
    assert.are.same({ 2, 0 }, ga.r_[{ "1,2", E({ 0 }), E({ 0 }) }].shape)
    assert.is_nil(ga.r_.foo)
  end)
end)

---------------------------------------------------------------------------
-- GPU
---------------------------------------------------------------------------

local function rand(shape, lo, hi)
  return R.build(shape, function() return math.random(lo or -50, hi or 50) end)
end

-- 1-based wrapping of an index k on an axis of n (the engine's rule)
local function wrap(k, n)
  local z = k >= 0 and k - 1 or k + n
  return z % n + 1
end

describe("indexing on the device", function()
  gpu_it("take_along_axis and put_along_axis on random data, broadcasting, wrapping, axis false", function()
    for _, c in ipairs { { { 4, 6 }, 2, { 4, 3 } }, { { 4, 6 }, 1, { 5, 6 } }, { { 3, 4, 5 }, 2, { 3, 7, 1 } },
                         { { 3, 4, 5 }, -1, { 1, 4, 2 } } } do
      local shape, axis, ishape = c[1], c[2], c[3]
      local ax = axis < 0 and #shape + 1 + axis or axis
      local A = rand(shape)
      local x = R.to_gpu(A, "float32")
      local n = shape[ax]
      local I = R.build(ishape, function() return math.random(-n, n + 2) end)
      local idx = R.to_gpu(I, "int64")
      local got = ga.take_along_axis(x, idx, axis)
      local oshape = {}
      for d = 1, #shape do oshape[d] = d == ax and ishape[d] or math.max(shape[d], ishape[d]) end
      local want = R.build(oshape, function(mi)
        local src, im = {}, {}
        for d = 1, #shape do
          im[d] = ishape[d] == 1 and 1 or mi[d]
          src[d] = shape[d] == 1 and 1 or mi[d]
        end
        src[ax] = wrap(R.get(I, im), n)
        return R.get(A, src)
      end)
      assert.are.same(want.shape, got.shape)
      assert.are.same(want.data, R.values(got))
    end
    -- positions from argsort fit as they are
    local v = ga.array({ { 3, 1, 2 }, { 9, 7, 8 } }, "int32")
    assert.are.same({ { 1, 2, 3 }, { 7, 8, 9 } }, ga.take_along_axis(v, ga.argsort(v, 2), 2):totable())
    assert.are.same({ 2, 9 }, ga.take_along_axis(v, ga.array({ 3, 4 }), false):totable())
    -- put: distinct positions per row
    local y = ga.zeros({ 3, 5 }, "int16")
    ga.put_along_axis(y, ga.array({ { 1, 5 }, { 2, 3 }, { -1, 0 } }), ga.array({ { 7 }, { 8 }, { 9 } }), 2)
    assert.are.same({ { 7, 0, 0, 0, 7 }, { 0, 8, 8, 0, 0 }, { 0, 0, 0, 0, 9 } }, y:totable())
    local z = ga.zeros({ 2, 3 })
    ga.put_along_axis(z, ga.array({ { 2, 1, 2 } }), 5, 1)
    assert.are.same({ { 0, 5, 0 }, { 5, 0, 5 } }, z:totable())
  end)

  gpu_it("take and put with mode wrap, clip and raise", function()
    local x = ga.array({ 10, 20, 30, 40 }, "int32")
    assert.are.same({ 40, 10, 10 }, ga.take(x, { 0, 5, 1 }):totable())
    assert.are.same({ 10, 40, 10 }, ga.take(x, { 0, 9, -3 }, nil, nil, "clip"):totable())
    helper.assert_gaerror(function() ga.take(x, { 5 }, { mode = "raise" }) end, "take: an index is out of range")
    helper.assert_gaerror(function() ga.take(x, { 0 }, { mode = "raise" }) end, "take: an index is out of range")
    assert.are.same({ 40, 30 }, ga.take(x, { -1, -2 }, { mode = "raise" }):totable())
    ga.put(x, { 9 }, 1, "clip")
    assert.are.same({ 10, 20, 30, 1 }, x:totable())
    assert.are.same({ 20 }, x:take({ 2 }):totable())
  end)

  gpu_it("indices, ix_, unravel/ravel arrays, diag/tril/triu/mask indices: 1-based", function()
    local g = ga.indices({ 2, 3 })
    assert.are.same({ { { 1, 1, 1 }, { 2, 2, 2 } }, { { 1, 2, 3 }, { 1, 2, 3 } } }, g:totable())
    local r, c = ga.indices({ 2, 3 }, "int32", true)
    assert.are.same({ { 1 }, { 2 } }, r:totable())
    assert.are.same({ { 1, 2, 3 } }, c:totable())
    local a, b = ga.ix_({ 1, 3 }, ga.array({ true, false, true }))
    assert.are.same({ { 1 }, { 3 } }, a:totable())
    assert.are.same({ { 1, 3 } }, b:totable())
    local flat = {}
    for i = 1, 8 do flat[i] = math.random(1, 24) end
    local i1, i2, i3 = ga.unravel_index(ga.array(flat), { 2, 3, 4 })
    local back = ga.ravel_multi_index({ i1, i2, i3 }, { 2, 3, 4 })
    assert.are.same(flat, back:totable())
    for k = 1, 8 do
      local x, y, z = ga.unravel_index(flat[k], { 2, 3, 4 })
      assert.are.same({ x, y, z }, { i1:totable()[k], i2:totable()[k], i3:totable()[k] })
    end
    local d1, d2, d3 = ga.diag_indices(3, 3)
    assert.are.same({ 1, 2, 3 }, d3:totable())
    assert.are.equal(d1, d2)
    local tr, tc = ga.tril_indices(3)
    assert.are.same({ 1, 2, 2, 3, 3, 3 }, tr:totable())
    assert.are.same({ 1, 1, 2, 1, 2, 3 }, tc:totable())
    local ur, uc = ga.triu_indices(3, 1, 4)
    assert.are.same({ 1, 1, 1, 2, 2, 3 }, ur:totable())
    assert.are.same({ 2, 3, 4, 3, 4, 4 }, uc:totable())
    local fr = ga.tril_indices_from(ga.zeros({ 2, 2 }), -1)
    assert.are.same({ 2 }, fr:totable())
    local mr, mc = ga.mask_indices(3, ga.triu, 1)
    assert.are.same({ 1, 1, 2 }, mr:totable())
    assert.are.same({ 2, 3, 3 }, mc:totable())
    assert.are.same({ 2, 4 }, ga.flatnonzero({ { 0, 1 }, { 0, 3 } }):totable())
    assert.are.same({ { 1, 2 }, { 2, 2 } }, ga.argwhere({ { 0, 1 }, { 0, 3 } }):totable())
  end)

  gpu_it("choose, compress, select, extract, place, putmask, fill_diagonal", function()
    local a = ga.array({ 1, 3, 2, 1 }, "int32")
    local ch = { { 10, 11, 12, 13 }, { 20, 21, 22, 23 }, { 30, 31, 32, 33 } }
    assert.are.same({ 10, 31, 22, 13 }, ga.choose(a, ch):totable())
    assert.are.same({ 10, 31, 22, 13 }, ga.choose(a, ga.array(ch)):totable())
    -- wrap: 0 is the last choice, n + 1 the first, -n the first
    assert.are.same({ 30, 11, 12, 13 }, ga.choose({ 0, 4, 1, -3 }, ch, { mode = "wrap" }):totable())
    assert.are.same({ 10, 31, 32, 13 }, ga.choose({ -5, 7, 9, 1 }, ch, { mode = "clip" }):totable())
    helper.assert_gaerror(function() ga.choose({ 4 }, ch) end, "choose: a choice number is outside 1..3")
    local x = ga.array({ { 1, 2 }, { 3, 4 }, { 5, 6 } })
    assert.are.same({ { 3, 4 } }, ga.compress({ false, true }, x, 1):totable())
    assert.are.same({ { 2 }, { 4 }, { 6 } }, ga.compress({ 0, 1 }, x, 2):totable())
    assert.are.same({ 2, 3 }, ga.compress({ false, true, true }, x):totable())
    assert.are.same({ { 1 }, { 3 }, { 5 } }, x:compress({ true }, 2):totable())
    helper.assert_gaerror(function() ga.compress({ false, false, true }, x, 2) end,
      "compress: condition has a true entry past")
    local v = ga.arange(6)
    local s = ga.select({ ga.less(v, 2), ga.greater(v, 3) }, { v, ga.multiply(v, v) }, 42)
    assert.are.same({ 0, 1, 42, 42, 16, 25 }, s:totable())
    assert.are.equal("float32", ga.select({ ga.less(v, 2) }, { ga.ones(6, "float32") }, 0).dtype)
    assert.are.same({ 1, 3, 5 }, ga.extract(ga.equal(ga.remainder(ga.arange(1, 7), 2), 1), ga.arange(1, 7)):totable())
    local p = ga.zeros(5, "int64")
    ga.place(p, { true, false, true, true, false }, { 7, 8 })
    assert.are.same({ 7, 0, 8, 7, 0 }, p:totable())
    local q = ga.arange(6):reshape(2, 3)
    ga.putmask(q, ga.greater(q, 2), { 10, 20 })
    assert.are.same({ { 0, 1, 2 }, { 20, 10, 20 } }, q:totable())
    local f = ga.zeros({ 5, 3 }, "int8")
    ga.fill_diagonal(f, 7)
    assert.are.same({ { 7, 0, 0 }, { 0, 7, 0 }, { 0, 0, 7 }, { 0, 0, 0 }, { 0, 0, 0 } }, f:totable())
    local w = ga.zeros({ 7, 3 }, "int8")
    ga.fill_diagonal(w, { 1, 2 }, true)
    assert.are.same({ 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2 }, w:ravel():totable())
    local cube = ga.zeros({ 2, 2, 2 })
    ga.fill_diagonal(cube, 4)
    assert.are.same({ 4, 0, 0, 0, 0, 0, 0, 4 }, cube:ravel():totable())
  end)

  gpu_it("sliding_window_view and as_strided share memory; r_ and c_ join values", function()
    local x = ga.arange(1, 7, "float32")
    local w = ga.lib.stride_tricks.sliding_window_view(x, 3)
    assert.are.same({ { 1, 2, 3 }, { 2, 3, 4 }, { 3, 4, 5 }, { 4, 5, 6 } }, w:totable())
    local m = ga.arange(12):reshape(3, 4)
    local w2 = ga.lib.stride_tricks.sliding_window_view(m, { 2, 2 })
    assert.are.same({ 2, 3, 2, 2 }, w2.shape)
    assert.are.same({ { 5, 6 }, { 9, 10 } }, w2[{ 2, 2 }]:totable())
    local w3 = ga.lib.stride_tricks.sliding_window_view(m, 2, { axis = 1 })
    assert.are.same({ 2, 4, 2 }, w3.shape)
    local s = ga.lib.stride_tricks.as_strided(x, { 3, 2 }, { 8, 4 })
    assert.are.same({ { 1, 2 }, { 3, 4 }, { 5, 6 } }, s:totable())
    s[{ 1, 1 }] = 9
    assert.are.equal(9, x[1])
    helper.assert_gaerror(function() ga.lib.stride_tricks.as_strided(x, { 4 }, { 1024 }) end,
      "as_strided: the view reaches")
    assert.are.same({ 1, 2, 5, 3 }, ga.r_[{ ga.array({ 1, 2 }), 5, { 3 } }]:totable())
    assert.are.same({ { 1, 3 }, { 2, 4 } }, ga.c_[{ { 1, 2 }, { 3, 4 } }]:totable())
    assert.are.same({ { 1, 2 }, { 3, 4 } }, ga.r_("1,2", { 1, 2 }, { 3, 4 }):totable())
    assert.are.equal("float64", ga.r_[{ ga.array({ 1 }, "int32"), 2.5 }].dtype)
  end)

  gpu_it("scatter_add/max/min accumulate repeated positions, for every key form", function()
    for _, dt in ipairs { "float32", "float64", "int32", "int64", "int8", "uint16", "float16" } do
      local n, k = math.random(3, 9), math.random(10, 30)    -- sums stay below int8's 127
      local idx, val = {}, {}
      for i = 1, k do
        idx[i] = math.random(-n, n + 1)
        val[i] = math.random(0, 3)
      end
      local a = ga.zeros(n, dt)
      ga.scatter_add(a, ga.array(idx, "int64"), ga.array(val, dt))
      local want = {}
      for i = 1, n do want[i] = 0 end
      for i = 1, k do
        local p = wrap(idx[i], n)
        want[p] = want[p] + val[i]
      end
      assert.are.same(want, R.values(a), dt)
      local mx = ga.full(n, -1, dt == "uint16" and "int32" or dt)
      ga.scatter_max(mx, ga.array(idx, "int32"), ga.array(val))
      local wmax = {}
      for i = 1, n do wmax[i] = -1 end
      for i = 1, k do
        local p = wrap(idx[i], n)
        wmax[p] = math.max(wmax[p], val[i])
      end
      assert.are.same(wmax, R.values(mx), dt)
    end
    -- rows of a 2-D array, values broadcast along them
    local a = ga.zeros({ 3, 2 }, "float32")
    ga.scatter_add(a, ga.array({ 1, 1, 3 }), ga.array({ { 1, 2 }, { 3, 4 }, { 5, 6 } }, "float32"))
    assert.are.same({ { 4, 6 }, { 0, 0 }, { 5, 6 } }, a:totable())
    ga.scatter_add(a, 2, 1)
    assert.are.same({ 1, 1 }, a[{ 2 }]:totable())
    -- a table key with index arrays (advanced) and ranges
    local b = ga.zeros({ 3, 4 }, "int32")
    ga.scatter_add(b, { ga.array({ 1, 1, 3 }), ga.array({ 2, 2, 4 }) }, 1)
    assert.are.same({ { 0, 2, 0, 0 }, { 0, 0, 0, 0 }, { 0, 0, 0, 1 } }, b:totable())
    local c = ga.zeros({ 3, 4 }, "int32")
    ga.scatter_add(c, { {}, ga.array({ 1, 1, 4 }) }, 2)
    assert.are.same({ { 4, 0, 0, 2 }, { 4, 0, 0, 2 }, { 4, 0, 0, 2 } }, c:totable())
    local d = ga.zeros({ 3, 4 }, "int32")
    ga.scatter_add(d, { { 2, 3 }, { 1, 4, 2 } }, 5)
    assert.are.same({ { 0, 0, 0, 0 }, { 5, 0, 5, 0 }, { 5, 0, 5, 0 } }, d:totable())
    local e = ga.zeros({ 2, 3 }, "float64")
    ga.scatter_min(e, ga.array({ { true, false, true }, { false, false, true } }), -2)
    assert.are.same({ { -2, 0, -2 }, { 0, 0, -2 } }, e:totable())
    -- NaN wins in maximum
    local f = ga.zeros(2, "float32")
    ga.scatter_max(f, ga.array({ 1, 1 }), ga.array({ 0 / 0, 5 }, "float32"))
    local fv = f:totable()
    assert.is_true(fv[1] ~= fv[1])
    -- a non-contiguous target
    local g = ga.zeros({ 4, 4 }, "float64")
    local gt = g:transpose()
    ga.scatter_add(gt, ga.array({ 2, 2 }), 1)
    assert.are.same({ 2, 2, 2, 2 }, g[{ {}, 2 }]:totable())     -- gt's row 2 is g's column 2
    assert.are.same({ 0, 0, 0, 0 }, g[{ {}, 1 }]:totable())
  end)
end)
