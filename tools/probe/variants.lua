-- Kernel variants behind two bench keys, timed queued (20 calls back to
-- back, events around them): pad's row kernel (grid, streaming stores)
-- and map_coordinates order 1 (four scalar taps vs aligned float4 rows)
package.path = "tools/probe/?.lua;" .. package.path
local ga = require "gpuarray"
local queued_us = require("timing").queued_us
local rows = require "gpuarray.manipulation.pad_rows"
local A = ga.random.random({ 4096, 4096 }, "float32")
local out = ga.empty({ 4160, 4160 }, "float32")
local p = rows.plan(A.shape, A.strides, 4, { { 32, 32 }, { 32, 32 } }, "reflect")
local name, src = rows.source("reflect", 4, 1)
local function variant(s, tag) return ga.RawKernel(s:gsub(name, name .. tag), name .. tag) end
local stcs = src:gsub("%*reinterpret_cast<ga_pad_vec %*>%(yr %+ h %+ k %* GA_PV%) = v%[u%];",
  "{ uint4 t_; memcpy(&t_, &v[u], 16); __stcs(reinterpret_cast<uint4 *>(yr + h + k * GA_PV), t_); }")
assert(stcs ~= src)
local ks = { base = variant(src, "_a"), stcs = variant(stcs, "_b") }
local ref = ga.pad(A, 32, "reflect")
for _, kn in ipairs { "base", "stcs" } do
  for _, grid in ipairs { p.grid, 132 * 4, 132 * 8, 132 * 16 } do
    local args = { A, out, table.unpack(p.args) }
    local t = queued_us(function() ks[kn](grid, p.block, args) end)
    local ok = ga.array_equal(out, ref)
    out:fill(0)
    print(("pad %-5s grid %5d block %d: %7.2f us  %.0f GB/s  %s"):format(kn, grid, p.block, t,
      4 * (4096 ^ 2 + 4160 ^ 2) / t / 1e3, tostring(ok)))
  end
end
-- map_coordinates, order 1, mode constant, float32 image (rows a multiple of 4)
local img = ga.random.random({ 2048, 2048 }, "float32")
local P = 1 << 22
local coords = (ga.random.random({ 2, P }, "float32") * 2047):astype("float32")
local nd = ga.scipy.ndimage
local mref = nd.map_coordinates(img, coords, nil, 1)
print(("map_coordinates library: %7.2f us"):format(queued_us(function() nd.map_coordinates(img, coords, nil, 1) end)))
local msrc = [[
extern "C" __global__ void mc(const float *__restrict__ x, const float *__restrict__ cp, float *__restrict__ y,
                              int n0, int n1, long long P, double cval) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < P; i += (long long)gridDim.x * blockDim.x) {
    const double c0 = (double)cp[i], c1 = (double)cp[P + i];
    double t = cval;
    if (c0 >= 0.0 && c0 <= (double)(n0 - 1) && c1 >= 0.0 && c1 <= (double)(n1 - 1)) {
      const double s0 = floor(c0), s1 = floor(c1);
      const int f0 = (int)s0, f1 = (int)s1;
      const int g0 = f0 + 1 < n0 ? f0 + 1 : (n0 > 1 ? n0 - 2 : 0);
      const int g1 = f1 + 1 < n1 ? f1 + 1 : (n1 > 1 ? n1 - 2 : 0);
      const double w00 = 1.0 - fabs(s0 - c0), w01 = 1.0 - fabs(s0 - c0 + 1.0);
      const double w10 = 1.0 - fabs(s1 - c1), w11 = 1.0 - fabs(s1 - c1 + 1.0);
      const float *r0 = x + (long long)f0 * n1, *r1 = x + (long long)g0 * n1;
      float a0, a1, b0, b1;
#if VEC
      const int q = f1 & ~3, o = f1 - q;
      const float4 u = __ldg(reinterpret_cast<const float4 *>(r0 + q));
      const float4 v = __ldg(reinterpret_cast<const float4 *>(r1 + q));
      const float ua[4] = { u.x, u.y, u.z, u.w }, va[4] = { v.x, v.y, v.z, v.w };
      a0 = ua[o]; b0 = va[o];
      if (o < 3 && g1 == f1 + 1) { a1 = ua[o + 1]; b1 = va[o + 1]; } else { a1 = __ldg(r0 + g1); b1 = __ldg(r1 + g1); }
#else
      a0 = r0[f1]; a1 = r0[g1]; b0 = r1[f1]; b1 = r1[g1];
#endif
      t = 0.0;
      t += w00 * w10 * (double)a0; t += w00 * w11 * (double)a1;
      t += w01 * w10 * (double)b0; t += w01 * w11 * (double)b1;
    }
    y[i] = (float)t;
  }
}]]
local my = ga.empty(P, "float32")
for _, v in ipairs { 0, 1, 2 } do
  local s = v == 2 and msrc:gsub("const float %*__restrict__", "float *")
    :gsub("float %*__restrict__", "float *"):gsub("__ldg", "") or msrc
  local k = ga.RawKernel("#define VEC " .. (v == 1 and 1 or 0) .. "\n" .. s, "mc")
  for _, grid in ipairs { 132 * 8, 132 * 16, P // 256 } do
    local t = queued_us(function() k(grid, 256, { img, coords, my, 2048, 2048, P, 0.0 }) end)
    local err = ga.abs(my - mref):max():item()
    print(("map_coordinates vec=%d grid %6d: %7.2f us  maxerr %.3g"):format(v, grid, t, err))
  end
end
