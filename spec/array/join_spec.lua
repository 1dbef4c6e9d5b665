-- Joining and splitting: concatenate, stack, hstack, vstack, dstack, split,
-- array_split, tile, repeat_, flip, roll.
-- CI (no GPU): shapes, dtypes and errors with empty arrays (no device work).
-- GPU: values against a Lua reference on random data, negative strides,
-- transposes, mixed dtypes, empty and 0-d inputs.
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it

-- A small C-order model: {shape=, data=} with data a flat list (ndref)
local R = require "ndref"
local ref_build, ref_get, ref_nested, to_gpu = R.build, R.get, R.nested, R.to_gpu

local function copy_list(t)
  local o = {}
  for i, v in ipairs(t) do o[i] = v end
  return o
end

-- values exactly representable in every dtype used
local function gen(dtype)
  if dtype == "bool" then return function() return math.random() < 0.5 end end
  if dtype:find("complex") then return function() return { math.random(-50, 50), math.random(-50, 50) } end end
  if dtype:find("int") then return function() return math.random(0, 100) end end
  return function() return math.random(-400, 400) * 0.25 end
end

local function ref_random(shape, dtype)
  local g = gen(dtype)
  return ref_build(shape, function() return g() end)
end

-- as values of another dtype (for the mixed-dtype joins: ints/bools -> floats)
local function convert(v, dtype)
  if type(v) == "boolean" and dtype ~= "bool" then v = v and 1 or 0 end
  if dtype:find("complex") and type(v) ~= "table" then return { v, 0 } end
  return v
end

local function check(expected, got, dtype)
  assert.are.equal(dtype, got.dtype)
  assert.are.same(expected.shape, got.shape)
  local want = ref_build(expected.shape, function(mi) return convert(ref_get(expected, mi), dtype) end)
  if #expected.shape == 0 then
    helper.assert_same(want.data[1], got:item())
  else
    helper.assert_same(ref_nested(want), got:totable())
  end
end

-- The reference of a view: flip/transposes of a model
local function ref_flip(A, axes)
  return ref_build(A.shape, function(mi)
    local src = copy_list(mi)
    for _, d in ipairs(axes) do src[d] = A.shape[d] + 1 - mi[d] end
    return ref_get(A, src)
  end)
end

local function ref_transpose(A)
  local shape = {}
  for d = 1, #A.shape do shape[d] = A.shape[#A.shape + 1 - d] end
  return ref_build(shape, function(mi)
    local src = {}
    for d = 1, #mi do src[d] = mi[#mi + 1 - d] end
    return ref_get(A, src)
  end)
end

local function ref_concat(list, ax)
  local shape = copy_list(list[1].shape)
  shape[ax] = 0
  for _, A in ipairs(list) do shape[ax] = shape[ax] + A.shape[ax] end
  return ref_build(shape, function(mi)
    local k = mi[ax]
    for _, A in ipairs(list) do
      if k <= A.shape[ax] then
        local src = copy_list(mi)
        src[ax] = k
        return ref_get(A, src)
      end
      k = k - A.shape[ax]
    end
  end)
end

local function ref_slice(A, ax, first, last)
  local shape = copy_list(A.shape)
  shape[ax] = math.max(0, last - first + 1)
  return ref_build(shape, function(mi)
    local src = copy_list(mi)
    src[ax] = mi[ax] + first - 1
    return ref_get(A, src)
  end)
end

---------------------------------------------------------------------------
-- CI
---------------------------------------------------------------------------

describe("joining and splitting without a device", function()
  local E = function(shape, dtype) return ga.empty(shape, dtype or "float32") end

  it("concatenate: result shape and dtype, negative axis, options", function()
    local c = ga.concatenate({ E({ 0, 3 }), E({ 0, 4 }, "int32"), E({ 0, 0 }, "int8") }, 2)
    assert.are.same({ 0, 7 }, c.shape)
    assert.are.equal("float64", c.dtype)       -- float32 + int32 -> float64, as NumPy
    assert.are.same({ 0, 7 }, ga.concatenate({ E({ 0, 3 }), E({ 0, 4 }) }, -1).shape)
    assert.are.same({ 0, 2 }, ga.concatenate({ E({ 0, 2 }), E({ 0, 2 }) }).shape)
    assert.are.equal("float16", ga.concatenate({ E({ 0, 2 }), E({ 0, 2 }) }, { dtype = "float16" }).dtype)
    local out = E({ 0, 5 }, "int64")
    assert.are.equal(out, ga.concatenate({ E({ 0, 2 }), E({ 0, 3 }) }, { axis = 2, out = out, casting = "unsafe" }))
    -- NumPy's default casting rule, same_kind, refuses float32 into int64
    helper.assert_gaerror(function() ga.concatenate({ E({ 0, 2 }), E({ 0, 3 }) }, { axis = 2, out = out }) end,
                          "concatenate: array 1 of float32 cannot be cast to int64 under the rule 'same_kind'")
    assert.are.equal("bool", ga.concatenate({ E({ 0 }, "bool"), E({ 0 }, "bool") }).dtype)
  end)

  it("concatenate: errors name the shapes", function()
    helper.assert_gaerror(function() ga.concatenate({ E({ 0, 3 }), E({ 0, 4 }) }) end,
                          "concatenate: array 2 has shape {0,4}, array 1 has {0,3}: they must agree except along")
    helper.assert_gaerror(function() ga.concatenate({ E({ 0, 3 }), E({ 0, 3, 1 }) }, 2) end,
                          "array 2 has shape {0,3,1}")
    helper.assert_gaerror(function() ga.concatenate({ E({ 0, 3 }) }, 3) end,
                          "concatenate: axis 3 is out of range for an array of 2 dimensions")
    helper.assert_gaerror(function() ga.concatenate({}) end, "concatenate: expected a non-empty list")
    helper.assert_gaerror(function() ga.concatenate(E({ 0 })) end,
      "concatenate: arrays must be a list, got gpuarray.ndarray")
    helper.assert_gaerror(function() ga.concatenate({ E({ 0, 2 }), E({ 0, 3 }) }, { axis = 2, out = E({ 0, 4 }) }) end,
                          "concatenate: out has shape {0,4}, the result has shape {0,5}")
    helper.assert_gaerror(function() ga.concatenate({ E({ 0 }) }, 1.5) end, "axis must be an integer")
  end)

  it("stack, hstack, vstack, dstack shapes", function()
    local a, b = E({ 0, 3 }), E({ 0, 3 }, "int16")
    assert.are.same({ 2, 0, 3 }, ga.stack({ a, b }).shape)
    assert.are.same({ 0, 2, 3 }, ga.stack({ a, b }, 2).shape)
    assert.are.same({ 0, 3, 2 }, ga.stack({ a, b }, -1).shape)
    assert.are.same({ 0, 3, 3 }, ga.stack({ a, b, a }, { axis = 3 }).shape)
    assert.are.equal("float32", ga.stack({ a, b }).dtype)
    helper.assert_gaerror(function() ga.stack({ a, E({ 0, 4 }) }) end,
                          "stack: all arrays must have the same shape; array 1 has {0,3}, array 2 has {0,4}")
    helper.assert_gaerror(function() ga.stack({ a, b }, 4) end, "stack: axis 4 is out of range")
    assert.are.same({ 0 }, ga.hstack({ E({ 0 }), E({ 0 }) }).shape)
    assert.are.same({ 0, 6 }, ga.hstack({ a, b }).shape)
    assert.are.same({ 2, 0 }, ga.vstack({ E({ 0 }), E({ 0 }) }).shape)
    assert.are.same({ 0, 3 }, ga.vstack({ a, b }).shape)
    assert.are.same({ 1, 0, 2 }, ga.dstack({ E({ 0 }), E({ 0 }) }).shape)
    assert.are.same({ 0, 3, 2 }, ga.dstack({ a, b }).shape)
  end)

  it("split: sections and 1-based split points", function()
    local x = E({ 6, 0 })
    local function lens(parts)
      local l = {}
      for i, p in ipairs(parts) do l[i] = p.shape[1] end
      return l
    end
    assert.are.same({ 2, 2, 2 }, lens(ga.split(x, 3)))
    assert.are.same({ 2, 2, 2 }, lens(ga.split(x, { 3, 5 })))       -- x[1..2], x[3..4], x[5..6]
    assert.are.same({ 0, 6 }, lens(ga.split(x, { 1 })))
    assert.are.same({ 6, 0 }, lens(ga.split(x, { 7 })))
    assert.are.same({ 5, 1 }, lens(ga.split(x, { -1 })))            -- the last element starts a part
    assert.are.same({ 4, 0, 5 }, lens(ga.split(x, { 5, 2 })))       -- decreasing: x[1..4], {}, x[2..6]
    assert.are.same({ 6, 0, 0 }, lens(ga.split(x, { 10, 20 })))
    assert.are.same({ 0, 6 }, lens(ga.split(x, { -10 })))
    assert.are.same({ 3, 2, 2 }, lens(ga.array_split(E({ 7, 0 }), 3)))
    assert.are.same({ 1, 1, 1, 0 }, lens(ga.array_split(E({ 3, 0 }), 4)))
    local parts = ga.split(E({ 0, 6 }), 2, 2)
    assert.are.same({ 0, 3 }, parts[2].shape)
    assert.are.same({ 0, 3 }, ga.split(E({ 0, 6 }), 2, -1)[1].shape)
    helper.assert_gaerror(function() ga.split(E({ 7, 0 }), 3) end,
                          "split: axis 1 of length 7 does not split into 3 equal sections")
    helper.assert_gaerror(function() ga.split(x, 0) end, "split: the number of sections must be positive")
    helper.assert_gaerror(function() ga.split(x, { 2, 0 }) end, "split: split point 2 must be a non-zero integer")
    helper.assert_gaerror(function() ga.split(x, "a") end,
                          "split: indices_or_sections must be an integer or a list or an ndarray, got \"a\"")
    helper.assert_gaerror(function() ga.split(x, 2, 3) end, "split: axis 3 is out of range")
  end)

  it("tile, repeat_ shapes and errors", function()
    assert.are.same({ 0, 6 }, ga.tile(E({ 0, 2 }), { 2, 3 }).shape)
    assert.are.same({ 2, 0 }, ga.tile(E({ 2, 0 }), 3).shape)
    assert.are.same({ 2, 0, 2 }, ga.tile(E({ 0, 2 }), { 2, 1, 1 }).shape)
    assert.are.same({ 0, 0 }, ga.tile(E({ 0, 2 }), { 3, 0 }).shape)
    assert.are.equal("int8", ga.tile(E({ 0 }, "int8"), 2).dtype)
    helper.assert_gaerror(function() ga.tile(E({ 0 }), -1) end, "tile: each repetition count must be a non-negative")
    helper.assert_gaerror(function() ga.tile(E({ 0 }), "x") end, "tile: reps must be")
    assert.are.same({ 0, 6 }, ga.repeat_(E({ 0, 2 }), 3, 2).shape)
    assert.are.same({ 0 }, ga.repeat_(E({ 0, 2 }), 3).shape)
    assert.are.same({ 0, 2 }, ga.repeat_(E({ 0, 2 }), {}, 1).shape)
    assert.are.same({ 0, 0 }, ga.repeat_(E({ 0, 2 }), { 0, 0 }, 2).shape)
    helper.assert_gaerror(function() ga.repeat_(E({ 0, 2 }), { 1, 2, 3 }, 2) end,
                          "repeat_: 3 repeat counts given for an axis of length 2")
    helper.assert_gaerror(function() ga.repeat_(E({ 0, 2 }), -2, 2) end, "repeat_: repeats must be a non-negative")
    helper.assert_gaerror(function() ga.repeat_(E({ 0, 2 }), 2, 3) end, "repeat_: axis 3 is out of range")
  end)

  it("flip is a view with negative strides; roll keeps the shape", function()
    local x = E({ 0, 2, 3 }, "float64")
    local f = ga.flip(x, -1)
    assert.are.same({ 0, 2, 3 }, f.shape)
    assert.are.same({ 48, 24, -8 }, f.strides)
    assert.are.equal(x, f.base)
    assert.are.same({ -48, -24, -8 }, ga.flip(x).strides)
    assert.are.same({ 48, -24, -8 }, ga.flip(x, { 2, 3 }).strides)
    assert.are.same({ 48, 24, 8 }, ga.flip(ga.flip(x, 2), 2).strides)
    assert.are.same({ 48, -24, 8 }, ga.fliplr(x).strides)
    assert.are.same({ -48, 24, 8 }, ga.flipud(x).strides)
    helper.assert_gaerror(function() ga.flip(x, { 1, -3 }) end, "flip: axis -3 is repeated")
    helper.assert_gaerror(function() ga.flip(x, 4) end, "flip: axis 4 is out of range")
    helper.assert_gaerror(function() ga.fliplr(E({ 0 })) end, "fliplr: the array must have at least 2")
    assert.are.same({ 0, 2, 3 }, ga.roll(x, 1).shape)
    assert.are.same({ 0, 2, 3 }, ga.roll(x, { 1, 2 }, { 2, 3 }).shape)
    helper.assert_gaerror(function() ga.roll(x, { 1, 2, 3 }, { 1, 2 }) end, "roll: 3 shifts and 2 axes")
    helper.assert_gaerror(function() ga.roll(x, 1.5) end, "roll: shift must be an integer or a list, got 1.5")
    helper.assert_gaerror(function() ga.roll(x, 1, 5) end, "roll: axis 5 is out of range")
  end)
end)

---------------------------------------------------------------------------
-- GPU
---------------------------------------------------------------------------

describe("joining and splitting on the GPU", function()
  gpu_it("concatenate along every axis, mixed dtypes, flipped and transposed inputs", function()
    for ax = 1, 3 do
      local shapes = { { 2, 3, 4 }, { 2, 3, 4 }, { 2, 3, 4 } }
      shapes[2][ax] = 1
      shapes[3][ax] = 0
      local A = ref_random({ 2, 3, 4 }, "float32")
      local B = ref_random(shapes[2], "int16")
      local C = ref_random(shapes[3], "float32")
      local D = ref_random({ 4, 3, 2 }, "float32")    -- passed transposed
      local a, b, c = to_gpu(A, "float32"), to_gpu(B, "int16"), to_gpu(C, "float32")
      local fa = ga.flip(a, ax)                        -- negative strides along the axis
      local dT = to_gpu(D, "float32").T
      local got = ga.concatenate({ fa, b, c, dT }, ax)
      check(ref_concat({ ref_flip(A, { ax }), B, C, ref_transpose(D) }, ax), got, "float32")
      -- float32 and int16 -> float32; with int32 -> float64
      local got64 = ga.concatenate({ a, to_gpu(B, "int32") }, ax - 4)
      check(ref_concat({ A, B }, ax), got64, "float64")
    end
    -- bool and complex
    local P = ref_random({ 5 }, "bool")
    local Q = ref_random({ 3 }, "complex64")
    check(ref_concat({ P, Q }, 1), ga.concatenate({ to_gpu(P, "bool"), to_gpu(Q, "complex64") }), "complex64")
    check(ref_concat({ P, P }, 1), ga.concatenate({ to_gpu(P, "bool"), to_gpu(P, "bool") }), "bool")
    -- out: a transposed view
    local out = ga.zeros({ 4, 5 }, "float64")
    local X, Y = ref_random({ 2, 4 }, "float64"), ref_random({ 3, 4 }, "float64")
    ga.concatenate({ to_gpu(X, "float64"), to_gpu(Y, "float64") }, { out = out.T })
    check(ref_transpose(ref_concat({ X, Y }, 1)), out, "float64")
  end)

  gpu_it("stack, hstack, vstack, dstack", function()
    local A, B = ref_random({ 3, 4 }, "int32"), ref_random({ 3, 4 }, "int32")
    local a, b = to_gpu(A, "int32"), to_gpu(B, "int32")
    for ax = 1, 3 do
      local got = ga.stack({ a, b }, ax)
      local shape = { 3, 4 }
      table.insert(shape, ax, 2)
      check(ref_build(shape, function(mi)
        local src = copy_list(mi)
        local which = table.remove(src, ax)
        return ref_get(which == 1 and A or B, src)
      end), got, "int32")
    end
    -- 0-d inputs stack to 1-D
    check({ shape = { 3 }, data = { 1.5, 2, -3 } },
          ga.stack({ ga.array(1.5), ga.array(2, "int8"), ga.array(-3, "float32") }), "float64")
    check(ref_concat({ A, B }, 2), ga.hstack({ a, b }), "int32")
    check(ref_concat({ A, B }, 1), ga.vstack({ a, b }), "int32")
    local V = ref_random({ 4 }, "float64")
    local v = to_gpu(V, "float64")
    check(ref_concat({ V, V }, 1), ga.hstack({ v, v }), "float64")
    check(ref_build({ 2, 4 }, function(mi) return V.data[mi[2]] end), ga.vstack({ v, v }), "float64")
    check(ref_build({ 3, 4, 2 }, function(mi) return ref_get(mi[3] == 1 and A or B, { mi[1], mi[2] }) end),
          ga.dstack({ a, b }), "int32")
  end)

  gpu_it("split and array_split return views of the right pieces", function()
    local X = ref_random({ 7, 6 }, "float64")
    local x = to_gpu(X, "float64")
    local parts = ga.split(x, { 3, 5 })
    assert.are.equal(3, #parts)
    check(ref_slice(X, 1, 1, 2), parts[1], "float64")
    check(ref_slice(X, 1, 3, 4), parts[2], "float64")
    check(ref_slice(X, 1, 5, 7), parts[3], "float64")
    parts = ga.split(x, 3, 2)
    for i = 1, 3 do check(ref_slice(X, 2, 2 * i - 1, 2 * i), parts[i], "float64") end
    parts = ga.array_split(x, 3)
    check(ref_slice(X, 1, 1, 3), parts[1], "float64")
    check(ref_slice(X, 1, 6, 7), parts[3], "float64")
    parts = ga.split(x, { -2 }, -1)
    check(ref_slice(X, 2, 1, 4), parts[1], "float64")
    check(ref_slice(X, 2, 5, 6), parts[2], "float64")
    -- the parts are views: writing one writes x
    ga.split(x, 7)[2]:fill(-1)
    check(ref_build({ 7, 6 }, function(mi) return mi[1] == 2 and -1 or ref_get(X, mi) end), x, "float64")
    -- splitting a flipped view
    local f = ga.flip(to_gpu(X, "float64"), 1)
    check(ref_slice(ref_flip(X, { 1 }), 1, 3, 7), ga.split(f, { 3 })[2], "float64")
  end)

  gpu_it("tile against NumPy's rules", function()
    local X = ref_random({ 2, 3 }, "int64")
    local x = to_gpu(X, "int64")
    local function ref_tile(A, reps)
      local n = math.max(#reps, #A.shape)
      local s, r = {}, {}
      for d = 1, n do
        s[d] = A.shape[d - (n - #A.shape)] or 1
        r[d] = reps[d - (n - #reps)] or 1
      end
      local shape = {}
      for d = 1, n do shape[d] = s[d] * r[d] end
      return ref_build(shape, function(mi)
        local src = {}
        for d = n - #A.shape + 1, n do src[#src + 1] = (mi[d] - 1) % s[d] + 1 end
        return ref_get(A, src)
      end)
    end
    for _, reps in ipairs({ { 2 }, { 2, 3 }, { 3, 1, 2 }, { 1, 1 }, { 0, 2 } }) do
      check(ref_tile(X, reps), ga.tile(x, reps), "int64")
    end
    check(ref_tile(X, { 2 }), ga.tile(x, 2), "int64")
    -- a transposed input and a 0-d input
    check(ref_tile(ref_transpose(X), { 2, 2 }), ga.tile(x.T, { 2, 2 }), "int64")
    check({ shape = { 3 }, data = { 7, 7, 7 } }, ga.tile(ga.array(7, "int16"), 3), "int16")
  end)

  gpu_it("repeat_ with a count, with per-element counts, flattened", function()
    local X = ref_random({ 3, 4 }, "float32")
    local x = to_gpu(X, "float32")
    for ax = 1, 2 do
      local shape = copy_list(X.shape)
      shape[ax] = shape[ax] * 3
      check(ref_build(shape, function(mi)
        local src = copy_list(mi)
        src[ax] = (mi[ax] - 1) // 3 + 1
        return ref_get(X, src)
      end), ga.repeat_(x, 3, ax), "float32")
    end
    -- per-element counts (through take), counts as an ndarray, on a flipped input
    local counts = { 2, 0, 1 }
    local rows = { 1, 1, 3 }
    check(ref_build({ 3, 4 }, function(mi) return ref_get(X, { rows[mi[1]], mi[2] }) end),
          ga.repeat_(x, counts, 1), "float32")
    check(ref_build({ 3, 4 }, function(mi) return ref_get(X, { rows[mi[1]], mi[2] }) end),
          ga.repeat_(x, ga.array(counts, "int32"), 1), "float32")
    local F = ref_flip(X, { 2 })
    check(ref_build({ 3, 5 }, function(mi) return ref_get(F, { mi[1], ({ 1, 2, 2, 2, 4 })[mi[2]] }) end),
          ga.repeat_(ga.flip(x, 2), { 1, 3, 0, 1 }, -1), "float32")
    -- no axis: flattened
    check(ref_build({ 24 }, function(mi) return X.data[(mi[1] - 1) // 2 + 1] end), ga.repeat_(x, 2), "float32")
    check({ shape = { 2 }, data = { 5, 5 } }, ga.repeat_(ga.array(5, "int8"), 2), "int8")
    check({ shape = { 0 }, data = {} }, ga.repeat_(x, 0), "float32")
  end)

  gpu_it("flip values along each axis, all axes, twice; 0-d", function()
    local X = ref_random({ 3, 4, 5 }, "complex64")
    local x = to_gpu(X, "complex64")
    for _, axes in ipairs({ { 1 }, { 2 }, { 3 }, { 1, 3 }, { 1, 2, 3 } }) do
      check(ref_flip(X, axes), ga.flip(x, axes), "complex64")
    end
    check(ref_flip(X, { 1, 2, 3 }), ga.flip(x), "complex64")
    check(X, ga.flip(ga.flip(x, 2), 2), "complex64")
    check(ref_flip(ref_transpose(X), { 2 }), ga.flip(x.T, -2), "complex64")
    local z = ga.array(4.5)
    check({ shape = {}, data = { 4.5 } }, ga.flip(z), "float64")
  end)

  gpu_it("roll: shifts of any sign and size, several axes, flattened, non-contiguous", function()
    local X = ref_random({ 4, 5 }, "float64")
    local x = to_gpu(X, "float64")
    local function ref_roll(A, by)
      return ref_build(A.shape, function(mi)
        local src = copy_list(mi)
        for d, s in pairs(by) do src[d] = (mi[d] - 1 - s) % A.shape[d] + 1 end
        return ref_get(A, src)
      end)
    end
    for _, s in ipairs({ 1, -1, 3, 5, 13, -22, 0 }) do
      check(ref_roll(X, { [2] = s }), ga.roll(x, s, 2), "float64")
      check(ref_roll(X, { [1] = s }), ga.roll(x, s, -2), "float64")
    end
    check(ref_roll(X, { 2, -3 }), ga.roll(x, { 2, -3 }, { 1, 2 }), "float64")
    check(ref_roll(X, { [2] = 3 }), ga.roll(x, { 1, 2 }, 2), "float64")          -- shifts on one axis add up
    check(ref_roll(X, { 1, 1 }), ga.roll(x, 1, { 1, 2 }), "float64")
    -- flattened: rolls the C-order sequence, keeps the shape
    local flat = ref_roll({ shape = { 20 }, data = X.data }, { 7 })
    check({ shape = { 4, 5 }, data = flat.data }, ga.roll(x, 7), "float64")
    -- a transposed and flipped input
    local T = ref_flip(ref_transpose(X), { 1 })
    check(ref_roll(T, { -2, 1 }), ga.roll(ga.flip(x.T, 1), { -2, 1 }, { 1, 2 }), "float64")
    check({ shape = {}, data = { 3 } }, ga.roll(ga.array(3, "int32"), 5), "int32")
    check({ shape = { 0, 5 }, data = {} }, ga.roll(ga.empty({ 0, 5 }), 2, 2), "float64")
  end)
end)
