--- ndimage's shared CUDA (boundary modes, B-spline weights, the prefilter
-- and one axis of an interpolation) compiled by the host C++ compiler and
-- compared with SciPy 1.10's numbers (ref.lua): every mode and order, odd
-- and even lengths. Runs without a GPU.
local helper = require "helper"
local CUDA = require "gpuarray.scipy.ndimage.cuda"
local R = dofile("spec/scipy/ndimage/ref.lua")

local HARNESS = [==[
#include <math.h>
#include <stdio.h>
#include <vector>
#define GND_HD static inline
%s
int main() {
  double base[] = {1, 2, 4, 8, 16, 3, -1, 5};
  double cs[] = {-13.5,-2.5,-1.5,-1.0,-0.75,-0.5,-0.25,0,0.25,0.5,3.75,4,6.5,6.75,7,7.25,7.5,8.25,9.5,17.3};
  for (int mode = 0; mode <= 6; ++mode) for (int order = 2; order <= 5; ++order) {
    double c[7];
    for (int i = 0; i < 7; ++i) c[i] = base[i];
    gnd_spline_line(c, 7, 1, order, mode);
    printf("spline/%%d/%%d", mode, order);
    for (int i = 0; i < 7; ++i) printf(" %%.17g", c[i]);
    printf("\n");
  }
  const double cval = -10;
  for (int len = 7; len <= 8; ++len)
  for (int mode = 0; mode <= 6; ++mode) for (int order = 0; order <= 5; ++order) {
    int npad = (order > 1 && (mode == GND_NEAREST || mode == GND_GRID_CONSTANT)) ? 12 : 0;
    long long n = len + 2 * npad;
    std::vector<double> c(n);
    for (long long i = 0; i < n; ++i) {
      long long j = i - npad;
      c[i] = (j >= 0 && j < len) ? base[j] : (mode == GND_NEAREST ? base[j < 0 ? 0 : len - 1] : cval);
    }
    if (order > 1) gnd_spline_line(c.data(), n, 1, order, mode);
    printf("interp/%%d/%%d/%%d", len, mode, order);
    for (double x : cs) {
      long long idx[6]; double w[6]; double t = 0;
      if (!gnd_axis_taps(x + npad, n, mode, order, idx, w)) t = cval;
      else for (int k = 0; k <= order; ++k) t += w[k] * (idx[k] < 0 ? cval : c[idx[k]]);
      printf(" %%.17g", t);
    }
    printf("\n");
  }
  return 0;
}
]==]

describe("scipy.ndimage CUDA on the host", function()
  local have = helper.sh("command -v g++ >/dev/null")
  local function run()
    local dir = os.tmpname()
    os.remove(dir)
    assert(helper.sh("mkdir -p " .. dir))
    local f = assert(io.open(dir .. "/t.cpp", "w"))
    f:write(HARNESS:format(CUDA.SOURCE))
    f:close()
    local ok, out = helper.sh(("g++ -O1 -o %s/t %s/t.cpp && %s/t"):format(dir, dir, dir))
    helper.sh("rm -rf " .. dir)
    assert(ok, out)
    local got = {}
    for line in out:gmatch("[^\n]+") do
      local key, rest = line:match("^(%S+)(.*)$")
      local vals = {}
      for v in rest:gmatch("%S+") do vals[#vals + 1] = tonumber(v) end
      got[key] = vals
    end
    return got
  end

  it("the prefilter of every mode, orders 2-5, and 1-D interpolation of every mode, orders 0-5, match SciPy", function()
    if not have then
      pending("no g++")
      return
    end
    local got = run()
    local n = 0
    for key, want in pairs(R) do
      if key:match("^spline/") or key:match("^interp/") then
        assert(got[key], "missing " .. key)
        for i = 1, #want do
          local a, b = got[key][i], want[i]
          assert(math.abs(a - b) <= 1e-9 * math.max(1, math.abs(b)),
            ("%s[%d]: %.17g vs SciPy's %.17g"):format(key, i, a, b))
        end
        n = n + 1
      end
    end
    assert.are.equal(28 + 84, n)
  end)
end)
