--- ga.scipy.stats against SciPy's values (computed with SciPy 1.10 on a CPU
-- and written here); declarations and errors without a GPU.
local helper = require "helper"
local ga = helper.ga
local api = require "gpuarray.api"
local st = ga.scipy.stats

local A = { { 1, 4, 2, 8 }, { 3, 1, 5, 2 }, { 7, 6, 0.5, 1 } }

describe("scipy.stats", function()
  it("has CuPy's functions, declared", function()
    for _, n in ipairs { "zscore", "zmap", "entropy", "trim_mean", "boxcox_llf" } do
      assert(st[n], n)
      assert(api.entry(st[n]), n)
    end
    local ok, e = pcall(st.zscore, 1, { nan_polcy = "raise" })
    assert.is_false(ok)
    assert.matches("gpuarray: scipy%.stats%.zscore: unknown option 'nan_polcy' %(did you mean 'nan_policy'%?%)", e)
    ok, e = pcall(st.zscore, 1, { nan_policy = "ignore" })
    assert.is_false(ok)
    assert.matches("gpuarray: scipy%.stats%.zscore: nan_policy must be", e)
  end)

  helper.gpu_it("zscore and zmap (axes, ddof, false for the whole array, nan_policy)", function()
    local a = ga.array(A)
    helper.assert_same({ { -1.0690449676496976, 0.1622214211307626, -0.2672612419124244, 1.4018260516446994 },
      { -0.26726124191242434, -1.2977713690461001, 1.3363062095621219, -0.539163866017192 },
      { 1.336306209562122, 1.1355499479153377, -1.0690449676496976, -0.8626621856275072 } },
      st.zscore(a):totable(), 1e-13)
    helper.assert_same({ { -0.8883301383959731, 0.08075728530872482, -0.5653009971610737, 1.372873850248322 },
      { 0.14638501094227999, -1.02469507659596, 1.3174650984805198, -0.43915503282683993 },
      { 1.0071635808865376, 0.7087447421053412, -0.9325588711912385, -0.7833494518006403 } },
      st.zscore(a, 2, 1):totable(), 1e-13)
    local all = st.zscore(a, false):totable()
    assert(math.abs(all[1][1] + 0.9592371650574887) < 1e-13 and math.abs(all[3][1] - 1.4640988308772196) < 1e-13)
    local b = ga.array(A)
    b[{ 2, 3 }] = 0 / 0
    local o = st.zscore(b, { nan_policy = "omit" }):totable()
    assert(math.abs(o[1][3] - 1.0) < 1e-13 and math.abs(o[3][3] + 1.0) < 1e-13 and o[2][3] ~= o[2][3])
    assert(math.abs(o[1][1] + 1.0690449676496976) < 1e-13)
    assert.has_error(function() st.zscore(b, { nan_policy = "raise" }) end)
    helper.assert_same({ -1.643452031377628, -1.2567574357593625, -0.8700628401410971 },
      st.zmap({ 1, 2, 3 }, { 2, 4, 6, 9 }):totable(), 1e-13)
  end)

  helper.gpu_it("entropy, trim_mean, boxcox_llf", function()
    local a = ga.array(A)
    assert(math.abs(st.entropy({ 0.2, 0.3, 0.5 }):item() - 1.0296530140645737) < 1e-14)
    assert(math.abs(st.entropy({ 1, 2, 3 }, { 3, 2, 1 }):item() - 0.3662040962227033) < 1e-14)
    assert(math.abs(st.entropy({ 1, 2, 3 }, nil, 2):item() - 1.459147917027245) < 1e-14)
    helper.assert_same({ 0.8599672810355049, 0.9164648855394713, 0.8033149761408755, 0.7595473914748635 },
      st.entropy(a):totable(), 1e-13)
    helper.assert_same({ 1.1369165918330009, 1.2406842919533958, 1.0172276653937322 },
      st.entropy(a, { axis = 2 }):totable(), 1e-13)
    assert.are.equal(9.5, st.trim_mean(ga.arange(20, "float64"), 0.1):item())
    helper.assert_same({ 11 / 3, 11 / 3, 2.5, 11 / 3 }, st.trim_mean(a, 0.25):totable(), 1e-14)
    assert(math.abs(st.trim_mean(a, 0.25, false):item() - 2.8333333333333335) < 1e-14)
    assert(math.abs(st.boxcox_llf(0.5, { 1, 2, 3, 4, 10 }):item() + 4.637852500885895) < 1e-13)
    assert(math.abs(st.boxcox_llf(0, { 1, 2, 3, 4, 10 }):item() + 4.12194966349794) < 1e-13)
    helper.assert_same({ -3.293702550779349, -2.3587003342475086, -2.5778514481354744, -4.24224897399976 },
      st.boxcox_llf(1.5, a):totable(), 1e-13)
  end)
end)
