--- The source of a pending expression (src/elementwise/lazy_eval.c asks
-- once per structure): the recorder's description becomes nodes of the
-- shape fuse's tracer makes (fuse/trace.lua), and fuse's code generator
-- (fuse/codegen.lua) writes the kernel body: the same statements as the
-- eager loops, the same rounding rule, one generator for both.
--
-- desc = {params = {dtype names: the leaves (arrays), then the scalars},
--         nleaves = n,
--         nodes = {{kind = "ufunc"|"cast"|"where"|"clip", dtype =, args = {refs},
--                   ufunc =, name =, op =, sig =, nout =, pick =}, ...}}
-- A ref k > 0 is node k, -p parameter p, 0 a missing operand (clip's bound).
-- The last node is the value. Returns the operation (statements assigning
-- o0, over parameters a1, a2, ...) and the preamble.
local codegen = require "gpuarray.fuse.codegen"
local internal = require "gpuarray.internal"

local CHARS = internal.CHARS

return function(desc)
  local params, nodes = {}, {}
  for p, dt in ipairs(desc.params) do
    params[p] = { kind = "arg", index = p, dtype = dt, array = p <= desc.nleaves, deps = {}, stage = "map",
                  ndim = 0, id = p }
  end
  local function ref(r)
    if r > 0 then return nodes[r] end
    if r < 0 then return params[-r] end
    return false
  end
  local base = #desc.params
  for i, d in ipairs(desc.nodes) do
    local n = { kind = d.kind, dtype = d.dtype, id = base + i, deps = {}, stage = "map", ndim = 0, args = {} }
    for k, r in ipairs(d.args) do n.args[k] = ref(r) end
    if d.kind == "ufunc" then
      local def = internal.ufunc_def_of[d.ufunc]
      n.name, n.sig, n.op, n.nout, n.pick = d.name, d.sig, d.op, d.nout, d.pick
      n.intypes = {}
      for k = 1, #n.args do n.intypes[k] = CHARS[d.sig:sub(k, k)] end
      if def then n.preamble = def.preamble_parts or def.preamble and { def.preamble } end
    elseif d.kind == "clip" then
      n.clamps = {}   -- the bounds were converted to the result dtype before recording
    end
    nodes[i] = n
  end
  local plan = codegen.plan({}, { nodes[#nodes] })
  return plan.operation, plan.preamble
end
