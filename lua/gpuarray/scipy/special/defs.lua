--- scipy.special's ufuncs, as data (API.md §15; DESIGN.md "definitions as
-- data"). Each entry: the name, the parameters (SciPy's names, positional
-- as in its ufuncs), the headers of kernels/special/ whose device
-- functions the operation calls, the doc line; optional: nout, op (the
-- CUDA statement; default out0 = sf_<name>(in0, ...)), loops (default the
-- float32 and float64 loops SciPy has: integers and float16 take the first
-- one they cast to safely, as NumPy resolves SciPy's ufuncs).
-- Every float32 loop calls the double function (float in, double math,
-- one rounding: SciPy's own float32 loops do the same) except where a
-- header has a float overload (the erf family, gammaln, expit: CUDA's
-- single precision functions, within a few ulps, for the bandwidth).
local D = {}

local function U(t) D[#D + 1] = t end

-- error function and the normal distribution
U { "erf", "x", h = "sf_erf", doc = "The error function, 2/sqrt(pi) times the integral of exp(-t^2) from 0 to x." }
U { "erfc", "x", h = "sf_erf", doc = "The complementary error function, 1 - erf(x)." }
U { "erfcx", "x", h = "sf_erf", doc = "The scaled complementary error function, exp(x^2) erfc(x)." }
U { "erfinv", "y", h = "sf_erf", doc = "The inverse of erf, on [-1, 1]." }
U { "erfcinv", "y", h = "sf_erf", doc = "The inverse of erfc, on [0, 2]." }
U { "ndtr", "x", h = "sf_erf", doc = "The standard normal distribution function (integral of the density up to x)." }
U { "log_ndtr", "x", h = "sf_erf", doc = "The logarithm of ndtr, accurate far into both tails." }
U { "ndtri", "y", h = "sf_erf", doc = "The inverse of ndtr: the x with ndtr(x) = y." }

-- gamma and beta
U { "gamma", "z", h = "sf_gamma", doc = "The gamma function (inf at 0, nan at the negative integers)." }
U { "rgamma", "z", h = "sf_gamma", doc = "1 / gamma(z), 0 at the poles of gamma." }
U { "gammaln", "x", h = "sf_gamma", doc = "The logarithm of the absolute value of gamma(x)." }
U { "loggamma", "z", h = "sf_gamma", doc = "The logarithm of gamma(z) for real z >= 0 (nan below: real inputs only)." }
U { "gammasgn", "x", h = "sf_gamma", doc = "The sign of gamma(x) (0 at zero and the poles, as SciPy 1.10)." }
U { "digamma", "z", h = "sf_gamma", doc = "The digamma function psi, the logarithmic derivative of gamma." }
U { "beta", "a", "b", h = "sf_gamma", doc = "The beta function gamma(a) gamma(b) / gamma(a + b)." }
U { "betaln", "a", "b", h = "sf_gamma", doc = "The logarithm of the absolute value of beta(a, b)." }
U { "poch", "z", "m", h = "sf_gamma", doc = "The Pochhammer symbol gamma(z + m) / gamma(z)." }
U { "binom", "n", "k", h = "sf_gamma", doc = "The binomial coefficient of real n and k." }

-- Bessel functions
for _, t in ipairs {
  { "j0", "of the first kind of order 0" }, { "j1", "of the first kind of order 1" },
  { "y0", "of the second kind of order 0" }, { "y1", "of the second kind of order 1" },
} do
  U { t[1], "x", h = "sf_besjy", doc = "The Bessel function " .. t[2] .. "." }
end
for _, t in ipairs {
  { "i0", "modified, of the first kind of order 0" }, { "i1", "modified, of the first kind of order 1" },
  { "i0e", "modified, of the first kind of order 0, times exp(-|x|)" },
  { "i1e", "modified, of the first kind of order 1, times exp(-|x|)" },
  { "k0", "modified, of the second kind of order 0" }, { "k1", "modified, of the second kind of order 1" },
  { "k0e", "modified, of the second kind of order 0, times exp(x)" },
  { "k1e", "modified, of the second kind of order 1, times exp(x)" },
} do
  U { t[1], "x", h = "sf_bessel", doc = "The Bessel function " .. t[2] .. "." }
end
U { "yn", "n", "x", h = "sf_besjy", doc = "The Bessel function of the second kind of integer order n (n truncated)." }
for _, t in ipairs {
  { "jv", "of the first kind of real order v (x < 0: integer v only)" },
  { "yv", "of the second kind of real order v (x >= 0)" },
  { "iv", "modified, of the first kind of real order v (x < 0: integer v only)" },
  { "kv", "modified, of the second kind of real order v (x >= 0)" },
  { "jve", "of the first kind of real order v, times exp(-|imag(x)|): jv for real x" },
  { "yve", "of the second kind of real order v, times exp(-|imag(x)|): yv for real x" },
  { "ive", "modified, of the first kind of real order v, times exp(-|x|)" },
  { "kve", "modified, of the second kind of real order v, times exp(x)" },
} do
  U { t[1], "v", "x", h = "sf_besselv", doc = "The Bessel function " .. t[2] .. "." }
end
U { "_spherical_yn", "n", "z", h = "sf_bessel", op = "out0 = sf_spherical_yn(in0, in1, false)",
    doc = "The spherical Bessel function of the second kind." }
U { "_spherical_yn_d", "n", "z", h = "sf_bessel", op = "out0 = sf_spherical_yn(in0, in1, true)",
    doc = "The derivative of the spherical Bessel function of the second kind." }

-- incomplete gamma and its distributions
U { "gammainc", "a", "x", h = "sf_igam", doc = "The regularized lower incomplete gamma function P(a, x)." }
U { "gammaincc", "a", "x", h = "sf_igam",
    doc = "The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)." }
U { "gammaincinv", "a", "y", h = "sf_igam", doc = "The inverse of gammainc in x: P(a, x) = y." }
U { "gammainccinv", "a", "y", h = "sf_igam", doc = "The inverse of gammaincc in x: Q(a, x) = y." }
U { "gdtr", "a", "b", "x", h = "sf_igam", doc = "The gamma distribution function (rate a, shape b) at x: P(b, a x)." }
U { "gdtrc", "a", "b", "x", h = "sf_igam", doc = "The gamma survival function (rate a, shape b): Q(b, a x)." }
U { "pdtr", "k", "m", h = "sf_igam", doc = "The Poisson distribution function: P(N <= k) for mean m." }
U { "pdtrc", "k", "m", h = "sf_igam", doc = "The Poisson survival function: P(N > k) for mean m." }
U { "pdtri", "k", "y", h = "sf_igam", doc = "The Poisson mean m with pdtr(k, m) = y." }
U { "chdtr", "v", "x", h = "sf_igam", doc = "The chi-square distribution function with v degrees of freedom." }
U { "chdtrc", "v", "x", h = "sf_igam", doc = "The chi-square survival function with v degrees of freedom." }
U { "chdtri", "v", "p", h = "sf_igam", doc = "The inverse of chdtrc in x: chdtrc(v, x) = p." }

-- incomplete beta and its distributions
U { "betainc", "a", "b", "x", h = "sf_incbet", doc = "The regularized incomplete beta function I_x(a, b)." }
U { "betaincinv", "a", "b", "y", h = "sf_incbet", doc = "The inverse of betainc in x: I_x(a, b) = y." }
U { "btdtr", "a", "b", "x", h = "sf_incbet", doc = "The beta distribution function (betainc(a, b, x))." }
U { "btdtri", "a", "b", "p", h = "sf_incbet", doc = "The p-th quantile of the beta distribution." }
U { "bdtr", "k", "n", "p", h = "sf_incbet", doc = "The binomial distribution function: P(X <= floor(k)) in n trials." }
U { "bdtrc", "k", "n", "p", h = "sf_incbet", doc = "The binomial survival function: P(X > floor(k)) in n trials." }
U { "bdtri", "k", "n", "y", h = "sf_incbet", doc = "The success probability p with bdtr(k, n, p) = y." }
U { "nbdtr", "k", "n", "p", h = "sf_incbet",
    doc = "The negative binomial distribution function (k failures, n successes)." }
U { "nbdtrc", "k", "n", "p", h = "sf_incbet", doc = "The negative binomial survival function." }
U { "nbdtri", "k", "n", "y", h = "sf_incbet", doc = "The probability p with nbdtr(k, n, p) = y." }
U { "fdtr", "dfn", "dfd", "x", h = "sf_incbet", doc = "The F distribution function." }
U { "fdtrc", "dfn", "dfd", "x", h = "sf_incbet", doc = "The F survival function." }
U { "fdtri", "dfn", "dfd", "p", h = "sf_incbet", doc = "The p-th quantile of the F distribution." }

-- zeta, elliptic integrals, exponential integrals
U { "_zeta1", "x", h = "sf_zeta", op = "out0 = sf_zeta1(in0)", doc = "Riemann's zeta function." }
U { "_zeta2", "x", "q", h = "sf_zeta", op = "out0 = sf_hurwitz(in0, in1)", doc = "The Hurwitz zeta function." }
U { "zetac", "x", h = "sf_zeta", doc = "Riemann's zeta function minus 1 (accurate for large x)." }
U { "polygamma", "n", "x", h = "sf_zeta", doc = "The n-th derivative of digamma (n = 0: digamma itself)." }
U { "ellipk", "m", h = "sf_ellip", doc = "The complete elliptic integral of the first kind K(m)." }
U { "ellipkm1", "p", h = "sf_ellip", doc = "K(1 - p), accurate for small p." }
U { "ellipkinc", "phi", "m", h = "sf_ellip", doc = "The incomplete elliptic integral of the first kind F(phi | m)." }
U { "ellipeinc", "phi", "m", h = "sf_ellip", doc = "The incomplete elliptic integral of the second kind E(phi | m)." }
U { "ellipj", "u", "m", nout = 4, h = "sf_ellip",
    op = "double a_, b_, c_, d_; sf_ellipj(in0, in1, &a_, &b_, &c_, &d_); out0 = a_; out1 = b_; out2 = c_; out3 = d_",
    doc = "The Jacobian elliptic functions sn, cn, dn and the amplitude ph of u for parameter m." }
U { "expn", "n", "x", h = "sf_expint", doc = "The generalized exponential integral E_n(x) (n truncated)." }
U { "exp1", "z", h = "sf_expint", doc = "The exponential integral E_1(z) (for z < 0, its real part)." }
U { "expi", "x", h = "sf_expint", doc = "The exponential integral Ei(x)." }
U { "sici", "x", nout = 2, h = "sf_expint", op = "double a_, b_; sf_sici(in0, &a_, &b_); out0 = a_; out1 = b_",
    doc = "The sine and cosine integrals Si(x), Ci(x) (Ci of |x| for x < 0)." }
U { "shichi", "x", nout = 2, h = "sf_expint", op = "double a_, b_; sf_shichi(in0, &a_, &b_); out0 = a_; out1 = b_",
    doc = "The hyperbolic sine and cosine integrals Shi(x), Chi(x) (Chi of |x| for x < 0)." }
U { "lpmv", "m", "v", "x", h = "sf_orth",
    doc = "The associated Legendre function P_v^m(x) of integer order m (Condon-Shortley phase)." }
U { "sph_harm_y", "n", "m", "theta", "phi", h = "sf_orth", loops = { "ffff->F", "dddd->D" },
    op = "double r_, i_; sf_sph_harm_y(in0, in1, in2, in3, &r_, &i_); out0 = out0_type(r_, i_)",
    doc = "The spherical harmonic Y_n^m(theta, phi), theta polar in [0, pi], phi azimuthal (complex)." }
U { "_lambertw", "zr", "zi", "k", "tol", h = "sf_misc", loops = { "dddd->D" },
    op = "double r_, i_; sf_lambertw(in0, in1, in2, in3, &r_, &i_); out0 = out0_type(r_, i_)",
    doc = "Lambert's W." }
U { "wright_bessel", "a", "b", "x", h = "sf_misc",
    doc = "Wright's generalized Bessel function Phi(a, b; x) (a, b, x >= 0)." }

-- elementary functions
U { "expit", "x", h = "sf_elem", doc = "The logistic sigmoid 1 / (1 + exp(-x))." }
U { "logit", "x", h = "sf_elem", doc = "The inverse of expit, log(p / (1 - p))." }
U { "log_expit", "x", h = "sf_elem", doc = "log(expit(x)), without overflow or cancellation." }
U { "xlogy", "x", "y", h = "sf_elem", doc = "x log(y), 0 where x is 0 (and y is not nan)." }
U { "xlog1py", "x", "y", h = "sf_elem", doc = "x log1p(y), 0 where x is 0 (and y is not nan)." }
U { "entr", "x", h = "sf_elem", doc = "Elementwise entropy: -x log(x) for x > 0, 0 at 0, -inf below." }
U { "rel_entr", "x", "y", h = "sf_elem", doc = "Relative entropy x log(x / y) (0 at x = 0, y >= 0; inf elsewhere)." }
U { "kl_div", "x", "y", h = "sf_elem", doc = "Kullback-Leibler divergence term x log(x / y) - x + y." }
U { "huber", "delta", "r", h = "sf_elem",
    doc = "The Huber loss: r^2/2 for |r| <= delta, delta (|r| - delta/2) beyond." }
U { "pseudo_huber", "delta", "r", h = "sf_elem", doc = "The pseudo-Huber loss delta^2 (sqrt(1 + (r/delta)^2) - 1)." }
U { "boxcox", "x", "lmbda", h = "sf_elem", doc = "The Box-Cox transform (x^lmbda - 1) / lmbda (log x at 0)." }
U { "boxcox1p", "x", "lmbda", h = "sf_elem", doc = "The Box-Cox transform of 1 + x." }
U { "inv_boxcox", "y", "lmbda", h = "sf_elem", doc = "The inverse of boxcox." }
U { "inv_boxcox1p", "y", "lmbda", h = "sf_elem", doc = "The inverse of boxcox1p." }
U { "radian", "d", "m", "s", h = "sf_elem", doc = "Degrees, minutes and seconds to radians." }
U { "cosdg", "x", h = "sf_elem", doc = "The cosine of x degrees (exact at multiples of 90)." }
U { "sindg", "x", h = "sf_elem", doc = "The sine of x degrees (exact at multiples of 90)." }
U { "tandg", "x", h = "sf_elem", doc = "The tangent of x degrees." }
U { "cotdg", "x", h = "sf_elem", doc = "The cotangent of x degrees." }
U { "cosm1", "x", h = "sf_elem", doc = "cos(x) - 1, accurate near 0." }
U { "exprel", "x", h = "sf_elem", doc = "The relative error exponential (exp(x) - 1) / x." }
U { "round", "x", h = "sf_elem", doc = "The nearest integer (halves to even)." }
U { "exp10", "x", h = "sf_elem", doc = "10^x." }
U { "exp2", "x", h = "sf_elem", doc = "2^x." }
U { "cbrt", "x", h = "sf_elem", doc = "The real cube root." }
U { "log1p", "x", h = "sf_elem", doc = "log(1 + x), accurate near 0." }
U { "expm1", "x", h = "sf_elem", doc = "exp(x) - 1, accurate near 0." }
U { "sinc", "x", h = "sf_elem", doc = "The normalised sinc function sin(pi x) / (pi x) (NumPy's sinc)." }

return D
