--- The rest of NumPy's distributions (random/stream.lua draws them): each
-- is a CUDA expression over the per-element stream `s`, its parameters
-- (numbers, or arrays broadcast against the output as NumPy's array
-- parameters) and the checks NumPy makes on them. Also gamma, beta,
-- exponential, poisson and binomial with array parameters, multinomial,
-- multivariate_normal, dirichlet, random_integers and bytes.
-- luacheck: ignore 581 (not (x > 0) is meant: NaN parameters fail the checks)
return function(ga, bits, M)
  local internal = require("gpuarray.internal")
  local fail, is_array = internal.fail, internal.is_array
  local S = require("gpuarray.random.stream")(ga, bits)
  M._stream = S

  -- a parameter: a Lua number, or a float64 (int64) ndarray
  local function param(v, fname, what, int)
    if v == nil then fail(("%s: %s is required"):format(fname, what)) end
    if type(v) == "number" then
      if int and math.type(v) ~= "integer" then
        if v ~= math.floor(v) then fail(("%s: %s must be an integer"):format(fname, what)) end
        v = math.tointeger(v)
      end
      return v
    end
    if type(v) == "table" and not is_array(v) then v = ga.array(v, int and "int64" or "float64") end
    if not is_array(v) then fail(("%s: %s must be a number or an ndarray, got %s"):format(fname, what, type(v))) end
    return v:astype(int and "int64" or "float64")
  end

  -- bad(x) for a number, bad_arr(a) -> bool ndarray for an array
  local function check(v, bad, bad_arr, msg)
    if is_array(v) then
      if v.size > 0 and ga.any(bad_arr(v)):item() then fail(msg) end
    elseif bad(v) then
      fail(msg)
    end
  end
  local function nonpos(fname, what, v)
    check(v, function(x) return not (x > 0) end, function(a) return ga.logical_not(a:gt(0)) end,
          ("%s: %s <= 0"):format(fname, what))
  end
  local function negative(fname, what, v)
    check(v, function(x) return not (x >= 0) end, function(a) return ga.logical_not(a:ge(0)) end,
          ("%s: %s < 0"):format(fname, what))
  end

  -- the output: size, else the parameters' broadcast shape
  local function out_array(size, dt, params)
    if size == nil then
      local shapes = {}
      for _, v in ipairs(params) do if is_array(v) then shapes[#shapes + 1] = v.shape end end
      if #shapes > 0 then return ga.empty(ga.broadcast_shapes(table.unpack(shapes)), dt) end
    end
    return ga.empty(bits.shape(size), dt)
  end

  -- one distribution: D = { params = "float64 a, ...", expr = "...", int = bool }
  local function run(self, name, D, size, dtype, fname, ...)
    local values = table.pack(...)
    local dt = D.int and bits.int_dtype(dtype, fname) or bits.float_dtype(dtype, fname)
    local out = out_array(size, dt, values)
    return S.draw(self._bits, name, D.params, D.expr, out, table.unpack(values, 1, values.n))
  end

  local DIST = {
    standard_cauchy = { params = "", expr = "s.normal() / s.normal()" },
    standard_t = { params = "float64 df", expr = "ga_rs_t(s, df)" },
    chisquare = { params = "float64 df", expr = "ga_rs_chisq(s, df)" },
    noncentral_chisquare = { params = "float64 df, float64 nonc", expr = "ga_rs_ncchisq(s, df, nonc)" },
    f = { params = "float64 dfnum, float64 dfden",
          expr = "(ga_rs_chisq(s, dfnum) * dfden) / (ga_rs_chisq(s, dfden) * dfnum)" },
    noncentral_f = { params = "float64 dfnum, float64 dfden, float64 nonc",
                     expr = "(ga_rs_ncchisq(s, dfnum, nonc) * dfden) / (ga_rs_chisq(s, dfden) * dfnum)" },
    laplace = { params = "float64 loc, float64 scale", expr = "ga_rs_laplace(s, loc, scale)" },
    logistic = { params = "float64 loc, float64 scale", expr = "ga_rs_logistic(s, loc, scale)" },
    gumbel = { params = "float64 loc, float64 scale", expr = "ga_rs_gumbel(s, loc, scale)" },
    pareto = { params = "float64 a", expr = "expm1(ga_rs_exp(s) / a)" },
    power = { params = "float64 a", expr = "pow(-expm1(-ga_rs_exp(s)), 1.0 / a)" },
    rayleigh = { params = "float64 scale", expr = "scale * sqrt(2.0 * ga_rs_exp(s))" },
    triangular = { params = "float64 left, float64 mode, float64 right",
      expr = "ga_rs_triangular(s, left, mode, right)" },
    vonmises = { params = "float64 mu, float64 kappa", expr = "ga_rs_vonmises(s, mu, kappa)" },
    wald = { params = "float64 mean, float64 scale", expr = "ga_rs_wald(s, mean, scale)" },
    weibull = { params = "float64 a", expr = "a == 0 ? 0.0 : pow(ga_rs_exp(s), 1.0 / a)" },
    zipf = { params = "float64 a", expr = "ga_rs_zipf(s, a)", int = true },
    geometric = { params = "float64 p", expr = "ga_rs_geometric(s, p)", int = true },
    hypergeometric = { params = "int64 ngood, int64 nbad, int64 nsample",
                       expr = "ga_rs_hypergeometric(s, ngood, nbad, nsample)", int = true },
    logseries = { params = "float64 p", expr = "ga_rs_logseries(s, p)", int = true },
    negative_binomial = { params = "float64 n, float64 p", expr = "ga_rs_negbinomial(s, n, p)", int = true },
    -- array-parameter forms of the engine's kinds (the same numbers as the
    -- engine gives for numbers: the same stream per element)
    gamma = { params = "float64 shape, float64 scale", expr = "s.gamma(shape) * scale" },
    beta = { params = "float64 a, float64 b", expr = "s.beta(a, b)" },
    exponential = { params = "float64 scale", expr = "scale * ga_rs_exp(s)" },
    poisson = { params = "float64 lam", expr = "s.poisson(lam)", int = true },
    binomial = { params = "int64 n, float64 p", expr = "s.binomial(n, p)", int = true },
  }
  M._DIST = DIST
  --- every kernel, compiled for a dtype (the CPU specs)
  function M._compile_all(only)
    local out = {}
    for name, D in pairs(DIST) do
      if only and not only[name] then goto continue end
      local dts = {}
      for p in D.params:gmatch("(%w+) %w+") do dts[#dts + 1] = p end
      dts[#dts + 1], dts[#dts + 2], dts[#dts + 3] = "uint64", "uint32", "uint32"
      dts[#dts + 1] = D.int and "int64" or "float32"
      out[name] = S.kernel(name, D.params, D.expr):compile(table.unpack(dts))
      ::continue::
    end
    out.multinomial = S.multinomial_kernel():compile("int64", "float64", "int64", "uint64", "uint32", "uint32",
                                                     "int64")
    return out
  end
  internal.random_kernels = M._compile_all

  function M.standard_cauchy(self, size, dtype)
    return run(self, "standard_cauchy", DIST.standard_cauchy, size, dtype, "random.standard_cauchy")
  end
  function M.standard_t(self, df, size, dtype)
    local fname = "random.standard_t"
    df = param(df, fname, "df")
    nonpos(fname, "df", df)
    return run(self, "standard_t", DIST.standard_t, size, dtype, fname, df)
  end
  function M.chisquare(self, df, size, dtype)
    local fname = "random.chisquare"
    df = param(df, fname, "df")
    nonpos(fname, "df", df)
    return run(self, "chisquare", DIST.chisquare, size, dtype, fname, df)
  end
  function M.noncentral_chisquare(self, df, nonc, size, dtype)
    local fname = "random.noncentral_chisquare"
    df, nonc = param(df, fname, "df"), param(nonc, fname, "nonc")
    nonpos(fname, "df", df)
    negative(fname, "nonc", nonc)
    return run(self, "noncentral_chisquare", DIST.noncentral_chisquare, size, dtype, fname, df, nonc)
  end
  function M.f(self, dfnum, dfden, size, dtype)
    local fname = "random.f"
    dfnum, dfden = param(dfnum, fname, "dfnum"), param(dfden, fname, "dfden")
    nonpos(fname, "dfnum", dfnum)
    nonpos(fname, "dfden", dfden)
    return run(self, "f", DIST.f, size, dtype, fname, dfnum, dfden)
  end
  function M.noncentral_f(self, dfnum, dfden, nonc, size, dtype)
    local fname = "random.noncentral_f"
    dfnum, dfden, nonc = param(dfnum, fname, "dfnum"), param(dfden, fname, "dfden"), param(nonc, fname, "nonc")
    nonpos(fname, "dfnum", dfnum)
    nonpos(fname, "dfden", dfden)
    negative(fname, "nonc", nonc)
    return run(self, "noncentral_f", DIST.noncentral_f, size, dtype, fname, dfnum, dfden, nonc)
  end
  for _, name in ipairs({ "laplace", "logistic", "gumbel" }) do
    M[name] = function(self, loc, scale, size, dtype)
      local fname = "random." .. name
      loc, scale = param(loc, fname, "loc"), param(scale, fname, "scale")
      negative(fname, "scale", scale)
      return run(self, name, DIST[name], size, dtype, fname, loc, scale)
    end
  end
  for _, name in ipairs({ "pareto", "power" }) do
    M[name] = function(self, a, size, dtype)
      local fname = "random." .. name
      a = param(a, fname, "a")
      nonpos(fname, "a", a)
      return run(self, name, DIST[name], size, dtype, fname, a)
    end
  end
  function M.weibull(self, a, size, dtype)
    local fname = "random.weibull"
    a = param(a, fname, "a")
    negative(fname, "a", a)
    return run(self, "weibull", DIST.weibull, size, dtype, fname, a)
  end
  function M.rayleigh(self, scale, size, dtype)
    local fname = "random.rayleigh"
    scale = param(scale, fname, "scale")
    negative(fname, "scale", scale)
    return run(self, "rayleigh", DIST.rayleigh, size, dtype, fname, scale)
  end
  function M.triangular(self, left, mode, right, size, dtype)
    local fname = "random.triangular"
    left, mode, right = param(left, fname, "left"), param(mode, fname, "mode"), param(right, fname, "right")
    local function arr(v) return is_array(v) and v or ga.asarray(v + 0.0) end
    if is_array(left) or is_array(mode) or is_array(right) then
      local l, m, r = arr(left), arr(mode), arr(right)
      if ga.any(l:gt(m)):item() then fail(fname .. ": left > mode") end
      if ga.any(m:gt(r)):item() then fail(fname .. ": mode > right") end
      if ga.any(l:eq(r)):item() then fail(fname .. ": left == right") end
    else
      if left > mode then fail(fname .. ": left > mode") end
      if mode > right then fail(fname .. ": mode > right") end
      if left == right then fail(fname .. ": left == right") end
    end
    return run(self, "triangular", DIST.triangular, size, dtype, fname, left, mode, right)
  end
  function M.vonmises(self, mu, kappa, size, dtype)
    local fname = "random.vonmises"
    mu, kappa = param(mu, fname, "mu"), param(kappa, fname, "kappa")
    negative(fname, "kappa", kappa)
    return run(self, "vonmises", DIST.vonmises, size, dtype, fname, mu, kappa)
  end
  function M.wald(self, mean, scale, size, dtype)
    local fname = "random.wald"
    mean, scale = param(mean, fname, "mean"), param(scale, fname, "scale")
    nonpos(fname, "mean", mean)
    nonpos(fname, "scale", scale)
    return run(self, "wald", DIST.wald, size, dtype, fname, mean, scale)
  end
  function M.zipf(self, a, size, dtype)
    local fname = "random.zipf"
    a = param(a, fname, "a")
    check(a, function(x) return not (x > 1) end, function(v) return ga.logical_not(v:gt(1)) end, fname .. ": a <= 1.0")
    return run(self, "zipf", DIST.zipf, size, dtype, fname, a)
  end
  function M.geometric(self, p, size, dtype)
    local fname = "random.geometric"
    p = param(p, fname, "p")
    check(p, function(x) return not (x > 0 and x <= 1) end,
          function(v) return ga.logical_not(ga.logical_and(v:gt(0), v:le(1))) end,
            fname .. ": p <= 0, p > 1 or p is NaN")
    return run(self, "geometric", DIST.geometric, size, dtype, fname, p)
  end
  function M.logseries(self, p, size, dtype)
    local fname = "random.logseries"
    p = param(p, fname, "p")
    check(p, function(x) return not (x >= 0 and x < 1) end,
          function(v) return ga.logical_not(ga.logical_and(v:ge(0), v:lt(1))) end,
            fname .. ": p < 0, p >= 1 or p is NaN")
    return run(self, "logseries", DIST.logseries, size, dtype, fname, p)
  end
  function M.negative_binomial(self, n, p, size, dtype)
    local fname = "random.negative_binomial"
    n, p = param(n, fname, "n"), param(p, fname, "p")
    nonpos(fname, "n", n)
    check(p, function(x) return not (x > 0 and x <= 1) end,
          function(v) return ga.logical_not(ga.logical_and(v:gt(0), v:le(1))) end,
            fname .. ": p <= 0, p > 1 or p is NaN")
    return run(self, "negative_binomial", DIST.negative_binomial, size, dtype, fname, n, p)
  end
  function M.hypergeometric(self, ngood, nbad, nsample, size, dtype)
    local fname = "random.hypergeometric"
    ngood, nbad = param(ngood, fname, "ngood", true), param(nbad, fname, "nbad", true)
    nsample = param(nsample, fname, "nsample", true)
    negative(fname, "ngood", ngood)
    negative(fname, "nbad", nbad)
    negative(fname, "nsample", nsample)
    if is_array(ngood) or is_array(nbad) or is_array(nsample) then
      if ga.any(ga.less(ga.add(ngood, nbad), nsample)):item() then fail(fname .. ": ngood + nbad < nsample") end
    elseif ngood + nbad < nsample then
      fail(fname .. ": ngood + nbad < nsample")
    end
    return run(self, "hypergeometric", DIST.hypergeometric, size, dtype, fname, ngood, nbad, nsample)
  end

  -- the engine's kinds, with array parameters through the streams
  local scalar = { gamma = M.gamma, beta = M.beta, exponential = M.exponential, poisson = M.poisson,
                   binomial = M.binomial }
  function M.gamma(self, shape, scale, size, dtype)
    if not (is_array(shape) or is_array(scale)) then return scalar.gamma(self, shape, scale, size, dtype) end
    local fname = "random.gamma"
    shape, scale = param(shape, fname, "shape"), param(scale == nil and 1.0 or scale, fname, "scale")
    negative(fname, "shape", shape)
    negative(fname, "scale", scale)
    return run(self, "gamma", DIST.gamma, size, dtype, fname, shape, scale)
  end
  function M.standard_gamma(self, shape, size, dtype)
    return M.gamma(self, shape, 1.0, size, dtype)
  end
  function M.beta(self, a, b, size, dtype)
    if not (is_array(a) or is_array(b)) then return scalar.beta(self, a, b, size, dtype) end
    local fname = "random.beta"
    a, b = param(a, fname, "a"), param(b, fname, "b")
    nonpos(fname, "a", a)
    nonpos(fname, "b", b)
    return run(self, "beta", DIST.beta, size, dtype, fname, a, b)
  end
  function M.exponential(self, scale, size, dtype)
    if not is_array(scale) then return scalar.exponential(self, scale, size, dtype) end
    local fname = "random.exponential"
    scale = param(scale, fname, "scale")
    negative(fname, "scale", scale)
    return run(self, "exponential", DIST.exponential, size, dtype, fname, scale)
  end
  function M.poisson(self, lam, size, dtype)
    if not is_array(lam) then return scalar.poisson(self, lam, size, dtype) end
    local fname = "random.poisson"
    lam = param(lam, fname, "lam")
    negative(fname, "lam", lam)
    return run(self, "poisson", DIST.poisson, size, dtype, fname, lam)
  end
  function M.binomial(self, n, p, size, dtype)
    if not (is_array(n) or is_array(p)) then return scalar.binomial(self, n, p, size, dtype) end
    local fname = "random.binomial"
    n, p = param(n, fname, "n", true), param(p, fname, "p")
    negative(fname, "n", n)
    check(p, function(x) return not (x >= 0 and x <= 1) end,
          function(v) return ga.logical_not(ga.logical_and(v:ge(0), v:le(1))) end,
            fname .. ": p < 0, p > 1 or p is NaN")
    return run(self, "binomial", DIST.binomial, size, dtype, fname, n, p)
  end

  ---------------------------------------------------------------------------
  function M.multinomial(self, n, pvals, size)
    local fname = "random.multinomial"
    if math.type(n) ~= "integer" or n < 0 then fail(fname .. ": n must be a non-negative integer") end
    local p = is_array(pvals) and pvals:astype("float64") or ga.array(pvals, "float64")
    if p.ndim ~= 1 or p.size == 0 then fail(fname .. ": pvals must be a non-empty 1-d sequence") end
    local pt = p:totable()
    local sum = 0
    for i = 1, #pt - 1 do
      if not (pt[i] >= 0 and pt[i] <= 1) then fail(fname .. ": pvals < 0, pvals > 1 or pvals contains NaNs") end
      sum = sum + pt[i]
    end
    if sum > 1.0 + 1e-12 then fail(fname .. ": sum(pvals[:-1]) > 1.0") end
    local shape = bits.shape(size)
    if type(shape) == "number" then shape = { shape } end
    local rows = 1
    for _, d in ipairs(shape) do rows = rows * d end
    local k = #pt
    local out = ga.empty(rows * k, "int64")
    S.multinomial(self._bits, n, ga.ascontiguousarray(p), rows, k, out)
    shape[#shape + 1] = k
    return out:reshape(shape)
  end

  function M.dirichlet(self, alpha, size, dtype)
    local fname = "random.dirichlet"
    local a = is_array(alpha) and alpha:astype("float64") or ga.array(alpha, "float64")
    if a.ndim ~= 1 or a.size == 0 then fail(fname .. ": alpha must be a non-empty 1-d sequence") end
    if ga.any(ga.logical_not(a:gt(0))):item() then fail(fname .. ": alpha <= 0") end
    local shape = bits.shape(size)
    if type(shape) == "number" then shape = { shape } end
    shape[#shape + 1] = a.size
    local dt = bits.float_dtype(dtype, fname)
    local g = run(self, "gamma", DIST.gamma, shape, "float64", fname, a, 1.0)
    local r = g / ga.sum(g, { axis = -1, keepdims = true })
    return r.dtype == dt and r or r:astype(dt)
  end

  function M.multivariate_normal(self, mean, cov, size, check_valid, tol, method, dtype)
    local fname = "random.multivariate_normal"
    local m = is_array(mean) and mean:astype("float64") or ga.array(mean, "float64")
    local c = is_array(cov) and cov:astype("float64") or ga.array(cov, "float64")
    if m.ndim ~= 1 then fail(fname .. ": mean must be 1 dimensional") end
    local k = m.size
    if c.ndim ~= 2 or c.shape[1] ~= c.shape[2] then fail(fname .. ": cov must be 2 dimensional and square") end
    if c.shape[1] ~= k then fail(fname .. ": mean and cov must have same length") end
    local shape = bits.shape(size)
    if type(shape) == "number" then shape = { shape } end
    local rows = 1
    for _, d in ipairs(shape) do rows = rows * d end
    local A   -- x @ A with x standard normal rows
    if method == "cholesky" then
      A = ga.linalg.cholesky(c):transpose()
    elseif method == "eigh" then
      local s, u = ga.linalg.eigh(c)
      if check_valid ~= "ignore" and ga.any(s:lt(-tol)):item() then
        if check_valid == "raise" then fail(fname .. ": covariance is not symmetric positive-semidefinite.") end
      end
      A = ga.sqrt(ga.abs(s)):reshape(k, 1) * u:transpose()
    else
      local u, s, vh = ga.linalg.svd(c)
      if check_valid ~= "ignore" then
        local back = ga.matmul(vh:transpose() * s, vh)
        if not ga.allclose(back, c, { rtol = tol, atol = tol }) and check_valid == "raise" then
          fail(fname .. ": covariance is not symmetric positive-semidefinite.")
        end
      end
      local _ = u
      A = ga.sqrt(s):reshape(k, 1) * vh
    end
    local dt = bits.float_dtype(dtype, fname)
    local z = M.standard_normal(self, { rows, k }, "float64")
    local x = ga.matmul(z, A) + m
    shape[#shape + 1] = k
    x = x:reshape(shape)
    return x.dtype == dt and x or x:astype(dt)
  end

  function M.random_integers(self, low, high, size)
    if high == nil then low, high = 1, low end
    return M._integers(self, "random.random_integers", low, high, size, "int64", true)
  end

  function M.bytes(self, length)
    if math.type(length) ~= "integer" or length < 0 then fail("random.bytes: length must be a non-negative integer") end
    if length == 0 then return "" end
    return M._integers(self, "random.bytes", 0, 255, length, "uint8", true):tobytes()
  end
end
