--- distance_transform_edt (SciPy 1.10): the exact Euclidean distance of
-- each nonzero element to the nearest zero element, by the separable
-- algorithm of Felzenszwalb and Huttenlocher (Meijster's scheme): the
-- squared distance along the first axis, then per further axis the lower
-- envelope of the parabolas w*(q - p)^2 + f(p) of the previous pass
-- (w = the axis' sampling squared). One thread per line of an axis, its
-- envelope in scratch rows; the nearest zero element's indices ride along
-- when they are asked for (returned 1-based, API.md §14).
return function(ga, M, S)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  local fail, is_array = internal.fail, internal.is_array

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
    local f = ga.where(ga.ascontiguousarray(x1):ne(0), math.huge, 0.0):astype("float64")
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
    if total > 0 then
      for d = 1, N do
        local n = shape[d]
        local inner = S.prod(shape, d + 1, N)
        local lines = total // n
        local g = ga.empty(total, "float64")
        local v = ga.empty(lines * n, "int32")
        local z = ga.empty(lines * (n + 1), "float64")
        local k = pass_kernel(N, return_indices)
        local w = samp[d] * samp[d]
        if return_indices then
          local nidx = ga.empty(N * total, "int32")
          k(f:reshape(-1), g, v, z, n, inner, w, d - 1, idx, nidx, total, { size = lines })
          idx = nidx
        else
          k(f:reshape(-1), g, v, z, n, inner, w, d - 1, { size = lines })
        end
        f = g
      end
    end
    local dist = ga.sqrt(f):reshape(x.shape)
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
