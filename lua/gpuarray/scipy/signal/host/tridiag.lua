--- The largest eigenpairs of a symmetric tridiagonal matrix on the host
-- (dpss's Slepian sequences; SciPy calls LAPACK's stebz/stein through
-- eigh_tridiagonal): eigenvalues by bisection on Sturm counts, vectors by
-- inverse iteration with a pivoted tridiagonal LU, then Gram-Schmidt
-- against the vectors already found. Pure Lua.
local T = {}

-- how many eigenvalues of the matrix (diagonal d, off-diagonal e) are < x
local function sturm_count(d, e, x)
  local n = #d
  local count = 0
  local q = d[1] - x
  if q < 0 then count = count + 1 end
  for i = 2, n do
    if q == 0 then q = 1e-300 end
    q = d[i] - x - e[i - 1] * e[i - 1] / q
    if q < 0 then count = count + 1 end
  end
  return count
end

-- the k-th smallest eigenvalue (1-based) by bisection in Gershgorin's interval
local function kth(d, e, k)
  local n = #d
  local lo, hi = math.huge, -math.huge
  for i = 1, n do
    local r = (i > 1 and math.abs(e[i - 1]) or 0) + (i < n and math.abs(e[i]) or 0)
    lo = math.min(lo, d[i] - r)
    hi = math.max(hi, d[i] + r)
  end
  for _ = 1, 200 do
    local mid = (lo + hi) / 2
    if mid == lo or mid == hi then break end
    if sturm_count(d, e, mid) >= k then hi = mid else lo = mid end
  end
  return (lo + hi) / 2
end

-- solve (T - lambda I) x = b with partial pivoting (LAPACK gttrf/gttrs's
-- scheme); b is overwritten and returned
local function solve_shifted(d, e, lambda, b)
  local n = #d
  local dl, dd, du, du2, piv = {}, {}, {}, {}, {}
  for i = 1, n do dd[i] = d[i] - lambda end
  for i = 1, n - 1 do
    dl[i], du[i] = e[i], e[i]
  end
  for i = 1, n - 2 do du2[i] = 0 end
  local tiny = 1e-300
  for i = 1, n - 1 do
    if math.abs(dd[i]) >= math.abs(dl[i]) then
      piv[i] = false
      if dd[i] == 0 then dd[i] = tiny end
      local f = dl[i] / dd[i]
      dl[i] = f
      dd[i + 1] = dd[i + 1] - f * du[i]
    else
      piv[i] = true
      local f = dd[i] / dl[i]
      dd[i] = dl[i]
      dl[i] = f
      local t = du[i]
      du[i] = dd[i + 1]
      dd[i + 1] = t - f * dd[i + 1]
      if i < n - 1 then
        du2[i] = du[i + 1]
        du[i + 1] = -f * du[i + 1]
      end
    end
  end
  if dd[n] == 0 then dd[n] = tiny end
  -- L solve
  for i = 1, n - 1 do
    if piv[i] then
      b[i], b[i + 1] = b[i + 1], b[i] - dl[i] * b[i + 1]
    else
      b[i + 1] = b[i + 1] - dl[i] * b[i]
    end
  end
  -- U solve
  b[n] = b[n] / dd[n]
  if n > 1 then b[n - 1] = (b[n - 1] - du[n - 1] * b[n]) / dd[n - 1] end
  for i = n - 2, 1, -1 do
    b[i] = (b[i] - du[i] * b[i + 1] - du2[i] * b[i + 2]) / dd[i]
  end
  return b
end

local function normalize(x)
  local s = 0.0
  for _, v in ipairs(x) do s = s + v * v end
  s = math.sqrt(s)
  for i = 1, #x do x[i] = x[i] / s end
  return x
end

--- The K largest eigenvalues (descending) and their unit eigenvectors
-- (lists of #d numbers) of the tridiagonal matrix with diagonal d and
-- off-diagonal e
function T.eigh_largest(d, e, K)
  local n = #d
  local vals, vecs = {}, {}
  for k = 1, K do
    local lambda = kth(d, e, n - k + 1)
    vals[k] = lambda
    local scale = 0
    for i = 1, n do scale = math.max(scale, math.abs(d[i]), math.abs(e[i] or 0)) end
    local shift = lambda + scale * 1e-14 * ((k % 2 == 0) and 1 or -1)
    local x = {}
    for i = 1, n do x[i] = 1.0 + 0.01 * math.sin(i * 1.7 + k) end
    for _ = 1, 4 do
      x = normalize(solve_shifted(d, e, shift, x))
      for j = 1, k - 1 do
        local dot = 0.0
        for i = 1, n do dot = dot + x[i] * vecs[j][i] end
        for i = 1, n do x[i] = x[i] - dot * vecs[j][i] end
      end
      x = normalize(x)
    end
    vecs[k] = x
  end
  return vals, vecs
end

return T
