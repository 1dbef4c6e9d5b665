// signal_iir.cuh: IIR filters (lfilter, sosfilt) as a parallel scan over
// the filter's state (scipy/signal/scan.lua builds and launches them; the
// bench keys lfilter_f32_2^24_ms and sosfilt_f32_2^24_ms are why).
//
// A filter of state size N is a linear recurrence z_t = A z_{t-1} + B x_t,
// y_t = C z_{t-1} + D x_t (transposed direct form II for lfilter, a cascade
// of biquads for sosfilt). The including source defines, before this file:
//   T            the data and coefficient type
//   GA_IIR_N     the state size, GA_IIR_NC the number of coefficients
//   GA_IIR_B     threads per block (a power of two), GA_IIR_LOGB its log2
//   GA_IIR_L     samples per thread (a chunk)
//   ga_iir_step(c, z, x, y)   one sample: z updated in place, y produced
// Each thread runs the recurrence over its chunk of GA_IIR_L samples from a
// zero state: the chunk's final state c_j. With P = A^L the chunk's
// transition (the same matrix for every chunk), the true state after chunk
// j is s_j = P s_{j-1} + c_j: a scan whose combining step is
// s_j += P^d s_{j-d} (Kogge-Stone; pw[k] = P^(2^k) comes from the host).
// Three kernels over rows of n samples (contiguous, one row per batch item):
//   ga_iir_local   each block's aggregate: its final state from zero
//   ga_iir_carry   one block per row scans the aggregates with Q = P^B
//                  (pw[LOGB + k] = Q^(2^k)), giving each block's input state
//   ga_iir_apply   each block folds its input state into its scan, every
//                  thread re-runs its chunk from its true input state and
//                  writes y (and the final state zf after the last sample)
// Samples are staged through shared memory so that global loads and stores
// are coalesced; the chunk stays in registers between the two runs.

#define GA_IIR_NN (GA_IIR_N * GA_IIR_N)

// acc += M v, M an N x N row-major matrix
__device__ __forceinline__ void ga_iir_matvec_add(T *acc, const T *__restrict__ M, const T *v) {
#pragma unroll
  for (int i = 0; i < GA_IIR_N; i++) {
    T s = acc[i];
#pragma unroll
    for (int j = 0; j < GA_IIR_N; j++) s = s + M[i * GA_IIR_N + j] * v[j];
    acc[i] = s;
  }
}

// inclusive scan of the block's chunk states c (one per thread) with the
// transitions pw[k] = (chunk transition)^(2^k); sm holds N * B values,
// laid out [state index][thread] so that a warp's accesses are consecutive
__device__ __forceinline__ void ga_iir_block_scan(T *c, T *sm, const T *__restrict__ pw) {
  const int t = threadIdx.x;
#pragma unroll
  for (int j = 0; j < GA_IIR_N; j++) sm[j * GA_IIR_B + t] = c[j];
#pragma unroll 1
  for (int d = 1, k = 0; d < GA_IIR_B; d <<= 1, k++) {
    __syncthreads();
    T prev[GA_IIR_N];
    if (t >= d) {
#pragma unroll
      for (int j = 0; j < GA_IIR_N; j++) prev[j] = sm[j * GA_IIR_B + t - d];
    }
    __syncthreads();
    if (t >= d) {
      ga_iir_matvec_add(c, pw + (size_t)k * GA_IIR_NN, prev);
#pragma unroll
      for (int j = 0; j < GA_IIR_N; j++) sm[j * GA_IIR_B + t] = c[j];
    }
  }
  __syncthreads();
}

// the block's GA_IIR_B * GA_IIR_L samples of row xr from base, zero past n,
// into v (this thread's chunk) through the staging area sm
__device__ __forceinline__ void ga_iir_load(const T *__restrict__ xr, long long base, long long n, T *sm, T *v) {
  const int t = threadIdx.x;
#pragma unroll 4
  for (int e = t; e < GA_IIR_B * GA_IIR_L; e += GA_IIR_B) {
    const long long g = base + e;
    sm[(e / GA_IIR_L) * (GA_IIR_L + 1) + e % GA_IIR_L] = g < n ? xr[g] : T(0);
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < GA_IIR_L; i++) v[i] = sm[t * (GA_IIR_L + 1) + i];
  __syncthreads();
}

// the zero-state final state of this thread's chunk
__device__ __forceinline__ void ga_iir_chunk_state(const T *cf, const T *v, T *c) {
#pragma unroll
  for (int j = 0; j < GA_IIR_N; j++) c[j] = T(0);
#pragma unroll
  for (int i = 0; i < GA_IIR_L; i++) {
    T y;
    ga_iir_step(cf, c, v[i], y);
  }
}

__device__ __forceinline__ void ga_iir_coefs(const T *__restrict__ coef, T *cf) {
#pragma unroll
  for (int j = 0; j < GA_IIR_NC; j++) cf[j] = coef[j];
}

extern "C" __global__ void __launch_bounds__(GA_IIR_B)
ga_iir_local(const T *__restrict__ x, T *__restrict__ agg, const T *__restrict__ coef,
             const T *__restrict__ pw, long long n, long long nblk) {
  extern __shared__ unsigned char ga_iir_smem[];
  T *sm = reinterpret_cast<T *>(ga_iir_smem);
  const long long row = blockIdx.x / nblk, blk = blockIdx.x % nblk;
  T cf[GA_IIR_NC], v[GA_IIR_L], c[GA_IIR_N];
  ga_iir_coefs(coef, cf);
  ga_iir_load(x + row * n, blk * (GA_IIR_B * GA_IIR_L), n, sm, v);
  ga_iir_chunk_state(cf, v, c);
  ga_iir_block_scan(c, sm, pw);
  if (threadIdx.x == GA_IIR_B - 1) {
#pragma unroll
    for (int j = 0; j < GA_IIR_N; j++) agg[(row * nblk + blk) * GA_IIR_N + j] = c[j];
  }
}

// one block per row; zi (the state before the first sample) is read when has_zi
extern "C" __global__ void __launch_bounds__(GA_IIR_B)
ga_iir_carry(const T *__restrict__ agg, T *__restrict__ cin, const T *__restrict__ zi,
             const T *__restrict__ pw, long long nblk, int has_zi) {
  extern __shared__ unsigned char ga_iir_smem[];
  T *sm = reinterpret_cast<T *>(ga_iir_smem);
  const long long row = blockIdx.x;
  const int t = threadIdx.x;
  const T *Q = pw + (size_t)GA_IIR_LOGB * GA_IIR_NN;   // the block transition P^B
  T carry[GA_IIR_N];
#pragma unroll
  for (int j = 0; j < GA_IIR_N; j++) carry[j] = has_zi ? zi[row * GA_IIR_N + j] : T(0);
#pragma unroll 1
  for (long long tile = 0; tile * GA_IIR_B < nblk; tile++) {
    const long long b = tile * GA_IIR_B + t;
    T c[GA_IIR_N];
#pragma unroll
    for (int j = 0; j < GA_IIR_N; j++) c[j] = b < nblk ? agg[(row * nblk + b) * GA_IIR_N + j] : T(0);
    if (t == 0) ga_iir_matvec_add(c, Q, carry);
    ga_iir_block_scan(c, sm, Q);
    if (b < nblk) {
#pragma unroll
      for (int j = 0; j < GA_IIR_N; j++)
        cin[(row * nblk + b) * GA_IIR_N + j] = t == 0 ? carry[j] : sm[j * GA_IIR_B + t - 1];
    }
#pragma unroll
    for (int j = 0; j < GA_IIR_N; j++) carry[j] = sm[j * GA_IIR_B + GA_IIR_B - 1];
    __syncthreads();
  }
}

// zf (the state after the last sample) is written when has_zf
extern "C" __global__ void __launch_bounds__(GA_IIR_B)
ga_iir_apply(const T *__restrict__ x, T *__restrict__ y, const T *__restrict__ cin, T *__restrict__ zf,
             const T *__restrict__ coef, const T *__restrict__ pw, long long n, long long nblk,
             int has_zf) {
  extern __shared__ unsigned char ga_iir_smem[];
  T *sm = reinterpret_cast<T *>(ga_iir_smem);
  const long long row = blockIdx.x / nblk, blk = blockIdx.x % nblk;
  const int t = threadIdx.x;
  const long long base = blk * (GA_IIR_B * GA_IIR_L);
  T cf[GA_IIR_NC], v[GA_IIR_L], c[GA_IIR_N], z[GA_IIR_N];
  ga_iir_coefs(coef, cf);
  ga_iir_load(x + row * n, base, n, sm, v);
  ga_iir_chunk_state(cf, v, c);
#pragma unroll
  for (int j = 0; j < GA_IIR_N; j++) z[j] = cin[(row * nblk + blk) * GA_IIR_N + j];
  if (t == 0) ga_iir_matvec_add(c, pw, z);
  ga_iir_block_scan(c, sm, pw);
  if (t > 0) {
#pragma unroll
    for (int j = 0; j < GA_IIR_N; j++) z[j] = sm[j * GA_IIR_B + t - 1];
  }
  const long long g0 = base + (long long)t * GA_IIR_L;
#pragma unroll
  for (int i = 0; i < GA_IIR_L; i++) {
    T out;
    ga_iir_step(cf, z, v[i], out);
    v[i] = out;
    if (has_zf && g0 + i == n - 1) {
#pragma unroll
      for (int j = 0; j < GA_IIR_N; j++) zf[row * GA_IIR_N + j] = z[j];
    }
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < GA_IIR_L; i++) sm[t * (GA_IIR_L + 1) + i] = v[i];
  __syncthreads();
  T *yr = y + row * n;
#pragma unroll 4
  for (int e = t; e < GA_IIR_B * GA_IIR_L; e += GA_IIR_B) {
    const long long g = base + e;
    if (g < n) yr[g] = sm[(e / GA_IIR_L) * (GA_IIR_L + 1) + e % GA_IIR_L];
  }
}
