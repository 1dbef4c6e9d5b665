-- Sets: unique (axis, equal_nan, the inverse in the input's shape), the
-- Array API's unique_*, isin/in1d, intersect1d, union1d, setdiff1d,
-- setxor1d against Lua references on fresh random data (GPU); the isin
-- kernel's compile for every dtype and the declarations' errors (no GPU).
local helper = require "helper"
local ga = helper.ga
local internal = require "gpuarray.internal"
local R = require "spec.sort.sref"

-- one Lua value an element: complex elements stay {re, im} pairs
local function flat(x) return x:ravel():totable() end

local DTYPES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128" }

-- sorted distinct values of a Lua list (NumPy's order; NaNs: one, or each
-- its own with equal_nan false)
local function ref_unique(vals, equal_nan)
  local s = R.sort(vals)
  local out = {}
  for _, v in ipairs(s) do
    local isnan = (type(v) == "number" and v ~= v) or (type(v) == "table" and (v[1] ~= v[1] or v[2] ~= v[2]))
    if #out == 0 or not R.eq(out[#out], v) or (isnan and not equal_nan) then out[#out + 1] = v end
  end
  return out
end

local function member(list, v)
  -- NumPy's ==: a value with a NaN (a complex one with a NaN part too)
  -- equals nothing
  local function has_nan(x)
    if type(x) == "table" then return x[1] ~= x[1] or x[2] ~= x[2] end
    return type(x) == "number" and x ~= x
  end
  if has_nan(v) then return false end
  for _, w in ipairs(list) do
    if R.eq(w, v) then return true end
  end
  return false
end

describe("sets without a device", function()
  it("the isin kernel compiles for every dtype", function()
    for _, dt in ipairs(DTYPES) do
      internal.set_kernels():compile(dt, dt, "int64", "bool")
    end
  end)

  it("declares its functions with NumPy's keywords", function()
    helper.assert_gaerror(function() ga.unique({ 1 }, { return_inverse = 1 }) end,
      "unique: return_inverse must be a boolean")
    helper.assert_gaerror(function() ga.isin({ 1 }, { 2 }, { kind = "hash" }) end, "isin: kind must be")
    helper.assert_gaerror(function() ga.intersect1d({ 1 }, { 2 }, { return_indice = true }) end,
      "did you mean 'return_indices'")
    helper.assert_gaerror(function() ga.setdiff1d({ 1 }) end, "setdiff1d: missing argument 'ar2'")
    helper.assert_gaerror(function() ga.unique_values({ 1 }, { 2 }) end, "unique_values: too many arguments")
    assert.truthy(ga.help(ga.unique):find("1-based", 1, true))
  end)
end)

describe("sets on the GPU", function()
  helper.gpu_it("unique: values, 1-based first indices, inverse in the input's shape, counts, equal_nan", function()
    for _, dt in ipairs({ "int32", "float32", "float64", "complex128", "uint8", "bool" }) do
      local shape = { math.random(1, 5), math.random(1, 7) }
      local x = ga.array(helper.random_table(shape, R.gen(dt)), dt)
      if dt == "float64" then x[{ 1, 1 }] = 0 / 0 end
      local vals = flat(x)
      local u, first, inv, counts = ga.unique(x, true, true, true)
      local ru = ref_unique(vals, true)
      helper.assert_same(ru, flat(u), nil, dt .. " values")
      assert.equal(dt, u.dtype)
      assert.same(shape, inv.shape, dt .. " inverse shape")
      local iv, fi, ct = flat(inv), flat(first), flat(counts)
      for k, v in ipairs(vals) do
        assert.is_true(R.eq(ru[iv[k]], v), ("%s inverse at %d"):format(dt, k))
      end
      for j, v in ipairs(ru) do
        assert.is_true(R.eq(vals[fi[j]], v), dt .. " first index")
        for k = 1, fi[j] - 1 do assert.is_false(R.eq(vals[k], v)) end
        local c = 0
        for _, w in ipairs(vals) do if R.eq(w, v) then c = c + 1 end end
        assert.equal(c, ct[j], dt .. " count")
      end
      -- positional and options forms agree
      local u2, c2 = ga.unique(x, { return_counts = true })
      helper.assert_same(flat(u), flat(u2))
      helper.assert_same(ct, flat(c2))
    end
    -- equal_nan = false: every NaN its own value
    local y = ga.array({ 0 / 0, 1, 0 / 0, 1 })
    assert.equal(2, ga.unique(y).size)
    assert.equal(3, ga.unique(y, { equal_nan = false }).size)
    local u, ui = ga.unique_inverse(ga.array({ { 3, 1 }, { 1, 3 } }, "int16"))
    helper.assert_same({ 1, 3 }, flat(u))
    helper.assert_same({ { 2, 1 }, { 1, 2 } }, ui:totable())
    local v, i, iv, c = ga.unique_all(y)
    assert.equal(3, v.size)
    assert.equal(3, i.size)
    assert.same({ 4 }, iv.shape)
    helper.assert_same({ 2, 1, 1 }, flat(c))
    local cv, cc = ga.unique_counts(ga.array({ 2, 2, 5 }, "int8"))
    helper.assert_same({ 2, 5 }, flat(cv))
    helper.assert_same({ 2, 1 }, flat(cc))
    assert.equal(3, ga.unique_values(y).size)
    -- empty and 0-d
    local e, ei, einv, ec = ga.unique(ga.zeros({ 0, 3 }, "float32"), true, true, true)
    assert.same({ { 0 }, { 0 }, { 0, 3 }, { 0 } }, { e.shape, ei.shape, einv.shape, ec.shape })
    local z, zinv = ga.unique(ga.array(7), { return_inverse = true })
    helper.assert_same({ 7 }, flat(z))
    assert.same({}, zinv.shape)
  end)

  helper.gpu_it("unique along an axis: distinct rows/columns in lexicographic order", function()
    local rows = {}
    for i = 1, 12 do rows[i] = { math.random(0, 2), math.random(0, 1), math.random(0, 2) } end
    local x = ga.array(rows, "int32")
    local u, idx, inv, cnt = ga.unique(x, true, true, true, 1)
    -- reference: distinct rows sorted lexicographically
    local keys, seen = {}, {}
    for i, r in ipairs(rows) do
      local k = table.concat(r, ",")
      if not seen[k] then
        seen[k] = i
        keys[#keys + 1] = r
      end
    end
    table.sort(keys, function(a, b)
      for j = 1, 3 do if a[j] ~= b[j] then return a[j] < b[j] end end
      return false
    end)
    helper.assert_same(keys, u:totable())
    for j, r in ipairs(keys) do
      assert.equal(seen[table.concat(r, ",")], flat(idx)[j])
    end
    local iv = flat(inv)
    assert.same({ 12 }, inv.shape)
    for i, r in ipairs(rows) do helper.assert_same(r, keys[iv[i]]) end
    local total = 0
    for _, c in ipairs(flat(cnt)) do total = total + c end
    assert.equal(12, total)
    -- columns (axis 2, negative), 3-D
    local t = ga.array({ { { 1, 2 }, { 1, 2 } }, { { 0, 5 }, { 0, 5 } } }, "float32")
    local uc = ga.unique(t, { axis = -2 })
    assert.same({ 2, 1, 2 }, uc.shape)
    helper.assert_same({ { { 1, 2 } }, { { 0, 5 } } }, uc:totable())
    assert.same({ 0, 3 }, ga.unique(ga.zeros({ 0, 3 }), { axis = 1 }).shape)
    helper.assert_gaerror(function() ga.unique(t, { axis = 4 }) end, "out of range")
  end)

  helper.gpu_it("isin and in1d against a Lua membership test (dtypes mixed, NaN, invert, empty)", function()
    for _, pair in ipairs({ { "int32", "int32" }, { "int64", "int8" }, { "float32", "float64" },
                            { "uint16", "float32" }, { "complex64", "float32" }, { "bool", "int32" },
                            { "float16", "float16" } }) do
      local e = ga.array(helper.random_table({ 4, 25 }, R.gen(pair[1])), pair[1])
      local t = ga.array(helper.random_table({ 17 }, R.gen(pair[2])), pair[2])
      if pair[1] == "float32" then e[{ 1, 1 }] = 0 / 0 end
      local ev, tv = flat(e), flat(t)
      -- compare in the promoted dtype: read both back after the cast
      local dt = ga.result_type(e, t)
      ev, tv = flat(e:astype(dt)), flat(t:astype(dt))
      local got = ga.isin(e, t)
      assert.equal("bool", got.dtype)
      assert.same({ 4, 25 }, got.shape)
      local g, gi = flat(got), flat(ga.isin(e, t, { invert = true }))
      for k, v in ipairs(ev) do
        local want = member(tv, v)
        local shown = type(v) == "table" and ("{%s, %s}"):format(tostring(v[1]), tostring(v[2])) or tostring(v)
        assert.equal(want, g[k], ("%s in %s at %d (%s)"):format(pair[1], pair[2], k, shown))
        assert.equal(not want, gi[k])
      end
      local d = ga.in1d(e, t)
      assert.same({ 100 }, d.shape)
      helper.assert_same(g, flat(d))
    end
    assert.same({ 0 }, ga.isin(ga.zeros(0), ga.ones(3)).shape)
    helper.assert_same({ false, false }, flat(ga.isin(ga.ones(2), ga.zeros(0))))
    helper.assert_same({ true, true }, flat(ga.isin(ga.ones(2), ga.zeros(0), false, true)))
    -- 2^20 elements against 2^16 test values: the bench key's shape, checked by counts
    local el = ga.random.randint(0, 1 << 20, 1 << 20, "int32")
    local te = ga.arange(0, 1 << 20, 16, "int32")
    local hit = ga.isin(el, te)
    assert.equal(ga.equal(el % 16, 0):sum():item(), hit:sum():item())
  end)

  helper.gpu_it("intersect1d, union1d, setdiff1d, setxor1d against Lua sets", function()
    for _ = 1, 4 do
      local a = ga.array(helper.random_table({ 30 }, function() return math.random(0, 20) end), "int32")
      local b = ga.array(helper.random_table({ 3, 9 }, function() return math.random(10, 35) end), "int16")
      local av, bv = flat(a), flat(b)
      local ua, ub = ref_unique(av, true), ref_unique(bv, true)
      local inter, union, diff, xor = {}, ref_unique((function()
        local t = {}
        for _, v in ipairs(av) do t[#t + 1] = v end
        for _, v in ipairs(bv) do t[#t + 1] = v end
        return t
      end)(), true), {}, {}
      for _, v in ipairs(ua) do
        if member(ub, v) then inter[#inter + 1] = v else diff[#diff + 1] = v; xor[#xor + 1] = v end
      end
      for _, v in ipairs(ub) do if not member(ua, v) then xor[#xor + 1] = v end end
      table.sort(xor)
      local i, ia, ib = ga.intersect1d(a, b, false, true)
      assert.equal("int32", i.dtype)
      helper.assert_same(inter, flat(i))
      for k, v in ipairs(inter) do
        assert.equal(v, av[flat(ia)[k]])
        assert.equal(v, bv[flat(ib)[k]])
        for q = 1, flat(ia)[k] - 1 do assert.is_true(av[q] ~= v) end
        for q = 1, flat(ib)[k] - 1 do assert.is_true(bv[q] ~= v) end
      end
      helper.assert_same(union, flat(ga.union1d(a, b)))
      helper.assert_same(diff, flat(ga.setdiff1d(a, b)))
      assert.equal("int32", ga.setdiff1d(a, b).dtype)
      helper.assert_same(xor, flat(ga.setxor1d(a, b)))
    end
    -- assume_unique keeps ar1's order in setdiff1d
    helper.assert_same({ 5, 1, 9 }, flat(ga.setdiff1d(ga.array({ 5, 3, 1, 9 }), ga.array({ 3 }), true)))
    assert.same({ 0 }, ga.intersect1d(ga.zeros(0), ga.ones(2)).shape)
    helper.assert_same({ 1 }, flat(ga.union1d(ga.zeros(0, "int8"), ga.ones(2, "int8"))))
    helper.assert_same({ 0, 2 }, flat(ga.setxor1d(ga.array({ 0, 1 }), ga.array({ 1, 2 }), true)))
    local nan = ga.array({ 0 / 0, 1 })
    helper.assert_same({ 1 }, flat(ga.intersect1d(nan, nan)))
  end)
end)
