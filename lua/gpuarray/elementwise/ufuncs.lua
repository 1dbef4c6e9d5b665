--- The built-in ufuncs, as data. Each definition gives the name, the
-- number of inputs, the loops as NumPy-style signatures ("ff->f": two
-- float32 inputs, a float32 output; type chars ? b h i l B H I L e f d F D
-- for bool, int8..int64, uint8..uint64, float16/32/64, complex64/128, and
-- E for bfloat16, which NumPy lacks: ml_dtypes' char for it) and
-- the CUDA expression over in0, in1 and out0. `ops` overrides the
-- expression for loops whose first input is one of the given type chars.
-- The C side (src/elementwise/ufunc.c) turns each into an object that compiles its
-- loops through the elementwise engine on first use, one kernel per loop,
-- operand dtypes and layout class.
--
-- A call promotes its inputs (Lua numbers are weak scalars) and takes the
-- first loop the promoted dtype casts to safely, so the order of the loops
-- matters: narrow before wide, as in NumPy. A loop taking exactly the
-- promoted dtype is taken first (NumPy 2's dispatch): bfloat16's loops come
-- after float64's, so that integers still find float16/32/64 first (under
-- JAX's promotion every integer casts to bfloat16), and bfloat16 finds its
-- own. float16 and bfloat16 loops compute in float32 and round once; the
-- helpers (ga_floor_divide, ga_maximum, ...) live in
-- kernels/common/math.cuh. Each ufunc is declared (API.md §0) with its
-- one-line doc from ufunc_docs.lua; its methods (reduce, accumulate,
-- reduceat, outer, at) come from lua/gpuarray/math/ufunc_methods.lua.
return function(ga)
  local core = ga._core

  local INTS = "bBhHiIlL"
  local FLOATS = "efdE"
  local COMPLEX = "FD"
  local REAL = "?" .. INTS .. FLOATS
  local ALL = REAL .. COMPLEX

  --- Loops taking and giving the same type, one per type char.
  local function same(chars, nin)
    local loops = {}
    for c in chars:gmatch(".") do loops[#loops + 1] = c:rep(nin) .. "->" .. c end
    return loops
  end

  --- Loops giving `out` for each input type char.
  local function to(chars, out, nin)
    local loops = {}
    for c in chars:gmatch(".") do loops[#loops + 1] = c:rep(nin) .. "->" .. out end
    return loops
  end

  local function cat(...)
    local r = {}
    for _, t in ipairs({ ... }) do
      for _, v in ipairs(t) do r[#r + 1] = v end
    end
    return r
  end

  --- complex inputs, real outputs of the component type (abs, real, imag, angle)
  local function cplx_to_real(nin)
    return { ("F"):rep(nin) .. "->f", ("D"):rep(nin) .. "->d" }
  end

  local defs = {}
  local function def(d)
    defs[#defs + 1] = d
  end

  -------------------------------------------------------------------------
  -- unary
  local NUM = "numbers"
  local FLT = "floating point and complex numbers"
  def { name = "negative", nin = 1, loops = same(INTS .. FLOATS .. COMPLEX, 1), op = "out0 = ga_negative(in0)",
        types = NUM, bool_error = "the boolean negative is not supported: use logical_not" }
  def { name = "positive", nin = 1, loops = same(INTS .. FLOATS .. COMPLEX, 1), op = "out0 = in0", types = NUM }
  def { name = "abs", nin = 1, loops = cat(same(REAL, 1), cplx_to_real(1)), op = "out0 = ga_abs(in0)",
        types = NUM }
  def { name = "sign", nin = 1, loops = same(INTS .. FLOATS .. COMPLEX, 1), op = "out0 = ga_sign(in0)",
        types = NUM }
  def { name = "square", nin = 1, loops = same(INTS .. FLOATS .. COMPLEX, 1), op = "out0 = in0 * in0",
        types = NUM }
  def { name = "reciprocal", nin = 1, loops = same(INTS .. FLOATS .. COMPLEX, 1), op = "out0 = ga_reciprocal(in0)",
        types = NUM }
  -- NumPy has no boolean conj: a bool takes the int8 loop
  def { name = "conj", nin = 1, loops = same(INTS .. FLOATS .. COMPLEX, 1), op = "out0 = ga_conj(in0)", types = NUM }
  def { name = "real", nin = 1, loops = cat(same(REAL, 1), cplx_to_real(1)), op = "out0 = ga_real(in0)",
        types = NUM }
  def { name = "imag", nin = 1, loops = cat(same(REAL, 1), cplx_to_real(1)), op = "out0 = ga_imag(in0)",
        types = NUM }
  def { name = "angle", nin = 1, loops = cat(same(FLOATS, 1), cplx_to_real(1)), op = "out0 = ga_angle(in0)",
        types = FLT }

  -- functions of floating point and complex numbers: out0 = ga_<name>(in0)
  for _, name in ipairs { "sqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
                          "sin", "cos", "tan", "arcsin", "arccos", "arctan",
                          "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh" } do
    def { name = name, nin = 1, loops = same(FLOATS .. COMPLEX, 1), op = ("out0 = ga_%s(in0)"):format(name),
          types = FLT }
  end
  -- real only
  for _, name in ipairs { "cbrt", "deg2rad", "rad2deg", "rint" } do
    def { name = name, nin = 1, loops = same(FLOATS, 1), op = ("out0 = ga_%s(in0)"):format(name),
          types = "floating point numbers" }
  end
  -- booleans and integers keep their dtype (NumPy >= 2.1: no cast to float)
  for _, name in ipairs { "floor", "ceil", "trunc" } do
    def { name = name, nin = 1, loops = same("?" .. INTS .. FLOATS, 1), op = ("out0 = ga_%s(in0)"):format(name),
          ops = { ["?" .. INTS] = "out0 = in0" }, types = "real numbers" }
  end
  -- bool results
  for _, name in ipairs { "isnan", "isinf", "isfinite" } do
    def { name = name, nin = 1, loops = to(ALL, "?", 1), op = ("out0 = ga_%s(in0)"):format(name), types = NUM }
  end
  def { name = "signbit", nin = 1, loops = to(FLOATS, "?", 1), op = "out0 = ga_signbit(in0)",
        types = "floating point numbers" }
  def { name = "logical_not", nin = 1, loops = to(ALL, "?", 1), op = "out0 = !ga_nonzero(in0)", types = NUM }
  def { name = "invert", nin = 1, loops = same("?" .. INTS, 1), op = "out0 = ~in0", ops = { ["?"] = "out0 = !in0" },
        types = "integers and booleans" }

  -------------------------------------------------------------------------
  -- binary
  def { name = "add", nin = 2, loops = same(ALL, 2), op = "out0 = in0 + in1", types = NUM }
  def { name = "subtract", nin = 2, loops = same(INTS .. FLOATS .. COMPLEX, 2), op = "out0 = in0 - in1",
        types = NUM, bool_error = "the boolean subtract is not supported: use logical_xor" }
  def { name = "multiply", nin = 2, loops = same(ALL, 2), op = "out0 = in0 * in1", types = NUM }
  -- true division of integers gives float64, as NumPy's
  def { name = "divide", nin = 2, loops = cat(to("?" .. INTS, "d", 2), same(FLOATS .. COMPLEX, 2)),
        op = "out0 = in0 / in1", ops = { ["?" .. INTS] = "out0 = (double)in0 / (double)in1" }, types = NUM }
  def { name = "floor_divide", nin = 2, loops = same(INTS .. FLOATS, 2), op = "out0 = ga_floor_divide(in0, in1)",
        types = "integers and floating point numbers" }
  def { name = "remainder", nin = 2, loops = same(INTS .. FLOATS, 2), op = "out0 = ga_remainder(in0, in1)",
        types = "integers and floating point numbers" }
  def { name = "fmod", nin = 2, loops = same(INTS .. FLOATS, 2), op = "out0 = ga_fmod(in0, in1)",
        types = "integers and floating point numbers" }
  def { name = "power", nin = 2, loops = same(INTS .. FLOATS .. COMPLEX, 2), op = "out0 = ga_power(in0, in1)",
        types = NUM }
  -- complex numbers order lexicographically; maximum/minimum propagate NaN
  -- (a complex with a NaN part is NaN), fmax/fmin ignore it
  for _, name in ipairs { "maximum", "minimum", "fmax", "fmin" } do
    def { name = name, nin = 2, loops = same(ALL, 2), op = ("out0 = ga_%s(in0, in1)"):format(name),
          types = NUM }
  end
  for _, name in ipairs { "arctan2", "hypot", "copysign" } do
    def { name = name, nin = 2, loops = same(FLOATS, 2), op = ("out0 = ga_%s(in0, in1)"):format(name),
          types = "floating point numbers" }
  end
  def { name = "logical_and", nin = 2, loops = to(ALL, "?", 2), op = "out0 = ga_nonzero(in0) && ga_nonzero(in1)",
        types = NUM }
  def { name = "logical_or", nin = 2, loops = to(ALL, "?", 2), op = "out0 = ga_nonzero(in0) || ga_nonzero(in1)",
        types = NUM }
  def { name = "logical_xor", nin = 2, loops = to(ALL, "?", 2), op = "out0 = ga_nonzero(in0) != ga_nonzero(in1)",
        types = NUM }
  for name, sym in pairs { bitwise_and = "&", bitwise_or = "|", bitwise_xor = "^" } do
    def { name = name, nin = 2, loops = same("?" .. INTS, 2), op = ("out0 = in0 %s in1"):format(sym),
          types = "integers and booleans" }
  end
  def { name = "left_shift", nin = 2, loops = same(INTS, 2), op = "out0 = ga_left_shift(in0, in1)",
        types = "integers" }
  def { name = "right_shift", nin = 2, loops = same(INTS, 2), op = "out0 = ga_right_shift(in0, in1)",
        types = "integers" }
  -- comparisons (complex numbers order lexicographically, as in NumPy)
  def { name = "equal", nin = 2, loops = to(ALL, "?", 2), op = "out0 = in0 == in1", types = NUM }
  def { name = "not_equal", nin = 2, loops = to(ALL, "?", 2), op = "out0 = in0 != in1", types = NUM }
  def { name = "less", nin = 2, loops = to(ALL, "?", 2), op = "out0 = ga_lt(in0, in1)", types = NUM }
  def { name = "less_equal", nin = 2, loops = to(ALL, "?", 2), op = "out0 = ga_le(in0, in1)", types = NUM }
  def { name = "greater", nin = 2, loops = to(ALL, "?", 2), op = "out0 = ga_lt(in1, in0)", types = NUM }
  def { name = "greater_equal", nin = 2, loops = to(ALL, "?", 2), op = "out0 = ga_le(in1, in0)", types = NUM }

  -------------------------------------------------------------------------
  -- the rest of NumPy's math ufuncs (and CuPy's, where NumPy has a function:
  -- sinc, i0, fix; cupyx's rsqrt). Device helpers: kernels/common/math.cuh.
  def { name = "fabs", nin = 1, loops = same(FLOATS, 1), op = "out0 = ga_fabs(in0)",
        types = "floating point numbers" }
  -- NumPy 2: integers keep their dtype (fix = trunc)
  def { name = "fix", nin = 1, loops = same("?" .. INTS .. FLOATS, 1), op = "out0 = ga_trunc(in0)",
        ops = { ["?" .. INTS] = "out0 = in0" }, types = "real numbers" }
  -- NumPy's sinc and i0 compute integers in float64
  def { name = "sinc", nin = 1, loops = cat(to("?" .. INTS, "d", 1), same(FLOATS .. COMPLEX, 1)),
        op = "out0 = ga_sinc(in0)",
        ops = { ["?" .. INTS] = "out0 = ga_sinc((double)in0)", e = "out0 = ga_sinc_h(in0)" },
        types = NUM }
  def { name = "i0", nin = 1, loops = cat(to("?" .. INTS, "d", 1), same(FLOATS, 1)),
        op = "out0 = ga_i0(in0)", ops = { ["?" .. INTS] = "out0 = ga_i0((double)in0)" }, types = "real numbers" }
  def { name = "rsqrt", nin = 1, loops = same(FLOATS .. COMPLEX, 1), op = "out0 = ga_rsqrt(in0)", types = FLT }
  for _, name in ipairs { "logaddexp", "logaddexp2", "heaviside" } do
    def { name = name, nin = 2, loops = same(FLOATS, 2), op = ("out0 = ga_%s(in0, in1)"):format(name),
          types = "floating point numbers" }
  end
  -- float16 and bfloat16 step their own bits, not float32's
  def { name = "nextafter", nin = 2, loops = same(FLOATS, 2), op = "out0 = ga_nextafter(in0, in1)",
        ops = { e = "out0 = ga_nextafter_h(in0, in1)", E = "out0 = ga_nextafter_bf(in0, in1)" },
        types = "floating point numbers" }
  for _, name in ipairs { "gcd", "lcm" } do
    def { name = name, nin = 2, loops = same(INTS, 2), op = ("out0 = ga_%s(in0, in1)"):format(name),
          types = "integers" }
  end
  -- power in float64 or complex128 whatever the inputs
  def { name = "float_power", nin = 2, loops = { "dd->d", "DD->D" }, op = "out0 = ga_power(in0, in1)",
        types = NUM }

  -- the declarations (API.md §0): inputs by position as in NumPy, out by
  -- position or name, dtype by name; the C call checks an options table's
  -- keys against them and reads no table when none is given
  local api = require "gpuarray.api"
  local DOC = require "gpuarray.elementwise.ufunc_docs"
  local function declare(d)
    local ins = d.nin == 1 and "x: array_like" or "x1: array_like, x2: array_like"
    local doc = DOC[d.name] or error("ufuncs: no doc line for " .. d.name)
    return api.declare(("%s(%s, out: ndarray?, *, dtype: dtype?) -> ndarray\n%s\n"):format(d.name, ins, doc))
  end

  -- every ufunc's methods (reduce, accumulate, reduceat, outer, at)
  local um = require("gpuarray.math.ufunc_methods")(ga)
  local internal = require "gpuarray.internal"
  internal.ufunc_methods = um

  local ufuncs = {}
  for _, d in ipairs(defs) do
    local decl = declare(d)
    d.decl, d.methods = decl, um.proxy()
    local u = core.elementwise.ufunc(d)
    um.attach(d.methods, u)
    d.decl, d.methods = nil, nil   -- the ufunc keeps them; the definition stays plain data
    api.attach(decl, u)
    ga[d.name] = u
    ufuncs[#ufuncs + 1] = d.name
  end
  -- NumPy's other names
  for alias, name in pairs { absolute = "abs", conjugate = "conj", true_divide = "divide", mod = "remainder",
                             bitwise_not = "invert", asin = "arcsin", acos = "arccos", atan = "arctan",
                             atan2 = "arctan2", asinh = "arcsinh", acosh = "arccosh", atanh = "arctanh",
                             pow = "power", degrees = "rad2deg", radians = "deg2rad" } do
    ga[alias] = ga[name]
    api.alias(alias, ga[name])
  end
  internal.ufunc_defs = defs   -- for specs and tools
  internal.ufunc_names = ufuncs
  for _, d in ipairs(defs) do internal.ufunc_def_of[ga[d.name]] = d end

  -- the operators (+, -, ..., x:add_(y), x:lt(y)) were bound to their
  -- ufuncs as core.elementwise.ufunc made them (src/elementwise/operators.c)
end
