--- Text and raw files (API.md §14): savetxt, loadtxt, genfromtxt (plain
-- numeric tables), x:tofile / ga.fromfile (raw bytes or separated text).
--
-- Everything is parsed and formatted on the host, then moved in one
-- transfer: the values are packed as bytes (integers exactly, floats as
-- float64 then cast on the device). Formats are Python's %-formats
-- (savetxt's "%.18e", "%d", "%s", row formats); a path ending in .gz is
-- read and written as gzip (deflate.lua), as NumPy does. Column numbers
-- the user writes (usecols, converters' keys) are 1-based (API.md §0).
local deflate = require("gpuarray.io.deflate")
local F = require("gpuarray.io.floatfmt")

return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local fail, is_array = internal.fail, internal.is_array
  local methods = ga.methods

  ---------------------------------------------------------------------------
  -- files

  local function gunzip(s, what)
    local flags = s:byte(4) or 0
    if s:byte(3) ~= 8 then fail(what .. ": a gzip file that is not deflated") end
    local p = 11
    if flags & 4 ~= 0 then p = p + 2 + string.unpack("<I2", s, p) end
    if flags & 8 ~= 0 then p = s:find("\0", p, true) + 1 end
    if flags & 16 ~= 0 then p = s:find("\0", p, true) + 1 end
    if flags & 2 ~= 0 then p = p + 2 end
    local out, q = deflate.inflate(s, p)
    local crc = string.unpack("<I4", s, q)
    if crc ~= deflate.crc32(out) then fail(what .. ": gzip CRC-32 mismatch") end
    return out
  end
  local function gzip(s)
    return "\31\139\8\0\0\0\0\0\0\3" .. deflate.deflate(s) .. string.pack("<I4I4", deflate.crc32(s), #s % 2 ^ 32)
  end
  internal.gzip = { gzip = gzip, gunzip = gunzip }

  -- the text of fname: a path (".gz" read as gzip), an open Lua file, or a
  -- list of lines
  local function read_text(fname, fn)
    if type(fname) == "table" then
      local lines = {}
      for i, l in ipairs(fname) do
        if type(l) ~= "string" then fail(("%s: line %d of fname is not a string"):format(fn, i)) end
        lines[i] = l
      end
      return table.concat(lines, "\n")
    end
    local s
    if io.type(fname) == "file" then
      s = fname:read("a")
    else
      local f, err = io.open(fname, "rb")
      if not f then fail(fn .. ": " .. tostring(err)) end
      s = f:read("a")
      f:close()
    end
    if s:sub(1, 2) == "\31\139" then s = gunzip(s, fn) end
    return s
  end

  local function write_text(fname, s, fn)
    if io.type(fname) == "file" then
      fname:write(s)
      return
    end
    if type(fname) == "string" and fname:match("%.gz$") then s = gzip(s) end
    local f, err = io.open(fname, "wb")
    if not f then fail(fn .. ": " .. tostring(err)) end
    f:write(s)
    f:close()
  end

  ---------------------------------------------------------------------------
  -- Python's %-formats

  local function py_str(v, dtype)
    local t = type(v)
    if t == "boolean" then return v and "True" or "False" end
    if t == "table" then
      local function part(p) return (F.repr(p, dtype):gsub("%.0$", "")) end
      local re, im = v[1], v[2]
      if re == 0 and 1 / re > 0 then return part(im) .. "j" end
      return "(" .. part(re) .. ((im >= 0 or im ~= im) and "+" or "") .. part(im) .. "j)"
    end
    if math.type(v) == "integer" then return tostring(v) end
    if dtype and ga.dtype(dtype).kind ~= "f" and dtype ~= "complex64" and dtype ~= "complex128" then
      return tostring(math.tointeger(v) or v)
    end
    return F.repr(v, dtype)
  end

  -- one conversion: spec "%-10.3f" on value v
  local function convert(spec, conv, v, dtype, fn)
    if conv == "s" or conv == "r" then
      local flags, width = spec:match("^%%([-+ #0]*)(%d*)")
      return ("%" .. flags:gsub("[^-]", "") .. width .. "s"):format(py_str(v, dtype))
    end
    if type(v) == "boolean" then v = v and 1 or 0 end
    if type(v) ~= "number" then fail(("%s: cannot format %s with %s"):format(fn, type(v), spec)) end
    if conv == "d" or conv == "i" or conv == "u" or conv == "x" or conv == "X" or conv == "o" or conv == "c" then
      if v ~= v or v == math.huge or v == -math.huge then
        fail(("%s: cannot convert %s to an integer for %s"):format(fn, tostring(v), spec))
      end
      local n = math.tointeger(v) or math.tointeger(v < 0 and math.ceil(v) or math.floor(v))
      if conv == "u" then spec = spec:sub(1, -2) .. "d" end
      if (conv == "x" or conv == "X" or conv == "o") and n < 0 then
        return "-" .. spec:format(-n)
      end
      return spec:format(n)
    end
    -- floats: NaN and infinities as Python writes them
    if v ~= v or v == math.huge or v == -math.huge then
      local flags, width = spec:match("^%%([-+ #0]*)(%d*)")
      local text = v ~= v and "nan" or (v > 0 and "inf" or "-inf")
      if v == math.huge and flags:find("+", 1, true) then text = "+inf" end
      return ("%" .. (flags:find("-", 1, true) and "-" or "") .. width .. "s"):format(text)
    end
    return spec:format(v)
  end

  -- fmt applied to the values vals (a list), Python's `fmt % tuple(vals)`
  local function py_format(fmt, vals, dtype, fn)
    local out, k, p = {}, 0, 1
    while true do
      local s, e = fmt:find("%%[-+ #0]*%d*%.?%d*[diouxXeEfFgGcrs%%]", p)
      if not s then
        out[#out + 1] = fmt:sub(p)
        break
      end
      out[#out + 1] = fmt:sub(p, s - 1)
      local spec = fmt:sub(s, e)
      local conv = spec:sub(-1)
      if conv == "%" then
        out[#out + 1] = "%"
      else
        k = k + 1
        if vals[k] == nil then fail(("%s: not enough values for the format %q"):format(fn, fmt)) end
        out[#out + 1] = convert(spec, conv, vals[k], dtype, fn)
      end
      p = e + 1
    end
    if k < #vals then fail(("%s: not all values converted by the format %q"):format(fn, fmt)) end
    return table.concat(out)
  end
  internal.py_format = py_format

  ---------------------------------------------------------------------------
  -- savetxt

  local function count_conv(fmt)
    local n = 0
    for spec in fmt:gmatch("%%[-+ #0]*%d*%.?%d*[diouxXeEfFgGcrs%%]") do
      if spec ~= "%%" then n = n + 1 end
    end
    return n
  end

  def(ga, [[
savetxt(fname: string|userdata, X: array_like, fmt: string|list = "%.18e", delimiter: string = " ",
        newline: string = "\n", header: string = "", footer: string = "", comments: string = "# ",
        encoding: string?) -> nil
Write a 1-D (one value a row) or 2-D array as text: fmt is a Python
%-format for every column, a list of them, or one for the whole row;
complex values print as "(re+imj)". header/footer lines start with
comments. A path ending in .gz is gzipped.
]], function(fname, X, fmt, delimiter, newline, header, footer, comments)
    if not is_array(X) then X = ga.asarray(X) end
    if X.ndim == 0 or X.ndim > 2 then
      fail(("savetxt: Expected 1D or 2D array, got %dD array instead"):format(X.ndim))
    end
    local rows = X:totable()
    if X.ndim == 1 then
      for i, v in ipairs(rows) do rows[i] = { v } end
    end
    local ncol = X.ndim == 1 and 1 or X.shape[2]
    local cplx = ga.dtype(X.dtype).kind == "c"
    local row_fmt
    if type(fmt) == "table" then
      if #fmt ~= ncol then fail(("savetxt: fmt has %d formats for %d columns"):format(#fmt, ncol)) end
      local parts = {}
      for i, f in ipairs(fmt) do
        parts[i] = cplx and (" (" .. f .. "+" .. f .. "j)") or f
      end
      row_fmt = table.concat(parts, delimiter)
    else
      local n = count_conv(fmt)
      if n == 1 then
        local one = cplx and (" (" .. fmt .. "+" .. fmt .. "j)") or fmt
        local parts = {}
        for i = 1, ncol do parts[i] = one end
        row_fmt = table.concat(parts, delimiter)
      elseif (cplx and n ~= 2 * ncol) or (not cplx and n ~= ncol) then
        fail("savetxt: fmt has wrong number of % formats: " .. fmt)
      else
        row_fmt = fmt
      end
    end
    local out = {}
    if #header > 0 then out[#out + 1] = comments .. header:gsub("\n", "\n" .. comments) .. newline end
    local realdt = X.dtype == "complex64" and "float32" or (X.dtype == "complex128" and "float64" or X.dtype)
    for _, row in ipairs(rows) do
      local vals = {}
      for _, v in ipairs(row) do
        if cplx then
          vals[#vals + 1] = v[1]
          vals[#vals + 1] = v[2]
        else
          vals[#vals + 1] = v
        end
      end
      local line = py_format(row_fmt, vals, realdt, "savetxt") .. newline
      out[#out + 1] = cplx and line:gsub("%+%-", "-") or line
    end
    if #footer > 0 then out[#out + 1] = comments .. footer:gsub("\n", "\n" .. comments) .. newline end
    write_text(fname, table.concat(out), "savetxt")
  end)

  ---------------------------------------------------------------------------
  -- parsing numbers

  local SPECIAL = { nan = 0 / 0, ["+nan"] = 0 / 0, ["-nan"] = 0 / 0, inf = math.huge, ["+inf"] = math.huge,
                    ["-inf"] = -math.huge, infinity = math.huge, ["+infinity"] = math.huge,
                    ["-infinity"] = -math.huge }

  -- a float token as Python's float() reads it, or nil
  local function parse_float(tok)
    tok = tok:match("^%s*(.-)%s*$")
    local sp = SPECIAL[tok:lower()]
    if sp then return sp end
    if tok:find("[xXpP]") or tok:find("__", 1, true) or tok:find("^_") or tok:find("_$") then return nil end
    tok = tok:gsub("(%d)_(%d)", "%1%2")
    if not tok:match("^[+-]?%d*%.?%d*[eE]?[+-]?%d*$") then return nil end
    local v = tonumber(tok)
    if v == nil then return nil end
    return v + 0.0
  end

  -- an integer token (decimal, optional sign); uint64 values past 2^63
  -- wrap into Lua's integers as their two's complement
  local function parse_int(tok, unsigned64)
    tok = tok:match("^%s*(.-)%s*$")
    local sign, digits = tok:match("^([+-]?)(%d+)$")
    if not digits then return nil end
    local v = math.tointeger(tonumber(digits))
    if v == nil then
      if sign == "-" and digits:gsub("^0+", "") == "9223372036854775808" then return math.mininteger end
      if not unsigned64 or sign == "-" then return nil end
      -- wrap: up to 2^64 - 1
      v = 0
      for d in digits:gmatch("%d") do v = v * 10 + tonumber(d) end
      if #digits > 20 or (#digits == 20 and digits > "18446744073709551615") then return nil end
      return v
    end
    return sign == "-" and -v or v
  end

  local function parse_complex(tok)
    tok = tok:match("^%s*%(?%s*(.-)%s*%)?%s*$")
    local v = parse_float(tok)
    if v then return { v, 0.0 } end
    local im = tok:match("^(.-)[jJ]$")
    if not im then return nil end
    v = parse_float(im)
    if v then return { 0.0, v } end
    -- a real part and a signed imaginary part: split at the last sign not after an e
    for k = #im, 2, -1 do
      local c = im:sub(k, k)
      if (c == "+" or c == "-") and not im:sub(k - 1, k - 1):match("[eE]") then
        local re, ip = parse_float(im:sub(1, k - 1)), parse_float(im:sub(k))
        if re and ip then return { re, ip } end
        return nil
      end
    end
    return nil
  end

  local INT_RANGE = {
    int8 = { -128, 127 }, int16 = { -32768, 32767 }, int32 = { -2147483648, 2147483647 },
    int64 = { math.mininteger, math.maxinteger }, uint8 = { 0, 255 }, uint16 = { 0, 65535 },
    uint32 = { 0, 4294967295 },
  }

  -- the parser of one dtype: token -> value (a Lua number, boolean or
  -- {re, im}), or nil and the reason
  local function parser_for(dtype)
    local kind = ga.dtype(dtype).kind
    if kind == "f" then return parse_float end
    if kind == "c" then return parse_complex end
    if kind == "b" then
      return function(tok)
        local t = tok:match("^%s*(.-)%s*$")
        if t == "True" or t == "true" then return true end
        if t == "False" or t == "false" then return false end
        local v = parse_int(t) or parse_float(t)
        if v == nil then return nil end
        return v ~= 0
      end
    end
    local range = INT_RANGE[dtype]
    return function(tok)
      local v = parse_int(tok, dtype == "uint64")
      if v == nil then return nil end
      if range and (v < range[1] or v > range[2]) then return nil end
      return v
    end
  end

  -- the bytes of values (a flat list) for ga.array: integers exactly,
  -- floats as float64 (cast on the device), complex as complex128
  local function pack_values(vals, dtype)
    local kind = ga.dtype(dtype).kind
    local fmt, carrier
    carrier = dtype
    if kind == "b" then fmt = "B"
    elseif kind == "i" then fmt = "<i" .. ga.dtype(dtype).itemsize
    elseif kind == "u" then fmt = dtype == "uint64" and "<j" or ("<I" .. ga.dtype(dtype).itemsize)
    elseif kind == "f" then fmt, carrier = "<d", "float64"
    else fmt, carrier = "<dd", "complex128" end
    local parts = {}
    local pack = string.pack
    for i, v in ipairs(vals) do
      if kind == "b" then parts[i] = pack(fmt, v and 1 or 0)
      elseif kind == "c" then parts[i] = pack(fmt, v[1], v[2])
      else parts[i] = pack(fmt, v) end
    end
    return table.concat(parts), carrier
  end

  local function make_array(vals, shape, dtype)
    local bytes, carrier = pack_values(vals, dtype)
    local a = ga.array(bytes, { dtype = carrier, shape = shape })
    if carrier ~= dtype then a = a:astype(dtype) end
    return a
  end

  -- NumPy's _ensure_ndmin_ndarray: squeeze past ndmin, then pad up to it
  local function ensure_ndmin(shape, ndmin)
    local s = shape
    if #s > ndmin then
      local q = {}
      for _, n in ipairs(s) do if n ~= 1 then q[#q + 1] = n end end
      s = q
    end
    if #s < ndmin then
      if ndmin == 1 then s = { 1 }
      elseif #s == 0 then s = { 1, 1 }
      else s = { s[1], 1 } end    -- atleast_2d(...).T: a column
    end
    return s
  end

  -- split a line into fields
  local function splitter(delimiter, quotechar)
    if type(delimiter) == "number" or (type(delimiter) == "table") then
      local widths = type(delimiter) == "table" and delimiter or nil
      return function(line)
        local out, p = {}, 1
        if widths then
          for _, w in ipairs(widths) do
            out[#out + 1] = line:sub(p, p + w - 1)
            p = p + w
          end
        else
          while p <= #line do
            out[#out + 1] = line:sub(p, p + delimiter - 1)
            p = p + delimiter
          end
        end
        return out
      end
    end
    if delimiter == nil then
      return function(line)
        local out = {}
        for tok in line:gmatch("%S+") do out[#out + 1] = tok end
        return out
      end
    end
    if quotechar == nil then
      return function(line)
        local out, p = {}, 1
        while true do
          local s, e = line:find(delimiter, p, true)
          if not s then
            out[#out + 1] = line:sub(p)
            return out
          end
          out[#out + 1] = line:sub(p, s - 1)
          p = e + 1
        end
      end
    end
    return function(line)
      local out, cur, i, quoted = {}, {}, 1, false
      while i <= #line do
        local c = line:sub(i, i)
        if quoted then
          if c == quotechar then
            if line:sub(i + 1, i + 1) == quotechar then
              cur[#cur + 1] = c
              i = i + 1
            else
              quoted = false
            end
          else
            cur[#cur + 1] = c
          end
        elseif c == quotechar then
          quoted = true
        elseif line:sub(i, i + #delimiter - 1) == delimiter then
          out[#out + 1] = table.concat(cur)
          cur = {}
          i = i + #delimiter - 1
        else
          cur[#cur + 1] = c
        end
        i = i + 1
      end
      out[#out + 1] = table.concat(cur)
      return out
    end
  end

  -- the line without its comment (the earliest of the comment strings)
  local function uncomment(line, comments)
    if comments == nil then return line end
    local cut
    for _, c in ipairs(comments) do
      local s = line:find(c, 1, true)
      if s and (not cut or s < cut) then cut = s end
    end
    return cut and line:sub(1, cut - 1) or line
  end

  local function comment_list(comments)
    if comments == nil or comments == false then return nil end
    if type(comments) == "string" then return { comments } end
    return comments
  end

  local function lines_of(text)
    local lines = {}
    for line in (text .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = (line:gsub("\r$", "")) end
    if lines[#lines] == "" then lines[#lines] = nil end
    return lines
  end

  -- usecols (1-based, negative from the end) against ncols
  local function columns(usecols, ncols, fn)
    if usecols == nil then
      local c = {}
      for i = 1, ncols do c[i] = i end
      return c
    end
    local list = type(usecols) == "table" and usecols or { usecols }
    local c = {}
    for i, u in ipairs(list) do
      local k = u < 0 and ncols + 1 + u or u
      if k < 1 or k > ncols or u == 0 then
        fail(("%s: usecols entry %d is out of range for %d columns (1-based)"):format(fn, u, ncols))
      end
      c[i] = k
    end
    return c
  end

  local function converter_of(converters, col)
    if converters == nil then return nil end
    if type(converters) == "function" then return converters end
    return converters[col]
  end

  local function convert_token(conv, tok, fn)
    local v = api.call_user(conv, tok)
    if type(v) ~= "number" and type(v) ~= "boolean" then
      fail(("%s: a converter returned a %s, not a number"):format(fn, type(v)))
    end
    return v
  end

  local function finish(vals, nrows, ncols, dtype, ndmin, unpack, fn)
    if ndmin ~= 0 and ndmin ~= 1 and ndmin ~= 2 then
      fail(("%s: Illegal value of ndmin keyword: %d"):format(fn, ndmin))
    end
    local shape = nrows == 0 and { 0 } or { nrows, ncols }
    local out = make_array(vals, shape, dtype)
    local s = ensure_ndmin(out.shape, ndmin)
    out = out:reshape(s)
    if unpack and out.ndim >= 2 then
      local t = out.T
      local cols = {}
      for i = 1, t.shape[1] do cols[i] = t[i] end
      return table.unpack(cols)
    end
    return out
  end

  def(ga, [[
loadtxt(fname: string|userdata|list, dtype: dtype = "float64", comments: string|list|boolean = "#",
        delimiter: string?, converters: table|function?, skiprows: integer = 0, usecols: integer|list?,
        unpack: boolean = false, ndmin: integer = 0, encoding: string?, max_rows: integer?, *,
        quotechar: string?) -> ndarray, ...
Read a table of numbers from a text file (a path, ".gz" too; an open Lua
file; or a list of lines): one row a line, fields split at delimiter
(whitespace without one), comments to the end of the line dropped. usecols
and converters' keys are 1-based column numbers. Single rows and columns are
squeezed away unless ndmin says; unpack returns the columns.
]], function(fname, dtype, comments, delimiter, converters, skiprows, usecols, unpack, ndmin, _, max_rows,
             quotechar)
    dtype = ga.dtype(dtype).name
    local text = read_text(fname, "loadtxt")
    local cl = comment_list(comments)
    if quotechar ~= nil and #quotechar ~= 1 then fail("loadtxt: quotechar must be one character") end
    local split = splitter(delimiter, quotechar)
    local parse = parser_for(dtype)
    local lines = lines_of(text)
    local vals, nrows, ncols, cols = {}, 0, nil, nil
    for ln = skiprows + 1, #lines do
      if max_rows and nrows >= max_rows then break end
      local line = uncomment(lines[ln], cl)
      if line:match("%S") then
        local fields = split(line)
        if delimiter == nil and #fields == 0 then goto continue end
        if not cols then
          ncols = #fields
          cols = columns(usecols, ncols, "loadtxt")
        elseif #fields ~= ncols and usecols == nil then
          fail(("loadtxt: the number of columns changed from %d to %d at row %d; use `usecols` to select a "
            .. "subset and avoid this error"):format(ncols, #fields, ln))
        end
        for _, c in ipairs(cols) do
          local tok = fields[c]
          if tok == nil then
            fail(("loadtxt: row %d has %d columns, usecols asks for column %d"):format(ln, #fields, c))
          end
          local conv = converter_of(converters, c)
          local v
          if conv then v = convert_token(conv, tok, "loadtxt")
            if ga.dtype(dtype).kind == "c" then v = { v, 0.0 } end
          else v = parse(tok) end
          if v == nil then
            fail(("loadtxt: could not convert string '%s' to %s at row %d, column %d"):format(tok, dtype, ln, c))
          end
          vals[#vals + 1] = v
        end
        nrows = nrows + 1
      end
      ::continue::
    end
    return finish(vals, nrows, cols and #cols or 0, dtype, ndmin, unpack, "loadtxt")
  end)

  local DEFAULT_FILL = { b = false, i = -1, u = -1, f = 0 / 0, c = { 0 / 0, 0.0 } }

  def(ga, [[
genfromtxt(fname: string|userdata|list, dtype: dtype = "float64", comments: string = "#",
           delimiter: string|integer|list?, skip_header: integer = 0, skip_footer: integer = 0,
           converters: table|function?, missing_values: string|list?, filling_values: any?,
           usecols: integer|list?, names: boolean?, excludelist: list?, deletechars: string?,
           replace_space: string = "_", autostrip: boolean = false, case_sensitive: boolean = true,
           defaultfmt: string = "f%i", unpack: boolean?, usemask: boolean = false, loose: boolean = true,
           invalid_raise: boolean = true, max_rows: integer?, encoding: string?, *,
           ndmin: integer = 0) -> ndarray, ...
loadtxt for tables with holes: empty fields and missing_values become
filling_values (a value, or a list by column; default NaN for floats, -1
for integers), invalid values too while loose. delimiter: a string, or
field widths. Rows with another column count raise (invalid_raise) or are
skipped. Plain numeric arrays only: names and usemask are not supported.
]], function(fname, dtype, comments, delimiter, skip_header, skip_footer, converters, missing_values,
             filling_values, usecols, names, _, _, _, autostrip, _, _, unpack, usemask, loose, invalid_raise,
             max_rows, _, ndmin)
    if names then fail("genfromtxt: names (structured arrays) are not supported: gpuarray has no structured dtypes") end
    if usemask then fail("genfromtxt: usemask (masked arrays) is not supported") end
    dtype = ga.dtype(dtype).name
    local kind = ga.dtype(dtype).kind
    local text = read_text(fname, "genfromtxt")
    local cl = comment_list(comments)
    local split = splitter(delimiter, nil)
    local parse = parser_for(dtype)
    local missing = { [""] = true }
    if type(missing_values) == "string" then
      for m in (missing_values .. ","):gmatch("([^,]*),") do missing[m] = true end
    elseif type(missing_values) == "table" then
      for _, m in ipairs(missing_values) do missing[m] = true end
    end
    local function fill_for(c)
      local f = filling_values
      if type(f) == "table" and not (kind == "c" and #f == 2 and type(f[1]) == "number" and f[1] ~= nil
                                     and type(f[2]) == "number" and not is_array(f)) then
        f = f[c]
      end
      if f == nil then return DEFAULT_FILL[kind] end
      if kind == "c" and type(f) == "number" then return { f, 0.0 } end
      if kind == "b" and type(f) == "number" then return f ~= 0 end
      return f
    end
    local lines = lines_of(text)
    local rows, ncols, cols = {}, nil, nil
    for ln = skip_header + 1, #lines do
      local line = uncomment(lines[ln], cl)
      if line:match("%S") then
        local fields = split(line)
        if autostrip or delimiter == nil then
          for i, f in ipairs(fields) do fields[i] = f:match("^%s*(.-)%s*$") end
        end
        if not cols then
          ncols = #fields
          cols = columns(usecols, ncols, "genfromtxt")
        end
        if #fields ~= ncols then
          if invalid_raise then
            fail(("genfromtxt: line #%d (got %d columns instead of %d)"):format(ln, #fields, ncols))
          end
        else
          rows[#rows + 1] = { ln = ln, fields = fields }
        end
      end
    end
    for _ = 1, skip_footer do rows[#rows] = nil end
    if max_rows and #rows > max_rows then
      for k = #rows, max_rows + 1, -1 do rows[k] = nil end
    end
    local vals = {}
    for _, r in ipairs(rows) do
      for _, c in ipairs(cols) do
        local tok = r.fields[c]
        local stripped = tok:match("^%s*(.-)%s*$")
        local v
        local conv = converter_of(converters, c)
        if missing[tok] or missing[stripped] then
          v = fill_for(c)
        elseif conv then
          v = convert_token(conv, tok, "genfromtxt")
          if kind == "c" then v = { v, 0.0 } end
        else
          v = parse(tok)
          if v == nil then
            if not loose then
              fail(("genfromtxt: could not convert string '%s' to %s at line %d, column %d"):format(tok, dtype,
                r.ln, c))
            end
            v = fill_for(c)
          end
        end
        vals[#vals + 1] = v
      end
    end
    return finish(vals, #rows, cols and #cols or 0, dtype, ndmin, unpack, "genfromtxt")
  end)

  ---------------------------------------------------------------------------
  -- raw files

  local function tofile(x, fid, sep, format)
    local data
    if sep == "" then
      data = x:tobytes()
    else
      local flat = x.ndim == 0 and { x:item() } or x:reshape(x.size):totable()
      if x.ndim == 0 and ga.dtype(x.dtype).kind == "c" then flat = { { x:item() } } end
      local parts = {}
      for i, v in ipairs(flat) do parts[i] = py_format(format, { v }, x.dtype, "tofile") end
      data = table.concat(parts, sep)
    end
    if io.type(fid) == "file" then
      fid:write(data)
      return
    end
    local f, err = io.open(fid, "wb")
    if not f then fail("tofile: " .. tostring(err)) end
    f:write(data)
    f:close()
  end
  def(methods, [[
ndarray:tofile(fid: string|userdata, sep: string = "", format: string = "%s") -> nil
Write the elements in C order to a file (a path or an open Lua file): raw
bytes (sep "") or as text, each formatted with the Python %-format format,
separated by sep. No dtype or shape is kept (ga.save keeps them).
]], tofile)

  def(ga, [[
fromfile(file: string|userdata, dtype: dtype = "float64", count: integer = -1, sep: string = "",
         offset: integer = 0) -> ndarray
A 1-D array of the file's values: raw bytes of dtype (sep ""; offset bytes
skipped first) or text numbers separated by sep (" " for any whitespace);
count of them (-1: all).
]], function(file, dtype, count, sep, offset)
    dtype = ga.dtype(dtype).name
    local s
    if io.type(file) == "file" then
      s = file:read("a")
    else
      local f, err = io.open(file, "rb")
      if not f then fail("fromfile: " .. tostring(err)) end
      s = f:read("a")
      f:close()
    end
    if sep == "" then
      if offset < 0 then fail("fromfile: offset must be non-negative") end
      local size = ga.dtype(dtype).itemsize
      local avail = math.max(#s - offset, 0) // size
      local n = count < 0 and avail or count
      if n > avail then
        fail(("fromfile: %d items requested, the file holds %d"):format(n, avail))
      end
      return ga.array(s:sub(offset + 1, offset + n * size), { dtype = dtype, shape = { n } })
    end
    if offset ~= 0 then fail("fromfile: offset is only valid for binary files (sep \"\")") end
    local parse = parser_for(dtype)
    local vals = {}
    local toks
    if sep:match("^%s+$") then
      toks = {}
      for t in s:gmatch("%S+") do toks[#toks + 1] = t end
    else
      local trimmed = sep:match("^%s*(.-)%s*$")
      toks = {}
      local p = 1
      while p <= #s do
        local a, b = s:find(trimmed, p, true)
        local piece = a and s:sub(p, a - 1) or s:sub(p)
        if piece:match("%S") or a then toks[#toks + 1] = piece end
        if not a then break end
        p = b + 1
      end
    end
    for _, t in ipairs(toks) do
      if count >= 0 and #vals >= count then break end
      local v = parse(t)
      if v == nil then
        if t:match("^%s*$") then break end
        fail(("fromfile: could not convert string '%s' to %s"):format(t:match("^%s*(.-)%s*$"), dtype))
      end
      vals[#vals + 1] = v
    end
    if count >= 0 and #vals < count then
      fail(("fromfile: %d items requested, the file holds %d"):format(count, #vals))
    end
    return make_array(vals, { #vals }, dtype)
  end)

  internal.text = { parser_for = parser_for, ensure_ndmin = ensure_ndmin, splitter = splitter,
                    pack_values = pack_values }
end
