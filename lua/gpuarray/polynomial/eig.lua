--- Eigenvalues of a small real non-symmetric matrix, on the host: the
-- matrix is reduced to upper Hessenberg form by Householder reflections
-- (a companion matrix already is), then Francis's implicit double-shift
-- QR iteration deflates it to 1 x 1 and 2 x 2 blocks (the EISPACK hqr
-- algorithm, as described in Numerical Recipes §11.6). linalg has only
-- eigh (symmetric) on the device; the eigenproblems here (roots of a
-- polynomial of degree up to a few hundred, poly of a small matrix) cost
-- O(n^3) with n that small, less than a device round trip.
local E = {}

--- Householder reduction of a (n x n, 1-based rows, changed in place) to
-- upper Hessenberg form, similar to a
function E.hessenberg(a, n)
  for k = 1, n - 2 do
    local alpha = 0
    for i = k + 1, n do alpha = alpha + a[i][k] * a[i][k] end
    alpha = math.sqrt(alpha)
    if alpha > 0 then
      if a[k + 1][k] > 0 then alpha = -alpha end
      local v = {}
      for i = k + 1, n do v[i] = a[i][k] end
      v[k + 1] = v[k + 1] - alpha
      local vv = 0
      for i = k + 1, n do vv = vv + v[i] * v[i] end
      if vv > 0 then
        -- a = H a H with H = I - 2 v v^T / (v^T v)
        for j = 1, n do
          local s = 0
          for i = k + 1, n do s = s + v[i] * a[i][j] end
          s = 2 * s / vv
          for i = k + 1, n do a[i][j] = a[i][j] - s * v[i] end
        end
        for i = 1, n do
          local s = 0
          for j = k + 1, n do s = s + a[i][j] * v[j] end
          s = 2 * s / vv
          for j = k + 1, n do a[i][j] = a[i][j] - s * v[j] end
        end
      end
    end
    for i = k + 2, n do a[i][k] = 0 end
  end
  return a
end

local function sign(a, b) return b >= 0 and math.abs(a) or -math.abs(a) end

--- The eigenvalues of the upper Hessenberg a (changed): real parts wr and
-- imaginary parts wi (conjugate pairs next to each other), or nil and a
-- message when the iteration does not converge
function E.hqr(a, n)
  local wr, wi = {}, {}
  local anorm = 0
  for i = 1, n do
    for j = math.max(i - 1, 1), n do anorm = anorm + math.abs(a[i][j]) end
  end
  local nn, t = n, 0.0
  local p, q, r = 0, 0, 0
  local s, w, x, y, z
  while nn >= 1 do
    local its = 0
    local l
    repeat
      -- a small subdiagonal element splits the matrix
      l = nn
      while l >= 2 do
        s = math.abs(a[l - 1][l - 1]) + math.abs(a[l][l])
        if s == 0 then s = anorm end
        if math.abs(a[l][l - 1]) + s == s then
          a[l][l - 1] = 0
          break
        end
        l = l - 1
      end
      x = a[nn][nn]
      if l == nn then                         -- one root
        wr[nn], wi[nn] = x + t, 0
        nn = nn - 1
      else
        y = a[nn - 1][nn - 1]
        w = a[nn][nn - 1] * a[nn - 1][nn]
        if l == nn - 1 then                   -- two roots
          p = 0.5 * (y - x)
          q = p * p + w
          z = math.sqrt(math.abs(q))
          x = x + t
          if q >= 0 then
            z = p + sign(z, p)
            wr[nn - 1] = x + z
            wr[nn] = z ~= 0 and x - w / z or x + z
            wi[nn - 1], wi[nn] = 0, 0
          else
            wr[nn - 1], wr[nn] = x + p, x + p
            wi[nn - 1], wi[nn] = -z, z
          end
          nn = nn - 2
        else                                  -- a double-shift QR step
          if its == 60 then return nil, "the QR iteration did not converge" end
          if its == 10 or its == 20 then      -- an exceptional shift
            t = t + x
            for i = 1, nn do a[i][i] = a[i][i] - x end
            s = math.abs(a[nn][nn - 1]) + math.abs(a[nn - 1][nn - 2])
            x = 0.75 * s
            y = x
            w = -0.4375 * s * s
          end
          its = its + 1
          local m = nn - 2
          while m >= l do
            z = a[m][m]
            r = x - z
            s = y - z
            p = (r * s - w) / a[m + 1][m] + a[m][m + 1]
            q = a[m + 1][m + 1] - z - r - s
            r = a[m + 2][m + 1]
            s = math.abs(p) + math.abs(q) + math.abs(r)
            p, q, r = p / s, q / s, r / s
            if m == l then break end
            local u = math.abs(a[m][m - 1]) * (math.abs(q) + math.abs(r))
            local v = math.abs(p) * (math.abs(a[m - 1][m - 1]) + math.abs(z) + math.abs(a[m + 1][m + 1]))
            if u + v == v then break end
            m = m - 1
          end
          for i = m + 2, nn do
            a[i][i - 2] = 0
            if i ~= m + 2 then a[i][i - 3] = 0 end
          end
          for k = m, nn - 1 do
            if k ~= m then
              p, q, r = a[k][k - 1], a[k + 1][k - 1], 0
              if k ~= nn - 1 then r = a[k + 2][k - 1] end
              x = math.abs(p) + math.abs(q) + math.abs(r)
              if x ~= 0 then p, q, r = p / x, q / x, r / x end
            end
            s = sign(math.sqrt(p * p + q * q + r * r), p)
            if s ~= 0 then
              if k == m then
                if l ~= m then a[k][k - 1] = -a[k][k - 1] end
              else
                a[k][k - 1] = -s * x
              end
              p = p + s
              x, y, z = p / s, q / s, r / s
              q, r = q / p, r / p
              for j = k, nn do
                p = a[k][j] + q * a[k + 1][j]
                if k ~= nn - 1 then
                  p = p + r * a[k + 2][j]
                  a[k + 2][j] = a[k + 2][j] - p * z
                end
                a[k + 1][j] = a[k + 1][j] - p * y
                a[k][j] = a[k][j] - p * x
              end
              for i = l, math.min(nn, k + 3) do
                p = x * a[i][k] + y * a[i][k + 1]
                if k ~= nn - 1 then
                  p = p + z * a[i][k + 2]
                  a[i][k + 2] = a[i][k + 2] - p * r
                end
                a[i][k + 1] = a[i][k + 1] - p * q
                a[i][k] = a[i][k] - p
              end
            end
          end
        end
      end
    until l >= nn - 1
  end
  return wr, wi
end

--- The eigenvalues of a general real matrix (a list of rows, copied)
function E.eigvals(rows)
  local n = #rows
  local a = {}
  for i = 1, n do
    a[i] = {}
    for j = 1, n do a[i][j] = rows[i][j] end
  end
  E.hessenberg(a, n)
  return E.hqr(a, n)
end

return E
