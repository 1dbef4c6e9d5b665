--- A tiny CPU model of N-d arrays for the specs' references: {data = flat
-- list in C order, shape = {...}}. Indexing follows docs/api.md §4 (1-based,
-- inclusive ranges, negative from the end, newaxis, ellipsis).
local ga = require "gpuarray"

local R = {}

function R.from_nested(t, shape)
  local data = {}
  local function walk(x, d)
    if d > #shape then data[#data + 1] = x return end
    for i = 1, shape[d] do walk(x[i], d + 1) end
  end
  walk(t, 1)
  return { data = data, shape = shape }
end

function R.size(shape)
  local n = 1
  for _, s in ipairs(shape) do n = n * s end
  return n
end

--- A new model of `shape` whose element at 1-based multi-index mi is fn(mi)
function R.build(shape, fn)
  local data, mi = {}, {}
  for d = 1, #shape do mi[d] = 1 end
  for i = 1, R.size(shape) do
    data[i] = fn(mi)
    for d = #shape, 1, -1 do
      mi[d] = mi[d] + 1
      if mi[d] <= shape[d] then break end
      mi[d] = 1
    end
  end
  return { shape = shape, data = data }
end

--- The element of model A at 1-based multi-index mi
function R.get(A, mi)
  local k = 0
  for d = 1, #A.shape do k = k * A.shape[d] + (mi[d] - 1) end
  return A.data[k + 1]
end

--- Model A on the GPU (empty and 0-d shapes included, which nested tables lose)
function R.to_gpu(A, dtype)
  if #A.data == 0 then return ga.empty(A.shape, dtype) end
  if #A.shape == 0 then return ga.array(A.data[1], dtype) end
  return ga.array(R.nested(A), dtype)
end

--- dtype families: b(ool), i(nt), u(nsigned), f(loat), c(omplex)
R.KIND = {
  bool = "b", int8 = "i", int16 = "i", int32 = "i", int64 = "i", uint8 = "u", uint16 = "u", uint32 = "u",
  uint64 = "u", float16 = "f", float32 = "f", float64 = "f", complex64 = "c", complex128 = "c",
}

--- A random value of dtype as the device will hold it (floats rounded to
-- the dtype, complex as {re, im}); lo/hi bound it (defaults: integers
-- -100..100, unsigned 0..200, floats [0, 1))
function R.rand_value(dt, lo, hi)
  local helper = require "helper"
  local k = R.KIND[dt]
  if k == "b" then return math.random() < 0.5 end
  if k == "i" then return math.random(lo or -100, hi or 100) end
  if k == "u" then return math.random(lo or 0, hi or 200) end
  local function r() return (lo or 0) + math.random() * ((hi or 1) - (lo or 0)) end
  if dt == "float16" then return helper.to_half(r()) end
  if dt == "float32" then return helper.to_f32(r()) end
  if dt == "float64" then return r() end
  if dt == "complex64" then return { helper.to_f32(r()), helper.to_f32(r()) } end
  return { r(), r() }
end

function R.rand_list(n, dt, lo, hi)
  local t = {}
  for i = 1, n do t[i] = R.rand_value(dt, lo, hi) end
  return t
end

--- A flat C-order list as a nested table of a shape (for ga.array)
function R.nest(flat, shape)
  return R.nested({ data = flat, shape = shape })
end

--- The values of an array, flat in C order (complex values stay pairs)
function R.values(x)
  local out = {}
  local cplx = R.KIND[x.dtype] == "c"
  local function walk(v)
    if type(v) ~= "table" or (cplx and type(v[1]) == "number") then
      out[#out + 1] = v
      return
    end
    for _, e in ipairs(v) do walk(e) end
  end
  walk(x:totable())
  return out
end

function R.nested(A)
  local pos = 0
  local function build(d)
    if d > #A.shape then
      pos = pos + 1
      return A.data[pos]
    end
    local t = {}
    for i = 1, A.shape[d] do t[i] = build(d + 1) end
    return t
  end
  return build(1)
end

--- C-order element strides of a shape
function R.strides(shape)
  local st, acc = {}, 1
  for d = #shape, 1, -1 do
    st[d] = acc
    acc = acc * shape[d]
  end
  return st
end
local strides_of = R.strides

--- Per-axis lists of 1-based positions (nil entry: a new axis) and which
-- output axes survive, for a key on a shape.
local function resolve(shape, key)
  if type(key) ~= "table" then key = { key } end
  local consuming, has_ell = 0, false
  for _, s in ipairs(key) do
    if s == ga.ellipsis then has_ell = true
    elseif s ~= ga.newaxis then consuming = consuming + 1 end
  end
  local sels = {}
  local d = 1
  local function axis_all(n)
    local l = {}
    for i = 1, n do l[i] = i end
    return l
  end
  for _, s in ipairs(key) do
    if s == ga.ellipsis then
      for _ = 1, #shape - consuming do
        sels[#sels + 1] = { list = axis_all(shape[d]), axis = d }
        d = d + 1
      end
    elseif s == ga.newaxis then
      sels[#sels + 1] = { new = true }
    elseif type(s) == "number" then
      local n = shape[d]
      local p = s < 0 and n + 1 + s or s
      assert(p >= 1 and p <= n, "reference: index out of range")
      sels[#sels + 1] = { list = { p }, axis = d, drop = true }
      d = d + 1
    else
      local n = shape[d]
      local step = s[3] or 1
      local function norm(v) return v < 0 and n + 1 + v or v end
      local a = s[1] and norm(s[1]) or (step > 0 and 1 or n)
      local e = s[2] and norm(s[2]) or (step > 0 and n or 1)
      if step > 0 then a = math.max(a, 1); e = math.min(e, n) else a = math.min(a, n); e = math.max(e, 1) end
      local l = {}
      local p = a
      while (step > 0 and p <= e) or (step < 0 and p >= e) do
        l[#l + 1] = p
        p = p + step
      end
      sels[#sels + 1] = { list = l, axis = d }
      d = d + 1
    end
  end
  if not has_ell then
    while d <= #shape do
      sels[#sels + 1] = { list = axis_all(shape[d]), axis = d }
      d = d + 1
    end
  end
  return sels
end

--- Flat positions (1-based into A.data) selected by key, and the result shape.
function R.select(A, key)
  local sels = resolve(A.shape, key)
  local st = strides_of(A.shape)
  local out_shape = {}
  for _, s in ipairs(sels) do
    if s.new then out_shape[#out_shape + 1] = 1
    elseif not s.drop then out_shape[#out_shape + 1] = #s.list end
  end
  local positions = {}
  local function walk(k, off)
    if k > #sels then positions[#positions + 1] = off + 1 return end
    local s = sels[k]
    if s.new then return walk(k + 1, off) end
    for _, p in ipairs(s.list) do walk(k + 1, off + (p - 1) * st[s.axis]) end
  end
  walk(1, 0)
  return positions, out_shape
end

function R.index(A, key)
  local pos, shape = R.select(A, key)
  local data = {}
  for i, p in ipairs(pos) do data[i] = A.data[p] end
  return { data = data, shape = shape }
end

--- Assign values (a flat list cycling as broadcast of a scalar, or matching
-- the selection's C order) into a copy of A.
function R.assign(A, key, values)
  local pos = R.select(A, key)
  local data = {}
  for i, v in ipairs(A.data) do data[i] = v end
  for i, p in ipairs(pos) do
    data[p] = type(values) == "table" and values[(i - 1) % #values + 1] or values
  end
  return { data = data, shape = A.shape }
end

function R.transpose(A, perm)
  local nd = #A.shape
  if not perm then
    perm = {}
    for d = 1, nd do perm[d] = nd + 1 - d end
  end
  local shape = {}
  for d = 1, nd do shape[d] = A.shape[perm[d]] end
  local st = strides_of(A.shape)
  local data = {}
  local idx = {}
  for d = 1, nd do idx[d] = 1 end
  for n = 1, R.size(shape) do
    local off = 0
    for d = 1, nd do off = off + (idx[d] - 1) * st[perm[d]] end
    data[n] = A.data[off + 1]
    for d = nd, 1, -1 do
      idx[d] = idx[d] + 1
      if idx[d] <= shape[d] then break end
      idx[d] = 1
    end
  end
  return { data = data, shape = shape }
end

--- Random key for a shape: integers, ranges (some negative steps), whole
-- axes, at most one ellipsis, some new axes.
function R.random_key(shape)
  local nd = #shape
  local k = math.random(0, nd)
  local key = {}
  local use_ell = math.random() < 0.3
  local ell_at = math.random(1, k + 1)
  for d = 1, k do
    if use_ell and d == ell_at then key[#key + 1] = ga.ellipsis end
    if math.random() < 0.15 then key[#key + 1] = ga.newaxis end
    -- an ellipsis before this entry stands for the nd - k axes it skips
    local n = shape[(use_ell and d >= ell_at) and d + nd - k or d]
    local r = math.random()
    if r < 0.3 and n > 0 then
      local p = math.random(1, n)
      key[#key + 1] = math.random() < 0.5 and p or p - n - 1
    elseif r < 0.8 then
      local step = ({ 1, 1, 2, 3, -1, -2 })[math.random(6)]
      local a = math.random() < 0.8 and math.random(-n - 1, n + 1) or nil
      local b = math.random() < 0.8 and math.random(-n - 1, n + 1) or nil
      if a == 0 then a = 1 end
      if b == 0 then b = 1 end
      key[#key + 1] = { a, b, step }
    else
      key[#key + 1] = {}
    end
  end
  if use_ell and ell_at == k + 1 then key[#key + 1] = ga.ellipsis end
  return key
end

return R
