--- The built-in reductions (docs/api.md §6), defined as data on the reduction
-- engine (src/reduction/): each is a map, a reduce and a post-map
-- expression in CUDA, an identity, and per input dtype the reduce (C) type
-- and the result dtype, following NumPy. core.reduction.builtin turns a
-- definition into one C function that is both ga.NAME(x[, opts]) and the
-- method x:NAME([axis][, opts]); options: axis (integer or list, 1-based,
-- negative from the end), keepdims, dtype (where NumPy takes one), out,
-- ddof (var, std). A reduction over every axis gives a 0-d array.
--
-- The CUDA helpers the expressions call (ga_r_max, ga_arg_combine,
-- ga_welford_*, ...) live in kernels/reduction/reduction.cuh.
local api = require "gpuarray.api"

return function(ga)
  local core = ga._core
  local methods = ga.methods

  local internal = require "gpuarray.internal"
  local CTYPE, SIZE, KIND, COMPUTE = internal.CTYPE, internal.SIZE, internal.KIND, internal.COMPUTE   -- C's dtype table
  local REAL = { complex64 = "float32", complex128 = "float64" }
  local DTYPES = {}
  for _, d in ipairs(internal.dtypes) do DTYPES[#DTYPES + 1] = d.name end

  -- An entry of a types table: reduce in dtype acc (size known), result out
  local function plain(acc, out)
    return { CTYPE[acc], out, SIZE[acc] }
  end

  -- NumPy's sum/prod: small integers accumulate in int64 / uint64, float16
  -- and bfloat16 in float32 (the result keeps their dtype)
  -- with dtype=D: the reduction runs in D (float16, bfloat16 in float32), result D
  local function as_dtype(D)
    return plain(COMPUTE[D], D)
  end
  local function sum_types(dt)
    local k = KIND[dt]
    if k == "b" or k == "i" then return plain("int64", "int64") end
    if k == "u" then return plain("uint64", "uint64") end
    return as_dtype(dt)
  end
  local function mean_types(dt)
    local k = KIND[dt]
    if k == "b" or k == "i" or k == "u" then return plain("float64", "float64") end
    return as_dtype(dt)
  end
  local function mean_dtypes(D)
    local k = KIND[D]
    if k == "f" or k == "c" then return as_dtype(D) end
    return nil
  end
  -- var/std: Welford state in the value type, result in the real type
  local function welford(value_ct, real_ct, out)
    return { ("ga_welford<%s, %s>"):format(value_ct, real_ct), out, 0 }
  end
  local function var_types(dt)
    local k = KIND[dt]
    if k == "b" or k == "i" or k == "u" then return welford("double", "double", "float64") end
    if COMPUTE[dt] ~= dt then return welford("float", "float", dt) end   -- float16, bfloat16
    if k == "c" then return welford(CTYPE[dt], CTYPE[REAL[dt]], REAL[dt]) end
    return welford(CTYPE[dt], CTYPE[dt], dt)
  end
  local function var_dtypes(D)
    local k = KIND[D]
    if k == "f" or k == "c" then return var_types(D) end
    return nil
  end
  local function same_types(dt) return plain(dt, dt) end

  local function table_of(f, only)
    if not f then return nil end
    local t = {}
    for _, dt in ipairs(DTYPES) do
      if not only or only(dt) then t[dt] = f(dt) end
    end
    return t
  end

  local CAST_MAP = "ga_cast<_type_reduce>(in0)"
  local CAST_POST = "out0 = ga_cast<type_out0_raw>(a)"
  local NO_IDENTITY = "zero-size array to reduction operation %s which has no identity"

  local DEFS = {
    sum = { map = CAST_MAP, reduce = "ga_r_add(a, b)", post = CAST_POST, identity = "0",
            types = sum_types, dtypes = as_dtype },
    prod = { map = CAST_MAP, reduce = "ga_r_mul(a, b)", post = CAST_POST, identity = "1",
             types = sum_types, dtypes = as_dtype },
    nansum = { map = "ga_r_isnan(in0) ? _type_reduce(0) : ga_cast<_type_reduce>(in0)",
               reduce = "ga_r_add(a, b)", post = CAST_POST, identity = "0",
               types = sum_types, dtypes = as_dtype },
    nanprod = { map = "ga_r_isnan(in0) ? _type_reduce(1) : ga_cast<_type_reduce>(in0)",
                reduce = "ga_r_mul(a, b)", post = CAST_POST, identity = "1",
                types = sum_types, dtypes = as_dtype },
    mean = { map = CAST_MAP, reduce = "ga_r_add(a, b)",
             post = "out0 = ga_cast<type_out0_raw>(ga_r_div_n(a, _red_size))", identity = "0",
             types = mean_types, dtypes = mean_dtypes },
    var = { map = "ga_welford_from<_type_reduce>(in0)", reduce = "ga_welford_combine(a, b)",
            post = "out0 = ga_cast<type_out0_raw>(ga_welford_var(a, _ddof))",
            identity = "ga_welford_empty<_type_reduce>()", types = var_types, dtypes = var_dtypes,
            ddof = true },
    std = { map = "ga_welford_from<_type_reduce>(in0)", reduce = "ga_welford_combine(a, b)",
            post = "out0 = ga_cast<type_out0_raw>(ga_r_sqrt(ga_welford_var(a, _ddof)))",
            identity = "ga_welford_empty<_type_reduce>()", types = var_types, dtypes = var_dtypes,
            ddof = true },
    max = { map = CAST_MAP, reduce = "ga_r_max(a, b)", post = CAST_POST,
            identity = "ga_r_limits<_type_reduce>::lowest()", types = same_types,
            empty = NO_IDENTITY:format("maximum") },
    min = { map = CAST_MAP, reduce = "ga_r_min(a, b)", post = CAST_POST,
            identity = "ga_r_limits<_type_reduce>::highest()", types = same_types,
            empty = NO_IDENTITY:format("minimum") },
    nanmax = { map = CAST_MAP, reduce = "ga_r_nanmax(a, b)", post = CAST_POST,
               identity = "ga_r_nanmax_identity<_type_reduce>()", types = same_types,
               empty = NO_IDENTITY:format("fmax") },
    nanmin = { map = CAST_MAP, reduce = "ga_r_nanmin(a, b)", post = CAST_POST,
               identity = "ga_r_nanmin_identity<_type_reduce>()", types = same_types,
               empty = NO_IDENTITY:format("fmin") },
    ptp = { map = "ga_minmax_make(in0, in0)", reduce = "ga_minmax_combine(a, b)",
            post = "out0 = ga_cast<type_out0_raw>(ga_r_sub(a.hi, a.lo))",
            identity = "ga_minmax_make(ga_r_limits<type_in0_raw>::highest(), "
              .. "ga_r_limits<type_in0_raw>::lowest())",
            types = function(dt) return { ("ga_minmax<%s>"):format(CTYPE[dt]), dt, 0 } end,
            only = function(dt) return dt ~= "bool" end,
            empty = NO_IDENTITY:format("maximum") },
    argmax = { map = "ga_arg_make(in0, _j)", reduce = "ga_arg_combine<true>(a, b)",
               later = "ga_arg_later<true>(a, b)",
               post = "out0 = ga_cast<type_out0_raw>(a.i + 1)",
               identity = "ga_arg_none<type_in0_raw>()",
               types = function(dt) return { ("ga_arg<%s>"):format(CTYPE[dt]), "int64", 0 } end,
               index = true, single_axis = true, empty = "attempt to get argmax of an empty sequence" },
    argmin = { map = "ga_arg_make(in0, _j)", reduce = "ga_arg_combine<false>(a, b)",
               later = "ga_arg_later<false>(a, b)",
               post = "out0 = ga_cast<type_out0_raw>(a.i + 1)",
               identity = "ga_arg_none<type_in0_raw>()",
               types = function(dt) return { ("ga_arg<%s>"):format(CTYPE[dt]), "int64", 0 } end,
               index = true, single_axis = true, empty = "attempt to get argmin of an empty sequence" },
    all = { map = "ga_cast<bool>(in0)", reduce = "a && b", post = "out0 = ga_cast<type_out0_raw>(a)",
            identity = "true", types = function() return plain("bool", "bool") end },
    any = { map = "ga_cast<bool>(in0)", reduce = "a || b", post = "out0 = ga_cast<type_out0_raw>(a)",
            identity = "false", types = function() return plain("bool", "bool") end },
    count_nonzero = { map = "(long long)ga_cast<bool>(in0)", reduce = "a + b",
                      post = "out0 = ga_cast<type_out0_raw>(a)", identity = "0",
                      types = function() return plain("int64", "int64") end },
  }

  -- The declarations (API.md §0), in NumPy's parameter order. x:sum() and
  -- x:sum(axis) never meet the binder (the C fast path); any other call is
  -- bound by these.
  local AXES = "axis: axes?"
  local KEEP = "keepdims: boolean = false"
  local DECLS = {
    sum = { "a: ndarray, %s, dtype: dtype?, out: ndarray?, %s",
            "Sum of the elements over the given axes (1-based; all by default)." },
    prod = { "a: ndarray, %s, dtype: dtype?, out: ndarray?, %s", "Product of the elements over the given axes." },
    nansum = { "a: ndarray, %s, dtype: dtype?, out: ndarray?, %s", "Sum treating NaN as zero." },
    nanprod = { "a: ndarray, %s, dtype: dtype?, out: ndarray?, %s", "Product treating NaN as one." },
    mean = { "a: ndarray, %s, dtype: dtype?, out: ndarray?, %s", "Arithmetic mean (integers in float64)." },
    var = { "a: ndarray, %s, dtype: dtype?, out: ndarray?, ddof: number = 0, %s",
            "Variance (Welford's algorithm); ddof: delta degrees of freedom." },
    std = { "a: ndarray, %s, dtype: dtype?, out: ndarray?, ddof: number = 0, %s",
            "Standard deviation; ddof: delta degrees of freedom." },
    max = { "a: ndarray, %s, out: ndarray?, %s", "Maximum (NaN propagates); raises on an empty reduction." },
    min = { "a: ndarray, %s, out: ndarray?, %s", "Minimum (NaN propagates); raises on an empty reduction." },
    nanmax = { "a: ndarray, %s, out: ndarray?, %s", "Maximum ignoring NaN (NaN where every value is NaN)." },
    nanmin = { "a: ndarray, %s, out: ndarray?, %s", "Minimum ignoring NaN (NaN where every value is NaN)." },
    ptp = { "a: ndarray, %s, out: ndarray?, %s", "Range of values (maximum - minimum)." },
    argmax = { "a: ndarray, axis: axis?, out: ndarray?, *, %s",
               "1-based position of the maximum (of the flattened array without axis); the first one on ties." },
    argmin = { "a: ndarray, axis: axis?, out: ndarray?, *, %s",
               "1-based position of the minimum (of the flattened array without axis); the first one on ties." },
    all = { "a: ndarray, %s, out: ndarray?, %s", "Whether every element is nonzero." },
    any = { "a: ndarray, %s, out: ndarray?, %s", "Whether any element is nonzero." },
    count_nonzero = { "a: ndarray, %s, *, %s", "Count of the nonzero elements (int64)." },
  }
  local function declaration(name)
    local d = assert(DECLS[name], name)
    local params = name:match("^arg") and d[1]:format(KEEP) or d[1]:format(AXES, KEEP)
    return api.declare(("%s(%s) -> ndarray\n%s\n"):format(name, params, d[2]))
  end

  local names = {}
  for name in pairs(DEFS) do names[#names + 1] = name end
  table.sort(names)
  local defs = {}
  for _, name in ipairs(names) do
    local d = DEFS[name]
    local decl = declaration(name)
    local f = core.reduction.builtin {
      name = name, kname = "ga_red_" .. name,
      map = d.map, reduce = d.reduce, later = d.later, post = d.post, identity = d.identity,
      types = table_of(d.types, d.only), dtypes = table_of(d.dtypes),
      empty = d.empty, single_axis = d.single_axis, ddof = d.ddof, index = d.index, decl = decl,
    }
    api.attach(decl, f)
    ga[name] = f
    methods[name] = f
    api.alias("ndarray:" .. name, f)
    defs[name] = f
  end
  ga.amax, ga.amin = ga.max, ga.min
  methods.amax, methods.amin = ga.max, ga.min
  api.alias("amax", ga.max)
  api.alias("amin", ga.min)
  require("gpuarray.internal").reductions = defs         -- for the codegen specs

  -- the scans: cumsum and cumprod (src/engine/scan.c, the look-back tiles)
  for op, name in ipairs { "cumsum", "cumprod" } do
    local what = name == "cumsum" and "sum" or "product"
    local decl = api.declare(([[
%s(a: ndarray, axis: axis?, dtype: dtype?, out: ndarray?) -> ndarray
Cumulative %s along axis (1-based), or over the flattened array (C order)
without one. Small integers accumulate in int64/uint64, float16 and
bfloat16 in float32 (as NumPy's float16).
]]):format(name, what))
    local f = core.scan.fn { name = name, op = op - 1, decl = decl }
    api.attach(decl, f)
    ga[name] = f
    methods[name] = f
    api.alias("ndarray:" .. name, f)
  end
end
