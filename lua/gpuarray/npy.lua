--- ga.save / ga.load: NumPy's .npy format (versions 1.0 to 3.0 read,
-- 1.0 written; little-endian; C or Fortran order), so arrays move between
-- Lua and NumPy unchanged.
local internal = require("gpuarray.internal")

local DESCR = {
  bool = "|b1", int8 = "|i1", uint8 = "|u1",
  int16 = "<i2", int32 = "<i4", int64 = "<i8",
  uint16 = "<u2", uint32 = "<u4", uint64 = "<u8",
  float16 = "<f2", float32 = "<f4", float64 = "<f8",
  complex64 = "<c8", complex128 = "<c16",
}
local FROM_DESCR = {}
for name, d in pairs(DESCR) do
  FROM_DESCR[d:sub(2)] = name
end

local MAGIC = "\x93NUMPY"

return function(ga)
  local fail = require("gpuarray.internal").fail

  local function header_for(x)
    local dims = {}
    for i, n in ipairs(x.shape) do dims[i] = tostring(n) end
    local shape = #dims == 1 and "(" .. dims[1] .. ",)" or "(" .. table.concat(dims, ", ") .. ")"
    local dict = ("{'descr': '%s', 'fortran_order': False, 'shape': %s, }"):format(DESCR[x.dtype], shape)
    -- magic(6) + version(2) + length(2) + dict + padding + "\n" is a multiple of 64
    local total = 10 + #dict + 1
    local pad = (64 - total % 64) % 64
    return MAGIC .. "\1\0" .. string.pack("<I2", #dict + pad + 1) .. dict .. (" "):rep(pad) .. "\n"
  end

  --- Write x to path as a .npy file (C order).
  function ga.save(path, x)
    if type(path) ~= "string" then fail("save: path must be a string") end
    -- io.open reads a C string: "a.npy\0x" would write a.npy
    if path:find("\0", 1, true) then fail("save: path contains a NUL byte") end
    if not internal.is_array(x) then fail("save: expected an ndarray, got " .. type(x)) end
    local data = x:tobytes()
    local f, err = io.open(path, "wb")
    if not f then fail("save: " .. tostring(err)) end
    f:write(header_for(x), data)
    f:close()
  end

  -- "(2, 3)", "(3,)", "()": non-negative integers that fit, nothing else
  local function parse_shape(text, path)
    local shape, inner = {}, text:sub(2, -2)
    if inner:match("^%s*$") then return shape end
    local pieces = {}
    for piece in (inner .. ","):gmatch("([^,]*),") do pieces[#pieces + 1] = piece end
    if #pieces > 1 and pieces[#pieces]:match("^%s*$") then pieces[#pieces] = nil end
    for i, piece in ipairs(pieces) do
      local digits = piece:match("^%s*(%d+)%s*$")
      local n = digits and math.tointeger(tonumber(digits))
      if not n then fail(("load: %s: bad dimension '%s' in shape %s"):format(path, piece, text)) end
      shape[i] = n
    end
    return shape
  end

  -- The header is a Python dict literal that NumPy reads with
  -- ast.literal_eval: quoted keys, and values that are quoted strings, words
  -- (True, False) or tuples. A key given twice keeps its last value, as a
  -- Python dict does; NumPy refuses keys other than its three, and so do we.
  local KEYS = { descr = true, fortran_order = true, shape = true }
  local function parse_dict(text, path)
    local function bad(why) fail(("load: %s: malformed .npy header (%s)"):format(path, why)) end
    local pos = text:match("^%s*{()")
    if not pos then bad("no '{'") end
    local dict = {}
    local function skip() pos = text:match("^%s*()", pos) end
    local function quoted()
      local q = text:sub(pos, pos)
      if q ~= "'" and q ~= '"' then return nil end
      local e = text:find(q, pos + 1, true)
      if not e then bad("an unterminated string") end
      local v = text:sub(pos + 1, e - 1)
      pos = e + 1
      return v
    end
    while true do
      skip()
      if text:sub(pos, pos) == "}" then pos = pos + 1 break end
      local key = quoted()
      if not key then bad("a key is not a quoted string") end
      if not KEYS[key] then bad(("unknown key '%s'"):format(key)) end
      skip()
      if text:sub(pos, pos) ~= ":" then bad("no ':' after '" .. key .. "'") end
      pos = pos + 1
      skip()
      local v, is_string = quoted(), true
      if not v then
        is_string = false
        local tuple = text:match("^%b()", pos)
        local word = not tuple and text:match("^[%w_]+", pos)
        v = tuple or word
        if not v then bad("the value of '" .. key .. "'") end
        pos = pos + #v
      end
      dict[key] = { text = v, string = is_string }
      skip()
      local c = text:sub(pos, pos)
      if c == "," then pos = pos + 1
      elseif c == "}" then pos = pos + 1 break
      else bad("no ',' or '}' after '" .. key .. "'") end
    end
    if not text:match("^%s*$", pos) then bad("text after the dict") end
    return dict
  end

  local function parse_header(text, path)
    local d = parse_dict(text, path)
    if not (d.descr and d.fortran_order and d.shape) then
      fail(("load: %s: malformed .npy header (it needs descr, fortran_order and shape)"):format(path))
    end
    local descr, fortran, shape_text = d.descr.text, d.fortran_order.text, d.shape.text
    if not d.descr.string then fail(("load: %s: descr must be a string, not %s"):format(path, descr)) end
    if d.fortran_order.string or (fortran ~= "True" and fortran ~= "False") then
      fail(("load: %s: fortran_order must be True or False, not %s"):format(path, fortran))
    end
    if d.shape.string or shape_text:sub(1, 1) ~= "(" then
      fail(("load: %s: shape must be a tuple, not %s"):format(path, shape_text))
    end
    local order = descr:sub(1, 1)
    local code = descr:sub(2)
    if order == ">" and code:sub(2) ~= "1" then
      fail(("load: %s: big-endian data (%s) is not supported"):format(path, descr))
    end
    local dtype = FROM_DESCR[code]
    if not dtype then fail(("load: %s: unsupported dtype '%s'"):format(path, descr)) end
    return dtype, fortran == "True", parse_shape(shape_text, path)
  end

  --- Read a .npy file into a new device array.
  function ga.load(path)
    if type(path) ~= "string" then fail("load: path must be a string") end
    if path:find("\0", 1, true) then fail("load: path contains a NUL byte") end
    local f, err = io.open(path, "rb")
    if not f then fail("load: " .. tostring(err)) end
    local content, rerr = f:read("a")
    f:close()
    if not content then fail(("load: %s: %s"):format(path, tostring(rerr))) end
    if content:sub(1, 6) ~= MAGIC then fail(("load: %s is not a .npy file"):format(path)) end
    local major = content:byte(7)
    local lenbytes = major == 1 and 2 or 4
    if #content < 8 + lenbytes then fail(("load: %s: truncated .npy header"):format(path)) end
    local hlen, start
    if major == 1 then
      hlen, start = string.unpack("<I2", content, 9)
    elseif major == 2 or major == 3 then
      hlen, start = string.unpack("<I4", content, 9)
    else
      fail(("load: %s: unsupported .npy version %d"):format(path, major))
    end
    if start + hlen - 1 > #content then fail(("load: %s: truncated .npy header"):format(path)) end
    local dtype, fortran, shape = parse_header(content:sub(start, start + hlen - 1), path)
    local data = content:sub(start + hlen)
    local need = ga.dtype(dtype).itemsize
    local empty = false
    for _, d in ipairs(shape) do
      if d == 0 then empty = true
      elseif need > math.maxinteger // d then
        fail(("load: %s: shape %s is too large"):format(path, internal.shape_str(shape)))
      else need = need * d end
    end
    if empty then need = 0 end
    if #data < need then
      fail(("load: %s: %d bytes of data, the header promises %d"):format(path, #data, need))
    end
    data = data:sub(1, need)
    if not fortran then return ga.array(data, { dtype = dtype, shape = shape }) end
    -- Fortran order: the bytes are the C-order transpose
    local rev = {}
    for i = #shape, 1, -1 do rev[#rev + 1] = shape[i] end
    return ga.array(data, { dtype = dtype, shape = rev }):transpose()
  end
end
