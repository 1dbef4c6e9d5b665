// signal_iir_serial.cuh: IIR filters whose state is too large for the
// scan of signal_iir.cuh (more than fits its registers and shared memory):
// one thread per row runs the recurrence sequentially. The including source
// defines T, GA_IIR_N, GA_IIR_NC and ga_iir_step as for signal_iir.cuh.
extern "C" __global__ void ga_iir_serial(const T *__restrict__ x, T *__restrict__ y, const T *__restrict__ zi,
                                         T *__restrict__ zf, const T *__restrict__ coef, long long n,
                                         long long rows, int has_zi, int has_zf) {
  const long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  T cf[GA_IIR_NC], z[GA_IIR_N];
  for (int j = 0; j < GA_IIR_NC; j++) cf[j] = coef[j];
  for (int j = 0; j < GA_IIR_N; j++) z[j] = has_zi ? zi[row * GA_IIR_N + j] : T(0);
  const T *xr = x + row * n;
  T *yr = y + row * n;
  for (long long i = 0; i < n; i++) {
    T out;
    ga_iir_step(cf, z, xr[i], out);
    yr[i] = out;
  }
  if (has_zf) {
    for (int j = 0; j < GA_IIR_N; j++) zf[row * GA_IIR_N + j] = z[j];
  }
}
