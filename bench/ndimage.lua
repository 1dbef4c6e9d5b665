--- scipy.ndimage cases of the scipy group (/work/shared/bench/KEYS.md; the
-- CuPy twins are in cupy_ref.py): gaussian_filter of a 4096^2 float32
-- image (sigma 2: two 17-tap separable passes; the issue asks for 80% of
-- copy_f32_GBps counting 2 x (read + write) of 64 MiB), a 3x3 median of
-- 2048^2, zoom x2 order 1, map_coordinates of 2^22 points order 1, label
-- and distance_transform_edt of 2048^2 masks.
return function(ga, B)
  local nd = ga.scipy.ndimage
  local rs = ga.random.RandomState(2024)
  local s4, s2 = 4096, 2048
  local img4 = rs:random(s4 * s4, "float32"):reshape(s4, s4)
  local img2 = rs:random(s2 * s2, "float32"):reshape(s2, s2)

  B.case("gaussian_filter_f32_4096^2_s2_ms", function()
    return B.gpu_ms(function() return nd.gaussian_filter(img4, 2.0) end)
  end)
  B.case("median_filter_f32_2048^2_3_ms", function()
    return B.gpu_ms(function() return nd.median_filter(img2, 3) end)
  end)
  B.case("zoom_f32_2048^2_x2_order1_ms", function()
    return B.gpu_ms(function() return nd.zoom(img2, 2, nil, 1) end)
  end)
  local P = 1 << 22
  local coords = (rs:random(2 * P, "float32") * (s2 - 1)):astype("float32"):reshape(2, P)
  B.case("map_coordinates_f32_2^22_order1_ms", function()
    return B.gpu_ms(function() return nd.map_coordinates(img2, coords, nil, 1) end)
  end)
  local blobs = img2:gt(0.5)
  B.case("label_2048^2_ms", function()
    return B.gpu_ms(function() return nd.label(blobs) end, 10)
  end)
  local feature = img2:gt(0.01)
  B.case("distance_transform_edt_2048^2_ms", function()
    return B.gpu_ms(function() return nd.distance_transform_edt(feature) end, 10)
  end)
end
