-- Built-in reductions and ReductionKernel against a Lua reference on fresh
-- random data: every reduction, each dtype family, every axis and axis pair
-- of a 3-D non-contiguous array, keepdims on and off, sizes 0, 1, 31, 1025
-- and 2^20 + 3, the split paths, NaN and tie rules, dtype/out/ddof, and
-- bit-identical repeats. GPU only (helper.gpu_it).
--
-- Run time: the big inputs (2^20 + 3 and 3 * 2^20 + 17 elements) are made
-- once per dtype and shared by the tests (Lua tables of a million values are
-- the slow part on the host), and references over all elements skip the
-- index groups.
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it

local R = require "ndref"
local KIND, rand_list, nest, values, size_of = R.KIND, R.rand_list, R.nest, R.values, R.size

---------------------------------------------------------------------------
-- random data and references
---------------------------------------------------------------------------

-- Big inputs, made once per (size, dtype) and shared: the flat values and
-- the array
local BIG_CACHE = {}
local function big_input(n, dt)
  local key = n .. dt
  if not BIG_CACHE[key] then
    local flat = rand_list(n, dt)
    BIG_CACHE[key] = { flat = flat, x = ga.array(flat, dt) }
  end
  return BIG_CACHE[key].flat, BIG_CACHE[key].x
end

-- Groups of flat indices: one group per output element (C order over the
-- kept axes), each listing the reduced elements in C order (memoised)
local group_memo = {}
local function groups_of(shape, axes)
  local nd = #shape
  local strides, acc = {}, 1
  for d = nd, 1, -1 do
    strides[d] = acc
    acc = acc * shape[d]
  end
  local kept, red = {}, {}
  for d = 1, nd do
    if axes[d] then red[#red + 1] = d else kept[#kept + 1] = d end
  end
  local function each(dims, fn)
    local idx = {}
    for i = 1, #dims do idx[i] = 0 end
    for i = 1, #dims do if shape[dims[i]] == 0 then return end end
    while true do
      local off = 0
      for i = 1, #dims do off = off + idx[i] * strides[dims[i]] end
      fn(off)
      local i = #dims
      while i >= 1 do
        idx[i] = idx[i] + 1
        if idx[i] < shape[dims[i]] then break end
        idx[i] = 0
        i = i - 1
      end
      if i < 1 then return end
    end
  end
  local out = {}
  each(kept, function(base)
    local g = {}
    each(red, function(off) g[#g + 1] = base + off + 1 end)
    out[#out + 1] = g
  end)
  return out
end

local function groups(shape, axes)
  local key = table.concat(shape, ",") .. "|"
  for d = 1, #shape do key = key .. (axes[d] and "r" or "k") end
  local g = group_memo[key]
  if not g then
    g = groups_of(shape, axes)
    group_memo[key] = g
  end
  return g
end

local function isnan(v)
  if type(v) == "table" then return v[1] ~= v[1] or v[2] ~= v[2] end
  return v ~= v
end
local function num(v)
  if v == true then return 1 elseif v == false then return 0 end
  return v
end
local function lt(a, b)      -- NumPy's order; complex lexicographic
  if type(a) == "table" then return a[1] < b[1] or (a[1] == b[1] and a[2] < b[2]) end
  return num(a) < num(b)
end
local function nonzero(v)
  if type(v) == "table" then return v[1] ~= 0 or v[2] ~= 0 end
  if type(v) == "boolean" then return v end
  return v ~= 0
end
local function cplx(v) return type(v) == "table" and v or { num(v), 0 } end
local function add(a, b)
  if type(a) == "table" or type(b) == "table" then
    a, b = cplx(a), cplx(b)
    return { a[1] + b[1], a[2] + b[2] }
  end
  return num(a) + num(b)
end
local function mul(a, b)
  if type(a) == "table" or type(b) == "table" then
    a, b = cplx(a), cplx(b)
    return { a[1] * b[1] - a[2] * b[2], a[1] * b[2] + a[2] * b[1] }
  end
  return num(a) * num(b)
end
-- The reference of each reduction over one group of values
local REF = {}
function REF.sum(vs)
  local s = 0
  for _, v in ipairs(vs) do s = add(s, v) end
  return s
end
REF.nansum = function(vs)
  local s = 0
  for _, v in ipairs(vs) do if not isnan(v) then s = add(s, v) end end
  return s
end
function REF.prod(vs)
  local p = 1
  for _, v in ipairs(vs) do p = mul(p, v) end
  return p
end
function REF.mean(vs)
  local s = REF.sum(vs)
  if type(s) == "table" then return { s[1] / #vs, s[2] / #vs } end
  return s / #vs
end
function REF.var(vs, ddof)
  local m = REF.mean(vs)
  local s = 0
  for _, v in ipairs(vs) do
    if type(v) == "table" then s = s + (v[1] - m[1]) ^ 2 + (v[2] - m[2]) ^ 2
    else s = s + (num(v) - m) ^ 2 end
  end
  return s / math.max(#vs - (ddof or 0), 0)
end
function REF.std(vs, ddof) return math.sqrt(REF.var(vs, ddof)) end
local function extreme(vs, better, skip_nan)
  local best
  for _, v in ipairs(vs) do
    if isnan(v) then
      if not skip_nan then return v end
    elseif best == nil or better(v, best) then
      best = v
    end
  end
  if best == nil then return vs[1] end       -- all NaN
  return best
end
function REF.max(vs) return extreme(vs, function(a, b) return lt(b, a) end) end
function REF.min(vs) return extreme(vs, function(a, b) return lt(a, b) end) end
function REF.nanmax(vs) return extreme(vs, function(a, b) return lt(b, a) end, true) end
function REF.nanmin(vs) return extreme(vs, function(a, b) return lt(a, b) end, true) end
local function arg(vs, better)
  local bi
  for i, v in ipairs(vs) do
    if isnan(v) then return i end
    if bi == nil or better(v, vs[bi]) then bi = i end
  end
  return bi
end
function REF.argmax(vs) return arg(vs, function(a, b) return lt(b, a) end) end
function REF.argmin(vs) return arg(vs, function(a, b) return lt(a, b) end) end
function REF.all(vs)
  for _, v in ipairs(vs) do if not nonzero(v) then return false end end
  return true
end
function REF.any(vs)
  for _, v in ipairs(vs) do if nonzero(v) then return true end end
  return false
end
function REF.count_nonzero(vs)
  local n = 0
  for _, v in ipairs(vs) do if nonzero(v) then n = n + 1 end end
  return n
end
function REF.ptp(vs)
  local hi, lo = REF.max(vs), REF.min(vs)
  if type(hi) == "table" then return { hi[1] - lo[1], hi[2] - lo[2] } end
  return hi - lo
end

-- NumPy's result dtype of each reduction
local function result_dtype(name, dt)
  local k = KIND[dt]
  if name == "sum" or name == "prod" or name == "nansum" then
    if k == "b" or k == "i" then return "int64" end
    if k == "u" then return "uint64" end
    return dt
  end
  if name == "mean" then return (k == "b" or k == "i" or k == "u") and "float64" or dt end
  if name == "var" or name == "std" then
    if k == "b" or k == "i" or k == "u" then return "float64" end
    if dt == "complex64" then return "float32" end
    if dt == "complex128" then return "float64" end
    return dt
  end
  if name == "argmax" or name == "argmin" or name == "count_nonzero" then return "int64" end
  if name == "all" or name == "any" then return "bool" end
  return dt
end

-- Relative tolerance of a result (nil: exact)
local function tolerance(name, dt)
  local exact = { max = true, min = true, nanmax = true, nanmin = true, argmax = true, argmin = true,
                  all = true, any = true, count_nonzero = true }
  if exact[name] then return nil end
  local k = KIND[dt]
  if (k == "b" or k == "i" or k == "u") and (name == "sum" or name == "prod" or name == "nansum" or name == "ptp") then
    return nil
  end
  if dt == "float16" then return 4e-3 end
  if dt == "float32" or dt == "complex64" then return (name == "var" or name == "std") and 1e-4 or 2e-5 end
  return 1e-10
end

local WRAP = { int8 = 8, int16 = 16, int32 = 32, uint8 = 8, uint16 = 16, uint32 = 32 }

-- Round a reference to what the result dtype can hold (integers wrap)
local function to_dtype(v, dt)
  if WRAP[dt] and math.type(v) == "integer" then
    local m = 1 << WRAP[dt]
    v = v % m
    if KIND[dt] == "i" and v >= m // 2 then v = v - m end
    return v
  end
  if type(v) == "table" then return { to_dtype(v[1], dt == "complex64" and "float32" or "float64"),
                                      to_dtype(v[2], dt == "complex64" and "float32" or "float64") } end
  if dt == "float16" then return helper.to_half(v) end
  if dt == "float32" then return helper.to_f32(v) end
  return v
end

-- Like helper.same, but a complex value's parts are judged against its
-- modulus: a product of complex numbers can cancel in one part, whose float32
-- rounding is then large relative to that part alone
local function same_values(exp, got, rtol)
  if #exp ~= #got then return false, ("length %d vs %d"):format(#exp, #got) end
  for i = 1, #exp do
    local e, g = exp[i], got[i]
    if rtol and type(e) == "table" and type(g) == "table" then
      local m = math.max(math.sqrt(e[1] ^ 2 + e[2] ^ 2), math.sqrt(g[1] ^ 2 + g[2] ^ 2))
      for k = 1, 2 do
        local a, b = e[k], g[k]
        local both_nan = a ~= a and b ~= b
        local close = a == b or math.abs(a - b) <= rtol * m
        if not both_nan and not close then
          return false, ("[%d][%d]: %s vs %s"):format(i, k, tostring(a), tostring(b))
        end
      end
    else
      local ok, why = helper.same(e, g, rtol)
      if not ok then return false, ("[%d]%s"):format(i, why) end
    end
  end
  return true
end

local function check(name, x_vals, shape, axes, got, dt, opts)
  opts = opts or {}
  local rdt = result_dtype(name, dt)
  assert.equal(rdt, got.dtype, name .. " dtype")
  local exp = {}
  local all = true
  for d = 1, #shape do all = all and axes[d] end
  if all then      -- one group: every element, in C order
    exp[1] = to_dtype(REF[name](x_vals, opts.ddof), rdt)
  else
    for _, g in ipairs(groups(shape, axes)) do
      local vs = {}
      for i, p in ipairs(g) do vs[i] = x_vals[p] end
      exp[#exp + 1] = to_dtype(REF[name](vs, opts.ddof), rdt)
    end
  end
  local vals = values(got)
  local ok, why = same_values(exp, vals, tolerance(name, dt))
  assert(ok, ("%s(%s) over %s: %s"):format(name, dt, opts.what or "?", why))
end

local function axes_set(axis, nd)
  local s = {}
  if axis == nil then
    for d = 1, nd do s[d] = true end
    return s
  end
  if type(axis) ~= "table" then axis = { axis } end
  for _, a in ipairs(axis) do s[a < 0 and nd + 1 + a or a] = true end
  return s
end

local function out_shape(shape, axes, keepdims)
  local s = {}
  for d = 1, #shape do
    if axes[d] then
      if keepdims then s[#s + 1] = 1 end
    else
      s[#s + 1] = shape[d]
    end
  end
  return s
end

local function axis_name(axis)
  if axis == nil then return "all" end
  if type(axis) == "table" then return "{" .. table.concat(axis, ",") .. "}" end
  return tostring(axis)
end

-- Data suited to a reduction: small magnitudes for prod
local function data_for(name, dt, n)
  if name == "prod" then
    if KIND[dt] == "f" or KIND[dt] == "c" then return rand_list(n, dt, 0.8, 1.25) end
    if KIND[dt] == "i" then return rand_list(n, dt, -2, 2) end
    if KIND[dt] == "u" then return rand_list(n, dt, 1, 2) end   -- products stay below 2^63
  end
  if KIND[dt] == "i" and (name == "all" or name == "count_nonzero" or name == "any") then
    return rand_list(n, dt, -1, 1)
  end
  return rand_list(n, dt)
end

-- A 3-D view that is contiguous along no axis: shape {7, 4, 3}
local function noncontig(flat_base, dt)
  local base = ga.array(nest(flat_base, { 5, 3, 14 }), dt)
  local v = base[{ { 2, 5 }, {}, { 1, -1, 2 } }]      -- {4, 3, 7}
  return v:transpose(3, 1, 2)                           -- {7, 4, 3}
end

local NAMES = { "sum", "prod", "mean", "var", "std", "max", "min", "argmax", "argmin", "all", "any",
                "count_nonzero", "nansum", "nanmax", "nanmin", "ptp" }
local FAMILIES = { "bool", "int16", "uint32", "float32", "complex64" }
local AXES = { false, 1, 2, 3, -1, { 1, 2 }, { 1, 3 }, { 2, 3 }, { 1, 2, 3 } }

---------------------------------------------------------------------------

describe("reductions without a device", function()
  it("every reduction binds its declared parameters (empty results need no device)", function()
    -- a reduction without out or dtype (count_nonzero, argmax) read the
    -- missing parameter's empty slot as an ndarray
    local x = ga.empty({ 0, 3 }, "float32")
    for _, name in ipairs(NAMES) do
      assert.same({ 0, 1 }, ga[name](x, { axis = 2, keepdims = true }).shape, name)
      assert.same({ 0 }, ga[name](x, 2, nil).shape, name)
      assert.same({ 0 }, x[name](x, { axis = -1 }).shape, name)
    end
    for _, name in ipairs { "sum", "prod", "mean", "var", "std", "nansum", "nanprod" } do
      assert.equal("float64", ga[name](x, { axis = 2, dtype = "float64" }).dtype, name)
    end
    helper.assert_gaerror(function() ga.count_nonzero(x, { axis = 2, out = x }) end,
                          "count_nonzero: unknown option 'out'")
  end)
end)

describe("reductions #gpu", function()
  gpu_it("match the reference over every axis and pair of a non-contiguous 3-D array", function()
    for _, dt in ipairs(FAMILIES) do
      for _, name in ipairs(NAMES) do
        if not (name == "ptp" and dt == "bool") then
          local x = noncontig(data_for(name, dt, 5 * 3 * 14), dt)
          assert.is_false(x.flags.c_contiguous)
          local xv = values(x)
          for _, axis in ipairs(AXES) do
            local single = type(axis) ~= "table"
            if single or not name:find("^arg") then
              for _, keep in ipairs { false, true } do
                local a = axis or nil
                local got = ga[name](x, { axis = a, keepdims = keep })
                local ax = axes_set(a, 3)
                assert.same(out_shape(x.shape, ax, keep), got.shape)
                check(name, xv, x.shape, ax, got, dt, { what = axis_name(a) .. (keep and " keepdims" or "") })
              end
            end
          end
        end
      end
    end
  end)

  gpu_it("match the reference on contiguous arrays (vector loads), every axis", function()
    for _, dt in ipairs { "float32", "int8", "float16", "complex128" } do
      local shape = { 6, 33, 40 }
      local flat = rand_list(size_of(shape), dt)
      local x = ga.array(nest(flat, shape), dt)
      for _, name in ipairs { "sum", "max", "argmax", "mean", "var", "ptp", "any" } do
        for _, axis in ipairs { false, 1, 2, 3, { 1, 3 }, { 2, 3 } } do
          if type(axis) ~= "table" or not name:find("^arg") then
            local a = axis or nil
            -- every axis: no options ({ axis = nil } is `{}`, a positional
            -- empty axis list: NumPy's axis=(), which reduces none)
            local got = a == nil and ga[name](x) or ga[name](x, { axis = a })
            check(name, flat, shape, axes_set(a, 3), got, dt, { what = axis_name(a) })
          end
        end
      end
    end
  end)

  gpu_it("give 0-d results over all elements, for sizes 0, 1, 31, 1025 and 2^20 + 3", function()
    for _, n in ipairs { 0, 1, 31, 1025, (1 << 20) + 3 } do
      for _, dt in ipairs { "float32", "int32" } do
        local flat, x
        if n > 100000 then
          flat, x = big_input(n, dt)
        else
          flat = rand_list(n, dt)
          x = n == 0 and ga.zeros(0, dt) or ga.array(flat, dt)
        end
        for _, name in ipairs(NAMES) do
          local empty_error = n == 0 and (name:find("max") or name:find("min") or name == "ptp")
          if empty_error then
            helper.assert_gaerror(function() ga[name](x) end, n == 0 and name:find("^arg") and "empty sequence"
                                  or "zero-size array to reduction operation")
          else
            local got = ga[name](x)
            assert.equal(0, got.ndim)
            check(name, flat, { n }, { true }, got, dt, { what = "n=" .. n })
          end
        end
      end
    end
  end)

  gpu_it("sum float32 within 1e-5 of a float64 sum and give the same bits twice", function()
    for _, n in ipairs { 1025, (1 << 20) + 3, 3 * (1 << 20) + 17 } do
      local flat, x = big_input(n, "float32")
      local ref = 0
      for _, v in ipairs(flat) do ref = ref + v end
      local s1, s2 = x:sum(), x:sum()
      assert.is_true(math.abs(s1:item() - ref) <= 1e-5 * ref, ("%g vs %g"):format(s1:item(), ref))
      assert.equal(s1:tobytes(), s2:tobytes())
      for _, name in ipairs { "argmax", "var", "mean", "max" } do
        assert.equal(ga[name](x):tobytes(), ga[name](x):tobytes(), name)
      end
    end
  end)

  gpu_it("split rows and columns across blocks (both second passes)", function()
    for _, case in ipairs {
      { shape = { 3, 1 << 18 }, axis = 2 },      -- long rows, few outputs: second pass along the splits
      { shape = { 1 << 16, 40 }, axis = 1 },     -- columns, 40 outputs: second pass along the outputs
      { shape = { 1 << 17, 5 }, axis = 1 },      -- columns, 5 outputs
      { shape = { 1 << 15, 3, 4 }, axis = { 1, 3 } },
    } do
      local flat = rand_list(size_of(case.shape), "float32")
      local x = ga.array(nest(flat, case.shape), "float32")
      for _, name in ipairs { "sum", "max", "argmax", "var" } do
        if type(case.axis) ~= "table" or name ~= "argmax" then
          local got = ga[name](x, { axis = case.axis })
          check(name, flat, case.shape, axes_set(case.axis, #case.shape), got, "float32",
                { what = axis_name(case.axis) })
          assert.equal(got:tobytes(), ga[name](x, { axis = case.axis }):tobytes())
        end
      end
    end
  end)

  gpu_it("return the first of tied maxima and minima, flat or along an axis", function()
    local x = ga.array({ { 1, 5, 5, 0 }, { 5, 2, 5, 5 }, { 0, 0, -1, -1 } }, "float32")
    assert.equal(2, x:argmax():item())
    assert.equal(11, x:argmin():item())
    assert.same({ 2, 1, 1 }, x:argmax(2):totable())
    assert.same({ 2, 1, 1, 2 }, x:argmax(1):totable())
    assert.same({ 4, 2, 3 }, x:argmin(-1):totable())
    local big = {}
    for i = 1, 100000 do big[i] = math.random(0, 3) end
    big[777], big[90000] = 9, 9
    assert.equal(777, ga.array(big, "int32"):argmax():item())
  end)

  gpu_it("propagate NaN as NumPy does", function()
    local nan = 0 / 0
    local x = ga.array({ { 1, nan, 3 }, { 4, 5, 6 }, { nan, nan, nan } }, "float32")
    local mx = x:max(2):totable()
    assert.is_true(mx[1] ~= mx[1])
    assert.equal(6, mx[2])
    assert.is_true(mx[3] ~= mx[3])
    local nmx = x:nanmax(2):totable()
    assert.same({ 3, 6 }, { nmx[1], nmx[2] })
    assert.is_true(nmx[3] ~= nmx[3])
    assert.same({ 2, 3, 1 }, x:argmax(2):totable())
    assert.equal(2, x:argmin():item())
    assert.same({ 4, 15, 0 }, x:nansum(2):totable())
    local s = x:sum():item()
    assert.is_true(s ~= s)
    assert.same({ 1, 4 }, { x:nanmin(2):totable()[1], x:nanmin(2):totable()[2] })
  end)

  gpu_it("handle empty inputs as NumPy does", function()
    local e = ga.zeros(0, "float32")
    assert.equal(0, e:sum():item())
    assert.equal("float32", e:sum().dtype)
    assert.equal(1, e:prod():item())
    local m = e:mean():item()
    assert.is_true(m ~= m)
    assert.is_true(e:all():item())
    assert.is_false(e:any():item())
    assert.equal(0, e:count_nonzero():item())
    helper.assert_gaerror(function() e:max() end, "max: zero-size array to reduction operation maximum")
    helper.assert_gaerror(function() e:argmax() end, "argmax: attempt to get argmax of an empty sequence")
    local e2 = ga.zeros({ 0, 3 }, "int32")
    assert.same({ 0 }, e2:max(2).shape)           -- nothing to reduce into: no error
    assert.same({ 0, 0, 0 }, e2:sum(1):totable())
    assert.equal("int64", e2:sum(1).dtype)
    helper.assert_gaerror(function() e2:max(1) end, "zero-size array")
    local e3 = ga.zeros({ 3, 0 }, "float64")
    assert.same({ 0, 0, 0 }, e3:sum(2):totable())
    assert.same({ 3, 1 }, e3:sum(2, { keepdims = true }).shape)
  end)

  gpu_it("take axis positionally or in options, keepdims, dtype, out and ddof", function()
    local flat = rand_list(60, "int32")
    local x = ga.array(nest(flat, { 3, 4, 5 }), "int32")
    assert.same(x:sum(2):totable(), ga.sum(x, { axis = 2 }):totable())
    assert.same(x:sum({ 1, 3 }):totable(), ga.sum(x, { axis = { 3, 1 } }):totable())
    assert.same({ 1, 4, 1 }, x:sum({ 1, 3 }, { keepdims = true }).shape)
    assert.same({ 1, 1, 1 }, x:sum(nil, { keepdims = true }).shape)
    assert.same({}, x:sum().shape)
    -- dtype: accumulate and return in it
    local s = x:sum(nil, { dtype = "float32" })
    assert.equal("float32", s.dtype)
    local ref = 0
    for _, v in ipairs(flat) do ref = ref + v end
    assert.equal(ref, s:item())
    assert.equal("float32", x:mean(nil, { dtype = "float32" }).dtype)
    assert.equal("float64", x:mean().dtype)
    assert.equal("int64", ga.array({ 1, 2 }, "int8"):sum().dtype)
    assert.equal("uint64", ga.array({ 1, 2 }, "uint16"):sum().dtype)
    assert.equal("float16", ga.array({ 1, 2 }, "float16"):sum().dtype)
    assert.equal("float32", ga.array({ { 1, 2 } }, "complex64"):var().dtype)
    helper.assert_gaerror(function() x:max(nil, { dtype = "float32" }) end, "max: unknown option 'dtype'")
    -- out: filled, returned, cast to its dtype
    local out = ga.empty({ 3, 5 }, "float64")
    local r = x:sum(2, { out = out })
    assert.equal(out, r)
    local exp = {}
    for _, g in ipairs(groups({ 3, 4, 5 }, { [2] = true })) do
      local t = 0
      for _, p in ipairs(g) do t = t + flat[p] end
      exp[#exp + 1] = t
    end
    helper.assert_same(exp, values(out))
    helper.assert_gaerror(function() x:sum(2, { out = ga.empty({ 3, 4 }, "int64") }) end,
                          "sum: out has shape {3,4}, the result has shape {3,5}")
    -- ddof
    local f = rand_list(50, "float64")
    local y = ga.array(f, "float64")
    helper.assert_same({ REF.var(f, 1) }, { y:var(nil, { ddof = 1 }):item() }, 1e-12)
    helper.assert_same({ REF.std(f, 1) }, { y:std(1, { ddof = 1 }):item() }, 1e-12)
    local big = ga.array({ 1, 2 }, "float64"):var(nil, { ddof = 2 }):item()
    assert.is_true(big == math.huge)
  end)

  gpu_it("raise clear errors and leave inputs unchanged", function()
    local x = ga.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "float32")
    helper.assert_gaerror(function() x:sum(3) end, "sum: axis 3 is out of range for an array of 2 dimensions")
    helper.assert_gaerror(function() x:sum(-3) end, "axis -3 is out of range")
    helper.assert_gaerror(function() x:sum({ 1, 1 }) end, "sum: axis 1 is repeated")
    helper.assert_gaerror(function() x:sum({ 2, -1 }) end, "axis -1 is repeated")
    helper.assert_gaerror(function() x:argmax({ 1, 2 }) end, "argmax: axis must be an integer")
    helper.assert_gaerror(function() x:sum("a") end, "sum: axis must be an integer or a list")
    helper.assert_gaerror(function() x:sum(1, 2) end, "sum: dtype must be a dtype")
    helper.assert_gaerror(function() ga.sum({ 1, 2 }) end, "sum: a must be an ndarray")
    helper.assert_gaerror(function() ga.array({ true }, "bool"):ptp() end, "ptp: not supported for bool")
    helper.assert_gaerror(function() x:sum(1, { axis = 2 }) end,
                          "sum: axis given both as argument 2 and as option 'axis'")
    helper.assert_gaerror(function() x:sum(nil, { axsi = 2 }) end, "sum: unknown option 'axsi' (did you mean 'axis'?)")
    helper.assert_gaerror(function() x:sum(1, { keepdims = 1 }) end, "sum: keepdims must be a boolean")
    helper.assert_gaerror(function() x:sum(1, "float32", nil, false, 5) end, "sum: too many arguments")
    assert.same({ { 1, 2, 3 }, { 4, 5, 6 } }, x:totable())
  end)

  gpu_it("take every parameter by position or by name, as NumPy's", function()
    local x = ga.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "int32")
    local out = ga.empty({ 1, 3 }, "float32")
    local r = ga.sum(x, 1, "float64", out, true)
    assert.equal(out, r)
    assert.same({ { 5, 7, 9 } }, out:totable())
    r = ga.sum({ a = x, axis = -1, dtype = "int8", keepdims = true })
    assert.equal("int8", r.dtype)
    assert.same({ { 6 }, { 15 } }, r:totable())
    -- axis = {} reduces no axis (NumPy's axis=()), the dtype rule still holds
    r = x:sum({})
    assert.equal("int64", r.dtype)
    assert.same({ { 1, 2, 3 }, { 4, 5, 6 } }, r:totable())
    assert.same({ 2.0, 5.0 }, ga.mean(x, 2):totable())
    assert.same({ 3, 3 }, x:argmax(-1):totable())
    assert.same({ { 3 }, { 3 } }, ga.argmax(x, 2, nil, { keepdims = true }):totable())
    local v = ga.array({ 1, 2, 3, 4 }, "float64")
    helper.assert_same({ 5 / 3 }, { ga.var(v, nil, nil, nil, 1):item() }, 1e-12)
    assert.same({ 1 }, ga.count_nonzero(ga.array({ 0, 3 }), { keepdims = true }):totable())
    -- nanprod: NaN counts as one
    assert.same(6.0, ga.nanprod(ga.array({ 2, 0 / 0, 3 }, "float32")):item())
    assert.same({ 2.0, 3.0 }, ga.nanprod(ga.array({ { 2, 0 / 0 }, { 0 / 0, 3 } }), 2):totable())
  end)
end)

describe("ReductionKernel #gpu", function()
  local l2 = ga.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
  local sumsq = ga.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sum_of_squares")

  gpu_it("computes CuPy's l2-norm example", function()
    local x = ga.arange(10, "float32"):reshape(2, 5)
    local y = l2(x, { axis = 2 })
    assert.equal("float32", y.dtype)
    helper.assert_same({ math.sqrt(30), math.sqrt(255) }, y:totable(), 1e-6)
  end)

  gpu_it("matches a reference for l2-norm and sum of squares, every axis", function()
    for _, dt in ipairs { "float32", "float64" } do
      local x = noncontig(rand_list(5 * 3 * 14, dt, -1, 1), dt)
      local xv = values(x)
      for _, axis in ipairs(AXES) do
        local a = axis or nil
        local ax = axes_set(a, 3)
        for _, keep in ipairs { false, true } do
          local y = l2(x, { axis = a, keepdims = keep })
          local z = sumsq(x, { axis = a, keepdims = keep })
          assert.same(out_shape(x.shape, ax, keep), y.shape)
          local ey, ez = {}, {}
          for _, g in ipairs(groups(x.shape, ax)) do
            local s = 0
            for _, p in ipairs(g) do s = s + xv[p] * xv[p] end
            ey[#ey + 1], ez[#ez + 1] = math.sqrt(s), s
          end
          helper.assert_same(ey, values(y), dt == "float32" and 2e-5 or 1e-12)
          helper.assert_same(ez, values(z), dt == "float32" and 2e-5 or 1e-12)
        end
      end
      local bflat, bx = big_input((1 << 20) + 3, dt)
      local s = 0
      for _, v in ipairs(bflat) do s = s + v * v end
      local r = l2(bx)
      assert.equal(0, r.ndim)
      helper.assert_same({ math.sqrt(s) }, { r:item() }, 1e-5)
      assert.equal(r:tobytes(), l2(bx):tobytes())
    end
  end)

  gpu_it("broadcasts inputs, takes scalars, positional and out= outputs", function()
    local k = ga.ReductionKernel("T x, T y, float64 w", "float64 z", "(x - y) * (x - y) * w", "a + b", "z = a",
                                 "0", "wsqdiff")
    local xa = rand_list(12, "float32")
    local ya = rand_list(4, "float32")
    local x = ga.array(nest(xa, { 3, 4 }), "float32")
    local y = ga.array(ya, "float32")
    local z = k(x, y, 2.5, { axis = 2 })
    assert.equal("float64", z.dtype)
    local exp = {}
    for i = 1, 3 do
      local s = 0
      for j = 1, 4 do s = s + (xa[(i - 1) * 4 + j] - ya[j]) ^ 2 * 2.5 end
      exp[i] = s
    end
    helper.assert_same(exp, z:totable(), 1e-6)
    local out = ga.empty(3, "float64")
    assert.equal(out, (k(x, y, 2.5, out, { axis = 2 })))
    helper.assert_same(exp, out:totable(), 1e-6)
    local out2 = ga.empty(3, "float64")
    k(x, y, 2.5, { axis = 2, out = out2 })
    helper.assert_same(exp, out2:totable(), 1e-6)
    helper.assert_gaerror(function() k(x, ga.array(ya, "float64"), 1) end, "wsqdiff: argument 'y' has dtype float64")
    helper.assert_gaerror(function() k(x, y, 1, ga.empty(4, "float64"), { axis = 2 }) end, "out has shape {4}")
    helper.assert_gaerror(function() k(x, y) end, "wsqdiff: takes 3 arguments")
    helper.assert_gaerror(function() k(x, ga.array({ 1, 2, 3 }, "float32"), 1) end, "cannot be broadcast")
  end)

  gpu_it("works without an identity, and refuses empty input then", function()
    local k = ga.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", nil, "maxnoid")
    local vals = rand_list(3000, "float32", -5, -1)       -- all negative: a 0 start would show
    local m = -math.huge
    for _, v in ipairs(vals) do m = math.max(m, v) end
    assert.equal(m, k(ga.array(vals, "float32")):item())
    helper.assert_gaerror(function() k(ga.zeros(0, "float32")) end,
                          "maxnoid: zero-size array to reduction operation maxnoid which has no identity")
  end)

  gpu_it("reports compile errors with the user's expression", function()
    local bad = ga.ReductionKernel("T x", "T y", "x * * x", "a + b", "y = a", "0", "broken_map")
    local err = helper.assert_gaerror(function() bad(ga.ones(3, "float32")) end, "broken_map: compile error")
    assert.is_truthy(err:find("x * * x", 1, true))
  end)
end)
