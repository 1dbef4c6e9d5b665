--- ga.distributed.array: arrays split over the GPUs of one process (CuPy's
-- cupyx.distributed.array). A DistributedArray is chunks, each a box of the
-- whole (index_map.lua) held as an ndarray on a device; its mode says what
-- chunks that overlap mean: "replica" (each holds the values) or a
-- reduction "sum" "prod" "max" "min" (the value is the reduction of every
-- chunk that covers the element; the others hold the identity). matmul
-- multiplies block by block on the devices that hold both blocks; the
-- result is a "sum" array. Chunks move between devices with ga.array (a
-- copy under the target device, API.md §10).
return function(ga, distributed)
  local api = require "gpuarray.api"
  local internal = require "gpuarray.internal"
  local im = require "gpuarray.distributed.index_map"
  local def = api.def

  local modes = [["replica"|"sum"|"prod"|"max"|"min"]]
  local combine = { sum = "add", prod = "multiply", max = "maximum", min = "minimum" }

  local DA = {}
  local DA_mt = { __index = DA, __name = "gpuarray.distributed.DistributedArray" }
  DA_mt.__tostring = function(x)
    return ("<DistributedArray shape %s %s, mode %s, %d chunks on devices %s>"):format(internal.shape_str(x.shape),
      x.dtype, x.mode, #x.chunks_, table.concat(x.devices, ","))
  end
  local function is_da(v) return getmetatable(v) == DA_mt end
  api.set_type("DistributedArray", is_da)
  api.class("DistributedArray", DA)

  -- the identity of mode's reduction for dtype (what a chunk holds where an
  -- earlier chunk carries the value)
  local function identity(mode, dtype)
    if mode == "sum" then return 0 end
    if mode == "prod" then return 1 end
    local kind = ga.dtype(dtype).kind
    if dtype == "bool" then return mode == "min" end
    if kind == "f" then return mode == "max" and -math.huge or math.huge end
    if kind == "c" then internal.fail(("mode %s is not defined for %s"):format(mode, dtype)) end
    local info = ga.iinfo(dtype)
    return mode == "max" and info.min or info.max
  end

  -- a chunk's values (or a part of them) as a new array on device d
  local function on_device(x, d)
    local src = x
    if not x.flags.c_contiguous then
      local _ <close> = ga.Device(x.device):scope()
      src = x:copy()
    end
    local _ <close> = ga.Device(d):scope()
    return ga.array(src)
  end

  local function make(shape, dtype, mode, chunks)
    local devices, seen = {}, {}
    for _, c in ipairs(chunks) do
      if not seen[c.device] then seen[c.device] = true; devices[#devices + 1] = c.device end
    end
    table.sort(devices)
    return setmetatable({ shape = shape, ndim = #shape, dtype = dtype, mode = mode, devices = devices,
                          index_map = im.export(chunks), chunks_ = chunks }, DA_mt)
  end

  -- where a chunk overlaps an earlier one, the identity (mode is a reduction)
  local function blank_overlaps(chunks, mode, dtype)
    local id = identity(mode, dtype)
    for i = 2, #chunks do
      local c = chunks[i]
      for j = 1, i - 1 do
        local ov = im.intersect(c.box, chunks[j].box)
        if ov then
          local _ <close> = ga.Device(c.device):scope()
          c.array[im.relative(ov, c.box)] = id
        end
      end
    end
  end

  -- chunks of x holding the values (replica), as new arrays
  local function replicas(x)
    local out = {}
    for i, c in ipairs(x.chunks_) do
      local _ <close> = ga.Device(c.device):scope()
      local v = c.array:copy()
      if x.mode ~= "replica" then
        local op = ga[combine[x.mode]]
        for j, o in ipairs(x.chunks_) do
          local ov = j ~= i and im.intersect(c.box, o.box)
          if ov then
            local piece = on_device(o.array[im.relative(ov, o.box)], c.device)
            local rel = im.relative(ov, c.box)
            v[rel] = op(v[rel], piece)
          end
        end
      end
      out[i] = { device = c.device, box = c.box, array = v }
    end
    return out
  end

  local array = {}

  def(array, ([[
distributed.array.distributed_array(array: array_like, index_map: table, mode: %s = "replica") -> DistributedArray
Splits array over devices: index_map is device ordinal -> list of blocks, a block one {start, stop} per
axis (1-based, inclusive; {} the whole axis), as make_2d_index_map makes. mode "replica": every chunk
holds its values; a reduction mode: one chunk holds each value and overlapping chunks the identity.
]]):format(modes), function(x, index_map, mode)
    x = ga.asarray(x)
    local fail = function(msg) internal.fail("distributed.array.distributed_array: " .. msg) end
    local _, boxes = im.normalize(index_map, x.shape, fail)
    if mode ~= "replica" then identity(mode, x.dtype) end
    local chunks = {}
    for i, b in ipairs(boxes) do
      chunks[i] = { device = b.device, box = b.box, array = on_device(x[b.box], b.device) }
    end
    if mode ~= "replica" then blank_overlaps(chunks, mode, x.dtype) end
    return make(x.shape, x.dtype, mode, chunks)
  end)

  def(array, ([[
distributed.array.DistributedArray(shape: shape, dtype: dtype, chunks_map: table, mode: %s = "replica")
    -> DistributedArray
A distributed array from its chunks: chunks_map is device ordinal -> list of {array = ndarray on that
device, index = a block (one {start, stop} per axis, 1-based, inclusive)}; the arrays are used, not copied.
]]):format(modes), function(shape, dtype, chunks_map, mode)
    local fail = function(msg) internal.fail("distributed.array.DistributedArray: " .. msg) end
    dtype = ga.dtype(dtype).name
    local index_map = {}
    for d, list in pairs(chunks_map) do
      if type(list) ~= "table" then
        fail(("chunks_map[%s] must be a list of {array =, index =}"):format(tostring(d)))
      end
      index_map[d] = {}
      for k, c in ipairs(list) do
        if type(c) ~= "table" or not ga.is_ndarray(c.array) then
          fail(("chunks_map[%s][%d] must be {array = ndarray, index = block}"):format(tostring(d), k))
        end
        index_map[d][k] = c.index or {}
      end
    end
    local _, boxes = im.normalize(index_map, shape, fail)
    local chunks, pos = {}, {}
    for i, b in ipairs(boxes) do
      pos[b.device] = (pos[b.device] or 0) + 1
      local a = chunks_map[b.device][pos[b.device]].array
      local want = im.shape(b.box)
      if a.device ~= b.device then fail(("the chunk %d of device %d is on device %d"):format(pos[b.device],
        b.device, a.device)) end
      if internal.shape_str(a.shape) ~= internal.shape_str(want) or a.dtype ~= dtype then
        fail(("the chunk %d of device %d is %s %s, its block needs %s %s"):format(pos[b.device], b.device,
          internal.shape_str(a.shape), a.dtype, internal.shape_str(want), dtype))
      end
      chunks[i] = { device = b.device, box = b.box, array = a }
    end
    return make(shape, dtype, mode, chunks)
  end)

  def(DA, [[
DistributedArray:get() -> ndarray
The whole array on the current device (each element: its chunk's value, or the mode's reduction of
the chunks that cover it).
]], function(x)
    local out = ga.full(x.shape, x.mode == "replica" and 0 or identity(x.mode, x.dtype), x.dtype)
    local op = x.mode ~= "replica" and ga[combine[x.mode]]
    for _, c in ipairs(x.chunks_) do
      local piece = on_device(c.array, out.device)
      if op then out[c.box] = op(out[c.box], piece) else out[c.box] = piece end
    end
    return out
  end)

  def(DA, ([[
DistributedArray:change_mode(mode: %s) -> DistributedArray
The same values in another mode (new chunks; chunks move between devices where they overlap).
]]):format(modes), function(x, mode)
    if mode ~= "replica" then identity(mode, x.dtype) end
    local chunks = replicas(x)
    if mode ~= "replica" then blank_overlaps(chunks, mode, x.dtype) end
    return make(x.shape, x.dtype, mode, chunks)
  end)

  def(DA, [[
DistributedArray:chunks() -> table
The chunks: a list of {device = ordinal, index = block (1-based, inclusive), array = ndarray on device}.
]], function(x)
    local out = {}
    for i, c in ipairs(x.chunks_) do out[i] = { device = c.device, index = im.export({ c })[c.device][1],
      array = c.array } end
    return out
  end)

  def(array, [[
distributed.array.make_2d_index_map(i_partitions: list, j_partitions: list, devices: list) -> table
An index map of 2-D blocks: the partitions are cut points (0 first, then increasing to the length:
{0, 2, 4} cuts 4 rows in two), devices[i][j] the device ordinal (or a list of them) holding block (i, j).
Returns device -> list of blocks, each {{row start, row stop}, {col start, col stop}} (1-based, inclusive).
]], function(i_partitions, j_partitions, devices)
    return im.make_2d(i_partitions, j_partitions, devices, function(msg)
      internal.fail("distributed.array.make_2d_index_map: " .. msg)
    end)
  end)

  def(array, [[
distributed.array.matmul(a: DistributedArray, b: DistributedArray) -> DistributedArray
a @ b of 2-D distributed arrays, block by block on the devices that hold both blocks (a's column
blocks must be b's row blocks); the result's mode is "sum" (change_mode("replica") or get() combine it).
]], function(a, b)
    local fail = function(msg) internal.fail("distributed.array.matmul: " .. msg) end
    if a.ndim ~= 2 or b.ndim ~= 2 then fail(("a and b must be 2-D (got %d-D and %d-D)"):format(a.ndim, b.ndim)) end
    if a.shape[2] ~= b.shape[1] then
      fail(("a is %s and b is %s: the inner sizes differ"):format(internal.shape_str(a.shape),
        internal.shape_str(b.shape)))
    end
    local ac = a.mode == "replica" and a.chunks_ or replicas(a)
    local bc = b.mode == "replica" and b.chunks_ or replicas(b)
    local plan = im.matmul_plan(ac, bc, a.shape[1], a.shape[2], b.shape[2], fail)
    local chunks = {}
    for i, p in ipairs(plan) do
      local _ <close> = ga.Device(p.device):scope()
      chunks[i] = { device = p.device, box = p.box, array = ga.matmul(ac[p.a].array, bc[p.b].array) }
    end
    local dtype = #chunks > 0 and chunks[1].array.dtype or ga.result_type(a.dtype, b.dtype)
    return make({ a.shape[1], b.shape[2] }, dtype, "sum", chunks)
  end)

  distributed.array = array
end
