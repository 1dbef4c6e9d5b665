--- A direct DFT in Lua, the reference of the fft specs. Arrays are
-- {re = {...}, im = {...}, shape = {...}}, flat in C order.
local D = {}

local R = require "ndref"
local size, strides = R.size, R.strides

function D.new(shape, re, im)
  local n = size(shape)
  local a = { shape = table.move(shape, 1, #shape, 1, {}), re = re or {}, im = im or {} }
  for i = 1, n do
    a.re[i] = a.re[i] or 0
    a.im[i] = a.im[i] or 0
  end
  return a
end

--- Random values in [-1, 1) (imaginary parts zero unless complex)
function D.random(shape, complex)
  local a = D.new(shape)
  for i = 1, #a.re do
    a.re[i] = math.random() * 2 - 1
    if complex then a.im[i] = math.random() * 2 - 1 end
  end
  return a
end

--- Nested Lua table for ga.array (pairs when complex)
function D.totable(a, complex)
  local function build(d, off)
    local st = strides(a.shape)
    if d > #a.shape then
      return complex and { a.re[off + 1], a.im[off + 1] } or a.re[off + 1]
    end
    local t = {}
    for i = 0, a.shape[d] - 1 do t[i + 1] = build(d + 1, off + i * st[d]) end
    return t
  end
  return build(1, 0)
end

--- The element at multi-index idx (0-based) in flat position
local function foreach(shape, fn)
  local n = size(shape)
  local idx = {}
  for d = 1, #shape do idx[d] = 0 end
  for i = 1, n do
    fn(idx, i)
    for d = #shape, 1, -1 do
      idx[d] = idx[d] + 1
      if idx[d] < shape[d] then break end
      idx[d] = 0
    end
  end
end

local function flat(shape, idx)
  local st, p = strides(shape), 1
  for d = 1, #shape do p = p + idx[d] * st[d] end
  return p
end

--- a with axis cropped or zero-padded to m
function D.resize(a, axis, m)
  local shape = table.move(a.shape, 1, #a.shape, 1, {})
  shape[axis] = m
  local r = D.new(shape)
  foreach(shape, function(idx, i)
    if idx[axis] < a.shape[axis] then
      local p = flat(a.shape, idx)
      r.re[i], r.im[i] = a.re[p], a.im[p]
    end
  end)
  return r
end

--- The unnormalised DFT along axis (sign -1 forward, +1 inverse)
function D.dft(a, axis, inverse)
  local n = a.shape[axis]
  local r = D.new(a.shape)
  local sgn = inverse and 1 or -1
  foreach(a.shape, function(idx, i)
    local k = idx[axis]
    local sr, si = 0, 0
    local j = {}
    for d = 1, #idx do j[d] = idx[d] end
    for t = 0, n - 1 do
      j[axis] = t
      local p = flat(a.shape, j)
      local ang = sgn * 2 * math.pi * ((k * t) % n) / n
      local c, s = math.cos(ang), math.sin(ang)
      sr = sr + a.re[p] * c - a.im[p] * s
      si = si + a.re[p] * s + a.im[p] * c
    end
    r.re[i], r.im[i] = sr, si
  end)
  return r
end

function D.scale(a, f)
  for i = 1, #a.re do
    a.re[i] = a.re[i] * f
    a.im[i] = a.im[i] * f
  end
  return a
end

function D.conj(a)
  local r = D.new(a.shape)
  for i = 1, #a.re do r.re[i], r.im[i] = a.re[i], -a.im[i] end
  return r
end

--- The Hermitian extension along axis of m = n // 2 + 1 values to n
function D.hermitian(a, axis, n)
  local shape = table.move(a.shape, 1, #a.shape, 1, {})
  shape[axis] = n
  local r = D.new(shape)
  foreach(shape, function(idx, i)
    local k = idx[axis]
    local j = table.move(idx, 1, #idx, 1, {})
    local conj = k >= a.shape[axis]
    if conj then j[axis] = n - k end
    local p = flat(a.shape, j)
    r.re[i], r.im[i] = a.re[p], conj and -a.im[p] or a.im[p]
  end)
  return r
end

--- Interleaved flat values (re, im, re, im, ...) or reals
function D.flat(a, complex)
  local out = {}
  for i = 1, #a.re do
    if complex then
      out[#out + 1] = a.re[i]
      out[#out + 1] = a.im[i]
    else
      out[#out + 1] = a.re[i]
    end
  end
  return out
end

D.size = size
return D
