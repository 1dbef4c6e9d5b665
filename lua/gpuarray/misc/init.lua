--- Miscellaneous routines (API.md §14): byte_bounds, may_share_memory,
-- shares_memory (device addresses, no device work), show_config and who
-- (printing what this process has).
--
-- shares_memory answers exactly, as NumPy's: whether some byte is reached
-- by both arrays is a bounded linear Diophantine problem over their
-- indices (sum of stride * index, plus the offset inside an element), which
-- a depth-first search with bound and divisibility pruning decides; max_work
-- bounds the search (NumPy's TooHardError becomes "too hard").
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local fail, is_array = internal.fail, internal.is_array

  -- [low, high): the bytes an array's elements can reach
  local function bounds(a)
    local lo = a.data_ptr
    local hi = lo
    local shape, strides = a.shape, a.strides
    for d = 1, #shape do
      local e = (shape[d] - 1) * strides[d]
      if e < 0 then lo = lo + e else hi = hi + e end
    end
    return lo, hi + a.itemsize
  end

  def(ga, [[
byte_bounds(a: ndarray) -> integer, integer
The device addresses of the first byte a reaches and one past its last,
as NumPy's byte_bounds (for an empty array, the element it would start at).
]], function(a)
    return bounds(a)
  end)

  local function disjoint_bounds(a, b)
    if a.size == 0 or b.size == 0 then return true end
    local alo, ahi = bounds(a)
    local blo, bhi = bounds(b)
    return ahi <= blo or bhi <= alo
  end

  local function gcd(x, y)
    while y ~= 0 do x, y = y, x % y end
    return x
  end

  -- Whether sum(a_k * z_k) == b has a solution with 0 <= z_k <= ub_k (a_k
  -- > 0), searching at most max_work nodes (nil: no limit); returns
  -- true/false, or nil when the work ran out
  local function solve(terms, b, max_work)
    table.sort(terms, function(p, q) return p[1] > q[1] end)
    local n = #terms
    local rest, g = {}, {}
    rest[n + 1], g[n + 1] = 0, 0
    for k = n, 1, -1 do
      rest[k] = rest[k + 1] + terms[k][1] * terms[k][2]
      g[k] = gcd(terms[k][1], g[k + 1])
    end
    local work = 0
    local function dfs(k, r)
      if r < 0 or r > rest[k] then return false end
      if k > n then return r == 0 end
      if g[k] > 0 and r % g[k] ~= 0 then return false end
      work = work + 1
      if max_work and work > max_work then error("too hard", 0) end
      local a, ub = terms[k][1], terms[k][2]
      local hi = math.min(ub, r // a)
      local lo = math.max(0, -((rest[k + 1] - r) // a))   -- ceil((r - rest)/a)
      for z = hi, lo, -1 do
        if dfs(k + 1, r - a * z) then return true end
      end
      return false
    end
    local ok, res = pcall(dfs, 1, b)
    if not ok then
      if res == "too hard" then return nil end
      error(res, 0)
    end
    return res
  end

  local function overlap_exact(a, b, max_work)
    -- baseA + sum sA x + u == baseB + sum sB y + v, u < isa, v < isb:
    -- every term made positive (z -> ub - z for a negative coefficient)
    local terms, rhs = {}, b.data_ptr - a.data_ptr
    local function add(coef, ub)
      if ub == 0 or coef == 0 then return end
      if coef < 0 then
        rhs = rhs - coef * ub
        coef = -coef
      end
      terms[#terms + 1] = { coef, ub }
    end
    local sa, ta = a.shape, a.strides
    for d = 1, #sa do add(ta[d], sa[d] - 1) end
    local sb, tb = b.shape, b.strides
    for d = 1, #sb do add(-tb[d], sb[d] - 1) end
    -- u - v + (isb - 1) in [0, isa + isb - 2]
    rhs = rhs + (b.itemsize - 1)
    add(1, a.itemsize + b.itemsize - 2)
    return solve(terms, rhs, max_work)
  end

  def(ga, [[
may_share_memory(a: any, b: any, max_work: integer?) -> boolean
Whether the byte ranges of two ndarrays overlap (false for anything that is
not an ndarray); max_work: as shares_memory (0: this bounds check only).
]], function(a, b, max_work)
    if not (is_array(a) and is_array(b)) then return false end
    if disjoint_bounds(a, b) then return false end
    if max_work == nil or max_work == 0 then return true end
    local r = overlap_exact(a, b, max_work > 0 and max_work or nil)
    if r == nil then return true end
    return r
  end)

  def(ga, [[
shares_memory(a: any, b: any, max_work: integer?) -> boolean
Whether some byte is an element of both ndarrays (exact, from their
addresses, shapes and strides; nothing else shares). max_work bounds the
search: -1 or nil exact, 0 the bounds check only; past it raises.
]], function(a, b, max_work)
    if not (is_array(a) and is_array(b)) then return false end
    if disjoint_bounds(a, b) then return false end
    if max_work == 0 then return true end
    local r = overlap_exact(a, b, (max_work and max_work > 0) and max_work or nil)
    if r == nil then fail(("shares_memory: exceeded max_work %d"):format(max_work)) end
    return r
  end)

  -- the configuration as a table (show_config's "dicts")
  local function config()
    local cuda = { runtime = tostring(ga.runtime_version()) }
    local okn, nv = pcall(ga._core._test.nvrtc_version)
    if okn then cuda.nvrtc = nv end
    local devices = {}
    local n = ga.is_available() and ga.device_count() or 0
    for d = 0, n - 1 do
      local ok, p = pcall(ga.device_properties, d)
      if ok then devices[#devices + 1] = p end
    end
    return { gpuarray = { version = ga.version }, lua = { version = _VERSION }, cuda = cuda,
             devices = devices, available = ga.is_available() }
  end

  local function dump(t, ind, out)
    local keys = {}
    for k in pairs(t) do keys[#keys + 1] = k end
    table.sort(keys, function(x, y) return tostring(x) < tostring(y) end)
    for _, k in ipairs(keys) do
      local v = t[k]
      if type(v) == "table" then
        out[#out + 1] = ("%s%s:"):format(ind, tostring(k))
        dump(v, ind .. "  ", out)
      else
        out[#out + 1] = ("%s%s: %s"):format(ind, tostring(k), tostring(v))
      end
    end
  end

  def(ga, [[
show_config(mode: "stdout"|"dicts" = "stdout") -> table?
The versions of gpuarray, Lua, the CUDA runtime and NVRTC, and the devices:
printed ("stdout") or returned as a table ("dicts").
]], function(mode)
    local c = config()
    if mode == "dicts" then return c end
    local out = {}
    dump(c, "", out)
    io.write(table.concat(out, "\n"), "\n")
  end)

  def(ga, [[
who(vardict: dict?) -> nil
Prints the ndarrays of vardict (default: the global table) with their
shape, bytes and dtype, as NumPy's who, and the total bytes.
]], function(vardict)
    -- vardict is a dict: a table of names ({x = x}) is the value, never
    -- the options table
    vardict = vardict or _G
    local rows, seen, total = {}, {}, 0
    local names = {}
    for k, v in pairs(vardict) do
      if type(k) == "string" and is_array(v) then names[#names + 1] = k end
    end
    table.sort(names)
    for _, name in ipairs(names) do
      local v = vardict[name]
      local label = name
      if seen[v] then
        label = ("%s (%s)"):format(name, seen[v])
      else
        seen[v] = name
        total = total + v.nbytes
      end
      local shape = v.shape
      local dims = {}
      for i, n in ipairs(shape) do dims[i] = tostring(n) end
      rows[#rows + 1] = { label, table.concat(dims, " x "), tostring(v.nbytes), v.dtype }
    end
    local w1, w2, w3 = 10, 10, 10
    for _, r in ipairs(rows) do
      w1, w2, w3 = math.max(w1, #r[1]), math.max(w2, #r[2]), math.max(w3, #r[3])
    end
    local head = ("Name %s Shape %s Bytes %s Type"):format((" "):rep(w1), (" "):rep(w2), (" "):rep(w3))
    local out = { head, ("="):rep(#head + 5), "" }
    for _, r in ipairs(rows) do
      out[#out + 1] = ("%s %s %s %s %s %s %s"):format(r[1], (" "):rep(w1 - #r[1] + 4), r[2],
        (" "):rep(w2 - #r[2] + 5), r[3], (" "):rep(w3 - #r[3] + 5), r[4])
    end
    out[#out + 1] = ""
    out[#out + 1] = ("Upper bound on total bytes  =       %d"):format(total)
    io.write(table.concat(out, "\n"), "\n")
  end)

  internal.misc = { solve = solve, overlap_exact = overlap_exact }   -- for the spec of the exact search
end
