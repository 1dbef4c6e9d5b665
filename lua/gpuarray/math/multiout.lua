--- NumPy's ufuncs with two outputs (frexp, modf, divmod) and the one with
-- mixed input types (ldexp). The C ufunc maker makes ufuncs of one output
-- over uniform loops, so each output here is one hidden ufunc (its own
-- definition as data, the elementwise engine's kernels, NumPy's loops,
-- out=, dtype=, broadcasting, weak Lua numbers): frexp and modf are two
-- passes over x, divmod is floor_divide and remainder. ldexp's loops take
-- an int64 exponent; the Lua side picks the float loop NumPy's linear
-- search would (the first float dtype x1 casts to safely).
local api = require "gpuarray.api"
local internal = require "gpuarray.internal"

return function(ga)
  local core = ga._core
  local fail = internal.fail
  local is_array = internal.is_array

  local FLOATS = { "e", "f", "d" }
  local function loops(outc)
    local t = {}
    for i, c in ipairs(FLOATS) do t[i] = c .. "->" .. (outc or c) end
    return t
  end
  local hidden = {
    frexp_mantissa = core.elementwise.ufunc { name = "frexp", nin = 1, loops = loops(),
                                   op = "{ int e_; out0 = ga_frexp(in0, &e_); }", types = "real numbers" },
    frexp_exponent = core.elementwise.ufunc { name = "frexp", nin = 1, loops = loops("i"),
                                   op = "{ int e_; ga_frexp(in0, &e_); out0 = e_; }", types = "real numbers" },
    modf_fraction = core.elementwise.ufunc { name = "modf", nin = 1, loops = loops(),
                                  op = "{ auto i_ = in0; out0 = ga_modf(in0, &i_); }", types = "real numbers" },
    modf_integral = core.elementwise.ufunc { name = "modf", nin = 1, loops = loops(),
                                  op = "{ auto i_ = in0; ga_modf(in0, &i_); out0 = i_; }", types = "real numbers" },
    ldexp = core.elementwise.ufunc { name = "ldexp", nin = 2, loops = { "el->e", "fl->f", "dl->d" },
                          op = "out0 = ga_ldexp(in0, in1)",
                          types = "a real number and an integer exponent (int64 at most)" },
  }
  internal.multiout_ufuncs = hidden   -- for the specs (NVRTC compiles)

  -- the two outputs of a call: out1/out2 by position, or out = {o1, o2}
  local function outputs(out1, out2, out, fname)
    if out ~= nil then
      if out1 ~= nil or out2 ~= nil then fail(fname .. ": out given both by position and as out") end
      if type(out) ~= "table" or is_array(out) then fail(fname .. ": out must be a list of two ndarrays (or nil)") end
      out1, out2 = rawget(out, 1), rawget(out, 2)
      for _, o in ipairs { out1 or false, out2 or false } do
        if o and not is_array(o) then fail(fname .. ": out must be a list of two ndarrays (or nil)") end
      end
    end
    return out1, out2
  end

  -- f1 and f2 over the same inputs into o1 and o2: an output that overlaps
  -- an input is written through a fresh array once both are computed, so
  -- the second pass reads the inputs unchanged
  local function two(f1, f2, inputs, o1, o2)
    local function clashes(o)
      if o == nil then return false end
      for _, x in ipairs(inputs) do
        if internal.overlaps(o, x) then return true end
      end
      return false
    end
    -- (not `clashes(o) and nil or o`: that is always o)
    local t1, t2 = o1, o2
    if clashes(o1) then t1 = nil end
    if clashes(o2) then t2 = nil end
    local r1 = f1(t1)
    local r2 = f2(t2)
    if t1 == nil and o1 ~= nil then o1:set(r1) r1 = o1 end
    if t2 == nil and o2 ~= nil then o2:set(r2) r2 = o2 end
    return r1, r2
  end

  local function with_dtype(x, dtype)
    if dtype == nil then return x end
    return ga.asarray(x):astype(dtype)
  end

  api.def(ga, [[
frexp(x: array_like, out1: ndarray?, out2: ndarray?, *, out: table?, dtype: dtype?) -> ndarray, ndarray
Mantissa and exponent: x = mantissa * 2^exponent with |mantissa| in [0.5, 1)
(0, infinities and NaN keep their value with exponent 0). The exponent is
int32. out: {mantissa_out, exponent_out}; dtype: the float dtype computed in.
]], function(x, out1, out2, out, dtype)
    out1, out2 = outputs(out1, out2, out, "frexp")
    x = with_dtype(x, dtype)
    return two(function(o) return hidden.frexp_mantissa(x, o) end,
               function(o) return hidden.frexp_exponent(x, o) end, { x }, out1, out2)
  end)

  api.def(ga, [[
modf(x: array_like, out1: ndarray?, out2: ndarray?, *, out: table?, dtype: dtype?) -> ndarray, ndarray
Fractional and integral parts, both with x's sign (modf(-3.5) is -0.5,
-3.0; infinities give 0 and themselves). out: {fraction_out, integral_out}.
]], function(x, out1, out2, out, dtype)
    out1, out2 = outputs(out1, out2, out, "modf")
    x = with_dtype(x, dtype)
    return two(function(o) return hidden.modf_fraction(x, o) end,
               function(o) return hidden.modf_integral(x, o) end, { x }, out1, out2)
  end)

  api.def(ga, [[
divmod(x1: array_like, x2: array_like, out1: ndarray?, out2: ndarray?, *, out: table?,
       dtype: dtype?) -> ndarray, ndarray
floor_divide(x1, x2) and remainder(x1, x2) at once (NumPy's divmod, the
same values as the two ufuncs). out: {quotient_out, remainder_out}.
]], function(x1, x2, out1, out2, out, dtype)
    out1, out2 = outputs(out1, out2, out, "divmod")
    local opts = dtype ~= nil and { dtype = dtype } or nil
    return two(function(o) return ga.floor_divide(x1, x2, o, opts) end,
               function(o) return ga.remainder(x1, x2, o, opts) end, { x1, x2 }, out1, out2)
  end)

  -- the float loop NumPy's linear search takes for x1 (e, f, then d)
  local function ldexp_dtype(x1)
    local t
    if is_array(x1) then t = x1.dtype
    elseif math.type(x1) == "integer" then t = "int64"
    elseif type(x1) == "number" then t = "float64"
    elseif type(x1) == "boolean" then t = "bool"
    else t = ga.asarray(x1).dtype end
    if t:match("^complex") then fail("ldexp: not supported for " .. t .. " (supports real numbers)") end
    for _, f in ipairs { "float16", "float32", "float64" } do
      if ga.result_type(t, f) == f then return f end
    end
    return "float64"
  end

  api.def(ga, [[
ldexp(x1: array_like, x2: array_like, out: ndarray?, *, dtype: dtype?) -> ndarray
x1 * 2^x2, element-wise: x1 a real number (integers give the first float
dtype they cast to safely, as NumPy's loops), x2 an integer exponent.
]], function(x1, x2, out, dtype)
    return hidden.ldexp(x1, x2, out, { dtype = dtype or ldexp_dtype(x1) })
  end)
end
