--- CPU references for the linalg specs, on ndref models ({data, shape},
-- complex values as {re, im} pairs): scalar arithmetic that takes numbers
-- or pairs, NumPy's matmul (1-D promotion, batch broadcasting, integer
-- wrap-around, bool as "any"), a brute-force einsum, dense real matrix
-- helpers (as flat row-major lists) and comparisons.
local ga = require "gpuarray"
local R = require "ndref"
local luassert = require "luassert"   -- busted gives its assert to spec files only

local L = {}

-- scalars --------------------------------------------------------------
local function pair(v) if type(v) == "table" then return v[1], v[2] end return v, 0 end
function L.add(a, b)
  if type(a) ~= "table" and type(b) ~= "table" then return a + b end
  local ar, ai = pair(a)
  local br, bi = pair(b)
  return { ar + br, ai + bi }
end
function L.mul(a, b)
  if type(a) ~= "table" and type(b) ~= "table" then return a * b end
  local ar, ai = pair(a)
  local br, bi = pair(b)
  return { ar * br - ai * bi, ar * bi + ai * br }
end
function L.conj(a) if type(a) == "table" then return { a[1], -a[2] } end return a end
function L.abs(a)
  if type(a) == "table" then return math.sqrt(a[1] * a[1] + a[2] * a[2]) end
  if type(a) == "boolean" then return a and 1 or 0 end
  return math.abs(a)
end
function L.sub(a, b) return L.add(a, L.mul(b, -1)) end

local BITS = { int8 = 8, int16 = 16, int32 = 32, int64 = 64, uint8 = 8, uint16 = 16, uint32 = 32, uint64 = 64 }
--- v wrapped to an integer dtype as two's complement does it
function L.wrap(v, dt)
  local bits = BITS[dt]
  if not bits or bits == 64 then return v end
  local m = 1 << bits
  v = v % m
  if dt:sub(1, 1) == "i" and v >= m >> 1 then v = v - m end
  return v
end

-- matmul -------------------------------------------------------------------
--- NumPy's matmul of models A and B computed in dtype dt
function L.matmul(A, B, dt)
  local sa, sb = { table.unpack(A.shape) }, { table.unpack(B.shape) }
  local a1, b1 = #sa == 1, #sb == 1
  if a1 then table.insert(sa, 1, 1) end
  if b1 then sb[2] = 1 end
  local m, k, n = sa[#sa - 1], sa[#sa], sb[#sb]
  local nb = math.max(#sa, #sb) - 2
  local batch = {}
  for i = 1, nb do
    local da = sa[#sa - 2 - nb + i] or 1
    local db = sb[#sb - 2 - nb + i] or 1
    batch[i] = da == 1 and db or da
  end
  local out = {}
  for _, d in ipairs(batch) do out[#out + 1] = d end
  out[#out + 1] = m
  out[#out + 1] = n
  local Am, Bm = { data = A.data, shape = sa }, { data = B.data, shape = sb }
  local isbool = dt == "bool"
  local C = R.build(out, function(mi)
    local ia, ib = {}, {}
    for i = 1, #sa - 2 do
      local d = mi[nb - (#sa - 2) + i]
      ia[i] = sa[i] == 1 and 1 or d
    end
    for i = 1, #sb - 2 do
      local d = mi[nb - (#sb - 2) + i]
      ib[i] = sb[i] == 1 and 1 or d
    end
    local r, c = mi[nb + 1], mi[nb + 2]
    local acc = 0
    if isbool then acc = false end
    for j = 1, k do
      ia[#sa - 1], ia[#sa] = r, j
      ib[#sb - 1], ib[#sb] = j, c
      local x, y = R.get(Am, ia), R.get(Bm, ib)
      if isbool then acc = acc or (x and y) else acc = L.add(acc, L.mul(x, y)) end
    end
    if BITS[dt] then acc = L.wrap(acc, dt) end
    return acc
  end)
  local final = { table.unpack(batch) }
  if not a1 then final[#final + 1] = m end
  if not b1 then final[#final + 1] = n end
  C.shape = final
  return C
end

-- einsum -------------------------------------------------------------------
--- einsum with explicit "->" over models, by enumerating every index value
function L.einsum(spec, ...)
  local ops = { ... }
  local lhs, rhs = spec:match("^(.*)%->(.*)$")
  local terms = {}
  for t in (lhs .. ","):gmatch("([^,]*),") do terms[#terms + 1] = t end
  local size, letters = {}, {}
  for i, t in ipairs(terms) do
    local d = 0
    for c in t:gmatch(".") do
      d = d + 1
      if not size[c] then letters[#letters + 1] = c end
      size[c] = ops[i].shape[d]
    end
  end
  local oshape = {}
  for c in rhs:gmatch(".") do oshape[#oshape + 1] = size[c] end
  local out = R.build(oshape, function() return 0 end)
  local val = {}
  local function rec(li)
    if li > #letters then
      local p = 1
      for i, t in ipairs(terms) do
        local mi = {}
        for c in t:gmatch(".") do mi[#mi + 1] = val[c] end
        p = L.mul(p, R.get(ops[i], mi))
      end
      local k = 0
      local d = 0
      for c in rhs:gmatch(".") do
        d = d + 1
        k = k * oshape[d] + (val[c] - 1)
      end
      out.data[k + 1] = L.add(out.data[k + 1], p)
      return
    end
    for v = 1, size[letters[li]] do
      val[letters[li]] = v
      rec(li + 1)
    end
  end
  rec(1)
  return out
end

-- comparisons -------------------------------------------------------------
--- max |got - want| <= tol * (1 + max |want|), elementwise over flat lists
function L.close(got, want, tol)
  if #got ~= #want then return false, ("lengths %d and %d"):format(#got, #want) end
  local scale = 1
  for _, w in ipairs(want) do scale = math.max(scale, L.abs(w)) end
  for i = 1, #want do
    local g, w = got[i], want[i]
    if type(w) == "boolean" or type(g) == "boolean" then
      if g ~= w then return false, ("[%d]: %s vs %s"):format(i, tostring(g), tostring(w)) end
    else
      local d = L.abs(L.sub(g, w))
      if d ~= d or d > tol * scale then
        return false, ("[%d]: got %s want %s (diff %g, tol %g)"):format(i,
          type(g) == "table" and ("{%g,%g}"):format(g[1], g[2]) or tostring(g),
          type(w) == "table" and ("{%g,%g}"):format(w[1], w[2]) or tostring(w), d, tol * scale)
      end
    end
  end
  return true
end

function L.assert_close(got, want, tol, what)
  local ok, why = L.close(got, want, tol)
  assert(ok, (what or "values") .. ": " .. tostring(why))
end

-- dense real matrices as {n rows of lists} -----------------------------------
function L.rows(x)
  local t = x:totable()
  return t
end
function L.mm(A, B)
  local m, k, n = #A, #B, #B[1]
  local C = {}
  for i = 1, m do
    C[i] = {}
    for j = 1, n do
      local s = 0
      for l = 1, k do s = s + A[i][l] * B[l][j] end
      C[i][j] = s
    end
  end
  return C
end
function L.T(A)
  local T = {}
  for j = 1, #A[1] do
    T[j] = {}
    for i = 1, #A do T[j][i] = A[i][j] end
  end
  return T
end
function L.eye(n)
  local I = {}
  for i = 1, n do
    I[i] = {}
    for j = 1, n do I[i][j] = i == j and 1 or 0 end
  end
  return I
end
--- max |A - B| over all elements, relative to 1 + max |B|
function L.maxdiff(A, B)
  local d, s = 0, 1
  for i = 1, #B do
    for j = 1, #B[i] do
      d = math.max(d, math.abs(A[i][j] - B[i][j]))
      s = math.max(s, math.abs(B[i][j]))
    end
  end
  return d / s
end
--- determinant by Gaussian elimination with partial pivoting
function L.det(A)
  local n = #A
  local M = {}
  for i = 1, n do M[i] = { table.unpack(A[i]) } end
  local det = 1
  for c = 1, n do
    local p = c
    for r = c + 1, n do if math.abs(M[r][c]) > math.abs(M[p][c]) then p = r end end
    if M[p][c] == 0 then return 0 end
    if p ~= c then M[p], M[c] = M[c], M[p]; det = -det end
    det = det * M[c][c]
    for r = c + 1, n do
      local f = M[r][c] / M[c][c]
      for j = c, n do M[r][j] = M[r][j] - f * M[c][j] end
    end
  end
  return det
end
--- x with A x = b (b a list of columns' rows: n x k), by elimination
function L.solve(A, B)
  local n, k = #A, #B[1]
  local M = {}
  for i = 1, n do
    M[i] = { table.unpack(A[i]) }
    for j = 1, k do M[i][n + j] = B[i][j] end
  end
  for c = 1, n do
    local p = c
    for r = c + 1, n do if math.abs(M[r][c]) > math.abs(M[p][c]) then p = r end end
    M[p], M[c] = M[c], M[p]
    for r = 1, n do
      if r ~= c then
        local f = M[r][c] / M[c][c]
        for j = c, n + k do M[r][j] = M[r][j] - f * M[c][j] end
      end
    end
  end
  local X = {}
  for i = 1, n do
    X[i] = {}
    for j = 1, k do X[i][j] = M[i][n + j] / M[i][i] end
  end
  return X
end
--- a random m x n real matrix (values in [-1, 1)) as rows, plus diag on the diagonal
function L.rand_rows(m, n, diag)
  local A = {}
  for i = 1, m do
    A[i] = {}
    for j = 1, n do A[i][j] = math.random() * 2 - 1 + ((i == j and diag) or 0) end
  end
  return A
end


-- GPU arrays against each other (the decomposition specs) -------------------
--- x^H (the last two axes swapped, conjugated when complex)
function L.conj_t(x)
  local t = x:swapaxes(-1, -2)
  return x.dtype:find("complex", 1, true) and ga.conj(t) or t
end
--- max |x - y| / (1 + max |y|) over two arrays of one shape
function L.gdiff(x, y)
  luassert.are.same(y.shape, x.shape)
  local a, b = R.values(x), R.values(y)
  local d, s = 0, 1
  for i = 1, #b do
    d = math.max(d, L.abs(L.sub(a[i], b[i])))
    s = math.max(s, L.abs(b[i]))
  end
  return d / s
end
function L.assert_small(v, tol, what)
  assert(v <= tol, ("%s: %g > %g"):format(what, v, tol))
end
--- a random array of shape (values in [-1, 1)), plus diag on each matrix's diagonal
function L.rand_gpu(shape, dt, diag)
  local M = { shape = shape, data = R.rand_list(R.size(shape), dt, -1, 1) }
  local x = R.to_gpu(M, dt)
  if diag then x = ga.add(x, ga.multiply(ga.eye(shape[#shape], dt), diag)) end
  return x
end

return L
