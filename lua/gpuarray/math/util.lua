--- What the math room's files share: 1-based axis checks, slices along
-- one axis, NumPy's same_kind casting between dtype names.
local internal = require "gpuarray.internal"

local U = {}

--- The 1-based axis a names in an nd-dimensional array (negative from the end)
function U.axis(nd, a, fname)
  if math.type(a) ~= "integer" then
    internal.fail(("%s: axis must be an integer, got %s"):format(fname, tostring(a)))
  end
  if a == 0 or a > nd or a < -nd then
    internal.fail(("%s: axis %d is out of range for an array of %d dimension%s"):format(fname, a, nd,
                                                                                       nd == 1 and "" or "s"))
  end
  return a > 0 and a or nd + a + 1
end

--- The view of x with axis a restricted to positions lo..hi (1-based, inclusive)
function U.slice(x, a, lo, hi)
  local sel = {}
  for d = 1, x.ndim do sel[d] = {} end
  sel[a] = { lo, hi }
  return x[sel]
end

-- NumPy's same_kind casting between dtype names: safe, or toward a kind at
-- least as general (bool < unsigned < signed < float < complex)
local KIND_RANK = { b = 0, u = 1, i = 2, f = 3, c = 4 }
local function kind(dt)
  if dt == "bool" then return "b" end
  return dt:match("^uint") and "u" or dt:match("^int") and "i" or dt:match("^float") and "f" or "c"
end
function U.same_kind(ga, from, to)
  return ga.result_type(from, to) == to or KIND_RANK[kind(from)] <= KIND_RANK[kind(to)]
end

function U.inexact(dt) return dt:match("^float") ~= nil or dt:match("^complex") ~= nil end

return U
