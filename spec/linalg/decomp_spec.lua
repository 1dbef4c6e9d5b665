-- ga.linalg's factorisations on fresh random matrices, checked by what
-- defines them, computed in Lua (spec/linalg/lref.lua) for real dtypes and
-- through the (separately specced) matmul for complex ones: svd rebuilds A
-- with orthonormal U and V, solve's residual, inv . A = I, det and slogdet
-- against a Lua LU, qr rebuilds A with orthonormal Q and upper R, cholesky
-- L L^H = A, eigh A v = lambda v; batches; and each error.
local internal = require("gpuarray.internal")
local helper = require "helper"
local R = require "ndref"
local L = require "linalg.lref"
local ga = helper.ga

local TOL = { float32 = 2e-5, float64 = 1e-12, complex64 = 2e-5, complex128 = 1e-12 }

local function gpu(rows, dt) return ga.array(rows, dt) end
local conj_t, gdiff, assert_small, rand_gpu = L.conj_t, L.gdiff, L.assert_small, L.rand_gpu
local function eye_like(n, dt) return ga.eye(n, dt) end
local function upper_exact(x)   -- every element below the diagonal is exactly 0
  local s = x.shape
  local low = ga.tril(x, -1)
  for _, v in ipairs(R.values(low)) do assert(L.abs(v) == 0, "not upper triangular " .. internal.shape_str(s)) end
end

describe("linalg: decompositions", function()
  it("rejects non-arrays without a GPU too", function()
    helper.assert_gaerror(function() ga.linalg.inv("x") end, "linalg.inv: a must be an array")
    helper.assert_gaerror(function() ga.linalg.svd(true) end, "linalg.svd: an ndarray is needed")
  end)

  for _, dt in ipairs({ "float32", "float64", "complex64", "complex128" }) do
    for _, method in ipairs({ "default", "gesvd", "gesvdj", "gesvdp" }) do
      helper.gpu_it(("svd %s (%s): U S Vh = A, orthonormal U and V, values alone agree"):format(dt, method), function()
        local tol = TOL[dt] * ((method == "gesvdj" and (dt == "float32" or dt == "complex64")) and 10 or 1)
        for _, shape in ipairs({ { 8, 8 }, { 12, 7 }, { 7, 12 }, { 3, 6, 5 }, { 2, 4, 9 } }) do
          for _, full in ipairs({ false, true }) do
            local a = rand_gpu(shape, dt)
            local opts = { full_matrices = full, method = method ~= "default" and method or nil }
            local U, S, Vh = ga.linalg.svd(a, opts)
            local m, n = shape[#shape - 1], shape[#shape]
            local k = math.min(m, n)
            local what = ("%s %s %s full=%s"):format(dt, method, internal.shape_str(shape), tostring(full))
            assert.are.equal(ga.linalg._REAL[dt], S.dtype, what)
            assert.are.equal(k, S.shape[#S.shape], what)
            assert.are.equal(full and m or k, U.shape[#U.shape], what)
            assert.are.equal(full and n or k, Vh.shape[#Vh.shape - 1], what)
            local Uk = U[{ ga.ellipsis, {}, { 1, k } }]
            local Vk = Vh[{ ga.ellipsis, { 1, k }, {} }]
            local rebuilt = ga.matmul(ga.multiply(Uk, ga.expand_dims(S, -2)), Vk)
            assert_small(gdiff(rebuilt, a:astype(dt)), tol * 10, what .. ": U S Vh vs A")
            local uu = ga.matmul(conj_t(U), U)
            assert_small(gdiff(uu, ga.broadcast_to(eye_like(uu.shape[#uu.shape], dt), uu.shape)), tol * 10,
              what .. ": U^H U = I")
            local vv = ga.matmul(Vh, conj_t(Vh))
            assert_small(gdiff(vv, ga.broadcast_to(eye_like(vv.shape[#vv.shape], dt), vv.shape)), tol * 10,
              what .. ": Vh Vh^H = I")
            local sv = R.values(S)
            for i = 2, #sv do
              if (i - 1) % k ~= 0 then assert(sv[i] <= sv[i - 1] * (1 + 1e-6) + 1e-12, what .. ": S descending") end
            end
            local S2 = ga.linalg.svd(a, { compute_uv = false, method = opts.method })
            assert_small(gdiff(S2, S), tol * 10, what .. ": values alone")
          end
        end
      end)
    end
  end

  -- single-precision gesvdp returned wrong factors for about 9% of random
  -- 333 x 333 matrices (CUDA 13.0, H200; docs/linalg.md): with 12 of them
  -- the old default failed this 2 runs in 3, and explicit gesvdp likewise
  helper.gpu_it("svd of twelve 333 x 333 float32 and complex64 matrices: default and gesvdp within 1e-5", function()
    for _, dt in ipairs({ "float32", "complex64" }) do
      local a = rand_gpu({ 12, 333, 333 }, dt)
      for _, method in ipairs({ "default", "gesvdp" }) do
        local U, S, Vh = ga.linalg.svd(a, { method = method ~= "default" and method or nil })
        assert.are.equal(dt, U.dtype)
        assert.are.equal(ga.linalg._REAL[dt], S.dtype)
        assert.are.same({ 12, 333 }, S.shape)
        local rebuilt = ga.matmul(ga.multiply(U, ga.expand_dims(S, -2)), Vh)
        local diff = ga.linalg.norm(ga.subtract(rebuilt, a), { axis = { -2, -1 } })
        local rel = ga.divide(diff, ga.linalg.norm(a, { axis = { -2, -1 } })):max():item()
        assert_small(rel, 1e-5, dt .. " " .. method .. " worst relative error of 12")
      end
    end
  end)

  -- gesvdj stops early in float32 (1.6e-4 at 1000 x 1000 on the H200): it is
  -- not a default, and held to 5e-4 here
  helper.gpu_it("svd of a 200 x 200 matrix: float32 error 1e-5, float64 1e-12 (defaults); gram values", function()
    for _, dt in ipairs({ "float32", "float64" }) do
      local a = rand_gpu({ 200, 200 }, dt)
      local nrm = ga.linalg.norm(a):item()
      for _, method in ipairs({ "default", "gesvd", "gesvdp", "gesvdj" }) do
        local U, S, Vh = ga.linalg.svd(a, { method = method ~= "default" and method or nil })
        local err = ga.linalg.norm(ga.subtract(ga.matmul(ga.multiply(U, S), Vh), a)):item() / nrm
        local tol = dt == "float32" and (method == "gesvdj" and 5e-4 or 1e-5) or 1e-12
        assert_small(err, tol, dt .. " " .. method .. " relative error")
        local I = eye_like(200, dt)
        local orth = ga.linalg.norm(ga.subtract(ga.matmul(conj_t(U), U), I)):item()
        assert_small(orth, dt == "float32" and 1e-3 or 1e-11, dt .. " " .. method .. " U orthonormal")
        local g = ga.linalg.svd(a, { compute_uv = false, method = "gram" })
        -- against gesvdj's float32 values the bound is gesvdj's own (it stops early)
        local gtol = dt == "float32" and (method == "gesvdj" and 5e-4 or 1e-5) or 1e-10
        assert_small(gdiff(g, S), gtol, dt .. " gram values vs " .. method)
      end
    end
  end)

  for _, dt in ipairs({ "float32", "float64" }) do
    local tol = TOL[dt]
    helper.gpu_it(dt .. ": solve (one and several right-hand sides, batched, broadcast b)", function()
      local A = L.rand_rows(9, 9, 9)
      local B = L.rand_rows(9, 3)
      local x = ga.linalg.solve(gpu(A, dt), gpu(B, dt))
      assert.are.same({ 9, 3 }, x.shape)
      assert.are.equal(dt, x.dtype)
      assert_small(L.maxdiff(L.mm(A, x:totable()), B), tol * 10, "residual A x - B")
      local b = {}
      for i = 1, 9 do b[i] = B[i][1] end
      local x1 = ga.linalg.solve(gpu(A, dt), gpu(b, dt))
      assert.are.same({ 9 }, x1.shape)
      local want = L.solve(A, L.T({ b }))
      local got = x1:totable()
      for i = 1, 9 do assert(math.abs(got[i] - want[i][1]) <= tol * 100, "1-D b") end
      local Ab = rand_gpu({ 3, 5, 5 }, dt, 5)
      local bb = rand_gpu({ 5 }, dt)
      local xb = ga.linalg.solve(Ab, bb)
      assert.are.same({ 3, 5 }, xb.shape)
      local r = ga.matmul(Ab, ga.expand_dims(xb, -1)):squeeze(-1)
      assert_small(gdiff(r, ga.broadcast_to(bb, { 3, 5 })), tol * 10, "batched residual")
    end)

    helper.gpu_it(dt .. ": inv . A = I (and batched)", function()
      local A = L.rand_rows(7, 7, 4)
      local Ai = ga.linalg.inv(gpu(A, dt))
      assert.are.equal(dt, Ai.dtype)
      assert_small(L.maxdiff(L.mm(Ai:totable(), A), L.eye(7)), tol * 10, "inv . A")
      local Ab = rand_gpu({ 3, 4, 4 }, dt, 3)
      local I = ga.matmul(ga.linalg.inv(Ab), Ab)
      assert_small(gdiff(I, ga.broadcast_to(ga.eye(4, dt), { 3, 4, 4 })), tol * 10, "batched inv")
    end)

    helper.gpu_it(dt .. ": det and slogdet against a Lua LU (batched, singular)", function()
      for _ = 1, 3 do
        local A = L.rand_rows(6, 6)
        local want = L.det(A)
        local d = ga.linalg.det(gpu(A, dt))
        assert.are.same({}, d.shape)
        assert(math.abs(d:item() - want) <= tol * 100 * (1 + math.abs(want)), ("det %g vs %g"):format(d:item(), want))
        local s, l = ga.linalg.slogdet(gpu(A, dt))
        assert.are.equal(want < 0 and -1 or 1, s:item())
        assert(math.abs(l:item() - math.log(math.abs(want))) <= tol * 100, "logdet")
      end
      local Ab = rand_gpu({ 4, 3, 3 }, dt)
      local rows = Ab:totable()
      local dets = ga.linalg.det(Ab):totable()
      for b = 1, 4 do
        local want = L.det(rows[b])
        assert(math.abs(dets[b] - want) <= tol * 100 * (1 + math.abs(want)), "batched det")
      end
      local S = L.rand_rows(4, 4)
      S[3] = { 0, 0, 0, 0 }
      assert.are.equal(0, ga.linalg.det(gpu(S, dt)):item())
      local s, l = ga.linalg.slogdet(gpu(S, dt))
      assert.are.equal(0, s:item())
      assert.are.equal(-math.huge, l:item())
    end)

    helper.gpu_it(dt .. ": qr (reduced, complete, r; tall, wide, batched)", function()
      for _, shape in ipairs({ { 9, 5 }, { 5, 9 }, { 6, 6 }, { 2, 6, 4 }, { 2, 3, 7 } }) do
        for _, mode in ipairs({ "reduced", "complete", "r" }) do
          local a = rand_gpu(shape, dt)
          local m, n = shape[#shape - 1], shape[#shape]
          local k = math.min(m, n)
          local what = ("%s qr %s %s"):format(dt, internal.shape_str(shape), mode)
          if mode == "r" then
            local Rm = ga.linalg.qr(a, "r")
            assert.are.same({ k, n }, { Rm.shape[#shape - 1], Rm.shape[#shape] }, what)
            upper_exact(Rm)
          else
            local Q, Rm = ga.linalg.qr(a, mode)
            local qc = mode == "complete" and m or k
            assert.are.same({ m, qc }, { Q.shape[#shape - 1], Q.shape[#shape] }, what)
            assert.are.same({ qc, n }, { Rm.shape[#shape - 1], Rm.shape[#shape] }, what)
            upper_exact(Rm)
            assert_small(gdiff(ga.matmul(Q, Rm), a), tol * 10, what .. ": Q R = A")
            local qq = ga.matmul(conj_t(Q), Q)
            assert_small(gdiff(qq, ga.broadcast_to(ga.eye(qc, dt), qq.shape)), tol * 10, what .. ": Q^T Q = I")
          end
        end
      end
    end)

    helper.gpu_it(dt .. ": cholesky L L^T = A, lower; batched; not positive definite raises", function()
      local B = L.rand_rows(8, 8)
      local P = L.mm(B, L.T(B))
      for i = 1, 8 do P[i][i] = P[i][i] + 8 end
      local Lm = ga.linalg.cholesky(gpu(P, dt))
      assert.are.equal(dt, Lm.dtype)
      local lt = Lm:totable()
      for i = 1, 8 do for j = i + 1, 8 do assert.are.equal(0, lt[i][j]) end end
      assert_small(L.maxdiff(L.mm(lt, L.T(lt)), P), tol * 10, "L L^T")
      local Bb = rand_gpu({ 3, 5, 5 }, dt)
      local Pb = ga.add(ga.matmul(Bb, conj_t(Bb)), ga.multiply(ga.eye(5, dt), 5))
      local Lb = ga.linalg.cholesky(Pb)
      assert_small(gdiff(ga.matmul(Lb, conj_t(Lb)), Pb), tol * 10, "batched L L^T")
      helper.assert_gaerror(function() ga.linalg.cholesky(ga.multiply(ga.eye(4, dt), -1)) end,
        "linalg.cholesky: matrix is not positive definite")
    end)

    helper.gpu_it(dt .. ": eigh A v = lambda v, ascending, uplo, eigvalsh, batched", function()
      local B = L.rand_rows(7, 7)
      local S = {}
      for i = 1, 7 do
        S[i] = {}
        for j = 1, 7 do S[i][j] = (B[i][j] + B[j][i]) / 2 end
      end
      local w, v = ga.linalg.eigh(gpu(S, dt))
      assert.are.same({ 7 }, w.shape)
      assert.are.same({ 7, 7 }, v.shape)
      local wl, vl = w:totable(), v:totable()
      for i = 2, 7 do assert(wl[i] >= wl[i - 1], "ascending") end
      local Av = L.mm(S, vl)
      local vw = {}
      for i = 1, 7 do
        vw[i] = {}
        for j = 1, 7 do vw[i][j] = vl[i][j] * wl[j] end
      end
      assert_small(L.maxdiff(Av, vw), tol * 10, "A v = v diag(w)")
      -- uplo "U" reads only the upper triangle: garbage below must not matter
      local G = {}
      for i = 1, 7 do
        G[i] = {}
        for j = 1, 7 do G[i][j] = j >= i and S[i][j] or 100 + math.random() end
      end
      assert_small(gdiff(ga.linalg.eigvalsh(gpu(G, dt), "U"), w), tol * 10, "uplo U")
      local GT = L.T(G)
      assert_small(gdiff(ga.linalg.eigvalsh(gpu(GT, dt), "L"), w), tol * 10, "uplo L")
      local Bb = rand_gpu({ 2, 5, 5 }, dt)
      local Sb = ga.add(Bb, conj_t(Bb))
      local wb, vb = ga.linalg.eigh(Sb)
      assert_small(gdiff(ga.matmul(Sb, vb), ga.multiply(vb, ga.expand_dims(wb, -2))), tol * 10, "batched eigh")
    end)
  end

  helper.gpu_it("complex: solve, inv, cholesky, eigh, qr through matmul checks", function()
    for _, dt in ipairs({ "complex64", "complex128" }) do
      local tol = TOL[dt] * 10
      local A = rand_gpu({ 6, 6 }, dt, 4)
      local b = rand_gpu({ 6, 2 }, dt)
      assert_small(gdiff(ga.matmul(A, ga.linalg.solve(A, b)), b), tol, dt .. " solve")
      assert_small(gdiff(ga.matmul(ga.linalg.inv(A), A), ga.eye(6, dt)), tol, dt .. " inv")
      local H = ga.add(ga.matmul(A, conj_t(A)), ga.eye(6, dt))
      local Lm = ga.linalg.cholesky(H)
      assert_small(gdiff(ga.matmul(Lm, conj_t(Lm)), H), tol, dt .. " cholesky")
      local w, v = ga.linalg.eigh(H)
      assert.are.equal(ga.linalg._REAL[dt], w.dtype)
      assert_small(gdiff(ga.matmul(H, v), ga.multiply(v, w)), tol, dt .. " eigh")
      local Q, Rm = ga.linalg.qr(rand_gpu({ 7, 4 }, dt))
      assert_small(gdiff(ga.matmul(conj_t(Q), Q), ga.eye(4, dt)), tol, dt .. " qr")
      upper_exact(Rm)
      local d = ga.linalg.det(A)
      local s, l = ga.linalg.slogdet(A)
      local dv, sv = R.values(d)[1], R.values(s)[1]
      local mag = math.exp(l:item())
      assert(L.abs(L.sub(dv, L.mul(sv, mag))) <= tol * 10 * mag, dt .. " det = sign * exp(logdet)")
    end
  end)

  helper.gpu_it("errors: singular, not square, not positive definite, bad modes", function()
    local sing = ga.array({ { 1, 2 }, { 2, 4 } })
    helper.assert_gaerror(function() ga.linalg.solve(sing, ga.ones(2)) end, "linalg.solve: matrix is singular")
    helper.assert_gaerror(function() ga.linalg.inv(sing) end, "linalg.inv: matrix is singular")
    local bsing = ga.stack({ ga.eye(2), sing })
    helper.assert_gaerror(function() ga.linalg.inv(bsing) end, "matrix is singular (matrix 2 of the batch)")
    local rect = ga.ones({ 2, 3 })
    for _, f in ipairs({ "inv", "det", "slogdet", "cholesky", "eigh", "eigvalsh" }) do
      helper.assert_gaerror(function() ga.linalg[f](rect) end, "linalg." .. f .. ": matrix is not square")
    end
    helper.assert_gaerror(function() ga.linalg.solve(rect, ga.ones(2)) end, "linalg.solve: matrix is not square")
    helper.assert_gaerror(function() ga.linalg.solve(ga.eye(3), ga.ones(2)) end, "does not match")
    helper.assert_gaerror(function() ga.linalg.inv(ga.ones(3)) end, "a matrix (at least 2 axes)")
    helper.assert_gaerror(function() ga.linalg.qr(rect, "full") end, "linalg.qr: mode")
    helper.assert_gaerror(function() ga.linalg.eigh(ga.eye(2), "X") end, "UPLO must be one of")
    helper.assert_gaerror(function() ga.linalg.svd(rect, { method = "magic" }) end, "unknown method")
    helper.assert_gaerror(function() ga.linalg.svd(rect, { method = "gram" }) end, "values only")
  end)
end)
