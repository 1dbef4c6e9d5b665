-- bfloat16 on the device (API.md §17), against CPU references written in
-- Lua (spec/bf16/bfref.lua: round to nearest even on float32's bits, one
-- rounding of a double or an integer) and against float32 on the same
-- GPU: creation and casts bit for bit, item/totable/indexing, every ufunc
-- with a bfloat16 loop against its float32 loop rounded once, reductions
-- and scans exact where float32 is, matmul within bfloat16's tolerance,
-- sorting, random, DLPack, the four kernel kinds, fuse, and the errors of
-- fft and .npy. Every failure message carries the inputs.
local helper = require "helper"
local R = require "spec.bf16.bfref"
local ga = helper.ga
local gpu_it = helper.gpu_it
local internal = require "gpuarray.internal"

--- the bits of a bfloat16 array (C order), read through tobytes
local function bits_of(x)
  local s, out = x:tobytes(), {}
  for i = 1, #s // 2 do out[i] = (string.unpack("<I2", s, 2 * i - 1)) end
  return out
end

local function flat(x) return helper.flatten(x:totable()) end

local function fmt(v) return ("%.9g"):format(v) end

--- equal as numbers, NaN to NaN, zeros by sign
local function same_value(a, b)
  if a ~= a then return b ~= b end
  if a == 0 and b == 0 then return 1 / a == 1 / b end
  return a == b
end

--- n random bfloat16 values of moderate size, with the special ones first
local SPECIAL = { 0.0, -0.0, 1.0, -1.0, 0.5, 2.0, math.huge, -math.huge, 0 / 0, R.MAX, R.TINY, R.SUB }
local function values(n, lo, hi, specials)
  local t = {}
  if specials ~= false then
    for i, v in ipairs(SPECIAL) do t[i] = v end
  end
  while #t < n do t[#t + 1] = R.random_bf16(lo, hi) end
  return t
end

describe("bfloat16 on the GPU", function()
  gpu_it("creates arrays from Lua numbers, rounding each value once", function()
    local src = {}
    for i = 1, 3000 do
      -- doubles of random bits over bfloat16's range, and some integers
      if i % 5 == 0 then src[i] = math.random(-(1 << 40), 1 << 40)
      else
        local v = (math.random(1 << 52, (1 << 53) - 1) + 0.0) * 2.0 ^ (math.random(-140, 120) - 52)
        src[i] = math.random(2) == 1 and -v or v
      end
    end
    local x = ga.array(src, "bfloat16")
    assert.equal("bfloat16", x.dtype)
    assert.equal(2, x.itemsize)
    local got, bits = flat(x), bits_of(x)
    for i, v in ipairs(src) do
      local want = math.type(v) == "integer" and R.round_int(v) or R.round(v)
      assert(got[i] == want, ("element %d: %s became %s, expected %s"):format(i, fmt(v), fmt(got[i]), fmt(want)))
      assert(bits[i] == R.bits(want), ("element %d: bits 0x%04x, expected 0x%04x"):format(i, bits[i], R.bits(want)))
    end
    assert.same({ 0, 0, 0 }, ga.zeros(3, "bfloat16"):totable())
    assert.same({ 1, 1 }, ga.ones(2, ga.bfloat16):totable())
    assert.same({ R.round(0.1), R.round(0.1) }, ga.full(2, 0.1, "bfloat16"):totable())
    assert.same({ 0, 0.5, 1, 1.5 }, ga.arange(0, 2, 0.5, "bfloat16"):totable())
    helper.assert_gaerror(function() ga.array({ 1e39 }, "bfloat16") end, "does not fit bfloat16")
  end)

  gpu_it("casts float32 to bfloat16 on the float32 bits (round to nearest even), and back exactly", function()
    local src = {}
    for i = 1, 20000 do src[i] = R.random_f32() end
    src[1], src[2], src[3], src[4] = 1 + 2 ^ -8, 1 + 3 * 2 ^ -8, 257, -0.0
    local x32 = ga.array(src, "float32")
    local xb = x32:astype("bfloat16")
    local bits = bits_of(xb)
    for i, v in ipairs(src) do
      assert(bits[i] == R.from_f32(v), ("float32 %s (0x%08x): bits 0x%04x, expected 0x%04x"):format(
        fmt(v), R.f32_bits(v), bits[i], R.from_f32(v)))
    end
    local back = flat(xb:astype("float32"))
    for i, b in ipairs(bits) do
      assert(same_value(back[i], R.value(b)), ("bits 0x%04x read back as %s"):format(b, fmt(back[i])))
    end
    -- strided and transposed copies take other kernels
    local m = ga.array(src, "float32"):reshape(100, 200)
    local t = m:transpose():astype("bfloat16")
    assert.same(flat(m:transpose():copy():astype("bfloat16")), flat(t))
    local s = m[{ {}, { 1, -1, 3 } }]:astype("bfloat16")
    assert.same(flat(m[{ {}, { 1, -1, 3 } }]:copy():astype("bfloat16")), flat(s))
  end)

  gpu_it("casts doubles and integers to bfloat16 with one rounding, and bfloat16 to every dtype", function()
    local d, n = {}, {}
    for i = 1, 5000 do
      local v = (math.random(1 << 52, (1 << 53) - 1) + 0.0) * 2.0 ^ (math.random(-140, 120) - 52)
      d[i] = math.random(2) == 1 and -v or v
      n[i] = math.random(math.mininteger, math.maxinteger) >> math.random(0, 62)
    end
    d[1] = 1 + 2 ^ -8 + 2 ^ -40            -- a double that float32 makes a tie
    n[1] = 16973823                        -- an integer that float32 makes a tie
    local gd = flat(ga.array(d, "float64"):astype("bfloat16"))
    for i, v in ipairs(d) do
      assert(gd[i] == R.round(v), ("float64 %.17g: %s, expected %s"):format(v, fmt(gd[i]), fmt(R.round(v))))
    end
    local gn = flat(ga.array(n, "int64"):astype("bfloat16"))
    for i, v in ipairs(n) do
      assert(gn[i] == R.round_int(v), ("int64 %d: %s, expected %s"):format(v, fmt(gn[i]), fmt(R.round_int(v))))
    end
    local n32 = {}
    for i = 1, 2000 do n32[i] = math.random(-(1 << 31), (1 << 31) - 1) end
    local g32 = flat(ga.array(n32, "int32"):astype("bfloat16"))
    for i, v in ipairs(n32) do assert(g32[i] == R.round_int(v), ("int32 %d: %s"):format(v, fmt(g32[i]))) end
    local xb = ga.array({ -3.75, -0.5, 0, 0.5, 2.5, 300, 1e30, 0 / 0 }, "bfloat16")
    assert.same({ -3, 0, 0, 0, 2, 300 }, { table.unpack(xb:astype("int32"):totable(), 1, 6) })
    assert.same({ true, true, false, true, true, true, true, true }, xb:astype("bool"):totable())
    assert.same({ -3.75, -0.5, 0, 0.5, 2.5, 300 }, { table.unpack(xb:astype("float16"):totable(), 1, 6) })
    assert.same({ -3.75, 0 }, xb:astype("complex64"):totable()[1])
    -- float16 to bfloat16: exact into float, one rounding
    local h = ga.array({ 1 / 3, 1000.5, 65504 }, "float16")
    local hv = h:totable()
    assert.same({ R.round(hv[1]), R.round(hv[2]), R.round(hv[3]) }, h:astype("bfloat16"):totable())
  end)

  gpu_it("reads and writes elements: item, totable, indexing, views, assignment", function()
    local x = ga.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "bfloat16")
    assert.equal(6, x[{ 2, 3 }])
    assert.same({ 2, 5 }, x[{ {}, 2 }]:totable())
    assert.same({ { 1, 4 }, { 2, 5 }, { 3, 6 } }, x:transpose():totable())
    x[{ 1, 2 }] = 0.1
    assert.equal(R.round(0.1), x[{ 1, 2 }])
    x[{ 2, {} }] = ga.array({ 7, 8, 9 }, "float32")
    assert.same({ { 1, R.round(0.1), 3 }, { 7, 8, 9 } }, x:totable())
    assert.equal(12, x.nbytes)
    local v = x:reshape(6)
    assert.equal("bfloat16", v.dtype)
    assert.same({ 1, R.round(0.1), 3, 7, 8, 9 }, v:totable())
    local s = tostring(ga.array({ 0.1, 1, -2.5 }, "bfloat16"))
    assert(s:find("dtype=bfloat16", 1, true) and s:find("0.1", 1, true), s)
  end)

  gpu_it("every ufunc with a bfloat16 loop equals its float32 loop rounded once", function()
    local n = 515
    local xs, ys = values(n, -4, 4), values(n, -4, 4)
    -- pairs of specials against each other too
    for i = 1, #SPECIAL do ys[i] = SPECIAL[(i * 5) % #SPECIAL + 1] end
    local xb, yb = ga.array(xs, "bfloat16"), ga.array(ys, "bfloat16")
    local x32, y32 = xb:astype("float32"), yb:astype("float32")
    local checked = 0
    for _, d in ipairs(internal.ufunc_defs) do
      local sig
      for _, s in ipairs(d.loops) do
        if s:match("^E+%->") then sig = s end
      end
      if sig and d.name ~= "nextafter" then
        local out = internal.CHARS[sig:sub(-1)]
        local got = d.nin == 1 and ga[d.name](xb) or ga[d.name](xb, yb)
        local ref = d.nin == 1 and ga[d.name](x32) or ga[d.name](x32, y32)
        assert.equal(out, got.dtype, d.name)
        if out == "bfloat16" then ref = ref:astype("bfloat16") end
        local g, r = flat(got), flat(ref)
        for i = 1, n do
          assert(same_value(g[i], r[i]), ("%s(%s%s): %s, float32's rounded: %s"):format(d.name, fmt(xs[i]),
            d.nin == 2 and ", " .. fmt(ys[i]) or "", tostring(g[i]), tostring(r[i])))
        end
        checked = checked + 1
      end
    end
    assert(checked >= 60, "only " .. checked .. " ufuncs have bfloat16 loops")
    -- nextafter steps bfloat16's own bits
    local na = flat(ga.nextafter(ga.array({ 1, 1, 0, -2 }, "bfloat16"), ga.array({ 2, 0, -1, 0 }, "bfloat16")))
    assert.same({ 1 + 2 ^ -7, 1 - 2 ^ -8, -R.SUB, -2 + 2 ^ -7 }, na)
  end)

  gpu_it("converts a Lua number to bfloat16 first (a weak scalar), then computes in float32", function()
    local xs = values(300, -3, 3, false)
    local xb = ga.array(xs, "bfloat16")
    local got = flat(xb + 0.1)
    local want = flat((xb:astype("float32") + R.round(0.1)):astype("bfloat16"))
    assert.same(want, got)
    assert.equal("bfloat16", (xb * 3).dtype)
    assert.equal("float32", ga.add(xb, ga.ones(1, "float16")).dtype)
    assert.equal("bfloat16", ga.add(xb, ga.ones(1, "int64")).dtype)
    local lt = flat(ga.less(xb, 0.1))
    for i, v in ipairs(xs) do assert.equal(v < R.round(0.1), lt[i], fmt(v)) end
  end)

  gpu_it("sums, means and scans accumulate in float32: exact where float32 is", function()
    local n = 100003
    local ints, total = {}, 0
    for i = 1, n do
      ints[i] = math.random(-8, 8)
      total = total + ints[i]
    end
    local x = ga.array(ints, "bfloat16")
    local s = x:sum()
    assert.equal("bfloat16", s.dtype)
    assert.equal(R.round(total), s:item(), "sum of the integers " .. total)
    assert.equal(R.round(R.f32(total / n)), x:mean():item(), "mean")
    assert.equal(total, x:sum({ dtype = "float32" }):item())
    -- along an axis, both ways
    local m = x[{ { 1, 300 * 257 } }]:reshape(300, 257)
    local rows, cols = {}, {}
    for r = 1, 300 do
      for c = 1, 257 do
        local v = ints[(r - 1) * 257 + c]
        rows[r] = (rows[r] or 0) + v
        cols[c] = (cols[c] or 0) + v
      end
    end
    local gr, gc = m:sum(2):totable(), m:sum(1):totable()
    for r = 1, 300 do assert.equal(R.round(rows[r]), gr[r], "row " .. r) end
    for c = 1, 257 do assert.equal(R.round(cols[c]), gc[c], "column " .. c) end
    -- max, min, argmax, prod, nan-aware
    local small = ga.array({ 3, -1, 0.5, 7, 7, -2, 0 / 0 }, "bfloat16")
    assert.is_true(small:max():item() ~= small:max():item())       -- NaN propagates
    assert.equal(7, ga.nanmax(small):item())
    assert.equal(-2, ga.nanmin(small):item())
    assert.equal(4, small[{ { 1, 6 } }]:argmax():item())          -- 1-based, the first on ties
    assert.equal(6, small[{ { 1, 6 } }]:argmin():item())
    assert.equal(3 * -1 * 0.5 * 7 * 7 * -2, small[{ { 1, 6 } }]:prod():item())
    -- var and std: float32 Welford, within a bfloat16 step of the double result
    local vals = values(1000, -2, 2, false)
    local mean, sq = 0, 0
    for _, v in ipairs(vals) do mean = mean + v end
    mean = mean / #vals
    for _, v in ipairs(vals) do sq = sq + (v - mean) ^ 2 end
    local var = ga.array(vals, "bfloat16"):var():item()
    assert(math.abs(var - sq / #vals) <= 2 ^ -7 * sq / #vals, ("var %s, expected %s"):format(fmt(var), fmt(sq / #vals)))
    -- cumsum: every prefix exact in float32, each rounded once
    local c = flat(ga.cumsum(x[{ { 1, 5000 } }]))
    local acc = 0
    for i = 1, 5000 do
      acc = acc + ints[i]
      assert(c[i] == R.round(acc), ("cumsum[%d] = %s, expected %s"):format(i, fmt(c[i]), fmt(R.round(acc))))
    end
    assert.equal("bfloat16", ga.cumsum(x[{ { 1, 10 } }]).dtype)
  end)

  --- C = A @ B against the exact products (Lua doubles), within bfloat16's
  -- rounding of the result plus float32 accumulation
  local function check_matmul(C, A, B, what)
    local a, b, c = A:astype("float64"):totable(), B:astype("float64"):totable(), C:astype("float64"):totable()
    for i = 1, #a do
      for j = 1, #b[1] do
        local s, mag = 0, 0
        for k = 1, #b do
          s = s + a[i][k] * b[k][j]
          mag = mag + math.abs(a[i][k] * b[k][j])
        end
        local tol = 2 ^ -8 * math.abs(s) + 2 ^ -20 * mag
        assert(math.abs(c[i][j] - s) <= tol, ("%s: C[%d][%d] = %s, exact %s (tolerance %s)"):format(
          what, i, j, fmt(c[i][j]), fmt(s), fmt(tol)))
      end
    end
  end

  gpu_it("matmul on tensor cores (float32 accumulation): plain, transposed, batched, einsum, dot", function()
    local function rnd(shape)
      return ga.array(helper.random_table(shape, function() return R.random_bf16(-3, 0) end), "bfloat16")
    end
    local A, B = rnd({ 67, 129 }), rnd({ 129, 45 })
    local C = ga.matmul(A, B)
    assert.equal("bfloat16", C.dtype)
    assert.same({ 67, 45 }, C.shape)
    check_matmul(C, A, B, "A @ B")
    local At = rnd({ 129, 67 })
    check_matmul(ga.matmul(At:transpose(), B), At:transpose(), B, "A^T @ B")
    local Ab = rnd({ 3, 33, 64 })
    local Cb = ga.matmul(Ab, B[{ { 1, 64 } }])
    assert.same({ 3, 33, 45 }, Cb.shape)
    for z = 1, 3 do check_matmul(Cb[z], Ab[z], B[{ { 1, 64 } }], "batch " .. z) end
    local E = ga.einsum("ij,jk->ik", A, B)
    assert.equal("bfloat16", E.dtype)
    check_matmul(E, A, B, "einsum")
    local v = rnd({ 129 })
    local d = ga.dot(v, v):item()
    local exact = 0
    for _, e in ipairs(v:astype("float64"):totable()) do exact = exact + e * e end
    assert(math.abs(d - exact) <= 2 ^ -8 * exact, ("dot %s, exact %s"):format(fmt(d), fmt(exact)))
    -- promotion: int8 @ bfloat16 is bfloat16, bfloat16 @ float32 float32
    assert.equal("bfloat16", ga.matmul(ga.ones({ 2, 3 }, "int8"), ga.ones({ 3, 2 }, "bfloat16")).dtype)
    assert.equal("float32", ga.matmul(ga.ones({ 2, 3 }, "float32"), ga.ones({ 3, 2 }, "bfloat16")).dtype)
    local ones = ga.matmul(ga.ones({ 2, 3 }, "bfloat16"), ga.ones({ 3, 2 }, "bfloat16"))
    assert.same({ { 3, 3 }, { 3, 3 } }, ones:totable())
  end)

  gpu_it("sorts NumPy's way (NaN last, -0 with 0), argsort stable and 1-based, unique", function()
    local src = { 3, 0 / 0, -0.0, 1, -math.huge, 0.0, 1, math.huge, -2.5, 0 / 0, 1 }
    local x = ga.array(src, "bfloat16")
    local s = flat(ga.sort(x))
    assert.same({ -math.huge, -2.5, 0, 0, 1, 1, 1, 3, math.huge }, { table.unpack(s, 1, 9) })
    assert.is_true(s[10] ~= s[10] and s[11] ~= s[11])
    assert.same({ 5, 9, 3, 6, 4, 7, 11, 1, 8, 2, 10 }, flat(ga.argsort(x)))
    local u = flat(ga.unique(ga.array({ 2, 1, 2, 0.5, 1 }, "bfloat16")))
    assert.same({ 0.5, 1, 2 }, u)
    -- one long row (CUB's onesweep path) against Lua's sort of the same values
    local n = 300000
    local big = values(n, -20, 20, false)
    local sorted = flat(ga.sort(ga.array(big, "bfloat16")))
    table.sort(big)
    for i = 1, n, 997 do assert.equal(big[i], sorted[i], "sorted[" .. i .. "]") end
    for i = 2, n do assert(sorted[i - 1] <= sorted[i], "not sorted at " .. i) end
  end)

  gpu_it("random: uniform in [0, 1) and normal, drawn in float32, rounded once", function()
    ga.random.seed(1234)
    local u = ga.random.random(1 << 20, "bfloat16")
    assert.equal("bfloat16", u.dtype)
    local u32 = u:astype("float32")
    assert(u32:min():item() >= 0, "uniform below 0")
    assert(u32:max():item() < 1, "uniform reached 1: rounding to nearest would do that")
    local m = u32:mean():item()
    assert(math.abs(m - 0.5) < 0.004, "uniform mean " .. m)
    ga.random.seed(1234)
    local again = ga.random.random(1 << 20, "bfloat16")
    assert.same(bits_of(u[{ { 1, 1000 } }]:copy()), bits_of(again[{ { 1, 1000 } }]:copy()))
    local w = ga.random.uniform(-2, 3, 100000, "bfloat16"):astype("float32")
    assert(w:min():item() >= -2 and w:max():item() < 3, "uniform(-2, 3) out of range")
    local g = ga.random.normal(0, 1, 1 << 20, "bfloat16")
    assert.equal("bfloat16", g.dtype)
    local g32 = g:astype("float32")
    local gm, gs = g32:mean():item(), g32:std():item()
    assert(math.abs(gm) < 0.01 and math.abs(gs - 1) < 0.01, ("normal mean %s std %s"):format(fmt(gm), fmt(gs)))
    assert.equal("bfloat16", ga.random.randn(3, 4, "bfloat16").dtype)
    assert.equal("bfloat16", ga.random.default_rng(5):standard_normal(8, "bfloat16").dtype)
  end)

  gpu_it("DLPack: kDLBfloat out and in, the same memory", function()
    local x = ga.array({ 1 / 3, -2.5, 7 }, "bfloat16")
    for _, versioned in ipairs { false, true } do
      local y = ga.from_dlpack(x:to_dlpack({ versioned = versioned }), { versioned = versioned })
      assert.equal("bfloat16", y.dtype)
      assert.same(x:totable(), y:totable())
      y[1] = 4
      assert.equal(4, x[1])
      x[1] = 1 / 3
    end
  end)

  gpu_it("ElementwiseKernel, ReductionKernel, RawKernel and jit run on bfloat16", function()
    local xs, ys = values(1000, -3, 3, false), values(1000, -3, 3, false)
    local xb, yb = ga.array(xs, "bfloat16"), ga.array(ys, "bfloat16")
    -- (x + y) * s: an add and a multiply, each in float (no FMA to contract)
    local ek = ga.ElementwiseKernel("bfloat16 x, bfloat16 y, float32 s", "bfloat16 z", "z = (x + y) * s", "bf_ek_run")
    local z = flat(ek(xb, yb, ga.float32(0.75)))
    for i = 1, #xs do
      local want = R.value(R.from_f32(R.f32(R.f32(xs[i] + ys[i]) * 0.75)))
      assert(z[i] == want, ("(%s + %s) * 0.75: %s, expected %s"):format(fmt(xs[i]), fmt(ys[i]), fmt(z[i]), fmt(want)))
    end
    local ints, total = {}, 0
    for i = 1, 4097 do
      ints[i] = math.random(-4, 4)
      total = total + ints[i]
    end
    local rk = ga.ReductionKernel("bfloat16 x", "bfloat16 y", "x", "a + b", "y = a", "0", "bf_rk_run",
                                  { reduce_type = "float32" })
    assert.equal(R.round(total), rk(ga.array(ints, "bfloat16")):item())
    local raw = ga.RawKernel([[
#include <cuda_bf16.h>
extern "C" __global__ void bf_mul(const __nv_bfloat16 *x, __nv_bfloat16 *y, __nv_bfloat16 a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hmul(x[i], a);
}]], "bf_mul")
    for _, a in ipairs { ga.bfloat16(1.5), 1.5 } do
      local out = ga.empty(#xs, "bfloat16")
      raw({ (#xs + 255) // 256 }, { 256 }, { xb, out, a, #xs })
      local o = flat(out)
      for i = 1, #xs do assert(o[i] == R.round(xs[i] * 1.5), ("__hmul(%s, 1.5): %s"):format(fmt(xs[i]), fmt(o[i]))) end
    end
    local jit = ga.jit
    local jk = jit.rawkernel(function(x, y, n)
      local i = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
      if i < n then y[i] = x[i] * 2 + 1 end
    end)
    local jy = ga.empty(#xs, "bfloat16")
    jk({ (#xs + 255) // 256 }, { 256 }, { xb, jy, #xs })
    local j = flat(jy)
    for i = 1, #xs do
      local want = R.value(R.from_f32(R.f32(2 * xs[i] + 1)))
      assert(j[i] == want, ("jit %s * 2 + 1: %s, expected %s"):format(fmt(xs[i]), fmt(j[i]), fmt(want)))
    end
  end)

  gpu_it("fuse gives the eager bits on bfloat16", function()
    local xs, ys = values(2000, -3, 3), values(2000, -3, 3)
    local xb, yb = ga.array(xs, "bfloat16"), ga.array(ys, "bfloat16")
    local f = ga.fuse(function(x, y) return ga.tanh(x * y + 1) - x end)
    local fused = f(xb, yb)
    assert.equal("bfloat16", fused.dtype)
    assert.same(bits_of(ga.tanh(xb * yb + 1) - xb), bits_of(fused))
    -- a fused sum: small integers, so that any order of float32 additions is exact
    local ints = {}
    for i = 1, 3001 do ints[i] = math.random(-8, 8) end
    local xi = ga.array(ints, "bfloat16")
    local s = ga.fuse(function(x) return ga.sum(x * x) end)
    local fs = s(xi)
    assert.equal("bfloat16", fs.dtype)
    assert.same(bits_of(ga.sum(xi * xi)), bits_of(fs))
  end)

  gpu_it("selections and helpers keep bfloat16: where, clip, around, isclose, nan_to_num", function()
    local x = ga.array({ -1.5, 0.26, 2.75, 0 / 0, math.huge }, "bfloat16")
    assert.equal("bfloat16", ga.where(ga.greater(x, 0), x, 0).dtype)
    assert.same({ 0, R.round(0.26), 2.75 }, { table.unpack(ga.where(ga.greater(x, 0), x, 0):totable(), 1, 3) })
    assert.same({ -1, R.round(0.26), 1 }, { table.unpack(ga.clip(x, -1, 1):totable(), 1, 3) })
    assert.equal("bfloat16", ga.around(x, 1).dtype)
    assert.same({ -1.5, R.round(0.3), R.round(2.8) }, { table.unpack(ga.around(x, 1):totable(), 1, 3) })
    assert.same({ true, true, true, false, true }, ga.isclose(x, x):totable())
    assert.same({ -1.5, R.round(0.26), 2.75, 0, R.MAX }, ga.nan_to_num(x):totable())
  end)

  gpu_it("fft and .npy have no bfloat16: they raise, naming the way out, and write nothing", function()
    local x = ga.ones(8, "bfloat16")
    helper.assert_gaerror(function() ga.fft.fft(x) end, "fft.fft: cuFFT has no bfloat16 transforms")
    helper.assert_gaerror(function() ga.fft.rfft(x) end, "astype(\"float32\")")
    local path = os.tmpname()
    os.remove(path)
    helper.assert_gaerror(function() ga.save(path, x) end, "save: .npy files have no bfloat16 dtype")
    assert.is_nil(io.open(path .. ".npy", "rb"))
    helper.assert_gaerror(function() ga.savez(path, x) end, "savez: .npy files have no bfloat16 dtype")
    assert.is_nil(io.open(path .. ".npz", "rb"))
    -- the way out is exact
    ga.save(path, x:astype("float32"))
    assert.same(x:totable(), ga.load(path .. ".npy"):astype("bfloat16"):totable())
    os.remove(path .. ".npy")
  end)
end)
