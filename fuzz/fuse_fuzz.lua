--- ga.fuse's tracer and code generator (no GPU): a random function over
-- one to three arguments, made of every traceable ufunc (by name, from the
-- ufunc definitions), the operators, comparisons, ga.where, ga.clip, astype
-- and Lua numbers, now and then ending in a reduction (sum prod min max all
-- any mean, with an axis and keepdims) or returning two results; traced
-- with random argument descriptions ({dtype =, ndim =} for arrays, a dtype
-- name for a typed scalar, Lua numbers and booleans). Tracing must succeed
-- or raise a "gpuarray: " error. One plan in COMPILE_EVERY is made into its
-- ElementwiseKernel or ReductionKernel and compiled by NVRTC: CUDA that
-- NVRTC rejects is a finding (fuse emitted what it cannot express).
local internal = require("gpuarray.internal")

local COMPILE_EVERY = 25

local DTYPES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                 "float32", "float64", "complex64", "complex128" }
local CONSTS = { "2", "0.5", "3", "1.25", "-1", "0", "1e300", "(0/0)", "255", "-129", "70000", "(1 << 40)",
                 "math.huge", "math.maxinteger", "true", "false" }
local OPERATORS = { "+", "-", "*", "/", "//", "%", "^", "&", "|", "~", "<<", ">>" }
local METHODS = { "lt", "le", "gt", "ge", "eq", "ne" }
local REDUCTIONS = { "sum", "prod", "min", "max", "amin", "amax", "all", "any", "mean" }

local unary, binary

local function gen_expr(F, leaves, depth)
  if depth == 0 or F.chance(0.2) then
    return F.chance(0.75) and F.pick(leaves) or F.pick(CONSTS)
  end
  local sub = function() return gen_expr(F, leaves, depth - 1) end
  local r = math.random(20)
  if r <= 6 then return ("ga.%s(%s)"):format(F.pick(unary), sub()) end
  if r <= 10 then return ("ga.%s(%s, %s)"):format(F.pick(binary), sub(), sub()) end
  if r <= 14 then return ("(%s %s %s)"):format(sub(), F.pick(OPERATORS), sub()) end
  if r == 15 then return ("(- %s)"):format(sub()) end
  if r == 16 then return ("(%s):%s(%s)"):format(F.pick(leaves), F.pick(METHODS), sub()) end
  if r == 17 then return ("ga.where((%s):%s(%s), %s, %s)"):format(sub(), F.pick(METHODS), sub(), sub(), sub()) end
  if r == 18 then
    return ("ga.clip(%s, %s, %s)"):format(sub(), F.pick { "-1", "0", "nil", "2.5", "300" },
      F.pick { "1", "nil", "100", "0.5", "-3" })
  end
  if r == 19 then return ("(%s):astype(%q)"):format(sub(), F.pick(DTYPES)) end
  return ("(~%s)"):format(sub())
end

local function gen_reduction(F, e)
  local name = F.pick(REDUCTIONS)
  local opts = {}
  if F.chance(0.6) then
    local axis = F.chance(0.8) and tostring(math.random(-3, 3)) or "{ 1, 2 }"
    opts[#opts + 1] = "axis = " .. axis
  end
  if F.chance(0.3) then opts[#opts + 1] = "keepdims = " .. tostring(F.chance(0.5)) end
  local o = #opts > 0 and ("{ " .. table.concat(opts, ", ") .. " }") or nil
  if F.chance(0.5) then return ("ga.%s(%s%s)"):format(name, e, o and ", " .. o or "") end
  return ("(%s):%s(%s)"):format(e, name, o or "")
end

--- an argument description for f:_trace
local function arg_desc(F)
  local r = math.random(10)
  if r <= 6 then return { dtype = F.pick(DTYPES), ndim = math.random(0, 3) } end
  if r <= 7 then return F.pick(DTYPES) end
  if r <= 9 then return F.chance(0.5) and math.random(-300, 300) or (math.random() - 0.5) * 8 end
  return F.chance(0.5)
end

return {
  name = "fuse",
  setup = function(F)
    unary, binary = {}, {}
    for _, d in ipairs(internal.ufunc_defs) do
      if d.nin == 1 then unary[#unary + 1] = d.name elseif d.nin == 2 then binary[#binary + 1] = d.name end
    end
    return { traced = 0, ga = F.ga }
  end,
  gen = function(F)
    local n = math.random(1, 3)
    local leaves = {}
    for k = 1, n do leaves[k] = "a" .. k end
    local results = { gen_expr(F, leaves, math.random(1, 4)) }
    if F.chance(0.25) then
      results[1] = gen_reduction(F, results[1])
    elseif F.chance(0.15) then
      results[2] = gen_expr(F, leaves, math.random(1, 3))
    end
    local src = ("return function(%s) return %s end"):format(table.concat(leaves, ", "), table.concat(results, ", "))
    local args = { n = n }
    for k = 1, n do args[k] = arg_desc(F) end
    return { src = src, args = args }
  end,
  run = function(t, F)
    local ga = F.ga
    local fn = assert(load(t.src, "=fuse", "t", { ga = ga, math = math }))()
    local tok, plan = pcall(ga.fuse(fn, { name = "fz" })._trace, ga.fuse(fn, { name = "fz" }),
                            table.unpack(t.args, 1, t.args.n))
    if not tok then
      -- the function's own Lua errors (chunk "fuse") come back unchanged: the user's, not ours
      if type(plan) == "string" and plan:find("^fuse:%d+:") then error(F.USER_ERROR, 0) end
      error(plan, 0)
    end
    F.state.traced = F.state.traced + 1
    if F.state.traced % COMPILE_EVERY ~= 0 then return end
    local dts = {}
    for dt in (plan.in_params .. ", " .. plan.out_params):gmatch("(%w+) [%w_]+") do dts[#dts + 1] = dt end
    local ok, err = pcall(function()
      local k
      if plan.kind == "elementwise" then
        k = ga.ElementwiseKernel(plan.in_params, plan.out_params, plan.operation, "fz",
                                 plan.preamble ~= "" and { preamble = plan.preamble } or nil)
      else
        k = ga.ReductionKernel(plan.in_params, plan.out_params, plan.map, plan.reduce, plan.post, plan.identity,
                               "fz", { reduce_type = plan.reduce_type, preamble = plan.preamble })
      end
      return k:compile(table.unpack(dts))
    end)
    if not ok then
      error("fuzz: NVRTC rejects what fuse emitted: " .. tostring(err):gsub("\n", " "):sub(1, 400), 0)
    end
  end,
}
