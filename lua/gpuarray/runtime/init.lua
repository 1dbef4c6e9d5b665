--- The declarations (API.md §0) of the functions and methods written in C
-- in the lower layers: devices, streams, events, memory pools, graphs,
-- the dtype functions, user kernels and DLPack. The C functions keep their
-- own argument handling; each is wrapped once in its declaration here, so
-- options, types and surplus arguments follow the one rule, and the
-- reference and ga.help have their entries. The calls that are timed
-- (operators, ufunc calls, kernel launches) are not wrapped: the C
-- objects check their options against their declarations themselves.
return function(ga)
  local api = require "gpuarray.api"
  local internal = require "gpuarray.internal"
  local core = ga._core
  local def = api.def

  --- The method table of a C object type (ga_new_type keeps it in its
  -- metatable), registered as a class for the reference and the surface check
  local function class(name, mt_name)
    local mt = debug.getregistry()["gpuarray." .. mt_name]
    local methods = mt and (mt.__methods or (type(mt.__index) == "table" and mt.__index))
    if methods then api.class(name, methods) end
    return methods or {}
  end

  -- Options tables for the C functions that take one, without nils
  local function opts(t)
    local o = {}
    for k, v in pairs(t) do o[k] = v end
    return o
  end

  --- Rebind a C method by its declaration; impl receives the declared
  -- values (self first) and defaults to the C method itself
  local function method(methods, text, impl)
    local name = text:match("^%s*[%w_.]+:([%w_]+)")
    local c = methods[name]
    assert(c, "runtime: no C method " .. name)
    return def(methods, text, impl and impl(c) or c)
  end

  ---------------------------------------------------------------------------
  -- devices

  local c_device = ga.Device
  def(ga, [[
Device(id: integer|Device?) -> Device
A device by its 0-based CUDA ordinal (the current one by default): d:use(),
d:scope() for `local _ <close> = d:scope()`, d:synchronize(), d:mem_info().
]], function(id) return c_device(id) end)
  local dev_methods = class("Device", "Device")
  method(dev_methods, [[
Device:use() -> Device
Makes the device current for this Lua state; returns the device that was.
]])
  method(dev_methods, [[
Device:scope() -> userdata
The device current until the returned object is closed (`local _ <close> = d:scope()`).
]])
  method(dev_methods, [[
Device:synchronize()
Waits for all work queued on the device.
]])
  method(dev_methods, [[
Device:mem_info() -> integer, integer
The device's free and total memory in bytes.
]])
  api.def_nullary(ga, "", {
    { "device_count() -> integer", "The number of CUDA devices (0 without a driver or device).", ga.device_count },
    { "get_device() -> Device", "The current device of this Lua state.", ga.get_device },
    { "get_device_id() -> integer", "The current device's 0-based ordinal.", ga.get_device_id },
    { "is_available() -> boolean", "Whether a CUDA device can be used.", ga.is_available },
    { "runtime_version() -> integer", "The CUDA runtime's version (12080 for 12.8).", ga.runtime_version },
    { "synchronize()", "Waits for all work on the current device.", ga.synchronize },
    { "cache_dir() -> string", "The folder of the on-disk kernel cache (GPUARRAY_CACHE_DIR).", ga.cache_dir },
    { "get_current_stream() -> Stream", "The current stream of this Lua state.", ga.get_current_stream },
    { "get_default_memory_pool() -> MemoryPool", "The current device's default memory pool.",
      ga.get_default_memory_pool },
    { "get_default_pinned_memory_pool() -> PinnedMemoryPool", "The pool of page-locked host memory.",
      ga.get_default_pinned_memory_pool },
    { "MemoryPool() -> MemoryPool", "A memory pool of its own (cudaMalloc, best fit, stream-ordered reuse).",
      ga.MemoryPool },
    { "MemoryAsyncPool() -> MemoryPool", "A pool over cudaMallocAsync (the driver's stream-ordered allocator).",
      ga.MemoryAsyncPool },
    { "get_allocator() -> MemoryPool?", "The pool set by set_allocator for this Lua state, or nil (the default pool).",
      ga.get_allocator },
  })
  local c_props = ga.device_properties
  def(ga, [[
device_properties(device: integer?) -> table
name, total memory, multiprocessors, compute capability ... of a device (the current one by default).
]], function(device) return c_props(device) end)
  local c_set_allocator = ga.set_allocator
  def(ga, [[
set_allocator(pool: MemoryPool?)
The pool this Lua state allocates from (nil: the device's default pool).
]], function(pool) return c_set_allocator(pool) end)

  ---------------------------------------------------------------------------
  -- streams and events

  -- named as users call it: C names the caller in a no-device error
  local Stream = getmetatable(ga.Stream).__call
  local make_stream = api.def(nil, [[
Stream(*, non_blocking: boolean = false, priority: integer = 0) -> Stream
A new CUDA stream (Stream.null is the legacy default stream): s:use(),
s:scope(), s:synchronize(), s:query(), s:record([event]), s:wait_event(e).
]], function(non_blocking, priority)
    return Stream(ga.Stream, { non_blocking = non_blocking, priority = priority })
  end)
  getmetatable(ga.Stream).__call = function(_, ...) return make_stream(...) end
  api.by_func[ga.Stream] = api.by_func[make_stream]   -- the callable table is the function users reach
  local smethods = class("Stream", "Stream")
  method(smethods, [[
Stream:use() -> Stream
Makes the stream current for this Lua state; returns the stream that was.
]])
  method(smethods, [[
Stream:scope() -> userdata
The stream current until the returned object is closed (`local _ <close> = s:scope()`).
]])
  method(smethods, [[
Stream:synchronize()
Waits for the work queued on the stream.
]])
  method(smethods, [[
Stream:query() -> boolean
Whether all work queued on the stream has finished.
]])
  method(smethods, [[
Stream:record(event: Event?) -> Event
Records an event (a new one when none is given) on the stream.
]])
  method(smethods, [[
Stream:wait_event(event: Event)
Makes later work on the stream wait for the event.
]])
  method(smethods, [[
Stream:destroy()
Releases the stream now (later use raises).
]])
  method(smethods, [[
Stream:begin_capture()
Starts capturing the stream's work into a CUDA graph (Stream:end_capture returns it).
]])
  method(smethods, [[
Stream:end_capture() -> Graph
Ends the capture and returns the graph.
]])
  method(smethods, [[
Stream:is_capturing() -> boolean
Whether the stream is being captured.
]])

  local c_event = ga.Event
  def(ga, [[
Event(*, timing: boolean = true, blocking: boolean = false, disable_timing: boolean = false) -> Event
A CUDA event: e:record([stream]), e:synchronize(), e:query(); ga.get_elapsed_time(e1, e2) in ms.
]], function(timing, blocking, disable_timing)
    return c_event(opts { timing = timing, blocking = blocking, disable_timing = disable_timing })
  end)
  local emethods = class("Event", "Event")
  method(emethods, [[
Event:record(stream: Stream?) -> Event
Records the event on a stream (the current one by default).
]])
  method(emethods, [[
Event:synchronize()
Waits until the event has happened.
]])
  method(emethods, [[
Event:query() -> boolean
Whether the event has happened.
]])
  method(emethods, [[
Event:destroy()
Releases the event now.
]])
  local c_elapsed = ga.get_elapsed_time
  def(ga, [[
get_elapsed_time(start_event: Event, end_event: Event) -> number
Milliseconds between two recorded events.
]], function(a, b) return c_elapsed(a, b) end)

  ---------------------------------------------------------------------------
  -- memory pools

  local pmethods = class("MemoryPool", "MemoryPool")
  -- a MemoryPool is a device pool, or core._test.host_pool()'s pool of host
  -- memory (its own metatable: the test-only methods stay off the public
  -- pools), which the public methods serve too, whichever the spec order
  do
    local reg = debug.getregistry()
    local pool_mt, host_mt = reg["gpuarray.MemoryPool"], reg["gpuarray.HostTestPool"]
    api.set_type("MemoryPool", function(v)
      local mt = getmetatable(v)
      return mt ~= nil and (mt == pool_mt or mt == host_mt)
    end)
  end
  for _, d in ipairs {
    { "used_bytes() -> integer", "Bytes in blocks in use." },
    { "total_bytes() -> integer", "Bytes held from the device (in use and cached)." },
    { "free_bytes() -> integer", "Bytes cached, free for reuse." },
    { "n_free_blocks() -> integer", "Cached free blocks." },
    { "free_all_blocks()", "Returns every cached block to the device." },
    { "get_limit() -> integer", "The limit in bytes (0: none)." },
  } do
    method(pmethods, "MemoryPool:" .. d[1] .. "\n" .. d[2])
  end
  method(pmethods, [[
MemoryPool:set_limit(size: integer?, *, fraction: number?)
At most size bytes (or a fraction of the device's memory) held; 0 or neither: no limit.
]], function(c)
    return function(self, size, fraction)
      if size ~= nil and fraction ~= nil then internal.fail("MemoryPool.set_limit: give size or fraction, not both") end
      if fraction ~= nil then return c(self, { fraction = fraction }) end
      return c(self, size or 0)
    end
  end)
  local ppool = class("PinnedMemoryPool", "PinnedMemoryPool")
  for _, d in ipairs {
    { "used_bytes() -> integer", "Page-locked bytes in use." },
    { "total_bytes() -> integer", "Page-locked bytes held." },
    { "free_bytes() -> integer", "Page-locked bytes cached." },
    { "n_free_blocks() -> integer", "Cached free blocks." },
    { "free_all_blocks()", "Returns every cached block to the system." },
  } do
    method(ppool, "PinnedMemoryPool:" .. d[1] .. "\n" .. d[2])
  end
  -- page-locked host arrays (ga.pinned_empty; src/array/pinned.c)
  local pinned = class("PinnedArray", "PinnedArray")
  for _, d in ipairs {
    { "set(value: any) -> PinnedArray",
      "Copies value (a table, a byte string, an ndarray or a pinned array, broadcast and cast) in; returns it." },
    { "fill(value: scalar) -> PinnedArray", "Sets every element to value; returns the array." },
    { "totable() -> table", "The values as nested Lua tables (after the copies queued into the array finish)." },
    { "tolist() -> table", "The same as totable (NumPy's name)." },
    { "tobytes() -> string", "The raw bytes, C order." },
    { "free()", "Returns the memory to the pinned pool now; later use raises." },
  } do
    method(pinned, "PinnedArray:" .. d[1] .. "\n" .. d[2])
  end

  ---------------------------------------------------------------------------
  -- graphs

  local gmethods = class("Graph", "Graph")
  method(gmethods, [[
Graph:launch(stream: Stream?)
Replays the graph on a stream (the current one by default).
]])
  method(gmethods, [[
Graph:destroy()
Releases the graph now.
]])

  ---------------------------------------------------------------------------
  -- ndarray methods written in C (the rest are declared in their rooms)

  local methods = ga.methods
  local c_get, c_set, c_free, c_to_dlpack = methods.get, methods.set, methods.free, methods.to_dlpack
  def(methods, [[
ndarray:get(out: PinnedArray?, *, stream: Stream?) -> table|PinnedArray
The values on the host: into a pinned array out (asynchronous on the stream), else as nested Lua tables.
]], function(self, out, stream)
    if stream ~= nil then return c_get(self, out, { stream = stream }) end
    return c_get(self, out)
  end)
  def(methods, [[
ndarray:set(value: any) -> ndarray
Copies value (a table, a byte string, an ndarray or a pinned array, broadcast and cast) into the array; returns it.
]], function(self, v) return c_set(self, v) end)
  def(methods, [[
ndarray:free()
Returns the memory to the pool now; later use raises.
]], function(self) return c_free(self) end)
  def(methods, [[
ndarray:to_dlpack(*, versioned: boolean = false) -> userdata
A DLManagedTensor (DLManagedTensorVersioned when versioned) over the array's memory, for zero-copy exchange.
]], function(self, versioned) return c_to_dlpack(self, { versioned = versioned }) end)

  -- the in-place and comparison methods: the ufunc with the array first
  for name, doc in pairs {
    add_ = "x += y in place; returns x.", sub_ = "x -= y in place; returns x.",
    mul_ = "x *= y in place; returns x.", div_ = "x /= y in place; returns x.",
    pow_ = "x = x ^ y in place; returns x.",
    eq = "x == y elementwise (a bool array).", ne = "x ~= y elementwise (a bool array).",
    lt = "x < y elementwise (a bool array).", le = "x <= y elementwise (a bool array).",
    gt = "x > y elementwise (a bool array).", ge = "x >= y elementwise (a bool array).",
  } do
    -- declared, not wrapped: C checks the operand (its errors name the
    -- method) and the method must stay the C closure over the ufunc
    api.declare(("ndarray:%s(y: array_like) -> ndarray\n%s"):format(name, doc), methods[name])
  end

  ---------------------------------------------------------------------------
  -- dtypes (src/array/dtype_lua.c)

  for _, d in ipairs {
    { "dtype", [[
dtype(dtype: any) -> dtype
The dtype object of a name, a dtype object or a typed scalar: ga.dtype("float32") == ga.float32.
]] },
    { "promote_types", [[
promote_types(type1: any, type2: any) -> string
The smallest dtype both cast to safely (NumPy's promotion table), by name.
]] },
    { "finfo", [[
finfo(dtype: any) -> table
Machine limits of a float (or a complex's component) dtype: bits, eps, max, min, tiny, resolution, precision.
]] },
    { "iinfo", [[
iinfo(dtype: any) -> table
Limits of an integer dtype: bits, min, max.
]] },
    { "set_default_dtype", [[
set_default_dtype(dtype: any)
The dtype creation routines use without one, for this Lua state (float64 at first).
]] },
    { "get_default_dtype", [[
get_default_dtype() -> string
The default dtype's name.
]] },
    { "dtype_names", [[
dtype_names() -> table
The names of every dtype, a list.
]] },
  } do
    local c = ga[d[1]]
    def(ga, d[2], function(...) return c(...) end)
  end
  local c_result_type = ga.result_type
  def(ga, [[
result_type(...: array_like|dtype) -> string
The dtype NumPy's promotion gives arrays, dtypes and scalars together (Lua numbers weak), by name.
]], function(...) return c_result_type(...) end)
  local c_can_cast = ga.can_cast
  def(ga, [[
can_cast(from_: any, to: any, casting: "no"|"equiv"|"safe"|"same_kind"|"unsafe" = "safe") -> boolean
Whether a cast is allowed under a casting rule (NumPy's).
]], function(from, to, casting) return c_can_cast(from, to, casting) end)
  local c_is_ndarray = ga.is_ndarray
  def(ga, [[
is_ndarray(obj: any?) -> boolean
Whether obj is a gpuarray ndarray (views and freed arrays too; pinned host arrays are not).
]], function(v) return c_is_ndarray(v) end)

  -- the dtype objects construct typed scalars; C binds their calls by
  -- these declarations (an object's identity is the dtype: no wrapper)
  for _, d in ipairs(internal.dtypes) do
    local text
    if d.kind == "c" then
      text = ("%s(real: scalar, imag: number?) -> scalar\n"
              .. "A %s typed scalar from a number, a {re, im} pair, or re and im.")
        :format(d.name, d.name)
    else
      text = ("%s(value: scalar) -> scalar\nA %s typed scalar (a value that does not fit raises); also the dtype %s.")
        :format(d.name, d.name, d.name)
    end
    local decl = api.declare(text, ga[d.name])
    core.ndarray.dtype_decl(ga[d.name], decl)
  end

  ---------------------------------------------------------------------------
  -- user kernels (the constructors; their calls are the hot paths)

  local c_ek = ga.ElementwiseKernel
  def(ga, [[
ElementwiseKernel(in_params: string, out_params: string, operation: string, name: string = "kernel",
                  *, preamble: string?, options: string|list?, loop_prep: string?, after_loop: string?,
                  no_return: boolean = false, reduce_dims: boolean = true) -> ElementwiseKernel
A kernel from a CUDA expression per element, as CuPy's (parameters "float32 x, T y, raw T z").
Call k(args...[, {size=, block_size=, stream=}]); k:compile(dtype...) compiles without launching.
]], function(i, o, op, name, preamble, options, loop_prep, after_loop, no_return, reduce_dims)
    return c_ek(i, o, op, name, opts { preamble = preamble, options = options, loop_prep = loop_prep,
                                       after_loop = after_loop, no_return = no_return, reduce_dims = reduce_dims })
  end)
  local c_rk = ga.ReductionKernel
  def(ga, [[
ReductionKernel(in_params: string, out_params: string, map_expr: string, reduce_expr: string,
                post_map_expr: string, identity: string|number?, name: string = "reduce_kernel",
                *, reduce_type: string?, preamble: string?, options: string|list?) -> ReductionKernel
A reduction from map, reduce (a, b) and post-map expressions, as CuPy's.
Call k(x[, {axis=, keepdims=, out=}]).
]], function(i, o, map, red, post, identity, name, reduce_type, preamble, options)
    return c_rk(i, o, map, red, post, identity, name,
                opts { reduce_type = reduce_type, preamble = preamble, options = options })
  end)
  local c_raw = ga.RawKernel
  def(ga, [[
RawKernel(code: string, name: string, *, options: string|list?) -> RawKernel
A __global__ function of CUDA source, compiled now by NVRTC. Launch k(grid, block, args[, {shared_mem=, stream=}]).
]], function(code, name, options) return c_raw(code, name, opts { options = options }) end)
  local c_mod = ga.RawModule
  def(ga, [[
RawModule(code: string, *, options: string|list?, name_expressions: list?) -> RawModule
CUDA source compiled now by NVRTC; m:get_function(name) gives its kernels (templates through name_expressions).
]], function(code, options, name_expressions)
    return c_mod(code, opts { options = options, name_expressions = name_expressions })
  end)
  local rawk = class("RawKernel", "RawKernel")
  if rawk.set_max_dynamic_shared_mem then
    method(rawk, [[
RawKernel:set_max_dynamic_shared_mem(bytes: integer)
Allows launches with up to bytes of dynamic shared memory.
]])
  end
  local rawm = class("RawModule", "RawModule")
  if rawm.get_function then
    method(rawm, [[
RawModule:get_function(name: string) -> RawKernel
A kernel of the module by its name or one of its name expressions.
]])
  end
end
