-- What the fuzzing run of issue 16 found (memory errors, hangs, undefined
-- behaviour, unprefixed errors, lax parsing), each as it reproduced: without
-- a GPU (zero-size arrays need no device memory). Under `make asan` a
-- regression here is also a sanitizer report.
local internal = require("gpuarray.internal")
local helper = require "helper"
local ga = helper.ga
local core = ga._core
local gaerror = helper.assert_gaerror

local function tmpfile(bytes)
  local path = os.tmpname()
  local f = assert(io.open(path, "wb"))
  f:write(bytes)
  f:close()
  return path
end

-- A .npy v1 file with this header dict and no data
local function npy(dict)
  local total = 10 + #dict + 1
  local pad = (64 - total % 64) % 64
  return "\x93NUMPY\1\0" .. string.pack("<I2", #dict + pad + 1) .. dict .. (" "):rep(pad) .. "\n"
end

describe("fuzz findings: memory errors in the public API", function()
  it("a failed set_default_dtype keeps the default", function()
    local before = ga.get_default_dtype()
    assert.is_false(pcall(ga.set_default_dtype))
    assert.is_false(pcall(ga.set_default_dtype, "float128"))
    assert.is_false(pcall(ga.set_default_dtype, {}))
    assert.equal(before, ga.get_default_dtype())
    assert.equal(before, ga.empty(0).dtype)
  end)

  it("reshape refuses element counts that overflow", function()
    local x = ga.empty(0)
    gaerror(function() return x:reshape(1 << 32, 1 << 32) end, "too large")
    gaerror(function() return x:reshape(0, 1 << 62, 1 << 62) end, "too large")
    gaerror(function() return x:reshape({ 1 << 62, 4, -1 }) end)
    gaerror(function() return ga.reshape(x, { math.maxinteger, math.maxinteger, 0 }) end, "too large")
    -- counts that fit are views with consistent sizes, -1 inferred
    assert.same({ 2, 0, 3 }, ga.empty({ 3, 0, 2 }):reshape(2, -1, 3).shape)
    assert.same({ 0, 7 }, ga.empty({ 7, 0 }):reshape({ 0, 7 }).shape)
    gaerror(function() return x:reshape(1 << 62, 4, -1) end, "too large")
    -- found by the 30-minute run: a 0 hides the overflow from the count
    gaerror(function() return x:reshape(1 << 62, 0, 1 << 62, 4) end, "too large")
    local y = x:reshape(0, 1 << 40)
    assert.same({ 0, 1 << 40 }, y.shape)
    assert.equal(0, y.size)
    assert.equal(0, y.nbytes)
    assert.same({ 0 }, y:ravel().shape)
  end)

  it("no array has more elements or bytes than int64 counts", function()
    gaerror(function() return ga.empty({ 0, 1 << 62, 1 << 62 }) end, "too large")
    gaerror(function() return ga.empty({ 1 << 61, 0, 8 }) end, "too large")
    gaerror(function() return ga.empty({ 0, 1 << 61 }, "complex128") end, "too large")
    gaerror(function() return ga.broadcast_to(ga.empty({ 0 }), { 1 << 62, 1 << 62, 0 }) end, "too large")
    local ok = ga.empty({ 0, 1 << 59 }, "float64")       -- 2^62 bytes a row: fits
    assert.equal(0, ok.size)
    assert.same({ 8 << 59, 8 }, ok.strides)
  end)
end)

describe("fuzz findings: memory errors in the _core test hooks", function()
  it("_compile refuses an options list whose length lies", function()
    local liar = setmetatable({}, { __len = function() return -1 end })
    gaerror(function() return core._test.compile("__global__ void k() {}", liar, 90) end, "options")
    local huge = setmetatable({}, { __len = function() return math.maxinteger end })
    gaerror(function() return core._test.compile("__global__ void k() {}", huge, 90) end, "options")
  end)

  it("_reduction_source takes only built-in reductions and needs a dtype", function()
    local u = io.stdout
    local function impostor() return u, u end
    gaerror(function() return core._test.reduction_source(impostor, "float32") end, "not a built-in reduction")
    gaerror(function() return core._test.reduction_source(print, "float32") end, "not a built-in reduction")
    gaerror(function() return core._test.reduction_source(internal.reductions.sum, nil) end, "dtype")
    gaerror(function() return core._test.reduction_source(internal.reductions.sum, "float32", { vec = 3 }) end, "vec")
    gaerror(function() return core._test.reduction_source(internal.reductions.sum, "float32", { ndk = "x" }) end, "ndk")
    assert.is_string(core._test.reduction_source(internal.reductions.sum, "float32"))
  end)

  it("_scan_source needs an input dtype", function()
    gaerror(function() return core._test.scan_source("cumsum", nil) end, "dtype")
    assert.is_string((core._test.scan_source("cumsum", "float32")))
  end)

  it("_disk_cache_write keeps long lists of names intact", function()
    local dir = os.tmpname()
    os.remove(dir)
    local names = {}
    for i = 1, 50 do names[i] = ("n%d_"):format(i) .. ("x"):rep(2000) end
    assert.is_true(core._test.disk_cache_write(dir, "k", "img", names))
    local img, back = core._test.disk_cache_read(dir, "k")
    assert.equal("img", img)
    assert.same(names, back)
    gaerror(function() return core._test.disk_cache_write(dir, "k", "img", { "a\0b" }) end, "NUL")
    gaerror(function() return core._test.disk_cache_write(dir, "k", "img", { {} }) end, "not a string")
    os.execute("rm -rf '" .. dir .. "'")
  end)
end)

describe("fuzz findings: hangs", function()
  it("prints and converts empty arrays with huge leading axes at once", function()
    local x = ga.empty({ 1, 1 << 62, 0 }, "int8")
    assert.equal("array([], shape={1,4611686018427387904,0}, dtype=int8)", tostring(x))
    gaerror(function() return x:totable() end, "nested tables")
    assert.equal("array([], shape={0,3}, dtype=float32)", tostring(ga.empty({ 0, 3 }, "float32")))
    assert.equal("array([], dtype=float64)", tostring(ga.empty(0)))
    assert.same({ {}, {} }, ga.empty({ 2, 0 }):totable())
  end)

  it("array_split bounds the number of sections", function()
    gaerror(function() return ga.array_split(ga.empty({ 2, 0 }), math.maxinteger) end, "sections")
    local parts = ga.array_split(ga.empty({ 2, 0 }), 3)
    assert.equal(3, #parts)
    assert.same({ 1, 0 }, parts[1].shape)
    assert.same({ 0, 0 }, parts[3].shape)
  end)

  it("tables whose shared rows count past int64 are refused before the walk", function()
    local t = {}
    for _ = 1, 8 do
      local row = {}
      for i = 1, 1 << 10 do row[i] = t end
      t = row
    end
    gaerror(function() return ga.array(t) end, "too large")
  end)

  it("repeat_ of an empty array with huge counts returns at once (found by CI's fuzz run)", function()
    local r = ga.repeat_(ga.empty({ 2, 3, 0 }, "uint64"), { 0, 2147483648, 0 }, 2)
    assert.same({ 2, 2147483648, 0 }, r.shape)
    assert.equal("uint64", r.dtype)
    gaerror(function() return ga.repeat_(ga.empty({ 2, 0 }), { math.maxinteger, 1 }, 1) end, "past 2^63")
  end)

  it("lists are read raw: an endless __index cannot make them endless", function()
    local endless = setmetatable({ 1, 2 }, { __index = function(_, k) return k end })
    -- a list is a plain table: the binder refuses one with a metatable
    gaerror(function() return ga.split(ga.empty({ 0, 3 }), endless, 2) end, "split: indices_or_sections must be")
    local parts = ga.split(ga.empty({ 0, 3 }), { 1, 2 }, 2)
    assert.equal(3, #parts)
  end)
end)

describe("fuzz findings: undefined behaviour and wrong results", function()
  it("arange counts in 128 bits and range-checks float lengths", function()
    gaerror(function() return ga.arange(math.mininteger, math.maxinteger) end, "too large")
    gaerror(function() return ga.arange(math.maxinteger, math.mininteger, -1) end, "too large")
    gaerror(function() return ga.arange(0, 1e300) end, "too large")
    gaerror(function() return ga.arange(0, 0 / 0) end, "not finite")
    assert.equal(0, ga.arange(math.maxinteger, math.mininteger).size)
    assert.equal(0, ga.arange(5, 5).size)
  end)

  it("a slice step of mininteger selects one element", function()
    local v = ga.empty({ 3, 0 })[{ { nil, nil, math.mininteger } }]
    assert.same({ 1, 0 }, v.shape)
    local shape, strides, offset = core._test.index_view({ 3 }, { 8 }, 8, { { nil, nil, math.mininteger } })
    assert.same({ 1 }, shape)
    assert.equal(16, offset)             -- the last element, as NumPy's x[::-2**63]
    assert.equal(1, #strides)
    shape = core._test.index_view({ 5 }, { 8 }, 8, { { nil, nil, math.maxinteger } })
    assert.same({ 1 }, shape)
    gaerror(function() return core._test.index_view({ 3 }, { math.maxinteger }, 8, { 3 }) end, "overflows")
  end)

  it("floats are range-checked before they become integers", function()
    for _, f in ipairs({ 0 / 0, 1 / 0, -1 / 0, 1e300, 2.0 ^ 63, -2.0 ^ 64, 0.5 }) do
      gaerror(function() return ga.broadcast_shapes(f) end, "broadcast_shapes")
      gaerror(function() return ga.empty(f) end)
      gaerror(function() return ga.empty(0):reshape(f) end)
    end
    gaerror(function() return ga.broadcast_shapes(3.0) end, "broadcast_shapes: each extra argument must be a shape")
  end)

  it("axis merging and extents saturate instead of overflowing", function()
    local s, st = core._test.merge_axes({ 2, math.maxinteger }, { -8, math.maxinteger })
    assert.same({ 2, math.maxinteger }, s)
    assert.same({ -8, math.maxinteger }, st)
  end)

  it("reductions over huge empty arrays refuse outputs that cannot exist", function()
    local x = ga.empty({ 0, 1 << 30, 1 << 30 }, "int8")
    gaerror(function() return x:sum(1) end)
    gaerror(function() return x:cumsum(1) end)
  end)

  it("zero-size pinned arrays copy nothing from nowhere", function()
    local ok, p = pcall(ga.pinned_empty, 0, "float32")
    if not ok then return pending("pinned memory needs a CUDA runtime with a driver") end
    p:set("")
    assert.equal("", p:tobytes())
  end)
end)

describe("fuzz findings: every error says gpuarray", function()
  it("broadcast_arrays and the options of select routines", function()
    -- a Lua number is array_like (NumPy's broadcast_arrays(1) is [array(1)]);
    -- what is not, and shapes that do not broadcast, raise
    gaerror(function() return ga.broadcast_arrays("a") end, "broadcast_arrays: each extra argument must be an array")
    gaerror(function() return ga.broadcast_arrays(ga.empty({ 0, 2 }), ga.empty({ 0, 3 })) end,
            "broadcast_arrays: shapes {0,2}, {0,3} cannot be broadcast together")
    local x = ga.empty(0)
    gaerror(function() return ga.isclose(x, x, "5") end, "isclose: rtol must be a number")
    gaerror(function() return ga.allclose(x, x, 1e-5, 1e-8, false, 5) end, "allclose: too many arguments")
    gaerror(function() return ga.clip(x, 0, 1, 5) end, "clip: out must be an ndarray")
    gaerror(function() return ga.where(x, x, x, 5) end, "where: too many arguments (at most 3, got 4)")
    gaerror(function() return ga.around(x, 0, 5) end, "around: out must be an ndarray")
    gaerror(function() return ga.take(x, x, 1, 5) end, "take: out must be an ndarray or nil, got 5")
    gaerror(function() return ga.concatenate({ x, x }, 1, 5) end, "concatenate: out must be an ndarray or nil, got 5")
  end)

  it("take's axis and ElementwiseKernel's definition strings (the fuzzers in strict mode)", function()
    local x, i = ga.empty({ 0, 2 }), ga.empty(0, "int64")
    gaerror(function() return ga.take(x, i, { axis = "1" }) end, 'take: axis must be an integer or nil, got "1"')
    gaerror(function() return ga.take(x, i, { axis = 1.5 }) end, "take: axis must be an integer or nil, got 1.5")
    gaerror(function() return ga.ElementwiseKernel({}, "float32 y", "y = 1") end,
      "ElementwiseKernel: in_params must be a string, got table")
    gaerror(function() return ga.ElementwiseKernel("float32 x", x, "y = x") end,
      "ElementwiseKernel: out_params must be a string, got gpuarray.ndarray")
    gaerror(function() return ga.ElementwiseKernel("float32 x", "float32 y") end,
      "ElementwiseKernel: missing argument 'operation'")
  end)

  it("roll's shift and axis lists and the libraries' integer lists with holes", function()
    -- the 30-minute run on 01f3299 (shape target): roll checked its shifts
    -- with ipairs, which stops at the first hole, then added them up
    local x = ga.empty({ 2, 0, 3, 0 }, "int64")
    gaerror(function() ga.roll(x, { nil, { -128 }, 11 }, 1) end, "roll: shift has a hole at entry 1")
    local s = { 1, 1, 1 }
    s[2] = nil
    gaerror(function() ga.roll(x, s, 1) end, "roll: shift has a hole at entry 2")
    gaerror(function() ga.roll(x, s) end, "roll: shift has a hole at entry 2")
    local a = { 0, 1, 0 }
    a[2] = nil
    gaerror(function() ga.roll(x, 1, a) end, "roll: axis must be an integer or a list of integers or nil, got table")
    gaerror(function() ga.roll(x, 1, 0.5) end, "roll: axis must be an integer or a list of integers or nil, got 0.5")
    -- internal.int_list let a hole through as nil
    gaerror(function() ga.random.random(s) end, "random.random: size must be a shape")
    gaerror(function() ga.fft.fftn(x, s) end, "s has a hole at entry 2")
    -- and a list without holes still rolls
    local y = ga.roll(x, { 1, 2 }, { 1, 3 })
    assert.same({ { 2, 0, 3, 0 }, "int64" }, { y.shape, y.dtype })
  end)

  it("save and load", function()
    gaerror(function() return ga.save(os.tmpname(), function() end) end, "save: arr must be an array")
    for _, bytes in ipairs({ "\x93NUMPY", "\x93NUMPY\1", "\x93NUMPY\1\0\200\0{" }) do
      local path = tmpfile(bytes)
      gaerror(function() return ga.load(path) end, "truncated")
      os.remove(path)
    end
    gaerror(function() return ga.load("/") end, "load: /")
  end)
end)

describe("fuzz findings: strict parsing", function()
  it(".npy shapes are non-negative integers that fit, fortran_order a boolean", function()
    local bad = {
      "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 99999999999999999999), }",
      "{'descr': '<f8', 'fortran_order': False, 'shape': (-1, 0), }",
      "{'descr': '<f8', 'fortran_order': False, 'shape': (2.5, 0), }",
      "{'descr': '<f8', 'fortran_order': False, 'shape': (0, x), }",
      "{'descr': '<f8', 'fortran_order': 1, 'shape': (0,), }",
      "{'descr': '<f8', 'fortran_order': false, 'shape': (0,), }",
      "{'descr': '<f8', 'fortran_order': False, 'shape': (1 << 40, 1 << 40, 0), }",
    }
    for _, dict in ipairs(bad) do
      local path = tmpfile(npy(dict))
      gaerror(function() return ga.load(path) end, "load: ")
      os.remove(path)
    end
    local good = {
      ["{'descr': '<f4', 'fortran_order': False, 'shape': (2, 0), }"] = { { 2, 0 }, "float32" },
      ["{'descr': '<i8', 'fortran_order': True, 'shape': (0, 3), }"] = { { 0, 3 }, "int64" },
      ["{'descr': '|b1', 'fortran_order': False, 'shape': (0,), }"] = { { 0 }, "bool" },
      ["{'descr': '<c8', 'fortran_order': False, 'shape': ( 4 , 0 , ), }"] = { { 4, 0 }, "complex64" },
    }
    for dict, want in pairs(good) do
      local path = tmpfile(npy(dict))
      local x = ga.load(path)
      os.remove(path)
      assert.same(want[1], x.shape)
      assert.equal(want[2], x.dtype)
    end
  end)

  it("parameter lists and kernel sources with a NUL byte are refused", function()
    gaerror(function() return core._test.parse_params("float32 x\0, float32 y") end, "NUL")
    gaerror(function() return ga.ElementwiseKernel("float32 x\0 junk", "float32 y", "y = x") end, "NUL")
    gaerror(function() return ga.ElementwiseKernel("float32 x", "float32 y\0", "y = x") end, "NUL")
    gaerror(function() return ga.ReductionKernel("T x\0", "T y", "x", "a + b", "y = a", "0", "r") end, "NUL")
    gaerror(function() return core._test.compile("__global__ void k() {}\0 garbage", nil, 90) end, "NUL")
    assert.equal(2, #core._test.parse_params("float32 x, float32 y"))
  end)

  it("kernel names longer than 127 characters are found", function()
    local name = "k" .. ("x"):rep(199)
    local src = "extern \"C\" __global__ void " .. name .. "(float *a, int n) {}"
    local k = core._test.sigfind(src, name)
    assert.is_table(k)
    assert.is_nil(core._test.sigfind(src, name .. "y"))
    assert.is_nil(core._test.sigfind(src, name:sub(1, 128)))
  end)

  it("broadcast_shapes names the pair that clashes", function()
    gaerror(function() return ga.broadcast_shapes({ 1 }, { 2 }, { 3 }) end, "{2} and {3} cannot be broadcast")
    gaerror(function() return ga.broadcast_shapes({ 2, 1 }, { 1, 3 }, { 4, 1 }) end, "{2,1} and {4,1}")
  end)
end)

-- fuzz/libs_fuzz.lua's first runs (2026-11-26): the libraries' arguments
describe("fuzz findings: the libraries' arguments", function()
  local x = ga.empty({ 0, 3 })

  --- f() within 10^7 Lua instructions (a loop driven by the argument fails here)
  local function promptly(f)
    debug.sethook(function() error("ran past 10^7 instructions", 0) end, "", 10000000)
    local res = table.pack(pcall(f))
    debug.sethook()
    return table.unpack(res, 1, res.n)
  end

  it("options, lengths, axes, offsets and sizes are checked before use", function()
    -- declared (the binder): {} is an empty options table, 1.5 no integer
    gaerror(function() return ga.fft.set_cache_size({}) end, "fft.set_cache_size: missing argument 'n'")
    gaerror(function() return ga.fft.set_cache_size(1.5) end, "fft.set_cache_size: n must be")
    gaerror(function() return ga.fft.irfft(ga.empty(0), "uint64") end, "fft.irfft: n must be an integer")
    gaerror(function() return ga.fft.irfftn(ga.empty({ 2, 0 }), -2.5) end, "fft.irfftn: s must be an integer")
    gaerror(function() return ga.fft.irfft2(ga.empty({ 2, 0 }), print) end,
      "fft.irfft2: s must be an integer or a list or nil, got function")
    gaerror(function() return ga.fft.fftshift(x, ga.newaxis) end, "fft.fftshift: axes must be an integer")
    gaerror(function() return ga.diag(ga.empty({ 0 }), "L") end, "diag: k must be an integer")
    gaerror(function() return ga.trace(x, "int16") end, "trace: offset must be an integer or nil, got \"int16\"")
    gaerror(function() return ga.dot(x, x, 5) end, "dot: out must be an ndarray or nil")
    gaerror(function() return ga.linalg.svd(x, 31) end, "linalg.svd: full_matrices must be a boolean")
    gaerror(function() return ga.linalg.svd(x, { method = io.stdout }) end, "linalg.svd: method must be a string")
    gaerror(function() return ga.linalg.lstsq(ga.empty({ 0, 5 }), ga.empty(0), { 0, 4 }) end,
      "linalg.lstsq: rcond must be a number")
    gaerror(function() return ga.sparse.diags(4) end, "sparse.diags: diagonals must be a list or an ndarray")
    gaerror(function() return ga.sparse.diags(ga.empty(0), "1") end, "sparse.diags: offsets must be")
    gaerror(function() return ga.sparse.eye(3, { k = "1" }) end, "sparse.eye: k must be an integer")
    gaerror(function() return ga.sparse.csc_matrix(ga.empty({ 1, 0 }), 31) end,
      "sparse.csc_matrix: shape must be {rows, cols}")
    gaerror(function() return ga.random.choice(7, "uint16") end, "random.choice: size must be a shape")
  end)

  it("a diagonal offset of mininteger is an empty diagonal (no -mininteger)", function()
    local d = ga.diagonal(ga.empty({ 0, 3 }), math.mininteger)
    assert.are.same({ 0 }, d.shape)
    d = ga.diagonal(ga.empty({ 2, 0, 3 }), math.maxinteger, 1, 3)
    assert.are.same({ 0, 0 }, d.shape)
    -- the two strides' sum overflowed (UBSan, under make fuzz)
    d = ga.diagonal(ga.empty({ 0, math.maxinteger }, "int8"))
    assert.are.same({ 0 }, d.shape)
    -- a diagonal of length 2 in an array with no elements (CI's fuzz run)
    d = ga.diagonal(ga.empty({ 0, 1, 1, 1 << 62 }, "int8"), 0, 2, 3)
    assert.are.same({ 0, 1 << 62, 1 }, d.shape)
  end)

  it("diff and lexsort of zero-size arrays with huge axes return at once", function()
    local ok, d = promptly(function() return ga.diff(ga.empty({ 0, 1 << 31 }, "int8"), 1 << 53) end)
    assert(ok, d)
    assert.are.same({ 0, 0 }, d.shape)
    assert.are.equal("int8", d.dtype)
    d = ga.diff(ga.empty({ 0, 10 }, "bool"), 3)
    assert.are.same({ 0, 7 }, d.shape)
    assert.are.equal("bool", d.dtype)
    local r
    ok, r = promptly(function() return ga.lexsort(ga.empty({ 1 << 40, 1, 0, 3 })) end)
    assert(ok, r)
    assert.are.same({ 1, 0, 3 }, r.shape)
    assert.are.equal("int64", r.dtype)
  end)

  it("size and s lists are read raw: a metatable cannot make them endless", function()
    local endless = setmetatable({ 2, 3 }, { __index = function(_, k) return k end })
    local huge = setmetatable({}, { __len = function() return 1 << 40 end })
    for _, f in ipairs {
      function() return ga.random.choice(1, endless) end,
      function() return ga.random.normal(ga.empty(0), ga.empty(0), huge) end,
      function() return ga.fft.rfftn(ga.empty({ 5, 0 }), { s = huge }) end,
    } do
      local ok, err = promptly(f)
      -- on a GPU they run; elsewhere they stop at the device, never in the loop
      assert(ok or tostring(err):find("^gpuarray: "), err)
    end
  end)
end)
