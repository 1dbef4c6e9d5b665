--- Structured (record) dtypes as host-side descriptions: NumPy's
-- numpy.rec.format_parser and CuPy's make_aligned_dtype. An ndarray here
-- holds one of the numeric dtypes, so nothing on the device can hold a
-- record; these compute the layout NumPy computes (names, formats,
-- offsets, itemsize, alignment, the aligned flag, str(dtype)) for code that
-- describes a struct: a RawKernel's struct argument, a file's records. Where
-- an array of one would be needed (ga.empty(n, rec), astype) the binder
-- refuses it, naming the function.
--
-- A record description (RecordDtype): names, formats (NumPy's spellings:
-- '<f8', 'u1', '?', 'S5', '<U3', 'V3', '(2,3)u1', or a nested
-- RecordDtype), offsets, titles, itemsize, alignment, isalignedstruct,
-- metadata, fields (name -> {format =, offset =, title =}); tostring gives
-- NumPy's str(dtype). Offsets are byte offsets (0-based, as NumPy's: they
-- are sizes, not positions).
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  require "gpuarray.api.surface"   -- api.class
  local fail = internal.fail

  -- __name shows in the binder's refusals ("dtype must be a dtype, got ...")
  local Record = { __name = "gpuarray.RecordDtype (a host-side record description: ndarrays hold numeric dtypes)" }
  local methods = {}
  Record.__index = methods
  local function is_record(v) return getmetatable(v) == Record end

  ---------------------------------------------------------------------------
  -- field types: { kind = b i u f c S U V R, size = element bytes,
  -- order = "<" ">" "" (none: one byte and strings), shape = {..} or nil,
  -- rec = RecordDtype for kind R }

  -- NumPy's type codes and names (x86-64 Linux: l and L are 8 bytes)
  local CODES = {
    ["?"] = { "b", 1 }, b1 = { "b", 1 }, bool = { "b", 1 }, bool_ = { "b", 1 },
    b = { "i", 1 }, i1 = { "i", 1 }, int8 = { "i", 1 }, B = { "u", 1 }, u1 = { "u", 1 }, uint8 = { "u", 1 },
    h = { "i", 2 }, i2 = { "i", 2 }, int16 = { "i", 2 }, H = { "u", 2 }, u2 = { "u", 2 }, uint16 = { "u", 2 },
    i = { "i", 4 }, i4 = { "i", 4 }, int32 = { "i", 4 }, I = { "u", 4 }, u4 = { "u", 4 }, uint32 = { "u", 4 },
    l = { "i", 8 }, q = { "i", 8 }, i8 = { "i", 8 }, int64 = { "i", 8 }, int = { "i", 8 }, int_ = { "i", 8 },
    L = { "u", 8 }, Q = { "u", 8 }, u8 = { "u", 8 }, uint64 = { "u", 8 }, uint = { "u", 8 },
    e = { "f", 2 }, f2 = { "f", 2 }, float16 = { "f", 2 }, half = { "f", 2 },
    f = { "f", 4 }, f4 = { "f", 4 }, float32 = { "f", 4 }, single = { "f", 4 },
    d = { "f", 8 }, f8 = { "f", 8 }, float64 = { "f", 8 }, float = { "f", 8 }, double = { "f", 8 },
    F = { "c", 8 }, c8 = { "c", 8 }, complex64 = { "c", 8 }, csingle = { "c", 8 },
    D = { "c", 16 }, c16 = { "c", 16 }, complex128 = { "c", 16 }, complex = { "c", 16 }, cdouble = { "c", 16 },
  }

  local function elem_count(t)
    local n = 1
    for _, d in ipairs(t.shape or {}) do n = n * d end
    return n
  end
  local function itemsize(t) return (t.kind == "R" and t.rec.itemsize or t.size) * elem_count(t) end

  -- NumPy's alignment of a field (align=True layouts): a number's size, a
  -- complex's half, bytes and void 1, unicode 4, a record its alignment
  local function np_align(t)
    if t.kind == "R" then return t.rec.alignment end
    if t.kind == "c" then return t.size // 2 end
    if t.kind == "S" or t.kind == "V" then return 1 end
    if t.kind == "U" then return 4 end
    return t.size
  end
  -- CUDA's alignment of the C type (make_aligned_dtype): a number's size
  -- capped at 16 (cuComplex 8, cuDoubleComplex 16), char arrays 1, char32
  -- 4, a record its declared (metadata) or NumPy alignment
  local function cuda_align(t)
    if t.kind == "R" then
      local md = t.rec.metadata
      return md and md.__cuda_alignment__ or t.rec.alignment
    end
    if t.kind == "S" or t.kind == "V" then return 1 end
    if t.kind == "U" then return 4 end
    return math.min(t.size, 16)
  end

  -- NumPy's short spelling of a scalar type (str(dtype) inside records)
  local function short(t)
    if t.kind == "b" then return "?" end
    if t.kind == "S" or t.kind == "V" then return t.kind .. t.size end
    if t.kind == "U" then return t.order .. "U" .. (t.size // 4) end
    return t.order .. t.kind .. t.size
  end
  -- the gpuarray dtype name of a numeric field type without shape (or nil)
  local NAMES = { b1 = "bool", i1 = "int8", i2 = "int16", i4 = "int32", i8 = "int64", u1 = "uint8",
                  u2 = "uint16", u4 = "uint32", u8 = "uint64", f2 = "float16", f4 = "float32",
                  f8 = "float64", c8 = "complex64", c16 = "complex128" }
  local function ga_name(t)
    if t.shape or t.order == ">" then return nil end
    return NAMES[t.kind .. t.size]
  end
  local function shape_repr(shape)
    local s = {}
    for i, d in ipairs(shape) do s[i] = tostring(d) end
    return "(" .. table.concat(s, ", ") .. (#shape == 1 and ",)" or ")")
  end

  -- the format a field is given back as: a string NumPy reads, or the record
  local function format_of(t)
    local base = t.kind == "R" and t.rec or short(t)
    if not t.shape then return base end
    if t.kind == "R" then return { base, t.shape } end
    local dims = {}
    for i, d in ipairs(t.shape) do dims[i] = tostring(d) end
    return "(" .. table.concat(dims, ",") .. (#dims == 1 and ",)" or ")") .. base
  end

  local parse_one, format_record, record_from   -- forward

  -- one format item: [shape prefix][byte order]code[size]
  local MAX = 0x7fffffff   -- NumPy's itemsizes and dimensions are C ints
  local function parse_scalar(s, fname)
    local text = s
    -- a size or dimension written in the format
    local function count(digits)
      local n = #digits <= 10 and math.tointeger(tonumber(digits)) or nil
      if not n or n > MAX then fail(("%s: '%s': %s is too large"):format(fname, text, digits)) end
      return n
    end
    s = s:match("^%s*(.-)%s*$")
    local shape
    local dims, rest = s:match("^%(([%d%s,]*)%)%s*(.*)$")
    if dims then
      shape = {}
      for d in dims:gmatch("%d+") do shape[#shape + 1] = count(d) end
      s = rest
    else
      local n, r = s:match("^(%d+)(%a.*)$")
      if n then shape, s = { count(n) }, r end
    end
    local order = ""
    local o, r = s:match("^([<>=|])(.*)$")
    if o then order, s = o, r end
    local t
    local code = CODES[s]
    if code then
      t = { kind = code[1], size = code[2] }
    else
      local k, n = s:match("^([SaUV])(%d+)$")
      if not k then fail(("%s: data type '%s' not understood"):format(fname, text)) end
      n = count(n)
      if k == "a" then k = "S" end
      t = { kind = k, size = k == "U" and 4 * n or n }
    end
    -- byte order: '>' kept, '<' '=' '|' native (little); none for one byte
    -- and byte strings
    if t.size == 1 and t.kind ~= "U" or t.kind == "S" or t.kind == "V" or t.kind == "b" then
      t.order = ""
    else
      t.order = order == ">" and ">" or "<"
    end
    if shape and #shape > 0 then t.shape = shape end
    local bytes = t.size
    for _, d in ipairs(shape or {}) do
      bytes = bytes * d
      if bytes > MAX then fail(("%s: '%s' is too large (itemsize over 2^31 - 1)"):format(fname, text)) end
    end
    return t
  end

  local layout   -- forward: layout(names, types, aligned, offsets, size, titles) -> Record

  -- a field's format: a format string (one item), a RecordDtype, a
  -- ga dtype, a {format, shape} pair, or a NumPy-style field list
  function parse_one(f, fname)
    if type(f) == "string" then
      if f:find(",", 1, true) and not f:match("^%s*%(") or f:match("%),") then
        return { kind = "R", rec = format_record(f, false, fname) }
      end
      return parse_scalar(f, fname)
    end
    if is_record(f) then return { kind = "R", rec = f } end
    if type(f) == "table" and type(rawget(f, "name")) == "string" then return parse_scalar(f.name, fname) end
    if type(f) == "userdata" then
      -- a ga dtype has a name; a scalar or a file has none (parse_scalar of nil)
      local ok, name = pcall(function() return f.name end)
      if not ok or type(name) ~= "string" then
        fail(("%s: data type %s not understood"):format(fname, tostring(f)))
      end
      return parse_scalar(name, fname)
    end
    if type(f) == "table" and #f == 2 and type(f[2]) == "table" and type(f[1]) ~= "table"
        or type(f) == "table" and #f == 2 and is_record(f[1]) and type(f[2]) == "table" then
      local t = parse_one(f[1], fname)
      local shape = {}
      for i, d in ipairs(f[2]) do shape[i] = math.tointeger(d) or fail(fname .. ": a shape holds integers") end
      t.shape = shape
      return t
    end
    if type(f) == "table" then return { kind = "R", rec = record_from(f, false, fname) } end
    fail(("%s: data type %s not understood"):format(fname, tostring(f)))
  end

  -- split a comma format string at top-level commas (not inside "(2,3)")
  local function split_commas(s)
    local items, depth, start = {}, 0, 1
    for i = 1, #s do
      local c = s:sub(i, i)
      if c == "(" then depth = depth + 1
      elseif c == ")" then depth = depth - 1
      elseif c == "," and depth == 0 then
        items[#items + 1] = s:sub(start, i - 1)
        start = i + 1
      end
    end
    local last = s:sub(start)
    if last:match("%S") then items[#items + 1] = last end
    return items
  end

  --- the record NumPy's dtype(list of (name, type)) makes: offsets
  -- packed, or each rounded up to its alignment (aligned), then given
  -- offsets / itemsize when the dict form gives them
  function layout(names, types, aligned, offsets, size, titles, fname)
    local r = setmetatable({ names = {}, formats = {}, offsets = {}, titles = {}, fields = {}, _types = {} },
                           Record)
    local cur, maxal = 0, 1
    for i, nm in ipairs(names) do
      local t = types[i]
      local off
      if offsets then
        off = offsets[i]
      else
        if aligned then
          local a = np_align(t)
          cur = (cur + a - 1) // a * a
        end
        off = cur
      end
      if aligned then maxal = math.max(maxal, np_align(t)) end
      if r.fields[nm] then fail(("%s: duplicate field name '%s'"):format(fname, nm)) end
      r.names[i], r.offsets[i], r._types[i] = nm, off, t
      r.formats[i] = format_of(t)
      r.titles[i] = titles and titles[i] or nil
      r.fields[nm] = { format = r.formats[i], offset = off, title = r.titles[i] }
      cur = math.max(cur, off + itemsize(t))
    end
    if titles then
      for i, ti in pairs(titles) do
        if ti ~= nil then
          if r.fields[ti] then fail(("%s: title '%s' is already a field name or title"):format(fname, ti)) end
          r.fields[ti] = r.fields[names[i]]
        end
      end
    end
    if aligned then
      if offsets then
        for i, t in ipairs(r._types) do
          if r.offsets[i] % np_align(t) ~= 0 then
            fail(("%s: offset %d of field '%s' is not a multiple of its alignment %d")
                 :format(fname, r.offsets[i], names[i], np_align(t)))
          end
        end
      end
      cur = (cur + maxal - 1) // maxal * maxal
    end
    if size then
      if size < cur then
        fail(("%s: itemsize %d is smaller than the fields need (%d)"):format(fname, size, cur))
      end
      if aligned and size % maxal ~= 0 then
        fail(("%s: itemsize %d is not a multiple of the alignment %d"):format(fname, size, maxal))
      end
      cur = size
    end
    r.itemsize, r.alignment, r.isalignedstruct = cur, aligned and maxal or 1, aligned and true or false
    r.nfields = #names
    return r
  end

  --- A record from a comma format string ('f8,i4,(2,3)u1'): fields f0, f1, ...
  function format_record(s, aligned, fname)
    local items = split_commas(s)
    local names, types = {}, {}
    for i, it in ipairs(items) do
      names[i] = "f" .. (i - 1)
      types[i] = parse_scalar(it, fname)
    end
    return layout(names, types, aligned, nil, nil, nil, fname)
  end

  --- A record from NumPy's other spellings: a list of {name, format[,
  -- shape]} or a dict {names =, formats =, offsets =, itemsize =, titles =}
  function record_from(v, aligned, fname)
    if is_record(v) then return v end
    if type(v) == "string" then return format_record(v, aligned, fname) end
    if type(v) ~= "table" then fail(("%s: data type %s not understood"):format(fname, tostring(v))) end
    if v.names ~= nil or v.formats ~= nil then
      if type(v.names) ~= "table" or type(v.formats) ~= "table" or #v.names ~= #v.formats then
        fail(fname .. ": a dict dtype needs names and formats lists of the same length")
      end
      for i = 1, #v.names do
        if type(v.names[i]) ~= "string" then fail(("%s: names[%d] must be a string"):format(fname, i)) end
        if v.titles ~= nil and v.titles[i] ~= nil and type(v.titles[i]) ~= "string" then
          fail(("%s: titles[%d] must be a string"):format(fname, i))
        end
      end
      if v.offsets ~= nil and (type(v.offsets) ~= "table" or #v.offsets ~= #v.names) then
        fail(fname .. ": offsets must be a list as long as names")
      end
      for i = 1, v.offsets and #v.offsets or 0 do
        if math.type(v.offsets[i]) ~= "integer" or v.offsets[i] < 0 then
          fail(("%s: offsets[%d] must be an integer >= 0"):format(fname, i))
        end
      end
      if v.itemsize ~= nil and (math.type(v.itemsize) ~= "integer" or v.itemsize < 0) then
        fail(fname .. ": itemsize must be an integer >= 0")
      end
      local types = {}
      for i, f in ipairs(v.formats) do types[i] = parse_one(f, fname) end
      return layout(v.names, types, aligned, v.offsets, v.itemsize, v.titles, fname)
    end
    local names, types = {}, {}
    for i, fld in ipairs(v) do
      if type(fld) ~= "table" or type(fld[1]) ~= "string" or fld[2] == nil then
        fail(("%s: field %d must be {name, format[, shape]}"):format(fname, i))
      end
      names[i] = fld[1] ~= "" and fld[1] or "f" .. (i - 1)
      types[i] = parse_one(fld[3] and { fld[2], type(fld[3]) == "table" and fld[3] or { fld[3] } } or fld[2], fname)
    end
    if #names == 0 then fail(fname .. ": a record needs at least one field") end
    return layout(names, types, aligned, nil, nil, nil, fname)
  end

  ---------------------------------------------------------------------------
  -- str(dtype), as NumPy's _dtype.py writes it
  local function q(s) return "'" .. s .. "'" end
  local struct_str
  local function construction(t)
    if t.kind == "R" then return struct_str(t.rec, false) end
    return q(short(t))
  end
  -- a subarray field's element type (the same type without its shape)
  local function element(t)
    local e = {}
    for k, v in pairs(t) do e[k] = v end
    e.shape = nil
    return e
  end
  local function is_packed(r)
    local total, maxal = 0, 1
    for i, t in ipairs(r._types) do
      if r.isalignedstruct then
        local a = np_align(t)
        total = (total + a - 1) // a * a
        maxal = math.max(maxal, a)
      end
      if r.offsets[i] ~= total then return false end
      total = total + itemsize(t)
    end
    if r.isalignedstruct then total = (total + maxal - 1) // maxal * maxal end
    return total == r.itemsize
  end
  function struct_str(r, include_align)
    local any_title = false
    for i = 1, r.nfields do if r.titles[i] ~= nil then any_title = true end end
    if not (include_align and r.isalignedstruct) and is_packed(r) then
      local items = {}
      for i, t in ipairs(r._types) do
        local head = r.titles[i] ~= nil and ("(%s, %s)"):format(q(r.titles[i]), q(r.names[i])) or q(r.names[i])
        local body
        if t.shape then
          body = construction(element(t)) .. ", " .. shape_repr(t.shape)
        else
          body = construction(t)
        end
        items[i] = "(" .. head .. ", " .. body .. ")"
      end
      return "[" .. table.concat(items, ", ") .. "]"
    end
    local names, formats, offsets, titles = {}, {}, {}, {}
    for i, t in ipairs(r._types) do
      names[i] = q(r.names[i])
      if t.shape then
        formats[i] = "(" .. construction(element(t)) .. ", " .. shape_repr(t.shape) .. ")"
      else
        formats[i] = construction(t)
      end
      offsets[i] = tostring(r.offsets[i])
      titles[i] = r.titles[i] ~= nil and q(r.titles[i]) or "None"
    end
    local s = "{'names': [" .. table.concat(names, ", ") .. "], 'formats': [" .. table.concat(formats, ", ")
      .. "], 'offsets': [" .. table.concat(offsets, ", ") .. "]"
    if any_title then s = s .. ", 'titles': [" .. table.concat(titles, ", ") .. "]" end
    s = s .. ", 'itemsize': " .. r.itemsize
    if include_align and r.isalignedstruct then s = s .. ", 'aligned': True" end
    return s .. "}"
  end
  Record.__tostring = function(r) return struct_str(r, true) end

  local function descr(r)
    local out, cur = {}, 0
    local order = {}
    for i = 1, r.nfields do order[i] = i end
    table.sort(order, function(a, b) return r.offsets[a] < r.offsets[b] end)
    for _, i in ipairs(order) do
      local t, off = r._types[i], r.offsets[i]
      if off > cur then out[#out + 1] = { "", "|V" .. (off - cur) } end
      local ts
      if t.kind == "R" then ts = descr(t.rec)
      elseif t.kind == "b" then ts = "|b1"
      elseif t.order == "" then ts = "|" .. t.kind .. t.size
      else ts = t.order .. t.kind .. (t.kind == "U" and t.size // 4 or t.size) end
      out[#out + 1] = t.shape and { r.names[i], ts, t.shape } or { r.names[i], ts }
      cur = math.max(cur, off + itemsize(t))
    end
    if r.itemsize > cur then out[#out + 1] = { "", "|V" .. (r.itemsize - cur) } end
    return out
  end

  api.def(methods, [[
RecordDtype:descr() -> list
NumPy's dtype.descr: a list of {name, typestr[, shape]} in offset order ('|i1', '<f8', a nested
record's own list), with {"", "|V<n>"} for the padding between and after the fields.
]], descr)
  api.class("RecordDtype", methods)

  internal.is_record_dtype = is_record
  api.set_type("RecordDtype", is_record)

  ---------------------------------------------------------------------------
  -- format_parser (numpy.rec.format_parser)
  local Parser = { __name = "gpuarray.format_parser" }
  Parser.__index = Parser
  Parser.__tostring = function(p) return "format_parser(" .. tostring(p.dtype) .. ")" end
  api.set_type("format_parser", function(v) return getmetatable(v) == Parser end)

  -- NumPy's _byteorderconv, read off the first character ('big', 'swap', '<')
  local BYTEORDER = { ["<"] = "<", l = "<", L = "<", [">"] = ">", b = ">", B = ">", ["="] = "=", n = "=",
                      N = "=", ["|"] = "|", i = "|", I = "|", s = "s", S = "s" }

  api.def(ga, [[
format_parser(formats: string|list, names: string|list?, titles: list?, aligned: boolean = false,
  byteorder: string?) -> format_parser
NumPy's numpy.rec.format_parser: parses record formats ('f8,i4,(2,3)u1' or a list of formats) into a
RecordDtype description p.dtype with NumPy's layout, and p.names, p.formats, p.offsets, p.titles,
p.nfields (NumPy's _names, _f_formats, _offsets, _titles, _nfields). Names: a comma string or a list
(missing ones are f<i>, 0-based as NumPy's); aligned rounds each offset up to its field's alignment
(the itemsize stays unpadded, as NumPy's). A host-side description: ndarrays hold numeric dtypes only,
so an array of p.dtype cannot be made (ga.empty(n, p.dtype) is refused).
]], function(formats, names, titles, aligned, byteorder)
    local fname = "format_parser"
    -- the fields, as NumPy's _parseFormats: a list is f0, f1, ...; a single
    -- format without fields becomes one field named f1 (NumPy's quirk)
    local base
    if type(formats) == "table" then
      if #formats == 0 then fail(fname .. ": formats must not be empty") end
      local flds = {}
      for i, f in ipairs(formats) do flds[i] = { "f" .. (i - 1), f } end
      base = record_from(flds, aligned, fname)
    elseif #split_commas(formats) > 1 or formats:match(",%s*$") then
      base = format_record(formats, aligned, fname)
    else
      base = layout({ "f1" }, { parse_one(formats, fname) }, aligned, nil, nil, nil, fname)
    end
    local n = base.nfields
    -- names: as _setfieldnames
    local nm = {}
    if names ~= nil and names ~= "" and not (type(names) == "table" and #names == 0) then
      local list = names
      if type(names) == "string" then
        list = {}
        for piece in (names .. ","):gmatch("([^,]*),") do list[#list + 1] = piece end
      end
      for i = 1, math.min(#list, n) do
        if type(list[i]) ~= "string" then fail(fname .. ": names must be strings") end
        nm[i] = list[i]:match("^%s*(.-)%s*$")
      end
    end
    for i = #nm + 1, n do nm[i] = "f" .. (i - 1) end
    local seen, dup = {}, {}
    for _, s in ipairs(nm) do
      if seen[s] and not dup[s] then dup[#dup + 1] = s; dup[s] = true end
      seen[s] = true
    end
    if #dup > 0 then fail(fname .. ": duplicate field names: " .. table.concat(dup, ", ")) end
    local tl
    if titles ~= nil and #titles > 0 then
      tl = {}
      for i = 1, math.min(#titles, n) do
        if type(titles[i]) ~= "string" then fail(fname .. ": titles must be strings") end
        tl[i] = titles[i]:match("^%s*(.-)%s*$")
      end
    end
    -- the dtype from names, formats and offsets (no align: NumPy's
    -- _createdtype), then the byte order
    local types = {}
    for i, t in ipairs(base._types) do
      local c = {}
      for k, v in pairs(t) do c[k] = v end
      if byteorder ~= nil then
        local bo = BYTEORDER[byteorder:sub(1, 1)]
        if not bo then fail(("%s: %s is not a valid byte order"):format(fname, byteorder)) end
        if c.order ~= "" then
          if bo == "s" then c.order = c.order == "<" and ">" or "<"
          elseif bo == ">" then c.order = ">"
          elseif bo ~= "|" then c.order = "<" end
        end
      end
      types[i] = c
    end
    local rec = layout(nm, types, false, base.offsets, nil, tl, fname)
    return setmetatable({ dtype = rec, names = rec.names, formats = rec.formats, offsets = rec.offsets,
                          titles = tl or {}, nfields = n }, Parser)
  end)

  ---------------------------------------------------------------------------
  -- make_aligned_dtype (CuPy's)
  api.def(ga, [[
make_aligned_dtype(dtype: string|list|dict|dtype|RecordDtype, *, alignment: integer = -1,
  recurse: boolean = true) -> RecordDtype|dtype
CuPy's make_aligned_dtype: a record laid out as a CUDA struct: each field at the next multiple of its
C alignment (a number's size up to 16, a char array 1, a nested record's), the itemsize padded to the
largest. dtype: a record (RecordDtype, 'f4,i1', a list {{"x", "f4"}, {"y", "i1"}} or a dict {names=,
formats=}), or a numeric dtype (returned as is). alignment: a larger power of two pads to it and is
kept as metadata.__cuda_alignment__; smaller than the fields need is an error. recurse: realign nested
records too. A host-side description (ndarrays hold numeric dtypes only).
]], function(dtype, alignment, recurse)
    local fname = "make_aligned_dtype"
    if alignment ~= -1 and (alignment <= 0 or alignment & (alignment - 1) ~= 0) then
      fail(("%s: alignment must be a positive power of 2, got %d"):format(fname, alignment))
    end
    local scalar_name = type(dtype) == "string" and not dtype:find(",", 1, true) and dtype
      or (type(dtype) == "userdata" or type(dtype) == "table" and type(rawget(dtype, "name")) == "string")
         and dtype.name
    if scalar_name then
      local t = parse_scalar(scalar_name, fname)
      local name = ga_name(t)
      if not name then
        fail(("%s: %s is neither a record nor a numeric dtype"):format(fname, scalar_name))
      end
      local final = np_align(t)
      if alignment ~= -1 then
        if alignment < final then
          fail(("%s: alignment=%d is smaller than the minimum alignment %d"):format(fname, alignment, final))
        end
        final = alignment
      end
      if (t.size + final - 1) // final * final ~= t.size then
        fail(("%s: alignment %d is larger than the itemsize %d of %s"):format(fname, final, t.size, short(t)))
      end
      return ga.dtype(name)
    end
    local given = record_from(dtype, true, fname)
    local names, types, offsets = {}, {}, {}
    local cur, min_off, final = 0, 0, 1
    for i, nm in ipairs(given.names) do
      local t = given._types[i]
      if given.offsets[i] < min_off then
        fail(fname .. ": only well-behaved in-order fields are supported (field offsets are recomputed)")
      end
      min_off = given.offsets[i] + itemsize(t)
      if t.kind == "R" and recurse then
        local c = {}
        for k, v in pairs(t) do c[k] = v end
        c.rec = ga.make_aligned_dtype(t.rec)
        t = c
      end
      local a = cuda_align(t)
      cur = (cur + a - 1) // a * a
      final = math.max(final, a)
      names[i], types[i], offsets[i] = nm, t, cur
      cur = cur + itemsize(t)
    end
    local metadata
    if alignment ~= -1 then
      if alignment < final then
        fail(("%s: alignment=%d is smaller than the minimum alignment %d"):format(fname, alignment, final))
      end
      final = alignment
      metadata = { __cuda_alignment__ = alignment }
    end
    local size = (cur + final - 1) // final * final
    if given.itemsize > size then fail(fname .. ": the input's itemsize is larger than the inferred one") end
    local r = layout(names, types, true, offsets, size, given.titles, fname)
    r.metadata = metadata
    return r
  end)
end
