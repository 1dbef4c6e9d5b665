--- ga.random (API.md §7): NumPy's legacy module-level functions over a
-- per-Lua-state RandomState, RandomState(seed) objects, and default_rng(seed)
-- Generators. All are counter-based Philox4x32-10 (random/bits.lua,
-- kernels/random/philox.cuh): the same seed gives the same numbers on every
-- run, device and launch shape, and successive calls never overlap.
return function(ga)
  local internal = require("gpuarray.internal")
  local fail = internal.fail
  local bits = require("gpuarray.random.bits")(ga)
  local M = require("gpuarray.random.methods")(ga, bits)

  local random = {}
  ga.random = random

  -- ---------------------------------------------------------------------
  -- RandomState: every method of methods.lua, plus seed
  local RandomState = {}
  RandomState.__index = RandomState
  RandomState.__name = "gpuarray.random.RandomState"
  for name, fn in pairs(M) do
    if name:sub(1, 1) ~= "_" and name ~= "dtype_of" then RandomState[name] = fn end
  end
  function RandomState.seed(self, seed)
    self._bits = bits.new(seed, 0, "random.seed")
  end
  function RandomState.__tostring(self)
    return ("RandomState(key=0x%016x, offset=%d)"):format(self._bits.key, self._bits.offset)
  end

  --- RandomState([seed]): a legacy generator object
  function random.RandomState(seed)
    local self = setmetatable({}, RandomState)
    self:seed(seed)
    return self
  end

  -- ---------------------------------------------------------------------
  -- Generator: NumPy's newer API (default_rng)
  local Generator = {}
  Generator.__index = Generator
  Generator.__name = "gpuarray.random.Generator"
  for _, name in ipairs({ "random", "standard_normal", "normal", "uniform", "choice", "permutation", "shuffle",
                          "exponential", "standard_exponential", "poisson", "gamma", "standard_gamma", "beta",
                          "binomial", "lognormal" }) do
    Generator[name] = M[name]
  end
  --- integers(low[, high], size[, dtype][, endpoint]) or with a trailing
  -- options table {dtype=, endpoint=}: [low, high), [low, high] with endpoint
  function Generator.integers(self, low, high, size, dt, endpoint)
    if type(dt) == "table" and getmetatable(dt) == nil and not internal.is_array(dt) then
      endpoint = dt.endpoint
    end
    return M._integers(self, "random.integers", low, high, size, dt, endpoint)
  end
  function Generator.__tostring(self)
    return ("Generator(Philox, key=0x%016x, offset=%d)"):format(self._bits.key, self._bits.offset)
  end

  --- default_rng([seed]): a Generator (a Generator argument is returned as is)
  function random.default_rng(seed)
    if getmetatable(seed) == Generator then return seed end
    return setmetatable({ _bits = bits.new(seed, 1, "random.default_rng") }, Generator)
  end
  random.Generator = Generator

  -- ---------------------------------------------------------------------
  -- module level: one RandomState per Lua state (this table is per state),
  -- seeded from entropy until seed() is called
  local state
  local function default()
    state = state or random.RandomState()
    return state
  end
  function random.seed(seed)
    default():seed(seed)
  end
  function random.get_random_state()
    return default()
  end
  function random.set_random_state(rs)
    if getmetatable(rs) ~= RandomState then fail("random.set_random_state: a RandomState, got " .. type(rs)) end
    state = rs
  end
  for name in pairs(RandomState) do
    if type(RandomState[name]) == "function" and name:sub(1, 2) ~= "__" and name ~= "seed" then
      random[name] = function(...) return RandomState[name](default(), ...) end
    end
  end
end
