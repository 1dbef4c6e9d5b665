-- .npy files: written here and read by NumPy, written by NumPy and read
-- here, values compared exactly (bytes). GPU + python3 with NumPy (both on
-- the GPU machine); pending elsewhere.
local helper = require "helper"
local ga = helper.ga

local function has_numpy()
  if not helper.gpu then return false end
  local ok = os.execute("python3 -c 'import numpy' >/dev/null 2>&1")
  return ok == true or ok == 0
end

local numpy_it = has_numpy() and helper.gpu_it or function(name)
  require("busted").pending(name .. " #gpu (needs a CUDA device and python3 with NumPy)")
end

local function python(code)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(code)
  f:close()
  local p = assert(io.popen("python3 " .. path .. " 2>&1"))
  local out = p:read("a")
  p:close()
  os.remove(path)
  return out
end

local function hex(s)
  return (s:gsub(".", function(c) return ("%02x"):format(c:byte()) end))
end

local DTYPES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128" }

describe(".npy", function()
  numpy_it("files written here load in NumPy with equal values", function()
    for _, dt in ipairs(DTYPES) do
      local shapes = { {}, { 5 }, { 3, 4 }, { 2, 3, 2 } }
      local shape = shapes[math.random(#shapes)]
      local n = 1
      for _, s in ipairs(shape) do n = n * s end
      local parts = {}
      for i = 1, n * ga.dtype(dt).itemsize do parts[i] = string.char(math.random(0, 255)) end
      if dt == "bool" then for i = 1, n do parts[i] = string.char(math.random(0, 1)) end end
      local x = ga.array(table.concat(parts), { dtype = dt, shape = shape })
      if #shape == 2 and math.random() < 0.5 then x = x.T end     -- a non-contiguous array saves in C order
      local path = os.tmpname() .. ".npy"
      ga.save(path, x)
      local out = python(([[
import numpy as np
a = np.load(%q)
print(a.dtype.name, list(a.shape), a.tobytes().hex())
]]):format(path))
      os.remove(path)
      local shp = {}
      for _, s in ipairs(x.shape) do shp[#shp + 1] = tostring(s) end
      local expected = ("%s [%s] %s"):format(dt, table.concat(shp, ", "), hex(x:tobytes()))
      assert.equal(expected, out:gsub("%s+$", ""))
    end
  end)

  numpy_it("files written by NumPy (C and Fortran order) load here", function()
    for _, dt in ipairs(DTYPES) do
      local path = os.tmpname() .. ".npy"
      local order = math.random() < 0.5 and "C" or "F"
      local seed = math.random(1, 1 << 30)
      local out = python(([[
import numpy as np
rng = np.random.default_rng(%d)
raw = rng.integers(0, 256, size=3 * 5 * np.dtype(%q).itemsize, dtype=np.uint8)
a = raw.view(%q).reshape(3, 5) if %q != 'bool' else (raw[:15] %% 2).astype(bool).reshape(3, 5)
a = np.asarray(a, order=%q)
np.save(%q, a)
print(a.tobytes(order='C').hex())
]]):format(seed, dt, dt, dt, order, path))
      local x = ga.load(path)
      os.remove(path)
      assert.equal(dt, x.dtype)
      assert.same({ 3, 5 }, x.shape)
      assert.equal(out:gsub("%s+$", ""), hex(x:tobytes()))
    end
  end)

  helper.gpu_it("round-trips through ga.save and ga.load without NumPy", function()
    local x = ga.array(helper.random_table({ 4, 3 }, function() return math.random() end), "float32")
    local path = os.tmpname() .. ".npy"
    ga.save(path, x)
    local y = ga.load(path)
    os.remove(path)
    assert.equal("float32", y.dtype)
    helper.assert_same(x:totable(), y:totable())
    helper.assert_gaerror(function() ga.load("/nonexistent/x.npy") end, "load")
    local bad = os.tmpname()
    local f = assert(io.open(bad, "wb"))
    f:write("not an npy file")
    f:close()
    helper.assert_gaerror(function() ga.load(bad) end, "neither a .npy file nor a .npz archive")
    os.remove(bad)
  end)
end)
