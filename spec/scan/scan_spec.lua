-- cumsum and cumprod against a sequential Lua reference: 1-D sizes around
-- the tile boundaries and up to 2^20 + 3 (the single-pass look-back across
-- many tiles), every axis of a non-contiguous 3-D array, the flattened
-- form, out=, in place, dtypes, bit-identical repeats. GPU only.
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it

local R = require "ndref"
local KIND, rand_list, nest, values = R.KIND, R.rand_list, R.nest, R.values

local function num(v)
  if v == true then return 1 elseif v == false then return 0 end
  return v
end
local function combine(op, a, b)
  if type(a) == "table" or type(b) == "table" then
    a = type(a) == "table" and a or { num(a), 0 }
    b = type(b) == "table" and b or { num(b), 0 }
    if op == "cumsum" then return { a[1] + b[1], a[2] + b[2] } end
    return { a[1] * b[1] - a[2] * b[2], a[1] * b[2] + a[2] * b[1] }
  end
  if op == "cumsum" then return num(a) + num(b) end
  return num(a) * num(b)
end

local function result_dtype(dt)
  local k = KIND[dt]
  if k == "b" or k == "i" then return "int64" end
  if k == "u" then return "uint64" end
  return dt
end

local function round(v, dt)
  if type(v) == "table" then
    local e = dt == "complex64" and "float32" or "float64"
    return { round(v[1], e), round(v[2], e) }
  end
  if dt == "float16" then return helper.to_half(v) end
  if dt == "float32" then return helper.to_f32(v) end
  return v
end

-- Reference scan of flat C-order data of a shape along axis (1-based; nil:
-- flattened), as a flat C-order list
local function ref_scan(op, flat, shape, axis, rdt)
  local out = {}
  if not axis then
    local acc
    for i, v in ipairs(flat) do
      acc = i == 1 and combine(op, op == "cumsum" and 0 or 1, v) or combine(op, acc, v)
      out[i] = round(acc, rdt)
    end
    return out
  end
  local stride = 1
  for d = #shape, axis + 1, -1 do stride = stride * shape[d] end
  local n, total = shape[axis], #flat
  for start = 0, total - 1 do
    -- start is the first element of a line when its coordinate on axis is 0
    if (start // stride) % n == 0 then
      local acc
      for j = 0, n - 1 do
        local p = start + j * stride + 1
        acc = j == 0 and combine(op, op == "cumsum" and 0 or 1, flat[p]) or combine(op, acc, flat[p])
        out[p] = round(acc, rdt)
      end
    end
  end
  return out
end

local function tol(dt)
  if dt == "float16" then return 4e-3 end
  if dt == "float32" or dt == "complex64" then return 1e-5 end
  if dt == "float64" or dt == "complex128" then return 1e-12 end
  return nil
end

local function check(op, flat, shape, axis, got, dt, what)
  local rdt = result_dtype(dt)
  assert.equal(rdt, got.dtype)
  local exp = ref_scan(op, flat, shape, axis, rdt)
  local ok, why = helper.same(exp, values(got), tol(dt))
  assert(ok, ("%s(%s) %s: %s"):format(op, dt, what or "", why))
end

local function noncontig(flat_base, dt)
  local base = ga.array(nest(flat_base, { 5, 3, 14 }), dt)
  return base[{ { 2, 5 }, {}, { 1, -1, 2 } }]:transpose(3, 1, 2)    -- {7, 4, 3}
end

describe("scans #gpu", function()
  gpu_it("match a sequential reference in 1-D around tile boundaries and up to 2^20 + 3", function()
    for _, n in ipairs { 1, 2, 31, 64, 65, 1025, 2047, 2048, 2049, 4096, 4097, 12289, 100003, (1 << 20) + 3 } do
      for _, dt in ipairs { "int32", "float32" } do
        local flat = rand_list(n, dt)
        local x = ga.array(flat, dt)
        check("cumsum", flat, { n }, nil, x:cumsum(), dt, "n=" .. n)
        if n <= 5000 then
          local pf = dt == "int32" and rand_list(n, dt, -1, 1) or rand_list(n, dt, 0.99, 1.01)
          check("cumprod", pf, { n }, nil, ga.cumprod(ga.array(pf, dt)), dt, "n=" .. n)
        end
      end
    end
  end)

  gpu_it("scan every axis of a non-contiguous 3-D array, and the flattened array", function()
    for _, dt in ipairs { "int16", "float32", "complex64", "bool", "uint8", "float16", "float64" } do
      for _, op in ipairs { "cumsum", "cumprod" } do
        -- products stay exact for integers (0, 1, -1) and near 1 for floats;
        -- complex products are checked exactly below (their parts cross zero)
        local lo, hi
        if op == "cumprod" then
          if KIND[dt] == "f" then lo, hi = 0.9, 1.1 else lo, hi = 0, 1 end
          if KIND[dt] == "i" then lo = -1 end
        end
        if op == "cumprod" and KIND[dt] == "c" then goto next end
        do
        local x = noncontig(rand_list(5 * 3 * 14, dt, lo, hi), dt)
        assert.is_false(x.flags.c_contiguous)
        local flat = values(x)
        for _, axis in ipairs { 1, 2, 3, -1 } do
          local a = axis < 0 and 3 + 1 + axis or axis
          check(op, flat, x.shape, a, ga[op](x, axis), dt, "axis " .. axis)
          check(op, flat, x.shape, a, x[op](x, { axis = axis }), dt, "axis " .. axis)
        end
        local f = ga[op](x)
        assert.same({ 7 * 4 * 3 }, f.shape)
        check(op, flat, x.shape, nil, f, dt, "flattened")
        end
        ::next::
      end
    end
    local c = ga.array({ { 1, 1 }, { 0, 1 }, { 2, 0 }, { 1, -1 } }, "complex64"):cumprod()
    assert.same({ { 1, 1 }, { -1, 1 }, { -2, 2 }, { 0, 4 } }, c:totable())
  end)

  gpu_it("scan long rows (several tiles per row) and many short rows", function()
    for _, case in ipairs {
      { shape = { 3, 100000 }, axis = 2 },
      { shape = { 3, 300000 }, axis = 2 },       -- over 32 tiles a row: the look-back across groups
      { shape = { 5000, 70 }, axis = 2 },
      { shape = { 5000, 10 }, axis = 2 },
      { shape = { 300, 70 }, axis = 1 },
      { shape = { 2, 3, 9000 }, axis = 3 },
      { shape = { 20000, 3 }, axis = 1 },        -- few long strided rows: scanned from a copy
    } do
      local n = 1
      for _, s in ipairs(case.shape) do n = n * s end
      for _, dt in ipairs { "int64", "float32" } do
        local flat = rand_list(n, dt)
        local x = ga.array(nest(flat, case.shape), dt)
        local got = x:cumsum(case.axis)
        check("cumsum", flat, case.shape, case.axis, got, dt, table.concat(case.shape, "x"))
        assert.equal(got:tobytes(), x:cumsum(case.axis):tobytes())
      end
    end
  end)

  gpu_it("scan views that start off the vector alignment, into any out", function()
    -- offset input views: scalar loads; offset out views: scalar stores
    local flat = rand_list(30011, "float32")
    local x = ga.array(flat, "float32")
    for _, xo in ipairs { 1, 2, 4 } do
      local len = 30000
      local sub = {}
      for i = 1, len do sub[i] = flat[xo + i - 1] end
      local xv = x[{ { xo, xo + len - 1 } }]
      check("cumsum", sub, { len }, 1, xv:cumsum(1), "float32", "offset " .. xo)
      for _, oo in ipairs { 1, 3 } do
        local obase = ga.zeros(len + 5, "float32")
        local ov = obase[{ { oo, oo + len - 1 } }]
        ga.cumsum(xv, 1, { out = ov })
        check("cumsum", sub, { len }, 1, ov, "float32", ("offset %d into out offset %d"):format(xo, oo))
      end
    end
    local ints = rand_list(20000, "int16")
    local xi = ga.array(ints, "int16")[{ { 2, 20000 } }]
    local isub = {}
    for i = 2, 20000 do isub[i - 1] = ints[i] end
    check("cumsum", isub, { #isub }, 1, xi:cumsum(), "int16", "int16 offset")
  end)

  gpu_it("scan reversed views", function()
    local flat = rand_list(50001, "int32")
    local x = ga.array(flat, "int32")[{ { nil, nil, -1 } }]
    local rev = {}
    for i = 1, #flat do rev[i] = flat[#flat + 1 - i] end
    check("cumsum", rev, { #rev }, 1, x:cumsum(1), "int32", "reversed")
    check("cumsum", rev, { #rev }, nil, x:cumsum(), "int32", "reversed, flattened")
  end)

  gpu_it("match the reference with wide tiles (as for large arrays), the same bits twice", function()
    -- the size rule gives 4-byte accumulators tiles 2 or 4 times wider
    -- only for arrays of tens of millions of elements: force them here
    local core = ga._core
    for _, scale in ipairs { 2, 4 } do
      core._test.scan_wide(scale)
      local ok, err = pcall(function()
        for _, case in ipairs { { { (1 << 20) + 3 }, 1 }, { { 3, 300001 }, 2 } } do
          local shape, axis = case[1], case[2]
          local n = 1
          for _, s in ipairs(shape) do n = n * s end
          for _, dt in ipairs { "float32", "float16" } do
            local flat = rand_list(n, dt, dt == "float16" and 0 or nil, dt == "float16" and 0.001 or nil)
            local x = ga.array(nest(flat, shape), dt)
            local got = x:cumsum(axis)
            check("cumsum", flat, shape, axis, got, dt, ("wide x%d %s"):format(scale, table.concat(shape, "x")))
            assert.equal(got:tobytes(), x:cumsum(axis):tobytes())
          end
        end
      end)
      core._test.scan_wide(0)
      assert(ok, err)
    end
  end)

  gpu_it("give the same bits twice", function()
    local x = ga.array(rand_list(3 * (1 << 20) + 5, "float32"), "float32")
    local a, b = x:cumsum(), x:cumsum()
    assert.equal(a:tobytes(), b:tobytes())
    local c = ga.array(rand_list(200000, "float64", 0.999, 1.001), "float64")
    assert.equal(c:cumprod():tobytes(), c:cumprod():tobytes())
  end)

  gpu_it("write into out (any dtype), in place, and take dtype", function()
    local flat = rand_list(3 * 5000, "float32")
    local x = ga.array(nest(flat, { 3, 5000 }), "float32")
    local out = ga.empty({ 3, 5000 }, "float64")
    assert.equal(out, x:cumsum(2, { out = out }))
    local exp = ref_scan("cumsum", flat, { 3, 5000 }, 2, "float32")
    helper.assert_same(exp, values(out), 1e-5)
    local y = x:copy()
    assert.equal(y, ga.cumsum(y, 2, { out = y }))
    helper.assert_same(exp, values(y), 1e-5)
    local z = x:copy()
    ga.cumsum(z, 1, { out = z })
    helper.assert_same(ref_scan("cumsum", flat, { 3, 5000 }, 1, "float32"), values(z), 1e-5)
    local t = x.T:copy()                           -- out: another view with the same layout
    ga.cumsum(t, 1, { out = t.T.T })
    helper.assert_same(ref_scan("cumsum", values(x.T), { 5000, 3 }, 1, "float32"), values(t), 1e-5)
    local i = ga.array({ 1, 2, 3, 4 }, "int32")
    local f = i:cumsum(nil, { dtype = "float32" })
    assert.equal("float32", f.dtype)
    assert.same({ 1, 3, 6, 10 }, f:totable())
    assert.equal("int64", ga.array({ true, true }, "bool"):cumsum().dtype)
    assert.same({ 1, 2 }, ga.array({ true, true }, "bool"):cumsum():totable())
    assert.equal("uint64", ga.array({ 1, 2 }, "uint8"):cumprod().dtype)
    assert.equal("float16", ga.array({ 1, 2 }, "float16"):cumsum().dtype)
    assert.same({ 0 }, ga.zeros(0, "float32"):cumsum().shape)
    assert.same({ 2, 0 }, ga.zeros({ 2, 0 }, "int32"):cumsum(2).shape)
  end)

  gpu_it("raise clear errors", function()
    local x = ga.array({ { 1, 2 }, { 3, 4 } }, "float32")
    helper.assert_gaerror(function() x:cumsum(3) end, "cumsum: axis 3 is out of range")
    helper.assert_gaerror(function() x:cumsum({ 1, 2 }) end, "cumsum: axis must be an integer")
    helper.assert_gaerror(function() x:cumprod(1, 2) end, "cumprod: dtype must be a dtype")
    helper.assert_gaerror(function() x:cumsum(1, { out = ga.empty(4, "float32") }) end,
                          "cumsum: out has shape {4}, the result has shape {2,2}")
    helper.assert_gaerror(function() ga.cumsum(5) end, "cumsum: a must be an ndarray")
    helper.assert_gaerror(function() x:cumsum(nil, { axsi = 1 }) end,
                          "cumsum: unknown option 'axsi' (did you mean 'axis'?)")
    assert.same({ { 1, 2 }, { 3, 4 } }, x:totable())
  end)

  gpu_it("take axis, dtype and out by position or by name", function()
    local x = ga.array({ { 1, 2 }, { 3, 4 } }, "int16")
    local out = ga.empty({ 2, 2 }, "float32")
    assert.equal(out, ga.cumsum(x, 1, "float64", out))
    assert.same({ { 1, 2 }, { 4, 6 } }, out:totable())
    local r = ga.cumprod({ a = x, axis = 2, dtype = "int8" })
    assert.equal("int8", r.dtype)
    assert.same({ { 1, 2 }, { 3, 12 } }, r:totable())
  end)
end)
