--- Bit operations (API.md §14): packbits, unpackbits, bitwise_count, the
-- Array API names of the bitwise ufuncs (bitwise_invert, bitwise_left_shift,
-- bitwise_right_shift), and the host-side formatting of integers
-- (binary_repr, base_repr).
--
-- packbits/unpackbits move the axis last and run one ElementwiseKernel per
-- output element (a byte gathers 8 flags; a flag reads one bit).
-- bitwise_count is an ElementwiseKernel-backed function here, not a ufunc
-- of the elementwise table (which another room owns): popcount of |x|, as
-- NumPy's, uint8.
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local fail, is_array = internal.fail, internal.is_array

  local INT = { bool = true, int8 = true, int16 = true, int32 = true, int64 = true,
                uint8 = true, uint16 = true, uint32 = true, uint64 = true }

  local function as_array(x, fname)
    if is_array(x) then return x end
    local t = type(x)
    if t == "table" or t == "number" or t == "boolean" or t == "userdata" then return ga.asarray(x) end
    fail(("%s: expected an array, got %s"):format(fname, t))
  end

  -- the Array API's names of three ufuncs: the same objects
  local ALIASES = { bitwise_invert = "invert", bitwise_left_shift = "left_shift",
                    bitwise_right_shift = "right_shift" }
  for alias, name in pairs(ALIASES) do
    if ga[alias] == nil and ga[name] ~= nil then
      ga[alias] = ga[name]
      if api.entry(ga[name]) then api.alias(alias, ga[name]) end
    end
  end

  local kernels = {}
  local DEFS = {
    -- one output byte: bits k*8 .. k*8+7 of its row of n flags
    pack = { "raw bool b, int64 n, int64 nb, bool little", "uint8 z", [[
long long row = i / nb, k = i % nb;
const bool *r = &b[row * n];
unsigned v = 0;
for (int j = 0; j < 8; j++) {
  long long p = k * 8 + j;
  if (p < n && r[p]) v |= little ? (1u << j) : (0x80u >> j);
}
z = (unsigned char)v]] },
    -- one output flag: bit k of its row of n bytes (0 past the bytes)
    unpack = { "raw uint8 a, int64 n, int64 m, bool little", "uint8 z", [[
long long row = i / m, k = i % m;
unsigned char v = 0;
if (k < n * 8) {
  unsigned char byte = a[row * n + k / 8];
  int j = (int)(k % 8);
  v = little ? (byte >> j) & 1 : (byte >> (7 - j)) & 1;
}
z = v]] },
    bitwise_count = { "T x", "uint8 z", "z = (unsigned char)__popcll(ga_bc_abs(x))",
                      preamble = [[
template <typename T> __device__ __forceinline__ unsigned long long ga_bc_abs(T x) {
  if constexpr ((T)-1 < (T)0) {   // signed: the magnitude, -2^63 too
    return x < 0 ? 0ull - (unsigned long long)(long long)x : (unsigned long long)x;
  } else {
    return (unsigned long long)x;
  }
}
__device__ __forceinline__ unsigned long long ga_bc_abs(bool x) { return x ? 1ull : 0ull; }
]] },
  }
  local function kernel(name)
    local k = kernels[name]
    if not k then
      local d = DEFS[name]
      k = ga.ElementwiseKernel(d[1], d[2], d[3], "ga_" .. name, d.preamble and { preamble = d.preamble } or nil)
      kernels[name] = k
    end
    return k
  end
  internal.binary_kernels = kernel   -- for the compile spec

  -- x with axis d last, contiguous; the permutation used (nil: none)
  local function axis_last(x, d)
    local nd = x.ndim
    if d == nd then return ga.ascontiguousarray(x), nil end
    local p = {}
    for k = 1, nd do if k ~= d then p[#p + 1] = k end end
    p[#p + 1] = d
    return ga.ascontiguousarray(x:transpose(p)), p
  end
  local function undo(y, p)
    if not p then return y end
    local q = {}
    for i, v in ipairs(p) do q[v] = i end
    return ga.ascontiguousarray(y:transpose(q))
  end

  local function check_axis(axis, nd, fname)
    if axis >= 1 and axis <= nd then return axis end
    if axis <= -1 and axis >= -nd then return nd + 1 + axis end
    fail(("%s: axis %d is out of range for an array of %d dimensions"):format(fname, axis, nd))
  end

  def(ga, [[
packbits(a: array_like, axis: axis?, bitorder: "big"|"little" = "big") -> ndarray
The truth of a's elements (integers or booleans) packed 8 to a uint8 along
axis (1-based; nil: the flattened array), the last byte padded with 0 bits;
"big" puts the first element in the high bit.
]], function(a, axis, bitorder)
    a = as_array(a, "packbits")
    if not INT[a.dtype] then fail("packbits: expected an array of integer or boolean type, got " .. a.dtype) end
    if axis == nil or a.ndim == 0 then
      if axis ~= nil then fail("packbits: axis is out of range for a 0-d array") end
      a = a:reshape(a.size)
      axis = 1
    end
    local d = check_axis(axis, a.ndim, "packbits")
    local flags = a.dtype == "bool" and a or ga.not_equal(a, 0)
    local rows, p = axis_last(flags, d)
    local shape = rows.shape
    local n = shape[#shape]
    local nb = (n + 7) // 8
    shape[#shape] = nb
    local z = ga.empty(shape, "uint8")
    if z.size > 0 then kernel("pack")(rows, ga.int64(n), ga.int64(nb), ga.bool(bitorder == "little"), z) end
    return undo(z, p)
  end)

  def(ga, [[
unpackbits(a: ndarray, axis: axis?, count: integer?, bitorder: "big"|"little" = "big") -> ndarray
The bits of uint8 a as uint8 0/1 values along axis (1-based; nil: the
flattened array): 8 per byte, or count of them (past the bytes: zeros;
negative: that many fewer).
]], function(a, axis, count, bitorder)
    if a.dtype ~= "uint8" then
      fail("unpackbits: expected an input array of unsigned byte data type, got " .. a.dtype)
    end
    if axis == nil or a.ndim == 0 then
      if axis ~= nil then fail("unpackbits: axis is out of range for a 0-d array") end
      a = a:reshape(a.size)
      axis = 1
    end
    local d = check_axis(axis, a.ndim, "unpackbits")
    local rows, p = axis_last(a, d)
    local shape = rows.shape
    local n = shape[#shape]
    local m = n * 8
    if count ~= nil then
      if count < 0 then
        if -count > m then fail(("unpackbits: -count %d is larger than the %d bits"):format(-count, m)) end
        m = m + count
      else
        m = count
      end
    end
    shape[#shape] = m
    local z = ga.empty(shape, "uint8")
    if z.size > 0 then kernel("unpack")(rows, ga.int64(n), ga.int64(m), ga.bool(bitorder == "little"), z) end
    return undo(z, p)
  end)

  def(ga, [[
bitwise_count(x: array_like, out: ndarray?) -> ndarray
The number of 1 bits in the absolute value of each integer (or boolean) of
x, uint8 (NumPy 2's bitwise_count).
]], function(x, out)
    x = as_array(x, "bitwise_count")
    if not INT[x.dtype] then
      fail("bitwise_count: ufunc 'bitwise_count' not supported for the input type " .. x.dtype)
    end
    local z = out and internal.check_out(out, x.shape, "bitwise_count") or ga.empty(x.shape, "uint8")
    if z.size > 0 then
      if z.dtype == "uint8" then
        kernel("bitwise_count")(x, z)
      else
        local t = ga.empty(x.shape, "uint8")
        kernel("bitwise_count")(x, t)
        z:set(t)
      end
    end
    return z
  end)

  -- binary digits of a non-negative integer (any of Lua's, 2^63 - 1 too)
  local function bin(n)
    if n == 0 then return "0" end
    local t = {}
    while n > 0 do
      t[#t + 1] = n & 1 == 1 and "1" or "0"
      n = n >> 1
    end
    return string.reverse(table.concat(t))
  end

  -- a string of 2^62 zeros cannot be made ("resulting string too large" or
  -- out of memory): widths and paddings past 2^24 characters raise
  local MAX_CHARS = 1 << 24
  local function check_chars(n, fname, what)
    if n > MAX_CHARS then
      fail(("%s: %s = %d is more than the %d characters a string here holds"):format(fname, what, n, MAX_CHARS))
    end
  end

  local function insufficient(width, binwidth)
    if width ~= nil and width < binwidth then
      fail(("binary_repr: insufficient bit width %d for a number of %d bits"):format(width, binwidth))
    end
  end

  def(ga, [[
binary_repr(num: integer, width: integer?) -> string
The binary digits of num; negative: "-" then |num|'s digits, or with width
the two's complement in width bits (too few bits raise).
]], function(num, width)
    if width ~= nil and width < 0 then fail("binary_repr: width must be non-negative") end
    if width ~= nil then check_chars(width, "binary_repr", "width") end
    if num == 0 then return ("0"):rep(width or 1) end
    if num > 0 then
      local b = bin(num)
      insufficient(width, #b)
      return ("0"):rep((width or #b) - #b) .. b
    end
    if width == nil then
      if num == math.mininteger then return "-1" .. ("0"):rep(63) end
      return "-" .. bin(-num)
    end
    -- two's complement: the bits of num in the fewest bits that hold it,
    -- then sign-extended to width
    local nbits = 64
    for k = 1, 64 do
      local lo = k == 64 and math.mininteger or -(1 << (k - 1))
      if num >= lo then
        nbits = k
        break
      end
    end
    local b = {}
    for k = nbits - 1, 0, -1 do b[#b + 1] = (num >> k) & 1 == 1 and "1" or "0" end
    local s = table.concat(b)
    insufficient(width, #s)
    return ("1"):rep(width - #s) .. s
  end)

  local DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
  def(ga, [[
base_repr(number: number, base: integer = 2, padding: integer = 0) -> string
The digits of number (truncated to an integer) in base 2..36, with padding
zeros before them and "-" for a negative number.
]], function(number, base, padding)
    if base > 36 then fail("base_repr: bases greater than 36 not handled in base_repr") end
    if base < 2 then fail("base_repr: bases less than 2 not handled in base_repr") end
    if padding < 0 then fail("base_repr: padding must be non-negative") end
    check_chars(padding, "base_repr", "padding")
    local n = math.tointeger(number)
    if n == nil then
      if number ~= number or number == math.huge or number == -math.huge then
        fail("base_repr: cannot convert " .. tostring(number) .. " to an integer")
      end
      local t = number < 0 and math.ceil(number) or math.floor(number)
      n = math.tointeger(t)
      if n == nil then fail("base_repr: " .. tostring(number) .. " does not fit a Lua integer") end
    end
    local neg = n < 0
    local res = {}
    -- digits of |n| without negating (math.mininteger has no positive twin)
    while n ~= 0 do
      local r = n % base
      if neg and r ~= 0 then r = r - base end   -- toward zero for negatives
      local q = (n - r) // base
      res[#res + 1] = DIGITS:sub(math.abs(r) + 1, math.abs(r) + 1)
      n = q
    end
    if padding > 0 then res[#res + 1] = ("0"):rep(padding) end
    if neg then res[#res + 1] = "-" end
    if #res == 0 then return "0" end
    local out = {}
    for i = #res, 1, -1 do out[#out + 1] = res[i] end
    return table.concat(out)
  end)
end
