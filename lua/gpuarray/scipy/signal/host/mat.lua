--- Small dense real matrices on the host (lists of rows), for filter and
-- system design: products, LU solves, Householder QR, least squares
-- (full rank, minimum norm when wide), the symmetric eigenproblem
-- (Jacobi), the matrix exponential (Higham's scaling and squaring, as
-- scipy.linalg.expm) and eigenvalues (polynomial/eig.lua's QR iteration).
-- The matrices here are a state space or a design's normal equations:
-- tens of rows. Errors: error({msg = ...}). Pure Lua.
local E = require("gpuarray.polynomial.eig")
local PADE = require("gpuarray.scipy.linalg.pade")     -- expm's approximants (shared with the GPU expm)

local M = {}

local function raise(msg) error({ msg = msg }, 2) end

function M.zeros(n, m)
  local a = {}
  for i = 1, n do
    a[i] = {}
    for j = 1, m do a[i][j] = 0.0 end
  end
  return a
end

function M.eye(n)
  local a = M.zeros(n, n)
  for i = 1, n do a[i][i] = 1.0 end
  return a
end

function M.copy(a)
  local o = {}
  for i, r in ipairs(a) do
    o[i] = {}
    for j, v in ipairs(r) do o[i][j] = v end
  end
  return o
end

function M.shape(a)
  return #a, (#a > 0 and #a[1] or 0)
end

function M.mul(a, b)
  local n, k = M.shape(a)
  local k2, m = M.shape(b)
  if k ~= k2 then raise(("matrices of shapes (%d, %d) and (%d, %d) cannot be multiplied"):format(n, k, k2, m)) end
  local c = M.zeros(n, m)
  for i = 1, n do
    local ci, ai = c[i], a[i]
    for p = 1, k do
      local v = ai[p]
      if v ~= 0 then
        local bp = b[p]
        for j = 1, m do ci[j] = ci[j] + v * bp[j] end
      end
    end
  end
  return c
end

function M.add(a, b, s)
  s = s or 1
  local c = {}
  for i = 1, #a do
    c[i] = {}
    for j = 1, #a[i] do c[i][j] = a[i][j] + s * b[i][j] end
  end
  return c
end

function M.scale(a, s)
  local c = {}
  for i = 1, #a do
    c[i] = {}
    for j = 1, #a[i] do c[i][j] = a[i][j] * s end
  end
  return c
end

function M.T(a)
  local n, m = M.shape(a)
  local t = M.zeros(m, n)
  for i = 1, n do for j = 1, m do t[j][i] = a[i][j] end end
  return t
end

--- A column vector (n x 1) from a list, and back
function M.col(v)
  local c = {}
  for i, x in ipairs(v) do c[i] = { x } end
  return c
end
function M.uncol(c)
  local v = {}
  for i, r in ipairs(c) do v[i] = r[1] end
  return v
end

function M.norm1(a)
  local n, m = M.shape(a)
  local best = 0.0
  for j = 1, m do
    local s = 0.0
    for i = 1, n do s = s + math.abs(a[i][j]) end
    if s > best then best = s end
  end
  return best
end

--- LU with partial pivoting of a square matrix: lu (combined), pivots,
-- or nil when a pivot is exactly zero
function M.lu(a)
  local n = #a
  local lu = M.copy(a)
  local piv = {}
  for k = 1, n do
    local p, best = k, math.abs(lu[k][k])
    for i = k + 1, n do
      if math.abs(lu[i][k]) > best then p, best = i, math.abs(lu[i][k]) end
    end
    piv[k] = p
    if best == 0 then return nil end
    if p ~= k then lu[k], lu[p] = lu[p], lu[k] end
    for i = k + 1, n do
      local f = lu[i][k] / lu[k][k]
      lu[i][k] = f
      if f ~= 0 then
        for j = k + 1, n do lu[i][j] = lu[i][j] - f * lu[k][j] end
      end
    end
  end
  return lu, piv
end

--- a x = b for a square a and a matrix b (n x m); raises when singular
function M.solve(a, b)
  local n = #a
  local lu, piv = M.lu(a)
  if not lu then raise("Singular matrix") end
  local x = M.copy(b)
  local m = #x > 0 and #x[1] or 0
  for k = 1, n do
    if piv[k] ~= k then x[k], x[piv[k]] = x[piv[k]], x[k] end
  end
  for j = 1, m do
    for i = 2, n do
      local s = x[i][j]
      for k = 1, i - 1 do s = s - lu[i][k] * x[k][j] end
      x[i][j] = s
    end
    for i = n, 1, -1 do
      local s = x[i][j]
      for k = i + 1, n do s = s - lu[i][k] * x[k][j] end
      x[i][j] = s / lu[i][i]
    end
  end
  return x
end

function M.inv(a) return M.solve(a, M.eye(#a)) end

function M.det(a)
  local lu, piv = M.lu(a)
  if not lu then return 0.0 end
  local d = 1.0
  for k = 1, #a do
    d = d * lu[k][k]
    if piv[k] ~= k then d = -d end
  end
  return d
end

--- Householder QR of an n x m matrix with n >= m: the thin Q (n x m) and R (m x m)
function M.qr(a)
  local n, m = M.shape(a)
  local r = M.copy(a)
  local vs = {}
  for k = 1, math.min(n - 1, m) do
    local norm = 0.0
    for i = k, n do norm = norm + r[i][k] ^ 2 end
    norm = math.sqrt(norm)
    local v = {}
    if norm > 0 then
      local alpha = r[k][k] > 0 and -norm or norm
      for i = k, n do v[i] = r[i][k] end
      v[k] = v[k] - alpha
      local vv = 0.0
      for i = k, n do vv = vv + v[i] ^ 2 end
      if vv > 0 then
        for j = k, m do
          local s = 0.0
          for i = k, n do s = s + v[i] * r[i][j] end
          s = 2 * s / vv
          for i = k, n do r[i][j] = r[i][j] - s * v[i] end
        end
        vs[k] = { v = v, vv = vv }
      end
    end
  end
  -- Q = H1 H2 ... applied to the first m columns of the identity
  local q = M.zeros(n, m)
  for i = 1, m do q[i][i] = 1.0 end
  for k = math.min(n - 1, m), 1, -1 do
    local h = vs[k]
    if h then
      for j = 1, m do
        local s = 0.0
        for i = k, n do s = s + h.v[i] * q[i][j] end
        s = 2 * s / h.vv
        for i = k, n do q[i][j] = q[i][j] - s * h.v[i] end
      end
    end
  end
  local rr = M.zeros(m, m)
  for i = 1, m do for j = i, m do rr[i][j] = r[i][j] end end
  return q, rr
end

--- Least squares a x = b (b a list): the solution of the normal problem
-- for a tall full-rank a, the minimum-norm solution for a wide one
function M.lstsq(a, b)
  local n, m = M.shape(a)
  if n >= m then
    local q, r = M.qr(a)
    local qtb = {}
    for j = 1, m do
      local s = 0.0
      for i = 1, n do s = s + q[i][j] * b[i] end
      qtb[j] = s
    end
    local x = {}
    for i = m, 1, -1 do
      local s = qtb[i]
      for k = i + 1, m do s = s - r[i][k] * x[k] end
      x[i] = s / r[i][i]
    end
    return x
  end
  -- wide: a^T = Q R, x = Q R^-T b
  local q, r = M.qr(M.T(a))
  local y = {}
  for i = 1, n do
    local s = b[i]
    for k = 1, i - 1 do s = s - r[k][i] * y[k] end
    y[i] = s / r[i][i]
  end
  local x = {}
  for i = 1, m do
    local s = 0.0
    for k = 1, n do s = s + q[i][k] * y[k] end
    x[i] = s
  end
  return x
end

--- The eigenvalues and eigenvectors (columns of v) of a symmetric matrix
-- by cyclic Jacobi rotations
function M.eigh(a)
  local n = #a
  local s = M.copy(a)
  local v = M.eye(n)
  for _ = 1, 100 do
    local off = 0.0
    for i = 1, n do for j = i + 1, n do off = off + s[i][j] ^ 2 end end
    if off < 1e-30 then break end
    for p = 1, n - 1 do
      for q = p + 1, n do
        if s[p][q] ~= 0 then
          local theta = (s[q][q] - s[p][p]) / (2 * s[p][q])
          local t = (theta >= 0 and 1 or -1) / (math.abs(theta) + math.sqrt(theta * theta + 1))
          local c = 1 / math.sqrt(t * t + 1)
          local sn = t * c
          for k = 1, n do
            local skp, skq = s[k][p], s[k][q]
            s[k][p], s[k][q] = c * skp - sn * skq, sn * skp + c * skq
          end
          for k = 1, n do
            local spk, sqk = s[p][k], s[q][k]
            s[p][k], s[q][k] = c * spk - sn * sqk, sn * spk + c * sqk
          end
          for k = 1, n do
            local vkp, vkq = v[k][p], v[k][q]
            v[k][p], v[k][q] = c * vkp - sn * vkq, sn * vkp + c * vkq
          end
        end
      end
    end
  end
  local w = {}
  for i = 1, n do w[i] = s[i][i] end
  return w, v
end

--- x = pinv(a) b for a symmetric a (b a list), eigenvalues below
-- rcond * max |eigenvalue| dropped: the minimum-norm least-squares solution
function M.solve_sym_lstsq(a, b, rcond)
  local w, v = M.eigh(a)
  local n = #a
  local big = 0.0
  for i = 1, n do big = math.max(big, math.abs(w[i])) end
  local cut = (rcond or n * 2.220446049250313e-16) * big
  local x = {}
  for i = 1, n do x[i] = 0.0 end
  for k = 1, n do
    if math.abs(w[k]) > cut then
      local s = 0.0
      for i = 1, n do s = s + v[i][k] * b[i] end
      s = s / w[k]
      for i = 1, n do x[i] = x[i] + s * v[i][k] end
    end
  end
  return x
end

--- e^a (Higham 2005: Pade approximants of degree 3 to 13 and squaring)
function M.expm(a)
  local n = #a
  if n == 0 then return {} end
  local b, theta = PADE.coefficients[13], {}
  for _, e in ipairs(PADE.theta.double) do theta[e[1]] = e[2] end
  local I = M.eye(n)
  local nrm = M.norm1(a)
  -- an infinite or NaN entry: NaN throughout (the squarings' count would
  -- be infinite)
  if not (nrm < math.huge) then -- luacheck: ignore 581 (NaN)
    local r = M.zeros(n, n)
    for i = 1, n do for j = 1, n do r[i][j] = 0 / 0 end end
    return r
  end
  local function pade(A, c)
    local A2 = M.mul(A, A)
    local U = M.scale(I, c[2])
    local V = M.scale(I, c[1])
    local P = I
    for k = 1, (#c - 1) // 2 do
      P = M.mul(P, A2)
      U = M.add(U, M.scale(P, c[2 * k + 2]))
      V = M.add(V, M.scale(P, c[2 * k + 1]))
    end
    U = M.mul(A, U)
    return U, V
  end
  local U, V, s
  for _, m in ipairs({ 3, 5, 7, 9 }) do
    if nrm <= theta[m] then
      U, V = pade(a, PADE.coefficients[m])
      s = 0
      break
    end
  end
  if not U then
    s = math.max(0, math.ceil(math.log(nrm / theta[13], 2)))
    local A = M.scale(a, 2.0 ^ -s)
    local A2 = M.mul(A, A)
    local A4 = M.mul(A2, A2)
    local A6 = M.mul(A4, A2)
    local t1 = M.add(M.add(M.scale(A6, b[14]), M.scale(A4, b[12])), M.scale(A2, b[10]))
    local u = M.add(M.add(M.add(M.mul(A6, t1), M.scale(A6, b[8])), M.add(M.scale(A4, b[6]), M.scale(A2, b[4]))),
                    M.scale(I, b[2]))
    U = M.mul(A, u)
    local t2 = M.add(M.add(M.scale(A6, b[13]), M.scale(A4, b[11])), M.scale(A2, b[9]))
    V = M.add(M.add(M.add(M.mul(A6, t2), M.scale(A6, b[7])), M.add(M.scale(A4, b[5]), M.scale(A2, b[3]))),
              M.scale(I, b[1]))
  end
  local R = M.solve(M.add(V, U, -1), M.add(V, U))
  for _ = 1, s do R = M.mul(R, R) end
  return R
end

--- The eigenvalues of a real square matrix: lists of real and imaginary parts
function M.eigvals(a)
  if #a == 0 then return {}, {} end
  local wr, wi = E.eigvals(a)
  if not wr then raise("the eigenvalue iteration did not converge") end
  return wr, wi
end

return M
