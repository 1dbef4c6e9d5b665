--- nan_to_num and real_if_close (NumPy's functions on floating point
-- values): one ElementwiseKernel, and a reduction deciding on the host.
local api = require "gpuarray.api"
local internal = require "gpuarray.internal"

return function(ga)

  -- the largest finite value and the machine epsilon of a float dtype: finfo's
  local function is_float(dt) return internal.KIND[dt] == "f" end
  local REAL = { complex64 = "float32", complex128 = "float64" }

  -- NaN, +inf and -inf replaced part by part (complex numbers: both parts)
  local kernel
  local function replace_kernel()
    kernel = kernel or ga.ElementwiseKernel("T x, float64 nan_v, float64 pinf, float64 ninf", "T y", [[
      y = ga_nan_to_num(x, nan_v, pinf, ninf)]], "ga_nan_to_num", { preamble = [[
template <typename R> __device__ __forceinline__ R ga_nan_to_num_r(R v, double nan_v, double pinf, double ninf) {
  double d = (double)v;
  if (d != d) return (R)nan_v;
  if (d == (double)ga_inf_d()) return (R)pinf;
  if (d == -(double)ga_inf_d()) return (R)ninf;
  return v;
}
template <typename T> __device__ __forceinline__ T ga_nan_to_num(T v, double a, double b, double c) {
  return ga_nan_to_num_r(v, a, b, c);
}
template <typename R> __device__ __forceinline__ complex<R> ga_nan_to_num(complex<R> v, double a, double b, double c) {
  return complex<R>(ga_nan_to_num_r(v.re, a, b, c), ga_nan_to_num_r(v.im, a, b, c));
}
]] })
    return kernel
  end

  internal.math_kernels = internal.math_kernels or {}
  internal.math_kernels.nan_to_num = replace_kernel   -- for the specs (NVRTC compiles)

  api.def(ga, [[
nan_to_num(x: array_like, copy: boolean = true, nan: number = 0.0, posinf: number?, neginf: number?) -> ndarray
NaN replaced by nan, positive and negative infinity by posinf and neginf
(default: the dtype's largest and most negative finite values), in the
real and imaginary parts alike; integers and booleans unchanged. copy =
false writes into x (an ndarray) and returns it.
]], function(x, copy, nan, posinf, neginf)
    if not internal.is_array(x) then x = ga.asarray(x) copy = true end
    local dt = x.dtype
    local real = REAL[dt] or dt
    if not is_float(real) then return copy and x:copy() or x end
    local y = copy and ga.empty(x.shape, dt) or x
    local fmax = ga.finfo(real).max
    replace_kernel()(x, nan, posinf or fmax, neginf or -fmax, y)
    return y
  end)

  api.def(ga, [[
real_if_close(a: array_like, tol: number = 100) -> ndarray
The real part of a complex array whose imaginary parts are all below tol
(in machine epsilons of its dtype when tol > 1, else absolute); the array
itself otherwise. Synchronizes (the decision is read on the host).
]], function(a, tol)
    a = ga.asarray(a)
    local real = REAL[a.dtype]
    if not real then return a end
    if tol > 1 then tol = tol * ga.finfo(real).eps end
    if a.size > 0 and not ga.all(ga.less(ga.abs(ga.imag(a)), tol)):item() then return a end
    return ga.real(a)
  end)
end
