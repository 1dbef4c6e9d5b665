-- ga.sort, argsort, lexsort, partition, searchsorted, unique: the kernels
-- compile for every dtype (no GPU needed), then values against Lua
-- references on the GPU (every dtype, shapes and axes, special values,
-- sizes 0, 1, 2^k +- 1 and 2^24).
local internal = require("gpuarray.internal")
local helper = require "helper"
local R = require "spec.sort.sref"
local ga = helper.ga
local core = ga._core

local flat = R.flat

describe("sort kernels", function()
  it("compile for every dtype and pass variant", function()
    for _, dt in ipairs(R.DTYPES) do
      if dt ~= "complex128" then
        core._test.compile(core._test.sort_source("hist", dt), {}, 90)
        for _, v in ipairs({ { true, 0, true, true }, { true, 1, false, false }, { false, 2, true, false },
                             { false, 3, true, false }, { true, 1, true, false } }) do
          assert.is_true(core._test.compile(core._test.sort_source("pass", dt, table.unpack(v)), {}, 90) > 0, dt)
        end
      end
      for _, right in ipairs({ false, true }) do
        assert.is_true(core._test.compile(core._test.sort_source("search", dt, right), {}, 90) > 0, dt)
      end
      assert.is_true(core._test.compile(core._test.sort_source("flags", dt), {}, 90) > 0, dt)
    end
    assert.is_true(core._test.compile(core._test.sort_source("scan", "uint8"), {}, 90) > 0)
  end)

  -- one NVRTC compile of every CUB-path kernel (sort_cub.c): the variants
  -- one-row sorts use (values z=false without positions, argsort and perm
  -- z=true with them)
  it("CUB onesweep kernels compile for every dtype", function()
    local list = { { "scan", "uint8" }, { "iota", "uint8" }, { "index", "uint8" } }
    for _, dt in ipairs(R.DTYPES) do
      if dt ~= "complex128" then
        for _, v in ipairs({ { "hist", dt, false }, { "hist", dt, true }, { "pass", dt, false, false },
                             { "pass", dt, true, true } }) do
          list[#list + 1] = v
        end
      end
    end
    local src, opts = core._test.sort_cub_source(list)
    assert.is_string(src, "the toolkit's CCCL headers were not found")
    assert.is_true(core._test.compile(src, opts, 90) > 0)
    helper.assert_gaerror(function() core._test.sort_cub_source({ { "pass", "bogus" } }) end, "bogus")
  end)

  it("rejects bad arguments before touching the device", function()
    helper.assert_gaerror(function() ga.unique({ 1 }, { bogus = true }) end, "unknown option")
    helper.assert_gaerror(function() ga.unique({ 1 }, { axis = "x" }) end, "unique: axis must be an integer")
    helper.assert_gaerror(function() ga.searchsorted({ 1 }, 1, "middle") end, "side must be")
    helper.assert_gaerror(function() ga.lexsort({}) end, "at least one key")
  end)
end)

describe("sort on the GPU", function()
  local function check_dtype(dt, shape)
    local t = helper.random_table(shape, R.gen(dt))
    local x = ga.array(t, dt)
    local vals = flat(x)    -- as stored (float16 rounding, casts)
    local nd = #shape
    for _, axis in ipairs(nd > 0 and { -1, 1, false } or { false }) do
      local d = false
      if axis ~= false then d = axis < 0 and nd + 1 + axis or axis end
      local ref_s, ref_i
      if d == false then
        ref_s, ref_i = R.sort(vals), R.argsort(vals)
      else
        ref_s = R.along(vals, shape, d, R.sort)
        ref_i = R.along(vals, shape, d, R.argsort)
      end
      local s = ga.sort(x, axis)
      local what = ("%s %s axis %s"):format(dt, internal.shape_str(shape), tostring(axis))
      assert.equal(dt, s.dtype, what)
      assert.same(d == false and { x.size } or shape, s.shape, what)
      helper.assert_same(ref_s, flat(s), nil, what .. " sort")
      local i = ga.argsort(x, axis)
      assert.equal("int64", i.dtype)
      helper.assert_same(ref_i, flat(i), nil, what .. " argsort")
    end
  end

  helper.gpu_it("sorts and argsorts every dtype along every axis, stably, NaNs last", function()
    for _, dt in ipairs(R.DTYPES) do
      for _, shape in ipairs({ { 0 }, { 1 }, { 2 }, { 37 }, { 3, 5 }, { 4, 3, 7 } }) do check_dtype(dt, shape) end
    end
  end)

  helper.gpu_it("handles 2^k +- 1 sizes, many rows, sorted and reversed inputs", function()
    for _, dt in ipairs({ "float32", "int64", "float16", "complex64", "complex128", "uint8" }) do
      for _, n in ipairs({ 4095, 4096, 4097, 65537 }) do check_dtype(dt, { n }) end
    end
    check_dtype("float32", { 300, 3 })      -- two row-number passes
    check_dtype("float64", { 5, 1000 })
    for _, dt in ipairs({ "float32", "int32" }) do
      local n = 10001
      local up = ga.arange(n):astype(dt)
      helper.assert_same(flat(up), flat(ga.sort(up)), nil, "sorted " .. dt)
      local down = ga.flip(up)
      helper.assert_same(flat(up), flat(ga.sort(down)), nil, "reversed " .. dt)
      local i = flat(ga.argsort(down))
      for k = 1, n do assert.equal(n + 1 - k, i[k]) end
      local same = ga.full(n, 3, dt)
      local j = flat(ga.argsort(same))
      for k = 1, n do assert.equal(k, j[k]) end
    end
  end)

  -- racecheck instruments every shared-memory access: the same kernels over
  -- 2^20 keys there (memcheck and the plain run take 2^24)
  local racecheck = os.getenv("GA_UNDER_SANITIZER") == "racecheck"
  helper.gpu_it("sorts 2^24 float32 values (2^20 under racecheck; checked on the device)", function()
    local n = racecheck and 1 << 20 or 1 << 24
    local x = ga.random.random(n, "float32")
    x[{ { 1, 1000 } }] = 0 / 0
    x[{ { 2000, 3000 } }] = -0.0
    local s = ga.sort(x)
    local n1 = n - 1000
    assert.is_true(s[{ { 2, n1 } }]:ge(s[{ { 1, n1 - 1 } }]):all():item())
    assert.equal(1000, ga.isnan(s[{ { n1 + 1, n } }]):sum():item())
    assert.near(x[{ { 1001, n } }]:astype("float64"):sum():item(), s[{ { 1, n1 } }]:astype("float64"):sum():item(), 1)
    local i = ga.argsort(x)
    assert.is_true(ga.array_equal(x:take(i), s, { equal_nan = true }))
    assert.is_true(ga.array_equal(ga.sort(i), ga.arange(1, n + 1, "int64")))
    -- stability: equal keys keep their order
    local k = (x * 100):astype("int32")
    local ik = ga.argsort(k)
    local kk = k:take(ik)
    local same = kk[{ { 2, n } }]:eq(kk[{ { 1, n - 1 } }])
    local ordered = ik[{ { 2, n } }]:gt(ik[{ { 1, n - 1 } }])
    assert.is_true(ga.logical_or(ga.logical_not(same), ordered):all():item())
  end)

  -- CUB's onesweep sorts in portions of under 2^28 elements, chained
  -- through each portion's digit counts (racecheck would take an hour over
  -- 2^28 keys: make sanitize's racecheck leaves it to memcheck)
  local big_it = racecheck and pending or helper.gpu_it
  big_it("sorts and argsorts past one onesweep portion (2^28 + 4099 int32)", function()
    local n = (1 << 28) + 4099
    local x = (ga.random.random(n, "float32") * 1000):astype("int32")
    local s = ga.sort(x)
    assert.is_true(s[{ { 2, n } }]:ge(s[{ { 1, n - 1 } }]):all():item())
    assert.equal(x:astype("int64"):sum():item(), s:astype("int64"):sum():item())
    local i = ga.argsort(x)
    assert.is_true(ga.array_equal(x:take(i), s))
    local same = s[{ { 2, n } }]:eq(s[{ { 1, n - 1 } }])
    local ordered = i[{ { 2, n } }]:gt(i[{ { 1, n - 1 } }])
    assert.is_true(ga.logical_or(ga.logical_not(same), ordered):all():item())
  end)

  helper.gpu_it("x:sort() sorts in place along an axis", function()
    local t = helper.random_table({ 6, 9 }, R.gen("float64"))
    local x = ga.array(t, "float64")
    local vals = flat(x)
    assert.equal(x, x:sort(1))
    helper.assert_same(R.along(vals, { 6, 9 }, 1, R.sort), flat(x))
  end)

  helper.gpu_it("lexsort sorts by the last key first", function()
    local n = 500
    local a, b, c = {}, {}, {}
    for i = 1, n do
      a[i], b[i], c[i] = math.random(1, 4), math.random(-3, 3) / 2, { math.random(2), math.random(2) }
    end
    local ga_a, ga_b, ga_c = ga.array(a, "int16"), ga.array(b, "float32"), ga.array(c, "complex128")
    local idx = flat(ga.lexsort({ ga_c, ga_b, ga_a }))
    local ref = {}
    for i = 1, n do ref[i] = i end
    table.sort(ref, function(i, j)
      if a[i] ~= a[j] then return a[i] < a[j] end
      if b[i] ~= b[j] then return b[i] < b[j] end
      if not R.eq(c[i], c[j]) then return R.lt(c[i], c[j]) end
      return i < j
    end)
    helper.assert_same(ref, idx)
    local two = ga.stack({ ga_b, ga_a:astype("float32") })
    local idx2 = flat(ga.lexsort(two))
    for k = 2, n do
      local p, q = idx2[k - 1], idx2[k]
      assert.is_true(a[p] < a[q] or (a[p] == a[q] and (b[p] < b[q] or (b[p] == b[q] and p < q))))
    end
  end)

  helper.gpu_it("partition and argpartition put the kth element in place", function()
    local t = helper.random_table({ 50 }, R.gen("float32"))
    local x = ga.array(t, "float32")
    local vals, ref = flat(x), nil
    ref = R.sort(vals)
    local p = flat(ga.partition(x, 10))
    assert.is_true(R.eq(ref[10], p[10]))
    for k = 1, 9 do assert.is_false(R.lt(p[10], p[k])) end
    for k = 11, 50 do assert.is_false(R.lt(p[k], p[10])) end
    local ip = flat(ga.argpartition(x, 10))
    assert.is_true(R.eq(ref[10], vals[ip[10]]))
    helper.assert_gaerror(function() ga.partition(x, 51) end, "out of range")
  end)

  helper.gpu_it("searchsorted gives 1-based insertion positions on both sides", function()
    for _, dt in ipairs({ "float32", "int32", "float64", "complex64", "uint8", "float16" }) do
      local a = ga.sort(ga.array(helper.random_table({ 300 }, R.gen(dt)), dt))
      local av = flat(a)
      local v = ga.array(helper.random_table({ 4, 50 }, R.gen(dt)), dt)
      local vv = flat(v)
      for _, side in ipairs({ "left", "right" }) do
        local got = ga.searchsorted(a, v, side)
        assert.equal("int64", got.dtype)
        assert.same({ 4, 50 }, got.shape)
        local g = flat(got)
        for i, q in ipairs(vv) do
          local c = 0
          for _, e in ipairs(av) do
            if R.lt(e, q) or (side == "right" and R.eq(e, q)) or (side == "right" and e == q) then c = c + 1 end
          end
          assert.equal(c + 1, g[i], ("%s %s %s"):format(dt, side, tostring(q)))
        end
      end
    end
    assert.equal(3, ga.searchsorted(ga.array({ 1, 2, 3 }), 2.5):item())
    assert.equal(3, ga.searchsorted({ 1, 2, 3 }, 2, { side = "right" }):item())
    assert.equal(4, ga.searchsorted(ga.array({ 3, 1, 2 }), 5, { sorter = ga.array({ 2, 3, 1 }) }):item())
    helper.assert_gaerror(function() ga.searchsorted(ga.zeros({ 2, 2 }), 1) end, "1-D")
  end)

  helper.gpu_it("unique gives the values, first indices, inverse and counts", function()
    for _, dt in ipairs({ "int32", "float32", "float64", "bool", "complex64", "complex128", "float16", "uint64" }) do
      local x = ga.array(helper.random_table({ 7, 31 }, R.gen(dt)), dt)
      local vals = flat(x)
      local u, first, inv, counts = ga.unique(x, { return_index = true, return_inverse = true, return_counts = true })
      -- reference
      local order = R.argsort(vals)
      local ru, rf, rc, rinv = {}, {}, {}, {}
      for _, k in ipairs(order) do
        local v = vals[k]
        if #ru == 0 or not R.eq(ru[#ru], v) then
          ru[#ru + 1], rf[#ru + 1], rc[#ru + 1] = v, k, 0
        end
        rc[#ru] = rc[#ru] + 1
        rinv[k] = #ru
      end
      assert.equal(dt, u.dtype)
      helper.assert_same(ru, flat(u), nil, dt .. " values")
      helper.assert_same(ru, flat(ga.unique(x)), nil, dt .. " values only")
      helper.assert_same(rf, flat(first), nil, dt .. " index")
      helper.assert_same(rinv, flat(inv), nil, dt .. " inverse")
      helper.assert_same(rc, flat(counts), nil, dt .. " counts")
      assert.equal("int64", counts.dtype)
    end
    local e = ga.unique(ga.zeros(0, "float32"))
    assert.same({ 0 }, e.shape)
    local _, c = ga.unique(ga.array({ 5 }), { return_counts = true })
    helper.assert_same({ 1 }, flat(c))
  end)
end)
