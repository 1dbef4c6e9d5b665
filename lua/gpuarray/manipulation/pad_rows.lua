--- pad's row kernel (bench key pad_reflect_f32_4096^2_GBps): the gather of
-- pad_gather.lua for results whose last axis is long and whose input rows
-- are contiguous, as a RawKernel that moves bits. A block takes a tile of
-- one output row: the source row is found once per tile (the outer axes'
-- divisions and closed forms, per row, not per element), then each thread
-- writes U 16-byte vectors of the row, loading all of them before storing
-- any. A vector whose sources lie inside the input row and are 16-byte
-- aligned is one vector load (the whole middle of a row, in the bench);
-- the others take their elements one by one through the same closed forms
-- as pad_gather.lua (ga_pad_reflect, ...), in 32-bit arithmetic. The few
-- elements before the row's first aligned vector and after its last one
-- go one per thread. Elements are moved as unsigned integers of their size
-- (1, 2, 4 or 8 bytes), so one kernel serves every dtype of that size and
-- the values are the input's bits, as the gather kernel's.
--
-- Taken for the modes edge, reflect, symmetric and wrap (constant keeps
-- the gather kernel: its values are typed scalars) when the row is at
-- least ROW_BYTES long; everything else is pad_gather.lua's.
local gather = require "gpuarray.manipulation.pad_gather"

local rows = {}

rows.U = 4                 -- vectors a thread has in flight
rows.MAX_OUTER = 3         -- outer axes (after merging) a kernel takes
rows.MAX_THREADS = 512     -- a block's threads (the launch bound)
rows.ROW_BYTES = 512       -- shorter rows leave most of a block idle
rows.MODES = { edge = true, reflect = true, symmetric = true, wrap = true }

local ETYPE = { [1] = "unsigned char", [2] = "unsigned short", [4] = "unsigned int", [8] = "unsigned long long" }
local INT_MAX = 0x7fffffff

--- The kernel's name and CUDA source for a mode, an element size and the
-- number of outer axes
function rows.source(mode, size, nouter)
  local E = assert(ETYPE[size], "pad_rows: element size")
  local name = ("ga_pad_rows_%s_%d_%d"):format(mode, size, nouter)
  local params = { ("const %s *__restrict__ x, %s *__restrict__ y, long long tiles, long long per_row, "
                    .. "int W, int n, int b"):format(E, E) }
  for d = 0, nouter - 1 do
    params[#params + 1] = ("long long n%d, long long b%d, long long o%d, long long s%d"):format(d, d, d, d)
  end
  -- the source row: outer axis d of the output (length o<d>, pad b<d>)
  -- reads input position t of n<d> at stride s<d> (elements)
  local outer = {}
  for d = nouter - 1, 0, -1 do
    if d > 0 then
      outer[#outer + 1] = ("      { const long long c = q %% o%d; q /= o%d; "
                           .. "src += ga_pad_%s<long long>(c - b%d, n%d) * s%d; }"):format(d, d, mode, d, d, d)
    else
      outer[#outer + 1] = ("      src += ga_pad_%s<long long>(q - b0, n0) * s0;"):format(mode)
    end
  end
  local src = ([[
%s
typedef %s ga_pe;
#define GA_PV (16 / (int)sizeof(ga_pe))
#define GA_PU %d
struct __align__(16) ga_pad_vec { ga_pe e[GA_PV]; };
extern "C" __global__ void __launch_bounds__(%d) %s(%s) {
  const int nt = blockDim.x;
  const int span = GA_PU * nt;
  for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const long long r = tile / per_row;
    const int seg = (int)(tile - r * per_row);
    long long src = 0;
    {
      long long q = r;
      (void)q;
%s
    }
    const ga_pe *xr = x + src;
    ga_pe *yr = y + r * (long long)W;
    // the elements before the row's first 16-byte boundary, and after its last
    int h = (int)(((16u - (unsigned)((unsigned long long)yr & 15u)) & 15u) / sizeof(ga_pe));
    if (h > W) h = W;
    const int nv = (W - h) / GA_PV;
    if (seg == 0) {
      for (int c = threadIdx.x; c < h; c += nt) yr[c] = xr[ga_pad_%s<int>(c - b, n)];
      for (int c = h + nv * GA_PV + threadIdx.x; c < W; c += nt) yr[c] = xr[ga_pad_%s<int>(c - b, n)];
    }
    const int k0 = seg * span + threadIdx.x;
    ga_pad_vec v[GA_PU];
#pragma unroll
    for (int u = 0; u < GA_PU; u++) {
      const int k = k0 + u * nt;
      if (k < nv) {
        const int t0 = h + k * GA_PV - b;
        if (t0 >= 0 && t0 <= n - GA_PV && ((unsigned long long)(xr + t0) & 15u) == 0) {
          v[u] = *reinterpret_cast<const ga_pad_vec *>(xr + t0);
        } else {
#pragma unroll
          for (int j = 0; j < GA_PV; j++) v[u].e[j] = xr[ga_pad_%s<int>(t0 + j, n)];
        }
      }
    }
#pragma unroll
    for (int u = 0; u < GA_PU; u++) {
      const int k = k0 + u * nt;
      if (k < nv) *reinterpret_cast<ga_pad_vec *>(yr + h + k * GA_PV) = v[u];
    }
  }
}
]]):format(gather.PREAMBLE, E, rows.U, rows.MAX_THREADS, name, table.concat(params, ", "),
           table.concat(outer, "\n"), mode, mode, mode)
  return name, src
end

--- The launch for a merged input layout (shape, byte strides, itemsize),
-- its per-axis {before, after} widths and a mode, or nil when the row
-- kernel does not take it. Returns the kernel's key arguments (mode, size,
-- outer axes), the scalar arguments after x and y, the grid and the block.
function rows.plan(shape, strides, itemsize, widths, mode)
  local nd = #shape
  if not rows.MODES[mode] or not ETYPE[itemsize] or nd < 1 or nd - 1 > rows.MAX_OUTER then return nil end
  if strides[nd] ~= itemsize then return nil end
  for d = 1, nd do
    if strides[d] % itemsize ~= 0 then return nil end
  end
  local n = shape[nd]
  local W = n + widths[nd][1] + widths[nd][2]
  -- 32-bit positions in a row (the vectors' ends included)
  if W * itemsize < rows.ROW_BYTES or W > INT_MAX - 64 or n > INT_MAX - 64 then return nil end
  local V = 16 // itemsize
  local nrows = 1
  for d = 1, nd - 1 do nrows = nrows * (shape[d] + widths[d][1] + widths[d][2]) end
  local nv = W // V
  -- enough threads that a row is one tile where that fits a block
  local threads = math.min(rows.MAX_THREADS, math.max(64, ((nv + rows.U - 1) // rows.U + 31) // 32 * 32))
  local per_row = math.max(1, (nv + rows.U * threads - 1) // (rows.U * threads))
  local tiles = nrows * per_row
  local args = { tiles, per_row, W, n, widths[nd][1] }
  for d = 1, nd - 1 do
    args[#args + 1] = shape[d]
    args[#args + 1] = widths[d][1]
    args[#args + 1] = shape[d] + widths[d][1] + widths[d][2]
    args[#args + 1] = strides[d] // itemsize
  end
  return { mode = mode, size = itemsize, nouter = nd - 1, args = args, grid = math.min(tiles, 1 << 30),
           block = threads }
end

-- cache[mode][size * 8 + nouter]: no key string built per call
local cache = {}

--- The RawKernel for a mode, an element size and a number of outer axes
-- (built once per Lua state)
function rows.kernel(ga, mode, size, nouter)
  local by_mode = cache[mode]
  if not by_mode then
    by_mode = {}
    cache[mode] = by_mode
  end
  local k = by_mode[size * 8 + nouter]
  if not k then
    local name, src = rows.source(mode, size, nouter)
    k = ga.RawKernel(src, name)
    by_mode[size * 8 + nouter] = k
  end
  return k
end

--- Launch plan p (rows.plan's) with input x and result out: only their
-- data pointers are read, so x may be the unmerged input and out the
-- C-contiguous result of the unmerged shape (the same bytes in the same
-- order as the merged layout's). The argument list is built once per plan
-- (pad keeps plans in a memo): a call puts its two arrays in the first
-- two slots and takes them out again after the launch, which reads the
-- list synchronously, so a kept plan holds no array, even when the launch
-- raises (hence the pcall: about 0.05 us).
function rows.launch(ga, p, x, out)
  local k = p.kernel
  if not k then   -- the first launch of this plan
    k = rows.kernel(ga, p.mode, p.size, p.nouter)
    p.kernel, p.argv = k, { false, false, table.unpack(p.args) }
  end
  local argv = p.argv
  argv[1], argv[2] = x, out
  local ok, err = pcall(k, p.grid, p.block, argv)
  argv[1], argv[2] = false, false
  if not ok then error(err, 0) end   -- pad's binder names pad in it (API.md §0)
end

return rows
