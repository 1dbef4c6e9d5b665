--- Raw kernel cases: the host overhead of launching a tiny RawKernel whose
-- int parameter is given as a Lua number (converted through the parsed
-- signature). CuPy's twin: raw((1,), (32,), (a1, cp.int32(1))).
return function(ga, B)
  local a1 = ga.ones(1, "float32")
  local raw = ga.RawKernel([[
extern "C" __global__ void bump(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}]], "bump")
  B.case("overhead_rawkernel_us", function()
    return B.host_us(function() return raw(1, 32, { a1, 1 }) end)
  end)
  -- ours only: a bare cuLaunchKernel of an empty kernel, timed the same way,
  -- so that every run shows how far each overhead key is from the driver's floor
  local empty = ga._core._test.launch_empty
  B.case("launch_floor_us", function()
    return B.host_us(empty)
  end)
end
