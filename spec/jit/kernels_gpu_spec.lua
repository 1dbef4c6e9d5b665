-- ga.jit on the GPU: the examples' kernels, a block reduction in shared
-- memory, a tiled matmul and an atomic histogram, each against a Lua
-- reference on fresh random data; elementwise kernels from scalar functions.
local helper = require "helper"
local ga = helper.ga
local jit = ga.jit
local gpu_it = helper.gpu_it

local f32 = helper.to_f32

local K = require "jit_kernels"
local saxpy, elementwise_copy, block_sums, BLOCK = K.saxpy, K.elementwise_copy, K.block_sums, K.BLOCK

local TILE = 16
local function matmul(a, b, c, m, n, k)
  local sa = jit.shared_memory("float32", TILE * TILE)
  local sb = jit.shared_memory("float32", TILE * TILE)
  local tx, ty = jit.threadIdx.x, jit.threadIdx.y
  local row = jit.blockIdx.y * TILE + ty
  local col = jit.blockIdx.x * TILE + tx
  local acc = 0.0
  for t = 0, (k + TILE - 1) // TILE - 1 do
    local ac, br = t * TILE + tx, t * TILE + ty
    if row < m and ac < k then sa[ty * TILE + tx] = a[row * k + ac] else sa[ty * TILE + tx] = 0 end
    if br < k and col < n then sb[ty * TILE + tx] = b[br * n + col] else sb[ty * TILE + tx] = 0 end
    jit.syncthreads()
    for q = 0, TILE - 1 do
      acc = acc + sa[ty * TILE + q] * sb[q * TILE + tx]
    end
    jit.syncthreads()
  end
  if row < m and col < n then c[row * n + col] = acc end
end

local function histogram(x, bins, nbins)
  local i = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
  if i < #x then
    local b = math.floor(x[i] * nbins)
    if b >= nbins then b = nbins - 1 end
    jit.atomic_add(bins, b, 1)
  end
end

local function rand_list(n, lo, hi, int)
  local t = {}
  for i = 1, n do
    t[i] = int and math.random(lo, hi) or f32(lo + math.random() * (hi - lo))
  end
  return t
end

describe("jit kernels on the GPU", function()
  gpu_it("saxpy: both launch forms, a Lua float a (weak: float32 math) and a typed one", function()
    local n = 1000 + math.random(0, 500)
    local hx, hy = rand_list(n, -1, 1), rand_list(n, -1, 1)
    local x, y = ga.array(hx, "float32"), ga.array(hy, "float32")
    local k = jit.rawkernel(saxpy)
    local a = 0.5 + math.random()
    for _, form in ipairs { "numbers", "lists" } do
      local out = ga.zeros(n, "float32")
      if form == "numbers" then k((n + 127) // 128, 128, { a, x, y, out, n })
      else k({ (n + 127) // 128, 1, 1 }, { 128 }, { a, x, y, out, n }) end
      assert.are.equal("float32", out.dtype)
      local got = out:totable()
      for i = 1, n do
        -- one rounding (the compiler fuses a * x + y): within an ulp of the separate roundings
        local ref = f32(f32(a) * hx[i] + hy[i])
        assert.is_true(math.abs(got[i] - ref) <= 1e-6 * math.max(1, math.abs(ref)), ("%s: [%d] %s vs %s"):format(
          form, i, got[i], ref))
      end
    end
    -- a typed float64 a and an int32 n: float64 math, one more signature
    local out = ga.zeros(n, "float32")
    k((n + 255) // 256, 256, { ga.float64(a), x, y, out, ga.int32(n) })
    local got = out:totable()
    for i = 1, n do
      local ref = f32(a * hx[i] + hy[i])
      assert.is_true(math.abs(got[i] - ref) <= 1e-6 * math.max(1, math.abs(ref)), ("[%d] %s vs %s"):format(i,
        got[i], ref))
    end
  end)

  gpu_it("elementwise_copy: a grid-stride loop copies every element", function()
    local size = 5000 + math.random(0, 3000)
    local hx = rand_list(size, -100, 100, true)
    local x = ga.array(hx, "int32")
    local y = ga.zeros(size, "int32")
    jit.rawkernel(elementwise_copy)(7, 128, { x, y, size })
    assert.are.same(hx, y:totable())
    local y2 = ga.zeros(size, "int32")
    jit.rawkernel(elementwise_copy)({ 3 }, { 64, 1 }, { x, y2, ga.uint32(size) })
    assert.are.same(hx, y2:totable())
  end)

  gpu_it("block reduction in shared memory with syncthreads", function()
    local n = 3000 + math.random(0, 2000)
    local hx = rand_list(n, -50, 50, true)      -- integers: float32 sums are exact
    local x = ga.array(hx, "float32")
    local nb = (n + BLOCK - 1) // BLOCK
    local sums = ga.zeros(nb, "float32")
    jit.rawkernel(block_sums)(nb, BLOCK, { x, sums })
    local got = sums:totable()
    for b = 1, nb do
      local s = 0
      for i = (b - 1) * BLOCK + 1, math.min(b * BLOCK, n) do s = s + hx[i] end
      assert.are.equal(s, got[b])
    end
  end)

  gpu_it("a tiled matmul against a Lua loop", function()
    local m, n, k = math.random(20, 40), math.random(20, 40), math.random(20, 40)
    local ha, hb = rand_list(m * k, -5, 5, true), rand_list(k * n, -5, 5, true)
    local a = ga.array(ha, "float32"):reshape(m, k)
    local b = ga.array(hb, "float32"):reshape(k, n)
    local c = ga.zeros({ m, n }, "float32")
    jit.rawkernel(matmul)({ (n + TILE - 1) // TILE, (m + TILE - 1) // TILE }, { TILE, TILE }, { a, b, c, m, n, k })
    local got = c:totable()
    for i = 1, m do
      for j = 1, n do
        local s = 0
        for q = 1, k do s = s + ha[(i - 1) * k + q] * hb[(q - 1) * n + j] end
        assert.are.equal(s, got[i][j])
      end
    end
    assert.are.same({ m, n }, c.shape)
  end)

  gpu_it("an atomic histogram against a Lua count", function()
    local n, nbins = 20000 + math.random(0, 5000), 17
    local hx = rand_list(n, 0, 1)
    local x = ga.array(hx, "float32")
    local bins = ga.zeros(nbins, "int32")
    jit.rawkernel(histogram)((n + 255) // 256, 256, { x, bins, nbins })
    local want = {}
    for b = 1, nbins do want[b] = 0 end
    for i = 1, n do
      local b = math.floor(f32(hx[i] * nbins))
      if b >= nbins then b = nbins - 1 end
      want[b + 1] = want[b + 1] + 1
    end
    assert.are.same(want, bins:totable())
  end)

  gpu_it("rejects non-contiguous arrays and bad launches clearly", function()
    local x = ga.zeros({ 4, 4 }, "float32")
    helper.assert_gaerror(function() jit.rawkernel(elementwise_copy)(1, 32, { x.T, x, 16 }) end, "not C-contiguous")
    helper.assert_gaerror(function() jit.rawkernel(elementwise_copy)(1, 32, x) end, "args must be a list")
  end)
end)

describe("jit elementwise kernels on the GPU", function()
  gpu_it("a scalar function over broadcast arrays and a Lua number, two results", function()
    local k = jit.elementwisekernel(function(x, y, t)
      local d = y - x
      if d < 0 then return x + d * t, -d end
      return x + d * t, d
    end, { name = "lerp_dist" })
    local hx = rand_list(12, -2, 2)
    local hy = rand_list(4, -2, 2)
    local x = ga.array(hx, "float32"):reshape(3, 4)
    local y = ga.array(hy, "float32")
    local t = 0.25
    local l, d = k(x, y, t)
    assert.are.same({ 3, 4 }, l.shape)
    assert.are.equal("float32", l.dtype)
    assert.are.equal("float32", d.dtype)
    local gl, gd = l:totable(), d:totable()
    for r = 1, 3 do
      for c = 1, 4 do
        local xv, yv = hx[(r - 1) * 4 + c], hy[c]
        local dv = f32(yv - xv)
        local lv = f32(xv + f32(dv * f32(t)))
        assert.is_true(math.abs(gl[r][c] - lv) <= 1e-6, ("%s vs %s"):format(gl[r][c], lv))
        assert.are.equal(math.abs(dv), gd[r][c])
      end
    end
  end)

  gpu_it("integer and float16 element types, device functions", function()
    local function clamp(v, lo, hi) return math.min(math.max(v, lo), hi) end
    local k = jit.elementwisekernel(function(a) return clamp(a * 3 // 2, -10, 10) end)
    local ha = rand_list(50, -20, 20, true)
    local r = k(ga.array(ha, "int16"))
    assert.are.equal("int16", r.dtype)
    local got = r:totable()
    for i = 1, 50 do assert.are.equal(math.min(math.max(ha[i] * 3 // 2, -10), 10), got[i]) end
    local h = jit.elementwisekernel(function(v) return v * 2 + 1 end)(ga.array({ 0.5, 1.5, -2 }, "float16"))
    assert.are.equal("float16", h.dtype)
    assert.are.same({ 2, 4, -3 }, h:totable())
  end)
end)
