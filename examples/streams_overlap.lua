--- Overlapping copies and compute with two streams. The data goes through
-- in chunks: copy a chunk in (pinned host -> device), compute, copy it out.
-- On one stream every step waits for the one before; with two streams the
-- copies of one chunk run while the other chunk computes.
--   lua5.4 examples/streams_overlap.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()

local work = ga.RawKernel([[
extern "C" __global__ void work(const float* x, float* y, long long n, int iters) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  for (int k = 0; k < iters; k++) v = v * 0.999f + 0.001f * sinf(v);
  y[i] = v;
}
]], "work")

-- 8 chunks of 4M floats (16 MiB each). ITERS sets the compute per chunk: at
-- about 20 it takes as long as a chunk's two copies, which is where a second
-- stream helps most (with 200, the H200 spent 7 ms computing per chunk
-- against about 1 ms of copies, so overlap could hide only ~10%).
local CHUNKS, M, ITERS = 8, 1 << 22, 20

-- pinned host buffers, filled on the device and copied once
local hin, hout = {}, {}
for c = 1, CHUNKS do
  hin[c] = ga.pinned_empty(M, "float32")
  hout[c] = ga.pinned_empty(M, "float32")
  ga.arange(M, "float32"):get(hin[c])
end
local din, dout = {}, {}
for s = 1, 2 do
  din[s] = ga.empty(M, "float32")
  dout[s] = ga.empty(M, "float32")
end
ga.synchronize()

local function run(streams)
  local t0 = ga._core.runtime.now()
  for c = 1, CHUNKS do
    local k = (c - 1) % #streams + 1
    local _ <close> = streams[k]:scope()
    din[k]:set(hin[c])                               -- async: pinned -> device
    work((M + 255) // 256, 256, { din[k], dout[k], M, ITERS })
    dout[k]:get(hout[c])                             -- async: device -> pinned
  end
  for _, s in ipairs(streams) do s:synchronize() end
  return (ga._core.runtime.now() - t0) * 1e3
end

local s1, s2 = ga.Stream({ non_blocking = true }), ga.Stream({ non_blocking = true })
run({ s1 })                                          -- warm up (compiles, touches memory)
local one = run({ s1 })
local two = run({ s1, s2 })
print(("one stream:  %7.2f ms"):format(one))
print(("two streams: %7.2f ms  (%.2fx)"):format(two, one / two))

-- check a few values against the same iteration in float32 on the host
local function f32(v) return (string.unpack("<f", string.pack("<f", v))) end
for _, i in ipairs { 1, 2, 1000, M } do
  local v = f32(i - 1)
  for _ = 1, ITERS do v = f32(f32(v * f32(0.999)) + f32(f32(0.001) * f32(math.sin(v)))) end
  local got = hout[CHUNKS][i]
  assert(math.abs(got - v) <= 1e-3 * math.max(1, math.abs(v)), ("element %d: %s, expected %s"):format(i, got, v))
end
print("streams_overlap: ok")
