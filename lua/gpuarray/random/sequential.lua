--- XORWOW and MRG32k3a: the bit generators CuPy builds on cuRAND's device
-- generators (cupy.random.XORWOW, cupy.random.MRG32k3a). Unlike Philox
-- (counter-based: any number from its index) these are sequential: each
-- of `size` device states steps through its own sequence, as cuRAND's
-- curandStateXORWOW / curandStateMRG32k3a do.
--
-- A draw of n numbers runs min(size, n) threads; thread t fills elements
-- t, t + size, t + 2 size, ... in order from state t and stores the state
-- back. So element k always comes from state k % size, and the numbers
-- depend on the seed, size and the sequence of calls only (never on the
-- launch shape). Every distribution is the same CUDA as Philox's streams
-- (random/stream.lua, kernels/random/philox.cuh: templates over the word
-- source), run over these words instead.
--
-- Seeding: state t takes its 192 bits from SplitMix64 outputs 3t+1..3t+3
-- after the generator's key (random/bits.lua's mix of the seed), not from
-- cuRAND's skip-ahead by subsequences (its jump tables are not in
-- NVRTC's reach); the states are distinct and, with periods near 2^192,
-- their sequences do not meet in practice. The numbers are therefore not
-- cuRAND's for the same seed (CuPy's are not NumPy's either).
return function(ga, bits, S)
  local internal = require("gpuarray.internal")
  local core = ga._core
  local fail = internal.fail
  local seq = {}

  --- The word sources (next() -> 32 bits) and their seeding. A state is 6
  -- words, stored word-major: word j of state t at st[j * nst + t].
  seq.WORDS = {
    -- Marsaglia, "Xorshift RNGs" (2003), xorwow: a 160-bit xorshift plus
    -- a Weyl sequence d (step 362437); period 2^192 - 2^32
    XORWOW = [[
struct ga_xorwow_words {
  unsigned v0, v1, v2, v3, v4, d;
  __device__ ga_xorwow_words(const unsigned *st, unsigned long long t, unsigned long long nst)
      : v0(st[t]), v1(st[nst + t]), v2(st[2 * nst + t]), v3(st[3 * nst + t]), v4(st[4 * nst + t]),
        d(st[5 * nst + t]) {}
  __device__ unsigned next() {
    const unsigned x = v0 ^ (v0 >> 2);
    v0 = v1; v1 = v2; v2 = v3; v3 = v4;
    v4 = (v4 ^ (v4 << 4)) ^ (x ^ (x << 1));
    d += 362437u;
    return v4 + d;
  }
  __device__ void save(unsigned *st, unsigned long long t, unsigned long long nst) const {
    st[t] = v0; st[nst + t] = v1; st[2 * nst + t] = v2; st[3 * nst + t] = v3; st[4 * nst + t] = v4;
    st[5 * nst + t] = d;
  }
  // the xorshift part must not be all zero (it would stay zero)
  __device__ static void seed(unsigned *st, unsigned long long t, unsigned long long nst, unsigned long long a,
                              unsigned long long b, unsigned long long c) {
    unsigned w[6] = {(unsigned)a, (unsigned)(a >> 32), (unsigned)b, (unsigned)(b >> 32), (unsigned)c,
                     (unsigned)(c >> 32)};
    if ((w[0] | w[1] | w[2] | w[3] | w[4]) == 0) w[0] = 1;
    for (int j = 0; j < 6; j++) st[j * nst + t] = w[j];
  }
};
typedef ga_rstream_of<ga_xorwow_words> ga_seq_stream;
]],
    -- L'Ecuyer, "Good parameters and implementations for combined multiple
    -- recursive random number generators" (1999): two order-3 recurrences
    -- modulo m1 = 2^32 - 209 and m2 = 2^32 - 22853; period near 2^191.
    -- The combination z in [1, m1] is scaled to 32 bits: z * 2^32 / (m1 + 1)
    MRG32k3a = [[
struct ga_mrg32k3a_words {
  unsigned s10, s11, s12, s20, s21, s22;
  __device__ ga_mrg32k3a_words(const unsigned *st, unsigned long long t, unsigned long long nst)
      : s10(st[t]), s11(st[nst + t]), s12(st[2 * nst + t]), s20(st[3 * nst + t]), s21(st[4 * nst + t]),
        s22(st[5 * nst + t]) {}
  __device__ unsigned next() {
    const long long m1 = 4294967087LL, m2 = 4294944443LL;
    long long p1 = (1403580LL * s11 - 810728LL * s10) % m1;
    if (p1 < 0) p1 += m1;
    s10 = s11; s11 = s12; s12 = (unsigned)p1;
    long long p2 = (527612LL * s22 - 1370589LL * s20) % m2;
    if (p2 < 0) p2 += m2;
    s20 = s21; s21 = s22; s22 = (unsigned)p2;
    long long z = p1 - p2;
    if (z <= 0) z += m1;
    return (unsigned)((double)z * (4294967296.0 / 4294967088.0));
  }
  __device__ void save(unsigned *st, unsigned long long t, unsigned long long nst) const {
    st[t] = s10; st[nst + t] = s11; st[2 * nst + t] = s12; st[3 * nst + t] = s20; st[4 * nst + t] = s21;
    st[5 * nst + t] = s22;
  }
  // components reduced modulo m1 (first three) and m2; neither triple all zero
  __device__ static void seed(unsigned *st, unsigned long long t, unsigned long long nst, unsigned long long a,
                              unsigned long long b, unsigned long long c) {
    const unsigned long long m1 = 4294967087ULL, m2 = 4294944443ULL;
    unsigned w[6] = {(unsigned)((a & 0xffffffffULL) % m1), (unsigned)((a >> 32) % m1),
                     (unsigned)((b & 0xffffffffULL) % m1), (unsigned)((b >> 32) % m2),
                     (unsigned)((c & 0xffffffffULL) % m2), (unsigned)((c >> 32) % m2)};
    if ((w[0] | w[1] | w[2]) == 0) w[0] = 1;
    if ((w[3] | w[4] | w[5]) == 0) w[3] = 1;
    for (int j = 0; j < 6; j++) st[j * nst + t] = w[j];
  }
};
typedef ga_rstream_of<ga_mrg32k3a_words> ga_seq_stream;
]],
  }
  local WORD_TYPE = { XORWOW = "ga_xorwow_words", MRG32k3a = "ga_mrg32k3a_words" }

  -- the device code every kernel of a generator shares: Philox's streams
  -- and samplers, the word source, SplitMix64 and the integer sampler
  local SHARED = [[
__device__ __forceinline__ unsigned long long ga_seq_mix(unsigned long long z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
// SplitMix64's output number q after key
__device__ __forceinline__ unsigned long long ga_seq_splitmix(unsigned long long key, unsigned long long q) {
  return ga_seq_mix(key + q * 0x9E3779B97F4A7C15ULL);
}
// integers lo + [0, range] (range as uint64 bits; all 64 bits when it is
// 2^64 - 1): Lemire's multiply-shift with rejection, as the Philox kinds
template <class R>
__device__ unsigned long long ga_seq_int(R &s, long long lo, long long range_) {
  const unsigned long long range = (unsigned long long)range_;
  if (range <= 0xffffffffULL) {
    const unsigned m = (unsigned)(range + 1);   // 0 means 2^32
    if (m == 0) return (unsigned long long)lo + s.next();
    const unsigned thresh = (0u - m) % m;
    for (;;) {
      const unsigned long long prod = (unsigned long long)s.next() * m;
      if ((unsigned)prod >= thresh) return (unsigned long long)lo + (prod >> 32);
    }
  }
  const unsigned long long m = range + 1;       // 0 means 2^64
  for (;;) {
    const unsigned long long hi = s.next();
    const unsigned long long x = (hi << 32) | s.next();
    if (m == 0) return (unsigned long long)lo + x;
    if (x * m >= (0ULL - m) % m) return (unsigned long long)lo + __umul64hi(x, m);
  }
}
]]
  local preambles = {}
  local function preamble(algo)
    local p = preambles[algo]
    if not p then
      p = core.random.philox() .. S.PREAMBLE .. seq.WORDS[algo] .. SHARED
      preambles[algo] = p
    end
    return p
  end
  seq.preamble = preamble

  local CTYPE = { float64 = "double", int64 = "long long" }
  local kernels = {}

  --- The kernel drawing expr over the stream s into raw out: params
  -- ("float64 a, int64 n") are scalars, or arrays (raw[name]: C-contiguous
  -- at out's shape, read at the element's index)
  function seq.kernel(algo, name, params, expr, raw)
    local ins, loads, sig = {}, {}, {}
    for ty, nm in params:gmatch("(%w+) (%w+)") do
      if raw and raw[nm] then
        ins[#ins + 1] = ("raw %s %s_"):format(ty, nm)
        loads[#loads + 1] = ("const %s %s = %s_[gk];"):format(CTYPE[ty], nm, nm)
        sig[#sig + 1] = "r"
      else
        ins[#ins + 1] = ty .. " " .. nm
        sig[#sig + 1] = "s"
      end
    end
    local key = algo .. "/" .. name .. "/" .. table.concat(sig)
    local k = kernels[key]
    if not k then
      ins[#ins + 1] = "raw uint32 gst, uint64 gn, uint64 gnst"
      local body = ([[
ga_seq_stream s(gst.data, (unsigned long long)i, gnst);
for (unsigned long long gk = (unsigned long long)i; gk < gn; gk += gnst) {
  %s
  out[gk] = (O)(%s);
}
s.save(gst.data, (unsigned long long)i, gnst);
]]):format(table.concat(loads, " "), expr)
      k = ga.ElementwiseKernel(table.concat(ins, ", "), "raw O out", body,
                               ("ga_random_%s_%s"):format(algo, name), { preamble = preamble(algo) })
      kernels[key] = k
    end
    return k
  end

  local init_kernels, multi_kernels = {}, {}
  function seq.init_kernel(algo)
    local k = init_kernels[algo]
    if not k then
      k = ga.ElementwiseKernel("uint32 k0, uint32 k1, uint64 gnst", "raw uint32 gst", [[
const unsigned long long key = ((unsigned long long)k1 << 32) | k0, t = (unsigned long long)i;
]] .. WORD_TYPE[algo] .. [[::seed(gst.data, t, gnst, ga_seq_splitmix(key, 3 * t + 1),
    ga_seq_splitmix(key, 3 * t + 2), ga_seq_splitmix(key, 3 * t + 3));
]], "ga_random_" .. algo .. "_init", { preamble = preamble(algo) })
      init_kernels[algo] = k
    end
    return k
  end
  function seq.multinomial_kernel(algo)
    local k = multi_kernels[algo]
    if not k then
      k = ga.ElementwiseKernel("int64 n, raw float64 p, int64 k, raw uint32 gst, uint64 gn, uint64 gnst",
        "raw int64 out", [[
ga_seq_stream s(gst.data, (unsigned long long)i, gnst);
for (unsigned long long r = (unsigned long long)i; r < gn; r += gnst) {
]] .. S.MULTINOMIAL_ROW .. [[
}
s.save(gst.data, (unsigned long long)i, gnst);
]], "ga_random_" .. algo .. "_multinomial", { preamble = preamble(algo) })
      multi_kernels[algo] = k
    end
    return k
  end

  -- ---------------------------------------------------------------------
  -- the generator core: what random/bits.lua's fill and random/stream.lua's
  -- draw and multinomial hand to a sequential generator
  local Core = {}
  Core.__index = Core

  --- A core for algo ("XORWOW" or "MRG32k3a"), seed (nil: entropy), size
  -- states; the device states are made on the first draw
  function seq.new(algo, seed, size, fname)
    local s = bits.seed_of(seed, fname)
    if math.type(size) ~= "integer" or size < 1 then
      fail(("%s: size must be a positive integer, got %s"):format(fname, tostring(size)))
    end
    return setmetatable({ algo = algo, seed = s, key = bits.mix(s, algo == "XORWOW" and 2 or 3), nstates = size },
                        Core)
  end

  --- the device states (6 x size uint32), seeded on first use
  function Core:states()
    if not self.st then
      local st = ga.empty(6 * self.nstates, "uint32")
      seq.init_kernel(self.algo)(self.key & 0xffffffff, (self.key >> 32) & 0xffffffff, self.nstates, st,
                                 { size = self.nstates })
      self.st = st
    end
    return self.st
  end

  -- run a kernel of seq.kernel over out's n elements
  local function launch(self, k, out, ...)
    local n = out.size
    if n == 0 then return out end
    local args = table.pack(...)
    args[args.n + 1] = self:states()
    args[args.n + 2] = n
    args[args.n + 3] = self.nstates
    args[args.n + 4] = out
    args[args.n + 5] = { size = math.min(n, self.nstates) }
    k(table.unpack(args, 1, args.n + 5))
    return out
  end

  -- the engine's kinds (scalar parameters) as stream expressions
  local KINDS = {
    uniform = { "float64 a, float64 b", "a + s.uniform() * b" },
    uniform_f32 = { "float64 a, float64 b", "(float)a + ga_u01f(s.next()) * (float)b" },
    normal = { "float64 a, float64 b", "a + b * s.normal()" },
    lognormal = { "float64 a, float64 b", "exp(a + b * s.normal())" },
    exponential = { "float64 b", "b * ga_rs_exp(s)" },
    gamma = { "float64 a, float64 b", "s.gamma(a) * b" },
    beta = { "float64 a, float64 b", "s.beta(a, b)" },
    poisson = { "float64 a", "s.poisson(a)" },
    binomial = { "int64 lo, float64 a", "s.binomial(lo, a)" },
    integers = { "int64 lo, int64 range", "ga_seq_int(s, lo, range)" },
  }
  seq.KINDS = KINDS
  local FLOAT_KINDS = { uniform = true, normal = true, lognormal = true, exponential = true, gamma = true,
                        beta = true }
  local INT_KINDS = { integers = true, poisson = true, binomial = true }

  --- bits.fill's kinds: out filled by kind with the engine's parameters
  function Core:fill(out, kind, a, b)
    local dt = out.dtype
    if kind == "permutation" then return self:permutation(out, a, b) end
    if (FLOAT_KINDS[kind] and dt ~= "float32" and dt ~= "float64") or (INT_KINDS[kind] and not bits.INTS[dt]) then
      fail(("random: %s cannot produce %s"):format(kind, dt))
    end
    local name = kind == "uniform" and dt == "float32" and "uniform_f32" or kind
    local K = KINDS[name]
    if not K then fail("random: unknown kind " .. tostring(kind)) end
    local k = seq.kernel(self.algo, "kind_" .. name, K[1], K[2])   -- apart from draw's names
    if kind == "exponential" then return launch(self, k, out, b) end
    if kind == "poisson" then return launch(self, k, out, a) end
    return launch(self, k, out, a, b)
  end

  --- count values of a permutation of [0, n), plus add: Philox's keyed
  -- bijection (the Feistel network of kernels/random/philox.cuh) under a
  -- 64-bit key drawn from this generator, so every index appears once
  -- and the randomness is this generator's
  function Core:permutation(out, n, add)
    if out.size == 0 then return out end
    local w = self:raw(2):totable()
    local key = (w[1] << 32) | w[2]
    core.random.fill(out, "permutation", key, 0, n, add)
    return out
  end

  --- random/stream.lua's distributions: params and expr as there, the
  -- values numbers or arrays (broadcast to out)
  function Core:draw(name, params, expr, out, ...)
    local vals, raw = table.pack(...), {}
    local i = 0
    for _, nm in params:gmatch("(%w+) (%w+)") do
      i = i + 1
      if internal.is_array(vals[i]) then
        raw[nm] = true
        vals[i] = ga.ascontiguousarray(ga.broadcast_to(vals[i], out.shape))
      end
    end
    return launch(self, seq.kernel(self.algo, name, params, expr, raw), out, table.unpack(vals, 1, vals.n))
  end

  --- multinomial: rows of k counts (random/stream.lua's row code)
  function Core:multinomial(n, p, rows, k, out)
    if rows == 0 then return out end
    seq.multinomial_kernel(self.algo)(n, p, k, self:states(), rows, self.nstates, out,
                                      { size = math.min(rows, self.nstates) })
    return out
  end

  --- n raw 32-bit words (uint64), element k the next word of state k % size
  function Core:raw(shape)
    local out = ga.empty(shape, "uint64")
    return launch(self, seq.kernel(self.algo, "raw", "", "s.next()"), out)
  end

  return seq
end
