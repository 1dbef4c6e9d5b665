--- ga.scipy.special (API.md §15): cupyx.scipy.special's functions. The
-- special functions are ufuncs of the elementwise engine (defs.lua: the
-- definitions; kernels/special/: their device functions), so they
-- broadcast, take out= and dtype=, and ga.fuse traces them; logsumexp,
-- softmax and log_softmax are row reductions (reductions.lua); the rest
-- are compositions (functions.lua).
return function(ga)
  local api = require "gpuarray.api"
  local internal = require "gpuarray.internal"
  local core = ga._core
  local special = {}

  -- the headers each header needs (kernels/special/sf_*.cuh), in order
  local DEPS = {
    sf_base = {}, sf_gamma = { "sf_base" }, sf_bessel = { "sf_base" }, sf_besjy = { "sf_base" },
    sf_besselv = { "sf_base" }, sf_erf = { "sf_base" },
    sf_elem = { "sf_base" }, sf_igam = { "sf_gamma", "sf_erf" },
    sf_incbet = { "sf_gamma", "sf_erf" }, sf_zeta = { "sf_gamma" }, sf_ellip = { "sf_base" },
    sf_expint = { "sf_base" }, sf_orth = { "sf_gamma" }, sf_misc = { "sf_gamma" },
  }
  local texts = {}
  --- the texts of the headers list needs, in order
  local function headers(list)
    local seen, parts = {}, {}
    local function add(h)
      if seen[h] then return end
      seen[h] = true
      for _, d in ipairs(DEPS[h] or error("scipy.special: no header " .. h)) do add(d) end
      texts[h] = texts[h] or core.compile.kernel_source(h)
      parts[#parts + 1] = texts[h]
    end
    for _, h in ipairs(list) do add(h) end
    return parts
  end

  local function declaration(d, names)
    local params = {}
    for i, n in ipairs(names) do params[i] = n .. ": array_like" end
    local ret = d.nout and ("ndarray" .. (", ndarray"):rep(d.nout - 1)) or "ndarray"
    return ("scipy.special.%s(%s, out: ndarray|list?, *, dtype: dtype?) -> %s\n%s\n" ..
            "A ufunc: broadcasts its inputs, float32 and float64 loops (integers and float16 take the first " ..
            "they cast to safely), out= and dtype= as NumPy's ufuncs.\n"):format(
      d[1]:gsub("^_", ""), table.concat(params, ", "), ret, d.doc)
  end

  --- a ufunc from a definition of defs.lua
  local function make(d)
    local names = {}
    for i = 2, #d do names[#names + 1] = d[i] end
    local nin = #names
    local args = {}
    for k = 1, nin do args[k] = "in" .. (k - 1) end
    local name = d[1]
    local public = name:gsub("^_", "")
    local loops = d.loops
    if not loops then
      local outs = ("f"):rep(d.nout or 1)
      loops = { ("f"):rep(nin) .. "->" .. outs, ("d"):rep(nin) .. "->" .. outs:gsub("f", "d") }
    end
    local parts = headers(type(d.h) == "table" and d.h or { d.h })
    local def = {
      name = name:gsub("^_", "sp_"), fname = "scipy.special." .. public, nin = nin, nout = d.nout or 1,
      loops = loops, op = d.op or ("out0 = sf_%s(%s)"):format(public, table.concat(args, ", ")),
      types = d.loops and "the loops " .. table.concat(loops, " ") or "floating point numbers",
      preamble = table.concat(parts, "\n"),
      preamble_parts = parts,   -- fuse puts each header in once
    }
    local decl = name:sub(1, 1) ~= "_" and api.declare(declaration(d, names)) or nil
    def.decl = decl
    local u = core.elementwise.ufunc(def)
    if decl then api.attach(decl, u) end
    internal.ufunc_def_of[u] = def
    return u, def
  end

  local defs = {}
  for _, d in ipairs(require "gpuarray.scipy.special.defs") do
    local u, def = make(d)
    special[d[1]] = u
    defs[#defs + 1] = def
  end
  special._defs = defs
  special.psi = special.digamma
  api.alias("scipy.special.psi", special.digamma)

  require("gpuarray.scipy.special.functions")(ga, special)
  require("gpuarray.scipy.special.reductions")(ga, special)
  return special
end
