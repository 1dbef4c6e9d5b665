-- quickstart: arrays created on the GPU, transformed, viewed, indexed, copied
-- back and printed. Run with `make demo`.
local ga = require "gpuarray"

if not ga.is_available() then
  print("gpuarray " .. ga.version .. ": no CUDA device here; the demo needs an NVIDIA GPU and driver.")
  os.exit(0)
end

local props = ga.device_properties()
print(("gpuarray %s on %s (%d SMs, %.0f GiB)"):format(ga.version, props.name, props.multiprocessors,
  props.total_memory / 2 ^ 30))

-- creating
local a = ga.arange(12, "float32"):reshape(3, 4)
print("a = ga.arange(12, 'float32'):reshape(3, 4)")
print(a)
local m = ga.array({ { 1, 2 }, { 3, 4 } }, "int32")
print("m = " .. tostring(m))
print("ga.linspace(0, 1, 5) = " .. tostring(ga.linspace(0, 1, 5)))
print("ga.eye(3, 'int8') = " .. tostring(ga.eye(3, "int8")))

-- views share memory: no copies are made here
local t = a.T                            -- transpose
local col = a[{ {}, 2 }]                 -- second column (1-based)
local rev = a[{ { nil, nil, -1 } }]      -- rows reversed
print("a.T.shape = {" .. table.concat(t.shape, ", ") .. "}, strides = {" .. table.concat(t.strides, ", ") .. "}")
print("a[{ {}, 2 }] = " .. tostring(col))
print("rows reversed = " .. tostring(rev))

-- writing through a view changes the base array
a[{ 2, { 2, 3 } }] = -1
print("after a[{ 2, {2, 3} }] = -1:")
print(a)

-- casting and copying
local h = a:astype("float16")
local c = t:copy()                       -- a contiguous copy of the transpose
print("a:astype('float16') = " .. tostring(h))
print("t:copy() is c-contiguous: " .. tostring(c.flags.c_contiguous))

-- back to Lua
local rows = a:totable()
print(("a:totable()[3][4] = %g, a:item(1, 2) = %g, #a = %d"):format(rows[3][4], a:item(1, 2), #a))

-- files NumPy can read
local path = os.tmpname() .. ".npy"
ga.save(path, a)
print("saved to " .. path .. "; loads back equal: " ..
  tostring(table.concat(ga.load(path):tobytes() == a:tobytes() and { "true" } or { "false" })))
os.remove(path)

local pool = ga.get_default_memory_pool()
print(("memory pool: %d bytes in use, %d held"):format(pool:used_bytes(), pool:total_bytes()))
