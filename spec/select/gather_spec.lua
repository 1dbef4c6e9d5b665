-- Integer-array indexing: x[idx], x[idx] = v, ga.take, ga.put.
-- CI (no GPU): every gather/scatter/put kernel compiles with NVRTC for sm_90,
-- dispatch and argument errors on empty arrays. GPU: results against a Lua
-- reference on random data, for index dtypes, layouts and the wrap rule.
local helper = require "helper"
local ga = helper.ga
local core = ga._core
local gather_wrapper = core._test.gather_wrapper
local gpu_it = helper.gpu_it

local INDEX_DTYPES = { "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64" }

--- The documented wrap rule: index k on an axis of length n -> 1-based position
local function wrap(k, n)
  if k >= 0 then return (k - 1) % n + 1 end
  return (k + n) % n + 1
end

-- A small C-order model: {shape=, data=} with data a flat list
local function ref_random(shape, gen)
  local n = 1
  for _, s in ipairs(shape) do n = n * s end
  local data = {}
  for i = 1, n do data[i] = gen(i) end
  return { shape = shape, data = data }
end

local R = require "ndref"
local ref_nested, ref_get, ref_build, to_gpu = R.nested, R.get, R.build, R.to_gpu

local function ref_flat_index(shape, mi)
  local k = 0
  for d = 1, #shape do k = k * shape[d] + (mi[d] - 1) end
  return k + 1
end

local function check(expected, got, dtype)
  assert.are.equal(dtype, got.dtype)
  assert.are.same(expected.shape, got.shape)
  if #expected.shape == 0 then
    helper.assert_same(expected.data[1], got:item())
  else
    helper.assert_same(ref_nested(expected), got:totable())
  end
end

--- Reference take along 1-based axis (nil: flattened)
local function ref_take(X, I, axis)
  if axis == nil then
    X = { shape = { #X.data }, data = X.data }
    axis = 1
  end
  local n = X.shape[axis]
  local shape = {}
  for d = 1, axis - 1 do shape[#shape + 1] = X.shape[d] end
  for _, s in ipairs(I.shape) do shape[#shape + 1] = s end
  for d = axis + 1, #X.shape do shape[#shape + 1] = X.shape[d] end
  local ni = #I.shape
  return ref_build(shape, function(mi)
    local xi, ii = {}, {}
    for d = 1, axis - 1 do xi[d] = mi[d] end
    for d = 1, ni do ii[d] = mi[axis - 1 + d] end
    local k = ni == 0 and I.data[1] or ref_get(I, ii)
    xi[axis] = wrap(k, n)
    for d = axis + 1, #X.shape do xi[d] = mi[d - 1 + ni] end
    return ref_get(X, xi)
  end)
end

-- exactly representable in every dtype used here (float16 included)
local function rand_values(dtype)
  local int = dtype:find("int") ~= nil
  return function()
    return int and math.random(-100, 100) or math.random(-200, 200) + math.random(0, 3) * 0.25
  end
end

-- Indices in range for most, a few out of range (wrapping), for an index dtype
local function rand_index(dtype, n)
  local lo, hi = -2 * n - 3, 3 * n + 3
  if dtype:sub(1, 1) == "u" then lo = 0 end
  if dtype == "int8" then lo, hi = math.max(lo, -128), math.min(hi, 127) end
  if dtype == "uint8" then hi = math.min(hi, 255) end
  return function()
    if math.random() < 0.7 then return math.random(1, n) end
    return math.random(lo, hi)
  end
end

describe("gather kernels compile for sm_90", function()
  local function compile(wrappers)
    local src = core.compile.kernel_source("common") .. core.compile.kernel_source("gather") .. table.concat(wrappers)
    return core._test.compile(src, nil, 90)
  end

  it("gather (flat, rows and strided), every index dtype x value dtypes, 32/64-bit", function()
    local w = {}
    for i, ix in ipairs(INDEX_DTYPES) do
      for j, t in ipairs({ "float32", "float64", "float16", "int8", "complex128", "bool" }) do
        -- the widths pick_vec takes: up to 8 elements and 32 bytes, and halves of it
        local vec = math.max(1, math.min(8, 32 // ga.dtype(t).itemsize))
        w[#w + 1] = gather_wrapper("flat", ("f%d_%d"):format(i, j), t, ix, nil, vec, 1, false)
        w[#w + 1] = gather_wrapper("flat", ("e%d_%d"):format(i, j), t, ix, nil, math.max(1, vec // 2), 1, true)
        w[#w + 1] = gather_wrapper("flat", ("f%d_%d_1"):format(i, j), t, ix, nil, 1, 1, false)
        w[#w + 1] = gather_wrapper("flat", ("q%d_%d"):format(i, j), t, ix, nil, 2, 1, true)
        w[#w + 1] = gather_wrapper("gather", ("g%d_%d"):format(i, j), t, ix, nil, 1, 1 + (i + j) % 3, false)
        w[#w + 1] = gather_wrapper("gather", ("h%d_%d"):format(i, j), t, ix, nil, 1, 3, true)
        local rv = math.max(2, 16 // ga.dtype(t).itemsize)
        w[#w + 1] = gather_wrapper("rows", ("r%d_%d"):format(i, j), t, ix, nil, rv, 2, false)
        w[#w + 1] = gather_wrapper("rows", ("w%d_%d"):format(i, j), t, ix, nil, 2, 2, true)
      end
    end
    assert.is_true(compile(w) > 0)
  end)

  it("scatter and put, every index dtype x value/source dtype pairs, 32/64-bit", function()
    local w = {}
    local pairs_ = { { "float32", "float64" }, { "float64", "float64" }, { "float16", "int64" },
                     { "int8", "bool" }, { "complex64", "float32" }, { "bool", "complex128" } }
    for i, ix in ipairs(INDEX_DTYPES) do
      for j, p in ipairs(pairs_) do
        w[#w + 1] = gather_wrapper("scatter", ("s%d_%d"):format(i, j), p[1], ix, p[2], 1, 1 + (i + j) % 3, false)
        w[#w + 1] = gather_wrapper("scatter", ("t%d_%d"):format(i, j), p[1], ix, p[2], 1, 2, true)
        w[#w + 1] = gather_wrapper("put", ("p%d_%d"):format(i, j), p[1], ix, p[2], 1, 1 + i % 2, false)
        w[#w + 1] = gather_wrapper("put", ("u%d_%d"):format(i, j), p[1], ix, p[2], 1, 2, true)
      end
    end
    assert.is_true(compile(w) > 0)
  end)

  it("rejects bad wrapper arguments", function()
    helper.assert_gaerror(function() gather_wrapper("flat", "k", "float32", "int64", nil, 32, 1) end,
                          "_gather_wrapper")
    assert.has_error(function() gather_wrapper("nope", "k", "float32", "int64") end)
  end)
end)

describe("integer-array indexing without a device", function()
  it("x[idx] on empty arrays gives the right shape and dtype", function()
    local x = ga.empty({ 0, 3 }, "float32")
    local y = x[ga.empty({ 0 }, "int64")]
    assert.are.same({ 0, 3 }, y.shape)
    assert.are.equal("float32", y.dtype)
    local z = ga.take(ga.empty({ 4, 0, 2 }, "int16"), ga.empty({ 0, 5 }, "uint8"), 1)
    assert.are.same({ 0, 5, 0, 2 }, z.shape)
    assert.are.equal("int16", z.dtype)
    z = ga.take(ga.empty({ 2, 0 }, "float64"), ga.empty({ 0 }, "int32"))
    assert.are.same({ 0 }, z.shape)
    z = ga.take(ga.empty({ 0, 3 }, "float64"), ga.empty({ 2, 0 }, "int32"), -1)
    assert.are.same({ 0, 2, 0 }, z.shape)
  end)

  it("rejects float and bool index arrays for take", function()
    local x = ga.empty({ 0, 3 }, "float32")
    helper.assert_gaerror(function() return ga.take(x, ga.empty(0, "float32")) end,
                          "take: index arrays must have an integer dtype, got float32")
    helper.assert_gaerror(function() return ga.take(x, ga.empty(0, "bool")) end, "got bool")
    helper.assert_gaerror(function() return x[ga.empty(0, "float64")] end,
                          "index: index arrays must have an integer dtype, got float64")
    helper.assert_gaerror(function() x[ga.empty(0, "float64")] = 1 end, "index: index arrays")
    helper.assert_gaerror(function() ga.put(x, ga.empty(0, "complex64"), 1) end, "put: index arrays")
  end)

  it("checks axis and out before any device work", function()
    local x = ga.empty({ 0, 3 }, "float32")
    local idx = ga.empty({ 0 }, "int64")
    helper.assert_gaerror(function() return ga.take(x, idx, 3) end, "take: axis 3 is out of range")
    helper.assert_gaerror(function() return ga.take(x, idx, { axis = -3 }) end, "out of range")
    helper.assert_gaerror(function() return ga.take(x, idx, 1, { out = ga.empty({ 0, 4 }, "float32") }) end,
                          "take: out has shape {0,4}, the result has shape {0,3}")
    local out = ga.empty({ 0, 3 }, "float64")
    assert.are.equal(out, ga.take(x, idx, 1, { out = out }))
    helper.assert_gaerror(function() return ga.take(x, "nope") end, "take: indices must be")
  end)

  it("forwards bool keys to the mask handlers", function()
    local m = core.select
    local get, set = m.mask_get, m.mask_set
    local seen
    m.mask_get = function(x, key) seen = { "get", x, key } return "masked" end
    m.mask_set = function(x, key, v) seen = { "set", x, key, v } end
    local ok, err = pcall(function()
      local x = ga.empty({ 0, 2 }, "float32")
      local key = ga.empty({ 0, 2 }, "bool")
      assert.are.equal("masked", x[key])
      assert.are.same({ "get", x, key }, seen)
      x[key] = 5
      assert.are.same({ "set", x, key, 5 }, seen)
    end)
    m.mask_get, m.mask_set = get, set
    assert(ok, err)
    assert.is_nil(ga.methods._mask_get, "a private name on the public method table")
  end)

  it("put with nothing to put is a no-op that returns x", function()
    local x = ga.empty({ 0 }, "float32")
    assert.are.equal(x, ga.put(x, ga.empty(0, "int64"), ga.empty(0, "float32")))
  end)
end)

describe("integer-array indexing on the GPU", function()
  local function each_path(fn)
    fn(false)
    local old = core._test.gather_force64(true)
    local ok, err = pcall(fn, true)
    core._test.gather_force64(old)
    assert(ok, err)
  end

  gpu_it("follows the documented wrap rule for every index dtype", function()
    local n = 7
    local X = ref_random({ n }, function(i) return i * 10 end)
    local x = to_gpu(X, "int32")
    local ks = { 1, 7, 8, 15, 0, 9, 200 }
    local signed_ks = { -1, -7, -8, -9, -15, -100, 0, 1, 7 }
    for _, ix in ipairs(INDEX_DTYPES) do
      local list = ix:sub(1, 1) == "u" and ks or signed_ks
      local I = { shape = { #list }, data = list }
      each_path(function()
        check(ref_take(X, I, 1), x[to_gpu(I, ix)], "int32")
      end)
    end
    -- large int64 indices wrap too
    local big = { shape = { 4 }, data = { 1 << 40, -(1 << 40), math.maxinteger, math.mininteger } }
    each_path(function() check(ref_take(X, big, 1), ga.take(x, to_gpu(big, "int64")), "int32") end)
  end)

  gpu_it("take along every axis of random 1-3-D arrays, index arrays of 0-2 dims", function()
    for _, shape in ipairs({ { 13 }, { 5, 6 }, { 3, 4, 5 } }) do
      for _, dtype in ipairs({ "float32", "float64", "int16", "float16" }) do
        local X = ref_random(shape, rand_values(dtype))
        local x = to_gpu(X, dtype)
        for axis = 1, #shape do
          for _, ishape in ipairs({ { 9 }, { 2, 3 }, {} }) do
            local ix = INDEX_DTYPES[math.random(#INDEX_DTYPES)]
            local I = ref_random(ishape, rand_index(ix, shape[axis]))
            each_path(function()
              check(ref_take(X, I, axis), ga.take(x, to_gpu(I, ix), axis), dtype)
              check(ref_take(X, I, axis), ga.take(x, to_gpu(I, ix), { axis = axis - #shape - 1 }), dtype)
            end)
          end
        end
      end
    end
  end)

  gpu_it("take without axis reads x flattened, contiguous or not", function()
    local X = ref_random({ 4, 6 }, rand_values("float64"))
    local x = to_gpu(X, "float64")
    local I = ref_random({ 10 }, rand_index("int64", 24))
    check(ref_take(X, I, nil), ga.take(x, to_gpu(I, "int64")), "float64")
    -- the transpose (a copy is made to flatten it)
    local XT = ref_build({ 6, 4 }, function(mi) return ref_get(X, { mi[2], mi[1] }) end)
    check(ref_take(XT, I, nil), ga.take(x.T, to_gpu(I, "int64")), "float64")
    -- a scalar index
    check(ref_take(X, { shape = {}, data = { -3 } }, nil), ga.take(x, -3), "float64")
  end)

  gpu_it("reads negative-stride and transposed views, writes strided and cast outputs", function()
    local X = ref_random({ 6, 5 }, rand_values("float32"))
    local x = to_gpu(X, "float32")
    local flipped = x[{ { nil, nil, -1 }, { nil, nil, -2 } }]          -- rows reversed, every other column
    local F = ref_build({ 6, 3 }, function(mi) return ref_get(X, { 7 - mi[1], 7 - 2 * mi[2] }) end)
    local I = ref_random({ 8 }, rand_index("int32", 6))
    each_path(function()
      check(ref_take(F, I, 1), ga.take(flipped, to_gpu(I, "int32"), 1), "float32")
      check(ref_take(F, I, 2), ga.take(flipped, to_gpu(I, "int32"), 2), "float32")
    end)
    -- out: a transposed view, then a float64 out (cast)
    local outT = ga.zeros({ 3, 8 }, "float32")
    local r = ga.take(flipped, to_gpu(I, "int32"), 1, { out = outT.T })
    assert.are.same({ 8, 3 }, r.shape)
    check(ref_take(F, I, 1), outT.T, "float32")
    local out64 = ga.zeros({ 8, 3 }, "float64")
    ga.take(flipped, to_gpu(I, "int32"), 1, { out = out64 })
    check(ref_take(F, I, 1), out64, "float64")
    -- out overlapping x: x[rows] written into x itself
    local y = to_gpu(X, "float32")
    local J = ref_random({ 6 }, rand_index("int64", 6))
    ga.take(y, to_gpu(J, "int64"), 1, { out = y })
    check(ref_take(X, J, 1), y, "float32")
  end)

  gpu_it("gathers a large vector against the reference (vector path, misaligned views)", function()
    local n = 1 << 18
    local X = ref_random({ n }, function() return math.random(-1 << 20, 1 << 20) end)
    local x = to_gpu(X, "float32")
    local I = ref_random({ 100003 }, rand_index("int64", n))
    local idx = to_gpu(I, "int64")
    each_path(function()
      check(ref_take(X, I, 1), x[idx], "float32")
      -- views starting one element in: the vector width falls back
      local sub = x[{ { 2, -1 } }]
      local S = ref_build({ n - 1 }, function(mi) return X.data[mi[1] + 1] end)
      local J = ref_build({ 100002 }, function(mi) return I.data[mi[1] + 1] end)
      local z = ga.empty(100003, "float32")
      ga.take(sub, idx[{ { 2, -1 } }], { out = z[{ { 2, -1 } }] })
      check(ref_take(S, J, 1), z[{ { 2, -1 } }], "float32")
    end)
  end)

  gpu_it("x[idx] = v scatters rows: scalars, broadcast arrays, casts; others untouched", function()
    local X = ref_random({ 7, 4 }, rand_values("float64"))
    each_path(function()
      local x = to_gpu(X, "float64")
      x[ga.array({ 2, 9 }, "int64")] = 3.5          -- 9 wraps to row 2: both write 3.5
      x[ga.array({ -1 }, "int16")] = ga.array({ 1, 2, 3, 4 }, "int32")   -- broadcast over the row, cast
      local expected = ref_build({ 7, 4 }, function(mi)
        if mi[1] == 2 then return 3.5 end
        if mi[1] == 7 then return mi[2] end
        return ref_get(X, mi)
      end)
      check(expected, x, "float64")
      -- values shaped like the index: one row each
      local V = ref_random({ 2, 4 }, rand_values("float64"))
      x[ga.array({ 1, 5 }, "uint8")] = to_gpu(V, "float64")
      local e2 = ref_build({ 7, 4 }, function(mi)
        if mi[1] == 1 then return ref_get(V, { 1, mi[2] }) end
        if mi[1] == 5 then return ref_get(V, { 2, mi[2] }) end
        return ref_get(expected, mi)
      end)
      check(e2, x, "float64")
      helper.assert_gaerror(function() x[ga.array({ 1, 2 }, "int64")] = ga.ones({ 3, 4 }) end,
                            "cannot assign a value of shape {3,4} to the indexed shape {2,4}")
      check(e2, x, "float64")
    end)
  end)

  gpu_it("x[idx] = v on a negative-stride view and from an overlapping value", function()
    local X = ref_random({ 9 }, rand_values("float32"))
    local x = to_gpu(X, "float32")
    local v = x[{ { nil, nil, -1 } }]             -- the reversed view
    v[ga.array({ 1, 3 }, "int32")] = -7            -- v[1] is x[9], v[3] is x[7]
    local x2 = to_gpu(X, "float32")
    x2[ga.array({ 1, 2, 3 }, "int64")] = x2[{ { 7, 9 } }]    -- value shares x2's memory
    local e1 = ref_build({ 9 }, function(mi) return (mi[1] == 9 or mi[1] == 7) and -7 or X.data[mi[1]] end)
    check(e1, x, "float32")
    local e2 = ref_build({ 9 }, function(mi) return mi[1] <= 3 and X.data[mi[1] + 6] or X.data[mi[1]] end)
    check(e2, x2, "float32")
  end)

  gpu_it("put writes flat positions, values cyclically, into contiguous and strided arrays", function()
    local X = ref_random({ 4, 5 }, rand_values("float64"))
    each_path(function()
      local x = to_gpu(X, "float64")
      -- 21 wraps to 1, 0 and -1 both to 20; repeated positions get equal values
      local I = { shape = { 5 }, data = { 1, 19, 21, -1, 0 } }
      ga.put(x, to_gpu(I, "int64"), ga.array({ 300, 200, 300, 400, 400 }, "float64"))
      local e = ref_build({ 4, 5 }, function(mi)
        local f = ref_flat_index({ 4, 5 }, mi)
        if f == 1 then return 300 end
        if f == 19 then return 200 end
        if f == 20 then return 400 end
        return ref_get(X, mi)
      end)
      check(e, x, "float64")
      -- a transposed target: flat positions follow the view's C order
      local y = to_gpu(X, "float64")
      ga.put(y.T, ga.array({ 2, 6, 7 }, "int32"), ga.array({ -1, -2 }, "float32"))
      local YT = ref_build({ 5, 4 }, function(mi) return ref_get(X, { mi[2], mi[1] }) end)
      local vals = { [2] = -1, [6] = -2, [7] = -1 }
      local eT = ref_build({ 5, 4 }, function(mi) return vals[ref_flat_index({ 5, 4 }, mi)] or ref_get(YT, mi) end)
      check(eT, y.T, "float64")
      -- a scalar value
      ga.put(y, { 3 }, 0.5)
      assert.are.equal(0.5, y:item(1, 3))
    end)
  end)

  gpu_it("empty and 0-d cases", function()
    local x = ga.array({ 1, 2, 3 }, "int32")
    check({ shape = { 0 }, data = {} }, x[ga.empty(0, "int64")], "int32")
    check({ shape = {}, data = { 3 } }, ga.take(x, 0), "int32")
    helper.assert_gaerror(function() return ga.take(ga.empty({ 0 }), ga.array({ 1 }, "int64")) end,
                          "take: cannot take 1 elements from an empty axis")
    helper.assert_gaerror(function() return ga.array(5)[ga.array({ 1 }, "int64")] end, "0-d array")
    helper.assert_gaerror(function() return ga.take(ga.array(5), ga.array({ 1 }, "int64"), 1) end,
                          "take: axis 1 given for a 0-d array")
    check({ shape = { 2 }, data = { 5, 5 } }, ga.take(ga.array(5, "int64"), ga.array({ 1, -1 }, "int64")), "int64")
  end)

  gpu_it("GPUARRAY_L2_FETCH_GRANULARITY sets the context's limit at first use; gathers stay right", function()
    -- a fresh process per value: the limit is set once, at first use of the device
    local function run(value)
      local cmd = ("GPUARRAY_L2_FETCH_GRANULARITY=%s LUA_PATH='lua/?.lua;lua/?/init.lua;;' "
        .. "LUA_CPATH='build/?.so;;' lua5.4 -e 'local ga = require [[gpuarray]]; "
        .. "local ok, e = pcall(function() "
        .. "return ga.arange(1000, [[float32]])[ga.array({7, -1}, [[int64]])]:totable() end); "
        .. "if not ok then io.write(e) return end; "
        .. "io.write(e[1], [[ ]], e[2], [[ ]], tostring(ga._core._test.l2_fetch_granularity()))' 2>&1"):format(value)
      local p = assert(io.popen(cmd))
      local out = p:read("a")
      p:close()
      return out
    end
    local out = run("32")
    local a, b, g = out:match("^(%S+) (%S+) (%S+)$")
    assert.are.equal(6, tonumber(a), out)
    assert.are.equal(999, tonumber(b), out)
    -- a hint the driver may round up, or nil when the driver entry point is missing
    assert.is_true(g == "nil" or (tonumber(g) and tonumber(g) <= 64), out)
    -- the error names the public function that first used the device
    -- ("gpuarray: arange: GPUARRAY_L2_FETCH_GRANULARITY must be ...")
    local bad = run("seven")
    local why = "GPUARRAY_L2_FETCH_GRANULARITY must be a number of bytes"
    assert.truthy(bad:find("^gpuarray: ") and bad:find(why, 1, true), bad)
  end)
end)
