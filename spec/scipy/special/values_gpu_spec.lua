--- ga.scipy.special's values on the GPU against SciPy's (refs.lua, from
-- tools/special/gen_refs.py: SciPy 1.10 on a CPU, mpmath where SciPy's own
-- rounding error is larger), in float64 and float32, with each function's
-- ulp tolerance; then broadcasting, out=, dtype=, 0-d and empty inputs, and
-- a fused call. A failure names the function, the point, both values and
-- the error in ulps.
local helper = require "helper"
local ga = helper.ga
local sfref = require "spec.scipy.special.sfref"
local sp = ga.scipy.special

-- the callable for a name of refs.lua: a function, or one output or part
-- of one (tools/special/points.py's names)
local function pick(f, j) return function(...) return (select(j, f(...))) end end
local OUTS = { ellipj_sn = { "ellipj", 1 }, ellipj_cn = { "ellipj", 2 }, ellipj_dn = { "ellipj", 3 },
               ellipj_ph = { "ellipj", 4 }, sici_si = { "sici", 1 }, sici_ci = { "sici", 2 },
               shichi_shi = { "shichi", 1 }, shichi_chi = { "shichi", 2 } }
local function fn(name)
  if name == "spherical_yn_d" then return function(n, x) return sp.spherical_yn(n, x, true) end end
  if name == "zeta2" then return function(x, q) return sp.zeta(x, q) end end
  if OUTS[name] then return pick(sp[OUTS[name][1]], OUTS[name][2]) end
  if name == "sph_harm_y_re" then return function(...) return ga.real(sp.sph_harm_y(...)) end end
  if name == "sph_harm_y_im" then return function(...) return ga.imag(sp.sph_harm_y(...)) end end
  if name == "lambertw_re" or name == "lambertw_im" then
    local part = name == "lambertw_re" and ga.real or ga.imag
    return function(zr, zi, k) return part(sp.lambertw(zr + zi * { 0, 1 }, k)) end
  end
  return sp[name]
end
-- lambertw is complex128 for every input, as SciPy's
local ALWAYS64 = { lambertw_re = true, lambertw_im = true }

local names = {}
for name in pairs(sfref.refs) do names[#names + 1] = name end
table.sort(names)

--- the columns of args as arrays of dtype: built in float64 and cast, so
-- that a point beyond float32's range becomes inf as in NumPy's astype
-- (the float32 references were computed on such points)
local function columns(args, dtype)
  local cols = {}
  for k = 1, #args[1] do
    local c = {}
    for i, a in ipairs(args) do c[i] = a[k] end
    cols[k] = ga.array(c, "float64"):astype(dtype)
  end
  return cols
end

describe("scipy.special values", function()
  for _, name in ipairs(names) do
    helper.gpu_it(name .. " float64 and float32 against SciPy", function()
      local r = sfref.refs[name]
      local f = fn(name)
      local y = f(table.unpack(columns(r.args, "float64")))
      assert.are.equal("float64", y.dtype, name)
      assert.are.same({ #r.args }, y.shape)
      local msg = sfref.check(name, r.args, y:totable(), r.f64, r.ulps, 52, r.atol, r.logk)
      assert(not msg, msg)
      local y32 = f(table.unpack(columns(r.args, "float32")))
      assert.are.equal(ALWAYS64[name] and "float64" or "float32", y32.dtype, name)
      local args32 = {}
      for i, a in ipairs(r.args) do
        args32[i] = {}
        for k, v in ipairs(a) do args32[i][k] = helper.to_f32(v) end
      end
      -- float32: the float64 tolerance or the function's float32 one, at
      -- least 1e-30 absolute (SciPy's float32 results flush differently)
      msg = sfref.check(name .. " float32", args32, y32:totable(), r.f32, math.max(r.ulps32, 2), 23,
                        math.max(r.atol, 1e-30), r.logk)
      assert(not msg, msg)
    end)
  end
end)

describe("scipy.special as ufuncs", function()
  helper.gpu_it("broadcast, out=, dtype=, 0-d and empty inputs", function()
    local x = ga.array({ { 0.5 }, { 1.5 } })
    local y = ga.array({ 1, 2, 3 })
    local b = sp.beta(x, y)
    assert.are.same({ 2, 3 }, b.shape)
    local t = b:totable()
    assert(math.abs(t[1][1] - 2.0) < 1e-14, t[1][1])                 -- beta(0.5, 1) = 2
    assert(math.abs(t[2][3] - 0.15238095238095238) < 1e-15, t[2][3]) -- beta(1.5, 3) = 16/105
    local out = ga.empty({ 2, 3 }, "float32")
    assert.are.equal(out, sp.beta(x, y, { out = out }))
    assert(math.abs(out:totable()[1][1] - 2.0) < 1e-6)
    local z = sp.erf(0.5)
    assert.are.same({}, z.shape)
    assert(math.abs(z:item() - 0.5204998778130465) < 1e-16)
    assert.are.equal("float32", sp.erf(ga.array({ 1, 2 }, "int16")).dtype)
    assert.are.equal("float64", sp.erf(ga.array({ 1, 2 }, "int32")).dtype)
    assert.are.equal("float32", sp.erf(ga.array({ 1, 2 }, "float16")).dtype)
    assert.are.equal("float32", sp.erf(ga.array({ 1, 2 }), { dtype = "float32" }).dtype)
    assert.are.same({ 0 }, sp.gamma(ga.zeros({ 0 })).shape)
    -- strided input
    local m = ga.array({ { 1, 2, 3 }, { 4, 5, 6 } })
    local g = sp.gammaln(m:transpose()):totable()
    assert(math.abs(g[3][2] - math.log(120)) < 1e-14, g[3][2])
  end)

  helper.gpu_it("fused with ordinary ufuncs gives the eager values", function()
    local f = ga.fuse(function(a, b) return sp.erf(a) * sp.gammaln(b) + sp.expit(a) end)
    local a = ga.array({ -1.5, 0, 0.25, 2 })
    local b = ga.array({ 0.5, 3, 10, 100 })
    local want = (sp.erf(a) * sp.gammaln(b) + sp.expit(a)):totable()
    helper.assert_same(want, f(a, b):totable(), 1e-15)
  end)

  helper.gpu_it("logsumexp, softmax, log_softmax against a Lua reference", function()
    local R, C = 37, 129
    local rows = {}
    for i = 1, R do
      rows[i] = {}
      for j = 1, C do rows[i][j] = (math.random() - 0.5) * 40 end
    end
    rows[3][5] = -math.huge
    local function lse(r)
      local m = -math.huge
      for _, v in ipairs(r) do if v > m then m = v end end
      local s = 0
      for _, v in ipairs(r) do s = s + math.exp(v - m) end
      return m + math.log(s)
    end
    for _, dt in ipairs { "float64", "float32" } do
      local x = ga.array(rows, dt)
      local tol = dt == "float64" and 1e-13 or 2e-5
      local l = sp.logsumexp(x, -1)
      assert.are.same({ R }, l.shape)
      assert.are.equal(dt, l.dtype)
      local lt = l:totable()
      for i = 1, R do
        assert(math.abs(lt[i] - lse(rows[i])) <= tol * math.abs(lse(rows[i])) + tol, ("%s row %d: %g vs %g"):format(
          dt, i, lt[i], lse(rows[i])))
      end
      local lk = sp.logsumexp(x, { axis = 2, keepdims = true })
      assert.are.same({ R, 1 }, lk.shape)
      local all = sp.logsumexp(x):item()
      local flat = {}
      for i = 1, R do for j = 1, C do flat[#flat + 1] = rows[i][j] end end
      assert(math.abs(all - lse(flat)) < tol * math.abs(all) + tol)
      local s = sp.softmax(x, -1):totable()
      local ls = sp.log_softmax(x, 2):totable()
      for i = 1, R, 7 do
        local L = lse(rows[i])
        local sum = 0
        for j = 1, C do
          sum = sum + s[i][j]
          local w = math.exp(rows[i][j] - L)
          assert(math.abs(s[i][j] - w) <= tol * w + 1e-30, ("%s softmax[%d][%d] %g vs %g"):format(dt, i, j, s[i][j], w))
          local lw = rows[i][j] - L
          assert(lw == -math.huge and ls[i][j] == -math.huge or math.abs(ls[i][j] - lw) <= tol * math.abs(lw) + tol)
        end
        assert(math.abs(sum - 1) < 10 * tol)
      end
      -- axis 1 (columns) and the composed path (weights, signs)
      local c1 = sp.logsumexp(x, 1):totable()
      local col = {}
      for i = 1, R do col[i] = rows[i][2] end
      assert(math.abs(c1[2] - lse(col)) < tol * math.abs(c1[2]) + tol)
    end
    local a = ga.array({ 1.0, 2.0, 3.0 })
    local bw = ga.array({ 1.0, -2.0, 0.5 })
    local v, sgn = sp.logsumexp(a, nil, bw, false, true)
    local s = math.exp(1) - 2 * math.exp(2) + 0.5 * math.exp(3)
    assert(math.abs(v:item() - math.log(math.abs(s))) < 1e-14)
    assert.are.equal(s < 0 and -1 or 1, sgn:item())
    assert(math.abs(sp.logsumexp(ga.array({ -math.huge, -math.huge })):item()) == math.huge)
    assert.are.equal(math.huge, sp.logsumexp(ga.array({ math.huge, 1 })):item())
  end)
end)
