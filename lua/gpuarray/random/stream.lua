--- Distributions drawn per element from Philox streams, written in Lua as
-- ElementwiseKernels over the output: element i draws from the stream of
-- counter group (offset + i), with the same ga_rstream (philox.cuh) as the
-- engine's gamma, beta, poisson and binomial kinds, so a call uses n
-- counter groups and the numbers depend on the seed, the sequence of
-- calls and the index only (never the launch shape). Parameters are
-- float64 arrays or numbers broadcast against the output (NumPy's array
-- parameters); each distribution is one CUDA expression over the stream
-- `s` below, computed in double and rounded to the output dtype. The
-- samplers are templates over the stream, so random/sequential.lua runs
-- the same expressions over XORWOW and MRG32k3a streams.
return function(ga, bits)
  local core = ga._core
  local S = {}

  -- the samplers NumPy's distributions.c defines over a bit generator,
  -- after its formulas (legacy where the legacy module differs)
  S.PREAMBLE = [[
template <class R> __device__ __forceinline__ double ga_rs_exp(R &s) { return -log(s.open()); }
template <class R> __device__ __forceinline__ double ga_rs_chisq(R &s, double df) {
  return 2.0 * s.gamma(df / 2.0);
}
template <class R> __device__ double ga_rs_ncchisq(R &s, double df, double nonc) {
  if (nonc == 0) return ga_rs_chisq(s, df);
  if (df > 1) {
    const double c = ga_rs_chisq(s, df - 1), n = s.normal() + sqrt(nonc);
    return c + n * n;
  }
  const long long i = s.poisson(nonc / 2.0);
  return ga_rs_chisq(s, df + 2.0 * (double)i);
}
template <class R> __device__ double ga_rs_t(R &s, double df) {
  const double num = s.normal(), denom = s.gamma(df / 2.0);
  return sqrt(df / 2.0) * num / sqrt(denom);
}
template <class R> __device__ double ga_rs_laplace(R &s, double loc, double scale) {
  double u = s.open();
  return u >= 0.5 ? loc - scale * log(2.0 - u - u) : loc + scale * log(u + u);
}
template <class R> __device__ double ga_rs_logistic(R &s, double loc, double scale) {
  const double u = s.open();
  return loc + scale * log(u / (1.0 - u));
}
template <class R> __device__ double ga_rs_gumbel(R &s, double loc, double scale) {
  const double u = s.open();
  return loc - scale * log(-log(u));
}
template <class R> __device__ double ga_rs_triangular(R &s, double left, double mode, double right) {
  const double base = right - left, lb = mode - left, ratio = lb / base;
  const double lp = lb * base, rp = (right - mode) * base, u = s.uniform();
  return u <= ratio ? left + sqrt(u * lp) : right - sqrt((1.0 - u) * rp);
}
template <class R> __device__ double ga_rs_vonmises(R &s, double mu, double kappa) {
  const double pi = 3.141592653589793;
  if (kappa < 1e-8) return pi * (2.0 * s.uniform() - 1.0);
  double r_s, w;
  if (kappa > 1e6) {
    // a wrapped normal, as NumPy for large kappa
    double r = mu + sqrt(1.0 / kappa) * s.normal();
    r = fmod(r + pi, 2.0 * pi);
    if (r < 0) r += 2.0 * pi;
    return r - pi;
  }
  if (kappa < 1e-5) {
    r_s = 1.0 / kappa + kappa;
  } else {
    const double r = 1.0 + sqrt(1.0 + 4.0 * kappa * kappa), rho = (r - sqrt(2.0 * r)) / (2.0 * kappa);
    r_s = (1.0 + rho * rho) / (2.0 * rho);
  }
  for (;;) {
    const double u = s.uniform(), z = cos(pi * u);
    w = (1.0 + r_s * z) / (r_s + z);
    const double y = kappa * (r_s - w), v = s.open();
    if (y * (2.0 - y) - v >= 0 || log(y / v) + 1.0 - y >= 0) break;
  }
  double res = acos(w);
  if (s.uniform() < 0.5) res = -res;
  res += mu;
  const bool neg = res < 0;
  double mod = fabs(res);
  mod = fmod(mod + pi, 2.0 * pi) - pi;
  return neg ? -mod : mod;
}
template <class R> __device__ double ga_rs_wald(R &s, double mean, double scale) {
  const double mu2l = mean / (2.0 * scale);
  double y = s.normal();
  y = mean * y * y;
  const double x = mean + mu2l * (y - sqrt(4.0 * scale * y + y * y));
  return s.uniform() <= mean / (mean + x) ? x : mean * mean / x;
}
template <class R> __device__ long long ga_rs_zipf(R &s, double a) {
  if (a >= 1025.0) return 1;
  const double am1 = a - 1.0, b = pow(2.0, am1);
  for (;;) {
    const double u = 1.0 - s.uniform(), v = s.uniform();
    const double x = floor(pow(u, -1.0 / am1));
    if (x > 9.2233720368547758e18 || x < 1.0) continue;
    const double t = pow(1.0 + 1.0 / x, am1);
    if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return (long long)x;
  }
}
template <class R> __device__ long long ga_rs_geometric(R &s, double p) {
  if (p >= 1.0) return 1;
  const double x = ceil(log(s.open()) / log1p(-p));
  return x < 1.0 ? 1 : x > 9.2233720368547758e18 ? 9223372036854775807LL : (long long)x;
}
template <class R> __device__ long long ga_rs_logseries(R &s, double p) {
  const double r = log1p(-p);
  for (;;) {
    const double v = s.uniform();
    if (v >= p) return 1;
    const double u = s.uniform(), q = -expm1(r * u);
    if (v <= q * q) {
      const double res = floor(1.0 + log(v) / log(q));
      if (res < 1.0 || v == 0.0) continue;
      return (long long)res;
    }
    return v >= q ? 1 : 2;
  }
}
template <class R>
__device__ long long ga_rs_hypergeometric(R &s, long long ngood, long long nbad, long long nsample) {
  // the urn drawn in order, the smaller of the sample and its complement
  long long good = ngood, total = ngood + nbad, m = nsample, x = 0;
  const bool flip = m > total / 2;
  if (flip) m = total - m;
  for (long long j = 0; j < m; j++) {
    if (s.uniform() * (double)total < (double)good) { x++; good--; }
    total--;
  }
  return flip ? ngood - x : x;
}
template <class R> __device__ long long ga_rs_negbinomial(R &s, double n, double p) {
  const double y = s.gamma(n) * ((1.0 - p) / p);
  return y > 0 ? s.poisson(y) : 0;
}
]]

  local preamble
  local function source()
    preamble = preamble or (core.random.philox() .. S.PREAMBLE)
    return preamble
  end
  S.source = source

  local kernels = {}
  --- The kernel of a distribution: params (e.g. "float64 a, float64 b"),
  -- expr over the stream s and them; out_kind "f" (float32/float64) or "i"
  function S.kernel(name, params, expr)
    local k = kernels[name]
    if not k then
      local ins = (params ~= "" and params .. ", " or "") .. "uint64 sbase, uint32 sk0, uint32 sk1"
      k = ga.ElementwiseKernel(ins, "O out",
        ("ga_rstream s(sbase + (unsigned long long)i, sk0, sk1); out = (O)(%s);"):format(expr),
        "ga_random_" .. name, { preamble = source() })
      kernels[name] = k
    end
    return k
  end

  --- Draw into out (a fresh array) with the kernel of name, the
  -- parameters given (numbers or float64 arrays broadcast to out)
  function S.draw(g, name, params, expr, out, ...)
    if g.draw then return g:draw(name, params, expr, out, ...) end   -- a sequential generator
    local n = out.size
    if n == 0 then return out end
    local args = table.pack(...)
    args[args.n + 1] = g.offset
    args[args.n + 2] = g.key & 0xffffffff
    args[args.n + 3] = (g.key >> 32) & 0xffffffff
    args[args.n + 4] = out
    S.kernel(name, params, expr)(table.unpack(args, 1, args.n + 4))
    g.offset = g.offset + n
    return out
  end

  --- multinomial: a row of k counts per sample (sequential binomials);
  -- row r of out from the stream s (shared with random/sequential.lua)
  S.MULTINOMIAL_ROW = [[
      long long rem = n;
      double prem = 1.0;
      for (long long j = 0; j < k - 1; j++) {
        long long x = 0;
        if (rem > 0 && p[j] > 0) x = s.binomial(rem, prem > p[j] ? p[j] / prem : 1.0);
        out[r * k + j] = x;
        rem -= x;
        prem -= p[j];
      }
      out[r * k + k - 1] = rem;
]]
  local multi
  local function multi_kernel()
    multi = multi or ga.ElementwiseKernel(
      "int64 n, raw float64 p, int64 k, uint64 sbase, uint32 sk0, uint32 sk1", "raw int64 out",
      "ga_rstream s(sbase + (unsigned long long)i, sk0, sk1);\nconst long long r = i;\n" .. S.MULTINOMIAL_ROW,
      "ga_random_multinomial", { preamble = source() })
    return multi
  end
  S.multinomial_kernel = multi_kernel
  function S.multinomial(g, n, p, rows, k, out)
    if g.multinomial then return g:multinomial(n, p, rows, k, out) end
    if rows == 0 then return out end
    multi_kernel()(n, p, k, g.offset, g.key & 0xffffffff, (g.key >> 32) & 0xffffffff, out, { size = rows })
    g.offset = g.offset + rows
    return out
  end

  S.bits = bits
  return S
end
