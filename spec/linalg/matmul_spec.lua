-- ga.matmul against NumPy's definition computed in Lua (spec/linalg/lref.lua)
-- on fresh random inputs: every dtype family and every shape class (1-D
-- operands, batches with broadcasting, transposed and F-order operands,
-- zero-size axes), out=, TF32, and the errors.
local helper = require "helper"
local R = require "ndref"
local L = require "linalg.lref"
local ga = helper.ga
local core = ga._core

-- random values of dt; integers small enough to be interesting, not only wrapping
local function rand_model(shape, dt)
  local lo, hi = -1, 1
  local k = R.KIND[dt]
  if k == "i" then lo, hi = -9, 9 elseif k == "u" then lo, hi = 0, 9 end
  return { shape = shape, data = R.rand_list(R.size(shape), dt, lo, hi) }
end

local TOL = { float16 = 3e-3, float32 = 2e-6, float64 = 1e-13, complex64 = 2e-6, complex128 = 1e-13 }

local function check(got, A, B, dt, what)
  local want = L.matmul(A, B, dt)
  assert.are.same(want.shape, got.shape, what .. ": shape")
  assert.are.equal(dt, got.dtype, what .. ": dtype")
  local k = A.shape[#A.shape]
  L.assert_close(R.values(got), want.data, (TOL[dt] or 0) * math.max(1, math.sqrt(k)), what)
end

-- the shape classes: {a shape, b shape, how a is laid out, how b is}
local CASES = {
  { { 37 }, { 37 }, "c", "c", "1-D . 1-D" },
  { { 19 }, { 19, 7 }, "c", "c", "1-D . 2-D" },
  { { 6, 23 }, { 23 }, "c", "c", "2-D . 1-D" },
  { { 33, 65 }, { 65, 17 }, "c", "c", "2-D" },
  { { 3, 1, 5, 9 }, { 4, 9, 6 }, "c", "c", "batched, broadcast" },
  { { 2, 7, 8 }, { 8, 5 }, "c", "c", "batched . 2-D" },
  { { 12, 10 }, { 10, 9 }, "t", "f", "transposed a, F-order b" },
  { { 4, 6, 5 }, { 4, 5, 3 }, "f", "t", "batched F-order a, transposed b" },
  { { 9, 11 }, { 11, 5 }, "s", "c", "strided a (every other column)" },
  { { 0, 4 }, { 4, 3 }, "c", "c", "zero rows" },
  { { 5, 0 }, { 0, 3 }, "c", "c", "zero inner (zeros out)" },
  { { 2, 0, 3, 4 }, { 4, 2 }, "c", "c", "zero batch" },
}

-- model -> array laid out as asked: c C-order, t a transposed view of a
-- C-order array, f an F-order copy, s a strided view
local function layout(M, dt, how)
  local sh = M.shape
  if #sh < 2 or how == "c" then return R.to_gpu(M, dt) end
  if how == "f" then return R.to_gpu(M, dt):copy("F") end
  if how == "t" then
    local perm = {}
    for d = 1, #sh do perm[d] = d end
    perm[#sh - 1], perm[#sh] = #sh, #sh - 1
    local base = R.to_gpu(R.transpose(M, perm), dt)
    return base:swapaxes(-1, -2)
  end
  local wide = { table.unpack(sh) }
  wide[#wide] = 2 * sh[#sh]
  local big = R.to_gpu(R.build(wide, function(mi)
    local j = { table.unpack(mi) }
    if j[#j] % 2 == 0 then return R.rand_value(dt, 0, 1) end
    j[#j] = (j[#j] + 1) // 2
    return R.get(M, j)
  end), dt)
  local key = {}
  for d = 1, #sh - 1 do key[d] = {} end
  key[#sh] = { 1, -1, 2 }
  return big[key]
end

describe("linalg: matmul", function()
  it("rejects bad operands without a GPU too", function()
    helper.assert_gaerror(function() ga.matmul("x", "y") end, "matmul: x1 must be an array")
    helper.assert_gaerror(function() ga.set_matmul_precision("fast") end, "set_matmul_precision")
    assert.are.equal("highest", ga.get_matmul_precision())
  end)

  it("the integer GEMM kernel compiles for every integer dtype and bool (NVRTC, no GPU needed)", function()
    for _, dt in ipairs({ "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64" }) do
      assert.is_true(core._test.compile(core._test.matmul_int_source(dt), {}, 90) > 0, dt)
    end
    helper.assert_gaerror(function() core._test.matmul_int_source("float32") end, "integer or bool")
  end)

  for _, dt in ipairs({ "float32", "float64", "float16", "complex64", "complex128", "int32", "int8", "uint8",
    "int64", "bool" }) do
    helper.gpu_it(dt .. ": every shape class against a Lua matmul", function()
      for _, c in ipairs(CASES) do
        local A, B = rand_model(c[1], dt), rand_model(c[2], dt)
        local a, b = layout(A, dt, c[3]), layout(B, dt, c[4])
        check(ga.matmul(a, b), A, B, dt, dt .. " " .. c[5])
      end
    end)
  end

  helper.gpu_it("larger float32 and int32 products (several tiles) and mixed dtypes promote", function()
    local A, B = rand_model({ 130, 200 }, "float32"), rand_model({ 200, 70 }, "float32")
    check(ga.matmul(R.to_gpu(A, "float32"), R.to_gpu(B, "float32")), A, B, "float32", "130x200x70")
    local Ai, Bi = rand_model({ 100, 150 }, "int32"), rand_model({ 150, 130 }, "int32")
    check(ga.matmul(R.to_gpu(Ai, "int32"), R.to_gpu(Bi, "int32")), Ai, Bi, "int32", "int32 100x150x130")
    local r = ga.matmul(R.to_gpu(Ai, "int32"), R.to_gpu(Bi, "float64"))
    assert.are.equal("float64", r.dtype)
    check(r, Ai, Bi, "float64", "int32 @ float64")
  end)

  helper.gpu_it("out= receives the result (contiguous, or a view that needs a copy)", function()
    local A, B = rand_model({ 6, 5 }, "float64"), rand_model({ 5, 4 }, "float64")
    local a, b = R.to_gpu(A, "float64"), R.to_gpu(B, "float64")
    local out = ga.empty({ 6, 4 }, "float64")
    assert.are.equal(out, ga.matmul(a, b, { out = out }))
    check(out, A, B, "float64", "out contiguous")
    local big = ga.zeros({ 4, 6 }, "float64")
    local view = big:transpose()
    ga.matmul(a, b, { out = view })
    check(view, A, B, "float64", "out transposed view")
    helper.assert_gaerror(function() ga.matmul(a, b, { out = ga.empty({ 6, 5 }) }) end, "out has shape")
  end)

  helper.gpu_it("x:dot(y), ga.dot with N-D operands and a 0-d operand", function()
    local A, B = rand_model({ 2, 3, 4 }, "float64"), rand_model({ 5, 4, 2 }, "float64")
    local r = ga.dot(R.to_gpu(A, "float64"), R.to_gpu(B, "float64"))
    assert.are.same({ 2, 3, 5, 2 }, r.shape)
    local want = L.einsum("abk,ckd->abcd", A, B)
    L.assert_close(R.values(r), want.data, 1e-12, "dot N-D")
    local x = R.to_gpu(A, "float64")
    L.assert_close(R.values(x:dot(2)), R.values(x * 2), 0, "dot with a scalar")
    local v, w = rand_model({ 1000 }, "float32"), rand_model({ 1000 }, "float32")
    local d = R.to_gpu(v, "float32"):dot(R.to_gpu(w, "float32"))
    assert.are.same({}, d.shape)
    assert.are.equal("float32", d.dtype)
    L.assert_close({ d:item() }, L.matmul(v, w, "float64").data, 1e-5, "float32 vector dot")
  end)

  helper.gpu_it("TF32 is per state, opt-in, and close to the float32 result", function()
    local A, B = rand_model({ 64, 128 }, "float32"), rand_model({ 128, 32 }, "float32")
    ga.set_matmul_precision("tf32")
    local r = ga.matmul(R.to_gpu(A, "float32"), R.to_gpu(B, "float32"))
    ga.set_matmul_precision("highest")
    L.assert_close(R.values(r), L.matmul(A, B, "float64").data, 1e-2, "tf32")
  end)

  helper.gpu_it("shape errors name the shapes", function()
    helper.assert_gaerror(function() ga.matmul(ga.ones({ 2, 3 }), ga.ones({ 4, 2 })) end,
      "matmul: shapes {2,3} and {4,2} do not match")
    helper.assert_gaerror(function() ga.matmul(ga.ones({ 2, 2, 3 }), ga.ones({ 3, 3, 2 })) end,
      "cannot be broadcast")
    helper.assert_gaerror(function() ga.matmul(ga.ones({}), ga.ones(3)) end, "scalar operands")
  end)
end)
