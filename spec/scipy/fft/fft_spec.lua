--- ga.scipy.fft and ga.scipy.fftpack: without a GPU, the names, the
-- declarations, every DCT/DST and fftpack kernel compiling with NVRTC, the
-- fast Hankel transform's coefficients (computed on the host) and
-- next_fast_len against SciPy; on a GPU (dct_gpu_spec.lua) the values.
local helper = require "helper"
local ga = helper.ga
local api = require "gpuarray.api"

local sf = ga.scipy.fft
local fp = ga.scipy.fftpack

describe("scipy.fft", function()
  it("has scipy.fft's and fftpack's functions, declared", function()
    for _, n in ipairs { "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
                         "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "dct", "idct",
                         "dctn", "idctn", "dst", "idst", "dstn", "idstn", "fht", "ifht", "fftshift", "ifftshift",
                         "fftfreq", "rfftfreq", "next_fast_len", "prev_fast_len" } do
      assert(sf[n], n)
      assert(api.entry(sf[n]), n .. " is not declared")
    end
    for _, n in ipairs { "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "get_fft_plan" } do
      assert(fp[n], n)
      assert(api.entry(fp[n]), n .. " is not declared")
    end
    assert.matches("scipy%.fft%.dct%(x: array_like, type: integer = 2", ga.help(sf.dct))
  end)

  it("a plan made for fftpack is one for scipy.fft too (both instances of the plan module)", function()
    local make = require "gpuarray.scipy.fft.plan"
    local a, b = make(ga), make(ga)
    local p = a.new({ 4, 8 }, { -1 }, "C2C")
    assert.is_true(b.is_plan(p))
    b.check(p, { shape = { 4, 8 } }, { 2 }, "fft")        -- the same axis, 1-based
    assert.has_error(function() b.check(p, { shape = { 8, 4 } }, { 2 }, "fft") end)
    assert.has_error(function() b.check(p, { shape = { 4, 8 } }, { 1 }, "fft") end)
    assert.has_error(function() b.check({ shape = { 4, 8 } }, { shape = { 4, 8 } }, nil, "fft") end)
  end)

  it("next_fast_len and prev_fast_len as SciPy", function()
    -- scipy.fft.next_fast_len(t) and (t, real=True)
    local cases = { { 1021, 1024, 1024 }, { 7, 7, 8 }, { 11, 11, 12 }, { 13, 14, 15 }, { 97, 98, 100 },
                    { 1, 1, 1 }, { 4097, 4116, 4320 } }
    for _, c in ipairs(cases) do
      assert.are.equal(c[2], sf.next_fast_len(c[1]), "complex " .. c[1])
      assert.are.equal(c[3], sf.next_fast_len(c[1], true), "real " .. c[1])
    end
    assert.are.equal(96, sf.prev_fast_len(97, true))
    assert.has_error(function() sf.next_fast_len(0) end)
    -- far apart past 2^40 (SciPy's values); a step loop ran for ever near 2^63 (fuzz decl)
    assert.are.equal(1099535990784, sf.next_fast_len(1099511627777))
    assert.are.equal(1153300781250000000, sf.next_fast_len(1152921504606846977, true))
    local t = os.clock()
    local p = sf.prev_fast_len(math.maxinteger - 1)
    assert.are.equal(9223306985706024960, p)   -- 2^a 3^b 5^c 7^d 11^e
    for _, f in ipairs({ 2, 3, 5, 7, 11 }) do while p % f == 0 do p = p // f end end
    assert.are.equal(1, p)
    assert.are.equal(1 << 62, sf.next_fast_len(1 << 62))
    helper.assert_gaerror(function() sf.next_fast_len(math.maxinteger - 1) end,
                          "scipy.fft.next_fast_len: target = 9223372036854775806 is too large")
    assert(os.clock() - t < 5, "next/prev_fast_len near 2^63 took " .. (os.clock() - t) .. " s")
  end)

  it("the fast Hankel transform's coefficients as SciPy's fhtcoeff", function()
    local cases = {
      { { 9, 0.05, 1.5, 0.3, 0.2 }, { { 1.0971267833786258, 0 }, { -0.8504491360529535, 1.4673483010122488 },
        { -1.496604165966474, 1.2449716659887855 }, { -1.6712027604173871, -1.2895485663172501 },
        { -1.9996783209212015, 0 } } },
      { { 6, 0.2, -0.5, 0, -1.5 }, { { -1.2533141373155023, -1.5348671465895562e-16 },
        { -0.06274828278704596, 0.05276196078455952 }, { 0.023049823098952264, 0.018210661025995428 },
        { 5.473444870162401e-05, 0 } } },
      { { 7, 0.1, 0.5, 0.1, 1.5 }, { { 0, 0 }, { -13.108530739580413, -23.671097686958706 },
        { 12.806682628269291, 75.0957292850427 }, { -138.9501174531227, 0 } } },
      { { 8, 0.1, 0, 0, 0 }, { { 1, 0 }, { -0.47991469711651474, 0.8773151563101848 },
        { -0.7588113789297921, 0.6513104414998023 }, { 0.8099405245004933, 0.5865120175852033 },
        { 0.07896371569116664, 0 } } },
    }
    for _, c in ipairs(cases) do
      local re, im = sf._fht_coeffs(table.unpack(c[1]))
      assert.are.equal(#c[2], #re)
      for m, z in ipairs(c[2]) do
        assert(math.abs(re[m] - z[1]) <= 1e-12 * (1 + math.abs(z[1])), ("re %d: %.17g vs %.17g"):format(m, re[m], z[1]))
        assert(math.abs(im[m] - z[2]) <= 1e-12 * (1 + math.abs(z[2])), ("im %d: %.17g vs %.17g"):format(m, im[m], z[2]))
      end
    end
  end)

  it("every DCT/DST and fftpack kernel compiles with NVRTC", function()
    for _, R in ipairs { "float32", "float64" } do
      local ks, dts = sf._dct.kernels(R)
      for name, k in pairs(ks) do
        local ok, e = pcall(function() return k:compile(table.unpack(dts[name])) end)
        assert(ok, name .. " " .. R .. ": " .. tostring(e))
      end
      local C = R == "float32" and "complex64" or "complex128"
      local pack, unpack = fp._kernels(R)
      assert(pcall(function() return pack:compile(C, "int64", "int64", R) end))
      assert(pcall(function() return unpack:compile(R, "int64", "int64", C) end))
    end
  end)

  it("raises naming the function", function()
    local function err(f, ...)
      local ok, e = pcall(f, ...)
      assert.is_false(ok)
      return tostring(e)
    end
    assert.matches("^gpuarray: scipy%.fft%.dct: unknown option 'typ' %(did you mean 'type'%?%)",
                   err(sf.dct, 1, { typ = 2 }))
    assert.matches("^gpuarray: scipy%.fft%.dct: norm must be", err(sf.dct, 1, { norm = "sideways" }))
    assert.matches("^gpuarray: scipy%.fft%.next_fast_len: target must be", err(sf.next_fast_len, -3))
    assert.matches("^gpuarray: scipy%.fftpack%.get_fft_plan: value_type must be", err(fp.get_fft_plan, 1,
      { value_type = "X2Y" }))
  end)
end)
