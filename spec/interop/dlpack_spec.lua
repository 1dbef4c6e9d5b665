-- DLPack exchange (x:to_dlpack, ga.from_dlpack), both layouts. The checks of
-- what a tensor may be, and who deletes it when, run without a GPU through
-- tensors made by hand (core._test.dlpack_make: their deleters are counted);
-- round trips over device memory are GPU specs.
local helper = require "helper"
local ga = helper.ga
local core = ga._core

local DL_INT, DL_UINT, DL_FLOAT, DL_BFLOAT, DL_COMPLEX, DL_BOOL = 0, 1, 2, 4, 5, 6
local KDL_CPU, KDL_CUDA = 1, 2
local READ_ONLY = 1

local dl_codes = {
  bool = { DL_BOOL, 8 }, int8 = { DL_INT, 8 }, int16 = { DL_INT, 16 }, int32 = { DL_INT, 32 },
  int64 = { DL_INT, 64 }, uint8 = { DL_UINT, 8 }, uint16 = { DL_UINT, 16 }, uint32 = { DL_UINT, 32 },
  uint64 = { DL_UINT, 64 }, float16 = { DL_FLOAT, 16 }, float32 = { DL_FLOAT, 32 },
  float64 = { DL_FLOAT, 64 }, complex64 = { DL_COMPLEX, 64 }, complex128 = { DL_COMPLEX, 128 },
}

-- from_dlpack(p, opts) must raise text and leave p unconsumed: its owner
-- deletes it afterwards, and its deleter runs exactly then
local function refused(spec, opts, text)
  local p = core._test.dlpack_make(spec)
  local before = core._test.dlpack_deleted()
  helper.assert_gaerror(function()
    if opts == nil then return ga.from_dlpack(p) end
    return ga.from_dlpack(p, opts)
  end, text)
  collectgarbage()
  collectgarbage()
  assert.equal(before, core._test.dlpack_deleted())
  core._test.dlpack_delete(p, spec.versioned)
  assert.equal(before + 1, core._test.dlpack_deleted())
end

describe("DLPack", function()
  it("exports every dtype with its DLPack code, both layouts", function()
    for name, code in pairs(dl_codes) do
      for _, versioned in ipairs({ false, true }) do
        local x = ga.empty({ 2, 0, 3 }, name)
        local p = x:to_dlpack({ versioned = versioned })
        assert.equal("userdata", type(p))
        local t = core._test.dlpack_read(p, versioned)
        assert.same({ code[1], code[2], 1 }, { t.code, t.bits, t.lanes }, name)
        assert.equal(KDL_CUDA, t.device_type)
        assert.equal(x.device, t.device_id)
        assert.equal(3, t.ndim)
        assert.same({ 2, 0, 3 }, t.shape)
        local isz = x.itemsize
        local st = x.strides
        assert.same({ st[1] // isz, st[2] // isz, st[3] // isz }, t.strides)
        assert.equal(0, t.data)                  -- size 0: NULL, as the spec says
        assert.equal(0, t.byte_offset)
        if versioned then
          assert.same({ 1, 1, 0 }, { t.major, t.minor, t.flags })
        end
        core._test.dlpack_delete(p, versioned)
      end
    end
  end)

  it("keeps to_dlpack's arguments honest", function()
    local x = ga.empty(0, "float32")
    helper.assert_gaerror(function() x:to_dlpack(5) end, "to_dlpack: takes no arguments")
    x:free()
    helper.assert_gaerror(function() x:to_dlpack() end, "freed")
  end)

  it("gives a view for an ndarray argument", function()
    local x = ga.empty({ 4, 0 }, "int16")
    local y = ga.from_dlpack(x)
    assert.same(x.shape, y.shape)
    assert.equal("int16", y.dtype)
    assert.equal(x, y.base)
  end)

  it("refuses what it cannot read, without consuming it", function()
    helper.assert_gaerror(function() ga.from_dlpack(nil) end, "from_dlpack: missing argument 'x'")
    helper.assert_gaerror(function() ga.from_dlpack({}) end, "from_dlpack: missing argument 'x'")
    helper.assert_gaerror(function() ga.from_dlpack(42) end, "from_dlpack: x must be a userdata or an ndarray, got 42")
    local base = { shape = { 3, 4 }, data = 4096 }
    local function with(t)
      local s = {}
      for k, v in pairs(base) do s[k] = v end
      for k, v in pairs(t) do s[k] = v end
      return s
    end
    for _, versioned in ipairs({ false, true }) do
      local v = { versioned = versioned }
      refused(with({ versioned = versioned, device_type = KDL_CPU }), v, "in CPU memory (device type 1)")
      refused(with({ versioned = versioned, device_type = 7 }), v, "not CUDA device memory")
      refused(with({ versioned = versioned, code = DL_BFLOAT, bits = 16 }), v, "unsupported DLPack dtype (code 4")
      refused(with({ versioned = versioned, lanes = 4 }), v, "4 lanes")
      refused(with({ versioned = versioned, code = DL_FLOAT, bits = 8 }), v, "unsupported DLPack dtype")
      refused(with({ versioned = versioned, ndim = 33 }), v, "33 dimensions")
      refused(with({ versioned = versioned, shape = { 3, -1 } }), v, "negative length -1 of axis 2")
      refused(with({ versioned = versioned, device_id = 99 }), v, "CUDA device 99 does not exist")
      refused(with({ versioned = versioned, device_id = -1 }), v, "CUDA device -1 does not exist")
    end
    refused(with({ versioned = true, major = 2, minor = 3 }), { versioned = true },
      "DLPack version 2.3 is not supported")
    refused(with({ versioned = true, major = 0 }), { versioned = true }, "DLPack version 0.1")
    refused(with({ versioned = true, flags = READ_ONLY }), { versioned = true, copy = false }, "read-only")
    local p = core._test.dlpack_make(base)   -- not consumed by the failed call: the owner deletes it
    helper.assert_gaerror(function() ga.from_dlpack(p, 7) end, "from_dlpack: too many arguments (at most 1, got 2)")
    core._test.dlpack_delete(p, base.versioned)
  end)

  if not ga.is_available() then
    it("needs a device for a CUDA tensor, and leaves it unconsumed", function()
      refused({ shape = { 2 }, data = 4096 }, nil, "CUDA device 0 does not exist (0 devices)")
    end)
  end

  local function random_array(shape, dtype)
    local x = ga.random.uniform(-4, 4, shape, "float64")
    if dtype == "bool" then return x:gt(0) end
    if dtype:find("uint") then return ga.abs(x * 10):astype(dtype) end
    return (x * 10):astype(dtype)
  end

  helper.gpu_it("round-trips our arrays: pointer, shape, strides, dtype, values", function()
    for name in pairs(dl_codes) do
      for _, versioned in ipairs({ false, true }) do
        local x = random_array({ 5, 6 }, name)
        for _, v in ipairs({ x, x[{ {}, { 6, 1, -2 } }], x.T, x[{ { 2, 4 }, 2 }] }) do
          local p = v:to_dlpack({ versioned = versioned })
          local y = ga.from_dlpack(p, { versioned = versioned })
          assert.equal(v.data_ptr, y.data_ptr)
          assert.same(v.shape, y.shape)
          assert.same(v.strides, y.strides)
          assert.equal(v.dtype, y.dtype)
          helper.assert_same(v:totable(), y:totable(), nil, name)
        end
      end
    end
  end)

  helper.gpu_it("keeps the producer's memory until the consumer is done", function()
    local pool = ga.get_default_memory_pool()
    ga.random.uniform(0, 1, { 1000 }, "float32"):free()     -- whatever random keeps, kept now
    collectgarbage()
    collectgarbage()
    local used0 = pool:used_bytes()
    local x = ga.random.uniform(0, 1, { 1000 }, "float32")
    local expect = x:totable()
    local y = ga.from_dlpack(x:to_dlpack({ versioned = true }), { versioned = true })
    x:free()
    collectgarbage()
    assert.is_true(pool:used_bytes() > used0)
    helper.assert_same(expect, y:totable())
    y:free()
    collectgarbage()
    collectgarbage()
    assert.equal(used0, pool:used_bytes())
  end)

  helper.gpu_it("wraps a tensor made elsewhere and deletes it exactly once", function()
    local src = random_array({ 4, 6 }, "float64")
    for _, versioned in ipairs({ false, true }) do
      local n0 = core._test.dlpack_deleted()
      -- Fortran order over src's memory: element (i, j) at i + 4 j
      local p = core._test.dlpack_make({ versioned = versioned, data = src.data_ptr, code = DL_FLOAT, bits = 64,
        shape = { 4, 6 }, strides = { 1, 4 } })
      local y = ga.from_dlpack(p, { versioned = versioned })
      assert.equal(src.data_ptr, y.data_ptr)
      assert.same({ 8, 32 }, y.strides)
      assert.is_true(y.flags.f_contiguous)
      local flat = src:ravel():totable()
      local want = {}
      for i = 1, 4 do
        want[i] = {}
        for j = 1, 6 do want[i][j] = flat[(i - 1) + 4 * (j - 1) + 1] end
      end
      helper.assert_same(want, y:totable())
      local v = y[{ {}, { 2, 3 } }]
      y = nil -- luacheck: ignore
      collectgarbage()
      collectgarbage()
      assert.equal(n0, core._test.dlpack_deleted())     -- a view still uses it
      v:free()                                     -- v's reference goes, but v keeps y (its base)
      assert.equal(n0, core._test.dlpack_deleted())
      v = nil -- luacheck: ignore
      collectgarbage()
      collectgarbage()
      assert.equal(n0 + 1, core._test.dlpack_deleted())
      collectgarbage()
      assert.equal(n0 + 1, core._test.dlpack_deleted())
    end
  end)

  helper.gpu_it("copies a read-only tensor and hands it back at once", function()
    local src = random_array({ 7 }, "int32")
    local n0 = core._test.dlpack_deleted()
    local p = core._test.dlpack_make({ versioned = true, flags = READ_ONLY, data = src.data_ptr, code = DL_INT,
      bits = 32, shape = { 7 } })
    local y = ga.from_dlpack(p, { versioned = true })
    assert.equal(n0 + 1, core._test.dlpack_deleted())
    assert.are_not.equal(src.data_ptr, y.data_ptr)
    helper.assert_same(src:totable(), y:totable())
    -- copy = true copies a writable one too
    p = core._test.dlpack_make({ data = src.data_ptr, code = DL_INT, bits = 32, shape = { 7 } })
    y = ga.from_dlpack(p, { copy = true })
    assert.equal(n0 + 2, core._test.dlpack_deleted())
    assert.are_not.equal(src.data_ptr, y.data_ptr)
    helper.assert_same(src:totable(), y:totable())
  end)
end)
