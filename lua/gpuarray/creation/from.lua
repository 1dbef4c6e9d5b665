--- Arrays from other things (API.md §2, §14): frombuffer and fromstring
-- (a Lua string's bytes or text), fromiter (a Lua iterator function or a
-- list), fromfunction (a Lua function of index arrays), from_dlpack.
-- fromfile is with the I/O routines.
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail, is_array = internal.fail, internal.is_array
  local def = api.def

  local C = { from_dlpack = ga.from_dlpack }

  local function default_dtype(dtype)
    return args.dtype(ga, dtype) or ga.get_default_dtype()
  end

  -- count elements of itemsize bytes from s after offset bytes
  local function bytes_of(s, dtype, count, offset, fname)
    local isz = ga.dtype(dtype).itemsize
    if offset < 0 or offset > #s then
      fail(("%s: offset %d is outside the %d bytes of the buffer"):format(fname, offset, #s))
    end
    local avail = #s - offset
    if count < 0 then
      if avail % isz ~= 0 then
        fail(("%s: %d bytes are not a whole number of %s elements (%d bytes each)"):format(fname, avail, dtype, isz))
      end
      count = avail // isz
    elseif count * isz > avail then
      fail(("%s: %d elements of %s need %d bytes, the buffer has %d after the offset"):format(
        fname, count, dtype, count * isz, avail))
    end
    return s:sub(offset + 1, offset + count * isz), count
  end

  def(ga, [[
frombuffer(buffer: string, dtype: dtype?, count: integer = -1, offset: integer = 0) -> ndarray
A 1-D array of the raw bytes of a Lua string (little-endian, C's layout of
dtype; the default dtype when nil): count elements (-1: all), starting
offset bytes in (a byte count from the start, 0 = the first byte). A copy
on the device, not a view.
]], function(buffer, dtype, count, offset)
    dtype = default_dtype(dtype)
    local bytes, n = bytes_of(buffer, dtype, count, offset, "frombuffer")
    return ga.array(bytes, dtype, { shape = { n } })
  end)

  -- the items of text separated by sep (whitespace around a separator is
  -- ignored; a separator of spaces matches any run of whitespace)
  local function split_text(text, sep)
    local items = {}
    if sep:match("^%s+$") then
      for tok in text:gmatch("%S+") do items[#items + 1] = tok end
      return items
    end
    local core = sep:match("^%s*(.-)%s*$")
    local pos = 1
    local body = text:match("^%s*(.-)%s*$")
    if body == "" then return items end
    while true do
      local a, b = body:find(core, pos, true)
      local tok = body:sub(pos, (a or #body + 1) - 1):match("^%s*(.-)%s*$")
      items[#items + 1] = tok
      if not a then break end
      pos = b + 1
    end
    -- a trailing separator ends the list, as in NumPy
    if items[#items] == "" then items[#items] = nil end
    return items
  end

  local function parse(tok, kind, i, fname)
    local v
    if kind == "b" then
      v = tonumber(tok)
      if v ~= nil then return v ~= 0 end
    elseif kind == "i" or kind == "u" then
      v = math.tointeger(tonumber(tok))
    else
      local low = tok:lower()
      if low == "nan" or low == "+nan" or low == "-nan" then return 0 / 0 end
      if low == "inf" or low == "+inf" or low == "infinity" then return math.huge end
      if low == "-inf" or low == "-infinity" then return -math.huge end
      v = tonumber(tok)
      if v then v = v + 0.0 end
    end
    if v == nil then fail(("%s: item %d, '%s', is not a number of the dtype's kind"):format(fname, i, tok)) end
    return v
  end

  def(ga, [[
fromstring(string: string, dtype: dtype?, count: integer = -1, *, sep: string = "") -> ndarray
A 1-D array from text: numbers separated by sep (whitespace around it is
ignored; a sep of spaces matches any whitespace), count of them (-1: all).
sep = "" reads the string's raw bytes, as frombuffer.
]], function(s, dtype, count, sep)
    dtype = default_dtype(dtype)
    if sep == "" then return ga.frombuffer(s, dtype, count) end
    local kind = ga.dtype(dtype).kind
    if kind == "c" then fail("fromstring: complex numbers cannot be read from text") end
    local items = split_text(s, sep)
    if count >= 0 then
      if count > #items then
        fail(("fromstring: %d items asked for, the string has %d"):format(count, #items))
      end
      for i = #items, count + 1, -1 do items[i] = nil end
    end
    local vals = {}
    for i, tok in ipairs(items) do vals[i] = parse(tok, kind, i, "fromstring") end
    if #vals == 0 then return ga.empty({ 0 }, dtype) end
    return ga.array(vals, dtype)
  end)

  def(ga, [[
fromiter(iter: function|list, dtype: dtype, count: integer = -1) -> ndarray
A 1-D array of the values a Lua iterator function returns until it returns
nil (or of a list's entries): count of them (-1: all; an iterator that ends
sooner raises).
]], function(iter, dtype, count)
    dtype = args.dtype(ga, dtype)
    local vals, n = {}, 0
    if type(iter) == "table" then
      local len = rawlen(iter)
      if count >= 0 and count > len then
        fail(("fromiter: %d items asked for, the list has %d"):format(count, len))
      end
      n = count >= 0 and count or len
      for i = 1, n do
        vals[i] = rawget(iter, i)
        if vals[i] == nil then fail(("fromiter: the list has a hole at entry %d"):format(i)) end
      end
    else
      while count < 0 or n < count do
        local v = api.call_user(iter)
        if v == nil then break end
        n = n + 1
        vals[n] = v
      end
      if count >= 0 and n < count then
        fail(("fromiter: %d items asked for, the iterator gave %d"):format(count, n))
      end
    end
    if n == 0 then return ga.empty({ 0 }, dtype) end
    return ga.array(vals, dtype)
  end)

  def(ga, [[
fromfunction(fn: function, shape: shape, *, dtype: dtype?) -> any
fn called once with one array per axis of shape holding each element's
coordinate along that axis, 1-based (ga.indices' arrays, in dtype: the
default dtype when nil); returns what fn returns.
]], function(fn, shape, dtype)
    local nd = type(shape) == "table" and rawlen(shape) or 1
    local g = ga.indices(shape, default_dtype(dtype))
    local grids = {}
    for k = 1, nd do grids[k] = g[k] end
    return api.call_user(fn, table.unpack(grids, 1, nd))
  end)

  def(ga, [[
from_dlpack(x: userdata|ndarray, *, copy: boolean?, versioned: boolean = false) -> ndarray
An ndarray over a DLPack managed tensor (a light userdata from another
library; its CUDA memory is shared, or copied with copy = true) or a view
of an ndarray. versioned: the tensor is a DLManagedTensorVersioned.
]], function(x, copy, versioned)
    if is_array(x) and copy then return x:copy() end
    return C.from_dlpack(x, { copy = copy, versioned = versioned })
  end)
end
