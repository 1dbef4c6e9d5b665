-- ufunc methods on the GPU (API.md §14): reduce, accumulate, reduceat,
-- outer and at against Lua references on fresh random data (every path:
-- the built-in reductions, ReductionKernels over the ufuncs' loops, the
-- in-order fold, the scan engine, the chunked scans, the warp and thread
-- segments, native atomics and compare-and-swap loops), NumPy's dtype
-- rules, where=/initial=/keepdims/out, and the errors; fixed cases carry
-- NumPy 1.24's answers. 1-based axes and indices throughout.
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it

local nan, inf = 0 / 0, math.huge

--- a random flat list of n values (floats in [-5, 5) or integers in [lo, hi])
local function rand(n, lo, hi)
  local t = {}
  for i = 1, n do
    t[i] = lo and math.random(lo, hi) or (math.random() * 10 - 5)
  end
  return t
end

local function prod(shape)
  local p = 1
  for _, n in ipairs(shape) do p = p * n end
  return p
end

-- nested table of shape from a flat list (C order)
local function nest(flat, shape)
  local function build(d, off)
    if d > #shape then return flat[off + 1], off + 1 end
    local t = {}
    local stride = prod({ table.unpack(shape, d + 1) })
    for i = 1, shape[d] do t[i] = (build(d + 1, off + (i - 1) * stride)) end
    return t
  end
  if #shape == 0 then return flat[1] end
  return (build(1, 0))
end

--- the reference of reducing axis a (1-based) of flat (shape) with f(acc, v),
-- in order, optionally starting from init; returns flat result and shape
local function ref_reduce(flat, shape, a, f, init)
  local outer = prod({ table.unpack(shape, 1, a - 1) })
  local n = shape[a]
  local inner = prod({ table.unpack(shape, a + 1) })
  local r = {}
  for o = 0, outer - 1 do
    for i = 0, inner - 1 do
      local acc = init
      for k = 0, n - 1 do
        local v = flat[(o * n + k) * inner + i + 1]
        if acc == nil then acc = v else acc = f(acc, v) end
      end
      r[#r + 1] = acc
    end
  end
  local s = {}
  for d, m in ipairs(shape) do if d ~= a then s[#s + 1] = m end end
  return r, s
end

local function close(want, got, rtol, what)
  local ok, msg = helper.same(want, got, rtol)
  assert(ok, (what or "") .. ": " .. tostring(msg))
end

-- |want - got| <= atol element by element (NaN matches NaN): for sums in
-- another order, whose partial results may cancel to near zero
local function near(want, got, atol, what)
  assert.equal(#want, #got, what)
  for i = 1, #want do
    local w, g = want[i], got[i]
    local ok = (w ~= w and g ~= g) or w == g or math.abs(w - g) <= atol
    assert(ok, ("%s [%d]: got %s, want %s"):format(what, i, tostring(g), tostring(w)))
  end
end

local add = function(a, b) return a + b end
local sub = function(a, b) return a - b end
local max = function(a, b) return (a >= b or a ~= a) and a or b end

describe("ufunc.reduce", function()
  gpu_it("matches in-order Lua folds on every path, with NumPy's dtypes", function()
    local shape = { 3, 4, 5 }
    local h = rand(60)
    local x = ga.array(nest(h, shape), "float64")
    -- default axis 1 (NumPy's 0), by both call forms
    local want, ws = ref_reduce(h, shape, 1, add)
    -- sums in another order: absolute tolerances (partial sums may cancel)
    near(want, helper.flatten(ga.add.reduce(x):totable()), 1e-12, "add.reduce")
    near(want, helper.flatten(ga.add:reduce(x):totable()), 1e-12, "add:reduce")
    -- every single axis, negative ones, keepdims
    for _, a in ipairs { 2, 3, -1 } do
      local pa = a > 0 and a or 3 + a + 1
      want, ws = ref_reduce(h, shape, pa, max)
      close(nest(want, ws), ga.maximum.reduce(x, a):totable(), 0, "maximum.reduce axis " .. a)
    end
    local r = ga.add.reduce(x, 2, nil, nil, true)
    assert.same({ 3, 1, 5 }, r.shape)
    -- several axes of a reorderable ufunc; every axis
    local h2, s2 = ref_reduce(h, shape, 3, add)
    want = ref_reduce(h2, s2, 1, add)
    near(want, ga.add.reduce(x, { 1, 3 }):totable(), 1e-11, "add.reduce {1,3}")
    near({ ga.sum(x):item() }, { ga.add.reduce(x, { 1, 2, 3 }):item() }, 1e-12, "all axes")
    -- the in-order fold of a ufunc that cannot reorder
    want, ws = ref_reduce(h, shape, 2, sub)
    close(nest(want, ws), ga.subtract.reduce(x, 2):totable(), 1e-12, "subtract.reduce")
    helper.assert_gaerror(function() ga.subtract.reduce(x, { 1, 2 }) end,
      "subtract.reduce: reduction operation 'subtract' is not reorderable, so at most one axis may be specified")
    -- the generic ReductionKernels
    local hi = rand(60, -1000, 1000)
    local xi = ga.array(nest(hi, shape), "int32")
    local function gcd(a, b)
      a, b = math.abs(a), math.abs(b)
      while a ~= 0 do a, b = b % a, a end
      return b
    end
    want, ws = ref_reduce(hi, shape, 3, gcd)
    close(nest(want, ws), ga.gcd.reduce(xi, 3):totable(), nil, "gcd.reduce")
    want, ws = ref_reduce(hi, shape, 1, function(a, b) return a | b end)
    close(nest(want, ws), ga.bitwise_or.reduce(xi):totable(), nil, "bitwise_or.reduce")
    local function lae(a, b)
      if a == b then return a + math.log(2) end
      local m = math.max(a, b)
      return m + math.log(1 + math.exp(-math.abs(a - b)))
    end
    want, ws = ref_reduce(h, shape, 2, lae)
    near(want, helper.flatten(ga.logaddexp.reduce(x, 2):totable()), 1e-12, "logaddexp.reduce")
  end)

  gpu_it("a float array's add, multiply, maximum reduce are the built-in reductions' bits", function()
    -- one axis, no out or keepdims: the reductions' C fast path f(x, axis)
    local x = ga.random.random({ 300, 5000 }, "float32")
    local v = ga.random.random(1 << 20, "float32")
    assert.equal(ga.sum(v):item(), ga.add.reduce(v):item(), "add.reduce of 2^20 float32")
    assert.same(ga.sum(x, 2):totable(), ga.add.reduce(x, 2):totable(), "add.reduce axis 2")
    assert.same(ga.sum(x, 1):totable(), ga.add.reduce(x):totable(), "add.reduce axis 1")
    assert.same(ga.prod(x, 1):totable(), ga.multiply.reduce(x):totable(), "multiply.reduce axis 1")
    assert.same(ga.max(x, 2):totable(), ga.maximum.reduce(x, 2):totable(), "maximum.reduce axis 2")
    assert.equal("float32", ga.add.reduce(v).dtype)
    assert.same({}, ga.add.reduce(v).shape)
    assert.same({ 5000 }, ga.add.reduce(x).shape)
  end)

  gpu_it("follows NumPy's dtype rules", function()
    local i8 = ga.array({ 100, 100, 100 }, "int8")
    local r = ga.add.reduce(i8)
    assert.equal("int64", r.dtype)
    assert.equal(300, r:item())
    assert.equal("uint64", ga.multiply.reduce(ga.array({ 2, 3 }, "uint16")).dtype)
    assert.equal("int8", ga.maximum.reduce(i8).dtype)
    r = ga.divide.reduce(ga.array({ 1, 2, 3 }, "int8"))
    assert.equal("float64", r.dtype)
    close({ 1 / 6 }, { r:item() }, 1e-15, "divide.reduce int8")
    assert.equal("float16", ga.arctan2.reduce(ga.array({ 1, 2, 3 }, "int8")).dtype)
    r = ga.logical_and.reduce(ga.array({ 1, 2, 0 }, "int32"))
    assert.equal("bool", r.dtype)
    assert.is_false(r:item())
    assert.equal("int8", ga.subtract.reduce(i8).dtype)
    assert.equal(-100, ga.subtract.reduce(i8):item())
    -- dtype= runs the reduction in that dtype; out= takes the result
    assert.equal("float32", ga.add.reduce(i8, 1, "float32").dtype)
    local out = ga.empty({}, "float64")
    assert.equal(out, ga.add.reduce(i8, 1, nil, out))
    assert.equal(300.0, out:item())
    helper.assert_gaerror(function() ga.equal.reduce(ga.array({ 1, 2 }, "int32")) end, "equal.reduce: no loop of equal")
    helper.assert_gaerror(function() ga.subtract.reduce(ga.array({ true, false })) end, "subtract.reduce")
    helper.assert_gaerror(function() ga.add.reduce(i8, 2) end, "add.reduce: axis 2 is out of range")
  end)

  gpu_it("takes where= and initial=, and empty reductions as NumPy", function()
    local x = ga.arange(6, "float64"):reshape(2, 3)
    local m = ga.array({ true, false, true })
    assert.same({ 2, 8 }, ga.add.reduce(x, 2, nil, nil, false, nil, m):totable())
    assert.same({ 8, 8 }, ga.add.reduce(ga.ones({ 2, 3 }), 2, nil, nil, false, 5):totable())
    assert.same({ 7, 13 }, ga.add.reduce(x, 2, nil, nil, false, 5, m):totable())
    helper.assert_gaerror(function() ga.maximum.reduce(ga.ones(3), { where = m }) end,
      "maximum.reduce: reduction operation 'maximum' does not have an identity, so to use a where mask one has to "
      .. "specify 'initial'")
    assert.equal(1.0, ga.maximum.reduce(ga.ones(3), { where = m, initial = -5 }):item())
    assert.equal(-5.0, ga.maximum.reduce(ga.ones(3), { where = false, initial = -5 }):item())
    assert.equal(-5.0, ga.maximum.reduce(ga.ones(0), { initial = -5 }):item())
    helper.assert_gaerror(function() ga.maximum.reduce(ga.ones(0)) end,
      "maximum.reduce: zero-size array to reduction operation maximum which has no identity")
    assert.same({ 0, 0, 0 }, ga.add.reduce(ga.zeros({ 0, 3 })):totable())
    assert.same({ 1, 1, 1 }, ga.multiply.reduce(ga.zeros({ 0, 3 })):totable())
    -- where on the in-order fold (subtract) needs initial too
    assert.same({ 10 - 0 - 2, 10 - 3 - 5 }, ga.subtract.reduce(x, 2, nil, nil, false, 10, m):totable())
    -- axis {} reduces nothing
    assert.same({ { 0, 1, 2 }, { 3, 4, 5 } }, ga.add.reduce(x, {}):totable())
    -- NaN: maximum propagates, fmax ignores
    local xn = ga.array({ 1, nan, 3 })
    assert.is_true(ga.maximum.reduce(xn):item() ~= ga.maximum.reduce(xn):item())
    assert.equal(3.0, ga.fmax.reduce(xn):item())
  end)
end)

describe("ufunc.accumulate", function()
  gpu_it("matches running Lua folds: the scan engine, chunked scans and the in-order scan", function()
    local function running(t, f)
      local r, acc = {}, nil
      for i, v in ipairs(t) do
        acc = i == 1 and v or f(acc, v)
        r[i] = acc
      end
      return r
    end
    -- long 1-D rows take the chunked path (NaN included)
    local n = 5000 + math.random(0, 3000)
    local h = rand(n)
    h[math.random(n)] = nan
    local x = ga.array(h, "float64")
    close(running(h, max), ga.maximum.accumulate(x):totable(), 0, "maximum.accumulate 1-D")
    local hs = {}
    for i, v in ipairs(h) do hs[i] = v == v and v or 0 end
    local xs = ga.array(hs, "float64")
    near(running(hs, add), ga.add.accumulate(xs):totable(), 1e-9, "add.accumulate 1-D")
    -- every axis of a 2-D array, the in-order subtract
    local shape = { 37, 29 }
    local h2 = rand(37 * 29)
    local x2 = ga.array(nest(h2, shape), "float32")
    local y = ga.subtract.accumulate(x2, 2):totable()
    for i = 1, 37 do
      local row = {}
      for j = 1, 29 do row[j] = helper.to_f32(h2[(i - 1) * 29 + j]) end
      near(running(row, sub), y[i], 5e-4, "subtract.accumulate row " .. i)
    end
    local yc = ga.minimum.accumulate(x2, 1):totable()
    for j = 1, 29 do
      local col, got = {}, {}
      for i = 1, 37 do col[i], got[i] = helper.to_f32(h2[(i - 1) * 29 + j]), yc[i][j] end
      close(running(col, function(a, b) return (a <= b or a ~= a) and a or b end), got, 0, "minimum col " .. j)
    end
    -- integers: add widens (the scan engine), bitwise_xor keeps the dtype
    local i8 = ga.array({ 100, 100, 100 }, "int8")
    local r = ga.add.accumulate(i8)
    assert.equal("int64", r.dtype)
    assert.same({ 100, 200, 300 }, r:totable())
    local hi = rand(3000, 0, 255)
    r = ga.bitwise_xor.accumulate(ga.array(hi, "uint8"))
    assert.equal("uint8", r.dtype)
    close(running(hi, function(a, b) return a ~ b end), r:totable(), nil, "bitwise_xor.accumulate")
    -- out= and dtype=
    local out = ga.empty(3, "float64")
    assert.equal(out, ga.multiply.accumulate(ga.array({ 2, 3, 4 }, "int32"), 1, nil, out))
    assert.same({ 2, 6, 24 }, out:totable())
    assert.same({ true, true, false, false }, ga.logical_and.accumulate(ga.array({ 1, 2, 0, 3 })):totable())
    helper.assert_gaerror(function() ga.add.accumulate(ga.ones({ 2, 2 }), { 1, 2 }) end, "add.accumulate: axis must be")
  end)
end)

describe("ufunc.reduceat", function()
  it("a Lua list of indices may be longer than a shape (64 entries)", function()
    local int_list = require("gpuarray.internal").int_list
    local long = {}
    for i = 1, 500 do long[i] = i end
    assert.equal(500, #int_list(long, "ufunc.reduceat", "indices", math.huge))
    helper.assert_gaerror(function() int_list(long, "f", "axes") end, "f: axes has 500 entries (at most 64)")
    long[300] = 1.5
    helper.assert_gaerror(function() int_list(long, "f", "indices", math.huge) end, "f: indices must be an integer")
  end)

  gpu_it("matches NumPy on its examples (1-based indices)", function()
    local x = ga.arange(8, "float64")
    assert.same({ 6, 4, 10, 18 }, ga.add.reduceat(x, { 1, 5, 2, 6 }):totable())
    assert.same({ 6, 4, 15, 7 }, ga.add.reduceat(x, { 1, 5, 5, 8 }):totable())
    assert.same({ 18 }, ga.add.reduceat(x, { 6 }):totable())
    assert.same({ -3, -6, -1 }, ga.subtract.reduceat(x, { 1, 4, 7 }):totable())
    assert.same({ { 1, 5 }, { 9, 13 }, { 17, 21 } },
                ga.add.reduceat(ga.arange(12, "float64"):reshape(3, 4), { 1, 3 }, 2):totable())
    assert.equal("int64", ga.add.reduceat(ga.arange(8, "int8"), { 1, 4 }).dtype)
    assert.same({ 6, 4, 10, 18 }, ga.add.reduceat(x, ga.array({ 1, 5, 2, 6 }, "int32")):totable())
    helper.assert_gaerror(function() ga.add.reduceat(x, { 9 }) end,
                          "add.reduceat: index 9 out-of-bounds in add.reduceat [1, 8]")
    helper.assert_gaerror(function() ga.add.reduceat(x, ga.array({ 0 })) end, "index 0 out-of-bounds")
  end)

  gpu_it("matches Lua on random segments, short and long, on both kernel paths", function()
    local n = 4000 + math.random(0, 1000)
    local h = rand(n)
    local x = ga.array(h, "float64")
    local idx = { 1 }
    while idx[#idx] < n do idx[#idx + 1] = math.min(n, idx[#idx] + math.random(1, 100)) end
    if math.random() < 0.5 then idx[#idx + 1] = idx[#idx - 1] end     -- a descending pair
    -- the warp path sums in another order (absolute tolerance); the thread
    -- path folds in Lua's order: the same bits
    for _, c in ipairs { { "add", add, 1e-11 }, { "maximum", max, 0 }, { "subtract", sub, 0 } } do
      local want = {}
      for i, s in ipairs(idx) do
        local e = i < #idx and idx[i + 1] - 1 or n
        if e < s then e = s end
        local acc = h[s]
        for k = s + 1, e do acc = c[2](acc, h[k]) end
        want[i] = acc
      end
      near(want, ga[c[1]].reduceat(x, idx):totable(), c[3], c[1] .. ".reduceat")
    end
  end)
end)

describe("ufunc.outer", function()
  gpu_it("applies the ufunc to every pair, A's axes then B's", function()
    local a, b = ga.array({ 1, 2 }), ga.array({ { 1, 2, 3 } })
    local r = ga.multiply.outer(a, b)
    assert.same({ 2, 1, 3 }, r.shape)
    assert.same({ { { 1, 2, 3 } }, { { 2, 4, 6 } } }, r:totable())
    assert.equal("int16", ga.add.outer(ga.array({ 1 }, "int8"), ga.array({ 2 }, "int16")).dtype)
    assert.same({ 3, 4 }, ga.add.outer(1, ga.array({ 2, 3 })):totable())
    local out = ga.empty({ 2, 2 }, "float32")
    assert.equal(out, ga.subtract.outer(ga.array({ 1, 2 }), ga.array({ 10, 20 }), out))
    assert.same({ { -9, -19 }, { -8, -18 } }, out:totable())
    assert.equal("float32", ga.maximum.outer(ga.array({ 1, 2 }), ga.array({ 3 }), { dtype = "float32" }).dtype)
  end)
end)

describe("ufunc.at", function()
  gpu_it("applies once per occurrence of an index, as NumPy (1-based, negative from the end)", function()
    local a = ga.zeros(5)
    ga.add.at(a, { 1, 1, 3, -1 }, 1)
    assert.same({ 2, 0, 1, 0, 1 }, a:totable())
    a = ga.arange(3, "float64")
    ga.negative.at(a, { 1, 1, 3 })
    assert.same({ 0, 1, -2 }, a:totable())
    a = ga.zeros({ 2, 3 })
    ga.add.at(a, { ga.array({ 1, 2, 2 }), ga.array({ 3, 1, 1 }) }, 1)
    assert.same({ { 0, 0, 1 }, { 2, 0, 0 } }, a:totable())
    a = ga.zeros({ 2, 3 })
    ga.add.at(a, { 2, 2 }, { 1, 2, 3 })
    assert.same({ { 0, 0, 0 }, { 2, 4, 6 } }, a:totable())
    a = ga.zeros(3, "uint8")
    ga.add.at(a, { 1 }, -1)
    assert.same({ 255, 0, 0 }, a:totable())
    helper.assert_gaerror(function() ga.add.at(ga.zeros(3), { 1 }) end, "add.at: second operand needed for ufunc")
    helper.assert_gaerror(function() ga.add.at(ga.zeros(3), { 1.5 }, 1) end, "add.at")
  end)

  gpu_it("add.at of many updates into a small 1-D array (the private shared-memory copies)", function()
    -- more bins than the private part holds (49152 float32, 24576 float64):
    -- the rest take global atomics; negative indices wrap; an untouched
    -- bin keeps its -0.0; a NaN reaches its bin
    local bins = 50000 + math.random(0, 20000)
    local n = (1 << 20) + math.random(0, 4096)
    local hidx = rand(n, 1, bins)
    for i = 1, n, 97 do hidx[i] = hidx[i] - bins - 1 end        -- -bins .. -1: the same bins, wrapped
    local hv = rand(n)
    local untouched = math.random(1, bins)
    for i = 1, n do
      local b = hidx[i] < 0 and hidx[i] + bins + 1 or hidx[i]
      if b == untouched then hidx[i] = untouched % bins + 1 end
    end
    local nanbin = untouched % bins + 1
    hv[1], hidx[1] = 0 / 0, nanbin
    local idx = ga.array(hidx, "int64")
    for _, c in ipairs { { "float32", 1e-3 }, { "float64", 1e-9 } } do
      local dt, tol = c[1], c[2]
      local want = {}
      for b = 1, bins do want[b] = 0 end
      for i = 1, n do
        local b = hidx[i] < 0 and hidx[i] + bins + 1 or hidx[i]
        want[b] = want[b] + (dt == "float32" and helper.to_f32(hv[i]) or hv[i])
      end
      local a = ga.zeros(bins, dt)
      a[untouched] = -0.0
      ga.add.at(a, idx, ga.array(hv, dt))
      local got = a:totable()
      assert.equal(dt, a.dtype)
      assert.equal(-math.huge, 1 / got[untouched], dt .. ": the untouched bin keeps -0.0")
      assert.is_true(got[nanbin] ~= got[nanbin], dt .. ": the NaN reached its bin")
      for b = 1, bins do
        if b ~= untouched and b ~= nanbin then
          local w, g = want[b], got[b]
          assert(math.abs(w - g) <= tol * math.max(10, math.abs(w)),
                 ("add.at %s bin %d of %d: got %s, want %s"):format(dt, b, bins, tostring(g), tostring(w)))
        end
      end
    end
    -- int32: exact counts
    local a = ga.zeros(bins, "int32")
    ga.add.at(a, idx, ga.ones(n, "int32"))
    local counts = {}
    for b = 1, bins do counts[b] = 0 end
    for i = 1, n do
      local b = hidx[i] < 0 and hidx[i] + bins + 1 or hidx[i]
      counts[b] = counts[b] + 1
    end
    assert.same(counts, a:totable())
  end)

  gpu_it("accumulates random repeated indices: native atomics, CAS loops and the serial complex128 path", function()
    local n, bins = 20000 + math.random(0, 5000), 97
    local hidx, hv = rand(n, 1, bins), rand(n)
    local idx = ga.array(hidx, "int64")
    for _, c in ipairs { { "add", "float32", add, 1e-3 }, { "add", "float64", add, 1e-9 },
                         { "maximum", "float64", max, 0 },
                         { "maximum", "float32", max, 0 }, { "multiply", "float64", nil, 1e-9 } } do
      local name, dt, f, tol = c[1], c[2], c[3], c[4]
      local init = name == "maximum" and -inf or (name == "multiply" and 1 or 0)
      local vals = hv
      if name == "multiply" then
        vals = {}
        for i = 1, n do vals[i] = 1 + (hv[i] / 5000) end    -- products stay near 1
        f = function(a, b) return a * b end
      end
      local want = {}
      for b = 1, bins do want[b] = init end
      for i = 1, n do want[hidx[i]] = f(want[hidx[i]], vals[i]) end
      local a = ga.full(bins, init, dt)
      ga[name].at(a, idx, ga.array(vals, dt))
      local got = a:totable()
      for b = 1, bins do
        local w, g = want[b], got[b]
        local ok = w == g or math.abs(w - g) <= tol * math.max(1, math.abs(w))
        if name == "maximum" then ok = helper.to_f32(w) == g or w == g or dt == "float16" end
        assert(ok, ("%s.at %s bin %d: got %s, want %s"):format(name, dt, b, tostring(g), tostring(w)))
      end
    end
    -- float16 (a CAS on the 32-bit word): counts, exact in float16
    local a16 = ga.zeros(bins, "float16")
    ga.add.at(a16, idx, 1)
    local counts = {}
    for b = 1, bins do counts[b] = 0 end
    for i = 1, n do counts[hidx[i]] = counts[hidx[i]] + 1 end
    assert.same(counts, a16:totable())
    -- integers: atomicMax, a narrow CAS (uint8 minimum), bitwise on int16, complex128 multiply (serial)
    local hi = rand(n, -1000, 1000)
    local a = ga.full(bins, -10000, "int32")
    ga.maximum.at(a, idx, ga.array(hi, "int32"))
    local want = {}
    for b = 1, bins do want[b] = -10000 end
    for i = 1, n do want[hidx[i]] = math.max(want[hidx[i]], hi[i]) end
    assert.same(want, a:totable())
    local hu = rand(n, 0, 255)
    a = ga.full(bins, 255, "uint8")
    ga.minimum.at(a, idx, ga.array(hu, "uint8"))
    for b = 1, bins do want[b] = 255 end
    for i = 1, n do want[hidx[i]] = math.min(want[hidx[i]], hu[i]) end
    assert.same(want, a:totable())
    a = ga.zeros(bins, "int16")
    ga.bitwise_or.at(a, idx, ga.array(hu, "int16"))
    for b = 1, bins do want[b] = 0 end
    for i = 1, n do want[hidx[i]] = want[hidx[i]] | hu[i] end
    assert.same(want, a:totable())
    local m = 200
    a = ga.array({ { 1, 0 }, { 0, 1 } }, "complex128")
    local ci = rand(m, 1, 2)
    ga.multiply.at(a, ga.array(ci, "int64"), ga.array({ 0, 1 }, "complex128"))   -- multiply by i each time
    local count = { 0, 0 }
    for i = 1, m do count[ci[i]] = count[ci[i]] + 1 end
    local pw = { { 1, 0 }, { 0, 1 }, { -1, 0 }, { 0, -1 } }
    local got = a:totable()
    assert.same(pw[count[1] % 4 + 1], got[1])
    local p2 = pw[count[2] % 4 + 1]
    assert.same({ -p2[2] + 0.0, p2[1] + 0.0 }, { got[2][1] + 0.0, got[2][2] + 0.0 })
  end)
end)
