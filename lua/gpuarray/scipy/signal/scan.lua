--- The IIR engine: a linear recurrence over rows of samples run as a
-- parallel scan over the filter's state (kernels/signal/signal_iir.cuh
-- says how; lfilter_f32_2^24_ms and sosfilt_f32_2^24_ms are why). Two
-- recurrences: "tdf2", lfilter's transposed direct form II of state size N
-- (coefficients b0..bN, a1..aN, a0 = 1), and "sos", a cascade of G biquads
-- (state 2G; coefficients b0 b1 b2 a1 a2 per section), run in one pass.
--
-- The host part here: the CUDA source per (dtype, kind, N), the transition
-- matrix A (found by running the same step in Lua on the unit states),
-- its powers P^(2^k) for P = A^L (the chunk transition), and the launches.
-- S.iir_host_step and S.iir_powers are pure functions the CPU specs check.
return function(ga, _, S)
  local cx = require("gpuarray.scipy.signal.host.cx")
  local core = ga._core
  local U = S.U

  local B, LOGB = 256, 8
  -- samples per thread, and the largest state the scan keeps in registers
  -- and shared memory (B x N values; 48 KB of shared memory in all). The
  -- matrix products are unrolled: N = 16 compiles in about 2 s, N = 32 in
  -- 13 s, so larger states (IIR filters of order > 16 as b, a: rare, and
  -- better run as sections) take the serial kernel
  local GEOM = {
    float32 = { L = 16, NMAX = 16 }, float64 = { L = 16, NMAX = 16 },
    complex64 = { L = 16, NMAX = 16 }, complex128 = { L = 8, NMAX = 8 },
  }
  local CTYPE = { float32 = "float", float64 = "double", complex64 = "complex64", complex128 = "complex128" }
  local SIZE = { float32 = 4, float64 = 8, complex64 = 8, complex128 = 16 }

  local STEP = {
    tdf2 = [[
__device__ __forceinline__ void ga_iir_step(const T *c, T *z, T x, T &y) {
  const T yy = c[0] * x + z[0];
#pragma unroll
  for (int k = 0; k < GA_IIR_N - 1; k++) z[k] = c[k + 1] * x - c[GA_IIR_N + 1 + k] * yy + z[k + 1];
  z[GA_IIR_N - 1] = c[GA_IIR_N] * x - c[2 * GA_IIR_N] * yy;
  y = yy;
}
]],
    sos = [[
__device__ __forceinline__ void ga_iir_step(const T *c, T *z, T x, T &y) {
  T v = x;
#pragma unroll
  for (int s = 0; s < GA_IIR_N / 2; s++) {
    const T yy = c[5 * s] * v + z[2 * s];
    z[2 * s] = c[5 * s + 1] * v - c[5 * s + 3] * yy + z[2 * s + 1];
    z[2 * s + 1] = c[5 * s + 2] * v - c[5 * s + 4] * yy;
    v = yy;
  }
  y = v;
}
]],
  }

  --- The same steps in Lua (numbers or host complex values): z is changed,
  -- y returned
  function S.iir_host_step(kind, c, z, x)
    local N = #z
    if kind == "tdf2" then
      local y = cx.add(cx.mul(c[1], x), z[1])
      for k = 1, N - 1 do
        z[k] = cx.add(cx.sub(cx.mul(c[k + 1], x), cx.mul(c[N + 1 + k], y)), z[k + 1])
      end
      z[N] = cx.sub(cx.mul(c[N + 1], x), cx.mul(c[2 * N + 1], y))
      return y
    end
    local v = x
    for s = 0, N // 2 - 1 do
      local q = 5 * s
      local y = cx.add(cx.mul(c[q + 1], v), z[2 * s + 1])
      z[2 * s + 1] = cx.add(cx.sub(cx.mul(c[q + 2], v), cx.mul(c[q + 4], y)), z[2 * s + 2])
      z[2 * s + 2] = cx.sub(cx.mul(c[q + 3], v), cx.mul(c[q + 5], y))
      v = y
    end
    return v
  end

  local function matmul(a, b, n)
    local c = {}
    for i = 1, n do
      c[i] = {}
      for j = 1, n do
        local s = 0
        for k = 1, n do s = cx.add(s, cx.mul(a[i][k], b[k][j])) end
        c[i][j] = s
      end
    end
    return c
  end

  --- The transition matrix A of a recurrence (N x N rows), and the powers
  -- P^(2^k), k = 0 .. 2 LOGB - 1, of P = A^L, flattened row-major
  function S.iir_powers(kind, c, N, L, nk)
    local A = {}
    for i = 1, N do A[i] = {} end
    for j = 1, N do
      local z = {}
      for i = 1, N do z[i] = i == j and 1.0 or 0.0 end
      S.iir_host_step(kind, c, z, 0.0)
      for i = 1, N do A[i][j] = z[i] end
    end
    -- P = A^L by repeated squaring
    local P
    local base, e = A, L
    while e > 0 do
      if e & 1 == 1 then P = P and matmul(P, base, N) or base end
      e = e >> 1
      if e > 0 then base = matmul(base, base, N) end
    end
    local flat = {}
    local M = P
    for _ = 1, nk do
      for i = 1, N do for j = 1, N do flat[#flat + 1] = M[i][j] end end
      M = matmul(M, M, N)
    end
    return flat, A
  end

  local modules = {}
  local function module(dtype, kind, N)
    local g = GEOM[dtype]
    local serial = N > g.NMAX
    local key = ("%s:%s:%d"):format(dtype, kind, N)
    local m = modules[key]
    if m then return m end
    local nc = kind == "tdf2" and 2 * N + 1 or 5 * (N // 2)
    local src = table.concat({
      core.compile.kernel_source("common"), core.compile.kernel_source("math"),
      ("typedef %s T;\n#define GA_IIR_N %d\n#define GA_IIR_NC %d\n#define GA_IIR_B %d\n#define GA_IIR_LOGB %d\n"
       .. "#define GA_IIR_L %d\n"):format(CTYPE[dtype], N, nc, B, LOGB, g.L),
      STEP[kind], core.compile.kernel_source(serial and "signal_iir_serial" or "signal_iir"),
    })
    local mod = ga.RawModule(src)
    if serial then
      m = { serial = mod:get_function("ga_iir_serial") }
    else
      m = { local_ = mod:get_function("ga_iir_local"), carry = mod:get_function("ga_iir_carry"),
            apply = mod:get_function("ga_iir_apply") }
    end
    modules[key] = m
    return m
  end
  S.iir_module = module   -- the CPU specs compile it

  -- the device copies of a filter's coefficients and powers, by value: a
  -- filter applied again (a loop over blocks of a stream, filtfilt's two
  -- passes) uploads nothing; a few dozen filters are kept
  local uploads, nuploads = {}, 0
  local function device_coefs(kind, c, N, dtype, L)
    local parts = { kind, dtype, N }
    for i, v in ipairs(c) do parts[i + 3] = ("%a,%a"):format(cx.re(v), cx.im(v)) end
    local key = table.concat(parts, ";")
    local e = uploads[key]
    if e then return e.coef, e.pw end
    if nuploads >= 32 then uploads, nuploads = {}, 0 end
    e = { coef = U.up(c, dtype), pw = U.up(S.iir_powers(kind, c, N, L, 2 * LOGB), dtype) }
    uploads[key], nuploads = e, nuploads + 1
    return e.coef, e.pw
  end

  --- Run the recurrence over x (rows x n, C-contiguous, dtype one of
  -- float32 float64 complex64 complex128) with coefficients c (a host
  -- list), from the states zi (rows x N, or nil: zero) ; returns y and,
  -- when want_zf, the final states (rows x N)
  function S.iir_run(kind, c, N, x, zi, want_zf)
    local dtype = x.dtype
    local rows, n = x.shape[1], x.shape[2]
    local y = ga.empty({ rows, n }, dtype)
    local zf = want_zf and ga.zeros({ rows, N }, dtype) or nil
    if zi ~= nil and n == 0 and zf then zf:set(zi) end
    if rows == 0 or n == 0 then return y, zf end
    local dummy = zf or y
    local g = GEOM[dtype]
    if N > g.NMAX then
      local coef = U.up(c, dtype)
      local m = module(dtype, kind, N)
      local threads = 128
      m.serial((rows + threads - 1) // threads, threads,
               { x, y, zi or dummy, dummy, coef, n, rows, zi and 1 or 0, zf and 1 or 0 })
      return y, zf
    end
    local m = module(dtype, kind, N)
    local coef, pw = device_coefs(kind, c, N, dtype, g.L)
    local chunk = B * g.L
    local nblk = (n + chunk - 1) // chunk
    local shared = math.max(B * (g.L + 1), B * N) * SIZE[dtype]
    local cin
    if nblk == 1 then
      cin = zi or ga.zeros({ rows, N }, dtype)
    else
      local agg = ga.empty({ rows, nblk, N }, dtype)
      m.local_(rows * nblk, B, { x, agg, coef, pw, n, nblk }, { shared_mem = shared })
      cin = ga.empty({ rows, nblk, N }, dtype)
      m.carry(rows, B, { agg, cin, zi or agg, pw, nblk, zi and 1 or 0 }, { shared_mem = B * N * SIZE[dtype] })
    end
    m.apply(rows * nblk, B, { x, y, cin, dummy, coef, pw, n, nblk, zf and 1 or 0 }, { shared_mem = shared })
    return y, zf
  end
end
