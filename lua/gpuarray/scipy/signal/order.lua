--- Rank filters and the Wiener filter (cupyx.scipy.signal's order_filter,
-- medfilt, medfilt2d, wiener). A rank filter is one kernel: each thread
-- gathers its window (the domain's nonzero entries, centred, zeros past
-- the edges as SciPy pads) into a local array and selects the rank-th
-- smallest (Hoare's quickselect). The window's offsets come from the
-- host; the kernel is compiled per dtype and window count.
return function(ga, signal, S)
  local api = require("gpuarray.api")
  local core = ga._core
  local U = S.U
  local fail = U.fail

  local function name(n) return "scipy.signal." .. n end

  local CTYPE = { float16 = "float16", bfloat16 = "bfloat16", float32 = "float", float64 = "double", int8 = "int8",
                  int16 = "int16",
                  int32 = "int32", int64 = "int64", uint8 = "uint8", uint16 = "uint16", uint32 = "uint32",
                  uint64 = "uint64" }

  local SRC = [[
// out[o] = the RANK-th smallest of x over the window (W offsets per axis in
// offs, D axes), x zero past its edges; shapes in meta: shape[D]
extern "C" __global__ void ga_order(const T *__restrict__ x, T *__restrict__ out,
                                    const long long *__restrict__ meta, const long long *__restrict__ offs,
                                    int D, long long nout) {
  const long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= nout) return;
  long long pos[8];
  long long rem = o;
  for (int d = D - 1; d >= 0; d--) {
    pos[d] = rem % meta[d];
    rem /= meta[d];
  }
  T v[GA_W];
  for (int w = 0; w < GA_W; w++) {
    long long lin = 0;
    bool in = true;
    for (int d = 0; d < D; d++) {
      const long long p = pos[d] + offs[w * D + d];
      if (p < 0 || p >= meta[d]) in = false;
      lin = lin * meta[d] + p;
    }
    v[w] = in ? x[lin] : T(0);
  }
  // quickselect for index GA_RANK (NaNs order last, as a sort would)
  int lo = 0, hi = GA_W - 1;
  while (lo < hi) {
    const T pivot = v[(lo + hi) / 2];
    int i = lo, j = hi;
    while (i <= j) {
      while (ga_ord_less(v[i], pivot)) i++;
      while (ga_ord_less(pivot, v[j])) j--;
      if (i <= j) {
        const T t = v[i];
        v[i] = v[j];
        v[j] = t;
        i++;
        j--;
      }
    }
    if (GA_RANK <= j) hi = j;
    else if (GA_RANK >= i) lo = i;
    else break;
  }
  out[o] = v[GA_RANK];
}
]]
  local LESS = [[
template <typename X> __device__ __forceinline__ bool ga_ord_less(const X &a, const X &b) {
  return a < b || (b != b && a == a);
}
template <> __device__ __forceinline__ bool ga_ord_less<float16>(const float16 &a, const float16 &b) {
  const float fa = a, fb = b;
  return fa < fb || (fb != fb && fa == fa);
}
]]

  local kernels = {}
  local function kernel(dt, W, rank)
    local key = ("%s:%d:%d"):format(dt, W, rank)
    if not kernels[key] then
      local src = core.compile.kernel_source("common") .. core.compile.kernel_source("math")
        .. ("typedef %s T;\n#define GA_W %d\n#define GA_RANK %d\n"):format(CTYPE[dt], W, rank) .. LESS .. SRC
      kernels[key] = ga.RawKernel(src, "ga_order")
    end
    return kernels[key]
  end
  S.order_kernel = kernel

  -- the kernel sorts a window per thread in registers
  local MAX_WINDOW = 1024

  --- The rank filter: x (an ndarray), the domain as a host mask (nested
  -- lists, or a shape for a full box), rank 0-based as SciPy's
  local function order(x, dshape, mask, rank, fname)
    local D = x.ndim
    if #dshape ~= D then fail(fname .. ": Domain must have the same number of dimensions as the input") end
    for d = 1, D do
      if dshape[d] % 2 == 0 then
        fail(fname .. ": Each dimension of domain argument should have an odd number of elements.")
      end
    end
    local total = 1
    for d = 1, D do
      -- a full box (no mask) is all window: past 1024 cells it is refused
      -- before its offsets are listed one by one (nor can the product wrap)
      if mask == nil and dshape[d] > MAX_WINDOW // total then
        fail(("%s: at most %d elements in the window"):format(fname, MAX_WINDOW))
      end
      total = total * dshape[d]
    end
    local offs = {}
    local W = 0
    local idx = {}
    for d = 1, D do idx[d] = 0 end
    for lin = 0, total - 1 do
      local rem = lin
      for d = D, 1, -1 do
        idx[d] = rem % dshape[d]
        rem = rem // dshape[d]
      end
      if mask == nil or mask(idx) then
        W = W + 1
        for d = 1, D do offs[#offs + 1] = idx[d] - dshape[d] // 2 end
      end
    end
    if W == 0 then fail(fname .. ": the domain has no nonzero element") end
    if rank < 0 or rank >= W then
      fail(("%s: rank must be between 0 and the number of nonzero elements of the domain (%d) minus 1")
        :format(fname, W))
    end
    if W > MAX_WINDOW then fail(("%s: at most %d elements in the window"):format(fname, MAX_WINDOW)) end
    local dt = x.dtype
    if not CTYPE[dt] then fail(fname .. ": dtype " .. dt .. " is not supported") end
    local xc = ga.ascontiguousarray(x)
    local out = ga.empty(x.shape, dt)
    if out.size > 0 then
      local threads = 128
      kernel(dt, W, rank)((out.size + threads - 1) // threads, threads,
                          { xc, out, ga.array(x.shape, "int64"), ga.array(offs, "int64"), D, out.size })
    end
    return out
  end

  local function input(x, fname)
    x = U.arr(x, fname, "the input")
    if x.dtype == "bool" then fail(fname .. ": bool arrays are not supported") end
    return x
  end

  api.def(signal, [[
scipy.signal.order_filter(a: array_like, domain: array_like, rank: integer) -> ndarray
The rank-th smallest (0-based, as SciPy: a value of the window's order)
of the elements under the nonzero entries of domain (odd sizes, centred;
zeros past a's edges).
]], function(a, domain, rank)
    local fname = name("order_filter")
    a = input(a, fname)
    local dom = U.arr(domain, fname, "domain")
    local shape = dom.shape
    local flat = dom:astype("bool"):ravel():totable()
    local D = #shape
    local function mask(idx)
      local lin = 0
      for d = 1, D do lin = lin * shape[d] + idx[d] end
      return flat[lin + 1]
    end
    return order(a, shape, mask, rank, fname)
  end)

  local function kernel_size(ks, nd, fname)
    local k = {}
    if ks == nil then
      for d = 1, nd do k[d] = 3 end
    elseif type(ks) == "number" then
      for d = 1, nd do k[d] = ks end
    else
      for i = 1, #ks do k[i] = ks[i] end
      if #k ~= nd then fail(fname .. ": kernel_size must have one entry per dimension") end
    end
    for d = 1, nd do
      if math.type(k[d]) ~= "integer" or k[d] < 1 then fail(fname .. ": kernel_size must be positive integers") end
      if k[d] % 2 == 0 then fail(fname .. ": Each element of kernel_size should be odd.") end
    end
    return k
  end

  api.def(signal, [[
scipy.signal.medfilt(volume: array_like, kernel_size: integer|list? = nil) -> ndarray
The median filter of an N-D array over odd windows (3 per axis by
default), zeros past the edges.
]], function(volume, ks)
    local fname = name("medfilt")
    local k = kernel_size(ks, U.ndim(volume), fname)
    local x = input(volume, fname)
    local W = 1
    for _, v in ipairs(k) do W = W * v end
    return order(x, k, nil, W // 2, fname)
  end)

  api.def(signal, [[
scipy.signal.medfilt2d(input: array_like, kernel_size: integer|list = 3) -> ndarray
The median filter of a 2-D array (odd window sizes, zeros past the edges).
]], function(inp, ks)
    local fname = name("medfilt2d")
    if U.ndim(inp) ~= 2 then fail(fname .. ": input must be 2-D") end
    local k = kernel_size(ks, 2, fname)
    local x = input(inp, fname)
    return order(x, k, nil, (k[1] * k[2]) // 2, fname)
  end)

  api.def(signal, [[
scipy.signal.wiener(im: array_like, mysize: integer|list? = nil, noise: number? = nil) -> ndarray
The Wiener filter: each sample pulled towards its local mean (window
mysize, 3 per axis by default) by the ratio of the noise power (the mean
local variance when nil) to the local variance.
]], function(im, mysize, noise)
    local fname = name("wiener")
    local x = U.arr(im, fname, "im")
    local size = {}
    if mysize == nil then
      for d = 1, x.ndim do size[d] = 3 end
    elseif type(mysize) == "number" then
      for d = 1, x.ndim do size[d] = mysize end
    else
      for i = 1, #mysize do size[i] = mysize[i] end
    end
    if #size ~= x.ndim then fail(fname .. ": mysize must have one entry per dimension") end
    for _, v in ipairs(size) do
      if math.type(v) ~= "integer" or v < 1 then fail(fname .. ": mysize must be positive integers") end
    end
    local count = 1
    for _, v in ipairs(size) do count = count * v end
    local box = ga.ones(size, "float64")
    local xf = U.cast(x, ga.result_type(x.dtype, "float64"))
    local lmean = S.convolve(xf, box, "same", "auto", fname) / count
    local lvar = S.convolve(xf * xf, box, "same", "auto", fname) / count - lmean * lmean
    local nz = noise
    if nz == nil then nz = ga.mean(lvar):item() end
    local res = (xf - lmean) * (1 - nz / lvar) + lmean
    return ga.where(lvar:lt(nz), lmean, res)
  end)
end
