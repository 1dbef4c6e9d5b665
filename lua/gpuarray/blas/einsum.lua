--- ga.einsum(subscripts, a, b, ...): Einstein summation, lowered to what
-- the other routines already do fast: a repeated index inside one operand
-- becomes a diagonal view, an index nobody else needs is summed out (the
-- reduction engine), and each pair of operands is contracted as one
-- batched GEMM (shared indices that stay are the batch, shared ones that go
-- are K) after a transpose. "..." stands for the leading axes an operand
-- has beyond its letters; without "->" the output is NumPy's implicit one
-- (indices seen once, in alphabetical order, after the ellipsis axes).
return function(ga)
  local api = require "gpuarray.api"
  local internal = require("gpuarray.internal")
  local core = ga._core
  local fail = internal.fail

  local ELL = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"   -- ellipsis axes get these (NumPy allows a-zA-Z; we use a-z)

  local function letters_of(term, nd, ell_n, pos)
    local t = {}
    local dots = term:find("...", 1, true)
    if term:gsub("%.%.%.", ""):find("[^a-z]") then
      fail(("einsum: operand %d: subscripts are letters a-z and '...', got %q"):format(pos, term))
    end
    local pre, post = term, ""
    if dots then pre, post = term:sub(1, dots - 1), term:sub(dots + 3) end
    for c in pre:gmatch(".") do t[#t + 1] = c end
    if dots then
      local k = nd - #pre - #post
      if k < 0 then fail(("einsum: operand %d has %d axes, fewer than its subscripts"):format(pos, nd)) end
      for i = ell_n - k + 1, ell_n do t[#t + 1] = ELL:sub(i, i) end
    end
    for c in post:gmatch(".") do t[#t + 1] = c end
    if #t ~= nd then
      fail(("einsum: operand %d has %d axes, its subscripts %q name %d"):format(pos, nd, term, #t))
    end
    return t
  end

  local function index_of(list, c)
    for i, v in ipairs(list) do if v == c then return i end end
    return nil
  end

  -- sum x over the axes whose letters are not in `keep`
  local function sum_unneeded(x, lt, keep)
    local axes, rest = {}, {}
    for i, c in ipairs(lt) do
      if keep[c] then rest[#rest + 1] = c else axes[#axes + 1] = i end
    end
    if #axes == 0 then return x, lt end
    return ga.sum(x, { axis = axes, dtype = x.dtype }), rest
  end

  local function product(shape, lt, list)
    local p, dims = 1, {}
    for _, c in ipairs(list) do
      local d = shape[index_of(lt, c)]
      p = p * d
      dims[#dims + 1] = d
    end
    return p, dims
  end

  local function permuted(x, lt, order)
    local perm, same = {}, true
    for i, c in ipairs(order) do
      perm[i] = index_of(lt, c)
      same = same and perm[i] == i
    end
    if same or #perm == 0 then return x end
    return x:transpose(perm)
  end

  -- contract x (letters lx) with y (letters ly), keeping the letters in keep
  local function contract(x, lx, y, ly, keep)
    local inx, iny = {}, {}
    for _, c in ipairs(lx) do inx[c] = true end
    for _, c in ipairs(ly) do iny[c] = true end
    local keep_x, keep_y = {}, {}
    for c in pairs(keep) do keep_x[c], keep_y[c] = true, true end
    for c in pairs(iny) do keep_x[c] = true end
    for c in pairs(inx) do keep_y[c] = true end
    x, lx = sum_unneeded(x, lx, keep_x)
    y, ly = sum_unneeded(y, ly, keep_y)
    local batch, kx, free_x, free_y = {}, {}, {}, {}
    for _, c in ipairs(lx) do
      if index_of(ly, c) then
        if keep[c] then batch[#batch + 1] = c else kx[#kx + 1] = c end
      else
        free_x[#free_x + 1] = c
      end
    end
    for _, c in ipairs(ly) do
      if not index_of(lx, c) then free_y[#free_y + 1] = c end
    end
    local sx, sy = x.shape, y.shape
    local B, bd = product(sx, lx, batch)
    local M, md = product(sx, lx, free_x)
    local K = product(sx, lx, kx)
    local N, nd = product(sy, ly, free_y)
    local ox, oy = {}, {}
    for _, l in ipairs({ batch, free_x, kx }) do for _, c in ipairs(l) do ox[#ox + 1] = c end end
    for _, l in ipairs({ batch, kx, free_y }) do for _, c in ipairs(l) do oy[#oy + 1] = c end end
    local a = permuted(x, lx, ox):reshape(B, M, K)
    local b = permuted(y, ly, oy):reshape(B, K, N)
    local shape, lt = {}, {}
    for _, l in ipairs({ { bd, batch }, { md, free_x }, { nd, free_y } }) do
      for i, d in ipairs(l[1]) do
        shape[#shape + 1] = d
        lt[#lt + 1] = l[2][i]
      end
    end
    return ga.matmul(a, b):reshape(shape), lt
  end

  local function compute(subscripts, ...)
    local ops = table.pack(...)
    if ops.n == 0 then fail("einsum: no operands") end
    local spec = subscripts:gsub("%s", "")
    local lhs, rhs = spec:match("^(.*)%->(.*)$")
    lhs = lhs or spec
    local terms = {}
    for term in (lhs .. ","):gmatch("([^,]*),") do terms[#terms + 1] = term end
    if #terms ~= ops.n then
      fail(("einsum: %d operands for %d subscript terms in %q"):format(ops.n, #terms, subscripts))
    end
    local arrays, dts = {}, {}
    local ell_n = 0
    for i = 1, ops.n do
      arrays[i] = internal.product_operand(ops[i], "einsum")
      if terms[i]:find("...", 1, true) then
        ell_n = math.max(ell_n, arrays[i].ndim - #terms[i]:gsub("%.%.%.", ""))
      end
      dts[i] = arrays[i].dtype
    end
    local dt = ga.result_type(table.unpack(dts))   -- all at once, as NumPy (order-free)
    if ell_n > #ELL then fail("einsum: too many axes under '...'") end
    -- letters, sizes, and the diagonals of repeated letters inside one operand
    local lts, size, count = {}, {}, {}
    for i, x in ipairs(arrays) do
      if x.dtype ~= dt then x = x:astype(dt) end
      local lt = letters_of(terms[i], x.ndim, ell_n, i)
      -- NumPy's implicit output counts a letter every time it is written,
      -- so "ii" (twice) is summed out: the trace, not the diagonal
      for _, c in ipairs(lt) do count[c] = (count[c] or 0) + 1 end
      local sh = x.shape
      for d, c in ipairs(lt) do
        if c:match("%u") and sh[d] == 1 then
          sh[d] = -1                             -- an ellipsis axis of length 1 broadcasts
        elseif size[c] and size[c] ~= -1 and size[c] ~= sh[d] then
          fail(("einsum: index '%s' has sizes %d and %d"):format(c, size[c], sh[d]))
        end
        if not size[c] or size[c] == -1 then size[c] = sh[d] end
      end
      local d = 1
      while d <= #lt do
        local e = nil
        for j = d + 1, #lt do if lt[j] == lt[d] then e = j break end end
        if e then
          local c = lt[d]
          x = core.blas.diag_view(x, 0, d, e)
          table.remove(lt, e)
          table.remove(lt, d)
          lt[#lt + 1] = c
        else
          d = d + 1
        end
      end
      arrays[i], lts[i] = x, lt
    end
    -- the output letters
    local out = {}
    if rhs then
      local r = rhs
      if r:find("...", 1, true) then
        local pre, post = r:match("^(.-)%.%.%.(.*)$")
        r = pre .. ELL:sub(1, ell_n) .. post
      end
      for c in r:gmatch(".") do
        if not size[c] then fail(("einsum: output index '%s' is not in any operand"):format(c)) end
        if index_of(out, c) then fail(("einsum: output index '%s' repeated"):format(c)) end
        out[#out + 1] = c
      end
    else
      for i = 1, ell_n do out[#out + 1] = ELL:sub(i, i) end
      local once = {}
      for c, n in pairs(count) do if n == 1 and c:match("%l") then once[#once + 1] = c end end
      table.sort(once)
      for _, c in ipairs(once) do out[#out + 1] = c end
    end
    local keep_out = {}
    for _, c in ipairs(out) do keep_out[c] = true end
    -- broadcast length-1 ellipsis axes against the others before contracting
    for i, x in ipairs(arrays) do
      local sh, change = x.shape, false
      for d, c in ipairs(lts[i]) do
        if c:match("%u") and sh[d] == 1 and size[c] ~= 1 and size[c] ~= -1 then sh[d] = size[c]; change = true end
      end
      if change then arrays[i] = ga.broadcast_to(x, sh) end
    end
    -- contract left to right
    local x, lx = arrays[1], lts[1]
    for i = 2, #arrays do
      local keep = {}
      for c in pairs(keep_out) do keep[c] = true end
      for j = i + 1, #arrays do for _, c in ipairs(lts[j]) do keep[c] = true end end
      x, lx = contract(x, lx, arrays[i], lts[i], keep)
    end
    x, lx = sum_unneeded(x, lx, keep_out)
    x = permuted(x, lx, out)
    if x.ndim == 0 and internal.is_array(x) then return x end
    return ga.ascontiguousarray(x)
  end

  api.def(ga, [[
einsum(subscripts: string, ...: array_like, *, out: ndarray?, dtype: dtype?, optimize: boolean|string|list?) -> ndarray
Einstein summation over the operands (NumPy's subscripts: "ij,jk->ik", "...", implicit output;
a letter repeated inside one operand takes its diagonal, "ii" is the trace). dtype casts the result
(NumPy computes in it; the products here run in the operands' promoted dtype); optimize is accepted
for NumPy's signature (the contraction runs left to right).
]], function(subscripts, out, dtype, _, ...)
    local r = compute(subscripts, ...)
    if dtype ~= nil then r = r:astype(ga.dtype(dtype).name) end
    if out ~= nil then
      internal.check_out(out, r.shape, "einsum"):set(r)
      return out
    end
    return r
  end)
end
