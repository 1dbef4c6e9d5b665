--- ga.scipy.fft's DCT/DST (every type, norm, orthogonalize, axis, inverse),
-- their N-D forms, fht/ifht, the Hermitian N-D transforms and fftpack's
-- packed real transforms against SciPy's values (refs.lua, from
-- tools/fft/gen_refs.py); dtypes, n= and plans.
local helper = require "helper"
local ga = helper.ga
local R = dofile("spec/scipy/fft/refs.lua")
local sf = ga.scipy.fft
local fp = ga.scipy.fftpack

--- got against want with an error relative to the largest |want| of the
-- array: a transform's rounding error is a few eps times the norm of its
-- input, so an entry far smaller than the others (a type 4 DCT's -1.1e-4
-- beside entries of order 1) carries it whole, not relative to itself
local function close(want, got, tol, what)
  assert.are.same(helper.shape_of(want), helper.shape_of(got), what)
  local w, g = helper.flatten(want), helper.flatten(got)
  local scale = 0
  for _, v in ipairs(w) do
    if v == v and math.abs(v) < math.huge then scale = math.max(scale, math.abs(v)) end
  end
  for i = 1, #w do
    local ok = w[i] == g[i] or (w[i] ~= w[i] and g[i] ~= g[i]) or math.abs(w[i] - g[i]) <= tol * scale
    assert(ok, ("%s: entry %d (C order): got %.17g, want %.17g, tolerance %.3g"):format(what, i, g[i], w[i],
      tol * scale))
  end
end

describe("scipy.fft on the GPU", function()
  helper.gpu_it("dct, idct, dst, idst: every type, norm, orthogonalize and axis", function()
    local arrays = { x = ga.array(R.x), x8 = ga.array(R.x8) }
    for _, c in ipairs(R.dct) do
      local name, t, norm, orth, an, axis, want = c[1], c[2], c[3], c[4], c[5], c[6], c[7]
      local y = sf[name](arrays[an], t, nil, axis, norm, false, nil, orth)
      assert.are.equal("float64", y.dtype)
      close(want, y:totable(), 1e-12, ("%s type %d norm %s orth %s %s axis %d"):format(name, t, tostring(norm),
        tostring(orth), an, axis))
    end
  end)

  helper.gpu_it("dctn, idctn, dstn, idstn; n=, float32, complex and integer inputs", function()
    local x = ga.array(R.x)
    for _, c in ipairs(R.dctn) do
      close(c[4], sf[c[1]](x, c[2], nil, nil, c[3]):totable(), 1e-12, ("%s type %d %s"):format(c[1], c[2],
        tostring(c[3])))
    end
    close(R.dct_n, sf.dct(x, 2, 7):totable(), 1e-12, "dct n=7")
    close(R.dct_crop, sf.dct(x, { n = 3, axis = 1 }):totable(), 1e-12, "dct n=3 axis 1")
    local y32 = sf.dctn(ga.array(R.x, "float32"))
    assert.are.equal("float32", y32.dtype)
    close(sf.dctn(x):totable(), y32:totable(), 1e-5, "float32")
    assert.are.equal("float64", sf.dct(ga.array({ 1, 2, 3 }, "int32")).dtype)
    local z = sf.dct(x + x * { 0, 1 })
    assert.are.equal("complex128", z.dtype)
    close(sf.dct(x):totable(), ga.real(z):totable(), 1e-12, "complex real part")
    close(sf.dct(x):totable(), ga.imag(z):totable(), 1e-12, "complex imaginary part")
    -- round trips
    for t = 1, 4 do
      close(R.x, sf.idctn(sf.dctn(x, t), t):totable(), 1e-12, "idctn(dctn) type " .. t)
      close(R.x, sf.idstn(sf.dstn(x, t, nil, nil, "ortho"), t, nil, nil, "ortho"):totable(), 1e-12, "dstn type " .. t)
    end
    assert.has_error(function() sf.dct(ga.ones({ 1 }), 1) end)
    assert.has_error(function() sf.dct(x, 5) end)
  end)

  helper.gpu_it("fht and ifht", function()
    local a = ga.array(R.fht.a)
    for _, c in ipairs(R.fht.cases) do
      close(c[4], sf.fht(a, R.fht.dln, c[1], c[2], c[3]):totable(), 1e-11, "fht mu " .. c[1])
      close(c[5], sf.ifht(a, R.fht.dln, c[1], c[2], c[3]):totable(), 1e-11, "ifht mu " .. c[1])
    end
  end)

  helper.gpu_it("hfftn, hfft2, ihfftn as SciPy", function()
    local c = ga.array(R.herm.re) + ga.array(R.herm.im) * { 0, 1 }
    close(R.herm.hfftn, sf.hfftn(c):totable(), 1e-12, "hfftn")
    close(R.herm.hfft2_ortho, sf.hfft2(c, nil, nil, "ortho"):totable(), 1e-12, "hfft2 ortho")
    local ih = sf.ihfftn(ga.array(R.x))
    local t = ih:totable()
    for i, row in ipairs(R.herm.ihfftn) do
      for j, z in ipairs(row) do
        assert(math.abs(t[i][j][1] - z[1]) < 1e-12 and math.abs(t[i][j][2] - z[2]) < 1e-12, "ihfftn")
      end
    end
  end)

  helper.gpu_it("fftpack: packed rfft and irfft, plans", function()
    local F = R.fftpack
    close(F.rfft7, fp.rfft(ga.array(F.v7)):totable(), 1e-12, "rfft 7")
    close(F.rfft8, fp.rfft(ga.array(F.v8)):totable(), 1e-12, "rfft 8")
    close(F.irfft7, fp.irfft(ga.array(F.v7)):totable(), 1e-12, "irfft 7")
    close(F.irfft8, fp.irfft(ga.array(F.v8)):totable(), 1e-12, "irfft 8")
    close(F.rfft8_n5, fp.rfft(ga.array(F.v8), 5):totable(), 1e-12, "rfft n=5")
    local x = ga.array(R.x)
    local plan = fp.get_fft_plan(x:astype("complex128"), nil, { -1 })
    close(ga.fft.fft(x):totable(), sf.fft(x:astype("complex128"), { plan = plan }):totable(), 1e-12, "with a plan")
    assert.has_error(function() sf.fft(ga.ones({ 4, 4 }), { plan = plan }) end)
  end)
end)
