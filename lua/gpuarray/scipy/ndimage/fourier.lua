--- ndimage Fourier filters (SciPy 1.10): fourier_gaussian,
-- fourier_uniform, fourier_ellipsoid, fourier_shift multiply an FFT by
-- the transform of their kernel, one ElementwiseKernel per rank. The
-- frequency of index k on an axis of n is k/n (the signed FFT index),
-- or k/n' along `axis` when n' >= 0 says the input is a real FFT of
-- length n'. Result dtypes as SciPy's: complex input and float32 keep
-- their dtype, others give float64; fourier_shift gives complex128
-- (complex64 for complex64 input).
return function(ga, M, S)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  local fail = internal.fail

  local FACTOR = {
    gaussian = "double e_ = 0.0; %s const double f_ = exp(-2.0 * GND_PI * GND_PI * e_);",
    uniform = "double f_ = 1.0; %s",
    ellipsoid = "double rr_ = 0.0; %s const double r_ = sqrt(rr_); double f_ = 1.0;",
  }

  local function kernel(kind, N)
    return S.kernel("fourier|" .. kind .. "|" .. N, function()
      local params = { "X x", "raw float64 p", "int64 axis", "int64 nreal" }
      for d = 0, N - 1 do params[#params + 1] = "int64 n" .. d end
      local b = { "long long r_i = i;" }
      local per = {}
      for d = N - 1, 0, -1 do
        b[#b + 1] = ([[
const long long k%d = r_i %% n%d; r_i /= n%d;
const bool real%d = (axis == %d && nreal >= 0);
const double len%d = real%d ? (double)nreal : (double)n%d;
const double fr%d = (real%d ? (double)k%d : (double)(k%d < (n%d + 1) / 2 ? k%d : k%d - n%d)) / len%d;]]):format(
          d, d, d, d, d, d, d, d, d, d, d, d, d, d, d, d, d)
      end
      for d = 0, N - 1 do
        if kind == "gaussian" then per[#per + 1] = ("e_ += p[%d] * p[%d] * fr%d * fr%d;"):format(d, d, d, d)
        elseif kind == "uniform" then
          per[#per + 1] = ("{ const double a = GND_PI * p[%d] * fr%d; if (a != 0.0) f_ *= sin(a) / a; }"):format(d, d)
        elseif kind == "ellipsoid" then
          per[#per + 1] = ("{ const double a = GND_PI * p[%d] * fr%d; rr_ += a * a; }"):format(d, d)
        else
          per[#per + 1] = ("th_ += p[%d] * fr%d;"):format(d, d)
        end
      end
      if kind == "shift" then
        b[#b + 1] = "double th_ = 0.0; " .. table.concat(per, " ")
        b[#b + 1] = "const double c_ = cos(2.0 * GND_PI * th_), s_ = -sin(2.0 * GND_PI * th_);"
        b[#b + 1] = "y = (Y)x * Y(c_, s_);"
      else
        b[#b + 1] = FACTOR[kind]:format(table.concat(per, " "))
        if kind == "ellipsoid" then
          if N == 1 then b[#b + 1] = "if (r_ > 0.0) f_ = sin(r_) / r_;"
          elseif N == 2 then b[#b + 1] = "if (r_ > 0.0) f_ = 2.0 * j1(r_) / r_;"
          elseif N == 3 then b[#b + 1] = "if (r_ > 0.0) f_ = 3.0 * (sin(r_) - r_ * cos(r_)) / (r_ * r_ * r_);" end
        end
        b[#b + 1] = "y = (Y)x * f_;"
      end
      return ga.ElementwiseKernel(table.concat(params, ", "), "Y y", table.concat(b, "\n"), "gnd_fourier_" .. kind,
                                  { preamble = "#define GND_PI 3.14159265358979323846\n" })
    end)
  end
  M._fourier_kernel = kernel

  local function run(fname, kind, input, param, n, axis, output)
    local x = S.input(input, fname, true)
    local N = x.ndim
    if N == 0 then fail(fname .. ": input must have at least one axis") end
    if kind == "ellipsoid" and N > 3 then fail(fname .. ": Only 1d, 2d and 3d inputs are supported") end
    local p = S.seq(param, N, fname, kind == "shift" and "shift" or (kind == "gaussian" and "sigma" or "size"))
    local ax = S.axis(axis, N, fname)
    local dt
    if kind == "shift" then dt = x.dtype == "complex64" and "complex64" or "complex128"
    else dt = (S.COMPLEX[x.dtype] or x.dtype == "float32") and x.dtype or "float64" end
    local ydtype, out = S.output(output, dt, x.shape, fname)
    local args = { x, ga.array(p, "float64"), ax - 1, n }
    for d = 1, N do args[#args + 1] = x.shape[d] end
    local y = ga.empty(x.shape, ydtype)
    args[#args + 1] = y
    if y.size > 0 then kernel(kind, N)(table.unpack(args)) end
    return S.deliver(y, out)
  end

  for _, d in ipairs({
    { "gaussian", "sigma",
      "A Gaussian filter in the Fourier domain: the FFT input times exp(-2 pi^2 sigma^2 f^2) per axis." },
    { "uniform", "size", "A uniform filter in the Fourier domain: the FFT input times sinc(size f) per axis." },
    { "ellipsoid", "size",
      "An ellipsoid filter in the Fourier domain (ranks 1-3): the transform of an ellipsoid of the given sizes." },
    { "shift", "shift", "A shift in the Fourier domain: the FFT input times exp(-2 pi i shift f) (complex)." },
  }) do
    api.def(M, ([[
scipy.ndimage.fourier_%s(input: array_like, %s: number|list, n: integer = -1, axis: integer = -1,
                         output: ndarray|dtype?) -> ndarray
%s n >= 0: the input is a real FFT of length n along axis (1-based).
]]):format(d[1], d[2], d[3]), function(input, param, n, axis, output)
      return run("scipy.ndimage.fourier_" .. d[1], d[1], input, param, n, axis, output)
    end)
  end
end
