-- ga.fuse without a GPU: the traced kernels (their CUDA and dtypes) are
-- checked against the eager rules (the ufuncs' own loop resolution,
-- ga.result_type, the built-in reductions' types), errors name the line,
-- the generated kernels compile with NVRTC for sm_90, and the call path
-- (cache by dtypes, ndims and scalar kinds; one kernel call per fused
-- call) is checked with a stand-in kernel object.
local internal = require("gpuarray.internal")
local helper = require "helper"
local ga = helper.ga
local core = ga._core

local DTYPES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128" }

local function A(dt, nd) return { dtype = dt, ndim = nd or 1 } end

local function compile_plan(p, types)
  if p.kind == "elementwise" then
    local k = ga.ElementwiseKernel(p.in_params, p.out_params, p.operation, "fz",
                                   p.preamble ~= "" and { preamble = p.preamble } or nil)
    return core._test.compile(core._test.elementwise_kernel_source(k, { types = types }), {}, 90)
  end
  local k = ga.ReductionKernel(p.in_params, p.out_params, p.map, p.reduce, p.post, p.identity, "fzr",
                               { reduce_type = p.reduce_type, preamble = p.preamble })
  return core._test.compile(core._test.reduction_kernel_source(k, types), {}, 90)
end

--- the eager result dtype of a binary ufunc (raises as the eager call would)
local function eager_dtype(u, a, b)
  return (core.elementwise.resolve(u, a, b))
end

describe("fuse traces", function()
  it("a rounding pass after each value a multiply may end, where another op reads it", function()
    local f = ga.fuse(function(x) return ga.tanh(ga.sin(x) + 0.1 * x) end)
    local p = f:_trace(A "float32")
    local kept = {}
    for id in p.operation:gmatch("_fz_keep%((_fz%d+)%)") do kept[#kept + 1] = id end
    -- sin (a function) and 0.1 * x (a product) feed the add; the sum and
    -- the stored tanh need none
    assert.are.equal(2, #kept)
    local function def(id) return p.operation:match("float " .. id .. " = ([^\n]*)") end
    assert.truthy(def(kept[1]):find("ga_sin(in0)", 1, true))
    assert.truthy(def(kept[2]):find("out0 = in0 * in1;", 1, true))
    local g = ga.fuse(function(a, b) local q = a * b; return q + a, q end)
    local pg = g:_trace(A "float64", A "float64")
    local n = 0
    for _ in pg.operation:gmatch("_fz_keep%(") do n = n + 1 end
    assert.are.equal(1, n)   -- the product is a result and read by the add
  end)

  it("one elementwise kernel for (a - b) * (a - b), the ufuncs' own CUDA", function()
    local f = ga.fuse(function(a, b) return (a - b) * (a - b) end, { name = "sqdiff" })
    local p = f:_trace(A "float32", A "float32")
    assert.are.equal("elementwise", p.kind)
    assert.are.equal("float32 a1, float32 a2", p.in_params)
    assert.are.equal("float32 o0", p.out_params)
    assert.truthy(p.operation:find("out0 = in0 - in1;", 1, true))
    assert.truthy(p.operation:find("out0 = in0 * in1;", 1, true))
    -- a difference cannot end in a multiply and the product is only
    -- stored: no FMA can reach across either, so no rounding pass
    assert.falsy(p.operation:find("_fz_keep(", 1, true))
    assert.is_true(compile_plan(p, { "float32", "float32", "float32" }) > 0)
    -- the engine sees the output written before it is read: it is never loaded (12 bytes per element)
    local k = ga.ElementwiseKernel(p.in_params, p.out_params, p.operation, "fz")
    local src = core._test.elementwise_kernel_source(k, { types = { "float32", "float32", "float32" } })
    assert.truthy(src:find("ga_vload(_v1[_u], _p1", 1, true))
    assert.falsy(src:find("ga_vload(_v2[_u], _p2", 1, true))
  end)

  it("keeps float32 with a weak Lua float (0.1 * x), computes float16 in float32 and rounds", function()
    local f = ga.fuse(function(a) return ga.tanh(ga.sin(a) + 0.1 * a) end)
    local p = f:_trace(A "float32")
    assert.are.equal("float32 o0", p.out_params)
    assert.truthy(p.operation:find("const float in0 = ga_cast<float>(0.10000000000000001);", 1, true))
    assert.truthy(p.operation:find("ga_tanh(in0)", 1, true))
    local h = f:_trace(A("float16", 2))
    assert.are.equal("float16 o0", h.out_params)
    assert.truthy(h.operation:find("float16 _fz2 = [&]() -> float16 {", 1, true))
    assert.truthy(h.operation:find("return ga_cast<float16>(out0); }();", 1, true))
    assert.truthy(h.operation:find("ga_cast<float>(ga_cast<float16>(0.10000000000000001))", 1, true))
    assert.is_true(compile_plan(h, { "float16", "float16" }) > 0)
  end)

  it("gives every binary operator the eager dtype for every pair of dtypes", function()
    local ops = {
      { ga.add, function(a, b) return a + b end },
      { ga.multiply, function(a, b) return a * b end },
      { ga.divide, function(a, b) return a / b end },
      { ga.power, function(a, b) return a ^ b end },
      { ga.bitwise_and, function(a, b) return a & b end },
      { ga.floor_divide, function(a, b) return a // b end },
    }
    local n = 0
    for _, op in ipairs(ops) do
      local f = ga.fuse(op[2])
      for _, x in ipairs(DTYPES) do
        for _, y in ipairs(DTYPES) do
          local ok, want = pcall(eager_dtype, op[1], x, y)
          local ok2, p = pcall(f._trace, f, A(x, 2), A(y, 1))
          assert.are.equal(ok, ok2, ("%s %s: eager %s, fused %s"):format(x, y, tostring(want), tostring(p)))
          if ok then
            assert.are.equal(want .. " o0", p.out_params)
            n = n + 1
          else
            -- the same reason, naming the line
            assert.truthy(p:find("^gpuarray: fuse: line %d+: "), p)
            assert.truthy(p:find(want:gsub("^gpuarray: ", ""), 1, true), p .. " vs " .. want)
          end
        end
      end
    end
    assert.is_true(n > 500)
  end)

  it("treats Lua numbers as weak scalars (NEP 50) and checks that integers fit", function()
    local f = ga.fuse(function(a, s) return a * s + 1 end)
    for _, dt in ipairs { "int8", "uint16", "float16", "float32", "complex64" } do
      assert.are.equal(eager_dtype(ga.add, eager_dtype(ga.multiply, dt, 2), 1) .. " o0", f:_trace(A(dt), 2).out_params)
      assert.are.equal(eager_dtype(ga.add, eager_dtype(ga.multiply, dt, 2.5), 1) .. " o0",
        f:_trace(A(dt), 2.5).out_params)
    end
    assert.are.equal("float64 o0", f:_trace(A "int32", 0.5).out_params)
    -- the eager call raises for a constant that does not fit; so does the trace
    local g = ga.fuse(function(a) return a + 300 end)
    helper.assert_gaerror(function() return g:_trace(A "int8") end, "Lua integer 300 does not fit int8")
    -- arguments are checked at each call (see the call-path specs)
    local p = f:_trace(A "uint8", 3)
    assert.are.equal(1, #p.checks)
    assert.are.same({ 0, 255, "uint8" }, { p.checks[1].lo, p.checks[1].hi, p.checks[1].dtype })
  end)

  it("computes Lua arithmetic between Lua numbers on the host, as the eager code does", function()
    local f = ga.fuse(function(a, s, t) return a + (s * t) // 2 end)
    local p = f:_trace(A "int16", 7, 3)
    assert.are.equal("int16 o0", p.out_params)
    assert.truthy(p.in_params:find("int64 h", 1, true))
    local k
    for i, h in pairs(p.host) do
      k = i
      assert.are.equal(10, h { n = 3, [2] = 7, [3] = 3 })
    end
    assert.are.equal(2, k)
    assert.truthy(p.operation:find("ga_cast<short>(h", 1, true))
  end)

  it("traces ga.where, ga.clip (with NumPy 2.1's integer bounds), astype and comparisons", function()
    local f = ga.fuse(function(x, y, s)
      return ga.where(x:gt(0), x, s), ga.clip(y, -1, 300), y:astype("float16"), x:le(y):astype(ga.int8)
    end)
    local p = f:_trace(A("float32", 2), A("uint8", 2), 2)
    assert.are.equal("float32 o0, uint8 o1, float16 o2, int8 o3", p.out_params)
    assert.truthy(p.operation:find("ga_sel_min(ga_sel_max(a2, ga_cast<unsigned char>(0LL)), "
      .. "ga_cast<unsigned char>(255LL))", 1, true))
    assert.truthy(p.operation:find("? a1 : ga_cast<float>(a3);", 1, true))
    assert.is_true(compile_plan(p, { "float32", "uint8", "int64", "float32", "uint8", "float16", "int8" }) > 0)
    assert.are.equal("float64 o0", ga.fuse(function(x) return ga.clip(x, 0.5, nil) end):_trace(A "int32").out_params)
    helper.assert_gaerror(function()
      return ga.fuse(function(x) return ga.clip(x, 0, 1) end):_trace(A "complex64")
    end, "complex dtypes have no order")
  end)

  it("ends in one reduction kernel with the built-ins' accumulator and result types", function()
    local core_src = core._test.reduction_source
    for _, name in ipairs { "sum", "prod", "min", "max", "all", "any", "mean" } do
      local f = ga.fuse(function(x) return ga[name](x * 1) end)
      for _, dt in ipairs(DTYPES) do
        local ok, src = pcall(core_src, internal.reductions[name], eager_dtype(ga.multiply, dt, 1))
        local ok2, p = pcall(f._trace, f, A(dt, 2))
        if ok and ok2 then
          assert.are.equal("reduction", p.kind)
          local acc = src:match("typedef ([^\n]*) _type_reduce;")
          local out = src:match("typedef ([^\n]*) type_out0_raw;")
          assert.are.equal(acc, p.reduce_type, name .. " " .. dt)
          assert.truthy(p.out_params:find("^" .. out:gsub("float16", "float16") .. " o0")
            or p.out_params == ga.dtype(p.out_params:match("^(%w+)")).name .. " o0", name)
        end
      end
    end
    local f = ga.fuse(function(x, y) return ga.sqrt(ga.sum((x - y) * (x - y), { axis = 2 })) end)
    local p = f:_trace(A("float32", 2), A("float32", 2))
    assert.are.equal("float32 o0", p.out_params)
    assert.are.equal(2, p.axis)
    assert.are.equal("o0 = _fz_post(a, _red_size)", p.post)
    assert.is_true(compile_plan(p, { "float32", "float32" }) > 0)
    local m = ga.fuse(function(x) return x:mean(1, { keepdims = true }) end):_trace(A("float16", 3))
    assert.are.equal("float16 o0", m.out_params)
    assert.are.equal("float", m.reduce_type)
    assert.truthy(m.preamble:find("ga_r_div_n(a, _red_size)", 1, true))
    assert.is_true(compile_plan(m, { "float16" }) > 0)
    local mx = ga.fuse(function(x) return ga.max(x:astype("int32") % 7) end):_trace(A("uint8", 2))
    assert.is_nil(mx.identity)    -- like the built-in: an empty max raises
    assert.is_true(compile_plan(mx, { "uint8" }) > 0)
  end)

  it("compiles a kernel of every dtype family", function()
    local f = ga.fuse(function(x, y) return ga.exp(x) * y - ga.abs(y) end)
    for _, dt in ipairs { "float16", "float32", "float64", "complex64", "complex128" } do
      local p = f:_trace(A(dt), A(dt))
      assert.is_true(compile_plan(p, { dt, dt, p.out_params:match("^(%w+)") }) > 0, dt)
    end
    local g = ga.fuse(function(x, y) return (x + y) // 3 + (x << 1) - ~y end)
    for _, dt in ipairs { "int8", "int64", "uint16", "uint64" } do
      local p = g:_trace(A(dt), A(dt))
      assert.is_true(compile_plan(p, { dt, dt, p.out_params:match("^(%w+)") }) > 0, dt)
    end
    local b = ga.fuse(function(x, y) return ga.logical_xor(x, y) | (x & y) end):_trace(A "bool", A "bool")
    assert.is_true(compile_plan(b, { "bool", "bool", "bool" }) > 0)
  end)
end)

describe("fuse errors name the line", function()
  local function line_of(fn) return debug.getinfo(fn, "S").linedefined end
  -- luacheck: push ignore
  local cases = {
    { function(x) return x[1] + 1 end, "indexing cannot be traced" },
    { function(x) return x:item() end, "x:item() cannot be traced" },
    { function(x) return tostring(x) end, "tostring cannot be traced" },
    { function(x) if x < 0 then return x end return -x end, "would branch on values" },
    { function(x) return #x end, "#x cannot be traced" },
    { function(x) return x .. "s" end, "cannot be concatenated" },
    { function(x) return x.shape end, "x.shape cannot be traced" },
    { function(x) x[1] = 0; return x end, "assigning into an array cannot be traced" },
    { function(x) return ga.sum(x) + ga.sum(x) end, "one reduction only" },
    { function(x) return ga.sum(x) + x end, "after a reduction, only scalars" },
    { function(x) return ga.add(x, x, { out = x }) end, "out= cannot be traced" },
    { function(x) return ga.floor(x) end, "floor: not supported for complex64" },
    { function(x) return ga.where(x) end, "ga.where(cond) (nonzero) cannot be traced" },
    { function(x) return 1 end, "result 1 is a number" },
    { function(x) return {} + x end, "tables cannot be traced" },
  }
  -- luacheck: pop
  for k, c in ipairs(cases) do
    it(("case %d: %s"):format(k, c[2]), function()
      local err = helper.assert_gaerror(function() return ga.fuse(c[1]):_trace(A "complex64") end, c[2])
      if k ~= 14 then
        assert.truthy(err:find(("^gpuarray: fuse: line %d: "):format(line_of(c[1]))), err)
      end
    end)
  end

  it("names the line inside a helper the fused function calls", function()
    local function helper_fn(v)
      return v:totable()
    end
    local f = ga.fuse(function(x) return helper_fn(x) end)
    helper.assert_gaerror(function() return f:_trace(A "float32") end,
      ("gpuarray: fuse: line %d: x:totable() cannot be traced"):format(line_of(helper_fn) + 1))
  end)

  it("patches no shared table: it goes through the one dispatch point (internal.set_tracer)", function()
    local umt = getmetatable(ga.add)
    local call, where, clip, sum = umt.__call, ga.where, ga.clip, ga.sum
    local seen
    local f = ga.fuse(function(x)
      seen = { call = umt.__call, where = ga.where, clip = ga.clip, sum = ga.sum, tracer = internal.tracer }
      return ga.sum(ga.clip(ga.where(x:gt(0), ga.sin(x), 0), 0, 1))
    end)
    local p = f:_trace(A "float32")
    assert.is_truthy(p)
    assert.are.equal(call, seen.call)
    assert.are.equal(where, seen.where)
    assert.are.equal(clip, seen.clip)
    assert.are.equal(sum, seen.sum)
    assert.is_function(seen.tracer)
    assert.is_nil(internal.tracer)
    -- after a failed trace too
    pcall(function() return ga.fuse(function(x) return ga.sin(x)[1] end):_trace(A "float32") end)
    assert.are.equal(call, umt.__call)
    assert.are.equal(where, ga.where)
    assert.are.equal(sum, ga.sum)
    assert.is_nil(internal.tracer)
  end)

  it("leaves calls without traced values to run as usual while it traces", function()
    local f = ga.fuse(function(x)
      -- no symbol among the arguments: the tracer declines, the eager code raises as it would
      local ok, err = pcall(ga.sum, 5)
      assert(not ok and err:find("sum: a must be an ndarray, got 5", 1, true), err)
      ok, err = pcall(ga.add, {}, 1)
      assert(not ok and err:find("add: argument 1", 1, true), err)
      return x + 1
    end)
    assert.is_truthy(f:_trace(A "float32"))
  end)
end)

describe("fuse call path", function()
  -- stand-ins for the kernel objects: record the calls, return fake outputs
  local real_ek, real_rk
  local calls, made
  local function fake(kind)
    return function(...)
      local def = { kind = kind, ... }
      made[#made + 1] = def
      return setmetatable({ def = def }, {
        __call = function(self, ...)
          calls[#calls + 1] = { kernel = self, args = table.pack(...) }
          return { reshape = function(o) return o end, tag = "out" }
        end })
    end
  end
  before_each(function()
    real_ek, real_rk = ga.ElementwiseKernel, ga.ReductionKernel
    ga.ElementwiseKernel, ga.ReductionKernel = fake "ew", fake "red"
    calls, made = {}, {}
  end)
  after_each(function()
    ga.ElementwiseKernel, ga.ReductionKernel = real_ek, real_rk
  end)

  it("traces once per signature and calls the kernel once per call", function()
    local f = ga.fuse(function(a, b) return a * b + 1 end, { name = "mad" })
    local a, b = ga.float32(2), ga.float32(3)
    f(a, b)
    f(a, b)
    f(ga.float32(5), ga.float32(1))
    assert.are.equal(1, #made)
    assert.are.equal(3, #calls)
    assert.are.equal("mad", made[1][4])
    f(ga.float64(2), ga.float32(3))     -- another dtype: another kernel
    f(2, ga.float32(3))                 -- a Lua integer
    f(2.5, ga.float32(3))               -- a Lua float
    f(3, ga.float32(1))
    assert.are.equal(4, #made)
    assert.are.equal(7, #calls)
    -- all arguments scalars: the kernel gets a size and the result is 0-d
    assert.are.same({ size = 1 }, calls[1].args[3])
  end)

  it("finds the kernel for one, two and three arguments (each given exactly)", function()
    local one = ga.fuse(function(a) return ga.sin(a) end)
    local three = ga.fuse(function(a, b, c) return a * b + c end)
    for _ = 1, 3 do one(ga.float32(1)) end
    for _ = 1, 3 do three(ga.float32(1), 2, ga.float32(3)) end
    assert.are.equal(2, #made)
    assert.are.equal(6, #calls)
    assert.are.equal("float32 a1", made[1][1])
    assert.are.same({ size = 1 }, calls[3].args[2])       -- one argument, then the size option
    assert.are.equal("float32 a1, int64 a2, float32 a3", made[2][1])
    assert.are.equal(4, calls[6].args.n)
    helper.assert_gaerror(function() one() end, "fuse: ")  -- no argument: the trace fails in fn, clearly
  end)

  it("passes only the arguments used, Lua arithmetic computed, and checks integers fit", function()
    local f = ga.fuse(function(a, _, s, t) return a + (s + t) end)
    f(ga.int8(1), 0, 2, 3)
    assert.matches("^int8 a1, int64 h%d+$", made[1][1])
    local args = calls[1].args
    assert.are.equal(5, args[2])
    helper.assert_gaerror(function() f(ga.int8(1), 0, 200, 3) end, "Lua integer 203 does not fit int8")
    local g = ga.fuse(function(a, s) return a * s end)
    g(ga.uint8(1), 3)
    helper.assert_gaerror(function() g(ga.uint8(1), -1) end, "Lua integer -1 does not fit uint8 (argument 2)")
  end)

  it("calls a reduction kernel with its axis and keepdims", function()
    local f = ga.fuse(function(x) return (x * x):sum(2, { keepdims = true }) end)
    -- no array can exist without a device: check the plan and the entry's options
    local p = f:_trace(A("float32", 3))
    assert.are.same({ 2, true }, { p.axis, p.keepdims })
    assert.are.equal(0, #made)
  end)

  it("traces a fused function called inside another one inline", function()
    local inner = ga.fuse(function(x) return x * 2 end)
    local outer = ga.fuse(function(x) return inner(x) + 1 end)
    local p = outer:_trace(A "float32")
    assert.truthy(p.operation:find("out0 = in0 * in1;", 1, true))
    assert.truthy(p.operation:find("out0 = in0 + in1;", 1, true))
  end)

  it("rejects bad arguments", function()
    local f = ga.fuse(function(x) return x end)
    helper.assert_gaerror(function() f("float32x") end, "fuse: argument 1 must be")
    helper.assert_gaerror(function() ga.fuse(42) end, "fuse: fn must be a function or nil, got 42")
    helper.assert_gaerror(function() ga.fuse(function() end, { name = "1x" }) end, "name must be a C identifier")
  end)
end)
