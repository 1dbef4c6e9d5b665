// reduceat.cuh: ufunc.reduceat as a segmented reduction
// (lua/gpuarray/math/ufunc_methods.lua). x is m rows of n elements (C
// order), idx the s segment starts (1-based, checked on the host), y m rows
// of s results. Segment j of a row covers idx[j] .. idx[j+1]-1 (to the end
// for the last), or is element idx[j] alone where idx[j] >= idx[j+1]
// (NumPy's rule). ga_uop(a, b), the ufunc on its compute type C, is
// defined before this file.
//
// WARP (reorderable ufuncs): one warp per (row, segment); lane l folds
// elements l, l+32, ... (coalesced loads), then the lanes combine in a tree
// through shared memory. Otherwise one thread per (row, segment) folds in
// order, as NumPy does for ufuncs that cannot reorder (subtract, ...).
// Launched with 256 threads a block.
template <typename X, typename C, typename Y, bool WARP>
__device__ __forceinline__ void ga_reduceat(const X *x, const long long *idx, Y *y, long long m, long long n,
                                            long long s) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long pair = WARP ? t >> 5 : t;
  if (pair >= m * s) return;
  long long row = pair / s, j = pair - row * s;
  long long lo = idx[j] - 1;
  long long hi = j + 1 < s ? idx[j + 1] - 1 : n;
  const X *r = x + row * n;
  if (hi <= lo) hi = lo + 1;   // idx[j] >= idx[j+1]: the element alone
  if (!WARP) {
    C acc = ga_cast<C>(r[lo]);
    for (long long k = lo + 1; k < hi; k++) acc = ga_uop(acc, ga_cast<C>(r[k]));
    y[pair] = (Y)acc;
    return;
  } else {
    __shared__ C part[256];
    int lane = threadIdx.x & 31, w0 = threadIdx.x & ~31;
    long long len = hi - lo;
    C acc;
    if (lane < len) {
      acc = ga_cast<C>(r[lo + lane]);
      for (long long k = lo + lane + 32; k < hi; k += 32) acc = ga_uop(acc, ga_cast<C>(r[k]));
      part[threadIdx.x] = acc;
    }
    int cnt = len < 32 ? (int)len : 32;
    __syncwarp();
    for (int o = 16; o > 0; o >>= 1) {
      if (lane < o && lane + o < cnt) part[threadIdx.x] = ga_uop(part[threadIdx.x], part[threadIdx.x + o]);
      __syncwarp();
    }
    if (lane == 0) y[pair] = (Y)part[w0];
  }
}
