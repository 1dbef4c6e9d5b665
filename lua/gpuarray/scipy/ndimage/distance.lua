--- distance_transform_edt (SciPy 1.10): the exact Euclidean distance of
-- each nonzero element to the nearest zero element, by the separable
-- algorithm of Felzenszwalb and Huttenlocher (Meijster's scheme): the
-- squared distance along the first axis, then per further axis the lower
-- envelope of the parabolas w*(q - p)^2 + f(p) of the previous pass
-- (w = the axis' sampling squared). A line that fits in shared memory is
-- one thread block's (distance_line.lua: exact, and few candidates per
-- element); a longer one is one thread's lower envelope in scratch rows.
-- The nearest zero element's indices ride along when they are asked for
-- (returned 1-based, API.md §14).
return function(ga, M, S)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  local Line = require("gpuarray.scipy.ndimage.distance_line")
  local fail, is_array = internal.fail, internal.is_array

  --- the shared-memory line kernel of a variant (first: reads the bool
  -- mask; N: the rank when indices ride along; root: writes sqrt)
  local function line_kernel(first, N, root)
    local name = ("gnd_edt_line_%s_%s_%s"):format(first and "m" or "f", N or 0, root and "r" or "s")
    return S.kernel("edtline|" .. name, function()
      return { k = ga.RawKernel(Line.source(name, first, N, root), name), optin = 48 * 1024 }
    end)
  end
  M._edt_line_kernel = line_kernel

  --- runs the line kernel when a line of n fits (raising the kernel's
  -- shared memory limit past 48 KiB where the device allows); false when
  -- it does not fit
  local function run_line(kk, n, lines, args)
    if n > Line.MAX_N then return false end
    local T = Line.threads(n)
    local bytes = Line.shared_bytes(n, T)
    if bytes > kk.optin then
      if not pcall(kk.k.set_max_dynamic_shared_mem, kk.k, bytes) then return false end
      kk.optin = bytes
    end
    kk.k(lines, T, args, { shared_mem = bytes })
    return true
  end

  local function pass_kernel(N, with_idx)
    return S.kernel("edt|" .. N .. "|" .. tostring(with_idx), function()
      local params = { "raw float64 f", "raw float64 g", "raw int32 v", "raw float64 z", "int64 n", "int64 inner",
                       "float64 w", "int32 axis" }
      if with_idx then
        params[#params + 1] = "raw int32 iin"
        params[#params + 1] = "raw int32 iout"
        params[#params + 1] = "int64 total"
      end
      local b = { ([[
const long long o_ = i / inner, in_ = i %% inner;
const long long base = o_ * n * inner + in_;
int *vv = &v[i * n];
double *zz = &z[i * (n + 1)];
int k = -1;
for (long long q = 0; q < n; ++q) {
  const double fq = f[base + q * inner];
  if (isinf(fq)) continue;
  double s = 0;
  while (k >= 0) {
    const long long p = vv[k];
    const double fp = f[base + p * inner];
    s = ((fq + w * (double)q * q) - (fp + w * (double)p * p)) / (2.0 * w * (double)(q - p));
    if (s <= zz[k]) --k; else break;
  }
  ++k;
  vv[k] = (int)q;
  zz[k] = k == 0 ? -__longlong_as_double(0x7ff0000000000000LL) : s;
}
int j = 0;
for (long long q = 0; q < n; ++q) {
  if (k < 0) { g[base + q * inner] = __longlong_as_double(0x7ff0000000000000LL); %s continue; }
  while (j < k && zz[j + 1] < (double)q) ++j;
  const long long p = vv[j];
  g[base + q * inner] = w * (double)(q - p) * (double)(q - p) + f[base + p * inner];
  %s
}
]]):format(with_idx and ("for (int d = 0; d < %d; ++d) iout[d * total + base + q * inner] = -1;"):format(N) or "",
           with_idx and ([[
  for (int d = 0; d < %d; ++d)
    iout[d * total + base + q * inner] = d == axis ? (int)p : iin[d * total + base + p * inner];]]):format(N) or "") }
      return ga.ElementwiseKernel(table.concat(params, ", "), "", table.concat(b, "\n"), "gnd_edt_pass")
    end)
  end
  M._edt_pass_kernel = pass_kernel

  api.def(M, [[
scipy.ndimage.distance_transform_edt(input: array_like, sampling: number|list?, return_distances: boolean = true,
                                     return_indices: boolean = false, distances: ndarray?,
                                     indices: ndarray?) -> ndarray, ndarray
The Euclidean distance of each nonzero element to the nearest zero element (float64; sampling: the spacing per
axis), and with return_indices the 1-based indices of that element (shape (rank, ...)).
]], function(input, sampling, return_distances, return_indices, distances, indices)
    local fname = "scipy.ndimage.distance_transform_edt"
    if not return_distances and not return_indices then
      fail(fname .. ": at least one of return_distances/return_indices must be True")
    end
    local x = is_array(input) and input or ga.asarray(input)
    local x1 = x.ndim == 0 and x:reshape(1) or x
    local N = x1.ndim
    local samp = sampling ~= nil and S.seq(sampling, N, fname, "sampling") or {}
    for d = 1, N do
      samp[d] = samp[d] or 1.0
      if samp[d] <= 0 then fail(fname .. ": sampling must be positive") end
    end
    local shape = x1.shape
    local total = x1.size
    if total >= 2 ^ 31 then fail(fname .. ": arrays of 2^31 elements or more are not supported") end
    local mask = ga.ascontiguousarray(x1.dtype == "bool" and x1 or x1:ne(0))
    local idx
    if return_indices then
      -- before any pass: every element is its own nearest candidate
      local parts = {}
      for d = 1, N do
        local ar = ga.arange(shape[d], "int32")
        local view = {}
        for e = 1, N do view[e] = e == d and shape[d] or 1 end
        parts[d] = ga.broadcast_to(ar:reshape(view), shape):reshape(1, total)
      end
      idx = ga.ascontiguousarray(ga.concatenate(parts, 1)):reshape(-1)
    end
    local f, rooted        -- the squared distances so far (nil before the first pass)
    if total > 0 then
      for d = 1, N do
        local n = shape[d]
        local inner = S.prod(shape, d + 1, N)
        local lines = total // n
        local g = ga.empty(total, "float64")
        local w = samp[d] * samp[d]
        local root = d == N and return_distances
        local nidx = return_indices and ga.empty(N * total, "int32") or nil
        local args = { f and f:reshape(-1) or mask:reshape(-1), g, n, inner, w }
        if return_indices then
          for _, a in ipairs({ d - 1, idx, nidx, total }) do args[#args + 1] = a end
        end
        local done = run_line(line_kernel(f == nil, return_indices and N or nil, root), n, lines, args)
        rooted = done and root
        if not done then
          -- a line too long for shared memory: one thread's envelope
          local src = f and f:reshape(-1) or ga.where(mask, math.huge, 0.0):astype("float64"):reshape(-1)
          local v = ga.empty(lines * n, "int32")
          local z = ga.empty(lines * (n + 1), "float64")
          local k = pass_kernel(N, return_indices)
          if return_indices then
            k(src, g, v, z, n, inner, w, d - 1, idx, nidx, total, { size = lines, block_size = 32 })
          else
            k(src, g, v, z, n, inner, w, d - 1, { size = lines, block_size = 32 })
          end
        end
        idx = nidx or idx
        f = g
      end
    end
    local dist
    if return_distances then
      dist = total == 0 and ga.empty(x.shape, "float64") or (rooted and f or ga.sqrt(f)):reshape(x.shape)
    end
    local ind
    if return_indices then
      local ishape = { N }
      for d = 1, x.ndim do ishape[d + 1] = x.shape[d] end
      ind = (idx:astype("int64") + 1):reshape(ishape)
    end
    local r1, r2
    if return_distances then
      if distances ~= nil then distances:set(dist) else r1 = dist end
    end
    if return_indices then
      if indices ~= nil then indices:set(ind) else r2 = ind end
    end
    if r1 and r2 then return r1, r2 end
    return r1 or r2
  end)
end
