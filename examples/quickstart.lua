-- quickstart: arrays created on the GPU, transformed, viewed, indexed, copied
-- back and printed. Run with `make demo`.
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()

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
local same = ga.load(path):tobytes() == a:tobytes()
print("saved to " .. path .. "; loads back equal: " .. tostring(same))
os.remove(path)

local pool = ga.get_default_memory_pool()
print(("memory pool: %d bytes in use, %d held"):format(pool:used_bytes(), pool:total_bytes()))

-- checks: every value above against what Lua computes for itself
local function text(list)
  local out = {}
  for i, v in ipairs(list) do out[i] = ("%g"):format(v) end
  return table.concat(out, " ")
end
local function rows_text(rows_of)
  local out = {}
  for i, row in ipairs(rows_of) do out[i] = text(row) end
  return table.concat(out, " / ")
end
local want = { {}, {}, {} }
for i = 1, 3 do for j = 1, 4 do want[i][j] = (i - 1) * 4 + (j - 1) end end
want[2][2], want[2][3] = -1, -1
example.check(rows_text(rows) == rows_text(want), "a is %s, expected %s", rows_text(rows), rows_text(want))
example.check(text(col:totable()) == "1 -1 9", "column 2 is %s", text(col:totable()))
example.check(rows_text(rev:totable()) == rows_text({ want[3], want[2], want[1] }), "rows reversed: %s",
  rows_text(rev:totable()))
example.check(rows_text(c:totable()) == "0 4 8 / 1 -1 9 / 2 -1 10 / 3 7 11", "t:copy() is %s",
  rows_text(c:totable()))
example.check(rows_text(h:astype("float32"):totable()) == rows_text(want), "float16 values %s",
  rows_text(h:totable()))
example.check(same, "the .npy file did not load back equal")
print("quickstart: ok")
