-- luacheck: ignore 212 (unused arguments: every call has the same signature)
--- The libraries' entry points without a GPU: ga.fft, ga.linalg,
-- ga.random, ga.sparse, the products (matmul, dot, einsum with random
-- subscripts, tensordot ...) and sorting, with any arguments over zero-size
-- arrays. Device work raises its own gpuarray error here; everything before
-- it (shapes, axes and lengths, norm orders and modes, sizes and dtypes,
-- distribution parameters, subscripts, options) must succeed or raise one.

local MODES = { "ortho", "forward", "backward", "fro", "nuc", "reduced", "complete", "r", "L", "U", "csr", "csc",
                "coo", "gesvd", "gesvdj", "gesvdp", "gram", "", "x" }

--- an argument of any kind, weighted towards what these functions take
local function arg(F)
  local r = math.random(12)
  if r <= 4 then return F.array() end
  if r <= 6 then return F.int() end
  if r == 7 then return F.number() end
  if r == 8 then return F.pick(MODES) end
  if r == 9 then return F.dtype() end
  if r == 10 then return F.shape(F.chance(0.5)) end
  if r == 11 then
    local t = {}
    for _, k in ipairs { "axis", "axes", "n", "s", "norm", "dtype", "out", "ord", "keepdims", "mode", "size",
                         "replace", "p", "shape", "format", "density", "seed", "side", "kind", "compute_uv",
                         "full_matrices", "method", "UPLO", "rcond", "hermitian", "offsets", "k" } do
      if F.chance(0.12) then t[k] = F.chance(0.5) and F.int() or F.any(1) end
    end
    return t
  end
  return F.any(1)
end

local function args(F, lo, hi)
  local t = { n = math.random(lo, hi) }
  for i = 1, t.n do t[i] = arg(F) end
  return t
end

--- einsum subscripts: letters, commas, an arrow, ellipses, now and then a stray byte
local function subscripts(F)
  local parts = {}
  for _ = 1, math.random(1, 3) do
    local s = {}
    for _ = 1, math.random(0, 4) do
      s[#s + 1] = F.chance(0.1) and "..." or F.pick { "i", "j", "k", "l", "a", "A", "z", " " }
    end
    parts[#parts + 1] = table.concat(s)
  end
  local text = table.concat(parts, ",")
  if F.chance(0.7) then
    local out = {}
    for _ = 1, math.random(0, 3) do out[#out + 1] = F.pick { "i", "j", "k", "...", "q" } end
    text = text .. F.pick { "->", "- >", "->", "->->" } .. table.concat(out)
  end
  if F.chance(0.1) then text = F.mutate(text) end
  return text
end

local function fn(path)
  return function(F, a)
    local f = F.ga
    for name in path:gmatch("[^.]+") do f = f[name] end
    return f(table.unpack(a, 1, a.n))
  end
end

local CALLS = {}
for _, name in ipairs { "fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn",
                        "ifftn", "rfftn", "irfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift",
                        "set_cache_size" } do
  CALLS[#CALLS + 1] = { "fft." .. name, 1, 5 }
end
for _, name in ipairs { "cholesky", "det", "eigh", "eigvalsh", "inv", "lstsq", "matrix_power", "matrix_rank",
                        "norm", "pinv", "qr", "slogdet", "solve", "svd" } do
  CALLS[#CALLS + 1] = { "linalg." .. name, 1, 4 }
end
for _, name in ipairs { "beta", "binomial", "choice", "exponential", "gamma", "lognormal", "normal",
                        "permutation", "poisson", "rand", "randint", "randn", "random", "shuffle",
                        "standard_normal", "uniform", "seed", "RandomState", "default_rng", "XORWOW",
                        "MRG32k3a" } do
  CALLS[#CALLS + 1] = { "random." .. name, 0, 4 }
end
for _, name in ipairs { "coo_matrix", "csr_matrix", "csc_matrix", "diags", "eye", "matmul", "random" } do
  CALLS[#CALLS + 1] = { "sparse." .. name, 1, 4 }
end
for _, name in ipairs { "matmul", "dot", "vdot", "inner", "outer", "tensordot", "kron", "trace", "diagonal",
                        "diag", "tril", "triu", "sort", "argsort", "lexsort", "partition", "argpartition",
                        "searchsorted", "unique", "bincount", "histogram", "digitize", "diff" } do
  CALLS[#CALLS + 1] = { name, 1, 4 }
end

return {
  name = "libs",
  gen = function(F)
    if F.chance(0.15) then
      local ops = { n = math.random(0, 3) }
      for i = 1, ops.n do ops[i] = F.chance(0.9) and F.array() or arg(F) end
      return { call = "einsum", sub = subscripts(F), args = ops }
    end
    local c = F.pick(CALLS)
    return { call = c[1], args = args(F, c[2], c[3]) }
  end,
  run = function(t, F)
    if t.call == "einsum" then return F.ga.einsum(t.sub, table.unpack(t.args, 1, t.args.n)) end
    -- Generators and RandomStates: a method of one, with the same arguments
    local bitgen = t.call == "random.XORWOW" or t.call == "random.MRG32k3a"
    if t.call == "random.default_rng" or t.call == "random.RandomState" or bitgen then
      local g = fn(t.call)(F, { n = 1, t.args[1] })
      if bitgen then
        -- the sequential bit generators: raw words, or a Generator over one
        if F.chance(0.3) then return g:random_raw(table.unpack(t.args, 2, t.args.n)) end
        g = F.ga.random.Generator(g)
      end
      local m = F.pick { "random", "standard_normal", "normal", "uniform", "integers", "choice", "permutation",
                         "shuffle", "exponential", "poisson", "randint", "rand", "randn" }
      local method = g[m]
      if not method then return end
      return method(g, table.unpack(t.args, 2, t.args.n))
    end
    return fn(t.call)(F, t.args)
  end,
}
