--- The counter-based core every ga.random object shares: a 64-bit key
-- (from the seed, through SplitMix64) and a 64-bit offset (Philox counters
-- used so far). Each draw fills a fresh array through core.random.fill,
-- which returns the counters it used; the offset moves past them, so two
-- calls never share a number, and the numbers depend on the seed and the
-- sequence of calls only (kernels/random/philox.cuh says how).
return function(ga)
  local internal = require("gpuarray.internal")
  local core = ga._core
  local fail = internal.fail
  local bits = {}

  --- SplitMix64 (Steele et al.): a well-mixed 64-bit key from any integer
  -- seed; salt tells generator families apart (RandomState, Generator).
  function bits.mix(seed, salt)
    local z = seed + 0x9E3779B97F4A7C15 * (1 + (salt or 0))
    z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ~ (z >> 27)) * 0x94D049BB133111EB
    return z ~ (z >> 31)
  end

  local entropy_calls = 0
  --- A seed when none is given: time, clock and a per-state address
  function bits.entropy()
    entropy_calls = entropy_calls + 1
    local addr = tonumber(tostring({}):match("0x(%x+)"), 16) or 0
    return bits.mix(os.time() ~ (math.floor(os.clock() * 1e9) << 20) ~ addr ~ entropy_calls)
  end

  --- An integer seed from a Lua value (nil: fresh entropy)
  function bits.seed_of(seed, fname)
    if seed == nil then return bits.entropy() end
    local s = math.tointeger(seed)
    if s == nil then fail(("%s: seed must be an integer, got %s"):format(fname, tostring(seed))) end
    return s
  end

  --- A new generator core {key, offset} for seed
  function bits.new(seed, salt, fname)
    return { key = bits.mix(bits.seed_of(seed, fname), salt), offset = 0 }
  end

  --- out (a fresh C-contiguous array) filled by kind from core g
  function bits.fill(g, out, kind, a, b)
    if g.fill then return g:fill(out, kind, a, b) end   -- a sequential generator (random/sequential.lua)
    local used = core.random.fill(out, kind, g.key, g.offset, a, b)
    g.offset = g.offset + used
    return out
  end

  --- A shape from size: nil (0-d), an integer, or a list of integers
  -- (internal.int_list: read raw into a plain list)
  function bits.shape(size, fname)
    if size == nil then return {} end
    if math.type(size) == "integer" then return size end
    return internal.int_list(size, fname or "random", "size")
  end

  local FLOATS = { float32 = true, float64 = true }
  local INTS = {
    int8 = true, int16 = true, int32 = true, int64 = true,
    uint8 = true, uint16 = true, uint32 = true, uint64 = true,
  }
  bits.INTS = INTS

  --- The dtype name of a dtype argument; default: the state's default
  -- dtype when it is a float one, else float64 (ints: int64). bf16: the
  -- distribution also fills bfloat16 (uniform, normal, lognormal and
  -- exponential: src/random/random.c draws them in float32 and rounds once)
  function bits.float_dtype(dt, fname, bf16)
    local ok = function(name) return FLOATS[name] or (bf16 and name == "bfloat16") end
    if dt == nil then
      local d = ga.get_default_dtype()
      return ok(d) and d or "float64"
    end
    local name = ga.dtype(dt).name
    if not ok(name) then
      fail(("%s: dtype must be float32%s, got %s"):format(fname, bf16 and ", float64 or bfloat16" or " or float64",
                                                         name))
    end
    return name
  end
  function bits.int_dtype(dt, fname)
    if dt == nil then return "int64" end
    local name = ga.dtype(dt).name
    if not INTS[name] then fail(("%s: dtype must be an integer dtype, got %s"):format(fname, name)) end
    return name
  end

  --- A Lua number argument (a default when nil), checked
  function bits.num(v, default, fname, what)
    if v == nil then return default end
    if type(v) ~= "number" then
      fail(("%s: %s must be a number, got %s"):format(fname, what, internal.is_array(v) and "an ndarray" or type(v)))
    end
    return v
  end

  return bits
end
