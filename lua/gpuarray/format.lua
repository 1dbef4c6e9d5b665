--- tostring(x): a NumPy-like repr. Large arrays are summarised: along each
-- axis longer than 2 * EDGE only the first and last EDGE entries are copied
-- back (one small device copy per corner), with "..." between them.
local THRESHOLD = 1000
local EDGE = 3
local LINE_WIDTH = 75

-- dtypes whose repr omits the dtype, as NumPy's does
local IMPLICIT = { float64 = true, int64 = true, bool = true }

local function fmt_real(v, kind)
  if kind == "b" then return tostring(v) end
  if kind == "i" or kind == "u" then
    return math.type(v) == "integer" and tostring(v) or ("%.0f"):format(v)
  end
  if v ~= v then return "nan" end
  if v == math.huge then return "inf" end
  if v == -math.huge then return "-inf" end
  local s = ("%.8g"):format(v)
  if s:find("e") then
    local mant, exp = s:match("^(.-)e(.*)$")
    if not mant:find("%.") then mant = mant .. "." end
    mant = mant:gsub("(%..-)0+$", "%1")
    return mant .. "e" .. exp
  end
  if not s:find("%.") then return s .. "." end
  return (s:gsub("0+$", ""))
end

local function fmt_value(v, kind)
  if kind == "c" then
    local re, im = v[1], v[2]
    local ims = fmt_real(math.abs(im), "f")
    local sign = (im < 0 or (im == 0 and 1 / im < 0)) and "-" or "+"
    if im ~= im then sign = "+" end
    return fmt_real(re, "f") .. sign .. ims .. "j"
  end
  return fmt_real(v, kind)
end

-- Selectors of the (up to two) parts kept along each axis
local function summary_parts(shape, summarise)
  local parts = {}
  for d, n in ipairs(shape) do
    if summarise and n > 2 * EDGE then
      parts[d] = { { { 1, EDGE }, { 1, EDGE } }, { { n - EDGE + 1, n }, { EDGE + 1, 2 * EDGE } } }
    else
      parts[d] = { { {}, {} } }
    end
  end
  return parts
end

-- The values to print, as nested tables (the summarised corners only)
local function fetch(ga, x, summarise)
  if not summarise then return x:totable() end
  local shape = x.shape
  local small_shape = {}
  for d, n in ipairs(shape) do small_shape[d] = n > 2 * EDGE and 2 * EDGE or n end
  local small = ga.empty(small_shape, x.dtype)
  local parts = summary_parts(shape, true)
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

return function(ga)
  local sync_guard = ga._core._sync_guard
  local function render(x)
    sync_guard("tostring")   -- inside a graph capture: raise naming tostring (runtime/graph.c)
    local kind = ga.dtype(x.dtype).kind
    local shape = x.shape
    local ndim = #shape
    local summarise = x.size > THRESHOLD
    local prefix = "array("
    local suffix = IMPLICIT[x.dtype] and ")" or (", dtype=" .. x.dtype .. ")")
    if x.size == 0 then
      -- as NumPy: no nested lists (an empty array may have 2^62 rows of
      -- nothing), the shape unless it is {0}, and always the dtype (no
      -- value shows it)
      local shape_part = ndim == 1 and "" or ", shape={" .. table.concat(shape, ",") .. "}"
      return prefix .. "[]" .. shape_part .. ", dtype=" .. x.dtype .. ")"
    end
    local values = fetch(ga, x, summarise)
    if ndim == 0 then return prefix .. fmt_value(values, kind) .. suffix end
    -- format every leaf first to learn the common width
    local width = 0
    local function measure(t, d)
      if d > ndim then
        local s = fmt_value(t, kind)
        if #s > width then width = #s end
        return
      end
      for _, v in ipairs(t) do measure(v, d + 1) end
    end
    measure(values, 1)
    local indent = (" "):rep(#prefix)
    local function block(t, d, ind)
      local n = #t
      local full = shape[d]
      local cut = summarise and full > 2 * EDGE
      if d == ndim then
        local items = {}
        for i = 1, n do
          items[#items + 1] = (" "):rep(width - #fmt_value(t[i], kind)) .. fmt_value(t[i], kind)
          if cut and i == EDGE then items[#items + 1] = "..." end
        end
        -- wrap long rows like NumPy does
        local lines, line = {}, "["
        for i, item in ipairs(items) do
          local piece = item .. (i < #items and "," or "]")
          if #line + #piece + 1 > LINE_WIDTH - #ind and line ~= "[" then
            lines[#lines + 1] = line
            line = " " .. piece
          else
            line = line .. (line == "[" and "" or " ") .. piece
          end
        end
        if #items == 0 then line = "[]" end
        lines[#lines + 1] = line
        return table.concat(lines, "\n" .. ind)
      end
      local rows = {}
      local sep = "," .. ("\n"):rep(ndim - d) .. ind .. " "
      for i = 1, n do
        rows[#rows + 1] = block(t[i], d + 1, ind .. " ")
        if cut and i == EDGE then rows[#rows + 1] = "..." end
      end
      return "[" .. table.concat(rows, sep) .. "]"
    end
    return prefix .. block(values, 1, indent) .. suffix
  end

  ga._core._set_hooks({ repr = render })
  require("gpuarray.internal").format_value = fmt_value
end
