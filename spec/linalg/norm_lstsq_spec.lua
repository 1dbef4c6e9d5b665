-- linalg.norm (vector and matrix ords, axis, keepdims), lstsq against the
-- normal equations, pinv's Penrose condition, matrix_rank and matrix_power,
-- all against Lua computations on fresh random inputs.
local internal = require("gpuarray.internal")
local helper = require "helper"
local L = require "linalg.lref"
local ga = helper.ga

local function close(got, want, tol, what)
  assert(math.abs(got - want) <= tol * (1 + math.abs(want)), ("%s: %.17g vs %.17g"):format(what, got, want))
end

-- the 2-norm of a real matrix (rows) by power iteration on A^T A
local function spectral(A)
  local AtA = L.mm(L.T(A), A)
  local n = #AtA
  local v = {}
  for i = 1, n do v[i] = { 1 + i / 10 } end
  local lambda = 0
  for _ = 1, 2000 do
    local w = L.mm(AtA, v)
    local s = 0
    for i = 1, n do s = s + w[i][1] ^ 2 end
    s = math.sqrt(s)
    for i = 1, n do v[i][1] = w[i][1] / s end
    lambda = s
  end
  return math.sqrt(lambda)
end

describe("linalg: norm, lstsq, pinv, matrix_rank, matrix_power", function()
  it("refuses an ord that is neither a number nor \"fro\" / \"nuc\" before the device (the declaration)", function()
    helper.assert_gaerror(function() ga.linalg.norm({ { 1, 2 }, { 3, 4 } }, "bad") end,
      'linalg.norm: ord must be a number or one of "fro", "nuc" or nil, got "bad"')
    helper.assert_gaerror(function() ga.linalg.norm({ 1, 2 }, true) end, "linalg.norm: ord must be")
  end)

  helper.gpu_it("vector norms: every ord, float32 and float64, a long float32 vector", function()
    for _, dt in ipairs({ "float32", "float64" }) do
      local n = 37
      local x = {}
      for i = 1, n do x[i] = math.random() * 4 - 2 end
      x[5] = 0
      local g = ga.array(x, dt)
      x = g:totable()
      local function p_norm(p)
        local s = 0
        for _, v in ipairs(x) do s = s + math.abs(v) ^ p end
        return s ^ (1 / p)
      end
      local mx, mn, nz = 0, math.huge, 0
      for _, v in ipairs(x) do
        mx, mn = math.max(mx, math.abs(v)), math.min(mn, math.abs(v))
        if v ~= 0 then nz = nz + 1 end
      end
      local tol = dt == "float32" and 1e-5 or 1e-12
      close(ga.linalg.norm(g):item(), p_norm(2), tol, "default")
      close(ga.linalg.norm(g, 2):item(), p_norm(2), tol, "2")
      close(ga.linalg.norm(g, 1):item(), p_norm(1), tol, "1")
      close(ga.linalg.norm(g, 3):item(), p_norm(3), tol, "3")
      close(ga.linalg.norm(g, 0.5):item(), p_norm(0.5), tol, "0.5")
      close(ga.linalg.norm(g, math.huge):item(), mx, tol, "inf")
      close(ga.linalg.norm(g, -math.huge):item(), mn, tol, "-inf")
      close(ga.linalg.norm(g, 0):item(), nz, 0, "0")
      assert.are.equal(dt, ga.linalg.norm(g).dtype)
    end
    local big = {}
    local s = 0
    for i = 1, 100000 do
      big[i] = math.random()
      s = s + big[i] * big[i]
    end
    local g = ga.array(big, "float32")
    close(ga.linalg.norm(g):item(), math.sqrt(s), 1e-5, "long float32")
    close(ga.linalg.norm(ga.array({ { 3, 4 } }, "int32")):item(), 5, 1e-15, "int input gives float64")
  end)

  helper.gpu_it("matrix norms: fro, nuc, 1, -1, inf, -inf, 2, -2; axis and keepdims", function()
    local A = L.rand_rows(5, 4)
    local g = ga.array(A, "float64")
    local fro, c1, cm1, ri, rmi = 0, 0, math.huge, 0, math.huge
    for i = 1, 5 do
      local r = 0
      for j = 1, 4 do
        fro = fro + A[i][j] ^ 2
        r = r + math.abs(A[i][j])
      end
      ri, rmi = math.max(ri, r), math.min(rmi, r)
    end
    for j = 1, 4 do
      local c = 0
      for i = 1, 5 do c = c + math.abs(A[i][j]) end
      c1, cm1 = math.max(c1, c), math.min(cm1, c)
    end
    close(ga.linalg.norm(g, "fro"):item(), math.sqrt(fro), 1e-12, "fro")
    close(ga.linalg.norm(g):item(), math.sqrt(fro), 1e-12, "default")
    close(ga.linalg.norm(g, 1):item(), c1, 1e-12, "1")
    close(ga.linalg.norm(g, -1):item(), cm1, 1e-12, "-1")
    close(ga.linalg.norm(g, math.huge):item(), ri, 1e-12, "inf")
    close(ga.linalg.norm(g, -math.huge):item(), rmi, 1e-12, "-inf")
    close(ga.linalg.norm(g, 2):item(), spectral(A), 1e-9, "2")
    local S = ga.linalg.svd(g, { compute_uv = false }):totable()
    local nuc = 0
    for _, v in ipairs(S) do nuc = nuc + v end
    close(ga.linalg.norm(g, "nuc"):item(), nuc, 1e-12, "nuc")
    close(ga.linalg.norm(g, -2):item(), S[#S], 1e-12, "-2")
    local rows = ga.linalg.norm(g, nil, 2)
    assert.are.same({ 5 }, rows.shape)
    local rt = rows:totable()
    for i = 1, 5 do
      local s = 0
      for j = 1, 4 do s = s + A[i][j] ^ 2 end
      close(rt[i], math.sqrt(s), 1e-12, "axis 2")
    end
    assert.are.same({ 1, 4 }, ga.linalg.norm(g, { ord = 1, axis = 1, keepdims = true }).shape)
    assert.are.same({ 1, 1 }, ga.linalg.norm(g, { ord = "fro", axis = { 1, 2 }, keepdims = true }).shape)
    assert.are.same({ 1, 1 }, ga.linalg.norm(g, { ord = 2, axis = { 1, 2 }, keepdims = true }).shape)
    assert.are.same({ 1, 1 }, ga.linalg.norm(g, { keepdims = true }).shape)
    local b = ga.stack({ g, ga.multiply(g, 2) })
    local bn = ga.linalg.norm(b, { ord = 1, axis = { 2, 3 } }):totable()
    close(bn[1], c1, 1e-12, "batched 1")
    close(bn[2], 2 * c1, 1e-12, "batched 1 (x2)")
    -- a number that is no matrix ord is refused by the norm itself
    helper.assert_gaerror(function() ga.linalg.norm(g, 3) end, "linalg.norm: invalid matrix ord 3")
    helper.assert_gaerror(function() ga.linalg.norm(g, 0.5) end, "linalg.norm: invalid matrix ord 0.5")
    helper.assert_gaerror(function() ga.linalg.norm(b, 1) end, "needs axis")
  end)

  helper.gpu_it("lstsq matches the normal equations; residuals, rank, s", function()
    local A = L.rand_rows(10, 4)
    local B = L.rand_rows(10, 2)
    local x, res, rank, s = ga.linalg.lstsq(ga.array(A), ga.array(B))
    assert.are.same({ 4, 2 }, x.shape)
    assert.are.equal(4, rank)
    assert.are.same({ 4 }, s.shape)
    local want = L.solve(L.mm(L.T(A), A), L.mm(L.T(A), B))
    assert(L.maxdiff(x:totable(), want) <= 1e-10, "x vs normal equations")
    local r = L.mm(A, want)
    local rt = res:totable()
    for j = 1, 2 do
      local ss = 0
      for i = 1, 10 do ss = ss + (r[i][j] - B[i][j]) ^ 2 end
      close(rt[j], ss, 1e-9, "residual " .. j)
    end
    local b = {}
    for i = 1, 10 do b[i] = B[i][1] end
    local x1 = ga.linalg.lstsq(ga.array(A, "float32"), ga.array(b, "float32"))
    assert.are.same({ 4 }, x1.shape)
    assert.are.equal("float32", x1.dtype)
    local xt = x1:totable()
    for i = 1, 4 do close(xt[i], want[i][1], 1e-4, "float32 1-D b") end
  end)

  helper.gpu_it("pinv: A A+ A = A (tall, wide, batched); matrix_rank; matrix_power", function()
    for _, shape in ipairs({ { 6, 4 }, { 3, 7 }, { 2, 5, 3 } }) do
      local a = ga.array(L.rand_rows(shape[1], shape[2]))
      if #shape == 3 then a = ga.array(L.rand_rows(shape[1] * shape[2], shape[3])):reshape(shape) end
      local p = ga.linalg.pinv(a)
      local back = ga.matmul(ga.matmul(a, p), a)
      local d = ga.max(ga.abs(ga.subtract(back, a))):item()
      assert(d <= 1e-12, "pinv " .. internal.shape_str(shape) .. ": " .. d)
    end
    local Bm, Cm = L.rand_rows(6, 2), L.rand_rows(2, 5)
    assert.are.equal(2, ga.linalg.matrix_rank(ga.array(L.mm(Bm, Cm))):item())
    assert.are.equal(5, ga.linalg.matrix_rank(ga.array(L.rand_rows(5, 5, 1))):item())
    local A = L.rand_rows(4, 4, 2)
    local g = ga.array(A)
    assert(L.maxdiff(ga.linalg.matrix_power(g, 3):totable(), L.mm(L.mm(A, A), A)) <= 1e-12, "power 3")
    assert(L.maxdiff(ga.linalg.matrix_power(g, 0):totable(), L.eye(4)) == 0, "power 0")
    assert(L.maxdiff(ga.linalg.matrix_power(g, 1):totable(), A) == 0, "power 1")
    local inv2 = L.solve(L.mm(A, A), L.eye(4))
    assert(L.maxdiff(ga.linalg.matrix_power(g, -2):totable(), inv2) <= 1e-10, "power -2")
    local gi = ga.array({ { 1, 1 }, { 1, 0 } }, "int64")
    assert.are.same({ { 89, 55 }, { 55, 34 } }, ga.linalg.matrix_power(gi, 10):totable())
  end)
end)
