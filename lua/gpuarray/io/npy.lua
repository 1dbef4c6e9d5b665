--- ga.save, ga.load, ga.savez, ga.savez_compressed: NumPy's .npy format
-- (versions 1.0 to 3.0 read, 1.0 written, 2.0 past a 64 KiB header;
-- little-endian; C or Fortran order) and .npz archives of .npy members
-- (zip.lua: stored or deflated), so arrays move between Lua and NumPy
-- unchanged.
--
-- The byte level (npy.header, npy.parse) knows nothing of the device: the
-- CPU specs check it against files NumPy writes and reads.
local internal = require("gpuarray.internal")
local zip = require("gpuarray.io.zip")

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
FROM_DESCR["?1"] = "bool"   -- NumPy's descr of bool is |b1; '?' is its char

local MAGIC = "\x93NUMPY"

local npy = {}

local function fail(msg) internal.fail(msg) end

--- The .npy header for dtype and shape (C order)
function npy.header(dtype, shape)
  local dims = {}
  for i, n in ipairs(shape) do dims[i] = tostring(n) end
  local shape_text = #dims == 1 and "(" .. dims[1] .. ",)" or "(" .. table.concat(dims, ", ") .. ")"
  local dict = ("{'descr': '%s', 'fortran_order': False, 'shape': %s, }"):format(DESCR[dtype], shape_text)
  -- magic(6) + version(2) + length(2 or 4) + dict + padding + "\n": a multiple of 64
  local major = 10 + #dict + 1 + 63 > 65535 and 2 or 1
  local pre = major == 1 and 10 or 12
  local pad = (64 - (pre + #dict + 1) % 64) % 64
  local len = #dict + pad + 1
  local lenbytes = major == 1 and string.pack("<I2", len) or string.pack("<I4", len)
  return MAGIC .. string.char(major, 0) .. lenbytes .. dict .. (" "):rep(pad) .. "\n"
end

-- "(2, 3)", "(3,)", "()": non-negative integers that fit, nothing else
local function parse_shape(text, what)
  local shape, inner = {}, text:sub(2, -2)
  if inner:match("^%s*$") then return shape end
  local pieces = {}
  for piece in (inner .. ","):gmatch("([^,]*),") do pieces[#pieces + 1] = piece end
  if #pieces > 1 and pieces[#pieces]:match("^%s*$") then pieces[#pieces] = nil end
  for i, piece in ipairs(pieces) do
    local digits = piece:match("^%s*(%d+)L?%s*$")
    local n = digits and math.tointeger(tonumber(digits))
    if not n then fail(("load: %s: bad dimension '%s' in shape %s"):format(what, piece, text)) end
    shape[i] = n
  end
  return shape
end

-- The header is a Python dict literal that NumPy reads with
-- ast.literal_eval: quoted keys, and values that are quoted strings, words
-- (True, False) or tuples. A key given twice keeps its last value, as a
-- Python dict does; NumPy refuses keys other than its three, and so do we.
local KEYS = { descr = true, fortran_order = true, shape = true }
local function read_dict(text, what)
  local function bad(why) fail(("load: %s: malformed .npy header (%s)"):format(what, why)) end
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

local function parse_dict(text, what)
  local d = read_dict(text, what)
  if not (d.descr and d.fortran_order and d.shape) then
    fail(("load: %s: malformed .npy header (it needs descr, fortran_order and shape)"):format(what))
  end
  local descr, fortran, shape_text = d.descr.text, d.fortran_order.text, d.shape.text
  if not d.descr.string then fail(("load: %s: descr must be a string, not %s"):format(what, descr)) end
  if d.fortran_order.string or (fortran ~= "True" and fortran ~= "False") then
    fail(("load: %s: fortran_order must be True or False, not %s"):format(what, fortran))
  end
  if d.shape.string or shape_text:sub(1, 1) ~= "(" then
    fail(("load: %s: shape must be a tuple, not %s"):format(what, shape_text))
  end
  local order = descr:sub(1, 1)
  local code = descr:sub(2)
  if order ~= "<" and order ~= "|" and order ~= ">" and order ~= "=" then
    code, order = descr, "|"
  end
  if order == ">" and code:sub(2) ~= "1" then
    fail(("load: %s: big-endian data (%s) is not supported"):format(what, descr))
  end
  local dtype = FROM_DESCR[code]
  if not dtype then fail(("load: %s: unsupported dtype '%s'"):format(what, descr)) end
  return dtype, fortran == "True", parse_shape(shape_text, what)
end

--- Parse .npy bytes: { dtype =, shape =, fortran =, data = (the element
-- bytes, in the file's order) }. max_header_size bounds the header.
function npy.parse(content, what, max_header_size)
  if content:sub(1, 6) ~= MAGIC then fail(("load: %s is not a .npy file"):format(what)) end
  local major = content:byte(7)
  if not major or #content < 10 then fail(("load: %s: truncated .npy header"):format(what)) end
  local hlen, start
  if major == 1 then
    hlen, start = string.unpack("<I2", content, 9)
  elseif major == 2 or major == 3 then
    if #content < 12 then fail(("load: %s: truncated .npy header"):format(what)) end
    hlen, start = string.unpack("<I4", content, 9)
  else
    fail(("load: %s: unsupported .npy version %d"):format(what, major))
  end
  if max_header_size and hlen > max_header_size then
    fail(("load: %s: the header is %d bytes, more than max_header_size %d"):format(what, hlen, max_header_size))
  end
  if start + hlen - 1 > #content then fail(("load: %s: truncated .npy header"):format(what)) end
  local dtype, fortran, shape = parse_dict(content:sub(start, start + hlen - 1), what)
  local need = ({ bool = 1, int8 = 1, uint8 = 1, int16 = 2, uint16 = 2, float16 = 2, int32 = 4, uint32 = 4,
                  float32 = 4, int64 = 8, uint64 = 8, float64 = 8, complex64 = 8, complex128 = 16 })[dtype]
  local empty = false
  for _, d in ipairs(shape) do
    if d == 0 then empty = true
    elseif need > math.maxinteger // d then
      fail(("load: %s: shape %s is too large"):format(what, internal.shape_str(shape)))
    else need = need * d end
  end
  if empty then need = 0 end
  local avail = #content - (start + hlen) + 1
  if avail < need then
    fail(("load: %s: %d bytes of data, the header promises %d"):format(what, avail, need))
  end
  return { dtype = dtype, shape = shape, fortran = fortran, data = content:sub(start + hlen, start + hlen + need - 1) }
end

return function(ga)
  local api = require("gpuarray.api")
  local def = api.def
  local is_array = internal.is_array

  internal.npy = npy
  internal.zip = zip

  -- a Lua file handle, or a path opened in mode
  local function open(file, mode, fname)
    if io.type(file) == "file" then return file, false end
    -- io.open reads a C string: "a.npy\0x" would open a.npy (issue 24)
    if type(file) == "string" and file:find("\0", 1, true) then fail(fname .. ": path contains a NUL byte") end
    local f, err = io.open(file, mode)
    if not f then fail(fname .. ": " .. tostring(err)) end
    return f, true
  end

  local function array_of(p)
    if not p.fortran then return ga.array(p.data, { dtype = p.dtype, shape = p.shape }) end
    -- Fortran order: the bytes are the C-order transpose
    local rev = {}
    for i = #p.shape, 1, -1 do rev[#rev + 1] = p.shape[i] end
    return ga.array(p.data, { dtype = p.dtype, shape = rev }):transpose()
  end

  local function as_array(x, fname)
    if is_array(x) then return x end
    local t = type(x)
    if t == "table" or t == "number" or t == "boolean" or t == "userdata" then return ga.asarray(x) end
    fail(("%s: expected an array, got %s"):format(fname, t))
  end

  local function npy_bytes(x)
    return npy.header(x.dtype, x.shape) .. x:tobytes()
  end

  local function with_suffix(file, suffix)
    if type(file) == "string" and file:sub(-#suffix) ~= suffix then return file .. suffix end
    return file
  end

  def(ga, [[
save(file: string|userdata, arr: array_like, allow_pickle: boolean = true, fix_imports: boolean = true) -> nil
Write arr to a .npy file (C order): file is a path (".npy" appended when it
lacks it, as NumPy) or an open Lua file. allow_pickle and fix_imports change
nothing (no object arrays).
]], function(file, arr)
    arr = as_array(arr, "save")
    local data = npy_bytes(arr)
    local f, owned = open(with_suffix(file, ".npy"), "wb", "save")
    f:write(data)
    if owned then f:close() end
  end)

  -- the members of a savez call: arrays by position are arr_0, arr_1, ...
  local function members_of(fname, args)
    local named, positional = {}, {}
    for i = 1, args.n do
      local v = args[i]
      if type(v) == "table" and not is_array(v) and next(v) ~= nil and v[1] == nil then
        for k, a in pairs(v) do
          if type(k) ~= "string" then fail(fname .. ": the table of named arrays must have string keys") end
          if named[k] then fail(("%s: the name %s is given twice"):format(fname, k)) end
          named[k] = as_array(a, fname)
        end
      else
        positional[#positional + 1] = as_array(v, fname)
      end
    end
    local list = {}
    for i, a in ipairs(positional) do
      local key = "arr_" .. (i - 1)
      if named[key] then fail(("%s: cannot use un-named variables and keyword %s"):format(fname, key)) end
      list[#list + 1] = { name = key .. ".npy", array = a }
    end
    local names = {}
    for k in pairs(named) do names[#names + 1] = k end
    table.sort(names)
    for _, k in ipairs(names) do list[#list + 1] = { name = k .. ".npy", array = named[k] } end
    for _, m in ipairs(list) do m.data = npy_bytes(m.array) end
    return list
  end

  local function savez(fname, compression)
    return function(file, ...)
      local members = members_of(fname, table.pack(...))
      local f, owned = open(with_suffix(file, ".npz"), "wb", fname)
      local ok, err = pcall(zip.write, f, members, compression)
      if owned then f:close() end
      if not ok then error(err, 0) end
    end
  end

  def(ga, [[
savez(file: string|userdata, ...: array_like|dict) -> nil
Write several arrays to one uncompressed .npz archive: arrays given by
position are named arr_0, arr_1, ... (0-based, as NumPy names them), a table
{name = array} names the others. ".npz" is appended to a path without it.
]], savez("savez", "stored"))

  def(ga, [[
savez_compressed(file: string|userdata, ...: array_like|dict) -> nil
savez with every member deflated (zip's DEFLATE, written in Lua on the host:
a few MB/s).
]], savez("savez_compressed", "deflated"))

  -- the arrays of a .npz, read on first use: z.files lists the names
  -- (without ".npy"), z[name] is the array, pairs(z) walks them all
  local NpzFile = {}
  local function npz_index(self, key)
    local m = NpzFile[key]
    if m ~= nil then return m end
    local members = rawget(self, "_members")
    local entry = members[key] or members[tostring(key) .. ".npy"]
    if entry == nil then return nil end
    local cache = rawget(self, "_cache")
    local a = cache[entry.name]
    if a == nil then
      a = array_of(npy.parse(entry.data, rawget(self, "_what") .. ": " .. entry.name, rawget(self, "_max_header")))
      cache[entry.name] = a
    end
    return a
  end
  local npz_mt = {
    __name = "gpuarray.NpzFile",
    __index = npz_index,
    __pairs = function(self)
      local i = 0
      local files = rawget(self, "files")
      return function()
        i = i + 1
        local name = files[i]
        if name then return name, npz_index(self, name) end
      end, self, nil
    end,
    __len = function(self) return #rawget(self, "files") end,
    __tostring = function(self) return "gpuarray.NpzFile(" .. rawget(self, "_what") .. ")" end,
  }
  api.set_type("NpzFile", function(v) return getmetatable(v) == npz_mt end)
  def(NpzFile, [[
NpzFile:get(name: string) -> ndarray?
The array of member name (with or without ".npy"), or nil: also for names
that z.name cannot reach (files, get, close).
]], function(self, name) return npz_index(self, name) end)
  def(NpzFile, [[
NpzFile:close() -> nil
Drops the arrays read so far (the archive's bytes were read at load).
]], function(self) rawset(self, "_cache", {}) end)
  require("gpuarray.api.surface")
  api.class("NpzFile", NpzFile)

  local function load_npz(content, what, max_header)
    local members = zip.read(content, "load: " .. what)
    local files, by_name = {}, {}
    for _, m in ipairs(members) do
      local key = m.name:gsub("%.npy$", "")
      files[#files + 1] = key
      by_name[key] = m
      by_name[m.name] = m
    end
    return setmetatable({ files = files, _members = by_name, _cache = {}, _what = what,
                          _max_header = max_header }, npz_mt)
  end

  def(ga, [[
load(file: string|userdata, mmap_mode: string?, allow_pickle: boolean = false, fix_imports: boolean = true,
     encoding: string = "ASCII", *, max_header_size: integer = 10000) -> ndarray|NpzFile
Read a .npy file into a new device array, or a .npz archive into an NpzFile
(z.files: the names; z[name]: the array, read on first use). file: a path
or an open Lua file. Pickled (object) data is not read; mmap_mode changes
nothing (device memory is not mapped).
]], function(file, _, _, _, _, max_header_size)
    local what = type(file) == "string" and file or "file"
    local f, owned = open(file, "rb", "load")
    local content, rerr = f:read("a")
    if owned then f:close() end
    if not content then fail(("load: %s: %s"):format(what, tostring(rerr))) end
    if content:sub(1, 4) == "PK\3\4" or content:sub(1, 4) == "PK\5\6" then
      return load_npz(content, what, max_header_size)
    end
    if content:sub(1, 6) ~= MAGIC then
      fail(("load: %s is neither a .npy file nor a .npz archive (pickled data is not read)"):format(what))
    end
    return array_of(npy.parse(content, what, max_header_size))
  end)
end
