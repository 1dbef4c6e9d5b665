--- scipy.fft cases (KEYS.md, scipy group; twin in cupy_ref.py's
-- scipy_cases): the 2-D DCT-II of a 4096x4096 float32 image (ms).
return function(ga, B)
  if not (ga.scipy and ga.scipy.fft) then return end
  local sfft = ga.scipy.fft
  local x = ga.random.random(4096 * 4096, "float32")
  local img4 = x:reshape(4096, 4096)
  B.case("dct2_f32_4096^2_ms", function()
    return B.gpu_ms(function() return sfft.dctn(img4, 2) end)
  end)
end
