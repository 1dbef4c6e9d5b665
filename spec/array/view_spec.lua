-- Views and basic indexing, read and write, against the Lua model in
-- spec/ndref.lua, on random data and random keys. GPU only.
local helper = require "helper"
local R = require "ndref"
local ga = helper.ga
local gpu_it = helper.gpu_it

local function random_array(shape, dt)
  local t = helper.random_table(shape, function() return math.random(-10000, 10000) end)
  return ga.array(t, dt or "int32"), R.from_nested(t, shape)
end

local function key_str(key)
  if type(key) ~= "table" then return tostring(key) end
  local parts = {}
  for i = 1, #key do
    local s = key[i]
    if type(s) == "table" then
      parts[#parts + 1] = ("{%s,%s,%s}"):format(tostring(s[1]), tostring(s[2]), tostring(s[3]))
    else
      parts[#parts + 1] = tostring(s)
    end
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end

describe("basic indexing", function()
  gpu_it("reads views and elements like the Lua model, for random keys", function()
    local x, A = random_array({ 4, 5, 6 })
    for _ = 1, 300 do
      local key = R.random_key(A.shape)
      local ref = R.index(A, key)
      local got = x[key]
      if type(got) == "number" then
        assert.equal(0, #ref.shape, key_str(key))
        assert.equal(ref.data[1], got, key_str(key))
      else
        assert.same(ref.shape, got.shape, key_str(key))
        assert.equal("int32", got.dtype)
        helper.assert_same(R.nested(ref), got:totable())
      end
    end
  end)

  gpu_it("reads through views of views (negative strides compose)", function()
    local x, A = random_array({ 6, 7 }, "float64")
    for _ = 1, 100 do
      local s1, s2 = ({ 1, -1, 2, -2 })[math.random(4)], ({ 1, -1, 3 })[math.random(3)]
      local k1 = { { nil, nil, s1 }, { math.random(1, 3), nil, s2 } }
      local v = x[k1]
      local B = R.index(A, k1)
      if B.shape[1] > 0 and B.shape[2] > 0 then
        local k2 = R.random_key(B.shape)
        local ref = R.index(B, k2)
        local got = v[k2]
        if type(got) == "number" then assert.equal(ref.data[1], got)
        else helper.assert_same(R.nested(ref), got:totable()) end
      end
    end
  end)

  gpu_it("writes scalars and broadcast arrays through random keys", function()
    for _ = 1, 150 do
      local x, A = random_array({ 3, 4, 5 })
      local key = R.random_key(A.shape)
      local pos, shape = R.select(A, key)
      local how = math.random(3)
      local expected
      if how == 1 or #pos == 0 then
        local v = math.random(-5, 5)
        x[key] = v
        expected = R.assign(A, key, v)
      elseif how == 2 then
        local vals = {}
        for i = 1, #pos do vals[i] = math.random(-99, 99) end
        x[key] = ga.array(R.nested({ data = vals, shape = shape }), "int64")
        expected = R.assign(A, key, vals)
      else
        -- broadcast the last axis: a row repeated
        if #shape == 0 then goto continue end
        local last = shape[#shape]
        local row = {}
        for i = 1, last do row[i] = math.random(-99, 99) end
        x[key] = row
        expected = R.assign(A, key, row)
      end
      helper.assert_same(R.nested(expected), x:totable(), nil, key_str(key))
      ::continue::
    end
  end)

  gpu_it("writes element by element", function()
    local x = ga.zeros({ 3, 4 }, "float32")
    x[{ 2, 3 }] = 1.5
    x[{ -1, -1 }] = -2
    x[1] = 7
    helper.assert_same({ { 7, 7, 7, 7 }, { 0, 0, 1.5, 0 }, { 0, 0, 0, -2 } }, x:totable())
    assert.equal(1.5, x[{ 2, 3 }])
    assert.equal(-2, x[3][4])
  end)
end)

describe("views", function()
  gpu_it("reshape, ravel and flatten follow C order, view when possible", function()
    local x, A = random_array({ 4, 6 })
    local r = x:reshape(3, 8)
    assert.same({ 3, 8 }, r.shape)
    assert.equal(x, r.base)
    helper.assert_same(R.nested({ data = A.data, shape = { 3, 8 } }), r:totable())
    helper.assert_same(R.nested({ data = A.data, shape = { 2, 2, 6 } }), x:reshape({ 2, -1, 6 }):totable())
    -- a transposed array cannot be viewed as a reshape: the result is a copy
    local T = R.transpose(A)
    local rt = x.T:reshape(24)
    helper.assert_same(T.data, rt:totable())
    assert.is_nil(rt.base)
    helper.assert_same(A.data, x:ravel():totable())
    helper.assert_same(T.data, x.T:ravel():totable())
    local f = x:flatten()
    assert.is_nil(f.base)
    helper.assert_same(A.data, f:totable())
    helper.assert_gaerror(function() x:reshape(5, 5) end, "cannot reshape array of size 24 into shape {5,5}")
    helper.assert_gaerror(function() x:reshape(-1, -1) end, "only infer one")
  end)

  gpu_it("transpose, swapaxes, T", function()
    local x, A = random_array({ 2, 3, 4 })
    helper.assert_same(R.nested(R.transpose(A)), x.T:totable())
    helper.assert_same(R.nested(R.transpose(A)), x:transpose():totable())
    helper.assert_same(R.nested(R.transpose(A, { 2, 1, 3 })), x:swapaxes(1, 2):totable())
    helper.assert_same(R.nested(R.transpose(A, { 3, 2, 1 })), x:swapaxes(-1, 1):totable())
    helper.assert_same(R.nested(R.transpose(A, { 2, 3, 1 })), x:transpose(2, -1, 1):totable())
    helper.assert_gaerror(function() x:transpose(1, 1, 2) end, "repeated")
    helper.assert_gaerror(function() x:transpose(1, 2) end, "2 axes")
    helper.assert_gaerror(function() x:swapaxes(1, 4) end, "axis 4 is out of range")
  end)

  gpu_it("squeeze, expand_dims, broadcast_to, atleast_nd", function()
    local x, A = random_array({ 1, 3, 1, 2 })
    assert.same({ 3, 2 }, x:squeeze().shape)
    assert.same({ 3, 1, 2 }, x:squeeze(1).shape)
    assert.same({ 1, 3, 2 }, x:squeeze({ 3 }).shape)
    helper.assert_same(A.data, helper.flatten(x:squeeze():totable()))
    helper.assert_gaerror(function() x:squeeze(2) end, "cannot select axis 2")
    local y = ga.arange(6):reshape(2, 3)
    assert.same({ 1, 2, 3 }, y:expand_dims(1).shape)
    assert.same({ 2, 3, 1 }, y:expand_dims(-1).shape)
    assert.same({ 2, 1, 3 }, y:expand_dims(2).shape)
    local row = ga.array({ 1, 2, 3 }, "int8")
    local b = ga.broadcast_to(row, { 4, 3 })
    assert.same({ 4, 3 }, b.shape)
    assert.same({ 0, 1 }, b.strides)
    helper.assert_same({ { 1, 2, 3 }, { 1, 2, 3 }, { 1, 2, 3 }, { 1, 2, 3 } }, b:totable())
    helper.assert_gaerror(function() ga.broadcast_to(row, { 4, 2 }) end, "cannot broadcast")
    local p, q = ga.broadcast_arrays(ga.zeros({ 2, 1 }), ga.zeros({ 3 }))
    assert.same({ 2, 3 }, p.shape)
    assert.same({ 2, 3 }, q.shape)
    assert.same({ 1 }, ga.atleast_1d(ga.array(5)).shape)
    assert.same({ 1, 3 }, ga.atleast_2d(row).shape)
    assert.same({ 1, 3, 1 }, ga.atleast_3d(row).shape)
  end)

  gpu_it("keep their memory alive after the base is dropped", function()
    local x, A = random_array({ 50, 40 })
    local v = x[{ { 2, 40, 3 }, { nil, nil, -1 } }]
    local ref = R.nested(R.index(A, { { 2, 40, 3 }, { nil, nil, -1 } }))
    x = nil -- luacheck: ignore
    collectgarbage()
    collectgarbage()
    for _ = 1, 20 do ga.zeros({ 50, 40 }, "int32"):fill(-1) end
    helper.assert_same(ref, v:totable())
  end)

  gpu_it("copy in C and F order, fill, ascontiguousarray", function()
    local x, A = random_array({ 3, 5 }, "float64")
    local f = x:copy("F")
    assert.is_true(f.flags.f_contiguous)
    assert.is_false(f.flags.c_contiguous)
    helper.assert_same(R.nested(A), f:totable())
    local c = ga.ascontiguousarray(x.T)
    assert.is_true(c.flags.c_contiguous)
    helper.assert_same(R.nested(R.transpose(A)), c:totable())
    assert.equal(x, ga.ascontiguousarray(x))
    local v = x[{ {}, { 1, -1, 2 } }]
    v:fill(0.25)
    local expected = R.assign(A, { {}, { 1, -1, 2 } }, 0.25)
    helper.assert_same(R.nested(expected), x:totable())
  end)

  gpu_it("copies between overlapping views of one array", function()
    local x, A = random_array({ 20 }, "int64")
    x[{ { 2, 20 } }] = x[{ { 1, 19 } }]
    local expected = { A.data[1] }
    for i = 2, 20 do expected[i] = A.data[i - 1] end
    helper.assert_same(expected, x:totable())
    local y, B = random_array({ 8 }, "int16")
    y:set(y[{ { nil, nil, -1 } }])
    local rev = {}
    for i = 1, 8 do rev[i] = B.data[9 - i] end
    helper.assert_same(rev, y:totable())
  end)
end)
