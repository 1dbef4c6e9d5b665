--- One 1-D pass of a separable filter along one axis: correlate1d and
-- everything built on it (gaussian, uniform, sobel, prewitt, ...) and the
-- 1-D minimum / maximum. The array is seen as (outer, n, inner), n the
-- filtered axis. float32 and float64 (in and out of the same dtype) take
-- the tiled kernels below; any other dtype, or a reach too long for a
-- tile in shared memory, takes the N-d stencil (ndimage/stencil.lua)
-- with a footprint along the axis alone.
--
-- The tiled kernels are what gaussian_filter_f32_4096^2_s2_ms needs (each
-- pass must move its bytes at close to copy speed): a block stages the
-- input it needs (its outputs plus the filter's reach, boundary mode
-- applied once per staged value) in shared memory, then every output is
-- a dot product with the weights from shared memory.
--   row pass (inner == 1): a block takes 1024 outputs of one row.
--   column pass (inner > 1): a block takes 32 adjacent columns (coalesced
--   reads along the contiguous axis) by up to 128 positions along n.
return function(ga, S, St)
  local CUDA = require("gpuarray.scipy.ndimage.cuda")
  local P = {}

  local ROW_THREADS, ROW_PER = 256, 4
  local COL_X, COL_Y, COL_TN = 32, 8, 128
  local SMEM = 48 * 1024

  local BODY = [[
#define GND_OP_ %d
__device__ __forceinline__ void gnd_comb(A &acc, A v, A wj) {
#if GND_OP_ == 0
  acc += wj * v;
#elif GND_OP_ == 1
  if (v < acc) acc = v;
#else
  if (v > acc) acc = v;
#endif
}
__device__ __forceinline__ A gnd_init(A first, A w0) {
#if GND_OP_ == 0
  return w0 * first;
#else
  return first;
#endif
}

extern "C" __global__ void gnd_row_pass(const X *__restrict__ x, Y *__restrict__ y, const A *__restrict__ w,
                                        long long n, long long rows, int k, int h, int mode, A cval) {
  extern __shared__ unsigned char gnd_smem_[];
  A *ws = (A *)gnd_smem_;
  A *tile = ws + k;
  const int TILE = blockDim.x * %d;
  for (int t = threadIdx.x; t < k; t += blockDim.x) ws[t] = w[t];
  const long long start = (long long)blockIdx.x * TILE;
  for (long long row = blockIdx.y; row < rows; row += gridDim.y) {
    const X *xr = x + row * n;
    __syncthreads();
    for (int t = threadIdx.x; t < TILE + k - 1; t += blockDim.x) {
      const long long p = start + t - h;
      const long long q = (p >= 0 && p < n) ? p : gnd_fix(p, n, mode);
      tile[t] = q < 0 ? cval : (A)xr[q];
    }
    __syncthreads();
    for (int o = threadIdx.x; o < TILE && start + o < n; o += blockDim.x) {
      A acc = gnd_init(tile[o], ws[0]);
      for (int j = 1; j < k; ++j) gnd_comb(acc, tile[o + j], ws[j]);
      y[row * n + start + o] = (Y)acc;
    }
  }
}

extern "C" __global__ void gnd_col_pass(const X *__restrict__ x, Y *__restrict__ y, const A *__restrict__ w,
                                        long long n, long long inner, long long outer, int k, int h, int mode,
                                        A cval, int tn) {
  extern __shared__ unsigned char gnd_smem_[];
  A *ws = (A *)gnd_smem_;
  A *tile = ws + k;
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  for (int t = tid; t < k; t += blockDim.x * blockDim.y) ws[t] = w[t];
  const long long col = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const bool colok = col < inner;
  const int W = blockDim.x;
  for (long long o = blockIdx.z; o < outer; o += gridDim.z) {
    for (long long r0 = (long long)blockIdx.y * tn; r0 < n; r0 += (long long)gridDim.y * tn) {
      __syncthreads();
      for (int t = threadIdx.y; t < tn + k - 1; t += blockDim.y) {
        const long long p = r0 + t - h;
        const long long q = (p >= 0 && p < n) ? p : gnd_fix(p, n, mode);
        A v = cval;
        if (colok && q >= 0) v = (A)x[(o * n + q) * inner + col];
        tile[t * W + threadIdx.x] = v;
      }
      __syncthreads();
      if (colok) {
        for (int rr = threadIdx.y; rr < tn && r0 + rr < n; rr += blockDim.y) {
          A acc = gnd_init(tile[rr * W + threadIdx.x], ws[0]);
          for (int j = 1; j < k; ++j) gnd_comb(acc, tile[(rr + j) * W + threadIdx.x], ws[j]);
          y[(o * n + r0 + rr) * inner + col] = (Y)acc;
        }
      }
    }
  }
}
]]

  local OPS = { corr = 0, min = 1, max = 2 }

  --- the RawModule for a dtype and an operation (CPU specs compile it)
  function P.module(dtype, op)
    return S.kernel("sep|" .. dtype .. "|" .. op, function()
      local ct = S.CTYPE[dtype]
      local src = ("typedef %s X;\ntypedef %s Y;\ntypedef %s A;\n"):format(ct, ct, ct) .. CUDA.SOURCE ..
        BODY:format(OPS[op], ROW_PER)
      -- the launch reads `A cval` as the C type: spell it out for the signature parser
      src = src:gsub("A cval", ct .. " cval")
      return ga.RawModule(src)
    end)
  end

  local function cdiv(a, b) return (a + b - 1) // b end

  --- y = the pass of weights w (a Lua list; min/max: k ones) along axis
  -- (1-based) with mode code and cval, origin; x any dtype; ydtype the
  -- result's dtype. h: the reach before the output (k // 2 + origin).
  function P.pass(x, axis, w, op, mode, cval, origin, ydtype)
    local shape = x.shape
    local N = #shape
    local k = #w
    local h = k // 2 + origin
    local n = shape[axis]
    local outer, inner = S.prod(shape, 1, axis - 1), S.prod(shape, axis + 1, N)
    local fast = S.CTYPE[x.dtype] and x.dtype == ydtype
    local isz = x.dtype == "float64" and 8 or 4
    local tn
    if fast then
      if inner == 1 then
        fast = (ROW_THREADS * ROW_PER + 2 * k) * isz <= SMEM
      else
        tn = COL_TN
        while tn > 8 and (k + (tn + k - 1) * COL_X) * isz > SMEM do tn = tn // 2 end
        fast = (k + (tn + k - 1) * COL_X) * isz <= SMEM
      end
    end
    if not fast then
      local fshape, half, modes = {}, {}, {}
      for d = 1, N do
        fshape[d], half[d], modes[d] = 1, 0, mode
      end
      fshape[axis], half[axis] = k, h
      local spec = { ndim = N, fshape = fshape, half = half, modes = modes, op = op, full = true }
      local extra = {}
      if op == "corr" then
        extra[1] = ga.array(w, S.FLOAT[x.dtype] and x.dtype ~= "float16" and x.dtype or "float64")
      end
      return St.run(spec, x, ydtype, extra, cval)
    end
    x = ga.ascontiguousarray(x)
    local y = ga.empty(shape, ydtype)
    if y.size == 0 then return y end
    local wa = ga.array(w, x.dtype)
    local m = P.module(x.dtype, op)
    if inner == 1 then
      local tile = ROW_THREADS * ROW_PER
      local grid = { cdiv(n, tile), math.min(outer, 65535) }
      m:get_function("gnd_row_pass")(grid, ROW_THREADS, { x, y, wa, n, outer, k, h, mode, cval },
                                     { shared_mem = (tile + 2 * k) * isz })
    else
      local grid = { cdiv(inner, COL_X), math.min(cdiv(n, tn), 65535), math.min(outer, 65535) }
      m:get_function("gnd_col_pass")(grid, { COL_X, COL_Y }, { x, y, wa, n, inner, outer, k, h, mode, cval, tn },
                                     { shared_mem = (k + (tn + k - 1) * COL_X) * isz })
    end
    return y
  end

  return P
end
