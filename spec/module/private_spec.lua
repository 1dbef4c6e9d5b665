-- The private surface (issue 23): the C module (ga._core) holds the public
-- functions, one private table per feature room or layer, and _test for
-- the hooks of specs, fuzzers, bench and tools; nothing private sits on a
-- public object; the operators are bound where the ufuncs are made; Lua's
-- dtype tables come from C's. Runs without a GPU.
local helper = require "helper"
local ga = helper.ga
local core = ga._core
local internal = require "gpuarray.internal"

local ROOMS = { "api", "ndarray", "runtime", "compile", "elementwise", "reduction", "scan", "select", "sort",
                "random", "blas", "solver", "fft", "sparse", "nccl", "distributed", "profiler", "_test" }

describe("the private surface", function()
  local PRIVATE = getmetatable(core._test)

  it("is one table per room and _test, each marked private, none on ga", function()
    assert.is_table(PRIVATE)
    assert.equal("gpuarray.private", PRIVATE.__name)
    for _, room in ipairs(ROOMS) do
      assert.is_table(core[room], room)
      assert.equal(PRIVATE, getmetatable(core[room]), room)
      if room ~= "_test" then assert.are_not.equal(core[room], ga[room], room) end
    end
    for name, v in pairs(core) do
      assert.is_true(name == "_test" or name:sub(1, 1) ~= "_", "a private name at the top of core: " .. name)
      if type(v) == "table" and getmetatable(v) == PRIVATE then
        local known = false
        for _, room in ipairs(ROOMS) do known = known or room == name end
        assert.is_true(known, "a private table this spec does not know: " .. name)
        assert.are_not.equal(v, ga[name], name)
      end
    end
    for _, room in ipairs(ROOMS) do
      for name, f in pairs(core[room]) do
        assert.is_true(type(f) == "function" or (room == "ndarray" and name == "dtypes")
                       or (room == "nccl" and name == "methods"), room .. "." .. name)
      end
    end
  end)

  -- nil, or an error for objects whose __index raises on unknown names
  local function absent(obj, key)
    local ok, v = pcall(function() return obj[key] end)
    return not ok or v == nil
  end

  it("puts nothing private on public objects", function()
    for name in pairs(ga.methods) do
      assert.are_not.equal("_", name:sub(1, 1), "ndarray method " .. name)
    end
    assert.is_true(absent(ga.add, "_resolve"))
    local ek = ga.ElementwiseKernel("T x", "T y", "y = x", "ek_private")
    assert.is_true(absent(ek, "_source"))
    local rk = ga.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "rk_private")
    assert.is_true(absent(rk, "_source"))
    local raw = ga.RawKernel('extern "C" __global__ void k(float *x) {}', "k")
    assert.is_true(absent(raw, "_compile_for_arch"))
    assert.is_true(absent(ga.RawModule('extern "C" __global__ void k(float *x) {}'), "_compile_for_arch"))
    assert.is_true(absent(ga.get_default_memory_pool(), "_alloc"))
    -- the hooks that replaced them
    assert.equal("float32", (core.elementwise.resolve(ga.add, "float32", 1)))
    assert.matches("ek_private", (core._test.elementwise_kernel_source(ek, { types = { "float32", "float32" } })))
    assert.matches("rk_private", core._test.reduction_kernel_source(rk, { "float64" }))
  end)
end)

describe("the operators", function()
  local mt = debug.getregistry()["gpuarray.ndarray"]
  local function bound(f)
    local _, u = debug.getupvalue(f, 2)
    return u
  end

  it("call the ufuncs the definitions made, through C's own table", function()
    for mm, name in pairs { __add = "add", __sub = "subtract", __mul = "multiply", __div = "divide",
                            __idiv = "floor_divide", __mod = "remainder", __pow = "power", __unm = "negative",
                            __band = "bitwise_and", __bor = "bitwise_or", __bxor = "bitwise_xor",
                            __shl = "left_shift", __shr = "right_shift", __bnot = "invert" } do
      assert.equal(ga[name], bound(mt[mm]), mm)
    end
    for m, name in pairs { eq = "equal", ne = "not_equal", lt = "less", le = "less_equal", gt = "greater",
                           ge = "greater_equal", add_ = "add", sub_ = "subtract", mul_ = "multiply",
                           div_ = "divide", pow_ = "power" } do
      assert.equal(ga[name], bound(ga.methods[m]), m)
    end
    assert.is_function(mt.__lt)
    assert.is_function(mt.__le)
  end)

  it("are bound when the ufunc is made, not looked up on ga by name", function()
    local def
    for _, d in ipairs(internal.ufunc_defs) do
      if d.name == "add" then def = d end
    end
    local old = ga.add
    ga.add = nil                                 -- the public name plays no part
    local u = core.elementwise.ufunc(def)
    ga.add = u                                   -- the same definition: later specs see an equal ufunc
    assert.are_not.equal(old, u)
    assert.equal(u, bound(mt.__add))
    assert.equal(u, bound(ga.methods.add_))
    assert.equal(ga.subtract, bound(mt.__sub))   -- the others stay
  end)
end)

describe("the dtype table", function()
  it("is C's, once, for every Lua file", function()
    local d = core.ndarray.dtypes
    assert.equal(#ga.dtype_names(), #d)
    local chars = ""
    for id, e in ipairs(d) do
      assert.equal(id - 1, e.id)
      assert.equal(e, d[e.name])
      local info = ga.dtype(e.name)
      assert.equal(info.itemsize, e.itemsize, e.name)
      assert.equal(info.kind, e.kind, e.name)
      assert.equal(e.ctype, internal.CTYPE[e.name])
      assert.equal(e.name, internal.CHARS[e.char])
      chars = chars .. e.char
    end
    assert.equal("?bhilBHILefdFDE", chars)
    assert.equal("float32", internal.COMPUTE.bfloat16)
    assert.equal("float32", internal.COMPUTE.float16)
    assert.equal("int8", internal.COMPUTE.int8)
    assert.equal("unsigned long long", internal.CTYPE.uint64)
    assert.equal("float16", internal.CTYPE.float16)
    assert.equal(16, internal.SIZE.complex128)
    assert.equal("u", internal.KIND.uint8)
    -- the ufunc loop signatures read the same chars
    assert.same({ "ff->f", "dd->d" }, { ga.arctan2.types[2], ga.arctan2.types[3] })
  end)

  it("is not typed again in Lua", function()
    for _, f in ipairs { "lua/gpuarray/reduction/builtins.lua", "lua/gpuarray/fuse/trace.lua",
                         "lua/gpuarray/jit/types.lua" } do
      local h = assert(io.open(f))
      local text = h:read("a")
      h:close()
      assert.is_nil(text:find('uint64 = "unsigned long long"', 1, true), f)
      assert.is_nil(text:find("complex128 = 16", 1, true), f)
    end
  end)
end)
