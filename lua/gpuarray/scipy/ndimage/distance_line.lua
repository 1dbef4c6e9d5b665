--- One pass of distance_transform_edt along one axis, a thread block per
-- line with the line in shared memory: g(q) = min over p of
-- w*(q - p)^2 + f(p) (f: the previous pass, or 0 at the input's zeros and
-- inf elsewhere for the first). The block first scans its line for, at
-- each position, the nearest finite f at or left of it (and right of it)
-- and the least f at or left of it (and right of it, rounded down to
-- float: only bounds); then each q looks left and right through the finite
-- candidates only, nearest first, and stops a side once w*d^2 plus the
-- least f beyond can no longer beat the best. That is exact (every skipped
-- candidate is provably no better), and a candidate equal to the best is
-- taken only from the left, so ties go to the smallest p as the lower
-- envelope's evaluation (the global-memory pass in distance.lua) gives
-- them. On the usual masks a q looks at a few candidates; the work grows
-- with the distance only where many finite candidates lie near the best.
-- Lines longer than MAX_N (or past the device's shared memory) go to the
-- global-memory pass.
local L = {}

L.THREADS = 256
L.MAX_N = 65534   -- positions are unsigned shorts, 0xFFFF is "none"

local SOURCE = [[
#define GND_NONE 0xFFFFu
extern "C" __global__ void %s(const %s *src, double *g, long long n, long long inner, double w%s) {
  extern __shared__ double gnd_sm[];
  const int N = (int)n, T = blockDim.x, t = threadIdx.x;
  double *F = gnd_sm;
  float *PM = (float *)(F + N);
  float *SM = PM + N;
  unsigned short *LF = (unsigned short *)(SM + N);
  unsigned short *RF = LF + N;
  int *aL = (int *)(F + 2 * N + (N + 1) / 2);   // past the 20 bytes per position, 8-aligned
  int *aR = aL + T;
  float *aPM = (float *)(aR + T);
  float *aSM = aPM + T;
  const double INF = __longlong_as_double(0x7ff0000000000000LL);
  const long long line = blockIdx.x;
  const long long base = (line / inner) * n * inner + line %% inner;
  for (int q = t; q < N; q += T) F[q] = %s;
  __syncthreads();
  // each thread's chunk: the nearest finite and the least f within it
  const int c = (N + T - 1) / T, lo = t * c < N ? t * c : N, hi = lo + c < N ? lo + c : N;
  int last = -1, first = N;
  float mn = INF, mn2 = INF;
  for (int q = lo; q < hi; ++q) {
    if (!isinf(F[q])) last = q;
    mn = fminf(mn, __double2float_rd(F[q]));
    LF[q] = last < 0 ? GND_NONE : (unsigned short)last;
    PM[q] = mn;
  }
  for (int q = hi - 1; q >= lo; --q) {
    if (!isinf(F[q])) first = q;
    mn2 = fminf(mn2, __double2float_rd(F[q]));
    RF[q] = first >= N ? GND_NONE : (unsigned short)first;
    SM[q] = mn2;
  }
  aL[t] = last; aPM[t] = mn; aR[t] = first; aSM[t] = mn2;
  __syncthreads();
  // inclusive scans over the chunks: left to right (max, min), right to left (min, min)
  for (int off = 1; off < T; off <<= 1) {
    const int l = t >= off ? aL[t - off] : -1, r = t + off < T ? aR[t + off] : N;
    const float pm = t >= off ? aPM[t - off] : INF, sm = t + off < T ? aSM[t + off] : INF;
    __syncthreads();
    aL[t] = max(aL[t], l); aPM[t] = fminf(aPM[t], pm);
    aR[t] = min(aR[t], r); aSM[t] = fminf(aSM[t], sm);
    __syncthreads();
  }
  {
    const int cl = t > 0 ? aL[t - 1] : -1, cr = t + 1 < T ? aR[t + 1] : N;
    const float cpm = t > 0 ? aPM[t - 1] : INF, csm = t + 1 < T ? aSM[t + 1] : INF;
    for (int q = lo; q < hi; ++q) {
      if (LF[q] == GND_NONE && cl >= 0) LF[q] = (unsigned short)cl;
      if (RF[q] == GND_NONE && cr < N) RF[q] = (unsigned short)cr;
      PM[q] = fminf(PM[q], cpm);
      SM[q] = fminf(SM[q], csm);
    }
  }
  __syncthreads();
  for (int q = t; q < N; q += T) {
    double best = F[q];
    int bp = isinf(best) ? -1 : q;
    // left, nearest first: p < every p taken so far, so an equal value wins
    unsigned int p = q > 0 ? LF[q - 1] : GND_NONE;
    while (p != GND_NONE) {
      const double d = (double)(q - (int)p);
      if (w * d * d + (double)PM[p] > best) break;
      const double v = w * d * d + F[p];
      if (v <= best) { best = v; bp = (int)p; }
      p = p > 0 ? LF[p - 1] : GND_NONE;
    }
    // right: larger p, so only a smaller value wins
    p = q + 1 < N ? RF[q + 1] : GND_NONE;
    while (p != GND_NONE) {
      const double d = (double)((int)p - q);
      if (w * d * d + (double)SM[p] >= best) break;
      const double v = w * d * d + F[p];
      if (v < best) { best = v; bp = (int)p; }
      p = p + 1 < (unsigned int)N ? RF[p + 1] : GND_NONE;
    }
    const long long at = base + q * inner;
    g[at] = %s;
%s  }
}
]]

local INDEX_PARAMS = ", int axis, const int *iin, int *iout, long long total"
local INDEX_BODY = [[
    for (int e = 0; e < %d; ++e)
      iout[e * total + at] = bp < 0 ? -1 : e == axis ? bp : iin[e * total + base + bp * inner];
]]

--- the CUDA of one variant: first (src is the bool mask), N (the rank:
-- indices ride along when given), root (write sqrt of the result)
function L.source(name, first, N, root)
  return SOURCE:format(name, first and "bool" or "double", N and INDEX_PARAMS or "",
                       first and "src[base + q * inner] ? INF : 0.0" or "src[base + q * inner]",
                       root and "sqrt(best)" or "best", N and INDEX_BODY:format(N) or "")
end

--- dynamic shared memory of a line of n with T threads
function L.shared_bytes(n, T)
  return 8 * (2 * n + (n + 1) // 2) + 16 * T
end

--- threads per block for a line of n: whole warps up to THREADS
function L.threads(n)
  local T = (n + 31) // 32 * 32
  return math.max(32, math.min(L.THREADS, T))
end

return L
