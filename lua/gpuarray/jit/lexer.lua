--- The jit's Lua lexer: Lua 5.4 source text into a list of tokens, each
-- {t = kind, v = value, line = n, pos = first byte, stop = last byte}. Kinds: "name", "number" (v is the Lua
-- value: integer or float, converted by tonumber as Lua itself would),
-- "string", "eof", and the keywords and symbols as themselves ("local",
-- "==", "//", ...). Comments and long brackets are skipped or read as Lua
-- reads them, so that line numbers are the source's.
local M = {}

local KEYWORDS = {}
for w in ([[and break do else elseif end false for function goto if in local nil not or
            repeat return then true until while]]):gmatch("%a+") do
  KEYWORDS[w] = true
end
M.KEYWORDS = KEYWORDS

-- longest first: the lexer tries three, two, then one character
local SYMBOLS = {}
for s in ([[... .. == ~= <= >= << >> // :: + - * / % ^ # & ~ | < > = ( ) { } [ ] ; : , .]]):gmatch("%S+") do
  SYMBOLS[s] = true
end

local ESCAPES = { a = "\a", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t", v = "\v",
                  ["\\"] = "\\", ['"'] = '"', ["'"] = "'", ["\n"] = "\n" }

--- Tokens of src; first_line is the line number of src's first line.
-- fail(line, msg) raises (the caller formats the message).
function M.tokens(src, first_line, fail)
  local toks, pos, line, n = {}, 1, first_line, #src
  local start = 1   -- where the token being read begins

  local function push(t, v) toks[#toks + 1] = { t = t, v = v, line = line, pos = start, stop = pos - 1 } end

  local function count_lines(s)
    local _, k = s:gsub("\n", "")
    line = line + k
  end

  -- a long bracket [==[ ... ]==] at pos (level = number of '='); returns its body
  local function long_bracket(what)
    local eq = src:match("^%[(=*)%[", pos)
    if not eq then return nil end
    local open_len = #eq + 2
    local close = "]" .. eq .. "]"
    local s, e = src:find(close, pos + open_len, true)
    if not s then fail(line, "unfinished long " .. what) end
    local body = src:sub(pos + open_len, s - 1)
    count_lines(src:sub(pos, e))
    pos = e + 1
    if body:sub(1, 1) == "\n" then body = body:sub(2) end
    return body
  end

  local function short_string(q)
    local buf, i = {}, pos + 1
    while true do
      local c = src:sub(i, i)
      if c == "" or c == "\n" then fail(line, "unfinished string") end
      if c == q then break end
      if c == "\\" then
        local d = src:sub(i + 1, i + 1)
        if ESCAPES[d] then
          buf[#buf + 1] = ESCAPES[d]
          if d == "\n" then line = line + 1 end
          i = i + 2
        elseif d:match("%d") then
          local digits = src:match("^%d%d?%d?", i + 1)
          buf[#buf + 1] = string.char(tonumber(digits) % 256)
          i = i + 1 + #digits
        elseif d == "x" then
          buf[#buf + 1] = string.char(tonumber(src:sub(i + 2, i + 3), 16) or 0)
          i = i + 4
        elseif d == "z" then
          local ws = src:match("^%s*", i + 2)
          count_lines(ws)
          i = i + 2 + #ws
        else
          -- \u{...} and anything rarer: kept as written (kernels use no strings)
          buf[#buf + 1] = d
          i = i + 2
        end
      else
        buf[#buf + 1] = c
        i = i + 1
      end
    end
    pos = i + 1
    return table.concat(buf)
  end

  while pos <= n do
    start = pos
    local c = src:sub(pos, pos)
    if c == "\n" then
      line = line + 1
      pos = pos + 1
    elseif c:match("%s") then
      pos = pos + 1
    elseif src:sub(pos, pos + 1) == "--" then
      pos = pos + 2
      if not long_bracket("comment") then
        local e = src:find("\n", pos, true)
        pos = e or n + 1
      end
    elseif c:match("[%a_]") then
      local w = src:match("^[%w_]+", pos)
      pos = pos + #w
      if KEYWORDS[w] then push(w) else push("name", w) end
    elseif c:match("%d") or (c == "." and src:sub(pos + 1, pos + 1):match("%d")) then
      local num
      if src:match("^0[xX]", pos) then
        num = src:match("^0[xX][%x%.]*[pP][%+%-]?%x*", pos) or src:match("^0[xX][%x%.]*", pos)
      else
        num = src:match("^[%d%.]*[eE][%+%-]?%d*", pos) or src:match("^[%d%.]+", pos)
      end
      local v = tonumber(num)
      if v == nil then fail(line, "malformed number '" .. num .. "'") end
      pos = pos + #num
      push("number", v)
    elseif c == '"' or c == "'" then
      push("string", short_string(c))
    elseif c == "[" and src:match("^%[=*%[", pos) then
      local l0 = line
      local body = long_bracket("string")
      toks[#toks + 1] = { t = "string", v = body, line = l0, pos = start, stop = pos - 1 }
    else
      local s3, s2 = src:sub(pos, pos + 2), src:sub(pos, pos + 1)
      local sym = SYMBOLS[s3] and s3 or SYMBOLS[s2] and s2 or SYMBOLS[c] and c
      if not sym then fail(line, "unexpected character '" .. c .. "'") end
      pos = pos + #sym
      push(sym)
    end
  end
  start = n + 1
  push("eof")
  return toks
end

return M
