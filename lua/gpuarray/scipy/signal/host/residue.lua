--- Partial fractions on the host, as scipy.signal's: unique_roots,
-- residue / invres (powers of s) and residuez / invresz (powers of
-- z^-1), with repeated poles grouped within tol. Pure Lua.
local cx = require("gpuarray.scipy.signal.host.cx")
local P = require("gpuarray.scipy.signal.host.poly")

local RZ = {}
local function raise(msg) error({ msg = msg }, 2) end

-- complex values ordered as NumPy orders them (real part, then imaginary)
local function less(a, b)
  if cx.re(a) ~= cx.re(b) then return cx.re(a) < cx.re(b) end
  return cx.im(a) < cx.im(b)
end

local function reducer(rtype)
  if rtype == "max" or rtype == "maximum" then
    return function(g)
      local m = g[1]
      for i = 2, #g do if less(m, g[i]) then m = g[i] end end
      return m
    end
  elseif rtype == "min" or rtype == "minimum" then
    return function(g)
      local m = g[1]
      for i = 2, #g do if less(g[i], m) then m = g[i] end end
      return m
    end
  elseif rtype == "avg" or rtype == "mean" then
    return function(g)
      local s = 0
      for _, v in ipairs(g) do s = cx.add(s, v) end
      return cx.div(s, #g)
    end
  end
  raise("`rtype` must be one of {'max', 'maximum', 'min', 'minimum', 'avg', 'mean'}")
end

-- a root is grouped with those within tol of it, itself included: a
-- negative or NaN tol left every group empty (a NaN root of multiplicity 0
-- that residue then took the factor of); invres's grouping needs no check
local function check_tol(tol)
  if not (tol >= 0) then -- luacheck: ignore 581 (NaN)
    raise(("tol must be a non-negative number, got %s"):format(tol ~= tol and "NaN" or tostring(tol)))
  end
end

--- The distinct roots (within tol of each other) and their multiplicities
function RZ.unique_roots(p, tol, rtype)
  check_tol(tol)
  local reduce = reducer(rtype)
  local used, uniq, mult = {}, {}, {}
  for i = 1, #p do
    if not used[i] then
      local group = {}
      for j = 1, #p do
        if not used[j] and cx.abs(cx.sub(p[j], p[i])) <= tol then
          group[#group + 1] = p[j]
          used[j] = true
        end
      end
      uniq[#uniq + 1] = reduce(group)
      mult[#mult + 1] = #group
    end
  end
  return uniq, mult
end

-- poles grouped in the order given (consecutive ones within tol)
local function group_poles(poles, tol, rtype)
  local reduce = reducer(rtype)
  local uniq, mult = {}, {}
  local pole = poles[1]
  local block = { pole }
  for i = 2, #poles do
    if cx.abs(cx.sub(poles[i], pole)) <= tol then
      block[#block + 1] = pole
    else
      uniq[#uniq + 1] = reduce(block)
      mult[#mult + 1] = #block
      pole = poles[i]
      block = { pole }
    end
  end
  uniq[#uniq + 1] = reduce(block)
  mult[#mult + 1] = #block
  return uniq, mult
end

local function compute_factors(roots, multiplicity, include_powers)
  local current = { 1 }
  local suffixes = { current }
  for i = #roots, 2, -1 do
    local monomial = { 1, cx.mul(-1, roots[i]) }
    for _ = 1, multiplicity[i] do current = P.mul(current, monomial) end
    suffixes[#suffixes + 1] = current
  end
  local rev = {}
  for i = #suffixes, 1, -1 do rev[#rev + 1] = suffixes[i] end
  local factors = {}
  current = { 1 }
  for i, pole in ipairs(roots) do
    local monomial = { 1, cx.mul(-1, pole) }
    local block = {}
    for q = 1, multiplicity[i] do
      if q == 1 or include_powers then block[#block + 1] = P.mul(current, rev[i]) end
      current = P.mul(current, monomial)
    end
    for q = #block, 1, -1 do factors[#factors + 1] = block[q] end
  end
  return factors, current
end

local function compute_residues(poles, multiplicity, numerator)
  local factors = compute_factors(poles, multiplicity, false)
  local residues = {}
  for i, pole in ipairs(poles) do
    local mult, factor = multiplicity[i], factors[i]
    if mult == 1 then
      residues[#residues + 1] = cx.div(P.val(numerator, pole), P.val(factor, pole))
    else
      local numer = numerator
      local monomial = { 1, cx.mul(-1, pole) }
      local f, d = P.div(factor, monomial)
      local block = {}
      for _ = 1, mult do
        local n
        numer, n = P.div(numer, monomial)
        local r = cx.div(n[1], d[1])
        numer = P.sub(numer, P.mul({ r }, f))
        block[#block + 1] = r
      end
      for q = #block, 1, -1 do residues[#residues + 1] = block[q] end
    end
  end
  return residues
end

local function trim(p, from_back)
  local out = {}
  for i, v in ipairs(p) do out[i] = v end
  if from_back then
    while #out > 0 and cx.abs(out[#out]) == 0 do out[#out] = nil end
  else
    while #out > 0 and cx.abs(out[1]) == 0 do table.remove(out, 1) end
  end
  return out
end

-- sorted by |p| (cmplx_sort, stable), with the permutation
local function cmplx_sort(p)
  local idx = {}
  for i = 1, #p do idx[i] = i end
  table.sort(idx, function(i, j)
    local a, b = cx.abs(p[i]), cx.abs(p[j])
    if a ~= b then return a < b end
    return i < j
  end)
  local out = {}
  for i, k in ipairs(idx) do out[i] = p[k] end
  return out, idx
end

local function zeros(n)
  local o = {}
  for i = 1, n do o[i] = 0.0 end
  return o
end

function RZ.residue(b, a, tol, rtype)
  check_tol(tol)
  b, a = trim(b), trim(a)
  if #a == 0 then raise("Denominator `a` is zero.") end
  local poles = P.roots(a)
  if #b == 0 then return zeros(#poles), (cmplx_sort(poles)), {} end
  local k = {}
  if #b >= #a then k, b = P.div(b, a) end
  local up, mult = RZ.unique_roots(poles, tol, rtype)
  local order
  up, order = cmplx_sort(up)
  local m2 = {}
  for i, o in ipairs(order) do m2[i] = mult[o] end
  local res = compute_residues(up, m2, b)
  local out = {}
  for i, pole in ipairs(up) do
    for _ = 1, m2[i] do out[#out + 1] = pole end
  end
  for i = 1, #res do res[i] = cx.div(res[i], a[1]) end
  return res, out, k
end

function RZ.residuez(b, a, tol, rtype)
  check_tol(tol)
  b, a = trim(b, true), trim(a, true)
  if #a == 0 then raise("Denominator `a` is zero.") end
  if cx.abs(a[1]) == 0 then raise("First coefficient of determinant `a` must be non-zero.") end
  local poles = P.roots(a)
  if #b == 0 then return zeros(#poles), (cmplx_sort(poles)), {} end
  local b_rev, a_rev = {}, {}
  for i = #b, 1, -1 do b_rev[#b_rev + 1] = b[i] end
  for i = #a, 1, -1 do a_rev[#a_rev + 1] = a[i] end
  local k_rev = {}
  if #b_rev >= #a_rev then k_rev, b_rev = P.div(b_rev, a_rev) end
  local up, mult = RZ.unique_roots(poles, tol, rtype)
  local order
  up, order = cmplx_sort(up)
  local m2 = {}
  for i, o in ipairs(order) do m2[i] = mult[o] end
  local inv = {}
  for i, v in ipairs(up) do inv[i] = cx.div(1, v) end
  local res = compute_residues(inv, m2, b_rev)
  local out, powers = {}, {}
  for i, pole in ipairs(up) do
    for q = 1, m2[i] do
      out[#out + 1] = pole
      powers[#powers + 1] = q
    end
  end
  for i = 1, #res do res[i] = cx.div(cx.mul(res[i], cx.ipow(cx.mul(-1, out[i]), powers[i])), a_rev[1]) end
  local k = {}
  for i = #k_rev, 1, -1 do k[#k + 1] = k_rev[i] end
  return res, out, k
end

-- (SciPy's IndexError: the poles are grouped from the first one; residues
-- past the poles' factors are left out, as SciPy's zip leaves them)
local function no_poles(p)
  if #p == 0 then raise("p must hold at least one pole") end
end

function RZ.invres(r, p, k, tol, rtype)
  no_poles(p)
  k = trim(k)
  local up, mult = group_poles(p, tol, rtype)
  local factors, den = compute_factors(up, mult, true)
  local numer = #k == 0 and { 0 } or P.mul(k, den)
  for i = 1, math.min(#r, #factors) do
    local res, f = r[i], {}
    for j, v in ipairs(factors[i]) do f[j] = cx.mul(res, v) end
    numer = P.add(numer, f)
  end
  return numer, den
end

function RZ.invresz(r, p, k, tol, rtype)
  no_poles(p)
  k = trim(k, true)
  local up, mult = group_poles(p, tol, rtype)
  local factors, den = compute_factors(up, mult, true)
  local function rev(t)
    local o = {}
    for i = #t, 1, -1 do o[#o + 1] = t[i] end
    return o
  end
  local numer = #k == 0 and { 0 } or P.mul(rev(k), rev(den))
  for i = 1, math.min(#r, #factors) do
    local res, f = r[i], {}
    for j, v in ipairs(rev(factors[i])) do f[j] = cx.mul(res, v) end
    numer = P.add(numer, f)
  end
  return rev(numer), den
end

return RZ
