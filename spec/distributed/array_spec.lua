--- ga.distributed.array (CuPy's cupyx.distributed.array): index maps and
-- matmul's plan on the CPU; distributed arrays, their modes and matmul on
-- one GPU (several chunks on device 0) and on two when there are two.
local helper = require "helper"
local ga = helper.ga
local im = require "gpuarray.distributed.index_map"
local A = ga.distributed.array

local function raiser(msg) error("FAIL: " .. msg, 0) end
local function err_of(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return e
end

-- random cut points of len into k blocks: {0, ..., len}
local function cuts(len, k)
  local p = { 0 }
  for i = 1, k - 1 do p[i + 1] = math.random(p[i], len) end
  p[k + 1] = len
  return p
end

describe("distributed.array: make_2d_index_map", function()
  it("matches CuPy's example, 1-based and inclusive", function()
    -- cupyx: make_2d_index_map([0, 2, 4], [0, 3, 6], [[{0}, {1}], [{2, 3}, {3}]])
    local m = A.make_2d_index_map({ 0, 2, 4 }, { 0, 3, 6 }, { { 0, 1 }, { { 2, 3 }, { 3 } } })
    assert.are.same({
      [0] = { { { 1, 2 }, { 1, 3 } } },
      [1] = { { { 1, 2 }, { 4, 6 } } },
      [2] = { { { 3, 4 }, { 1, 3 } } },
      [3] = { { { 3, 4 }, { 1, 3 } }, { { 3, 4 }, { 4, 6 } } },
    }, m)
  end)

  it("covers every element once per owner, on random partitions", function()
    for _ = 1, 30 do
      local rows, cols = math.random(1, 9), math.random(1, 9)
      local mi, nj = math.random(1, 3), math.random(1, 3)
      local ip, jp = cuts(rows, mi), cuts(cols, nj)
      local devices = {}
      for i = 1, mi do
        devices[i] = {}
        for j = 1, nj do devices[i][j] = math.random(0, 3) end
      end
      local map = A.make_2d_index_map(ip, jp, devices)
      local count = {}
      for _, blocks in pairs(map) do
        for _, b in ipairs(blocks) do
          for i = b[1][1], b[1][2] do
            for j = b[2][1], b[2][2] do count[i * 100 + j] = (count[i * 100 + j] or 0) + 1 end
          end
        end
      end
      for i = 1, rows do
        for j = 1, cols do assert.are.equal(1, count[i * 100 + j], ("(%d, %d) of %d x %d"):format(i, j, rows, cols)) end
      end
    end
  end)

  it("names bad partitions and device grids", function()
    local f = A.make_2d_index_map
    assert.are.equal("gpuarray: distributed.array.make_2d_index_map: i_partitions must start at 0 (got 1)",
      err_of(f, { 1, 2 }, { 0, 2 }, { { 0 } }))
    assert.matches("j_partitions must be non%-decreasing integers %(entry 3 is 1 after 2%)",
      err_of(f, { 0, 2 }, { 0, 2, 1 }, { { 0, 0 } }))
    assert.matches("devices has 1 rows, i_partitions makes 2 blocks", err_of(f, { 0, 1, 2 }, { 0, 2 }, { { 0 } }))
    assert.matches("devices%[1%] must list 2 entries", err_of(f, { 0, 2 }, { 0, 1, 2 }, { { 0 } }))
    assert.matches("devices%[1%]%[1%] must be device ordinals", err_of(f, { 0, 2 }, { 0, 2 }, { { -1 } }))
    assert.matches("i_partitions needs at least two cut points", err_of(f, { 0 }, { 0, 2 }, {}))
  end)
end)

describe("distributed.array: index maps and matmul's plan", function()
  it("normalizes blocks: whole axes, negative ends, one bare block", function()
    local devs, chunks = im.normalize({ [1] = { { {}, { 2, -1 } } }, [0] = { { 1, 2 }, {} } }, { 3, 4 }, raiser)
    assert.are.same({ 0, 1 }, devs)
    assert.are.same({ { device = 0, box = { { 1, 2 }, { 1, 4 } } }, { device = 1, box = { { 1, 3 }, { 2, 4 } } } },
      chunks)
  end)

  it("names a bad index map", function()
    assert.are.equal("FAIL: index_map is empty", err_of(im.normalize, {}, { 2 }, raiser))
    assert.matches("keys must be device ordinals", err_of(im.normalize, { x = {} }, { 2 }, raiser))
    assert.matches("index_map%[0%]%[1%]: axis 1's range {1, 5} is not within 1 to 4",
      err_of(im.normalize, { [0] = { { { 1, 5 } } } }, { 4 }, raiser))
    assert.matches("must be a range {start, stop} %(step 1%)", err_of(im.normalize, { [0] = { { { 1, 4, 2 } } } },
      { 4 }, raiser))
  end)

  it("intersects and relocates boxes", function()
    assert.are.same({ { 2, 3 }, { 4, 4 } }, im.intersect({ { 1, 3 }, { 2, 4 } }, { { 2, 5 }, { 4, 9 } }))
    assert.is_nil(im.intersect({ { 1, 3 } }, { { 4, 5 } }))
    assert.are.same({ { 1, 2 }, { 3, 3 } }, im.relative({ { 2, 3 }, { 4, 4 } }, { { 2, 5 }, { 2, 9 } }))
    assert.are.same({ 2, 1 }, im.shape({ { 2, 3 }, { 4, 4 } }))
  end)

  it("plans each block product once, on a device holding both", function()
    local a = select(2, im.normalize(A.make_2d_index_map({ 0, 2, 4 }, { 0, 3, 5 }, { { 0, 1 }, { { 0, 1 }, 1 } }),
      { 4, 5 }, raiser))
    local b = select(2, im.normalize(A.make_2d_index_map({ 0, 3, 5 }, { 0, 6 }, { { { 0, 1 } }, { { 0, 1 } } }),
      { 5, 6 }, raiser))
    local plan = im.matmul_plan(a, b, 4, 5, 6, raiser)
    local terms = {}
    for _, p in ipairs(plan) do
      assert.are.equal(a[p.a].device, p.device)
      assert.are.equal(b[p.b].device, p.device)
      assert.are.same(a[p.a].box[2], b[p.b].box[1])
      local key = ("%d-%d:%d"):format(p.box[1][1], p.box[1][2], a[p.a].box[2][1])
      assert.is_nil(terms[key], "a product planned twice: " .. key)
      terms[key] = true
    end
    assert.are.equal(4, #plan)
  end)

  it("refuses a product it cannot cover", function()
    local a = select(2, im.normalize({ [0] = { { {}, { 1, 2 } } }, [1] = { { {}, { 3, 4 } } } }, { 2, 4 }, raiser))
    local b = select(2, im.normalize({ [0] = { { { 1, 2 }, {} } }, [1] = { { { 1, 4 }, {} } } }, { 4, 3 }, raiser))
    assert.matches("element %(1, 1%) of the product gets 2 of the 4 terms", err_of(im.matmul_plan, a, b, 2, 4, 3,
      raiser))
  end)

  it("checks its arguments' types before any device", function()
    assert.matches("distributed.array.matmul: a must be a DistributedArray", err_of(A.matmul, {}, {}))
    assert.matches("mode must be one of", err_of(A.distributed_array, { 1, 2 }, { [0] = { {} } }, "mean"))
  end)
end)

-- every device that can hold chunks here: 0, and 1 when it exists
local function devices() return helper.gpu and ga.device_count() >= 2 and { 0, 1 } or { 0, 0 } end

local function host(x) return x:totable() end

describe("distributed.array on the GPU", function()
  helper.gpu_it("distributed_array splits and get() puts back, in every mode, with overlaps", function()
    local d = devices()
    for _, dtype in ipairs({ "float64", "int32" }) do
      local src = ga.asarray(helper.random_table({ 5, 7 }, function() return math.random(-9, 9) end), dtype)
      -- overlapping blocks on both devices, and a second block on device d[1]
      local map = { [d[1]] = { { { 1, 3 }, {} }, { { 4, 5 }, { 1, 4 } } }, [d[2]] = { { { 2, 5 }, { 3, 7 } } } }
      if d[1] == d[2] then map = { [0] = { { { 1, 3 }, {} }, { { 4, 5 }, { 1, 4 } }, { { 2, 5 }, { 3, 7 } } } } end
      for _, mode in ipairs({ "replica", "sum", "prod", "max", "min" }) do
        local x = A.distributed_array(src, map, mode)
        assert.are.equal(mode, x.mode)
        assert.are.same({ 5, 7 }, x.shape)
        assert.are.equal(dtype, x.dtype)
        local back = x:get()
        assert.are.equal(dtype, back.dtype)
        assert.are.same(host(src), host(back), ("%s %s"):format(dtype, mode))
        for _, to in ipairs({ "replica", "sum", "max" }) do
          assert.are.same(host(src), host(x:change_mode(to):get()), ("%s %s -> %s"):format(dtype, mode, to))
        end
      end
      for _, c in ipairs(A.distributed_array(src, map):chunks()) do
        assert.are.equal(c.device, c.array.device)
        assert.are.same(host(src[c.index]), host(ga.array(c.array)), "chunk on device " .. c.device)
      end
    end
  end)

  helper.gpu_it("a chunk of a reduction mode holds the identity where an earlier chunk has the value", function()
    local src = ga.asarray({ 1, 2, 3, 4 }, "float32")
    local x = A.distributed_array(src, { [0] = { { { 1, 3 } }, { { 2, 4 } } } }, "sum")
    local ch = x:chunks()
    assert.are.same({ 1, 2, 3 }, host(ch[1].array))
    assert.are.same({ 0, 0, 4 }, host(ch[2].array))
    x = A.distributed_array(src, { [0] = { { { 1, 3 } }, { { 2, 4 } } } }, "max")
    assert.are.same({ -math.huge, -math.huge, 4 }, host(x:chunks()[2].array))
  end)

  helper.gpu_it("matmul block by block equals ga.matmul, with a sum-mode result", function()
    local d = devices()
    local m, k, n = 6, 5, 4
    local a = ga.random.rand(m, k)
    local b = ga.random.rand(k, n)
    local ip, kp, jp = { 0, 2, 6 }, { 0, 3, 5 }, { 0, 1, 4 }
    local da = A.distributed_array(a, A.make_2d_index_map(ip, kp, { { d[1], d[2] }, { d[2], { d[1], d[2] } } }))
    local db = A.distributed_array(b, A.make_2d_index_map(kp, jp, { { { d[1], d[2] }, d[1] }, { d[2], { d[1],
      d[2] } } }))
    local ok, e = pcall(A.matmul, da, db)
    if not ok then
      -- not every product has both blocks on one device: give every device b whole
      assert.matches("terms of its sum", e)
      db = A.distributed_array(b, A.make_2d_index_map(kp, jp, { { { d[1], d[2] }, { d[1], d[2] } },
        { { d[1], d[2] }, { d[1], d[2] } } }))
    end
    local c = A.matmul(da, db)
    assert.are.equal("sum", c.mode)
    assert.are.same({ m, n }, c.shape)
    local want, got = host(ga.matmul(a, b)), host(c:get())
    local same, where = helper.same(got, want, 1e-12)
    assert.is_true(same, where)
    same, where = helper.same(host(c:change_mode("replica"):get()), want, 1e-12)
    assert.is_true(same, where)
  end)

  helper.gpu_it("DistributedArray from chunks the caller made", function()
    local d = devices()
    local x = ga.arange(12, "float64"):reshape({ 3, 4 })
    local top, bottom
    do local _ <close> = ga.Device(d[1]):scope(); top = ga.array(x[{ { 1, 2 }, {} }]) end
    do local _ <close> = ga.Device(d[2]):scope(); bottom = ga.array(x[{ { 3, 3 }, {} }]) end
    local chunks = { [d[1]] = { { array = top, index = { { 1, 2 }, {} } } } }
    if d[1] == d[2] then table.insert(chunks[d[1]], { array = bottom, index = { { 3, 3 }, {} } })
    else chunks[d[2]] = { { array = bottom, index = { { 3, 3 }, {} } } } end
    local dx = A.DistributedArray({ 3, 4 }, "float64", chunks)
    assert.are.same(host(x), host(dx:get()))
    chunks[d[1]][1].index = { { 1, 3 }, {} }
    assert.matches("its block needs {3,4} float64", err_of(A.DistributedArray, { 3, 4 }, "float64", chunks))
  end)
end)
