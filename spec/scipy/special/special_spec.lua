--- ga.scipy.special without a GPU: every ufunc's CUDA compiles with NVRTC,
-- the declarations, the loops NumPy's resolution picks, the errors, and
-- ga.fuse tracing special ufuncs (their device functions in the fused
-- kernel's preamble).
local helper = require "helper"
local ga = helper.ga
local core = ga._core
local api = require "gpuarray.api"

local sp = ga.scipy.special
local internal = require "gpuarray.internal"

describe("scipy.special", function()
  it("loads on first use and lists CuPy's functions", function()
    for _, name in ipairs { "erf", "erfc", "erfcx", "erfinv", "erfcinv", "gamma", "gammaln", "digamma", "psi",
                            "beta", "betaln", "i0", "i0e", "k1e", "y1", "yn", "expit", "logit", "xlogy",
                            "entr", "rel_entr", "kl_div", "huber", "pseudo_huber", "logsumexp", "softmax",
                            "log_softmax", "ndtr", "ndtri", "log_ndtr", "sinc", "spherical_yn",
                            "multigammaln" } do
      assert(sp[name] ~= nil, name)
    end
    assert.are.equal(sp.digamma, sp.psi)
    assert.are.equal(sp, require("gpuarray").scipy.special)
  end)

  describe("ufuncs compile with NVRTC for sm_90 (the strided kernels of every loop)", function()
    -- NVRTC's front end and NVVM for every ufunc (to LTO IR: a tenth of the
    -- time), all the way to a cubin for one of each header
    local full = { erf = true, gamma = true, i0e = true, gammainc = true, betainc = true, zetac = true,
                   ellipj = true, sici = true, sph_harm_y = true, wright_bessel = true, expit = true }
    for _, def in ipairs(sp._defs) do
      it(def.fname, function()
        local u = sp[def.name] or sp[def.name:gsub("^sp_", "_")]
        assert(u, def.name)
        local opts = not full[def.name] and { "--dlink-time-opt" } or nil
        local ok, n = pcall(core._test.compile, core._test.ufunc_source(u, "strided"), opts, 90)
        assert(ok, tostring(n))
        if full[def.name] then assert.is_true(n > 0) end
      end)
    end
  end)

  it("every public function is declared, and errors name it", function()
    for name, f in pairs(sp) do
      if name:sub(1, 1) ~= "_" then
        local e = api.entry(f)
        assert(e, name .. " is not declared")
        assert.are.equal("scipy.special." .. name, e.info.qualname == "scipy.special.digamma" and
          (name == "psi" and "scipy.special.psi" or e.info.qualname) or e.info.qualname)
      end
    end
    assert.matches("scipy%.special%.erf%(x: array_like", ga.help(sp.erf))
  end)

  it("resolves loops as NumPy resolves SciPy's (f and d loops)", function()
    local cases = {
      { sp.erf, { "float32" }, "float32", "f->f" }, { sp.erf, { "float64" }, "float64", "d->d" },
      { sp.erf, { "float16" }, "float32", "f->f" }, { sp.erf, { "int8" }, "float32", "f->f" },
      { sp.erf, { "int16" }, "float32", "f->f" }, { sp.erf, { "int32" }, "float64", "d->d" },
      { sp.erf, { "bool" }, "float32", "f->f" }, { sp.erf, { 1 }, "float64", "d->d" },
      { sp.erf, { 0.5 }, "float64", "d->d" }, { sp.beta, { "float32", 2 }, "float32", "ff->f" },
      { sp.beta, { "float32", "float64" }, "float64", "dd->d" },
      { sp.radian, { "float32", "float32", 1 }, "float32", "fff->f" },
    }
    for _, c in ipairs(cases) do
      local dt, sig = ga._core.elementwise.resolve(c[1], table.unpack(c[2]))
      assert.are.equal(c[3], dt, c[1].name)
      assert.are.equal(c[4], sig, c[1].name)
    end
    assert.are.equal(3, sp.radian.nin)
    assert.are.equal(1, sp.radian.nout)
  end)

  it("raises naming the function", function()
    local function err(f, ...)
      local ok, e = pcall(f, ...)
      assert.is_false(ok)
      return tostring(e)
    end
    assert.matches("^gpuarray: scipy%.special%.erf: unknown option 'otu' %(did you mean 'out'%?%)",
                   err(sp.erf, 1, { otu = 1 }))
    assert.matches("^gpuarray: scipy%.special%.erf: x is an input: give it by position", err(sp.erf, 1, { x = 1 }))
    assert.matches("^gpuarray: scipy%.special%.beta: takes 2 inputs, got 1", err(sp.beta, 1))
    assert.matches("^gpuarray: scipy%.special%.erf: argument 1 must be an ndarray or a number, got string",
                   err(sp.erf, "x"))
    assert.matches("^gpuarray: scipy%.special%.erf: not supported for complex128", err(sp.erf, { 1, 2 }))
    assert.matches("^gpuarray: scipy%.special%.erf: no loop for dtype int32", err(sp.erf, 1, { dtype = "int32" }))
    assert.matches("^gpuarray: scipy%.special%.logsumexp: unknown option 'keepdim' %(did you mean 'keepdims'%?%)",
                   err(sp.logsumexp, 1, { keepdim = true }))
    assert.matches("^gpuarray: scipy%.special%.multigammaln: d must be", err(sp.multigammaln, 3, 0))
    -- 2^62 passes over no data ran past the fuzzer's 10^8 instructions (fuzz decl seed 20261127)
    assert.matches("^gpuarray: scipy%.special%.multigammaln: d = 4611686018427387904 is more than 65536",
                   err(sp.multigammaln, ga.empty({ 0 }, "float64"), 4611686018427387904, {}))
    assert.are.same({ 0 }, sp.multigammaln(ga.empty({ 0 }, "float64"), 65536).shape)
  end)

  it("the logsumexp and softmax kernels compile", function()
    local lse, soft, logsoft = sp._row_kernels()
    for _, dt in ipairs { "float32", "float64" } do
      assert.is_true(lse:compile(dt, dt) ~= nil)
      assert.is_true(soft:compile(dt, dt, dt) ~= nil)
      assert.is_true(logsoft:compile(dt, dt, dt) ~= nil)
    end
  end)

  describe("ga.fuse traces special ufuncs", function()
    it("one output: the device functions go into the fused kernel", function()
      local f = ga.fuse(function(x, y) return sp.erf(x) * sp.gammaln(y) + sp.expit(x) end)
      local plan = f:_trace({ dtype = "float32", ndim = 1 }, { dtype = "float64", ndim = 1 })
      assert.matches("sf_erf%(in0%)", plan.operation)
      assert.matches("sf_gammaln%(in0%)", plan.operation)
      assert.matches("SF_ERF_CUH", plan.preamble)
      assert.matches("SF_GAMMA_CUH", plan.preamble)
      local _, n = plan.preamble:gsub("#ifndef SF_BASE_CUH", "")
      assert.are.equal(1, n)   -- each header once
      local k = ga.ElementwiseKernel(plan.in_params, plan.out_params, plan.operation, "fz_special",
                                     { preamble = plan.preamble })
      assert.is_true(k:compile("float32", "float64", "float64") ~= nil)
      assert.are.equal(internal.ufunc_def_of[sp.erf].fname, "scipy.special.erf")
    end)
  end)
end)
