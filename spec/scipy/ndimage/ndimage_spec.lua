--- ga.scipy.ndimage: every kernel compiles (CPU), declarations and
-- errors, and SciPy 1.10's values (ref.lua, from ref.py) on the GPU:
-- every boundary mode, orders 0-5, an odd x even image.
local helper = require "helper"
local ga = helper.ga
local R = dofile("spec/scipy/ndimage/ref.lua")
local nd = ga.scipy.ndimage

local MODES = { "reflect", "constant", "nearest", "mirror", "wrap", "grid-constant", "grid-mirror", "grid-wrap" }

local function close(want, got, tol, what)
  helper.assert_same(want, got:totable(), tol or 1e-9, what)
end

describe("scipy.ndimage", function()
  it("compiles its kernels: stencil, separable passes, transforms, label, measurements, EDT, Fourier", function()
    local St, P = nd._stencil, nd._pass
    for _, dt in ipairs({ "float32", "float64" }) do
      for _, op in ipairs({ "corr", "min", "max" }) do assert.is_not_nil(P.module(dt, op)) end
    end
    assert.is_not_nil(St.kernel({ ndim = 2, fshape = { 3, 3 }, half = { 1, 1 }, modes = { 2, 2 }, op = "rank",
                                  full = true, count = 9, rank = 4 }):compile("float32", "int64", "int64", "float64",
                                                                               "float32"))
    assert.is_not_nil(St.kernel({ ndim = 2, fshape = { 2, 3 }, half = { 1, 1 }, modes = { 4, 4 }, op = "corr",
                                  full = true }):compile("uint8", "float64", "int64", "int64", "float64", "uint8"))
    assert.is_not_nil(nd._transform_kernel({ nin = 2, nout = 2, kind = "coords", order = 3, mode = 6 })
      :compile("float64", "float64", "int64", "int64", "int64", "int64", "float64", "int64", "float32"))
    -- the bench's two: float32 coordinates read as they are, zoom's factors
    -- as scalars, the output unravelled in 32 bits
    assert.is_not_nil(nd._transform_kernel({ nin = 2, nout = 1, kind = "coords", order = 1, mode = 4, i32 = true,
                                             fast1 = true })
      :compile("float32", "float32", "int64", "int64", "int64", "float64", "int64", "float32"))
    assert.is_not_nil(nd._transform_kernel({ nin = 2, nout = 2, kind = "zoom", order = 1, mode = 4, i32 = true,
                                             fast1 = true })
      :compile("float32", "float64", "float64", "int64", "int64", "int64", "int64", "float64", "int64", "float32"))
    assert.is_not_nil(nd._transform_kernel({ nin = 3, nout = 3, kind = "affine", order = 1, mode = 4, i32 = true,
                                             fast1 = true, ident = { true, false, false }, yint = { 0, 255 } })
      :compile("uint8", "float64", "float64", "int64", "int64", "int64", "int64", "int64", "int64", "float64",
               "int64", "uint8"))
    assert.is_not_nil(nd._transform_kernel({ nin = 3, nout = 3, kind = "affine", order = 2, mode = 0 })
      :compile("float64", "float64", "float64", "int64", "int64", "int64", "int64", "int64", "int64", "float64",
               "int64", "float64"))
    assert.is_not_nil(nd._label_merge_kernel(3, { { -1, 0, 0 }, { 0, -1, 0 }, { 0, 0, -1 } })
      :compile("int32", "int64", "int64", "int64"))
    assert.is_not_nil(nd._edt_pass_kernel(2, true):compile("float64", "float64", "int32", "float64", "int64", "int64",
                                                           "float64", "int32", "int32", "int32", "int64"))
    assert.is_not_nil(nd._fourier_kernel("ellipsoid", 2):compile("complex128", "float64", "int64", "int64", "int64",
                                                                 "int64", "complex128"))
  end)

  it("sorting networks sort every 0/1 input (the 0-1 principle) for sizes 2..12", function()
    for n = 2, 12 do
      local net = nd._stencil.batcher(n)
      for mask = 0, (1 << n) - 1 do
        local v = {}
        for b = 1, n do v[b] = (mask >> (b - 1)) & 1 end
        for _, c in ipairs(net) do
          local a, b = c[1] + 1, c[2] + 1
          if v[b] < v[a] then v[a], v[b] = v[b], v[a] end
        end
        for b = 2, n do assert(v[b - 1] <= v[b], ("network %d fails on %d"):format(n, mask)) end
      end
    end
  end)

  it("the Gaussian weights are SciPy's", function()
    helper.assert_same({ 0.03546438540195, 0.16201674786724, 0.0, -0.39905027965245, 0.0, 0.16201674786724,
                         0.03546438540195 }, nd._gauss_weights(1.0, 2, 3, "x"), 1e-12)
  end)

  it("declares every function; a bad mode names the function and suggests", function()
    local api = require "gpuarray.api"
    for _, name in ipairs({ "gaussian_filter", "median_filter", "zoom", "map_coordinates", "label", "sum_labels",
                            "binary_erosion", "distance_transform_edt", "fourier_shift", "generic_filter" }) do
      assert.is_not_nil(api.entry(nd[name]), name)
    end
    helper.assert_gaerror(function() nd.gaussian_filter({ 1, 2 }, 1, 0, nil, "reflct") end, "did you mean \"reflect\"")
    helper.assert_gaerror(function() nd.zoom({ 1, 2 }, 2, nil, 3, "nearst") end, "scipy.ndimage.zoom")
  end)

  it("measurements refuse a nested or NaN index at once (fuzz decl: table.sort compared tables)", function()
    local x, lab = ga.empty({ 1, 0 }, "uint64"), ga.empty({ 0 }, "bool")
    helper.assert_gaerror(function() nd.sum_labels(x, lab, { { 1 }, { 2 } }) end,
                          "scipy.ndimage.sum_labels: index must be a label value or a flat list of them, "
                          .. "entry 1 is table")
    helper.assert_gaerror(function() nd.extrema(x, lab, { 1, 0 / 0 }) end,
                          "scipy.ndimage.extrema: index must be a label value or a flat list of them, entry 2 is NaN")
    helper.assert_gaerror(function() nd.mean(x, lab, { 1, "2" }) end, "entry 2 is string")
  end)

  it("a Gaussian kernel too large for the host raises (fuzz decl: radius nil past 2^63, hours of weights)", function()
    local x = ga.empty({ 0, 3 }, "float32")
    helper.assert_gaerror(function() nd.gaussian_filter1d(x, 1e300) end,
                          "scipy.ndimage.gaussian_filter1d: radius 4e+300 is more than the 4194304 weights")
    helper.assert_gaerror(function() nd.gaussian_filter(x, 1 / 0) end, "scipy.ndimage.gaussian_filter: radius inf")
    helper.assert_gaerror(function() nd.gaussian_filter1d(x, 2, -1, math.maxinteger) end,
                          "a Gaussian kernel of radius 8 and order 9223372036854775807 is too large")
    helper.assert_gaerror(function() nd.gaussian_filter(x, 1, 5000) end, "radius 4 and order 5000 is too large")
    helper.assert_gaerror(function() nd.gaussian_filter1d(x, 1, -1, 0, nil, "reflect", 0, 4, { radius = 1 << 22 }) end,
                          "radius 4194304 is more than")
    assert.are.same({ 0, 3 }, nd.gaussian_filter1d(x, 1, -1, 2).shape)
  end)

  it("a filter size past what the host builds raises at once (fuzz decl: grey_erosion of size 2^53 hung)", function()
    local x = ga.empty({ 0, 2 }, "float64")
    helper.assert_gaerror(function() nd.grey_erosion(ga.empty({ 0 }, "bool"), 9007199254740992) end,
                          "scipy.ndimage.grey_erosion: a filter of 9007199254740992 points is more than the 4194304")
    helper.assert_gaerror(function() nd.uniform_filter1d(x, 1 << 40) end, "scipy.ndimage.uniform_filter1d: a filter of")
    helper.assert_gaerror(function() nd.maximum_filter(x, { 2, 1 << 23 }) end,
                          "scipy.ndimage.maximum_filter: a filter of")
    helper.assert_gaerror(function() nd.median_filter(x, { 4096, 4096 }) end,
                          "scipy.ndimage.median_filter: a filter of 16777216 points")
    helper.assert_gaerror(function() nd.generic_filter(x, function(v) return v[0] end, { 1 << 30, 1 << 30 }) end,
                          "scipy.ndimage.generic_filter: a filter of 1073741824 points")
    assert.are.same({ 0, 2 }, nd.minimum_filter(x, 3).shape)
  end)

  it("sizes, zooms and ranks that are no lengths raise (fuzz decl: nil arithmetic, a function as a size)", function()
    local x = ga.empty({ 1, 0, 2 }, "uint8")
    helper.assert_gaerror(function() nd.generate_binary_structure(1099511627776, 6, {}) end,
                          "scipy.ndimage.generate_binary_structure: rank 1099511627776 is more than 12")
    helper.assert_gaerror(function() nd.zoom(ga.empty({ 0, 2, 11, 3 }, "float32"), 1.8446744073709552e+19) end,
                          "scipy.ndimage.zoom: zoom 1.844674407371e+19 on axis 2 gives no valid output length")
    helper.assert_gaerror(function() nd.zoom(ga.empty({ 0, 2 }), { 1, -1 }) end, "on axis 2 gives no valid output")
    helper.assert_gaerror(function() nd.grey_closing(x, { 0, print, "]]" }) end,
                          "scipy.ndimage.grey_closing: size must hold numbers")
    helper.assert_gaerror(function() nd.grey_dilation(x, { 2, 2, 1e300 }) end,
                          "scipy.ndimage.grey_dilation: size must be integers, got 1e+300")
    helper.assert_gaerror(function() nd.uniform_filter(x, { 2, 2, 1e300 }) end, "size must be integers, got 1e+300")
    assert.are.same({ 1, 0, 2 }, nd.grey_dilation(x, { 2, 2, 2 }).shape)
  end)

  helper.gpu_it("measurements: an N-d index gives results of its shape (SciPy's)", function()
    local x, lab = ga.arange(4, "float64"), ga.array({ 1, 1, 2, 2 }, "int32")
    local idx = ga.array({ { 1 }, { 2 } }, "int32")
    local s = nd.sum_labels(x, lab, idx)
    helper.assert_same({ 2, 1 }, s.shape, 0, "sum_labels shape")
    helper.assert_same({ { 1 }, { 5 } }, s:totable(), 0, "sum_labels")
    helper.assert_same({ { 0.5 }, { 2.5 } }, nd.mean(x, lab, idx):totable(), 0, "mean")
    local lo, hi = nd.extrema(x, lab, idx)
    helper.assert_same({ { 0 }, { 2 } }, lo:totable(), 0, "extrema min")
    helper.assert_same({ { 1 }, { 3 } }, hi:totable(), 0, "extrema max")
    helper.assert_same({ 3, 0 }, nd.sum_labels(x, lab, ga.zeros({ 3, 0 })).shape, 0, "zero-size index")
  end)

  helper.gpu_it("filters: every mode against SciPy (gaussian, uniform, median, minimum, maximum1d, correlate1d, "
    .. "sobel)", function()
    local img = ga.array(R.img, "float64")
    for _, m in ipairs(MODES) do
      close(R["gauss/" .. m], nd.gaussian_filter(img, 1.0, 0, nil, m, 0.5), 1e-12, "gaussian " .. m)
      close(R["uniform/" .. m], nd.uniform_filter(img, { 3, 2 }, nil, m, 0.5), 1e-12, "uniform " .. m)
      close(R["median/" .. m], nd.median_filter(img, 3, nil, nil, m, 0.5), nil, "median " .. m)
      close(R["minimum/" .. m], nd.minimum_filter(img, { 2, 3 }, nil, nil, m, 0.5), nil, "minimum " .. m)
      close(R["maximum1d/" .. m], nd.maximum_filter1d(img, 4, 1, nil, m, 0.5), nil, "maximum1d " .. m)
      close(R["corr1d/" .. m], nd.correlate1d(img, { 1, -2, 3, 0.5 }, 2, nil, m, 0.5, 1), 1e-12, "correlate1d " .. m)
      close(R["sobel/" .. m], nd.sobel(img, 1, nil, m, 0.5), 1e-12, "sobel " .. m)
    end
    local f32 = nd.gaussian_filter(img:astype("float32"), 1.0)
    assert.are.equal("float32", f32.dtype)
    close(R["gauss/reflect"], f32, 1e-5, "gaussian float32 (the tiled passes)")
  end)

  helper.gpu_it("filters: correlate, convolve, derivatives, rank, percentile, integer dtypes, generic_filter",
    function()
    local img = ga.array(R.img, "float64")
    close(R.correlate, nd.correlate(img, R.w, nil, "mirror"), 1e-12, "correlate")
    close(R.convolve, nd.convolve(img, R.w, nil, "wrap", 0, { 0, 1 }), 1e-12, "convolve")
    close(R.gauss_order, nd.gaussian_filter(img, { 1.5, 0.8 }, { 1, 2 }), 1e-10, "gaussian order")
    close(R.gauss_laplace, nd.gaussian_laplace(img, 1.2), 1e-10, "gaussian_laplace")
    close(R.gauss_gradmag, nd.gaussian_gradient_magnitude(img, 1.2), 1e-10, "gaussian_gradient_magnitude")
    close(R.laplace, nd.laplace(img), 1e-12, "laplace")
    close(R.prewitt, nd.prewitt(img, 2), 1e-12, "prewitt")
    close(R.rank, nd.rank_filter(img, 2, nil, R.fp), nil, "rank_filter")
    close(R.percentile, nd.percentile_filter(img, 70, { 3, 4 }), nil, "percentile_filter")
    close(R.median_fp, nd.median_filter(img, nil, R.fp, nil, "constant", 2), nil, "median footprint")
    local u8 = nd.uniform_filter(ga.array(R.img_u8, "uint8"), 3)
    assert.are.equal("uint8", u8.dtype)
    close(R.uniform_u8, u8, nil, "uniform uint8 (truncation)")
    local u1 = nd.uniform_filter1d(ga.array(R.img_i32, "int32"), 4, 1, nil, "nearest")
    assert.are.equal("int32", u1.dtype)
    close(R.uniform1d_i32, u1, nil, "uniform_filter1d int32 (negative means truncate toward 0)")
    close(R.median_i32, nd.median_filter(ga.array(R.img, "float64"):mul_(100):astype("int32"), 5), nil, "median int32")
    local mean = nd.generic_filter(img, function(v, n)
      local s = 0.0
      for k = 0, n - 1 do s = s + v[k] end
      return s / n
    end, 3, nil, nil, "nearest")
    close(R.generic_mean, mean, 1e-12, "generic_filter mean")
    helper.assert_gaerror(function() nd.correlate1d(img, { 1, 2, 3 }, -1, nil, "reflect", 0, 2) end, "invalid origin")
    helper.assert_gaerror(function() nd.correlate(img, { 1, 2 }) end, "incorrect shape")
  end)

  helper.gpu_it("interpolation: zoom and shift for every mode and order 0-5, map_coordinates, affine, rotate",
    function()
    local img = ga.array(R.img, "float64")
    for _, m in ipairs(MODES) do
      for order = 0, 5 do
        close(R[("zoom/%s/%d"):format(m, order)], nd.zoom(img, { 1.5, 0.7 }, nil, order, m, -1), 1e-9,
              ("zoom %s order %d"):format(m, order))
        close(R[("shift/%s/%d"):format(m, order)], nd.shift(img, { 0.4, -1.3 }, nil, order, m, -1), 1e-9,
              ("shift %s order %d"):format(m, order))
      end
    end
    close(R.zoom_grid, nd.zoom(img, 2, nil, 3, "grid-constant", 0, true, { grid_mode = true }), 1e-9, "zoom grid_mode")
    for order = 0, 5 do
      close(R["mapc/" .. order], nd.map_coordinates(img, R.crd, nil, order, "reflect"), 1e-9,
            "map_coordinates " .. order)
    end
    close(R.affine, nd.affine_transform(img, { { 0.9, 0.2 }, { -0.1, 1.1 } }, { 0.5, -0.3 }, { 5, 8 }), 1e-9, "affine")
    close(R.rotate, nd.rotate(img, 30, nil, true, nil, 1), 1e-9, "rotate 30")
    close(R.rotate90, nd.rotate(img, 90), 1e-9, "rotate 90")
    close(R.spline2d, nd.spline_filter(img, 3), 1e-10, "spline_filter")
    local u8 = nd.map_coordinates(ga.array(R.img_u8, "uint8"), R.crd, nil, 1)
    assert.are.equal("uint8", u8.dtype)
    close(R.map_u8, u8, nil, "map_coordinates uint8 (rounded)")
    helper.assert_gaerror(function() nd.zoom(img, 2, nil, 6) end, "spline order")
  end)

  helper.gpu_it("label and measurements against SciPy (positions 1-based)", function()
    local blobs = ga.array(R.blobs, "bool")
    local L, n = nd.label(blobs)
    assert.are.equal(R.label_n, n)
    assert.are.equal("int32", L.dtype)
    close(R.label, L, nil, "label")
    local L8, n8 = nd.label(blobs, ga.ones({ 3, 3 }))
    assert.are.equal(R.label8_n, n8)
    close(R.label8, L8, nil, "label 8-connected")
    -- a random mask: labels agree with the mask, and components do not touch
    local img = ga.array(R.img, "float64")
    local lab = ga.array(R.lab, "int32")
    local idx = { 1, 2, 4, 6, 7 }
    close(R.sum, nd.sum_labels(img, lab, idx), 1e-12, "sum_labels")
    close(R.mean, nd.mean(img, lab, idx), 1e-12, "mean")
    close(R.variance, nd.variance(img, lab, idx), 1e-10, "variance")
    assert(math.abs(nd.standard_deviation(img, lab, 2) - R.std1) < 1e-12)
    close(R.minimum, nd.minimum(img, lab, { 1, 2, 4, 6 }), nil, "minimum")
    close(R.maximum, nd.maximum(img, lab, { 1, 2, 4, 6 }), nil, "maximum")
    close(R.median_lab, nd.median(img, lab, { 1, 2, 4, 6 }), 1e-12, "median")
    helper.assert_same(R.minpos, nd.minimum_position(img, lab, { 1, 2, 4, 6 }))
    helper.assert_same(R.maxpos, nd.maximum_position(img, lab, 3))
    helper.assert_same(R.com, nd.center_of_mass(img, lab, { 1, 2, 4, 6 }), 1e-12)
    helper.assert_same(R.com_all, nd.center_of_mass(img), 1e-12)
    close(R.hist, nd.histogram(img, 0, 10, 5, lab, 1), nil, "histogram")
    assert(math.abs(nd.sum_labels(img) - R.sum_all) < 1e-9)
    assert(math.abs(nd.sum_labels(img, lab) - R.sum_pos) < 1e-9)
    helper.assert_same(R.find_objects, nd.find_objects(lab))
  end)

  helper.gpu_it("morphology and distance_transform_edt against SciPy", function()
    local blobs = ga.array(R.blobs, "bool")
    close(R.erosion, nd.binary_erosion(blobs), nil, "binary_erosion")
    close(R.dilation, nd.binary_dilation(blobs, nil, 2), nil, "binary_dilation x2")
    close(R.opening, nd.binary_opening(blobs, ga.ones({ 2, 2 })), nil, "binary_opening")
    close(R.closing, nd.binary_closing(blobs), nil, "binary_closing")
    close(R.erosion_border, nd.binary_erosion(blobs, nil, 1, nil, nil, 1, { 0, 1 }), nil, "erosion border, origin")
    close(R.fill_holes, nd.binary_fill_holes(ga.array({ { 1, 1, 1, 1, 0 }, { 1, 0, 0, 1, 0 }, { 1, 1, 1, 1, 0 },
                                                        { 0, 0, 0, 0, 0 } })), nil, "fill_holes")
    close(R.hit_or_miss, nd.binary_hit_or_miss(blobs, { { 0, 1, 0 }, { 1, 1, 1 }, { 0, 0, 0 } }), nil, "hit_or_miss")
    local seed = ga.zeros({ 7, 6 }, "bool")
    seed[{ 1, 1 }] = true
    close(R.propagation, nd.binary_propagation(seed, nil, blobs), nil, "propagation")
    local img = ga.array(R.img, "float64")
    close(R.grey_erosion, nd.grey_erosion(img, { 3, 2 }), nil, "grey_erosion")
    close(R.grey_dilation, nd.grey_dilation(img, nil, R.fp), nil, "grey_dilation footprint")
    close(R.grey_dilation_st, nd.grey_dilation(img, nil, nil, { { 0, 1 }, { 2, 0.5 } }), 1e-12,
          "grey_dilation structure")
    close(R.grey_opening, nd.grey_opening(img, 3), nil, "grey_opening")
    close(R.white_tophat, nd.white_tophat(img, 3), 1e-12, "white_tophat")
    close(R.black_tophat, nd.black_tophat(img, 3), 1e-12, "black_tophat")
    close(R.mgrad, nd.morphological_gradient(img, 3), 1e-12, "morphological_gradient")
    close(R.mlaplace, nd.morphological_laplace(img, 3), 1e-12, "morphological_laplace")
    close(R.gbs, nd.generate_binary_structure(2, 2), nil, "generate_binary_structure")
    close(R.iterate, nd.iterate_structure(nd.generate_binary_structure(2, 1), 2), nil, "iterate_structure")
    local feat = ga.array(R.feat, "bool")
    close(R.edt, nd.distance_transform_edt(feat), 1e-12, "edt")
    close(R.edt_s, nd.distance_transform_edt(feat, { 2, 0.5 }), 1e-12, "edt sampling")
    local _, ind = nd.distance_transform_edt(feat, nil, true, true)
    close(R.edt_ind, ind, nil, "edt indices (1-based)")
  end)

  helper.gpu_it("Fourier filters against SciPy", function()
    local img = ga.array(R.img, "float64")
    local F = ga.fft.fft2(img)
    close(R.fgauss_re, ga.real(nd.fourier_gaussian(F, 1.5)), 1e-9, "fourier_gaussian")
    close(R.funiform_re, ga.real(nd.fourier_uniform(F, 2)), 1e-9, "fourier_uniform")
    close(R.fellipsoid_re, ga.real(nd.fourier_ellipsoid(F, { 2, 3 })), 1e-9, "fourier_ellipsoid")
    close(R.fshift_im, ga.imag(nd.fourier_shift(F, { 1, 0.5 })), 1e-9, "fourier_shift")
  end)
end)
