-- The manipulation room beyond pad: shapes and axes (tuples of axes,
-- moveaxis, rollaxis, order F), broadcasting, queries, copyto, require,
-- joining and splitting with their new forms, repeat_ with counts per
-- element, rot90, delete, insert, append, resize, trim_zeros.
-- CI (no GPU): views of empty arrays (shapes and strides need no device),
-- errors. GPU: values against Lua references on random data.
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it
local R = require "ndref"

local function E(shape, dtype) return ga.empty(shape, dtype or "float64") end

describe("manipulation without a device", function()
  it("tuples of axes: expand_dims, squeeze, flip, roll; moveaxis and rollaxis", function()
    local x = E({ 0, 3, 4 })
    assert.are.same({ 1, 0, 1, 3, 4 }, ga.expand_dims(x, { 1, 3 }).shape)
    assert.are.same({ 0, 3, 4, 1, 1 }, ga.expand_dims(x, { -1, -2 }).shape)
    assert.are.same({ 0, 1, 3, 4 }, x:expand_dims(2).shape)
    helper.assert_gaerror(function() ga.expand_dims(x, { 1, 1 }) end, "expand_dims: axis 1 is repeated")
    helper.assert_gaerror(function() ga.expand_dims(x, 6) end, "expand_dims: axis 6 is out of range")
    local y = E({ 1, 0, 1, 2 })
    assert.are.same({ 0, 2 }, ga.squeeze(y).shape)
    assert.are.same({ 0, 1, 2 }, ga.squeeze(y, { 1 }).shape)
    assert.are.same({ 0, 2 }, y:squeeze({ 1, 3 }).shape)
    helper.assert_gaerror(function() ga.squeeze(y, 4) end, "squeeze: cannot select axis")
    assert.are.same({ 96, -32, 8 }, ga.flip(x, { axis = { 2 } }).strides)
    assert.are.same({ 0, 3, 4 }, ga.roll(x, 1, { axis = { 1, 2 } }).shape)
    local z = E({ 2, 3, 0, 5 })
    assert.are.same({ 3, 0, 5, 2 }, ga.moveaxis(z, 1, -1).shape)
    assert.are.same({ 0, 5, 2, 3 }, ga.moveaxis(z, { 1, 2 }, { 3, 4 }).shape)
    assert.are.same({ 5, 2, 3, 0 }, ga.moveaxis(z, -1, 1).shape)
    helper.assert_gaerror(function() ga.moveaxis(z, { 1, 2 }, { 3 }) end, "moveaxis: 2 source axes and 1 destinations")
    assert.are.same({ 5, 2, 3, 0 }, ga.rollaxis(z, 4).shape)
    assert.are.same({ 2, 0, 3, 5 }, ga.rollaxis(z, 3, 2).shape)
    assert.are.same({ 2, 3, 0, 5 }, ga.rollaxis(z, 2, 3).shape)       -- before position 3: stays
    assert.are.same({ 2, 0, 5, 3 }, ga.rollaxis(z, 2, 5).shape)
    helper.assert_gaerror(function() ga.rollaxis(z, 1, 6) end, "rollaxis: start 6 is out of range")
    assert.are.same({ 2, 3, 5, 0 }, ga.matrix_transpose(z).shape)
    assert.are.same(ga.permute_dims, ga.transpose)
    assert.are.same({ 5, 0, 3, 2 }, z:transpose().shape)
    assert.are.same({ 0, 2, 5, 3 }, z:transpose(3, 1, 4, 2).shape)
    assert.are.same({ 0, 2, 5, 3 }, z:transpose({ 3, 1, 4, 2 }).shape)
    assert.are.same({ 3, 2, 0, 5 }, ga.swapaxes(z, 1, 2).shape)
  end)

  it("reshape: order F, the method's forms, copy = false", function()
    local x = E({ 0, 6 })
    assert.are.same({ 0, 2, 3 }, x:reshape(0, 2, 3).shape)
    assert.are.same({ 0, 2, 3 }, x:reshape({ 0, 2, 3 }, { order = "F" }).shape)
    assert.are.same({ 0, 3 }, ga.reshape(E({ 0, 3 }), { -1, 3 }).shape)
    assert.are.same({ 0, 3 }, ga.reshape(E({ 0, 3 }), { newshape = { 0, 3 } }).shape)
    helper.assert_gaerror(function() x:reshape() end, "reshape: a shape is required")
    helper.assert_gaerror(function() x:reshape(2, "a") end, "reshape: each extra argument must be an integer")
    local f = E({ 0, 4 }):transpose()
    assert.are.same({ 2, 2, 0 }, ga.reshape(f, { 2, 2, 0 }, "A").shape)
  end)

  it("broadcast_arrays, broadcast, atleast_*d, ndim/shape/size without uploading", function()
    local a, b = ga.broadcast_arrays(E({ 0, 1 }), E({ 1, 0 }, "int8"))
    assert.are.same({ 0, 0 }, a.shape)
    assert.are.same({ 0, 0 }, b.shape)
    assert.are.equal("int8", b.dtype)
    local br = ga.broadcast(E({ 2, 1, 0 }), E({ 3, 0 }))
    assert.are.same({ 2, 3, 0 }, br.shape)
    assert.are.equal(3, br.ndim)
    assert.are.equal(3, br.nd)
    assert.are.equal(0, br.size)
    assert.are.equal(2, br.numiter)
    assert.are.same({ 2, 3, 0 }, br.values[2].shape)
    helper.assert_gaerror(function() ga.broadcast(E({ 2, 0 }), E({ 3, 0 })) end,
                          "broadcast: shapes {2,0}, {3,0} cannot be broadcast together")
    local p, q, r = ga.atleast_2d(E({ 0 }), E({ 0, 1, 2 }), E({ 0, 2 }))
    assert.are.same({ 1, 0 }, p.shape)
    assert.are.same({ 0, 1, 2 }, q.shape)
    assert.are.same({ 0, 2 }, r.shape)
    assert.are.same({ 1, 0, 1 }, ga.atleast_3d(E({ 0 })).shape)
    assert.are.same({ 0, 2, 1 }, ga.atleast_3d(E({ 0, 2 })).shape)
    assert.are.equal(2, ga.ndim({ { 1, 2 }, { 3, 4 } }))
    assert.are.equal(0, ga.ndim(3.5))
    assert.are.same({ 2, 3 }, ga.shape({ { 1, 2, 3 }, { 4, 5, 6 } }))
    assert.are.same({ 0, 5 }, ga.shape(E({ 0, 5 })))
    assert.are.equal(6, ga.size({ { 1, 2, 3 }, { 4, 5, 6 } }))
    assert.are.equal(3, ga.size({ { 1, 2, 3 }, { 4, 5, 6 } }, -1))
    helper.assert_gaerror(function() ga.shape({ { 1, 2 }, { 3 } }) end, "shape: the nested table is ragged")
  end)

  it("joins and splits with their new forms; casting", function()
    local a, b = E({ 0, 2 }, "float32"), E({ 0, 3 }, "int16")
    assert.are.same({ 0, 5 }, ga.concat({ a, b }, 2).shape)
    assert.are.same({ 0 }, ga.concatenate({ a, b }, false).shape)
    assert.are.equal("float32", ga.concatenate({ a, b }, 2, { dtype = "float32" }).dtype)
    helper.assert_gaerror(function() ga.concatenate({ a, b }, 2, { dtype = "int8" }) end,
                          "concatenate: array 1 of float32 cannot be cast to int8 under the rule 'same_kind'")
    assert.are.equal("int8", ga.concatenate({ a, b }, 2, { dtype = "int8", casting = "unsafe" }).dtype)
    helper.assert_gaerror(function() ga.concatenate({ a, b }, 2, { casting = "no" }) end, "under the rule 'no'")
    assert.are.same({ 0, 2 }, ga.column_stack({ E({ 0 }), E({ 0 }) }).shape)
    assert.are.same({ 0, 5 }, ga.column_stack({ E({ 0, 2 }), E({ 0, 3 }) }).shape)
    local x = E({ 0, 6, 4 })
    local function lens(parts, ax)
      local l = {}
      for i, p in ipairs(parts) do l[i] = p.shape[ax] end
      return l
    end
    assert.are.same({ 2, 2, 2 }, lens(ga.split(x, 3, { axis = 2 }), 2))
    assert.are.same({ 3, 3 }, lens(ga.hsplit(x, 2), 2))
    assert.are.same({ 1, 1, 2 }, lens(ga.dsplit(x, { 2, 3 }), 3))
    assert.are.same({ 2, 2 }, lens(ga.array_split(x, 2, { axis = -1 }), 3))
    assert.are.same({ 0 }, lens(ga.vsplit(x, 1), 1))
    assert.are.same({ 2, 1 }, lens(ga.array_split(E({ 3, 0 }, "int8"), 2), 1))
    helper.assert_gaerror(function() ga.vsplit(E({ 0 }), 1) end, "vsplit: the array must have at least 2 dimensions")
    helper.assert_gaerror(function() ga.dsplit(E({ 0, 2 }), 1) end, "dsplit: the array must have at least 3")
  end)

  it("rot90 views; delete, append, resize shapes; argument errors", function()
    local x = E({ 0, 3, 2 })
    assert.are.same({ 3, 0, 2 }, ga.rot90(x).shape)
    assert.are.same({ 0, 3, 2 }, ga.rot90(x, 2).shape)
    assert.are.same({ 0, 2, 3 }, ga.rot90(x, 1, { 2, 3 }).shape)
    assert.are.same({ 0, 2, 3 }, ga.rot90(x, -1, { 2, 3 }).shape)
    assert.are.same({ 0, 3, 2 }, ga.rot90(x, 4).shape)
    helper.assert_gaerror(function() ga.rot90(x, 1, { 1, 1 }) end, "rot90: the two axes must be different")
    helper.assert_gaerror(function() ga.rot90(x, 1, { 1, 2, 3 }) end, "rot90: axes must hold 2 axes, got 3")
    assert.are.same({ 0, 2, 2 }, ga.delete(x, 2, 2).shape)
    assert.are.same({ 0, 3, 1 }, ga.delete(x, -1, 3).shape)
    helper.assert_gaerror(function() ga.delete(x, 4, 2) end,
      "delete: position 4 is out of range for an axis of length 3")
    helper.assert_gaerror(function() ga.delete(x, 0, 2) end, "delete: position 0 is out of range")
    helper.assert_gaerror(function() ga.delete(x, { 1.5 }, 2) end, "delete: position 1 must be an integer")
    assert.are.same({ 0 }, ga.append(x, E({ 0 })).shape)
    assert.are.same({ 0, 5, 2 }, ga.append(x, E({ 0, 2, 2 }), 2).shape)
    assert.are.same({ 0, 4 }, ga.resize(x, { 0, 4 }).shape)
    helper.assert_gaerror(function() ga.resize(x, { -1 }) end, "resize: every length of new_shape must be non-negative")
    helper.assert_gaerror(function() ga.insert(x, 5, 1, 2) end,
      "insert: position 5 is out of range for an axis of length 3")
    helper.assert_gaerror(function() ga.trim_zeros(x, "x") end, 'trim_zeros: trim must be one of "fb"')
  end)

  it("copyto and require check casting and shapes first", function()
    local d = E({ 0, 3 }, "int32")
    helper.assert_gaerror(function() ga.copyto(d, E({ 0, 3 }, "float64")) end,
                          "copyto: cannot cast float64 to int32 under the rule 'same_kind'")
    helper.assert_gaerror(function() ga.copyto(d, 1.5) end, "copyto: cannot cast a number scalar to int32")
    helper.assert_gaerror(function() ga.copyto(d, E({ 0, 4 }, "int8")) end,
                          "copyto: shapes {0,4}, {0,3} cannot be broadcast together")
    ga.copyto(d, E({ 0, 3 }, "int8"))
    ga.copyto(d, E({ 0, 3 }, "float64"), "unsafe")
    helper.assert_gaerror(function() ga.require(d, nil, { "C", "F" }) end, "require: both C and F contiguous")
    helper.assert_gaerror(function() ga.require(d, nil, "Q") end, "require: requirement 1, Q, is not one of")
    assert.are.equal(d, ga.require(d, nil, { "C", "W", "aligned" }))
  end)
end)

---------------------------------------------------------------------------
-- GPU
---------------------------------------------------------------------------

local function rand(shape, lo, hi)
  return R.build(shape, function() return math.random(lo or -20, hi or 20) end)
end

local function model_of(x)
  return { shape = x.shape, data = R.values(x) }
end

describe("manipulation on the device", function()
  gpu_it("moveaxis, rollaxis, rot90 and reshape order F against references", function()
    local A = rand({ 2, 3, 4 })
    local x = R.to_gpu(A, "int32")
    local m = ga.moveaxis(x, 1, -1)
    local ref = R.build({ 3, 4, 2 }, function(mi) return R.get(A, { mi[3], mi[1], mi[2] }) end)
    assert.are.same(ref.data, R.values(m))
    local r1 = ga.rot90(x[{ 1 }])      -- {3, 4}: counter-clockwise
    local ref1 = R.build({ 4, 3 }, function(mi) return R.get(A, { 1, mi[2], 4 - mi[1] + 1 }) end)
    assert.are.same(ref1.data, R.values(r1))
    local r3 = ga.rot90(x[{ 1 }], -1)
    local ref3 = R.build({ 4, 3 }, function(mi) return R.get(A, { 1, 3 - mi[2] + 1, mi[1] }) end)
    assert.are.same(ref3.data, R.values(r3))
    -- F order: the elements read column-major and placed column-major
    local f = ga.reshape(x, { 4, 6 }, "F")
    local flatF = {}
    for k = 1, 4 do for j = 1, 3 do for i = 1, 2 do flatF[#flatF + 1] = R.get(A, { i, j, k }) end end end
    local refF = R.build({ 4, 6 }, function(mi) return flatF[(mi[2] - 1) * 4 + mi[1]] end)
    assert.are.same(refF.data, R.values(f))
    assert.are.same(flatF, ga.ravel(x, "F"):totable())
    assert.are.same(flatF, x:flatten("F"):totable())
    helper.assert_gaerror(function() ga.reshape(x:transpose(), { 24 }, { copy = false }) end, "needs a copy")
  end)

  gpu_it("expand_dims, flip and roll with tuples of axes, against references", function()
    local A = rand({ 3, 4, 2 })
    local x = R.to_gpu(A, "float64")
    local f = ga.flip(x, { axis = { 1, 3 } })
    local ref = R.build({ 3, 4, 2 }, function(mi) return R.get(A, { 4 - mi[1], mi[2], 3 - mi[3] }) end)
    assert.are.same(ref.data, R.values(f))
    local r = ga.roll(x, { 1, -2 }, { axis = { 1, 2 } })
    local refr = R.build({ 3, 4, 2 }, function(mi)
      return R.get(A, { (mi[1] - 1 - 1) % 3 + 1, (mi[2] - 1 + 2) % 4 + 1, mi[3] })
    end)
    assert.are.same(refr.data, R.values(r))
    local r2 = ga.roll(x, 1, { axis = { 1, 2 } })
    local refr2 = R.build({ 3, 4, 2 }, function(mi)
      return R.get(A, { (mi[1] - 2) % 3 + 1, (mi[2] - 2) % 4 + 1, mi[3] })
    end)
    assert.are.same(refr2.data, R.values(r2))
  end)

  gpu_it("repeat_ with counts per element (a list and an array), split with axis", function()
    local n = math.random(3, 6)
    local A = rand({ n, 2 })
    local x = R.to_gpu(A, "int16")
    local counts = {}
    for i = 1, n do counts[i] = math.random(0, 3) end
    for _, c in ipairs { counts, ga.array(counts, "int32") } do
      local r = ga.repeat_(x, c, 1)
      local want = {}
      for i = 1, n do
        for _ = 1, counts[i] do
          want[#want + 1] = R.get(A, { i, 1 })
          want[#want + 1] = R.get(A, { i, 2 })
        end
      end
      assert.are.same(want, R.values(r))
    end
    local flat = ga.repeat_(x, ga.array({ 2 }, "int64"))
    assert.are.equal(4 * n, flat.size)
    helper.assert_gaerror(function() ga.repeat_(x, ga.array({ 1, -1 }, "int32"):reshape(2), 2) end,
                          "repeat_: repeat counts must be non-negative")
    local parts = ga.split(x, { 2 }, { axis = 2 })
    assert.are.equal(2, #parts)
    assert.are.same({ n, 1 }, parts[2].shape)
  end)

  gpu_it("delete, insert (one position, a list, before the end), append, resize, trim_zeros", function()
    local A = rand({ 4, 3 })
    local x = R.to_gpu(A, "int64")
    local rows = model_of(x[{ { 1, 4 } }]).data
    -- delete rows 2 and 4 (and a repeated one)
    local d = ga.delete(x, { 2, 4, 2 }, 1)
    assert.are.same({ 2, 3 }, d.shape)
    local want = {}
    for _, i in ipairs { 1, 3 } do for j = 1, 3 do want[#want + 1] = R.get(A, { i, j }) end end
    assert.are.same(want, R.values(d))
    assert.are.same({ 3, 3 }, ga.delete(x, ga.array({ false, true, false, false }), 1).shape)
    assert.are.same(11, ga.delete(x, -1).size)
    -- insert one block, then one value per position
    local v = ga.insert(ga.array({ 1, 2, 3 }, "int32"), 2, 9)
    assert.are.same({ 1, 9, 2, 3 }, v:totable())
    assert.are.same({ 1, 2, 3, 9 }, ga.insert(ga.array({ 1, 2, 3 }), 4, 9):totable())
    assert.are.same({ 9, 1, 8, 2, 3, 7 }, ga.insert(ga.array({ 1, 2, 3 }), { 1, 2, 4 }, { 9, 8, 7 }):totable())
    assert.are.same({ 1, 8, 9, 2, 3 }, ga.insert(ga.array({ 1, 2, 3 }), { 2, 2 }, { 8, 9 }):totable())
    local c = ga.insert(x, 2, 5, 2)           -- a column of fives before column 2
    assert.are.same({ 4, 4 }, c.shape)
    for i = 1, 4 do assert.are.same({ R.get(A, { i, 1 }), 5, R.get(A, { i, 2 }), R.get(A, { i, 3 }) },
      c[{ i }]:totable()) end
    assert.are.same(rows, R.values(x))
    -- append, resize (cyclic), trim_zeros
    assert.are.same({ 1, 2, 3, 4 }, ga.append({ 1, 2 }, { { 3 }, { 4 } }):totable())
    assert.are.same({ { 1, 2, 3 }, { 1, 2, 3 } }, ga.resize({ 1, 2, 3 }, { 2, 3 }):totable())
    assert.are.same({ { 1, 2 }, { 3, 1 } }, ga.resize({ 1, 2, 3 }, { 2, 2 }):totable())
    assert.are.same({ 0, 0 }, ga.resize(ga.empty(0), { 2 }):totable())
    local t = ga.array({ 0, 0, 3, 0, 5, 0 }, "int8")
    assert.are.same({ 3, 0, 5 }, ga.trim_zeros(t):totable())
    assert.are.same({ 3, 0, 5, 0 }, ga.trim_zeros(t, "f"):totable())
    assert.are.same({ 0, 0, 3, 0, 5 }, ga.trim_zeros(t, "b"):totable())
    assert.are.same({}, ga.trim_zeros(ga.zeros(4)):totable())
    local t2 = ga.array({ { 0, 0, 0 }, { 0, 1, 0 }, { 0, 0, 2 }, { 0, 0, 0 } })
    assert.are.same({ { 1, 0 }, { 0, 2 } }, ga.trim_zeros(t2):totable())
    assert.are.same({ 2, 3 }, ga.trim_zeros(t2, "fb", { axis = 1 }).shape)
  end)

  gpu_it("copyto with where, require, asarray_chkfinite, broadcast values", function()
    local d = ga.zeros({ 2, 3 }, "float32")
    ga.copyto(d, ga.array({ 1, 2, 3 }, "int16"), { where = ga.array({ { true, false, true }, { false, true,
      false } }) })
    assert.are.same({ { 1, 0, 3 }, { 0, 2, 0 } }, d:totable())
    ga.copyto(d, 7)
    assert.are.same({ { 7, 7, 7 }, { 7, 7, 7 } }, d:totable())
    local f = ga.require(d, "float64", { "F", "O" })
    assert.is_true(f.flags.f_contiguous)
    assert.are.equal("float64", f.dtype)
    helper.assert_gaerror(function() ga.asarray_chkfinite({ 1, 0 / 0 }) end, "must not contain infinities or NaNs")
    assert.are.same({ 1, 2 }, ga.asarray_chkfinite({ 1, 2 }):totable())
    local br = ga.broadcast(ga.array({ 1, 2 }), ga.array({ { 3 }, { 4 } }))
    assert.are.same({ { 1, 2 }, { 1, 2 } }, br.values[1]:totable())
  end)
end)
