--- The jit's parser: a recursive-descent parser of Lua 5.4 (the whole
-- language, so that a construct outside the kernel subset is recognised and
-- rejected by name, with its line, by the translator). Nodes are tables
-- with k (the kind) and line.
--
-- Expressions: Nil True False Number{v} String{v} Vararg Function{f}
--   Table Binop{op, l, r} Unop{op, e} Paren{e} Name{name} Index{obj, key}
--   Call{fn, args} Method{obj, name, args}
-- Statements: Local{names, attribs, exprs} Assign{targets, exprs}
--   CallStat{call} Do{body} While{cond, body} Repeat{body, cond}
--   If{conds, blocks, orelse} Fornum{var, start, limit, step, body}
--   Forin{names, exprs, body} FunctionStat{f} LocalFunction{name, f}
--   Return{exprs} Break Goto{label} Label{label}
-- A function f is {params = {names}, vararg = bool, body = block, line,
-- endline, name = "a.b" or nil}; a block is a list of statements.
local lexer = require "gpuarray.jit.lexer"

local M = {}

-- binary operators: left and right priority (Lua 5.4's lparser.c)
local BINARY = {
  ["or"] = { 1, 1 }, ["and"] = { 2, 2 },
  ["<"] = { 3, 3 }, [">"] = { 3, 3 }, ["<="] = { 3, 3 }, [">="] = { 3, 3 }, ["~="] = { 3, 3 }, ["=="] = { 3, 3 },
  ["|"] = { 4, 4 }, ["~"] = { 5, 5 }, ["&"] = { 6, 6 }, ["<<"] = { 7, 7 }, [">>"] = { 7, 7 },
  [".."] = { 9, 8 }, ["+"] = { 10, 10 }, ["-"] = { 10, 10 },
  ["*"] = { 11, 11 }, ["/"] = { 11, 11 }, ["//"] = { 11, 11 }, ["%"] = { 11, 11 },
  ["^"] = { 14, 13 },
}
local UNARY_PRIORITY = 12
local UNARY = { ["not"] = true, ["-"] = true, ["#"] = true, ["~"] = true }

local BLOCK_END = { ["end"] = true, ["else"] = true, ["elseif"] = true, ["until"] = true, eof = true }

local P = {}
P.__index = P

function P:peek(k) return self.toks[self.i + (k or 0)] end
function P:next()
  local t = self.toks[self.i]
  self.i = self.i + 1
  return t
end
function P:check(t) return self.toks[self.i].t == t end
function P:accept(t)
  if self.toks[self.i].t == t then return self:next() end
  return nil
end

local function show(tok)
  if tok.t == "name" then return "'" .. tok.v .. "'" end
  if tok.t == "number" then return "'" .. tostring(tok.v) .. "'" end
  if tok.t == "string" then return "a string" end
  if tok.t == "eof" then return "the end of the function" end
  return "'" .. tok.t .. "'"
end

function P:expect(t, what)
  local tok = self.toks[self.i]
  if tok.t ~= t then self.fail(tok.line, ("expected %s near %s"):format(what or ("'" .. t .. "'"), show(tok))) end
  return self:next()
end

function P:name()
  return self:expect("name", "a name").v
end

-------------------------------------------------------------------------------
-- expressions

function P:primary()
  local tok = self:peek()
  if tok.t == "name" then
    self:next()
    return { k = "Name", name = tok.v, line = tok.line }
  elseif tok.t == "(" then
    self:next()
    local e = self:expr()
    self:expect(")")
    return { k = "Paren", e = e, line = tok.line }
  end
  self.fail(tok.line, "unexpected symbol near " .. show(tok))
end

function P:call_args()
  local tok = self:peek()
  if tok.t == "string" then
    self:next()
    return { { k = "String", v = tok.v, line = tok.line } }
  elseif tok.t == "{" then
    return { self:table_cons() }
  end
  self:expect("(")
  local args = {}
  if not self:check(")") then args = self:expr_list() end
  self:expect(")")
  return args
end

function P:suffixed()
  local e = self:primary()
  while true do
    local tok = self:peek()
    if tok.t == "." then
      self:next()
      local n = self:expect("name", "a name")
      e = { k = "Index", obj = e, key = { k = "String", v = n.v, line = n.line }, line = tok.line, dot = true }
    elseif tok.t == "[" then
      self:next()
      local key = self:expr()
      self:expect("]")
      e = { k = "Index", obj = e, key = key, line = tok.line }
    elseif tok.t == ":" then
      self:next()
      local n = self:name()
      e = { k = "Method", obj = e, name = n, args = self:call_args(), line = tok.line }
    elseif tok.t == "(" or tok.t == "string" or tok.t == "{" then
      e = { k = "Call", fn = e, args = self:call_args(), line = tok.line }
    else
      return e
    end
  end
end

function P:table_cons()
  local open = self:expect("{")
  local depth = 1
  -- the translator rejects tables; skip the fields (they may hold anything)
  while depth > 0 do
    local t = self:next()
    if t.t == "{" then depth = depth + 1
    elseif t.t == "}" then depth = depth - 1
    elseif t.t == "eof" then self.fail(open.line, "unfinished table constructor") end
  end
  return { k = "Table", line = open.line }
end

function P:simple()
  local tok = self:peek()
  local t = tok.t
  if t == "number" then
    self:next()
    return { k = "Number", v = tok.v, line = tok.line }
  elseif t == "string" then
    self:next()
    return { k = "String", v = tok.v, line = tok.line }
  elseif t == "nil" then
    self:next()
    return { k = "Nil", line = tok.line }
  elseif t == "true" then
    self:next()
    return { k = "True", line = tok.line }
  elseif t == "false" then
    self:next()
    return { k = "False", line = tok.line }
  elseif t == "..." then
    self:next()
    return { k = "Vararg", line = tok.line }
  elseif t == "{" then
    return self:table_cons()
  elseif t == "function" then
    self:next()
    return { k = "Function", f = self:funcbody(tok.line), line = tok.line }
  end
  return self:suffixed()
end

function P:subexpr(limit)
  local e
  local tok = self:peek()
  if UNARY[tok.t] then
    self:next()
    local operand = self:subexpr(UNARY_PRIORITY)
    e = { k = "Unop", op = tok.t, e = operand, line = tok.line }
  else
    e = self:simple()
  end
  while true do
    local op = self:peek()
    local pr = BINARY[op.t]
    if not pr or pr[1] <= limit then break end
    self:next()
    local r = self:subexpr(pr[2])
    e = { k = "Binop", op = op.t, l = e, r = r, line = op.line }
  end
  return e
end

function P:expr() return self:subexpr(0) end

function P:expr_list()
  local list = { self:expr() }
  while self:accept(",") do list[#list + 1] = self:expr() end
  return list
end

-------------------------------------------------------------------------------
-- statements

function P:block()
  local stats = {}
  while not BLOCK_END[self:peek().t] do
    if self:check("return") then
      stats[#stats + 1] = self:retstat()
      break
    end
    local s = self:statement()
    if s then stats[#stats + 1] = s end
  end
  return stats
end

function P:retstat()
  local tok = self:next()
  local exprs = {}
  if not BLOCK_END[self:peek().t] and not self:check(";") then exprs = self:expr_list() end
  self:accept(";")
  return { k = "Return", exprs = exprs, line = tok.line }
end

function P:funcbody(line, name)
  local f = { params = {}, vararg = false, line = line, name = name }
  self:expect("(")
  if not self:check(")") then
    repeat
      if self:accept("...") then
        f.vararg = true
        break
      end
      f.params[#f.params + 1] = self:name()
    until not self:accept(",")
  end
  self:expect(")")
  f.body = self:block()
  f.endline = self:expect("end", "'end' (closing the function of line " .. line .. ")").line
  return f
end

function P:statement()
  local tok = self:peek()
  local t, line = tok.t, tok.line
  if t == ";" then
    self:next()
    return nil
  elseif t == "if" then
    self:next()
    local s = { k = "If", conds = {}, blocks = {}, line = line }
    repeat
      s.conds[#s.conds + 1] = self:expr()
      self:expect("then")
      s.blocks[#s.blocks + 1] = self:block()
    until not self:accept("elseif")
    if self:accept("else") then s.orelse = self:block() end
    self:expect("end", "'end' (closing the 'if' of line " .. line .. ")")
    return s
  elseif t == "while" then
    self:next()
    local cond = self:expr()
    self:expect("do")
    local body = self:block()
    self:expect("end", "'end' (closing the 'while' of line " .. line .. ")")
    return { k = "While", cond = cond, body = body, line = line }
  elseif t == "do" then
    self:next()
    local body = self:block()
    self:expect("end", "'end' (closing the 'do' of line " .. line .. ")")
    return { k = "Do", body = body, line = line }
  elseif t == "for" then
    self:next()
    local n1 = self:name()
    if self:accept("=") then
      local start = self:expr()
      self:expect(",")
      local limit = self:expr()
      local step = self:accept(",") and self:expr() or nil
      self:expect("do")
      local body = self:block()
      self:expect("end", "'end' (closing the 'for' of line " .. line .. ")")
      return { k = "Fornum", var = n1, start = start, limit = limit, step = step, body = body, line = line }
    end
    local names = { n1 }
    while self:accept(",") do names[#names + 1] = self:name() end
    self:expect("in")
    local exprs = self:expr_list()
    self:expect("do")
    local body = self:block()
    self:expect("end", "'end' (closing the 'for' of line " .. line .. ")")
    return { k = "Forin", names = names, exprs = exprs, body = body, line = line }
  elseif t == "repeat" then
    self:next()
    local body = self:block()
    self:expect("until", "'until' (closing the 'repeat' of line " .. line .. ")")
    return { k = "Repeat", body = body, cond = self:expr(), line = line }
  elseif t == "function" then
    self:next()
    local name = self:name()
    while self:accept(".") do name = name .. "." .. self:name() end
    if self:accept(":") then name = name .. ":" .. self:name() end
    return { k = "FunctionStat", f = self:funcbody(line, name), line = line }
  elseif t == "local" then
    self:next()
    if self:accept("function") then
      local name = self:name()
      return { k = "LocalFunction", name = name, f = self:funcbody(line, name), line = line }
    end
    local names, attribs = {}, {}
    repeat
      names[#names + 1] = self:name()
      if self:accept("<") then
        attribs[#names] = self:name()
        self:expect(">")
      end
    until not self:accept(",")
    local exprs = {}
    if self:accept("=") then exprs = self:expr_list() end
    return { k = "Local", names = names, attribs = attribs, exprs = exprs, line = line }
  elseif t == "::" then
    self:next()
    local label = self:name()
    self:expect("::")
    return { k = "Label", label = label, line = line }
  elseif t == "return" then
    return self:retstat()
  elseif t == "break" then
    self:next()
    return { k = "Break", line = line }
  elseif t == "goto" then
    self:next()
    return { k = "Goto", label = self:name(), line = line }
  end
  -- an expression statement: a call, or an assignment
  local e = self:suffixed()
  if self:check("=") or self:check(",") then
    local targets = { e }
    while self:accept(",") do targets[#targets + 1] = self:suffixed() end
    self:expect("=")
    for _, tg in ipairs(targets) do
      if tg.k ~= "Name" and tg.k ~= "Index" then self.fail(tg.line, "syntax error: cannot assign to this") end
    end
    return { k = "Assign", targets = targets, exprs = self:expr_list(), line = line }
  end
  if e.k ~= "Call" and e.k ~= "Method" then self.fail(line, "syntax error near " .. show(self:peek())) end
  return { k = "CallStat", call = e, line = line }
end

-------------------------------------------------------------------------------

-- Blocks as tokens count them: each of these opens one that 'end' (or,
-- for repeat, 'until') closes; 'while' and 'for' open theirs with 'do'
local OPENS = { ["function"] = true, ["do"] = true, ["if"] = true, ["repeat"] = true }
local CLOSES = { ["end"] = true, ["until"] = true }

--- Every function whose 'function' keyword is on `line` of the token list
-- toks (a whole chunk, lexed from its first line, so that long strings and
-- comments are what Lua took them for), with its parameter names and its
-- 'end', found by counting blocks: a function outside the jit's subset is
-- found too. Each is {i = index of 'function', params = {names}, vararg,
-- paren = index of '(', last = index of 'end', method = true for a:b()}.
function M.functions_on_line(toks, line)
  local out = {}
  for i, tok in ipairs(toks) do
    if tok.line > line then break end
    if tok.t == "function" and tok.line == line then
      local j, method = i + 1, false
      if toks[j].t == "name" then       -- function a.b:c(...)
        j = j + 1
        while (toks[j].t == "." or toks[j].t == ":") and toks[j + 1].t == "name" do
          method = method or toks[j].t == ":"
          j = j + 2
        end
      end
      local f = { i = i, params = {}, vararg = false, paren = j, method = method }
      local ok = toks[j].t == "("
      j = j + 1
      while ok and toks[j].t ~= ")" do
        if toks[j].t == "name" then f.params[#f.params + 1] = toks[j].v
        elseif toks[j].t == "..." then f.vararg = true
        elseif toks[j].t ~= "," then ok = false end
        j = j + 1
      end
      if method then table.insert(f.params, 1, "self") end
      local depth = 1
      while ok and depth > 0 do
        j = j + 1
        local t = toks[j].t
        if t == "eof" then ok = false
        elseif OPENS[t] then depth = depth + 1
        elseif CLOSES[t] then depth = depth - 1 end
      end
      if ok then
        f.last = j
        out[#out + 1] = f
      end
    end
  end
  return out
end

--- Parse the function whose 'function' keyword is toks[i]. fail(line, msg)
-- raises.
function M.parse_function_at(toks, i, fail)
  local tok = toks[i]
  local p = setmetatable({ toks = toks, i = i + 1, fail = fail }, P)
  local name
  if p:check("name") then
    name = p:name()
    while p:accept(".") do name = name .. "." .. p:name() end
    if p:accept(":") then name = name .. ":" .. p:name() end
  end
  local f = p:funcbody(tok.line, name)
  -- the name of `local saxpy = function` sits before the keyword (not in
  -- `local a, b = function ..., function ...`: the last name is not the first function's)
  if not f.name and i > 2 and toks[i - 1].t == "=" and toks[i - 2].t == "name" and
     (i == 3 or toks[i - 3].t ~= ",") then
    f.name = toks[i - 2].v
  end
  return f
end

--- The function whose 'function' keyword is on first_line and whose 'end'
-- is on last_line, in text (the source from first_line on). nparams
-- (optional) tells candidates on one line apart; the first that is left
-- is parsed. fail(line, msg) raises.
function M.parse_function(text, first_line, last_line, nparams, fail)
  local toks = lexer.tokens(text, first_line, fail)
  for _, f in ipairs(M.functions_on_line(toks, first_line)) do
    if toks[f.last].line == last_line and (nparams == nil or #f.params == nparams) then
      return M.parse_function_at(toks, f.i, fail)
    end
  end
  fail(first_line, "cannot find the function's source (is the file changed since it was loaded?)")
end

--- A whole chunk (for specs): its block.
function M.parse_block(text, fail)
  local p = setmetatable({ toks = lexer.tokens(text, 1, fail), i = 1, fail = fail }, P)
  local b = p:block()
  p:expect("eof", "the end of the chunk")
  return b
end

return M
