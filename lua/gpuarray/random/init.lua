--- ga.random (API.md §7): NumPy's legacy module-level functions over a
-- per-Lua-state RandomState, RandomState(seed) objects, and Generators
-- (default_rng(seed), Generator(Philox4x3210(seed))). All are
-- counter-based Philox4x32-10 (random/bits.lua, kernels/random/philox.cuh)
-- unless a Generator is made over XORWOW or MRG32k3a (random/sequential.lua):
-- the same seed gives the same numbers on every run, device and launch
-- shape, and successive calls never overlap.
--
-- Every sampler is declared once below (SAMPLERS) and becomes a method of
-- RandomState, of Generator (where NumPy's Generator has it) and a
-- module-level function on the default RandomState.
--
-- State: rs:get_state() / rs:set_state(state) and, for a Generator,
-- rng.bit_generator.state (read it, assign it): a table
-- { bit_generator = "Philox4x3210", key = <integer>, offset = <integer> }.
-- Restoring a state replays the numbers bit for bit.
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  require("gpuarray.api.surface")   -- api.class
  local fail = internal.fail
  local bits = require("gpuarray.random.bits")(ga)
  local M = require("gpuarray.random.methods")(ga, bits)
  require("gpuarray.random.distributions")(ga, bits, M)

  local random = {}
  ga.random = random
  local RS, GEN = {}, {}          -- the method tables
  local RandomState = { __index = RS, __name = "gpuarray.random.RandomState" }
  local Generator = { __index = GEN, __name = "gpuarray.random.Generator" }
  local BitGenerator = { __name = "gpuarray.random.Philox4x3210" }

  local function state_of(b)
    return { bit_generator = "Philox4x3210", key = b.key, offset = b.offset }
  end
  local function set_state(b, st, fname)
    if type(st) ~= "table" or math.type(st.key) ~= "integer" or math.type(st.offset) ~= "integer" then
      fail(fname .. ": state must be a table {bit_generator =, key = integer, offset = integer}")
    end
    if st.bit_generator ~= nil and st.bit_generator ~= "Philox4x3210" then
      fail(("%s: state of a %s bit generator, this one is Philox4x3210"):format(fname, tostring(st.bit_generator)))
    end
    if st.offset < 0 then fail(fname .. ": offset must be >= 0") end
    b.key, b.offset = st.key, st.offset
  end

  -- the dimensions, then the dtype (rand and randn take it last)
  -- rand/randn's dimensions, then the dtype: by name, or (the old form) a
  -- dtype after the dimensions, rand(2, 2, "float32")
  local function with_last(last, ...)
    local args = table.pack(...)
    local tail = args[args.n]
    if last == nil and args.n > 0 and (type(tail) == "string" or type(tail) == "userdata") then
      return table.unpack(args, 1, args.n)
    end
    args[args.n + 1] = last
    return table.unpack(args, 1, args.n + 1)
  end

  -- "gen": also a Generator method
  local SIZE_DT = "size: shape?, dtype: dtype?"
  local SAMPLERS = {
    { "random(size: shape?, dtype: dtype?) -> ndarray", "Uniform floats in [0, 1).", M.random, gen = true },
    { "random_sample(size: shape?, dtype: dtype?) -> ndarray", "Uniform floats in [0, 1).", M.random },
    { "ranf(size: shape?, dtype: dtype?) -> ndarray", "Uniform floats in [0, 1) (random_sample).", M.random },
    { "sample(size: shape?, dtype: dtype?) -> ndarray", "Uniform floats in [0, 1) (random_sample).", M.random },
    { "rand(..., *, dtype: dtype?) -> ndarray", "Uniform floats in [0, 1) of the dimensions given.",
      function(self, dtype, ...) return M.rand(self, with_last(dtype, ...)) end },
    { "randn(..., *, dtype: dtype?) -> ndarray", "Standard normal floats of the dimensions given.",
      function(self, dtype, ...) return M.randn(self, with_last(dtype, ...)) end },
    { "uniform(low: number|ndarray = 0.0, high: number|ndarray = 1.0, " .. SIZE_DT .. ") -> ndarray",
      "Uniform floats in [low, high).", M.uniform, gen = true },
    { "normal(loc: number|ndarray = 0.0, scale: number|ndarray = 1.0, " .. SIZE_DT .. ") -> ndarray",
      "Normal floats.", M.normal, gen = true },
    { "standard_normal(" .. SIZE_DT .. ") -> ndarray", "Standard normal floats.", M.standard_normal, gen = true },
    { "lognormal(mean: number = 0.0, sigma: number = 1.0, " .. SIZE_DT .. ") -> ndarray",
      "exp of normal floats.", M.lognormal, gen = true },
    { "exponential(scale: number|ndarray = 1.0, " .. SIZE_DT .. ") -> ndarray", "Exponential floats.",
      M.exponential, gen = true },
    { "standard_exponential(" .. SIZE_DT .. ") -> ndarray", "Exponential floats of scale 1.",
      M.standard_exponential, gen = true },
    { "gamma(shape: number|ndarray, scale: number|ndarray = 1.0, " .. SIZE_DT .. ") -> ndarray",
      "Gamma floats (Marsaglia and Tsang).", M.gamma, gen = true },
    { "standard_gamma(shape: number|ndarray, " .. SIZE_DT .. ") -> ndarray", "Gamma floats of scale 1.",
      M.standard_gamma, gen = true },
    { "beta(a: number|ndarray, b: number|ndarray, " .. SIZE_DT .. ") -> ndarray", "Beta floats.", M.beta, gen = true },
    { "poisson(lam: number|ndarray = 1.0, " .. SIZE_DT .. ") -> ndarray", "Poisson integers (int64 by default).",
      M.poisson, gen = true },
    { "binomial(n: integer|ndarray, p: number|ndarray, " .. SIZE_DT .. ") -> ndarray", "Binomial integers.",
      M.binomial, gen = true },
    { "randint(low: integer, high: integer?, " .. SIZE_DT .. ") -> ndarray",
      "Integers in [low, high), or [0, low) without high (values, not indices).", M.randint },
    { "random_integers(low: integer, high: integer?, size: shape?) -> ndarray",
      "Integers in [low, high], or [1, low] without high (deprecated in NumPy).", M.random_integers },
    { "choice(a: integer|list|ndarray, size: shape?, replace: boolean = true, p: list|ndarray?) -> ndarray",
      "A sample of a (an integer n: values 0..n-1), with or without replacement, weights p.", M.choice, gen = true },
    { "permutation(x: integer|list|ndarray) -> ndarray",
      "A shuffled arange(n) (values 0..n-1), or a shuffled copy of x along its first axis.", M.permutation,
        gen = true },
    { "shuffle(x: ndarray)", "Shuffles x in place along its first axis.", M.shuffle, gen = true },
    { "bytes(length: integer) -> string", "length random bytes, as a Lua string.", M.bytes, gen = true },
    { "standard_cauchy(" .. SIZE_DT .. ") -> ndarray", "Cauchy floats (a ratio of normals).", M.standard_cauchy,
      gen = true },
    { "standard_t(df: number|ndarray, " .. SIZE_DT .. ") -> ndarray", "Student's t floats.", M.standard_t, gen = true },
    { "chisquare(df: number|ndarray, " .. SIZE_DT .. ") -> ndarray", "Chi-square floats.", M.chisquare, gen = true },
    { "noncentral_chisquare(df: number|ndarray, nonc: number|ndarray, " .. SIZE_DT .. ") -> ndarray",
      "Noncentral chi-square floats.", M.noncentral_chisquare, gen = true },
    { "f(dfnum: number|ndarray, dfden: number|ndarray, " .. SIZE_DT .. ") -> ndarray", "F floats.", M.f, gen = true },
    { "noncentral_f(dfnum: number|ndarray, dfden: number|ndarray, nonc: number|ndarray, " .. SIZE_DT
      .. ") -> ndarray", "Noncentral F floats.", M.noncentral_f, gen = true },
    { "laplace(loc: number|ndarray = 0.0, scale: number|ndarray = 1.0, " .. SIZE_DT .. ") -> ndarray",
      "Laplace (double exponential) floats.", M.laplace, gen = true },
    { "logistic(loc: number|ndarray = 0.0, scale: number|ndarray = 1.0, " .. SIZE_DT .. ") -> ndarray",
      "Logistic floats.", M.logistic, gen = true },
    { "gumbel(loc: number|ndarray = 0.0, scale: number|ndarray = 1.0, " .. SIZE_DT .. ") -> ndarray",
      "Gumbel floats.", M.gumbel, gen = true },
    { "pareto(a: number|ndarray, " .. SIZE_DT .. ") -> ndarray", "Pareto II (Lomax) floats.", M.pareto, gen = true },
    { "power(a: number|ndarray, " .. SIZE_DT .. ") -> ndarray", "Power-function floats in [0, 1].", M.power,
      gen = true },
    { "rayleigh(scale: number|ndarray = 1.0, " .. SIZE_DT .. ") -> ndarray", "Rayleigh floats.", M.rayleigh,
      gen = true },
    { "triangular(left: number|ndarray, mode: number|ndarray, right: number|ndarray, " .. SIZE_DT
      .. ") -> ndarray", "Triangular floats.", M.triangular, gen = true },
    { "vonmises(mu: number|ndarray, kappa: number|ndarray, " .. SIZE_DT .. ") -> ndarray",
      "von Mises floats in [-pi, pi].", M.vonmises, gen = true },
    { "wald(mean: number|ndarray, scale: number|ndarray, " .. SIZE_DT .. ") -> ndarray",
      "Wald (inverse Gaussian) floats.",
      M.wald, gen = true },
    { "weibull(a: number|ndarray, " .. SIZE_DT .. ") -> ndarray", "Weibull floats.", M.weibull, gen = true },
    { "zipf(a: number|ndarray, " .. SIZE_DT .. ") -> ndarray", "Zipf integers.", M.zipf, gen = true },
    { "geometric(p: number|ndarray, " .. SIZE_DT .. ") -> ndarray", "Geometric integers (>= 1).", M.geometric,
      gen = true },
    { "hypergeometric(ngood: integer|ndarray, nbad: integer|ndarray, nsample: integer|ndarray, " .. SIZE_DT
      .. ") -> ndarray", "Hypergeometric integers (good items in a sample drawn without replacement).",
      M.hypergeometric, gen = true },
    { "logseries(p: number|ndarray, " .. SIZE_DT .. ") -> ndarray", "Logarithmic series integers.", M.logseries,
      gen = true },
    { "negative_binomial(n: number|ndarray, p: number|ndarray, " .. SIZE_DT .. ") -> ndarray",
      "Negative binomial integers (failures before n successes).", M.negative_binomial, gen = true },
    { "multinomial(n: integer, pvals: list|ndarray, size: shape?) -> ndarray",
      "Multinomial counts: int64, shape size + {#pvals}.", M.multinomial, gen = true },
    { "dirichlet(alpha: list|ndarray, " .. SIZE_DT .. ") -> ndarray",
      "Dirichlet vectors: shape size + {#alpha}.", M.dirichlet, gen = true },
    { "multivariate_normal(mean: list|ndarray, cov: list|ndarray, size: shape?, "
      .. "check_valid: \"warn\"|\"raise\"|\"ignore\" = \"warn\", tol: number = 1e-8, "
      .. "method: \"svd\"|\"eigh\"|\"cholesky\" = \"svd\", *, dtype: dtype?) -> ndarray",
      "Multivariate normal vectors: mean + z A with cov = A^T A (svd, eigh or cholesky).",
      M.multivariate_normal, gen = true },
  }

  local default_state
  local function default()
    default_state = default_state or random.RandomState()
    return default_state
  end

  for _, s in ipairs(SAMPLERS) do
    local sig, doc, impl = s[1], s[2], s[3]
    local name = sig:match("^([%w_]+)")
    api.def(RS, ("random.RandomState:%s\n%s\n"):format(sig, doc), impl)
    if s.gen then api.def(GEN, ("random.Generator:%s\n%s\n"):format(sig, doc), impl) end
    api.def(random, ("random.%s\n%s (on the module's RandomState)\n"):format(sig, doc), function(...)
      return impl(default(), ...)
    end)
    assert(RS[name])
  end

  api.def(GEN, [[
random.Generator:integers(low: integer, high: integer?, size: shape?, dtype: dtype?,
  endpoint: boolean = false) -> ndarray
Integers in [low, high) ([low, high] with endpoint), or from 0 to low without high.
]], function(self, low, high, size, dtype, endpoint)
    return M._integers(self, "random.integers", low, high, size, dtype, endpoint)
  end)

  -- ---------------------------------------------------------------------
  -- RandomState
  api.def(RS, [[
random.RandomState:seed(seed: integer?)
Re-seeds (nil: fresh entropy).
]], function(self, seed) self._bits = bits.new(seed, 0, "random.seed") end)
  api.def(RS, [[
random.RandomState:get_state() -> table
The generator's state: {bit_generator = "Philox4x3210", key =, offset =}.
]], function(self) return state_of(self._bits) end)
  api.def(RS, [[
random.RandomState:set_state(state: dict)
Restores a state from get_state: the numbers that follow replay bit for bit.
]], function(self, st) set_state(self._bits, st, "random.RandomState.set_state") end)
  RandomState.__tostring = function(self)
    return ("RandomState(key=0x%016x, offset=%d)"):format(self._bits.key, self._bits.offset)
  end
  api.class("random.RandomState", RS)

  api.def(random, [[
random.RandomState(seed: integer?) -> RandomState
A legacy generator object (Philox4x32-10), seeded (nil: fresh entropy).
]], function(seed)
    return setmetatable({ _bits = bits.new(seed, 0, "random.RandomState") }, RandomState)
  end)
  api.set_type("RandomState", function(v) return getmetatable(v) == RandomState end)

  -- ---------------------------------------------------------------------
  -- bit generators and Generator
  BitGenerator.__index = function(self, k)
    if k == "state" then return state_of(rawget(self, "_bits")) end
    return nil
  end
  BitGenerator.__newindex = function(self, k, v)
    if k ~= "state" then fail(("random.Philox4x3210: no field %s to set"):format(tostring(k))) end
    set_state(rawget(self, "_bits"), v, "random.Philox4x3210.state")
  end
  BitGenerator.__tostring = function(self)
    return ("Philox4x3210(key=0x%016x, offset=%d)"):format(self._bits.key, self._bits.offset)
  end
  -- XORWOW and MRG32k3a (random/sequential.lua): device states stepped in
  -- sequence; bg.state describes them (read only: CuPy's cannot be set)
  local seq = require("gpuarray.random.sequential")(ga, bits, M._stream)
  local SEQ = {}             -- metatable -> its method table
  local function sequential(algo, summary)
    local methods = {}
    local mt = { __name = "gpuarray.random." .. algo }
    mt.__index = function(self, k)
      if k == "state" then
        local g = rawget(self, "_bits")
        return { bit_generator = algo, seed = g.seed, size = g.nstates }
      end
      return methods[k]
    end
    mt.__newindex = function(_, k)
      if k == "state" then
        fail(("random.%s: its state cannot be set (device states, as CuPy's); make a new one from a seed")
             :format(algo))
      end
      fail(("random.%s: no field %s to set"):format(algo, tostring(k)))
    end
    mt.__tostring = function(self)
      local g = rawget(self, "_bits")
      return ("%s(seed=%d, size=%d)"):format(algo, g.seed, g.nstates)
    end
    SEQ[mt] = methods
    api.def(methods, ([[
random.%s:random_raw(size: shape?, output: boolean = true) -> ndarray?
The generator's raw 32-bit words as uint64 (flat element k, counted from 0:
the next word of state k %% size); nothing when output is false (the words
are still drawn).
]]):format(algo), function(self, size, output)
      local out = rawget(self, "_bits"):raw(bits.shape(size, "random.random_raw"))
      if output then return out end
    end)
    api.class("random." .. algo, methods)
    api.def(random, ([[
random.%s(seed: integer?, *, size: integer = 256000) -> BitGenerator
%s
size device states (CuPy's default, 1000 * 256), each stepped in sequence:
flat element k of a draw (counted from 0) comes from state k %% size. Seeded through SplitMix64
(not cuRAND's subsequences): the numbers are not cuRAND's for the same seed.
]]):format(algo, summary), function(seed, size)
      return setmetatable({ _bits = seq.new(algo, seed, size, "random." .. algo) }, mt)
    end)
  end
  sequential("XORWOW", "The XORWOW bit generator (Marsaglia's xorshift with a Weyl sequence; cuRAND's default).")
  sequential("MRG32k3a", "The MRG32k3a bit generator (L'Ecuyer's combined multiple recursive generator).")
  random._sequential = seq

  api.set_type("BitGenerator", function(v)
    local mt = getmetatable(v)
    return mt == BitGenerator or SEQ[mt] ~= nil
  end)

  api.def(random, [[
random.Philox4x3210(seed: integer?) -> BitGenerator
The Philox4x32-10 bit generator: bg.state is its state (a table to read or
assign), shared by the Generators made from it.
]], function(seed)
    return setmetatable({ _bits = bits.new(seed, 1, "random.Philox4x3210") }, BitGenerator)
  end)

  api.def(random, [[
random.Generator(bit_generator: BitGenerator) -> Generator
A Generator drawing from bit_generator (rng.bit_generator): a Philox4x3210,
XORWOW or MRG32k3a.
]], function(bg)
    return setmetatable({ _bits = rawget(bg, "_bits"), bit_generator = bg }, Generator)
  end)
  api.set_type("Generator", function(v) return getmetatable(v) == Generator end)
  Generator.__tostring = function(self)
    if rawget(self._bits, "algo") then return ("Generator(%s)"):format(tostring(self.bit_generator)) end
    return ("Generator(Philox4x3210, key=0x%016x, offset=%d)"):format(self._bits.key, self._bits.offset)
  end
  api.class("random.Generator", GEN)

  api.def(random, [[
random.default_rng(seed: integer|Generator|BitGenerator?) -> Generator
A Generator over a Philox4x3210 bit generator seeded with seed (a Generator
is returned as is; a bit generator, e.g. XORWOW(seed), is wrapped).
]], function(seed)
    if getmetatable(seed) == Generator then return seed end
    if type(seed) == "table" then return random.Generator(seed) end
    return random.Generator(random.Philox4x3210(seed))
  end)

  -- ---------------------------------------------------------------------
  -- the module's RandomState (per Lua state), seeded from entropy until
  -- seed() is called
  api.def(random, [[
random.seed(seed: integer?)
Re-seeds the module's RandomState.
]], function(seed) default():seed(seed) end)
  api.def(random, [[
random.get_state() -> table
The module's RandomState's state (RandomState:get_state).
]], function() return default():get_state() end)
  api.def(random, [[
random.set_state(state: dict)
Restores the module's RandomState's state.
]], function(st) default():set_state(st) end)
  api.def(random, [[
random.get_random_state() -> RandomState
The module's RandomState.
]], default)
  api.def(random, [[
random.set_random_state(state: RandomState)
Makes state the module's RandomState.
]], function(rs) default_state = rs end)
end
