-- Compatibility with NumPy's promotion (issue 15): a {re, im} pair in where
-- and clip, ufunc loops picked by dtype=, and result_type of many operands
-- independent of their order. The dtype rules run without a GPU (empty
-- arrays need no device); the values need one.
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it

local function empty(t, shape) return ga.empty(shape or 0, t) end

describe("compat: a {re, im} pair in where and clip", function()
  it("is a complex weak scalar, as in the ufuncs", function()
    local c = empty("bool", { 2, 0 })
    local z = ga.where(c, empty("float32"), { 1, 2 })
    assert.equal("complex64", z.dtype)
    assert.same({ 2, 0 }, z.shape)      -- a scalar: not a 2-element array
    assert.equal("complex128", ga.where(c, { 0.5, -1 }, empty("int16")).dtype)
    assert.equal("complex128", ga.where(c, empty("float64"), { 1, 2 }).dtype)
    assert.equal("complex128", ga.where(c, { 1, 2 }, { 3, 4 }).dtype)
    assert.equal("complex64", ga.where(c, { 1, 2 }, { 3, 4 }, { dtype = "complex64" }).dtype)
    assert.equal("complex64", ga.clip(empty("float32"), { 0, 0 }, { 1, 1 }).dtype)
    assert.equal("complex128", ga.clip(empty("int8"), nil, { 1, 1 }).dtype)
    assert.same({ 3, 0 }, ga.clip(empty("complex64", { 3, 0 }), { 0, 0 }, nil).shape)
    helper.assert_gaerror(function() ga.where(c, empty("float32"), { 1, 2 }, { dtype = "float32" }) end,
                          "where: cannot cast a complex {re, im} pair to float32")
  end)

  gpu_it("selects the pair where the mask is false", function()
    for _, t in ipairs { "float32", "int16" } do
      local n = math.random(20, 60)
      local m, x = {}, {}
      for i = 1, n do
        m[i] = math.random() < 0.5
        x[i] = t == "int16" and math.random(-300, 300) or math.random(-400, 400) / 8
      end
      local pair = { math.random(-40, 40) / 4, math.random(-40, 40) / 4 }
      local z = ga.where(ga.array(m), ga.array(x, t), pair)
      assert.equal(t == "int16" and "complex128" or "complex64", z.dtype)
      assert.same({ n }, z.shape)
      local want = {}
      for i = 1, n do want[i] = m[i] and { x[i], 0 } or pair end
      helper.assert_same(want, z:totable())
      local w = ga.where(ga.array(m), pair, ga.array(x, t))
      for i = 1, n do want[i] = m[i] and pair or { x[i], 0 } end
      helper.assert_same(want, w:totable())
    end
  end)

  gpu_it("clips between {re, im} bounds in NumPy's lexicographic order", function()
    local function lt(a, b) return a[1] < b[1] or (a[1] == b[1] and a[2] < b[2]) end
    local lo, hi = { -0.5, 1 }, { 1, -1 }
    local pool = { -1, -0.5, 0, 0.5, 1, 2 }
    local vals, want = {}, {}
    for i = 1, 50 do
      local v = { pool[math.random(#pool)], pool[math.random(#pool)] }
      vals[i] = v
      local r = lt(v, lo) and lo or v
      want[i] = lt(hi, r) and hi or r
    end
    local z = ga.clip(ga.array(vals, "complex64"), lo, hi)
    assert.equal("complex64", z.dtype)
    helper.assert_same(want, z:totable())
  end)
end)

describe("compat: ufunc loops picked by dtype=", function()
  local function resolve(name, ...) return ga._core.elementwise.resolve(ga[name], ...) end

  it("takes the loop giving that dtype whose inputs the operands cast to safely", function()
    -- NumPy's type_tuple_type_resolver: divide's BB->d for uint8 and 3
    assert.same({ "float64", "BB->d" }, { resolve("divide", "uint8", 3, { dtype = "float64" }) })
    assert.same({ "float64", "hh->d" }, { resolve("divide", "uint8", -3, { dtype = "float64" }) })
    assert.same({ "float64", "ll->d" }, { resolve("true_divide", "int64", "int8", { dtype = "float64" }) })
    assert.same({ "float32", "ff->f" }, { resolve("divide", "int8", "uint8", { dtype = "float32" }) })
    assert.same({ "float64", "dd->d" }, { resolve("add", "uint8", 3, { dtype = "float64" }) })
    assert.same({ "float32", "ff->f" }, { resolve("multiply", "int16", 2, { dtype = "float32" }) })
    assert.same({ "float64", "d->d" }, { resolve("sqrt", "int32", { dtype = "float64" }) })
    assert.equal("float64", ga.divide(empty("uint8"), 3, { dtype = "float64" }).dtype)
    assert.equal("float64", ga.true_divide(empty("uint8", { 0, 2 }), 3, { dtype = "float64" }).dtype)
  end)

  it("else the loop all of that dtype, with same_kind input casting", function()
    assert.same({ "float32", "f->f" }, { resolve("sqrt", "int32", { dtype = "float32" }) })
    assert.same({ "float32", "ff->f" }, { resolve("divide", "float64", 2, { dtype = "float32" }) })
    assert.same({ "float16", "ee->e" }, { resolve("add", "int32", 1.5, { dtype = "float16" }) })
    assert.same({ "uint8", "BB->B" }, { resolve("add", "uint8", 300 - 299, { dtype = "uint8" }) })
    helper.assert_gaerror(function() resolve("add", "int8", 2.5, { dtype = "int8" }) end,
                          "cannot cast input 2 from float64 to int8")
    helper.assert_gaerror(function() resolve("add", "float32", "int8", { dtype = "int16" }) end,
                          "cannot cast input 1 from float32 to int16")
    helper.assert_gaerror(function() resolve("divide", "int64", "int64", { dtype = "int64" }) end,
                          "divide: no loop for dtype int64")
    helper.assert_gaerror(function() resolve("add", "uint8", 300, { dtype = "uint8" }) end, "300 does not fit uint8")
  end)

  gpu_it("computes in the dtype named", function()
    local n = math.random(30, 80)
    local a, b, q = {}, {}, {}
    for i = 1, n do
      a[i] = math.random(0, 255)
      b[i] = math.random(1, 90) * (math.random() < 0.5 and -1 or 1)
      q[i] = math.random(0, 10000)
    end
    local x = ga.array(a, "uint8")
    local d = ga.divide(x, 3, { dtype = "float64" })
    assert.equal("float64", d.dtype)
    local want = {}
    for i = 1, n do want[i] = a[i] / 3 end
    helper.assert_same(want, d:totable())
    local f = ga.divide(x, ga.array(b, "int8"), { dtype = "float32" })
    assert.equal("float32", f.dtype)
    for i = 1, n do want[i] = helper.to_f32(a[i] / b[i]) end
    helper.assert_same(want, f:totable(), 1e-6)
    local s = ga.sqrt(ga.array(q, "int32"), { dtype = "float64" })
    assert.equal("float64", s.dtype)
    for i = 1, n do want[i] = math.sqrt(q[i]) end
    helper.assert_same(want, s:totable(), 1e-15)
    local m = ga.multiply(x, 3, { dtype = "float32" })   -- no uint8 wrap-around
    for i = 1, n do want[i] = a[i] * 3 end
    helper.assert_same(want, m:totable())
    local p = ga.add(x, ga.array(b, "int8"), { dtype = "int16" })
    assert.equal("int16", p.dtype)
    for i = 1, n do want[i] = a[i] + b[i] end
    assert.same(want, p:totable())
  end)
end)

describe("compat: result_type of many operands", function()
  -- Derived by hand from NumPy 2's PyArray_PromoteDTypeSequence: the DType
  -- that handles all others (the highest in NumPy's type-number order, in
  -- which float16 comes last, or the Python float/complex over integers)
  -- is promoted with each operand, never with an intermediate result.
  local CASES = {
    { { "int16", "uint16", "float32" }, "float32" },         -- pairwise: int32, then float64
    { { "uint8", "int8", -3, "float16" }, "float16" },       -- pairwise: int16, float32
    { { "int8", "uint8", "float16" }, "float16" },
    { { "int16", "uint16", "float16" }, "float32" },
    { { "int8", "uint8", "int16", "float16" }, "float32" },
    { { "complex64", "int16", "uint16" }, "complex64" },     -- pairwise: int32, complex128
    { { "complex64", "float32", "uint8", "int8" }, "complex64" },
    { { "int32", "float32", "int16" }, "float64" },
    { { "uint32", "float16", "int8" }, "float64" },
    { { "int8", "uint64", "int64" }, "float64" },
    { { "uint8", "int8", "uint16" }, "int32" },
    { { "uint8", "int8", 300 }, "int16" },
    { { "bool", 1, 2.5 }, "float64" },
    { { "float16", "int16", { 0, 1 } }, "complex64" },
    { { "float16", "int8", 1.5 }, "float16" },
    { { "uint16", "int8", { 1, 2 } }, "complex128" },
    { { true, 1 }, "int64" },
    { { 1, 2.5, { 1, 1 } }, "complex128" },
  }

  local function permutations(t)
    local out = {}
    local function go(k)
      if k > #t then out[#out + 1] = { table.unpack(t, 1, #t) } return end
      for i = k, #t do
        t[k], t[i] = t[i], t[k]
        go(k + 1)
        t[k], t[i] = t[i], t[k]
      end
    end
    go(1)
    return out
  end

  it("gives NumPy's answer in every order", function()
    for _, case in ipairs(CASES) do
      for _, p in ipairs(permutations(case[1])) do
        local names = {}
        for i, v in ipairs(p) do names[i] = type(v) == "table" and "{re, im}" or tostring(v) end
        assert.equal(case[2], ga.result_type(table.unpack(p)), table.concat(names, ", "))
      end
    end
  end)

  it("does not depend on the order of any three operands", function()
    local ops = ga.dtype_names()
    for _, v in ipairs { 1, 2.5, { 1, 2 }, true } do ops[#ops + 1] = v end
    for a = 1, #ops do
      for b = a, #ops do
        for c = b, #ops do
          local ps = permutations { ops[a], ops[b], ops[c] }
          local first = ga.result_type(table.unpack(ps[1]))
          for i = 2, #ps do assert.equal(first, ga.result_type(table.unpack(ps[i]))) end
        end
      end
    end
    -- and longer random lists, shuffled
    local names = ga.dtype_names()
    for _ = 1, 200 do
      local list = {}
      for i = 1, math.random(4, 9) do list[i] = names[math.random(#names)] end
      local r = ga.result_type(table.unpack(list))
      for i = #list, 2, -1 do
        local j = math.random(i)
        list[i], list[j] = list[j], list[i]
      end
      assert.equal(r, ga.result_type(table.unpack(list)), table.concat(list, ", "))
    end
  end)

  it("is what concatenate, stack and clip give", function()
    for _, p in ipairs(permutations { "int16", "uint16", "float32" }) do
      local arrays = { empty(p[1]), empty(p[2]), empty(p[3]) }
      assert.equal("float32", ga.concatenate(arrays).dtype)
      assert.equal("float32", ga.stack(arrays).dtype)
    end
    for _, p in ipairs(permutations { "complex64", "int16", "uint16" }) do
      assert.equal("complex64", ga.concatenate({ empty(p[1]), empty(p[2]), empty(p[3]) }).dtype)
    end
    assert.equal("float32", ga.clip(empty("int16"), empty("uint16"), empty("float32")).dtype)
    assert.equal("float32", ga.clip(empty("float32"), empty("int16"), empty("uint16")).dtype)
    assert.equal("float16", ga.clip(empty("uint8"), empty("int8"), empty("float16")).dtype)
  end)

  gpu_it("concatenates mixed dtypes into the order-free result", function()
    local parts, want = {}, {}
    local dts = { "uint16", "float32", "int16" }
    for k, t in ipairs(dts) do
      local vals = {}
      for i = 1, math.random(3, 9) do
        vals[i] = t == "float32" and math.random(-800, 800) / 8 or math.random(0, 30000) * (t == "int16" and -1 or 1)
        want[#want + 1] = vals[i]
      end
      parts[k] = ga.array(vals, t)
    end
    local z = ga.concatenate(parts)
    assert.equal("float32", z.dtype)
    assert.same(want, z:totable())
  end)
end)
