--- Shared by the scipy.special specs: the reference values (refs.lua,
-- from tools/special/gen_refs.py) and an ulp comparison.
local M = {}

M.refs = dofile("spec/scipy/special/refs.lua")

--- The error of got against want in units of want's last place (mantissa
-- bits: 52 or 23); 0 within atol, or when both are NaN or the same infinity;
-- logk: divided by 1 + logk |log want| / 64 (results far in a tail, whose
-- exponent's rounding costs that many ulps; tools/special/points.py)
function M.ulps(got, want, bits, atol, logk)
  if got ~= got and want ~= want then return 0 end
  if got == want then return 0 end
  if got ~= got or want ~= want or math.abs(want) == math.huge or math.abs(got) == math.huge then
    return math.huge
  end
  local d = math.abs(got - want)
  if d <= (atol or 0) then return 0 end
  if want == 0 then return math.huge end
  local e = math.floor(math.log(math.abs(want), 2))
  local lo = bits == 23 and -149 or -1074
  local ulp = 2.0 ^ math.max(e - bits, lo)
  return d / ulp / (1 + (logk or 0) * math.abs(math.log(math.abs(want))) / 64)
end

--- Compare lists; returns nil, or a message naming the worst point
function M.check(name, args, got, want, tol, bits, atol, logk)
  local worst, wi = 0, nil
  for i = 1, #want do
    local e = M.ulps(got[i], want[i], bits, atol, logk)
    if e > worst then worst, wi = e, i end
  end
  if worst <= tol then return nil end
  local a = {}
  for _, v in ipairs(args[wi]) do a[#a + 1] = ("%.17g"):format(v) end
  return ("%s(%s): got %.17g, want %.17g (%.3g ulps, tolerance %g)"):format(name, table.concat(a, ", "),
    got[wi], want[wi], worst, tol)
end

return M
