--- The Delaunay triangulation of n points in d dimensions (d >= 1), on
-- the host in plain Lua (no device, so the CPU specs check it against
-- SciPy): Bowyer-Watson insertion with one symbolic vertex at infinity.
-- The triangulation always covers the convex hull: each hull facet F
-- carries a "ghost" simplex F + infinity, and a point outside the hull
-- is in conflict with the ghosts whose facet it sees, exactly as a finite
-- simplex is in conflict with the points inside its circumsphere. So no
-- far-away super simplex and no missing hull simplices.
--
-- Insertion: points in Morton (Z) order; each is located by walking
-- from the last simplex made towards it (through the neighbour opposite
-- a vertex with a negative barycentric coordinate), the conflict region
-- grows from there through neighbours, is checked to be star-shaped from
-- the point (a simplex whose replacement would be flat or inverted joins
-- the region), and is replaced by the point joined to its boundary.
-- Cocircular points (grids) are not in conflict with each other (a
-- relative tolerance of 1e-10 on the squared radius): any of their
-- triangulations is a Delaunay one, as Qhull's triangulated output.
-- Duplicates (within 1e-12 of a vertex, coordinates scaled to the unit
-- box) are left out, as Qhull's "coplanar" points.
--
-- Cost: about n^(1 + 1/d) walk steps and a bounded cavity per point, each
-- step O(d^2) after an O(d^3) set-up per simplex made. Measured with Lua
-- 5.4 on one core: 2000 random points in 2-D 0.4 s, 10^4 in 2-D 2.5 s,
-- 2000 in 3-D 3.4 s (docs/scipy-interpolate.md).
local H = {}

local TOL_SPHERE = 1e-10   -- relative, on the squared circumradius
local TOL_PLANE = 1e-12    -- on distances, coordinates in the unit box
local TOL_SAME = 1e-12     -- duplicate points

--- x solving A x = b (n x n, rows), Gaussian elimination with partial
-- pivoting; nil when singular (a pivot below tiny)
local function solve(A, b, n, tiny)
  local M = {}
  for i = 1, n do
    local r = {}
    for j = 1, n do r[j] = A[i][j] end
    r[n + 1] = b[i]
    M[i] = r
  end
  for c = 1, n do
    local p, best = c, math.abs(M[c][c])
    for i = c + 1, n do
      local v = math.abs(M[i][c])
      if v > best then p, best = i, v end
    end
    if best <= (tiny or 0) or best ~= best then return nil end
    M[c], M[p] = M[p], M[c]
    local rc = M[c]
    for i = c + 1, n do
      local ri = M[i]
      local f = ri[c] / rc[c]
      if f ~= 0 then for j = c, n + 1 do ri[j] = ri[j] - f * rc[j] end end
    end
  end
  local x = {}
  for i = n, 1, -1 do
    local s = M[i][n + 1]
    for j = i + 1, n do s = s - M[i][j] * x[j] end
    x[i] = s / M[i][i]
  end
  return x
end
H.solve = solve

--- the inverse of the n x n matrix A (rows), or nil when singular
local function inverse(A, n, tiny)
  local cols = {}
  for j = 1, n do
    local e = {}
    for i = 1, n do e[i] = i == j and 1 or 0 end
    local x = solve(A, e, n, tiny)
    if not x then return nil end
    cols[j] = x
  end
  local inv = {}
  for i = 1, n do
    inv[i] = {}
    for j = 1, n do inv[i][j] = cols[j][i] end
  end
  return inv
end
H.inverse = inverse

--- The barycentric transform of a simplex (SciPy's Delaunay.transform):
-- T (d x d, rows) with c[1..d] = T (x - r) and c[d+1] = 1 - sum, r its
-- last vertex; nil for a flat simplex. verts: d + 1 coordinate lists.
function H.transform(verts, d)
  local r = verts[d + 1]
  local A = {}
  for i = 1, d do
    A[i] = {}
    for j = 1, d do A[i][j] = verts[j][i] - r[i] end
  end
  local scale = 0
  for i = 1, d do for j = 1, d do scale = math.max(scale, math.abs(A[i][j])) end end
  return inverse(A, d, scale * 1e-14), r
end

local function dist2(a, b, d)
  local s = 0
  for k = 1, d do
    local t = a[k] - b[k]
    s = s + t * t
  end
  return s
end

--- An orthonormal basis (list of vectors) of the span of vecs, by
-- modified Gram-Schmidt; vectors whose residual is below tiny are skipped
local function orthonormal(vecs, d, tiny)
  local basis = {}
  for _, v in ipairs(vecs) do
    local r = {}
    for k = 1, d do r[k] = v[k] end
    for _, u in ipairs(basis) do
      local dot = 0
      for k = 1, d do dot = dot + r[k] * u[k] end
      for k = 1, d do r[k] = r[k] - dot * u[k] end
    end
    local nrm = 0
    for k = 1, d do nrm = nrm + r[k] * r[k] end
    nrm = math.sqrt(nrm)
    if nrm > tiny then
      for k = 1, d do r[k] = r[k] / nrm end
      basis[#basis + 1] = r
    end
  end
  return basis
end

--- Morton (Z-order) keys: b bits per axis of the unit-box coordinates
local function morton_order(P, n, d)
  local b = math.max(1, math.min(20, 60 // d))
  local top = (1 << b) - 1
  local keys = {}
  for i = 1, n do
    local q = {}
    for k = 1, d do
      local v = math.floor(P[i][k] * top + 0.5)
      q[k] = math.max(0, math.min(top, v))
    end
    local key = 0
    for bit = b - 1, 0, -1 do
      for k = 1, d do key = (key << 1) | ((q[k] >> bit) & 1) end
    end
    keys[i] = key
  end
  local order = {}
  for i = 1, n do order[i] = i end
  table.sort(order, function(a, c)
    if keys[a] ~= keys[c] then return keys[a] < keys[c] end
    return a < c
  end)
  return order
end

--- Triangulate. pts: n lists of d numbers. Returns a table:
--   simplices: list of d + 1 point indices (1-based), positively oriented
--   neighbors: list of d + 1 simplex indices, the k-th opposite vertex k
--              (0: none, the hull)
--   coplanar:  the indices of the points left out (duplicates)
-- or nil and a reason (fewer than d + 1 points, or all of them in a
-- lower-dimensional affine subspace).
function H.triangulate(pts, d)
  local n = #pts
  if n < d + 1 then return nil, ("%d points cannot span %d dimensions (need at least %d)"):format(n, d, d + 1) end
  -- the unit box: shift and one scale (keeps the circumspheres round)
  local lo, hi = {}, {}
  for k = 1, d do lo[k], hi[k] = math.huge, -math.huge end
  for i = 1, n do
    local p = pts[i]
    for k = 1, d do
      local v = p[k]
      if v ~= v or v == math.huge or v == -math.huge then return nil, "points must be finite" end
      if v < lo[k] then lo[k] = v end
      if v > hi[k] then hi[k] = v end
    end
  end
  local span = 0
  for k = 1, d do span = math.max(span, hi[k] - lo[k]) end
  if span == 0 then return nil, "the points are all the same" end
  local P = {}
  for i = 1, n do
    local q = {}
    for k = 1, d do q[k] = (pts[i][k] - lo[k]) / span end
    P[i] = q
  end

  -- simplices: SV vertices (0 = infinity), SN neighbours, alive, and the
  -- geometry cached on first use
  local SV, SN, alive = {}, {}, {}
  local TR, TRR, CC, R2, GN, GO, GC, GR = {}, {}, {}, {}, {}, {}, {}, {}
  local ns = 0
  local function new_simplex(v)
    ns = ns + 1
    SV[ns], SN[ns], alive[ns] = v, {}, true
    return ns
  end
  local function ghost_pos(s)
    local v = SV[s]
    for k = 1, d + 1 do if v[k] == 0 then return k end end
    return nil
  end

  -- barycentric coordinates of p in finite simplex s (nil: flat)
  local function bary(s, p)
    if TR[s] == nil then
      local verts = {}
      for k = 1, d + 1 do verts[k] = P[SV[s][k]] end
      local T, r = H.transform(verts, d)
      TR[s], TRR[s] = T or false, r
    end
    local T = TR[s]
    if not T then return nil end
    local r = TRR[s]
    local c, last = {}, 1
    for i = 1, d do
      local acc = 0
      local row = T[i]
      for j = 1, d do acc = acc + row[j] * (p[j] - r[j]) end
      c[i] = acc
      last = last - acc
    end
    c[d + 1] = last
    return c
  end

  -- circumsphere of a finite simplex: centre and squared radius
  local function sphere(s)
    if CC[s] == nil then
      local v0 = P[SV[s][1]]
      local A, b = {}, {}
      local n0 = 0
      for k = 1, d do n0 = n0 + v0[k] * v0[k] end
      for i = 1, d do
        local vi = P[SV[s][i + 1]]
        local row, ni = {}, 0
        for k = 1, d do
          row[k] = 2 * (vi[k] - v0[k])
          ni = ni + vi[k] * vi[k]
        end
        A[i], b[i] = row, ni - n0
      end
      local c = solve(A, b, d, 1e-300)
      if c then CC[s], R2[s] = c, dist2(c, v0, d) else CC[s], R2[s] = false, math.huge end
    end
    return CC[s], R2[s]
  end

  -- a ghost's hull facet: an origin vertex, the unit normal pointing into
  -- the hull, and the facet's own circumsphere (centre, squared radius)
  local function facet(s)
    if GN[s] == nil then
      local gk = ghost_pos(s)
      local fv = {}
      for k = 1, d + 1 do if k ~= gk then fv[#fv + 1] = P[SV[s][k]] end end
      local inner = SN[s][gk]
      local w
      for k = 1, d + 1 do
        local v = SV[inner][k]
        local isf = false
        for j = 1, d + 1 do if SV[s][j] == v then isf = true end end
        if not isf then w = P[v] end
      end
      local f1 = fv[1]
      local edges = {}
      for i = 2, #fv do
        local e = {}
        for k = 1, d do e[k] = fv[i][k] - f1[k] end
        edges[#edges + 1] = e
      end
      local U = orthonormal(edges, d, 1e-300)
      local r = {}
      for k = 1, d do r[k] = w[k] - f1[k] end
      for _, u in ipairs(U) do
        local dot = 0
        for k = 1, d do dot = dot + r[k] * u[k] end
        for k = 1, d do r[k] = r[k] - dot * u[k] end
      end
      local nrm = 0
      for k = 1, d do nrm = nrm + r[k] * r[k] end
      nrm = math.sqrt(nrm)
      for k = 1, d do r[k] = r[k] / nrm end
      GN[s], GO[s] = r, f1
      -- the facet's circumsphere in its plane: centre f1 + U y with
      -- 2 a_i . y = |a_i|^2, a_i the edges in the basis U
      local m = #U
      local center = {}
      for k = 1, d do center[k] = f1[k] end
      if m > 0 then
        local A, b = {}, {}
        for i = 1, #edges do
          local a = {}
          local aa = 0
          for j = 1, m do
            local dot = 0
            for k = 1, d do dot = dot + edges[i][k] * U[j][k] end
            a[j] = 2 * dot
            aa = aa + dot * dot
          end
          A[i], b[i] = a, aa
        end
        local y = solve(A, b, m, 1e-300)
        if y then
          for j = 1, m do for k = 1, d do center[k] = center[k] + y[j] * U[j][k] end end
        end
      end
      GC[s], GR[s] = center, dist2(center, f1, d)
    end
    return GN[s], GO[s], GC[s], GR[s]
  end

  -- signed distance of p into the hull from a ghost's facet (< 0: outside)
  local function inward(s, p)
    local nrm, o = facet(s)
    local t = 0
    for k = 1, d do t = t + (p[k] - o[k]) * nrm[k] end
    return t
  end

  local function conflict(s, p)
    if ghost_pos(s) then
      local t = inward(s, p)
      if t < -TOL_PLANE then return true end
      if t > TOL_PLANE then return false end
      local _, _, c, r2 = facet(s)
      return dist2(p, c, d) < r2 * (1 - TOL_SPHERE)
    end
    local c, r2 = sphere(s)
    if not c then return true end
    return dist2(p, c, d) < r2 * (1 - TOL_SPHERE)
  end

  -- join new simplices to each other across the ridges through the point
  local function link(news, ppos)
    local open = {}
    for _, u in ipairs(news) do
      local v = SV[u]
      for j = 1, d + 1 do
        if j ~= ppos[u] then
          local key = {}
          for k = 1, d + 1 do if k ~= j then key[#key + 1] = v[k] end end
          table.sort(key)
          local ks = table.concat(key, ",")
          local other = open[ks]
          if other then
            SN[u][j] = other[1]
            SN[other[1]][other[2]] = u
            open[ks] = nil
          else
            open[ks] = { u, j }
          end
        end
      end
    end
  end

  -- the first simplex: d + 1 points spanning the most volume, greedily
  local first = { 1 }
  for i = 2, n do
    local a, b = P[i], P[first[1]]
    if a[1] < b[1] then first[1] = i end
  end
  local dirs = {}
  for _ = 1, d do
    local best, bi = -1, nil
    local o = P[first[1]]
    for i = 1, n do
      local r = {}
      for k = 1, d do r[k] = P[i][k] - o[k] end
      for _, u in ipairs(dirs) do
        local dot = 0
        for k = 1, d do dot = dot + r[k] * u[k] end
        for k = 1, d do r[k] = r[k] - dot * u[k] end
      end
      local s = 0
      for k = 1, d do s = s + r[k] * r[k] end
      if s > best then best, bi = s, i end
    end
    if best <= 1e-20 then
      return nil, ("the points lie in a lower-dimensional affine subspace (initial simplex is flat in %d-D)"):format(d)
    end
    first[#first + 1] = bi
    local r = {}
    for k = 1, d do r[k] = P[bi][k] - o[k] end
    local U = orthonormal({ r }, d, 0)
    for _, u in ipairs(dirs) do
      local dot = 0
      for k = 1, d do dot = dot + U[1][k] * u[k] end
      for k = 1, d do U[1][k] = U[1][k] - dot * u[k] end
    end
    local s = 0
    for k = 1, d do s = s + U[1][k] * U[1][k] end
    s = math.sqrt(s)
    for k = 1, d do U[1][k] = U[1][k] / s end
    dirs[#dirs + 1] = U[1]
  end
  local s0 = new_simplex(first)
  local news, ppos = {}, {}
  for k = 1, d + 1 do
    local v = {}
    for j = 1, d + 1 do v[j] = first[j] end
    v[k] = 0
    local g = new_simplex(v)
    SN[s0][k], SN[g][k] = g, s0
    news[#news + 1], ppos[g] = g, k
  end
  link(news, ppos)
  local used = {}
  for _, i in ipairs(first) do used[i] = true end

  -- locate p: a finite simplex holding it, or a ghost whose facet it sees
  local visits = 0
  local function locate(p, start)
    local s = start
    local gk = ghost_pos(s)
    if gk then s = SN[s][gk] end
    local limit = 8 * ns + 100
    local rot = 0
    for _ = 1, limit do
      visits = visits + 1
      local c = bary(s, p)
      if not c then break end
      -- step across a negative coordinate, trying them from a rotating
      -- start (a walk that cannot cycle on a Delaunay triangulation)
      local step
      rot = rot % (d + 1) + 1
      for t = 0, d do
        local k = (rot + t - 1) % (d + 1) + 1
        if c[k] < -TOL_PLANE then step = k break end
      end
      if not step then return s end
      local nb = SN[s][step]
      if ghost_pos(nb) then return nb end
      s = nb
    end
    -- the walk failed (a flat simplex, or rounding): look at all of them
    for t = 1, ns do
      if alive[t] and not ghost_pos(t) then
        local c = bary(t, p)
        if c then
          local ok = true
          for k = 1, d + 1 do if c[k] < -TOL_PLANE then ok = false break end end
          if ok then return t end
        end
      end
    end
    for t = 1, ns do
      if alive[t] and ghost_pos(t) and inward(t, p) < 0 then return t end
    end
    return nil
  end

  local coplanar = {}
  local last = s0
  for _, i in ipairs(morton_order(P, n, d)) do
    if not used[i] then
      local p = P[i]
      local s = locate(p, last)
      local dup = s == nil
      if s then
        for k = 1, d + 1 do
          local v = SV[s][k]
          if v ~= 0 and dist2(P[v], p, d) <= TOL_SAME * TOL_SAME then dup = true end
        end
      end
      if dup then
        coplanar[#coplanar + 1] = i
      else
        -- the conflict region, grown through neighbours
        local inside = { [s] = true }
        local list = { s }
        local tested = { [s] = true }
        local head = 1
        while head <= #list do
          local c = list[head]
          head = head + 1
          for k = 1, d + 1 do
            local t = SN[c][k]
            if not tested[t] then
              tested[t] = true
              if conflict(t, p) then
                inside[t] = true
                list[#list + 1] = t
              end
            end
          end
        end
        -- star-shaped from p: every finite new simplex must keep p strictly
        -- on the side of the vertex it replaces; otherwise the simplex
        -- across joins the region
        local changed = true
        while changed do
          changed = false
          for idx = 1, #list do
            local c = list[idx]
            if not ghost_pos(c) then
              local bc = bary(c, p)
              for k = 1, d + 1 do
                local t = SN[c][k]
                if not inside[t] and (bc == nil or bc[k] <= TOL_PLANE) then
                  inside[t] = true
                  list[#list + 1] = t
                  changed = true
                end
              end
            else
              local gk = ghost_pos(c)
              local t = SN[c][gk]
              if not inside[t] and inward(c, p) >= -TOL_PLANE then
                -- p on or inside this hull facet: the facet + p would be flat
                inside[t] = true
                list[#list + 1] = t
                changed = true
              end
            end
          end
        end
        -- replace the region: p joined to each boundary facet
        local made, pos = {}, {}
        for _, c in ipairs(list) do
          for k = 1, d + 1 do
            local t = SN[c][k]
            if not inside[t] then
              local v = {}
              for j = 1, d + 1 do v[j] = SV[c][j] end
              v[k] = i
              local u = new_simplex(v)
              SN[u][k] = t
              for j = 1, d + 1 do if SN[t][j] == c then SN[t][j] = u end end
              made[#made + 1], pos[u] = u, k
            end
          end
        end
        for _, c in ipairs(list) do alive[c] = false end
        link(made, pos)
        used[i] = true
        for _, u in ipairs(made) do if not ghost_pos(u) then last = u end end
        if ghost_pos(last) or not alive[last] then last = made[1] end
      end
    end
  end

  -- the finite simplices, numbered, positively oriented
  local id, simplices = {}, {}
  for s = 1, ns do
    if alive[s] and not ghost_pos(s) then
      simplices[#simplices + 1] = s
      id[s] = #simplices
    end
  end
  local out_s, out_n = {}, {}
  for m, s in ipairs(simplices) do
    local v, nb = {}, {}
    for k = 1, d + 1 do
      v[k] = SV[s][k]
      nb[k] = id[SN[s][k]] or 0
    end
    -- orientation: the sign of det [v_k - v_(d+1)]
    local A = {}
    local r = P[v[d + 1]]
    for a = 1, d do
      A[a] = {}
      for b = 1, d do A[a][b] = P[v[b]][a] - r[a] end
    end
    local det = 1
    local M = {}
    for a = 1, d do M[a] = { table.unpack(A[a]) } end
    for c = 1, d do
      local p, best = c, math.abs(M[c][c])
      for a = c + 1, d do if math.abs(M[a][c]) > best then p, best = a, math.abs(M[a][c]) end end
      if best == 0 then det = 0 break end
      if p ~= c then M[c], M[p], det = M[p], M[c], -det end
      det = det * M[c][c]
      for a = c + 1, d do
        local f = M[a][c] / M[c][c]
        for b = c, d do M[a][b] = M[a][b] - f * M[c][b] end
      end
    end
    if det < 0 and d >= 2 then
      v[1], v[2] = v[2], v[1]
      nb[1], nb[2] = nb[2], nb[1]
    end
    out_s[m], out_n[m] = v, nb
  end
  table.sort(coplanar)
  return { simplices = out_s, neighbors = out_n, coplanar = coplanar, visits = visits }
end

--- The neighbours of each vertex (lists of point numbers, ascending): the
-- other vertices of the simplices it is in. n: the number of points.
function H.vertex_neighbors(simplices, n)
  local sets = {}
  for i = 1, n do sets[i] = {} end
  for _, s in ipairs(simplices) do
    for _, a in ipairs(s) do for _, b in ipairs(s) do if a ~= b then sets[a][b] = true end end end
  end
  local out = {}
  for i = 1, n do
    local l = {}
    for j in pairs(sets[i]) do l[#l + 1] = j end
    table.sort(l)
    out[i] = l
  end
  return out
end

return H
