--- The two sides of the difftest's programs (gen.lua): NumPy's, every
-- program in one python3 process, and gpuarray's, one program in the
-- calling Lua state; both as compare.lua's result lists. make difftest and
-- make soak (tools/soak/) run them.
local compare = require "difftest.compare"

local sides = {}

local PY_HEAD = [[
import math, sys, warnings
import numpy as np
warnings.simplefilter("ignore")
np.seterr(all="ignore")
if hasattr(np, "_set_promotion_state"):   # NumPy 1.24-1.26: NEP 50's weak scalars, as NumPy 2
    try:
        np._set_promotion_state("weak")
    except Exception:
        pass

def num(f):
    f = float(f)
    if f != f:
        return "nan"
    if f == math.inf:
        return "inf"
    if f == -math.inf:
        return "-inf"
    return repr(f)

def make_emit(out):
    def emit(name, v):
        a = np.asarray(v)
        vals = []
        for x in a.ravel().tolist():
            if isinstance(x, bool):
                vals.append("1" if x else "0")
            elif isinstance(x, int):
                vals.append(str(x))
            elif isinstance(x, complex):
                vals.append(num(x.real) + ":" + num(x.imag))
            else:
                vals.append(num(x))
        out.append("%s\t%s\t%s\t%s" % (name, a.dtype.name, ",".join(str(d) for d in a.shape), " ".join(vals)))
    return emit

]]
local PY_TAIL = [[

for pid, f in PROGRAMS:
    out = []
    try:
        f(make_emit(out))
    except Exception as e:
        out = ["!error\t%s: %s" % (type(e).__name__, str(e).replace("\n", " ").replace("\t", " "))]
    print("@%d" % pid)
    for line in out:
        print(line)
sys.stdout.flush()
]]


--- NumPy's results of every program: {[id] = result list}, or nil and why
-- (python or numpy missing). The script goes to dir/programs.py.
function sides.numpy(programs, python, dir)
  local pyfile = dir .. "/programs.py"
  local f = assert(io.open(pyfile, "w"))
  f:write(PY_HEAD)
  local list = {}
  for _, p in ipairs(programs) do
    f:write(p.py, "\n")
    list[#list + 1] = ("(%d, p%d)"):format(p.id, p.id)
  end
  f:write("PROGRAMS = [", table.concat(list, ", "), "]\n", PY_TAIL)
  f:close()
  local pipe = assert(io.popen(("%s '%s' 2>/dev/null"):format(python, pyfile)))
  local blocks = compare.parse_blocks(pipe:read("a"))
  local ok, _, code = pipe:close()
  if not ok then return nil, ("%s %s failed (exit %s): is numpy installed?"):format(python, pyfile, tostring(code)) end
  return blocks
end

--- gpuarray's results of program p in this state (ga: the module)
function sides.gpuarray(ga, p)
  local out = {}
  -- the chunk is named by its own text (Lua's default for a string), so that
  -- ga.vectorize's jit can read a function's source back from it
  local chunk, err = load(p.lua)
  if not chunk then return { { error = "load: " .. err } } end
  local ok, e = pcall(function()
    chunk()(ga, function(name, v) out[#out + 1] = compare.lua_entry(name, v) end)
  end)
  if not ok then return { { error = tostring(e) } } end
  return out
end

return sides
