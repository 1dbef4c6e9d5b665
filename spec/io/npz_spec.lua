-- .npy and .npz at the byte level (no GPU): our headers, zip archives and
-- DEFLATE streams against what NumPy and Python's zipfile/zlib write and
-- read (when python3 with NumPy is here: pending otherwise), a fixture
-- NumPy wrote, corruption errors; then ga.savez / ga.load on the GPU.
local helper = require "helper"
local ga = helper.ga
local internal = require "gpuarray.internal"
local npy, zip = internal.npy, internal.zip
local deflate = require "gpuarray.io.deflate"

-- a python3 with NumPy (PATH's, or the system's)
local PY
for _, cand in ipairs({ "python3", "/usr/bin/python3" }) do
  local ok = os.execute(cand .. " -c 'import numpy' >/dev/null 2>&1")
  if ok == true or ok == 0 then
    PY = cand
    break
  end
end
local py_it = PY and it or function(name) pending(name .. " (needs python3 with NumPy)") end

local function python(code)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(code)
  f:close()
  local p = assert(io.popen(PY .. " " .. path .. " 2>&1"))
  local out = p:read("a")
  p:close()
  os.remove(path)
  return out
end

local function hex(s)
  return (s:gsub(".", function(c) return ("%02x"):format(c:byte()) end))
end
local function unhex(h)
  return (h:gsub("%x%x", function(x) return string.char(tonumber(x, 16)) end))
end

local DTYPES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128" }
local SIZE = { bool = 1, int8 = 1, uint8 = 1, int16 = 2, uint16 = 2, float16 = 2, int32 = 4, uint32 = 4,
               float32 = 4, int64 = 8, uint64 = 8, float64 = 8, complex64 = 8, complex128 = 16 }

local function random_bytes(dtype, count)
  local t = {}
  for i = 1, count * SIZE[dtype] do
    t[i] = string.char(dtype == "bool" and math.random(0, 1) or math.random(0, 255))
  end
  return table.concat(t)
end

local function random_shape()
  local shapes = { {}, { 0 }, { 5 }, { 3, 4 }, { 2, 0, 3 }, { 2, 3, 2 }, { 1 } }
  return shapes[math.random(#shapes)]
end
local function count(shape)
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  return n
end

local function write_archive(path, members, compression, zip64_at)
  local f = assert(io.open(path, "wb"))
  zip.write(f, members, compression, zip64_at)
  f:close()
end

describe("npy/npz bytes", function()
  it("reads a .npz NumPy wrote with savez_compressed (a fixture)", function()
    local bytes = unhex("504b0304140000000800000021001a4e987e520000008c00000005001400612e6e7079010010008c00000000"
      .. "00000052000000000000009bec17ea1b10c9c850c650ad9e925a9c5ca46ea5a06e9369a4aea3a09e965f54529498179f5f"
      .. "94920a12774bcc294e058a17672416a402f91a463a0ac69a3a0ab50a64032e06064606260666061606560600504b030414"
      .. "0000000800000021008751894f4c0000008800000005001400622e6e70790100100088000000000000004c00000000000000"
      .. "9bec17ea1b10c9c850c650ad9e925a9c5ca46ea5a06e9366a2aea3a09e965f54529498179f5f94920a12774bcc294e058a"
      .. "17672416a402f91a463a9a3a0ab50a14002e068603f60c0c020700504b01021403140000000800000021001a4e987e5200"
      .. "00008c000000050000000000000000000000800100000000612e6e7079504b01021403140000000800000021008751894f"
      .. "4c00000088000000050000000000000000000000800189000000622e6e7079504b05060000000002000200660000000c01"
      .. "00000000")
    local members = zip.read(bytes, "fixture")
    assert.equal(2, #members)
    assert.equal("a.npy", members[1].name)
    local a = npy.parse(members[1].data, "a")
    assert.equal("int16", a.dtype)
    assert.same({ 2, 3 }, a.shape)
    assert.equal(string.pack("<i2i2i2i2i2i2", 0, 1, 2, 3, 4, 5), a.data)
    local b = npy.parse(members[2].data, "b")
    assert.equal("float32", b.dtype)
    assert.same({ 2 }, b.shape)
    assert.equal(string.pack("<ff", 1.5, -2.25), b.data)
  end)

  it("rejects corrupt archives and streams with clear errors", function()
    local f = io.tmpfile()
    zip.write(f, { { name = "x.npy", data = npy.header("int32", { 3 }) .. string.pack("<i4i4i4", 1, 2, 3) } },
      "deflated")
    f:seek("set")
    local good = f:read("a")
    f:close()
    assert.equal(1, #zip.read(good, "ok"))
    helper.assert_gaerror(function() zip.read("not a zip at all, just text", "t") end, "not a zip file")
    helper.assert_gaerror(function() zip.read(good:sub(1, 40) .. good:sub(46), "cut") end, "t")
    -- a flipped byte inside the deflated data: a CRC or a stream error
    local at = 40
    local bad = good:sub(1, at - 1) .. string.char(good:byte(at) ~ 0x55) .. good:sub(at + 1)
    local ok, err = pcall(zip.read, bad, "flip")
    assert.is_false(ok)
    assert.truthy(tostring(err):find("^gpuarray: "), err)
    helper.assert_gaerror(function() deflate.inflate("\7\0\0") end, "block type 3")
    helper.assert_gaerror(function() deflate.inflate("") end, "truncated")
    helper.assert_gaerror(function() npy.parse("\x93NUMPY\1\0\10\0{'descr'", "h") end, "truncated")
    local long = "\x93NUMPY\1\0" .. string.pack("<I2", 6000) .. ("x"):rep(6000)
    helper.assert_gaerror(function() npy.parse(long, "h", 100) end, "max_header_size")
    local hdr = npy.header("float64", { 4 })
    helper.assert_gaerror(function() npy.parse(hdr .. ("\0"):rep(31), "short") end, "31 bytes of data")
  end)

  it("round-trips random data through deflate and inflate (compressible and not)", function()
    for _ = 1, 6 do
      local n = math.random(0, 200000)
      local t, alphabet = {}, math.random(1, 256)
      for i = 1, n do t[i] = string.char(math.random(0, alphabet - 1)) end
      -- runs too
      local s = table.concat(t) .. ("ab"):rep(math.random(0, 5000))
      local z = deflate.deflate(s)
      assert.equal(s, (deflate.inflate(z, 1, #s)), "alphabet " .. alphabet)
      if alphabet <= 4 and #s > 1000 then assert.is_true(#z < #s / 2) end
      assert.is_true(#z <= #s + 5 * (#s // 65535 + 1) + 8)
    end
  end)

  it("computes CRC-32 as zlib does", function()
    assert.equal(0, deflate.crc32(""))
    assert.equal(0xCBF43926, deflate.crc32("123456789"))
    assert.equal(deflate.crc32("123456789abcdefghij"), deflate.crc32("abcdefghij", deflate.crc32("123456789")))
  end)

  py_it("archives written here load in NumPy (stored, deflated, ZIP64), values exact", function()
    for _, compression in ipairs({ "stored", "deflated", "zip64" }) do
      local members, expect = {}, {}
      for k = 1, 6 do
        local dt = DTYPES[math.random(#DTYPES)]
        local shape = random_shape()
        local data = random_bytes(dt, count(shape))
        local name = ("m%d_%s"):format(k, dt)
        members[k] = { name = name .. ".npy", data = npy.header(dt, shape) .. data }
        expect[#expect + 1] = ("%s %s %s %s"):format(name, dt, table.concat(shape, ","), hex(data))
      end
      local path = os.tmpname()
      if compression == "zip64" then
        write_archive(path, members, "deflated", 0)
      else
        write_archive(path, members, compression)
      end
      local out = python(([[
import numpy as np, zipfile
z = zipfile.ZipFile(%q); assert z.testzip() is None
with np.load(%q) as f:
    for k in f.files:
        a = f[k]
        print(k, a.dtype.name, ",".join(map(str, a.shape)), a.tobytes().hex())
]]):format(path, path))
      os.remove(path)
      assert.equal(table.concat(expect, "\n") .. "\n", out, compression)
    end
  end)

  py_it("archives and .npy files NumPy writes (savez, savez_compressed, Fortran order) read here", function()
    local path = os.tmpname()
    local out = python(([[
import numpy as np
rng = np.random.default_rng()
arrs = {}
for i, dt in enumerate(%q.split()):
    shape = [(), (0,), (7,), (3, 4), (2, 3, 2)][rng.integers(5)]
    raw = rng.integers(0, 256, size=int(np.prod(shape)) * np.dtype(dt).itemsize, dtype=np.uint8)
    a = raw.view(dt).reshape(shape) if dt != 'bool' else (raw %% 2).astype(bool).reshape(shape)
    if a.ndim == 2 and rng.integers(2): a = np.asfortranarray(a)
    arrs['a%%d' %% i] = a
np.savez(%q + 's.npz', **arrs)
np.savez_compressed(%q + 'c.npz', **arrs)
np.save(%q + 'f.npy', np.asfortranarray(np.arange(12, dtype='<f8').reshape(3, 4)))
for k, a in arrs.items():
    f = a.flags.f_contiguous and not a.flags.c_contiguous
    print(k, a.dtype.name, ",".join(map(str, a.shape)), f, a.tobytes(order='F' if f else 'C').hex())
]]):format(table.concat(DTYPES, " "), path, path, path))
    local expect = {}
    for line in out:gmatch("[^\n]+") do
      local k, dt, shape, f, h = line:match("^(%S+) (%S+) (%S*) (%S+) (%x*)$")
      assert(k, out)
      expect[k] = { dt = dt, shape = shape, fortran = f == "True", hex = h }
    end
    for _, suffix in ipairs({ "s.npz", "c.npz" }) do
      local fh = assert(io.open(path .. suffix, "rb"))
      local bytes = fh:read("a")
      fh:close()
      os.remove(path .. suffix)
      local members = zip.read(bytes, suffix)
      assert.equal(#DTYPES, #members)
      for _, m in ipairs(members) do
        local key = m.name:gsub("%.npy$", "")
        local e = assert(expect[key], m.name)
        local p = npy.parse(m.data, m.name)
        assert.equal(e.dt, p.dtype, m.name)
        assert.equal(e.shape, table.concat(p.shape, ","), m.name)
        assert.equal(e.fortran, p.fortran, m.name)
        assert.equal(e.hex, hex(p.data), m.name)
      end
    end
    local fh = assert(io.open(path .. "f.npy", "rb"))
    local p = npy.parse(fh:read("a"), "f.npy")
    fh:close()
    os.remove(path .. "f.npy")
    os.remove(path)
    assert.is_true(p.fortran)
    assert.same({ 3, 4 }, p.shape)
    assert.equal(string.pack("<dddd", 0, 4, 8, 1), p.data:sub(1, 32))
  end)

  py_it("raw deflate streams match zlib both ways", function()
    local data = random_bytes("uint8", 5000) .. ("xyz"):rep(3000) .. random_bytes("bool", 4000)
    local path = os.tmpname()
    local fh = assert(io.open(path, "wb"))
    fh:write(deflate.deflate(data))
    fh:close()
    local out = python(([[
import zlib, sys
d = zlib.decompress(open(%q, 'rb').read(), -15)
open(%q, 'wb').write(d)
for lvl in (1, 9):
    c = zlib.compressobj(lvl, zlib.DEFLATED, -15)
    open(%q + str(lvl), 'wb').write(c.compress(d) + c.flush())
print(zlib.crc32(d))
]]):format(path, path .. ".raw", path))
    assert.equal(tostring(deflate.crc32(data)), out:match("%d+"), out)
    fh = assert(io.open(path .. ".raw", "rb"))
    assert.equal(data, fh:read("a"))
    fh:close()
    for _, lvl in ipairs({ 1, 9 }) do
      fh = assert(io.open(path .. lvl, "rb"))
      assert.equal(data, (deflate.inflate(fh:read("a"))))
      fh:close()
      os.remove(path .. lvl)
    end
    os.remove(path)
    os.remove(path .. ".raw")
  end)

  it("declares save, load, savez and savez_compressed with their errors", function()
    helper.assert_gaerror(function() ga.save(3, 1) end, "save: file must be")
    helper.assert_gaerror(function() ga.load("/nonexistent/dir/x.npy") end, "load: ")
    local path = os.tmpname()
    local fh = assert(io.open(path, "wb"))
    fh:write("hello")
    fh:close()
    helper.assert_gaerror(function() ga.load(path) end, "neither a .npy file nor a .npz archive")
    os.remove(path)
  end)
end)

describe("npz on the GPU", function()
  helper.gpu_it("savez / savez_compressed / load round-trip named and positional arrays", function()
    for _, fname in ipairs({ "savez", "savez_compressed" }) do
      local path = os.tmpname()
      local a = ga.array(helper.random_table({ 3, 4 }, function() return math.random() end), "float32")
      local b = ga.arange(10, "int64")
      local c = ga.array({ { 1, 2 }, { 3, -4 } }, "complex64")
      local d = ga.zeros({ 0, 3 }, "uint8")
      ga[fname](path, a, b, { named = c, empty = d })
      local z = ga.load(path .. ".npz")
      assert.same({ "arr_0", "arr_1", "empty", "named" }, z.files)
      assert.is_true(ga.array_equal(a, z.arr_0), fname)
      assert.equal("float32", z.arr_0.dtype)
      assert.is_true(ga.array_equal(b, z["arr_1"]))
      assert.is_true(ga.array_equal(c, z.named))
      assert.same({ 0, 3 }, z:get("empty.npy").shape)
      local n = 0
      for k, v in pairs(z) do
        n = n + 1
        assert.is_string(k)
        assert.is_true(internal.is_array(v))
      end
      assert.equal(4, n)
      os.remove(path .. ".npz")
      os.remove(path)
    end
    helper.assert_gaerror(function() ga.savez(os.tmpname(), ga.ones(2), { arr_0 = ga.ones(3) }) end,
      "cannot use un-named variables and keyword arr_0")
  end)

  helper.gpu_it("save appends .npy, writes to open files, and load reads both forms", function()
    local path = os.tmpname()
    local x = ga.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "int16")
    ga.save(path, x)
    assert.is_true(ga.array_equal(x, ga.load(path .. ".npy")))
    local f = assert(io.open(path, "wb"))
    ga.save(f, x.T)
    f:close()
    local g = assert(io.open(path, "rb"))
    local y = ga.load(g)
    g:close()
    assert.is_true(ga.array_equal(x.T, y))
    os.remove(path)
    os.remove(path .. ".npy")
  end)
end)
