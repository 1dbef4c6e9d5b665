-- ga.ElementwiseKernel with CuPy's semantics: construction, binding and
-- argument errors and the generated code (without a GPU), then CuPy's
-- user-guide examples and the options on the GPU.
local helper = require "helper"
local ga = helper.ga
local core = ga._core
local ek_source = core._test.elementwise_kernel_source

local EK = ga.ElementwiseKernel

local function compiles(src, opts)
  return core._test.compile(src, opts, 90) > 0
end

describe("ElementwiseKernel", function()
  describe("construction", function()
    it("parses the parameters and keeps the code", function()
      local k = EK("float32 x, T y", "T z", "z = x * y", "scale")
      assert.same({ 2, 1, 3 }, { k.nin, k.nout, k.nargs })
      assert.equal("scale", k.name)
      assert.equal("z = x * y", k.operation)
      assert.equal("gpuarray.ElementwiseKernel(scale)", tostring(k))
      assert.equal("kernel", EK("T x", "T y", "y = x").name)
      assert.is_true(EK("T x", "T y", "y = x", "k", { reduce_dims = false }).reduce_dims == false)
    end)

    it("rejects bad parameters, names and options", function()
      helper.assert_gaerror(function() EK("float32 i", "float32 y", "y = i") end, "reserved")
      helper.assert_gaerror(function() EK("float32 x", "float32 _y", "") end, "reserved")
      helper.assert_gaerror(function() EK("float32 x", "float32 x", "x = x") end, "both an input and an output")
      helper.assert_gaerror(function() EK("float x", "float32 y", "y = x") end, "write the dtype (float32)")
      helper.assert_gaerror(function() EK("T x", "T y", "y = x", "bad-name") end, "not a valid identifier")
      helper.assert_gaerror(function() EK("T x", "T y", "y = x", "k", { preambel = "" }) end,
        "unknown option 'preambel'")
      helper.assert_gaerror(function() EK("T x", "T y", "y = x", "k", { options = { 1 } }) end, "options[1]")
      helper.assert_gaerror(function() EK("T x", "T y", "y = x", "k", { preamble = 3 }) end,
        "preamble must be a string")
      assert.has_error(function() EK(nil, "T y", "y = 1") end)
    end)
  end)

  describe("calls", function()
    local sq = EK("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff")

    it("checks the argument count", function()
      helper.assert_gaerror(function() sq(1.0) end, "squared_diff: takes 2 arguments (or 3 with the outputs), got 1")
      helper.assert_gaerror(function() sq(1.0, 2.0, 3.0, 4.0) end, "got 4")
      local noout = EK("raw T x", "", "x[i] = 0", "zero")
      helper.assert_gaerror(function() noout(1, 2) end, "zero: takes 1 arguments, got 2")
    end)

    it("rejects a dtype that contradicts a fixed type", function()
      helper.assert_gaerror(function() sq(ga.int32(1), 2.0) end,
        "squared_diff: argument 1 (x) is int32, the kernel declares float32")
      helper.assert_gaerror(function() sq(1.0, ga.float64(2)) end, "argument 2 (y) is float64")
    end)

    it("binds placeholders consistently", function()
      local k = EK("T x, T y", "T z", "z = x + y", "tadd")
      helper.assert_gaerror(function() k(ga.float32(1), ga.float64(2)) end,
        "tadd: argument 2 (y) is float64, but T is already float32")
    end)

    it("names an unbound placeholder", function()
      local k = EK("X x, Y y", "Z z", "z = x + y", "xyz")
      helper.assert_gaerror(function() k(ga.int32(1), 2.5) end,
        "xyz: placeholder type Z (of output z) is not bound by any argument")
    end)

    it("checks scalars against their parameter's type", function()
      local k = EK("int8 x, T y", "T z", "z = x + y", "i8")
      helper.assert_gaerror(function() k(300, 1) end, "i8: 300 does not fit int8")
      helper.assert_gaerror(function() k("a", 1) end, "argument 1 (x) must be an ndarray or a scalar")
      local r = EK("raw T x", "T y", "y = x[0]", "rawk")
      helper.assert_gaerror(function() r(1.0) end, "rawk: argument 1 (x) is raw and needs an ndarray, got number")
      helper.assert_gaerror(function() sq(1.0, 2.0, 3.0) end, "output z must be an ndarray")
    end)

    it("needs the size option exactly when no argument is a non-raw array", function()
      helper.assert_gaerror(function() sq(1.0, 2.0) end, "the size option is required")
      helper.assert_gaerror(function() sq(1.0, 2.0, { size = -1 }) end, "size must be a non-negative integer")
      helper.assert_gaerror(function() sq(1.0, 2.0, { size = 4, block_size = 4096 }) end, "block_size")
    end)
  end)

  describe("generated code", function()
    local function src(k, spec) return (ek_source(k, spec)) end

    it("compiles in every layout class for every kind of dtype", function()
      local g = EK("T x, T y", "T z", "z = x * y + _raw_x[i > 0 ? i - 1 : 0]", "gen")
      for _, t in ipairs { "bool", "int8", "uint16", "int64", "float16", "float32", "float64", "complex64",
                           "complex128" } do
        local types = { t, t, t }
        assert.is_true(compiles(src(g, { types = types, layout = "flat", vec = 16 // ga.dtype(t).itemsize })), t)
        assert.is_true(compiles(src(g, { types = types, layout = "strided", nd = 3 })), t)
        assert.is_true(compiles(src(g, { types = types, layout = "strided", nd = 2, idx64 = true,
                                         scalar = { false, true } })), t)
      end
      local v = EK("float32 x, float32 w", "float32 z", "z = x * w", "vin")
      assert.is_true(compiles(src(v, { types = { "float32", "float32", "float32" }, layout = "vin", nd = 2,
                                       bmask = 2 })))
      assert.is_true(compiles(src(v, { types = { "float32", "float32", "float32" }, layout = "vin", nd = 3,
                                       idx64 = true })))
    end)

    it("compiles raw parameters of any rank and layout", function()
      local r = EK("raw T x, int32 off", "T y", "y = x[(i + off) % x.size()] + (T)x.shape()[0] + (T)x.ndim()", "nb")
      for _, nd in ipairs { 0, 1, 2, 4 } do
        for _, contig in ipairs { true, false } do
          assert.is_true(compiles(src(r, { types = { "float32", "int32", "float32" }, scalar = { false, true },
                                           raw_nd = { nd }, raw_contig = { contig } })), nd)
        end
      end
      local m = EK("raw T x", "T y", "long long idx[2] = {i % 3, i / 3}; y = x[idx]", "multi")
      assert.is_true(compiles(src(m, { types = { "float64", "float64" }, raw_nd = { 2 }, raw_contig = { false } })))
    end)

    it("splices preamble, loop_prep, after_loop and the NVRTC options", function()
      local p = EK("T x", "T z", "z = f(x) * scale", "pre", {
        preamble = "template <typename U> __device__ U f(U a) { return a + (U)FOO; }",
        loop_prep = "const T scale = (T)2;", after_loop = "(void)scale;", options = { "-DFOO=1" } })
      local s, opts = ek_source(p, { types = { "float64", "float64" } })
      assert.same({ "-DFOO=1" }, opts)
      assert.is_true(compiles(s, opts))
      assert.is_truthy(s:find("typedef double T;", 1, true))
      assert.is_true(s:find("typedef double T;", 1, true) < s:find("U f(U a)", 1, true))
      assert.is_truthy(s:find("extern \"C\" __global__ void pre(", 1, true))
      local q = EK("T x", "T z", "z = x", "opt1", { options = "-DBAR=2" })
      local _, o = ek_source(q, { types = { "int32", "int32" } })
      assert.same({ "-DBAR=2" }, o)
    end)

    it("loads an output only when the operation may read it first", function()
      local function loads(op)
        local k = EK("float32 x", "float32 z", op, "wf")
        return src(k, { types = { "float32", "float32" } }):find("ga_vload(_v1", 1, true) ~= nil
      end
      assert.is_false(loads("z = x * 2"))
      assert.is_false(loads("float t = x; z = t + 1;"))
      assert.is_false(loads("z = x; z += 1;"))
      assert.is_true(loads("z += x"))
      assert.is_true(loads("if (x > 0) z = x;"))
      assert.is_true(loads("z = z + x"))
      assert.is_true(loads("y_of(z); z = 1"))
      assert.is_true(loads("{ z = x; }"))
      assert.is_false(loads("z = x == 1 ? 2 : 3"))
    end)

    it("raises NVRTC's errors quoting the operation's line", function()
      local bad = EK("float32 x", "float32 z", "z = x +* 2", "bad")
      local ok, err = pcall(core._test.compile, ek_source(bad, { types = { "float32", "float32" } }), nil, 90)
      assert.is_false(ok)
      assert.is_truthy(err:find("^gpuarray: "))
      assert.is_truthy(err:find("compile error", 1, true))
      assert.is_truthy(err:find(": z = x +* 2\n", 1, true))
      local multi = EK("float32 x", "float32 z", "float t = x;\nz = t + undefined_thing;", "bad2")
      ok, err = pcall(core._test.compile, ek_source(multi, { types = { "float32", "float32" } }), nil, 90)
      assert.is_false(ok)
      assert.is_truthy(err:find(": z = t + undefined_thing;\n", 1, true))
      assert.is_truthy(err:find('"undefined_thing" is undefined', 1, true))
    end)
  end)
end)

-------------------------------------------------------------------------------
-- on the GPU

local function rand_table(shape, lo, hi)
  return helper.random_table(shape, function() return lo + (hi - lo) * math.random() end)
end

describe("ElementwiseKernel on the GPU", function()
  helper.gpu_it("squared difference with broadcasting and a scalar (CuPy's user guide)", function()
    local squared_diff = EK("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff")
    local xt = { { 0, 1, 2, 3, 4 }, { 5, 6, 7, 8, 9 } }
    local x = ga.array(xt, "float32")
    local y = ga.array({ 0, 1, 2, 3, 4 }, "float32")
    local z = squared_diff(x, y)
    assert.same({ "float32", { 2, 5 } }, { z.dtype, z.shape })
    assert.same({ { 0, 0, 0, 0, 0 }, { 25, 25, 25, 25, 25 } }, z:totable())
    local z5 = squared_diff(x, 5)
    assert.same({ { 25, 16, 9, 4, 1 }, { 0, 1, 4, 9, 16 } }, z5:totable())
    local out = ga.empty({ 2, 5 }, "float32")
    local r = squared_diff(x, y, out)
    assert.is_true(rawequal(r, out))
    assert.same({ { 0, 0, 0, 0, 0 }, { 25, 25, 25, 25, 25 } }, out:totable())
    helper.assert_gaerror(function() squared_diff(x, y, ga.empty(5, "float32")) end,
      "squared_diff: output z has shape {5}, the broadcast shape is {2,5}")
    helper.assert_gaerror(function() squared_diff(x, ga.ones(3, "float32")) end, "cannot be broadcast")
    helper.assert_gaerror(function() squared_diff(x, y, { size = 3 }) end, "size must not be given")
    helper.assert_gaerror(function() squared_diff(ga.ones(3, "float64"), y) end,
      "is float64, the kernel declares float32")
    -- random values, a larger size with a tail, and the strided class
    local at, bt = rand_table({ 37, 29 }, -5, 5), rand_table({ 37, 29 }, -5, 5)
    local a, b = ga.array(at, "float32"), ga.array(bt, "float32")
    local av, bv = a:totable(), b:totable()
    local function check(res, ta, tb)
      local rt = res:totable()
      for i = 1, #rt do
        for j = 1, #rt[1] do
          local d = ta(i, j) - tb(i, j)
          helper.assert_same(helper.to_f32(d * d), rt[i][j], 1e-6)
        end
      end
    end
    check(squared_diff(a, b), function(i, j) return av[i][j] end, function(i, j) return bv[i][j] end)
    check(squared_diff(a.T, b.T), function(i, j) return av[j][i] end, function(i, j) return bv[j][i] end)
  end)

  helper.gpu_it("binds a generic T from the arguments", function()
    local add = EK("T x, T y", "T z", "z = x + y", "generic_add")
    for _, dt in ipairs { "int32", "float64", "float16", "int8" } do
      local x = ga.array({ 1, 2, 3 }, dt)
      local r = add(x, x)
      assert.same({ dt, { 2, 4, 6 } }, { r.dtype, r:totable() })
      local s = add(x, 1)                        -- the Lua number takes T
      assert.same({ dt, { 2, 3, 4 } }, { s.dtype, s:totable() })
    end
    local c = add(ga.array({ { 1, 2 } }, "complex64"), { 0.5, 0.5 })
    assert.same({ "complex64", { { 1.5, 2.5 } } }, { c.dtype, c:totable() })
    -- only scalars: T from the widest kind (unlike CuPy), size required
    local w = add(1, 2.5, { size = 3 })
    assert.same({ "float64", { 3.5, 3.5, 3.5 } }, { w.dtype, w:totable() })
    local i = add(1, 2, { size = 2 })
    assert.same({ "int64", { 3, 3 } }, { i.dtype, i:totable() })
    local t = add(ga.int16(2), 3, { size = 1 })
    assert.same({ "int16", { 5 } }, { t.dtype, t:totable() })
    helper.assert_gaerror(function() add(ga.array({ 1 }, "int32"), ga.array({ 1 }, "int64")) end,
      "is int64, but T is already int32")
  end)

  helper.gpu_it("needs the output for X, Y -> Z", function()
    local k = EK("X x, Y y", "Z z", "z = (Z)x + (Z)y", "xyz")
    local x = ga.array({ 1, 2, 3 }, "int32")
    local y = ga.array({ 0.5, 0.25, 0.125 }, "float32")
    helper.assert_gaerror(function() k(x, y) end, "placeholder type Z (of output z) is not bound")
    local z = ga.empty(3, "float64")
    assert.is_true(rawequal(z, k(x, y, z)))
    assert.same({ 1.5, 2.25, 3.125 }, z:totable())
  end)

  helper.gpu_it("reads raw parameters by flat index: neighbours and reversal", function()
    local add_reverse = EK("T x, raw T y", "T z", "z = x + y[_ind.size() - i - 1]", "add_reverse")
    local x = ga.arange(10, "float32")
    local r = add_reverse(x, x)
    assert.same({ 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 }, r:totable())
    -- a raw 2-D non-contiguous array is still indexed in C order over its shape
    local m = ga.arange(12, "int64"):reshape(3, 4).T            -- 4 x 3, values m[i][j] = (j-1)*4 + i-1
    local flat_m = EK("raw T a", "T b", "b = a[i]", "flat_m")
    local f = flat_m(m, { size = 12 })
    assert.same({ 0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11 }, f:totable())
    -- _raw_x: the raw view of a non-raw argument, for neighbour access
    local smooth = EK("T x", "T y", "y = (i > 0 && i < _ind.size() - 1) ? (_raw_x[i - 1] + _raw_x[i + 1]) / 2 : x",
      "smooth")
    local v = ga.array({ 0, 2, 4, 8, 16, 32 }, "float64")
    assert.same({ 0, 2, 5, 10, 20, 32 }, smooth(v):totable())
    -- the same through the strided class (a reversed view)
    local rv = v[{ { nil, nil, -1 } }]
    assert.same({ 32, 20, 10, 5, 2, 0 }, smooth(rv):totable())
    -- all-raw with size, writing a raw output that is given
    local dbl = EK("raw T x", "raw T y", "y[i] = x[i] * 2", "dbl")
    local dst = ga.zeros(5, "int32")
    dbl(ga.array({ 1, 2, 3, 4, 5 }, "int32"), dst, { size = 3 })
    assert.same({ 2, 4, 6, 0, 0 }, dst:totable())
    helper.assert_gaerror(function() dbl(ga.ones(2, "int32")) end, "the size option is required")
    local to_raw = EK("T x", "raw T y", "y[i] = x", "to_raw")
    helper.assert_gaerror(function() to_raw(ga.ones(2, "int32")) end, "raw output y needs the size option")
  end)

  helper.gpu_it("runs preamble, loop_prep and after_loop, returns several outputs or none", function()
    local k = EK("T x", "T a, T b", "a = f(x) + c; b = x * c;", "two", {
      preamble = "template <typename U> __device__ U f(U v) { return v * v; }",
      loop_prep = "const T c = (T)10;" })
    local a, b = k(ga.array({ 1, 2, 3 }, "float32"))
    assert.same({ 11, 14, 19 }, a:totable())
    assert.same({ 10, 20, 30 }, b:totable())
    local cnt = ga.zeros(1, "int32")
    local counter = EK("T x, raw int32 hits", "", "if (x > 0) atomicAdd(&hits[0], 1)", "count_pos",
      { no_return = true, after_loop = "" })
    local ret = table.pack(counter(ga.array({ 1, -1, 2, 3, -5 }, "float64"), cnt))
    assert.equal(0, ret.n)
    assert.same({ 3 }, cnt:totable())
    -- block_size and reduce_dims = false give the same values
    local sq = EK("T x", "T y", "y = x * x", "sqk", { reduce_dims = false })
    local x = ga.array(rand_table({ 3, 4, 5 }, -3, 3), "float64")
    local xt = helper.flatten(x:totable())
    local r1 = helper.flatten(sq(x, { block_size = 64 }):totable())
    for i = 1, #xt do assert.equal(xt[i] * xt[i], r1[i]) end
  end)

  helper.gpu_it("runs the operation once per element in whole blocks and in the last one", function()
    -- the flat loop has a path without bound checks for blocks that are
    -- whole (ew_codegen.c) and a checked one for the last block: sizes on
    -- both sides of a block's reach (256 threads * 2 vectors * V), tiny
    -- ones, and a view whose offset takes vectors of one element
    local k = EK("T x, raw int32 hits", "T y", "y = x * 3 + (T)i; atomicAdd(&hits[0], 1)", "once_each")
    for _, dt in ipairs({ "int32", "float64" }) do
      for _, n in ipairs({ 1, 5, 2047, 2048, 2049, 4096 + 1024, 3 * 2048 + 5, 65536 + 3, 1 << 20 }) do
        local t = {}
        for j = 1, n + 1 do t[j] = math.random(-1000, 1000) end
        local full = ga.array(t, dt)
        for _, x in ipairs({ full[{ { 1, n } }], full[{ { 2, n + 1 } }] }) do
          local hits = ga.zeros(1, "int32")
          local y = k(x, hits)
          assert.same({ { n }, dt }, { y.shape, y.dtype })
          assert.equal(n, hits:totable()[1])
          local xt, yt = x:totable(), y:totable()
          for j = 1, n do
            if yt[j] ~= xt[j] * 3 + (j - 1) then
              error(("%s n=%d: y[%d] = %s, expected %s"):format(dt, n, j - 1, yt[j], xt[j] * 3 + (j - 1)))
            end
          end
        end
      end
    end
  end)

  helper.gpu_it("launches nothing for a zero-size result", function()
    local k = EK("T x", "T y", "y = x / 0", "empty_k")
    local r = k(ga.empty({ 0, 4 }, "float32"))
    assert.same({ { 0, 4 }, "float32" }, { r.shape, r.dtype })
  end)

  helper.gpu_it("raises NVRTC's error with the offending line when called", function()
    local bad = EK("T x", "T y", "y = x +* 2", "bad_call")
    local err = helper.assert_gaerror(function() bad(ga.ones(3, "float32")) end, "bad_call: compile error")
    assert.is_truthy(err:find(": y = x +* 2\n", 1, true))
  end)

  helper.gpu_it("handles operands in every layout class", function()
    local k = EK("float32 x, float32 w", "float32 z", "z = x * w + (float)i", "lay")
    local X = ga.array(rand_table({ 8, 16 }, -4, 4), "float32")
    local w = ga.array(rand_table({ 16 }, -4, 4), "float32")
    local Xt, wt = X:totable(), w:totable()
    local function check(r, fx, fw)
      local rt = r:totable()
      local idx = 0
      for i = 1, #rt do
        for j = 1, #rt[1] do
          -- x * w + i contracts into one FMA (one rounding: the product
          -- of two floats is exact in a double) unless NVRTC keeps two
          local p = fx(i, j) * fw(i, j)
          local fused, twice = helper.to_f32(p + idx), helper.to_f32(helper.to_f32(p) + idx)
          if not helper.same(fused, rt[i][j], 1e-6) then helper.assert_same(twice, rt[i][j], 1e-6) end
          idx = idx + 1
        end
      end
    end
    check(k(X, w), function(i, j) return Xt[i][j] end, function(_, j) return wt[j] end)          -- vin
    check(k(X, 2), function(i, j) return Xt[i][j] end, function() return 2 end)                   -- flat
    check(k(X.T, X.T), function(i, j) return Xt[j][i] end, function(i, j) return Xt[j][i] end)   -- strided
  end)
end)
