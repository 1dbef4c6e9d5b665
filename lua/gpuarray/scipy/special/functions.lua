--- scipy.special's functions that are not ufuncs in SciPy: compositions of
-- the ufuncs of defs.lua.
return function(ga, special)
  local api = require "gpuarray.api"
  local internal = require "gpuarray.internal"
  local fail = internal.fail

  api.def(special, [[
scipy.special.spherical_yn(n: array_like, z: array_like, derivative: boolean = false) -> ndarray
The spherical Bessel function of the second kind y_n(z) (n >= 0 integers), or its derivative.
]], function(n, z, derivative)
    return (derivative and special._spherical_yn_d or special._spherical_yn)(n, z)
  end)

  api.def(special, [[
scipy.special.zeta(x: array_like, q: array_like?, out: ndarray?) -> ndarray
Riemann's zeta function of x, or with q the Hurwitz zeta function sum over k >= 0 of (k + q)^-x (x > 1).
]], function(x, q, out)
    local opts = out and { out = out } or nil
    if q == nil then return special._zeta1(x, opts) end
    return special._zeta2(x, q, opts)
  end)

  api.def(special, [[
scipy.special.lambertw(z: array_like, k: integer|ndarray = 0, tol: number = 1e-8) -> ndarray
Lambert's W on branch k: the w with w exp(w) = z (complex128, as SciPy), Halley's iteration to tol.
]], function(z, k, tol)
    if not internal.is_array(z) then z = ga.asarray(z) end
    local re, im
    if z.dtype == "complex64" or z.dtype == "complex128" then
      re, im = ga.real(z):astype("float64"), ga.imag(z):astype("float64")
    else
      re = z:astype("float64")
      im = 0.0
    end
    return special._lambertw(re, im, k, tol)
  end)

  api.def(special, [[
scipy.special.multigammaln(a: array_like, d: integer) -> ndarray
The logarithm of the multivariate gamma function of dimension d: d(d-1)/4 log(pi) + sum over
j = 1..d of gammaln(a - (j - 1)/2). Every a must exceed (d - 1)/2.
]], function(a, d)
    local fname = "scipy.special.multigammaln"
    if d < 1 then fail(fname .. ": d must be a positive integer") end
    -- one gammaln pass a term: 2^62 of them ran for ever (on no data even)
    if d > 65536 then fail(("%s: d = %d is more than 65536 (one gammaln pass per term)"):format(fname, d)) end
    if not internal.is_array(a) then a = ga.asarray(a) end
    if a.size > 0 and not ga.all(ga.greater(a, 0.5 * (d - 1))):item() then
      fail(("%s: condition a (%s) > 0.5 * (d-1) (%g) not met"):format(fname, "some entry", 0.5 * (d - 1)))
    end
    local r = special.gammaln(a)
    for j = 2, d do r = r + special.gammaln(a - 0.5 * (j - 1)) end
    return r + d * (d - 1) / 4 * math.log(math.pi)
  end)
end
