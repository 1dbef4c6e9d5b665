--- Printing arrays (API.md §2, §14): tostring(x) (the repr), ga.array_repr,
-- ga.array_str, ga.array2string, set_printoptions / get_printoptions /
-- printoptions, format_float_positional / format_float_scientific.
--
-- The layout is NumPy's (_formatArray: rows wrapped at linewidth, a
-- hanging indent per nesting level, "..." where more than threshold
-- elements are summarised to edgeitems per side) and so are the element
-- formats (FloatingFormat: positional or scientific for the whole array,
-- maxprec/fixed/unique/maxprec_equal, suppress, sign; IntegerFormat,
-- ComplexFloatingFormat). Two Lua-first differences: booleans print as
-- Lua's true/false, and an empty array's shape as a Lua list ({0,3}).
-- Only the corners that are shown are copied back from the device.
local F = require("gpuarray.io.floatfmt")

return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local fail, is_array = internal.fail, internal.is_array
  local sync_guard = ga._core.runtime.sync_guard

  -- the print options of this Lua state
  local DEFAULTS = {
    edgeitems = 3, threshold = 1000, floatmode = "maxprec", precision = 8, suppress = false,
    linewidth = 75, nanstr = "nan", infstr = "inf", sign = "-", formatter = nil, legacy = false,
    override_repr = nil,
  }
  local options = {}
  for k, v in pairs(DEFAULTS) do options[k] = v end

  local FLOATMODES = { fixed = true, unique = true, maxprec = true, maxprec_equal = true }

  -- the options of one call: the state's, with the call's given ones
  local function merged(over)
    local o = {}
    for k, v in pairs(options) do o[k] = v end
    for k, v in pairs(over or {}) do o[k] = v end
    if o.floatmode == "unique" then o.precision = nil end
    return o
  end

  local function check(o, fname)
    if o.floatmode ~= nil and not FLOATMODES[o.floatmode] then
      fail(("%s: floatmode option must be one of fixed, unique, maxprec, maxprec_equal, got %s"):format(fname,
        tostring(o.floatmode)))
    end
    if o.sign ~= nil and o.sign ~= "-" and o.sign ~= "+" and o.sign ~= " " then
      fail(("%s: sign option must be one of ' ', '+', or '-', got %s"):format(fname, tostring(o.sign)))
    end
    for _, k in ipairs({ "precision", "threshold", "edgeitems", "linewidth" }) do
      if o[k] ~= nil and o[k] < 0 then fail(("%s: %s must be non-negative"):format(fname, k)) end
    end
  end

  ---------------------------------------------------------------------------
  -- element formats (NumPy's arrayprint classes)

  local function is_finite(v) return v == v and v ~= math.huge and v ~= -math.huge end

  -- FloatingFormat over the finite values of data (a flat Lua list)
  local function floating_format(data, o, dtype, sign)
    sign = sign or o.sign
    local precision, floatmode = o.precision, o.floatmode
    local finite, nonfinite, any_neg = {}, false, false
    for _, v in ipairs(data) do
      if is_finite(v) then
        finite[#finite + 1] = v
        if v < 0 or (v == 0 and 1 / v < 0) then any_neg = true end
      else
        nonfinite = true
      end
    end
    local fmt = { exp = false, pad_left = 0, pad_right = 0, precision = precision, unique = true,
                  trim = ".", min_digits = nil, exp_size = -1 }
    local maxv, minv
    for _, v in ipairs(finite) do
      local a = math.abs(v)
      if a ~= 0 then
        if not maxv or a > maxv then maxv = a end
        if not minv or a < minv then minv = a end
      end
    end
    if maxv and (maxv >= 1e8 or (not o.suppress and (minv < 0.0001 or maxv / minv > 1000))) then
      fmt.exp = true
    end
    if #finite == 0 then
      fmt.pad_left, fmt.pad_right, fmt.trim, fmt.exp_size, fmt.unique = 0, 0, ".", -1, true
    elseif fmt.exp then
      local trim, unique = ".", true
      if floatmode == "fixed" then trim, unique = "k", false end
      local ints, fracs, exps = 0, 0, 0
      for _, v in ipairs(finite) do
        local s = F.scientific(v, { precision = precision, unique = unique, trim = trim, sign = sign == "+",
                                    dtype = dtype })
        local mant, ex = s:match("^(.-)e(.*)$")
        local ip, fp = mant:match("^([^.]*)%.?(.*)$")
        ints, fracs, exps = math.max(ints, #ip), math.max(fracs, #fp), math.max(exps, #ex)
      end
      fmt.exp_size = exps - 1
      fmt.trim = "k"
      fmt.precision = fracs
      fmt.min_digits = fracs
      fmt.unique = unique
      fmt.pad_left = ints
      fmt.pad_right = fmt.exp_size + 2 + fracs
    else
      local trim, unique = ".", true
      if floatmode == "fixed" then trim, unique = "k", false end
      local ints, fracs = 0, 0
      for _, v in ipairs(finite) do
        local s = F.positional(v, { precision = precision, unique = unique, fractional = true, trim = trim,
                                    sign = sign == "+", dtype = dtype })
        local ip, fp = s:match("^([^.]*)%.?(.*)$")
        ints, fracs = math.max(ints, #ip), math.max(fracs, #fp)
      end
      fmt.pad_left, fmt.pad_right = ints, fracs
      fmt.unique = unique
      if floatmode == "fixed" or floatmode == "maxprec_equal" then
        fmt.precision, fmt.min_digits, fmt.trim = fracs, fracs, "k"
      else
        fmt.trim, fmt.min_digits = ".", 0
      end
    end
    if sign == " " and not any_neg then fmt.pad_left = fmt.pad_left + 1 end
    if nonfinite then
      local neginf = sign ~= "-"
      for _, v in ipairs(data) do if v == -math.huge then neginf = true end end
      local offset = fmt.pad_right + 1
      fmt.pad_left = math.max(fmt.pad_left, #o.nanstr - offset, #o.infstr + (neginf and 1 or 0) - offset)
    end
    return function(v)
      if not is_finite(v) then
        local ret
        if v ~= v then
          ret = (sign == "+" and "+" or "") .. o.nanstr
        else
          ret = (v < 0 and "-" or (sign == "+" and "+" or "")) .. o.infstr
        end
        return (" "):rep(fmt.pad_left + fmt.pad_right + 1 - #ret) .. ret
      end
      if fmt.exp then
        return F.scientific(v, { precision = fmt.precision, min_digits = fmt.min_digits, unique = fmt.unique,
                                 trim = fmt.trim, sign = sign == "+", pad_left = fmt.pad_left,
                                 exp_digits = fmt.exp_size, dtype = dtype })
      end
      return F.positional(v, { precision = fmt.precision, min_digits = fmt.min_digits, unique = fmt.unique,
                               fractional = true, trim = fmt.trim, sign = sign == "+", pad_left = fmt.pad_left,
                               pad_right = fmt.pad_right, dtype = dtype })
    end
  end

  local function integer_format(data, o)
    local sign = o.sign
    local width = 0
    if #data > 0 then
      local mx, mn = data[1], data[1]
      for _, v in ipairs(data) do
        if v > mx then mx = v end
        if v < mn then mn = v end
      end
      local w = #tostring(mx)
      if sign == " " and mn < 0 then sign = "-" end
      if mx >= 0 and (sign == "+" or sign == " ") then w = w + 1 end
      width = math.max(w, #tostring(mn))
    end
    return function(v)
      local s = tostring(v)
      if v >= 0 and sign == "+" then s = "+" .. s elseif v >= 0 and sign == " " then s = " " .. s end
      return (" "):rep(width - #s) .. s
    end
  end

  local function bool_format(zero_d)
    local t = zero_d and "true" or " true"
    return function(v) return v and t or "false" end
  end

  local function complex_format(data, o, dtype)
    local re, im = {}, {}
    for i, v in ipairs(data) do re[i], im[i] = v[1], v[2] end
    local rf = floating_format(re, o, dtype)
    local imf = floating_format(im, o, dtype, "+")
    return function(v)
      local r, i = rf(v[1]), imf(v[2])
      local sp = #(i:gsub("%s+$", ""))
      return r .. i:sub(1, sp) .. "j" .. i:sub(sp + 1)
    end
  end

  -- the user's formatter table (NumPy's formatter= keys) for a kind
  local function user_format(o, kind)
    local f = o.formatter
    if type(f) ~= "table" then return nil end
    local keys = ({ b = { "bool" }, i = { "int", "int_kind" }, u = { "int", "int_kind" },
                    f = { "float", "float_kind" }, c = { "complexfloat", "complex_kind" } })[kind]
    local fn
    for _, k in ipairs(keys) do fn = fn or f[k] end
    fn = fn or f.all
    if fn == nil then return nil end
    return function(v)
      local s = api.call_user(fn, v)
      if type(s) ~= "string" then fail("array2string: a formatter function must return a string") end
      return s
    end
  end

  local function flatten(t, out)
    if type(t) ~= "table" or (#t == 2 and type(t[1]) == "number" and out.complex) then
      out[#out + 1] = t
      return out
    end
    for _, v in ipairs(t) do flatten(v, out) end
    return out
  end

  local function format_function(values, kind, dtype, o, zero_d)
    local uf = user_format(o, kind)
    if uf then return uf end
    local flat = flatten(values, { complex = kind == "c" })
    flat.complex = nil
    if kind == "b" then return bool_format(zero_d) end
    if kind == "i" or kind == "u" then return integer_format(flat, o) end
    if kind == "c" then return complex_format(flat, o, dtype) end
    return floating_format(flat, o, dtype)
  end

  ---------------------------------------------------------------------------
  -- fetching the shown values

  -- The values to print as nested tables: all of them, or the corners
  -- (edge per side along every axis longer than 2 * edge)
  local function fetch(x, summarise, edge)
    if not summarise then return x:totable() end
    local shape = x.shape
    local small_shape = {}
    for d, n in ipairs(shape) do small_shape[d] = n > 2 * edge and 2 * edge or n end
    local small = ga.empty(small_shape, x.dtype)
    local parts = {}
    for d, n in ipairs(shape) do
      if n > 2 * edge then
        parts[d] = { { { 1, edge }, { 1, edge } }, { { n - edge + 1, n }, { edge + 1, 2 * edge } } }
      else
        parts[d] = { { {}, {} } }
      end
    end
    local ndim = #shape
    local pick = {}
    local function walk(d)
      if d > ndim then
        local src, dst = {}, {}
        for k = 1, ndim do
          src[k] = parts[k][pick[k]][1]
          dst[k] = parts[k][pick[k]][2]
        end
        small[dst] = x[src]
        return
      end
      for p = 1, #parts[d] do
        pick[d] = p
        walk(d + 1)
      end
    end
    walk(1)
    return small:totable()
  end

  ---------------------------------------------------------------------------
  -- the layout (NumPy's _formatArray)

  local function extend_line(s, line, word, width, prefix)
    local wrap = #line + #word > width
    if #line <= #prefix then wrap = false end
    if wrap then
      s = s .. line:gsub("%s+$", "") .. "\n"
      line = prefix
    end
    return s, line .. word
  end

  local function format_array(values, shape, fmt, line_width, prefix, separator, edge, summary)
    local ndim = #shape
    local sep_r = separator:gsub("%s+$", "")
    local function rec(t, d, hanging, width)
      if d > ndim then return fmt(t) end
      local next_hanging = hanging .. " "
      local next_width = width - 1
      local len = shape[d]
      local show = summary ~= "" and 2 * edge < len
      local lead, trail = 0, len
      if show then lead, trail = edge, edge end
      -- t holds the shown entries only: the corners when summarised
      local n = #t
      local function item(k)   -- k-th shown, k from the start (positive) or end (negative)
        if k > 0 then return t[k] end
        return t[n + 1 + k]
      end
      local s = ""
      if ndim - d == 0 then
        local elem_width = width - math.max(#sep_r, 1)
        local line = hanging
        for i = 1, lead do
          s, line = extend_line(s, line, rec(item(i), d + 1, next_hanging, next_width), elem_width, hanging)
          line = line .. separator
        end
        if show then
          s, line = extend_line(s, line, summary, elem_width, hanging)
          line = line .. separator
        end
        for i = trail, 2, -1 do
          s, line = extend_line(s, line, rec(item(-i), d + 1, next_hanging, next_width), elem_width, hanging)
          line = line .. separator
        end
        s, line = extend_line(s, line, rec(item(-1), d + 1, next_hanging, next_width), elem_width, hanging)
        s = s .. line
      else
        local line_sep = sep_r .. ("\n"):rep(ndim - d)
        for i = 1, lead do
          s = s .. hanging .. rec(item(i), d + 1, next_hanging, next_width) .. line_sep
        end
        if show then s = s .. hanging .. summary .. line_sep end
        for i = trail, 2, -1 do
          s = s .. hanging .. rec(item(-i), d + 1, next_hanging, next_width) .. line_sep
        end
        s = s .. hanging .. rec(item(-1), d + 1, next_hanging, next_width)
      end
      return "[" .. s:sub(#hanging + 1) .. "]"
    end
    return rec(values, 1, prefix, line_width)
  end

  -- the text of values (nested Lua tables: all of them, or the corners
  -- when summarised) of an array of shape and dtype
  local function layout(values, shape, dtype, o, separator, prefix, suffix, summarise)
    local kind = ga.dtype(dtype).kind
    local fmt = format_function(values, kind, dtype, o, #shape == 0)
    if #shape == 0 then return fmt(values) end
    local width = o.linewidth - #(suffix or "")
    return format_array(values, shape, fmt, width, " " .. (" "):rep(#prefix), separator, o.edgeitems,
      summarise and "..." or "")
  end

  -- array2string's body; o: merged options; x: an ndarray
  local function to_string(x, o, separator, prefix, suffix)
    sync_guard("array2string")   -- inside a graph capture: raise naming it (runtime/graph.c)
    local summarise = x.size > o.threshold
    local values = fetch(x, summarise, o.edgeitems)
    return layout(values, x.shape, x.dtype, o, separator, prefix, suffix, summarise)
  end

  -- the dtypes NumPy's repr leaves out (when the array is not empty)
  local IMPLICIT = { float64 = true, int64 = true, bool = true, complex128 = true }

  -- repr of x (an ndarray, or a description {shape =, dtype =, size =,
  -- values =} for the CPU specs)
  local function repr(x, o)
    local prefix = "array("
    local shape = x.shape
    local skip = IMPLICIT[x.dtype] and x.size > 0
    local suffix = skip and ")" or ","
    local body
    if x.size > 0 then
      if is_array(x) then
        body = to_string(x, o, ", ", prefix, suffix)
      else
        local summarise = x.size > o.threshold
        body = layout(x.values, shape, x.dtype, o, ", ", prefix, suffix, summarise)
      end
    elseif #shape == 1 then
      body = "[]"
    else
      body = "[], shape=" .. internal.shape_str(shape)
    end
    local s = prefix .. body .. suffix
    if skip then return s end
    local dtype_str = "dtype=" .. x.dtype .. ")"
    local last = #s - ((s:find("\n[^\n]*$")) or 0)
    local spacer = " "
    if last + #dtype_str + 1 > o.linewidth then spacer = "\n" .. (" "):rep(#prefix) end
    return s .. spacer .. dtype_str
  end

  local function render(x)
    sync_guard("tostring")
    if options.override_repr then return api.call_user(options.override_repr, x) end
    return repr(x, merged())
  end
  ga._core.ndarray.set_hooks({ repr = render })

  local function as_array(a, fname)
    if is_array(a) then return a end
    local t = type(a)
    if t == "table" or t == "number" or t == "boolean" or t == "userdata" then return ga.asarray(a) end
    fail(("%s: expected an array, got %s"):format(fname, t))
  end

  ---------------------------------------------------------------------------
  -- the public functions

  def(ga, [[
set_printoptions(precision: integer?, threshold: integer?, edgeitems: integer?, linewidth: integer?,
                 suppress: boolean?, nanstr: string?, infstr: string?, formatter: table?,
                 sign: "-"|"+"|" "?, floatmode: "fixed"|"unique"|"maxprec"|"maxprec_equal"?, *,
                 legacy: string|boolean?, override_repr: function?) -> nil
Set how arrays print, for this Lua state (NumPy's options and defaults:
precision 8, threshold 1000, edgeitems 3, linewidth 75, suppress false,
floatmode "maxprec", sign "-"). formatter: {float = fn, int = fn, ...}.
Options left nil keep their values.
]], function(precision, threshold, edgeitems, linewidth, suppress, nanstr, infstr, formatter, sign, floatmode,
             legacy, override_repr)
    local new = { precision = precision, threshold = threshold, edgeitems = edgeitems, linewidth = linewidth,
                  suppress = suppress, nanstr = nanstr, infstr = infstr, formatter = formatter, sign = sign,
                  floatmode = floatmode, legacy = legacy, override_repr = override_repr }
    check(new, "set_printoptions")
    for k, v in pairs(new) do options[k] = v end
  end)

  def(ga, [[
get_printoptions() -> table
The print options of this Lua state, as a new table (set_printoptions' names).
]], function()
    local t = {}
    for k, v in pairs(options) do t[k] = v end
    return t
  end)

  def(ga, [[
printoptions(func: function, *, precision: integer?, threshold: integer?, edgeitems: integer?,
             linewidth: integer?, suppress: boolean?, nanstr: string?, infstr: string?, formatter: table?,
             sign: "-"|"+"|" "?, floatmode: "fixed"|"unique"|"maxprec"|"maxprec_equal"?,
             legacy: string|boolean?, override_repr: function?) -> ...
Run func with these print options and restore the previous ones after (also
when func raises): NumPy's printoptions context manager. Returns func's results.
]], function(func, precision, threshold, edgeitems, linewidth, suppress, nanstr, infstr, formatter, sign,
             floatmode, legacy, override_repr)
    local new = { precision = precision, threshold = threshold, edgeitems = edgeitems, linewidth = linewidth,
                  suppress = suppress, nanstr = nanstr, infstr = infstr, formatter = formatter, sign = sign,
                  floatmode = floatmode, legacy = legacy, override_repr = override_repr }
    check(new, "printoptions")
    local saved = {}
    for k, v in pairs(options) do saved[k] = v end
    for k, v in pairs(new) do options[k] = v end
    local res = table.pack(pcall(api.call_user, func))
    for k in pairs(options) do options[k] = nil end
    for k, v in pairs(saved) do options[k] = v end
    if not res[1] then error(res[2], 0) end
    return table.unpack(res, 2, res.n)
  end)

  def(ga, [[
array2string(a: array_like, max_line_width: integer?, precision: integer?, suppress_small: boolean?,
             separator: string = " ", prefix: string = "", style: any?, formatter: table?,
             threshold: integer?, edgeitems: integer?, sign: "-"|"+"|" "?,
             floatmode: "fixed"|"unique"|"maxprec"|"maxprec_equal"?, suffix: string = "", *,
             legacy: string|boolean?) -> string
The text of a's values as NumPy lays them out (nested brackets, rows
wrapped at max_line_width, "..." past threshold elements); prefix only sets
the indent of continued lines. Options default to the print options.
]], function(a, mlw, precision, suppress, separator, prefix, _, formatter, threshold, edgeitems, sign, floatmode,
             suffix)
    a = as_array(a, "array2string")
    local over = { linewidth = mlw, precision = precision, suppress = suppress, formatter = formatter,
                   threshold = threshold, edgeitems = edgeitems, sign = sign, floatmode = floatmode }
    check(over, "array2string")
    local o = merged(over)
    if a.size == 0 then return "[]" end
    return to_string(a, o, separator, prefix, suffix)
  end)

  def(ga, [[
array_repr(arr: array_like, max_line_width: integer?, precision: integer?, suppress_small: boolean?) -> string
tostring(arr): "array(" .. the values .. ")" with the dtype where NumPy shows it.
]], function(a, mlw, precision, suppress)
    a = as_array(a, "array_repr")
    local over = { linewidth = mlw, precision = precision, suppress = suppress }
    check(over, "array_repr")
    return repr(a, merged(over))
  end)

  def(ga, [[
array_str(a: array_like, max_line_width: integer?, precision: integer?, suppress_small: boolean?) -> string
The values alone ("[1. 2. 3.]"); a 0-d array as its scalar (shortest digits).
]], function(a, mlw, precision, suppress)
    a = as_array(a, "array_str")
    local over = { linewidth = mlw, precision = precision, suppress = suppress }
    check(over, "array_str")
    local o = merged(over)
    if a.ndim == 0 then
      local v = a:item()
      local kind = ga.dtype(a.dtype).kind
      if kind == "f" then return F.repr(v, a.dtype) end
      if kind == "c" then
        local re, im = a:item()
        if type(re) == "table" then re, im = re[1], re[2] end
        local function part(p) return (F.repr(p, a.dtype):gsub("%.0$", "")) end
        local ims = part(im)
        if re == 0 and 1 / re > 0 then return ims .. "j" end
        return "(" .. part(re) .. ((im >= 0 or im ~= im) and "+" or "") .. ims .. "j)"
      end
      return tostring(v)
    end
    if a.size == 0 then return "[]" end
    return to_string(a, o, " ", "", "")
  end)

  -- a number and the dtype of its shortest digits
  local function float_arg(x, fname)
    if type(x) == "number" then return math.type(x) == "integer" and x + 0.0 or x, "float64" end
    if type(x) == "userdata" then
      local ok, dt = pcall(function() return x.dtype end)
      if ok and internal.KIND[dt] == "f" then return x.value, dt end
      if ok and type(dt) == "string" then fail(("%s: not a floating point value: a %s"):format(fname, dt)) end
      if is_array(x) and x.ndim == 0 then return x:item(), x.dtype end
    end
    fail(fname .. ": x must be a Lua number or a float typed scalar")
  end

  def(ga, [[
format_float_positional(x: number|userdata, precision: integer?, unique: boolean = true,
                        fractional: boolean = true, trim: "k"|"."|"0"|"-" = "k", sign: boolean = false,
                        pad_left: integer?, pad_right: integer?, min_digits: integer?) -> string
NumPy's Dragon4 positional text of a float: the shortest digits that read
back to x in its precision (a float32 typed scalar reads as float32), or with
unique false exactly rounded at precision digits; trim: k keeps zeros, .
drops them, 0 keeps one, - drops the point too.
]], function(x, precision, unique, fractional, trim, sign, pad_left, pad_right, min_digits)
    local v, dt = float_arg(x, "format_float_positional")
    return F.positional(v, { precision = precision, unique = unique, fractional = fractional, trim = trim,
                             sign = sign, pad_left = pad_left, pad_right = pad_right, min_digits = min_digits,
                             dtype = dt })
  end)

  def(ga, [[
format_float_scientific(x: number|userdata, precision: integer?, unique: boolean = true,
                        trim: "k"|"."|"0"|"-" = "k", sign: boolean = false, pad_left: integer?,
                        exp_digits: integer?, min_digits: integer?) -> string
NumPy's Dragon4 scientific text of a float ("1.5e+03"), shortest or exactly
rounded as format_float_positional; exp_digits: at least that many exponent
digits.
]], function(x, precision, unique, trim, sign, pad_left, exp_digits, min_digits)
    local v, dt = float_arg(x, "format_float_scientific")
    return F.scientific(v, { precision = precision, unique = unique, trim = trim, sign = sign,
                             pad_left = pad_left, exp_digits = exp_digits, min_digits = min_digits, dtype = dt })
  end)

  internal.printing = { layout = layout, repr = repr, merged = merged }
end
