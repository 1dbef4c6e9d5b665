--- Timing a kernel with events for three launch configurations, printed as
-- a table. Events are recorded on the stream around the launches, so the
-- time is the device's, not the host's.
--   lua5.4 examples/event_timing.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()

local scale = ga.RawKernel([[
extern "C" __global__ void scale(const float* x, float* y, float a, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x)
    y[i] = a * x[i];
}
]], "scale")

local n = 1 << 26
local x = (ga.arange(n, "int32") % 1000):astype("float32")    -- x[i] = (i - 1) % 1000
local y = ga.empty(n, "float32")
local props = ga.device_properties()
local sms = props.multiprocessors

local choices = {
  { name = "one block per SM", grid = sms, block = 128 },
  { name = "4 blocks per SM", grid = 4 * sms, block = 256 },
  { name = "one thread per element", grid = (n + 255) // 256, block = 256 },
}

local start, stop = ga.Event(), ga.Event()
local REPEAT = 20
print(("%-24s %10s %8s %10s %10s"):format("configuration", "grid", "block", "time (ms)", "GB/s"))
for _, c in ipairs(choices) do
  scale(c.grid, c.block, { x, y, 3.0, n })            -- warm up
  start:record()
  for _ = 1, REPEAT do scale(c.grid, c.block, { x, y, 3.0, n }) end
  stop:record()
  stop:synchronize()
  local ms = ga.get_elapsed_time(start, stop) / REPEAT
  print(("%-24s %10d %8d %10.3f %10.1f"):format(c.name, c.grid, c.block, ms, 8 * n / ms / 1e6))
end

-- the last configuration's result against the CPU, at a thousand places
local got, want = {}, {}
for k = 1, 1000 do
  local i = k == 1 and n or math.random(n)
  got[k], want[k] = y:item(i), example.f32(3 * ((i - 1) % 1000))
end
example.close(got, want, 0, "y = 3 * x")
print("event_timing: ok")
