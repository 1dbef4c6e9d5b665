--- scipy.interpolate cases of the scipy group (/work/shared/bench/KEYS.md):
-- interp1d (linear) and CubicSpline evaluated at 2^24 float32 queries in
-- [0, 1) on 4096 knots xp = linspace(0, 1, 4096), fp = sin(10 xp)
-- (float32); both built outside the timing.
return function(ga, B)
  local I = ga.scipy.interpolate
  local rs = ga.random.RandomState(2024)
  local Q = 1 << 24
  local xq = rs:random(Q, "float32")
  local xp = ga.linspace(0, 1, 4096):astype("float32")
  local fp = ga.sin(xp * 10):astype("float32")

  B.case("interp1d_linear_f32_2^24_ms", function()
    local f = I.interp1d(xp, fp, "linear")
    return B.gpu_ms(function() return f(xq) end)
  end)
  B.case("cubicspline_eval_f32_2^24_ms", function()
    local cs = I.CubicSpline(xp, fp)
    return B.gpu_ms(function() return cs(xq) end)
  end)
end
