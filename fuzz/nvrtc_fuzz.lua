--- What reaches NVRTC (issue 24): RawModule sources with name expressions,
-- RawKernel sources and names, their options, mutated with NUL bytes,
-- bytes that are not UTF-8 and unbalanced brackets. Every third call makes
-- the module or kernel, which compiles now (no GPU: sm_90 through the disk
-- cache), NVRTC in a child process where compile/isolate.c says so; the
-- others ask core/srccheck.c's rules alone (cheap). Beyond "succeed or
-- raise gpuarray: ...", three rules are checked: a NUL byte anywhere is
-- refused; a name expression the rule refuses never compiles; and one it
-- accepts is never refused as "not a name".
local NAMES = {
  "scale<float, 4>", "scale<double, (2 > 1) + 1>", "twice<float>", "twice<int>", "ns::f<double>",
  "&ns::f<float>", "::ns::f<int>", "k", "fixed<3>", "cast<float, double>", "st<float>", "g<int>",
  "scale<float, (4>", "scale<", "k>", "<int>", "", "f<int[2]>", "f<sizeof(int)>", ("k"):rep(300),
}
local OPTS = { "-DX=1", "-O3", "--std=c++14", "-default-device", "--bogus", "-DX=\0", "-arch=sm_80" }
local INJECT = { "\0", "\255", "\192\128", "\237\160\128", "(", ")", "<", ">", "[", "]", "{", "}", "\"", "'",
                 "/*", "R\"x(", "\n", ";", "\1" }

local function inject(F, s)
  for _ = 1, math.random(1, 2) do
    local p = math.random(0, #s)
    s = s:sub(1, p) .. F.pick(INJECT) .. s:sub(p + 1)
  end
  return s
end

local function mangle(F, s, corpus)
  local r = math.random(10)
  if r <= 4 then return s end
  if r <= 7 then return inject(F, s) end
  return F.mutate(s, corpus)
end

return {
  name = "nvrtc",
  setup = function(F) return { corpus = F.corpus("nvrtc") } end,
  gen = function(F)
    local c = F.state.corpus
    local exprs = {}
    for k = 1, math.random(0, 3) do exprs[k] = mangle(F, F.pick(NAMES), NAMES) end
    local opts
    if F.chance(0.3) then opts = { mangle(F, F.pick(OPTS), OPTS) } end
    return { op = math.random(6), src = mangle(F, F.pick(c), c), exprs = exprs, opts = opts,
             name = mangle(F, F.pick(NAMES), NAMES) }
  end,
  run = function(t, F)
    local core, ga = F.core, F.ga
    if t.op <= 2 then
      for _, e in ipairs(t.exprs) do core._test.name_expr_check(e) end
      return core._test.name_expr_check(t.name)
    end
    if t.op <= 4 then return core._test.compile_isolated(t.src, #t.exprs) end
    if t.op == 5 then
      -- the rules alone, against what a constructor then does
      local refused
      for _, e in ipairs(t.exprs) do
        if not e:find("\0", 1, true) and not core._test.name_expr_check(e) then refused = e end
      end
      local ok, m = pcall(ga.RawModule, t.src, { name_expressions = t.exprs, options = t.opts })
      local nul = F.has_nul(t.src) or F.has_nul(t.exprs) or F.has_nul(t.opts)
      if ok and nul then error("fuzz: RawModule took a NUL byte", 0) end
      if ok and refused then error("fuzz: RawModule compiled a name expression the rule refuses", 0) end
      if not ok and not refused and not nul and tostring(m):find("is not a name", 1, true) then
        error("fuzz: a name expression the rule accepts was refused: " .. tostring(m), 0)
      end
      if not ok then error(m, 0) end
      for _, e in ipairs(t.exprs) do m:get_function(e) end
      return m
    end
    local ok, k = pcall(ga.RawKernel, t.src, t.name, t.opts and { options = t.opts } or nil)
    if ok and (F.has_nul(t.src) or F.has_nul(t.name) or F.has_nul(t.opts)) then
      error("fuzz: RawKernel took a NUL byte", 0)
    end
    if not ok then error(k, 0) end
    return k.params
  end,
}
