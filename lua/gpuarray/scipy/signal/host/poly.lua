--- Polynomials on the host (highest power first, as numpy.poly1d and
-- scipy.signal's b, a): roots, the polynomial of given roots, products,
-- sums, evaluation. Coefficients are Lua numbers or host complex values
-- (host/cx.lua). Pure Lua, for the design math and the CPU specs.
local cx = require("gpuarray.scipy.signal.host.cx")
local E = require("gpuarray.polynomial.eig")

local P = {}
-- an error a routine's S.host turns into "gpuarray: <routine>: msg"
local function raise(msg) error({ msg = msg }, 2) end

--- The product of two polynomials (their coefficient lists convolved)
function P.mul(a, b)
  local out = {}
  if #a == 0 or #b == 0 then return out end
  for i = 1, #a + #b - 1 do out[i] = 0 end
  for i, av in ipairs(a) do
    for j, bv in ipairs(b) do
      out[i + j - 1] = cx.add(out[i + j - 1], cx.mul(av, bv))
    end
  end
  return out
end

--- a + b, aligned at the constant term (numpy.polyadd)
function P.add(a, b, sign)
  sign = sign or 1
  local n = math.max(#a, #b)
  local out = {}
  for i = 1, n do
    local ai = a[i - (n - #a)] or 0
    local bi = b[i - (n - #b)] or 0
    out[i] = cx.add(ai, cx.mul(sign, bi))
  end
  return out
end
function P.sub(a, b) return P.add(a, b, -1) end

--- p(x) by Horner's rule (x a number or complex)
function P.val(p, x)
  local s = 0
  for _, c in ipairs(p) do s = cx.add(cx.mul(s, x), c) end
  return s
end

--- The derivative's coefficients
function P.der(p)
  local n = #p - 1
  local out = {}
  for i = 1, n do out[i] = cx.mul(p[i], n - i + 1) end
  return out
end

--- numpy.poly of a list of roots: the monic polynomial with those roots;
-- real when the complex roots come in conjugate pairs (as NumPy decides:
-- the sorted positive-imaginary roots equal the conjugates of the sorted
-- negative ones)
function P.from_roots(roots)
  local p = { 1 }
  for _, r in ipairs(roots) do p = P.mul(p, { 1, cx.mul(-1, r) }) end
  if cx.any_cx(p) then
    local pos, neg = {}, {}
    for _, r in ipairs(roots) do
      local im = cx.im(r)
      if im > 0 then pos[#pos + 1] = r elseif im < 0 then neg[#neg + 1] = cx.conj(r) end
    end
    local function key(a, b)
      if cx.re(a) ~= cx.re(b) then return cx.re(a) < cx.re(b) end
      return cx.im(a) < cx.im(b)
    end
    table.sort(pos, key)
    table.sort(neg, key)
    local real = #pos == #neg
    if real then
      for i = 1, #pos do
        if cx.re(pos[i]) ~= cx.re(neg[i]) or cx.im(pos[i]) ~= cx.im(neg[i]) then real = false end
      end
    end
    -- roots that are complex values with imaginary part 0 only give a
    -- real polynomial too
    local all_real = true
    for _, r in ipairs(roots) do if cx.im(r) ~= 0 then all_real = false end end
    if real or all_real then p = cx.reals(p) end
  end
  return p
end

-- roots of a polynomial with complex coefficients (leading one nonzero):
-- the Aberth-Ehrlich iteration (all roots at once, cubic convergence),
-- started on a circle of the Cauchy bound's radius
local function aberth(p)
  local n = #p - 1
  local lead = p[1]
  local q = {}
  for i = 1, #p do q[i] = cx.div(p[i], lead) end
  local radius = 0
  for i = 2, #q do radius = math.max(radius, cx.abs(q[i]) ^ (1 / (i - 1))) end
  radius = math.max(radius, 1e-3)
  local dq = P.der(q)
  local z = {}
  for k = 1, n do z[k] = cx.new(radius * math.cos(2 * math.pi * (k - 0.25) / n + 0.4),
                                radius * math.sin(2 * math.pi * (k - 0.25) / n + 0.4)) end
  for _ = 1, 500 do
    local moved = 0
    for k = 1, n do
      local ratio = cx.div(P.val(q, z[k]), P.val(dq, z[k]))
      local s = 0
      for j = 1, n do
        if j ~= k then s = cx.add(s, cx.div(1, cx.sub(z[k], z[j]))) end
      end
      local w = cx.div(ratio, cx.sub(1, cx.mul(ratio, s)))
      z[k] = cx.sub(z[k], w)
      moved = math.max(moved, cx.abs(w) / math.max(cx.abs(z[k]), 1e-300))
    end
    if moved < 1e-16 then break end
  end
  for k = 1, n do z[k] = cx.from(z[k]) end
  return z
end

--- Balance a square matrix (rows, changed in place) by a similarity with
-- powers of two, so that each row and its column have similar norms
-- (LAPACK's gebal without permutations; numpy.roots' eigvals balances too):
-- the QR iteration then converges faster and more accurately
function P.balance(a)
  local n = #a
  local done = false
  while not done do
    done = true
    for i = 1, n do
      local c, r = 0.0, 0.0
      for j = 1, n do
        if j ~= i then
          c = c + math.abs(a[j][i])
          r = r + math.abs(a[i][j])
        end
      end
      if c ~= 0 and r ~= 0 then
        local g, f, s = r / 2, 1.0, c + r
        while c < g do
          f, c = f * 2, c * 4
        end
        g = r * 2
        while c > g do
          f, c = f / 2, c / 4
        end
        if (c + r) / f < 0.95 * s then
          done = false
          for j = 1, n do a[i][j] = a[i][j] / f end
          for j = 1, n do a[j][i] = a[j][i] * f end
        end
      end
    end
  end
  return a
end

--- numpy.roots: leading zeros dropped, trailing zeros give zero roots,
-- the rest the eigenvalues of the companion matrix (real coefficients) or
-- Aberth's iteration (complex ones). Complex roots are host complex
-- values, real roots numbers when every root is real; otherwise all are
-- complex (as NumPy's result array would be).
function P.roots(p)
  local first, last = nil, nil
  for i, c in ipairs(p) do
    if cx.abs(c) ~= 0 then
      first = first or i
      last = i
    end
  end
  if not first then return {} end
  local core = {}
  for i = first, last do core[#core + 1] = p[i] end
  local nzero = #p - last
  local out = {}
  local n = #core - 1
  -- numpy.roots takes the eigenvalues of the companion matrix, whose first
  -- row is -p[1:] / p[0]: an inf or NaN there is LinAlgError's (NaN roots
  -- that the design math after it indexed as nothing)
  for j = 2, #core do
    local v = cx.div(core[j], core[1])
    local re, im = cx.re(v), cx.im(v)
    if re - re ~= 0 or im - im ~= 0 then raise("Array must not contain infs or NaNs") end
  end
  if n >= 1 then
    if cx.any_complex(core) then
      out = aberth(core)
    else
      core = cx.reals(core)
      local rows = {}
      for i = 1, n do
        rows[i] = {}
        for j = 1, n do rows[i][j] = 0 end
      end
      for j = 1, n do rows[1][j] = -core[j + 1] / core[1] end
      for i = 2, n do rows[i][i - 1] = 1 end
      P.balance(rows)
      local wr, wi = E.eigvals(rows)
      if wr then
        for i = 1, n do out[i] = wi[i] == 0 and wr[i] or cx.new(wr[i], wi[i]) end
      else
        -- repeated roots can stall the QR iteration: Aberth converges (linearly there)
        out = cx.real_if_close(aberth(core))
      end
    end
  end
  for _ = 1, nzero do out[#out + 1] = 0 end
  if cx.any_cx(out) then
    for i = 1, #out do out[i] = cx.from(out[i]) end
  end
  return out
end

--- Leading zeros dropped (at least one coefficient kept)
function P.trim_leading(p)
  local i = 1
  while i < #p and cx.abs(p[i]) == 0 do i = i + 1 end
  local out = {}
  for j = i, #p do out[#out + 1] = p[j] end
  return out
end

--- numpy.polydiv: quotient and remainder
function P.div(u, v)
  local m, n = #u - 1, #v - 1
  local scale = cx.div(1, v[1])
  local q = {}
  for i = 1, math.max(m - n + 1, 1) do q[i] = 0 end
  local r = {}
  for i = 1, #u do r[i] = u[i] end
  for k = 0, m - n do
    local d = cx.mul(scale, r[k + 1])
    q[k + 1] = d
    for j = 0, n do r[k + j + 1] = cx.sub(r[k + j + 1], cx.mul(d, v[j + 1])) end
  end
  -- the remainder's leading zeros dropped as NumPy does: allclose(r[1], 0)
  -- with its default atol 1e-8
  while #r > 1 and cx.abs(r[1]) <= 1e-8 do table.remove(r, 1) end
  return q, r
end

return P
