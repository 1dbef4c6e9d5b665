// ---------------------------------------------------------------------------
// ga_gemm_int<T, ACC>: C[z] = A[z] . B[z] for integer and bool T (cuBLAS has
// no general integer GEMM). ACC is the unsigned type of T's width or wider:
// products and sums wrap modulo 2^bits exactly as NumPy's integer matmul
// does, without signed-overflow undefined behaviour; bool ends as "some
// product was true". A block of 256 threads computes a 64 x 64 tile, 4 x 4
// outputs per thread, stepping K by 16 through shared memory. Operands have
// any element strides (transposed and broadcast ones included); C is
// C-contiguous, batch z at z * m * n.
#define GA_GI_TILE 64
#define GA_GI_K 16

template <typename T, typename ACC>
__device__ __forceinline__ void ga_gemm_int(const T *A, const T *B, T *C, long long m, long long n,
                                            long long k, long long sab, long long sar, long long sac,
                                            long long sbb, long long sbr, long long sbc,
                                            long long z0) {
  __shared__ ACC As[GA_GI_K][GA_GI_TILE + 1];
  __shared__ ACC Bs[GA_GI_K][GA_GI_TILE + 1];
  long long z = z0 + blockIdx.z;
  A += z * sab;
  B += z * sbb;
  C += z * m * n;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const long long row0 = (long long)blockIdx.y * GA_GI_TILE, col0 = (long long)blockIdx.x * GA_GI_TILE;
  ACC acc[4][4];
#pragma unroll
  for (int i = 0; i < 4; i++)
#pragma unroll
    for (int j = 0; j < 4; j++) acc[i][j] = 0;
  for (long long k0 = 0; k0 < k; k0 += GA_GI_K) {
    for (int t = threadIdx.x; t < GA_GI_K * GA_GI_TILE; t += 256) {
      int r = t / GA_GI_K, kk = t % GA_GI_K;       // A: 64 rows x 16 k
      long long gr = row0 + r, gk = k0 + kk;
      As[kk][r] = (gr < m && gk < k) ? (ACC)A[gr * sar + gk * sac] : (ACC)0;
      int kb = t / GA_GI_TILE, c = t % GA_GI_TILE;  // B: 16 k x 64 cols
      long long gk2 = k0 + kb, gc = col0 + c;
      Bs[kb][c] = (gk2 < k && gc < n) ? (ACC)B[gk2 * sbr + gc * sbc] : (ACC)0;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < GA_GI_K; kk++) {
      ACC a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; i++) {
        a[i] = As[kk][ty + 16 * i];
        b[i] = Bs[kk][tx + 16 * i];
      }
#pragma unroll
      for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; i++) {
    long long r = row0 + ty + 16 * i;
    if (r >= m) continue;
#pragma unroll
    for (int j = 0; j < 4; j++) {
      long long c = col0 + tx + 16 * j;
      if (c < n) C[r * n + c] = (T)acc[i][j];
    }
  }
}
