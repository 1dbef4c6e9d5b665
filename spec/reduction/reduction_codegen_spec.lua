-- The reduction, scan and mask engines without a device: the generated
-- kernels compile with NVRTC for sm_90 for every dtype, axis arguments
-- parse, ReductionKernel definitions are checked at construction and their
-- compile errors quote the user's expression. Runs on CI.
local helper = require "helper"
local ga = helper.ga
local core = ga._core
local rk_source = core._test.reduction_kernel_source

local DTYPES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128" }
local SIZE = { bool = 1, int8 = 1, int16 = 2, int32 = 4, int64 = 8, uint8 = 1, uint16 = 2, uint32 = 4,
               uint64 = 8, float16 = 2, float32 = 4, float64 = 8, complex64 = 8, complex128 = 16 }

local function compiles(src, opts)
  local ok, err = pcall(core._test.compile, src, opts, 90)
  assert(ok, err)
end

local function vec_of(dt) return math.max(1, 16 // SIZE[dt]) end

describe("reduction axes", function()
  local axes = core._test.reduce_axes

  it("reduces every axis without one", function()
    assert.same({ 1, 2, 3 }, axes(3, nil))
    assert.same({}, axes(0, nil))
  end)

  it("takes 1-based, negative and listed axes", function()
    assert.same({ 1 }, axes(3, 1))
    assert.same({ 3 }, axes(3, -1))
    assert.same({ 1 }, axes(3, -3))
    assert.same({ 1, 3 }, axes(3, { 3, 1 }))
    assert.same({ 2, 3 }, axes(3, { -1, 2 }))
    assert.same({}, axes(3, {}))
    assert.same({ 2 }, axes(3, 2.0))
  end)

  it("names the bad axis", function()
    helper.assert_gaerror(function() axes(3, 4) end, "axis 4 is out of range for an array of 3 dimensions")
    helper.assert_gaerror(function() axes(3, -4) end, "axis -4 is out of range")
    helper.assert_gaerror(function() axes(3, 0) end, "axis 0 is out of range")
    helper.assert_gaerror(function() axes(0, 1) end, "axis 1 is out of range for an array of 0 dimensions")
    helper.assert_gaerror(function() axes(2, { 1, 5 }) end, "axis 5 is out of range")
  end)

  it("refuses repeated axes, also written two ways", function()
    helper.assert_gaerror(function() axes(3, { 2, 2 }) end, "axis 2 is repeated")
    helper.assert_gaerror(function() axes(3, { 1, -3 }) end, "axis -3 is repeated")
  end)

  it("refuses what is not an axis", function()
    helper.assert_gaerror(function() axes(3, 1.5) end, "_reduce_axes")
    helper.assert_gaerror(function() axes(3, "x") end, "axis must be an integer or a list of integers")
    helper.assert_gaerror(function() axes(3, { 1, "a" }) end, "element 2 of the list is not an integer")
  end)
end)

describe("built-in reductions", function()
  local R = require("gpuarray.internal").reductions

  it("are functions and methods", function()
    for _, name in ipairs { "sum", "prod", "mean", "var", "std", "min", "max", "amin", "amax", "argmin",
                            "argmax", "all", "any", "count_nonzero", "nansum", "nanmax", "nanmin", "ptp" } do
      assert.is_function(ga[name], name)
      assert.is_function(ga.methods[name], name)
    end
    assert.equal(ga.max, ga.amax)
    assert.equal(ga.min, ga.amin)
  end)

  it("compile for sm_90: every reduction on float32", function()
    for _, f in pairs(R) do compiles(core._test.reduction_source(f, "float32", { kind = "row", vec = 4 })) end
  end)

  it("compile for sm_90: the accumulation, ordering and state types of every dtype", function()
    -- two per dtype, in turn, so that each helper meets every dtype family
    local names = { "sum", "max", "argmax", "var", "mean", "nanmin", "any", "count_nonzero", "prod", "ptp",
                    "std", "argmin", "nansum" }
    local kinds = { { kind = "row" }, { kind = "col", ndk = 2 }, { kind = "row", ndr = 3, idx64 = true } }
    for i, dt in ipairs(DTYPES) do
      for j = 0, 1 do
        local name = names[(2 * i + j) % #names + 1]
        if not (name == "ptp" and dt == "bool") then
          local v = kinds[(i + j) % #kinds + 1]
          v.vec = vec_of(dt)
          compiles(core._test.reduction_source(R[name], dt, v))
          -- the kernel finishing split rows: the op and the output side alone
          compiles(core._test.reduction_source(R[name], dt, { fin = true, idx64 = v.idx64 }))
          -- a reduction to one value whose last block finishes it (ga_red_last)
          compiles(core._test.reduction_source(R[name], dt, { kind = "row", vec = vec_of(dt), onek = true,
                                                              idx64 = v.idx64 }))
        end
      end
    end
  end)

  it("compile with dtype= and a cast to another out dtype", function()
    compiles(core._test.reduction_source(R.sum, "int8", { kind = "row", vec = 16 }, { dtype = "float16" }))
    compiles(core._test.reduction_source(R.mean, "int32", nil, { dtype = "float32", out = "float64" }))
    compiles(core._test.reduction_source(R.std, "uint16", nil, { dtype = "complex64" }))
    compiles(core._test.reduction_source(R.prod, "float64", nil, { out = "int32" }))
  end)

  it("ptp is not defined on bool", function()
    helper.assert_gaerror(function() core._test.reduction_source(R.ptp, "bool") end, "ptp: not supported for bool")
  end)
end)

describe("ReductionKernel", function()
  it("compiles CuPy's l2-norm and sum-of-squares kernels", function()
    local l2 = ga.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    assert.equal("l2norm", l2.name)
    assert.equal(1, l2.nin)
    assert.equal(1, l2.nout)
    compiles(rk_source(l2, { "float32" }, { kind = "row", vec = 4 }))
    compiles(rk_source(l2, { "float64" }, { kind = "col", vec = 1, ndk = 2, ndr = 2 }))
    compiles(rk_source(l2, { "float16" }, { kind = "row", vec = 8 }))
    compiles(rk_source(l2, { "float32" }, { fin = true }))
    compiles(rk_source(l2, { "float32" }, { kind = "row", vec = 4, onek = true }))
    local ss = ga.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sum_of_squares")
    compiles(rk_source(ss, { "int32" }, { kind = "row", vec = 4 }))
    compiles(rk_source(ss, { "complex128" }, { kind = "col" }))
    compiles(rk_source(ss, { "complex128" }, { fin = true, idx64 = true }))
  end)

  it("compiles several inputs, scalars by value, fixed types and _i/_j", function()
    local k = ga.ReductionKernel("T x, T y, float64 w", "float64 z", "(x - y) * (x - y) * w + _j", "a + b",
                                 "z = a / _in_ind.size() * _out_ind.size() + _i", "0", "wsq",
                                 { reduce_type = "double" })
    compiles(rk_source(k, { "float32", "float32", "float64" }, { kind = "col", ndk = 3, ndr = 2 }))
  end)

  it("compiles without an identity (the first element starts the reduction)", function()
    local k = ga.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", nil, "maxnoid")
    assert.is_nil(k.identity)
    compiles(rk_source(k, { "float32" }))
    compiles(rk_source(k, { "int64" }, { kind = "col" }))
    compiles(rk_source(k, { "float32" }, { kind = "row", onek = true }))
  end)

  it("takes a preamble, options and a struct reduce type", function()
    local k = ga.ReductionKernel("T x", "float32 y", "make_acc(x)", "merge(a, b)", "y = a.s / a.n", "acc{0, 0}",
                                 "meanish", {
      reduce_type = "acc",
      preamble = [[
struct acc { float s; int n; };
__device__ acc make_acc(float v) { return acc{v, 1}; }
__device__ acc merge(acc a, acc b) { return acc{a.s + b.s, a.n + b.n}; }
]],
      options = { "-DGA_TEST=1" },
    })
    compiles(rk_source(k, { "float32" }))
    compiles(rk_source(k, { "float32" }, { kind = "row", vec = 4, onek = true }))   -- the last block copies a struct
  end)

  it("quotes the user's expression in compile errors", function()
    local k = ga.ReductionKernel("T x", "T y", "x * * x", "a + b", "y = a", "0", "broken")
    local err = helper.assert_gaerror(function() core._test.compile(rk_source(k, { "float32" }), nil, 90) end,
                                      "compile error")
    assert.is_truthy(err:find("x * * x", 1, true), err)
    local k2 = ga.ReductionKernel("T x", "T y", "x", "a +* b", "y = a", "0", "broken2")
    err = helper.assert_gaerror(function() core._test.compile(rk_source(k2, { "float32" }), nil, 90) end)
    assert.is_truthy(err:find("a +* b", 1, true), err)
    local k3 = ga.ReductionKernel("T x", "T y", "x", "a + b", "y = undefined_thing(a)", "0", "broken3")
    err = helper.assert_gaerror(function() core._test.compile(rk_source(k3, { "float32" }), nil, 90) end)
    assert.is_truthy(err:find("undefined_thing(a)", 1, true), err)
  end)

  it("checks its definition", function()
    local RK = ga.ReductionKernel
    helper.assert_gaerror(function() RK("T x", "T y", "x", "a + b", "y = a", "0", "bad name") end,
                          "invalid kernel name")
    helper.assert_gaerror(function() RK("T x", "", "x", "a + b", "y = a", "0", "k") end,
                          "needs at least one output parameter")
    helper.assert_gaerror(function() RK("raw T x", "T y", "x", "a + b", "y = a", "0", "k") end,
                          "raw parameters are not supported")
    helper.assert_gaerror(function() RK("T _x", "T y", "_x", "a + b", "y = a", "0", "k") end, "reserved")
    helper.assert_gaerror(function() RK("T x", "T x", "x", "a + b", "x = a", "0", "k") end,
                          "both an input and an output")
    helper.assert_gaerror(function() RK("float x", "T y", "x", "a + b", "y = a", "0", "k") end,
                          "write the dtype (float32)")
    helper.assert_gaerror(function() RK("T x", "T y", 3, "a + b", "y = a", "0", "k") end, "must be a string")
    helper.assert_gaerror(function() RK("T x", "T y", "x", "a + b", "y = a", {}, "k") end, "identity")
    helper.assert_gaerror(function() RK("T x", "T y", "x", "a + b", "y = a", "0", "k", { options = 5 }) end,
                          "options")
  end)

  it("is named by tostring", function()
    local k = ga.ReductionKernel("T x", "T y", "x", "a + b", "y = a", 0, "named")
    assert.equal("gpuarray.ReductionKernel(named)", tostring(k))
    assert.equal("0", k.identity)
    assert.equal("T", k.reduce_type)
  end)
end)

describe("scan kernels", function()
  it("compile for sm_90 for every dtype, both shapes", function()
    for i, dt in ipairs(DTYPES) do
      local op = i % 2 == 0 and "cumsum" or "cumprod"
      compiles(core._test.scan_source(op, dt, nil, "tiles", 1 + i % 3))
      -- unaligned input or output: scalar accesses on that side
      compiles(core._test.scan_source(op, dt, nil, "tiles", 1, i % 2 == 0, i % 2 == 1))
      if i % 3 == 0 then compiles(core._test.scan_source(op, dt, nil, "rows", 2)) end
    end
    compiles(core._test.scan_source("cumsum", "float32", nil, "tiles", 1, false, false))
    -- wide tiles (one block an SM) of the 4-byte accumulators
    compiles(core._test.scan_source("cumsum", "float32", nil, "tiles", 1, true, true, true))
    compiles(core._test.scan_source("cumprod", "float16", nil, "tiles", 4, true, false, true))
    compiles(core._test.scan_source("cumprod", "complex64", nil, "tiles", 1))
    compiles(core._test.scan_source("cumsum", "int32", "float16", "tiles", 8))
    compiles(core._test.scan_source("cumprod", "float16", "complex128", "rows", 4))
  end)
end)

describe("mask kernels", function()
  it("compile for sm_90 for every dtype", function()
    local kinds = { "coords", "scatter", "fill" }
    for i, dt in ipairs(DTYPES) do
      compiles(core._test.mask_source("count", dt, nil))
      compiles(core._test.mask_source("copy", "bool", dt))
      local kind = kinds[i % 3 + 1]
      if kind == "coords" then compiles(core._test.mask_source("coords", dt, nil, 1 + i % 4))
      else compiles(core._test.mask_source(kind, "bool", dt, 1 + i % 4, i % 2 == 0)) end
    end
    compiles(core._test.mask_source("offsets"))
    compiles(core._test.mask_source("copy", "bool", "float32", 1, false, false, false))
    compiles(core._test.mask_source("copy", "bool", "complex128", 1, false, true, false))
    compiles(core._test.mask_source("count", "int16", nil, 1, false, false))
  end)
end)
