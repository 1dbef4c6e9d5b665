--- Window functions (NumPy 2): bartlett, blackman, hamming, hanning,
-- kaiser. float64, M points, symmetric; M < 1 gives an empty array and
-- M = 1 a single 1. One ElementwiseKernel per window computes NumPy's
-- formula at n = 1 - M + 2i (i the 0-based index); kaiser needs the
-- modified Bessel function I0, computed here with the Chebyshev series
-- NumPy's i0 uses (Cephes), on the device and, for I0(beta), in Lua.
return function(ga)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")

  local I0A = {
    -4.4153416464793395e-18, 3.3307945188222384e-17, -2.4312798465479549e-16, 1.7153912855551331e-15,
    -1.1685332877993451e-14, 7.6761854986049361e-14, -4.856446783111929e-13, 2.9550526631296399e-12,
    -1.7268262914415559e-11, 9.675809035373237e-11, -5.1897956016352627e-10, 2.6598237246823866e-09,
    -1.300025009986248e-08, 6.0469950225419186e-08, -2.6707938539406119e-07, 1.1173875391201037e-06,
    -4.4167383584587505e-06, 1.6448448070728896e-05, -5.754195010082104e-05, 0.00018850288509584165,
    -0.00057637557453858236, 0.0016394756169413357, -0.0043243099950505759, 0.010546460394594998,
    -0.023737414805899471, 0.049305284239670712, -0.094901097048047639, 0.17162090152220877,
    -0.3046826723431984, 0.67679527440947607,
  }
  local I0B = {
    -7.2331804878747538e-18, -4.8305044859441819e-18, 4.4656214202967598e-17, 3.4612228676974612e-17,
    -2.8276239805165836e-16, -3.425485619677219e-16, 1.7725601330565263e-15, 3.8116806693526224e-15,
    -9.5548466988283073e-15, -4.1505693472872222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
    7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11, -3.1499165279632416e-11,
    1.1889147107846439e-11, 4.9406023882249701e-10, 3.3962320257083865e-09, 2.266668990498178e-08,
    2.0489185894690638e-07, 2.8913705208347567e-06, 6.8897583469168245e-05, 0.0033691164782556943,
    0.80449041101410879,
  }

  -- Clenshaw's recurrence, as NumPy's _chbevl
  local function chbevl(x, vals)
    local b0, b1, b2 = vals[1], 0.0, 0.0
    for i = 2, #vals do
      b2 = b1
      b1 = b0
      b0 = x * b1 - b2 + vals[i]
    end
    return 0.5 * (b0 - b2)
  end
  --- I0(x) in Lua (NumPy's numpy.i0 for one value)
  local function i0(x)
    x = math.abs(x)
    if x <= 8.0 then return math.exp(x) * chbevl(x / 2.0 - 2, I0A) end
    return math.exp(x) * chbevl(32.0 / x - 2.0, I0B) / math.sqrt(x)
  end
  internal.i0 = i0

  local function c_array(name, vals)
    local parts = {}
    for i, v in ipairs(vals) do parts[i] = ("%.17g"):format(v) end
    return ("__device__ const double %s[%d] = {%s};\n"):format(name, #vals, table.concat(parts, ", "))
  end
  local I0_CUDA = c_array("ga_i0A", I0A) .. c_array("ga_i0B", I0B) .. [[
__device__ __forceinline__ double ga_chbevl(double x, const double *v, int n) {
  double b0 = v[0], b1 = 0.0, b2 = 0.0;
  for (int i = 1; i < n; i++) {
    b2 = b1;
    b1 = b0;
    b0 = x * b1 - b2 + v[i];
  }
  return 0.5 * (b0 - b2);
}
__device__ __forceinline__ double ga_i0(double x) {
  x = fabs(x);
  if (x <= 8.0) return exp(x) * ga_chbevl(x / 2.0 - 2, ga_i0A, 30);
  return exp(x) * ga_chbevl(32.0 / x - 2.0, ga_i0B, 25) / sqrt(x);
}
]]

  -- the formula of each window at n (an odd or even integer in [1 - M, M - 1])
  local BODY = {
    bartlett = "w = n <= 0 ? 1.0 + n / (M - 1) : 1.0 - n / (M - 1);",
    blackman = "w = 0.42 + 0.5 * cos(3.141592653589793 * n / (M - 1)) "
      .. "+ 0.08 * cos(2.0 * 3.141592653589793 * n / (M - 1));",
    hamming = "w = 0.54 + 0.46 * cos(3.141592653589793 * n / (M - 1));",
    hanning = "w = 0.5 + 0.5 * cos(3.141592653589793 * n / (M - 1));",
    kaiser = "const double al = (M - 1) / 2.0, t = ((double)i - al) / al; "
      .. "w = ga_i0(beta * sqrt(1.0 - pow(t, 2.0))) / i0beta;",
  }
  local kernels = {}
  local function window_kernel(name)
    if not kernels[name] then
      local ins = name == "kaiser" and "float64 M, float64 beta, float64 i0beta" or "float64 M"
      kernels[name] = ga.ElementwiseKernel(ins, "float64 w",
        "const double n = 1.0 - M + 2.0 * (double)i; (void)n; " .. BODY[name], "ga_window_" .. name,
        { preamble = name == "kaiser" and I0_CUDA or "" })
    end
    return kernels[name]
  end
  internal.window_kernel = window_kernel   -- for the compile specs

  local function window(name, M, beta, i0beta)
    if M < 1 then return ga.empty(0, "float64") end
    if M == 1 then return ga.ones(1, "float64") end
    if beta then return window_kernel(name)(M + 0.0, beta, i0beta, ga.empty(M, "float64")) end
    return window_kernel(name)(M + 0.0, ga.empty(M, "float64"))
  end

  local DOC = {
    bartlett = "The Bartlett (triangular) window of M points, zero at both ends.",
    blackman = "The Blackman window of M points (three cosine terms).",
    hamming = "The Hamming window of M points (0.54 + 0.46 cos).",
    hanning = "The Hann window of M points (0.5 + 0.5 cos), zero at both ends.",
  }
  for _, name in ipairs({ "bartlett", "blackman", "hamming", "hanning" }) do
    api.def(ga, ("%s(M: integer) -> ndarray\n%s\n"):format(name, DOC[name]), function(M)
      return window(name, M)
    end)
  end
  api.def(ga, [[
kaiser(M: integer, beta: number) -> ndarray
The Kaiser window of M points: I0(beta sqrt(1 - (2n/(M-1) - 1)^2)) / I0(beta).
]], function(M, beta)
    return window("kaiser", M, beta + 0.0, i0(beta))
  end)
end
