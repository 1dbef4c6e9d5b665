-- Boolean masks (x[mask], x[mask] = v), ga.nonzero, ga.argwhere and the
-- one-argument ga.where against a Lua reference: several dtypes, sizes
-- around the 4096-element tiles, non-contiguous arrays and masks. GPU only.
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it

local R = require "ndref"
local KIND, rand_list, nest, values, size_of = R.KIND, R.rand_list, R.nest, R.values, R.size

-- A random bool list with a given density
local function rand_mask(n, p)
  local t = {}
  for i = 1, n do t[i] = math.random() < p end
  return t
end

local function selected(vals, mask)
  local out = {}
  for i, m in ipairs(mask) do if m then out[#out + 1] = vals[i] end end
  return out
end

local function nonzero(v)
  if type(v) == "table" then return v[1] ~= 0 or v[2] ~= 0 end
  if type(v) == "boolean" then return v end
  return v ~= 0
end

-- 1-based coordinates of the nonzero entries of flat data of a shape
local function coords_of(vals, shape)
  local out = {}
  for i, v in ipairs(vals) do
    if nonzero(v) then
      local c, j = {}, i - 1
      for d = #shape, 1, -1 do
        c[d] = j % shape[d] + 1
        j = j // shape[d]
      end
      out[#out + 1] = c
    end
  end
  return out
end

local function noncontig(flat_base, dt)
  local base = ga.array(nest(flat_base, { 5, 3, 14 }), dt)
  return base[{ { 2, 5 }, {}, { 1, -1, 2 } }]:transpose(3, 1, 2)    -- {7, 4, 3}
end

describe("masks #gpu", function()
  gpu_it("x[mask] selects in C order, every size around the tiles", function()
    for _, n in ipairs { 1, 15, 16, 17, 4095, 4096, 4097, 100003, (1 << 20) + 3 } do
      for _, p in ipairs { 0.5, 0.02 } do
        local vals = rand_list(n, "float32")
        local m = rand_mask(n, p)
        local x = ga.array(vals, "float32")
        local got = x[ga.array(m, "bool")]
        assert.equal(1, got.ndim)
        assert.equal("float32", got.dtype)
        helper.assert_same(selected(vals, m), values(got))
      end
    end
  end)

  gpu_it("x[mask] on views that start off the vector alignment", function()
    -- contiguous views at an offset: the mask and the values are read one
    -- element at a time instead of 4 or 16 bytes at once
    for _, dt in ipairs { "float32", "int8", "float64", "complex128" } do
      local n = 9000
      local vals = rand_list(n, dt)
      local mvals = rand_mask(n, 0.5)
      local x = ga.array(vals, dt)
      local m = ga.array(mvals, "bool")
      for _, off in ipairs { { 2, 1 }, { 1, 2 }, { 3, 3 } } do
        local xo, mo = off[1], off[2]
        local len = n - 3
        local xv = x[{ { xo, xo + len - 1 } }]
        local mv = m[{ { mo, mo + len - 1 } }]
        local want, sel = {}, {}
        for i = 1, len do
          want[i] = vals[xo + i - 1]
          sel[i] = mvals[mo + i - 1]
        end
        local got = xv[mv]
        assert.equal(dt, got.dtype)
        helper.assert_same(selected(want, sel), values(got))
      end
    end
  end)

  gpu_it("x[mask] for every dtype family, non-contiguous arrays and masks", function()
    for _, dt in ipairs { "bool", "int8", "int64", "uint16", "float16", "float64", "complex64", "complex128" } do
      local x = noncontig(rand_list(5 * 3 * 14, dt), dt)
      local xv = values(x)
      local mbase = ga.array(nest(rand_mask(5 * 3 * 14, 0.4), { 5, 3, 14 }), "bool")
      local m = mbase[{ { 2, 5 }, {}, { 1, -1, 2 } }]:transpose(3, 1, 2)
      local got = x[m]
      assert.equal(dt, got.dtype)
      helper.assert_same(selected(xv, values(m)), values(got))
    end
  end)

  gpu_it("x[mask] with mask = x > 0.5, the empty and the all-true masks", function()
    local vals = rand_list(70000, "float32")
    local x = ga.array(vals, "float32")
    local m = {}
    for i, v in ipairs(vals) do m[i] = v > 0.5 end
    local mask = ga.greater and ga.greater(x, 0.5) or ga.array(m, "bool")
    helper.assert_same(selected(vals, m), values(x[mask]))
    assert.same({ 0 }, x[ga.zeros(70000, "bool")].shape)
    helper.assert_same(vals, values(x[ga.ones(70000, "bool")]))
    assert.same({ 0 }, ga.zeros(0, "int32")[ga.zeros(0, "bool")].shape)
  end)

  gpu_it("x[mask] = scalar, one-element array, array of the count, table", function()
    for _, dt in ipairs { "float32", "int16", "complex64" } do
      local shape = { 6, 700 }
      local vals = rand_list(size_of(shape), dt)
      local m = rand_mask(#vals, 0.3)
      local count = #selected(vals, m)
      local mask = ga.array(nest(m, shape), "bool")
      -- a scalar
      local x = ga.array(nest(vals, shape), dt)
      local s = KIND[dt] == "c" and { 2, -1 } or 7
      x[mask] = s
      local exp = {}
      for i, v in ipairs(vals) do exp[i] = m[i] and s or v end
      helper.assert_same(exp, values(x))
      -- a one-element array (read on the device)
      x = ga.array(nest(vals, shape), dt)
      x[mask] = ga.array({ KIND[dt] == "c" and { 3, 3 } or 3 }, dt)
      for i, v in ipairs(vals) do exp[i] = m[i] and (KIND[dt] == "c" and { 3, 3 } or 3) or v end
      helper.assert_same(exp, values(x))
      -- one value per selected element, in C order
      local nv = rand_list(count, dt)
      x = ga.array(nest(vals, shape), dt)
      x[mask] = ga.array(nv, dt)
      local k = 0
      for i, v in ipairs(vals) do
        if m[i] then
          k = k + 1
          exp[i] = nv[k]
        else
          exp[i] = v
        end
      end
      helper.assert_same(exp, values(x))
      -- the same from a Lua table
      x = ga.array(nest(vals, shape), dt)
      x[mask] = nv
      helper.assert_same(exp, values(x))
    end
  end)

  gpu_it("x[mask] = v writes through non-contiguous views", function()
    local base = ga.zeros({ 8, 10 }, "float64")
    local view = base[{ {}, { 1, -1, 2 } }].T               -- {5, 8}, strided
    local m = rand_mask(40, 0.5)
    local mask = ga.array(nest(m, { 5, 8 }), "bool")
    local count = 0
    for _, b in ipairs(m) do if b then count = count + 1 end end
    local nv = rand_list(count, "float64")
    view[mask] = ga.array(nv, "float64")
    local exp, k = {}, 0
    for i = 1, 40 do
      if m[i] then
        k = k + 1
        exp[i] = nv[k]
      else
        exp[i] = 0
      end
    end
    helper.assert_same(exp, values(view))
    local bv = values(base)
    for r = 1, 8 do
      for c = 2, 10, 2 do assert.equal(0, bv[(r - 1) * 10 + c]) end
    end
  end)

  gpu_it("mask errors leave x unchanged", function()
    local x = ga.array({ 1, 2, 3, 4 }, "float32")
    helper.assert_gaerror(function() return x[ga.array({ true, false }, "bool")] end,
                          "boolean mask of shape {2} does not match the array's shape {4}")
    helper.assert_gaerror(function() x[ga.array({ true, false, true, false }, "bool")] = ga.array({ 1, 2, 3 }) end,
                          "cannot assign 3 values to the 2 elements the mask selects")
    helper.assert_gaerror(function() x[ga.array({ true, true, true, true }, "bool")] = "a" end, "index")
    assert.same({ 1, 2, 3, 4 }, x:totable())
  end)
end)

describe("nonzero, argwhere, where #gpu", function()
  gpu_it("nonzero gives one 1-based int64 array per axis", function()
    for _, case in ipairs {
      { dt = "int32", shape = { 9000 } },
      { dt = "float32", shape = { 37, 41 } },
      { dt = "bool", shape = { 4, 5, 6 } },
      { dt = "complex64", shape = { 3, 70 } },
    } do
      local vals = rand_list(size_of(case.shape), case.dt)
      for i = 1, #vals, 3 do vals[i] = KIND[case.dt] == "c" and { 0, 0 } or (case.dt == "bool" and false or 0) end
      local x = ga.array(nest(vals, case.shape), case.dt)
      local idx = { ga.nonzero(x) }
      assert.equal(#case.shape, #idx)
      local exp = coords_of(vals, case.shape)
      for d = 1, #case.shape do
        assert.equal("int64", idx[d].dtype)
        local col = {}
        for i, c in ipairs(exp) do col[i] = c[d] end
        assert.same(col, idx[d]:totable())
      end
      local w = { ga.where(x) }
      for d = 1, #case.shape do assert.equal(idx[d]:tobytes(), w[d]:tobytes()) end
      local aw = ga.argwhere(x)
      assert.same({ #exp, #case.shape }, aw.shape)
      if #exp > 0 then assert.same(exp, aw:totable()) end
    end
  end)

  gpu_it("nonzero and argwhere on non-contiguous, empty and 0-d arrays", function()
    local base = rand_list(5 * 3 * 14, "int8")
    for i = 1, #base, 2 do base[i] = 0 end
    local x = noncontig(base, "int8")
    local exp = coords_of(values(x), x.shape)
    local i1, i2, i3 = ga.nonzero(x)
    for k, c in ipairs(exp) do
      assert.same(c, { i1:totable()[k], i2:totable()[k], i3:totable()[k] })
    end
    assert.same(exp, ga.argwhere(x):totable())
    local none = { ga.nonzero(ga.zeros({ 3, 4 }, "float32")) }
    assert.equal(2, #none)
    assert.same({ 0 }, none[1].shape)
    assert.same({ 0, 2 }, ga.argwhere(ga.zeros({ 3, 4 }, "float32")).shape)
    helper.assert_gaerror(function() ga.nonzero(ga.full({}, 5, "int32")) end, "nonzero: not defined for 0-d arrays")
    assert.same({ 1, 0 }, ga.argwhere(ga.full({}, 5, "int32")).shape)
    assert.same({ 0, 0 }, ga.argwhere(ga.full({}, 0, "int32")).shape)
  end)
end)
