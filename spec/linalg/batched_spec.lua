-- ga.linalg on batches through the libraries' batched routines
-- (src/solver/solver_batched.c): matrices of n <= 64 go to cuBLAS's
-- getrf/getrsBatched (solve, inv, det, slogdet; one matrix too), more than
-- one to cuSOLVER's potrfBatched (cholesky); of n <= 32 to syevjBatched (eigh, eigvalsh) and
-- gesvdjBatched (svd); larger ones to the loop of single-matrix calls. Each
-- case runs on both sides of those limits (n = 5 and 32; 33 and 65 fall
-- back), with one and two batch axes, checked by what defines the result, by
-- a Lua LU (real det and slogdet) and against the single-matrix path on
-- matrices of the batch; and the errors name the failing matrix.
local internal = require("gpuarray.internal")
local helper = require "helper"
local R = require "ndref"
local L = require "linalg.lref"
local ga = helper.ga

local TOL = { float32 = 2e-5, float64 = 1e-12, complex64 = 2e-5, complex128 = 1e-12 }
local DTYPES = { "float32", "float64", "complex64", "complex128" }
-- square batches for the LU and Cholesky paths (65: the loop) and for the
-- Jacobi ones (33: the loop)
local SMALL = { { 7, 5, 5 }, { 7, 32, 32 }, { 2, 3, 5, 5 }, { 7, 64, 64 }, { 3, 65, 65 } }
local JACOBI = { { 7, 5, 5 }, { 7, 32, 32 }, { 2, 3, 5, 5 }, { 3, 33, 33 } }
local SVD = { { 7, 5, 5 }, { 7, 32, 32 }, { 7, 12, 7 }, { 7, 7, 12 }, { 7, 32, 20 }, { 2, 3, 4, 6 }, { 3, 33, 33 },
  { 3, 40, 20 } }
local conj_t, gdiff, assert_small, rand_gpu = L.conj_t, L.gdiff, L.assert_small, L.rand_gpu

local function is_complex(dt) return dt:find("complex", 1, true) ~= nil end
local batch_of, cat = ga.linalg._helpers.batch_of, ga.linalg._helpers.cat
local function count(shape)
  local n = 1
  for i = 1, #shape - 2 do n = n * shape[i] end
  return n
end
-- matrix i (1-based, C order over the batch axes) of x: (..., r, c), as a view
local function mat(x, i)
  local s = x.shape
  return x:reshape(count(s), s[#s - 1], s[#s])[{ i }]
end
-- row i of the batch of vectors v: (..., k)
local function vec(v, i) return v:reshape(-1, v.shape[v.ndim])[{ i }] end
local function label(dt, shape, s) return ("%s %s: %s"):format(dt, internal.shape_str(shape), s) end
local function eye_b(shape, dt) return ga.broadcast_to(ga.eye(shape[#shape], dt), shape) end
-- the first and the last matrix of a batch (the single-matrix comparisons)
local function ends(nb) return nb > 1 and { 1, nb } or { 1 } end

--- A well-conditioned batch that needs pivoting at every step: I + X / (2
-- sqrt(n)) (det near 1), its rows reversed, and the first row of every
-- even-numbered matrix negated (dets of both signs)
local function pivoting(shape, dt)
  local n, nb = shape[#shape], count(shape)
  local D = ga.multiply(rand_gpu(shape, dt, 2 * math.sqrt(n)), 1 / (2 * math.sqrt(n)))
  local sg = {}
  for b = 1, nb do
    for r = 1, n do sg[#sg + 1] = (r == 1 and b % 2 == 0) and -1 or 1 end
  end
  local signs = ga.array(sg, dt):reshape(cat(batch_of(shape), { n, 1 }))
  return ga.ascontiguousarray(ga.multiply(ga.flip(D, -2), signs))
end

describe("linalg: batched routines", function()
  it("svd sends batches of matrices up to 32 x 32 to gesvdjBatched", function()
    assert.are.equal(32, ga.linalg._svd_method.batched_max)
  end)

  for _, dt in ipairs(DTYPES) do
    local tol = TOL[dt] * 10

    helper.gpu_it(dt .. ": batched LU: pivots of cuBLAS's batched LU equal the single path's; solve, inv", function()
      for _, shape in ipairs(SMALL) do
        local n, nb, batch = shape[#shape], count(shape), batch_of(shape)
        local a = pivoting(shape, dt)
        -- the dispatch: int32 pivots from cuBLAS's batched LU (n <= 64, one
        -- matrix too: an LU does not depend on the batch), int64 from the loop
        local ipiv, info = ga._core.solver.getrf(a:copy())
        assert.are.equal(n <= 64 and "int32" or "int64", ipiv.dtype, label(dt, shape, "pivots' dtype"))
        assert.are.same(cat(batch, { n }), ipiv.shape)
        assert.are.equal(0, info)
        for _, i in ipairs(ends(nb)) do
          local one = ga._core.solver.getrf(mat(a, i):copy())
          assert.are.same(R.values(one), R.values(vec(ipiv, i)), label(dt, shape, "pivots of matrix " .. i))
        end
        local b = rand_gpu(cat(batch, { n, 3 }), dt)
        local x = ga.linalg.solve(a, b)
        assert.are.equal(dt, x.dtype)
        assert.are.same(b.shape, x.shape)
        assert_small(gdiff(ga.matmul(a, x), b), tol, label(dt, shape, "A x = b"))
        local b1 = rand_gpu({ n }, dt)
        local x1 = ga.linalg.solve(a, b1)
        assert.are.same(cat(batch, { n }), x1.shape)
        local r = ga.matmul(a, ga.expand_dims(x1, -1)):squeeze(-1)
        assert_small(gdiff(r, ga.broadcast_to(b1, x1.shape)), tol, label(dt, shape, "A x = b (1-D b)"))
        local ai = ga.linalg.inv(a)
        assert.are.equal(dt, ai.dtype)
        assert.are.same(shape, ai.shape)
        assert_small(gdiff(ga.matmul(ai, a), eye_b(shape, dt)), tol, label(dt, shape, "inv(A) A = I"))
        assert_small(gdiff(ga.matmul(a, ai), eye_b(shape, dt)), tol, label(dt, shape, "A inv(A) = I"))
      end
    end)

    helper.gpu_it(dt .. ": batched det and slogdet against a Lua LU and the single path; singular matrices", function()
      for _, shape in ipairs(SMALL) do
        local n, nb, batch = shape[#shape], count(shape), batch_of(shape)
        local a = pivoting(shape, dt)
        local d = ga.linalg.det(a)
        local s, l = ga.linalg.slogdet(a)
        assert.are.same(batch, d.shape)
        assert.are.same(batch, s.shape)
        assert.are.same(batch, l.shape)
        assert.are.equal(dt, d.dtype)
        local dv, sv, lv = R.values(d), R.values(s), R.values(l)
        for i = 1, nb do
          local what = label(dt, shape, "matrix " .. i)
          local mag = math.exp(lv[i])
          assert(L.abs(L.sub(dv[i], L.mul(sv[i], mag))) <= tol * 10 * mag, what .. ": det = sign exp(logdet)")
          if is_complex(dt) then
            assert(math.abs(L.abs(sv[i]) - 1) <= tol, what .. ": |sign| = 1")
          else
            local want = L.det(mat(a, i):totable())
            assert(math.abs(dv[i] - want) <= tol * 10 * (1 + math.abs(want)),
              ("%s: det %g vs %g"):format(what, dv[i], want))
            assert.are.equal(want < 0 and -1 or 1, sv[i], what .. ": sign")
            assert(math.abs(lv[i] - math.log(math.abs(want))) <= tol * 10, what .. ": logdet")
            -- the row negated in even-numbered matrices flips the sign
            if i > 1 then assert.are.equal(i % 2 == 0, sv[i] ~= sv[1], what .. ": sign pattern") end
          end
        end
        for _, i in ipairs(ends(nb)) do
          local one = ga.linalg.det(mat(a, i))
          local want = R.values(one)[1]
          assert(L.abs(L.sub(dv[i], want)) <= tol * 10 * (1 + L.abs(want)), label(dt, shape, "det vs single path"))
        end
        -- matrix `bad` singular (a zero row): det 0, sign 0, logdet -inf; the others untouched
        local bad = nb >= 4 and 4 or 2
        local z = a:reshape(nb, n, n):copy()
        z[{ bad, 3 }] = 0
        z = z:reshape(shape)
        local dz = R.values(ga.linalg.det(z))
        local sz, lz = ga.linalg.slogdet(z)
        sz, lz = R.values(sz), R.values(lz)
        for i = 1, nb do
          if i == bad then
            assert.are.equal(0, L.abs(dz[i]), label(dt, shape, "det of the singular matrix"))
            assert.are.equal(0, L.abs(sz[i]), label(dt, shape, "sign of the singular matrix"))
            assert.are.equal(-math.huge, lz[i], label(dt, shape, "logdet of the singular matrix"))
          else
            assert(L.abs(L.sub(dz[i], dv[i])) <= tol * 10 * (1 + L.abs(dv[i])), label(dt, shape, "other dets"))
          end
        end
        local zf = z:reshape(nb, n, n)
        local where = ("matrix is singular (matrix %d of the batch)"):format(bad)
        helper.assert_gaerror(function() ga.linalg.inv(zf) end, "linalg.inv: " .. where)
        helper.assert_gaerror(function() ga.linalg.solve(zf, rand_gpu({ n }, dt)) end, "linalg.solve: " .. where)
      end
    end)

    helper.gpu_it(dt .. ": batched cholesky L L^H = A, lower, as the single path; not positive definite: which matrix",
      function()
        for _, shape in ipairs(SMALL) do
          local n, nb = shape[#shape], count(shape)
          local B = rand_gpu(shape, dt)
          local P = ga.add(ga.matmul(B, conj_t(B)), ga.multiply(ga.eye(n, dt), n))
          local Lm = ga.linalg.cholesky(P)
          assert.are.equal(dt, Lm.dtype)
          assert.are.same(shape, Lm.shape)
          assert.are.equal(0, ga.count_nonzero(ga.not_equal(ga.triu(Lm, 1), 0)):item(), label(dt, shape, "lower"))
          assert_small(gdiff(ga.matmul(Lm, conj_t(Lm)), P), tol, label(dt, shape, "L L^H = A"))
          for _, i in ipairs(ends(nb)) do
            assert_small(gdiff(mat(Lm, i), ga.linalg.cholesky(mat(P, i))), tol, label(dt, shape, "vs single path"))
          end
          local bad = nb >= 4 and 4 or 2
          local Q = P:reshape(nb, n, n):copy()
          Q[{ bad }] = ga.multiply(ga.eye(n, dt), -1)
          helper.assert_gaerror(function() ga.linalg.cholesky(Q) end,
            ("linalg.cholesky: matrix is not positive definite (matrix %d of the batch)"):format(bad))
        end
      end)

    helper.gpu_it(dt .. ": batched eigh: A v = v diag(w), ascending, orthonormal, uplo, eigvalsh, as the single path",
      function()
        for _, shape in ipairs(JACOBI) do
          local n, nb, batch = shape[#shape], count(shape), batch_of(shape)
          local B = rand_gpu(shape, dt)
          local S = ga.add(B, conj_t(B))
          local w, v = ga.linalg.eigh(S)
          assert.are.equal(ga.linalg._REAL[dt], w.dtype)
          assert.are.equal(dt, v.dtype)
          assert.are.same(cat(batch, { n }), w.shape)
          assert.are.same(shape, v.shape)
          local wl = R.values(w)
          for i = 2, #wl do
            if (i - 1) % n ~= 0 then assert(wl[i] >= wl[i - 1], label(dt, shape, "ascending")) end
          end
          local vw = ga.multiply(v, ga.expand_dims(w, -2))
          assert_small(gdiff(ga.matmul(S, v), vw), tol, label(dt, shape, "S v = v w"))
          assert_small(gdiff(ga.matmul(conj_t(v), v), eye_b(shape, dt)), tol, label(dt, shape, "v^H v = I"))
          assert_small(gdiff(ga.linalg.eigvalsh(S), w), tol, label(dt, shape, "eigvalsh = eigh's w"))
          -- each uplo reads its own triangle only: junk in the other must not matter
          local junk = ga.multiply(rand_gpu(shape, dt), 100)
          local up = ga.add(ga.triu(S), ga.tril(junk, -1))
          local lo = ga.add(ga.tril(S), ga.triu(junk, 1))
          assert_small(gdiff(ga.linalg.eigvalsh(up, "U"), w), tol, label(dt, shape, "uplo U"))
          assert_small(gdiff(ga.linalg.eigvalsh(lo, "L"), w), tol, label(dt, shape, "uplo L"))
          local wu, vu = ga.linalg.eigh(up, "U")
          assert_small(gdiff(wu, w), tol, label(dt, shape, "eigh uplo U"))
          assert_small(gdiff(ga.matmul(S, vu), ga.multiply(vu, ga.expand_dims(wu, -2))), tol,
            label(dt, shape, "eigh uplo U: S v = v w"))
          for _, i in ipairs(ends(nb)) do
            assert_small(gdiff(vec(w, i), ga.linalg.eigvalsh(mat(S, i))), tol, label(dt, shape, "vs single path"))
          end
        end
      end)

    helper.gpu_it(dt .. ": batched svd (full_matrices and compute_uv both ways): U S Vh = A, orthonormal, descending",
      function()
        for _, shape in ipairs(SVD) do
          local m, n, nb, batch = shape[#shape - 1], shape[#shape], count(shape), batch_of(shape)
          local k = math.min(m, n)
          local a = rand_gpu(shape, dt)
          for _, full in ipairs({ false, true }) do
            local what = ("%s full=%s"):format(internal.shape_str(shape), tostring(full))
            local U, S, Vh = ga.linalg.svd(a, { full_matrices = full })
            assert.are.equal(dt, U.dtype)
            assert.are.equal(dt, Vh.dtype)
            assert.are.equal(ga.linalg._REAL[dt], S.dtype)
            assert.are.same(cat(batch, { m, full and m or k }), U.shape, what)
            assert.are.same(cat(batch, { k }), S.shape, what)
            assert.are.same(cat(batch, { full and n or k, n }), Vh.shape, what)
            local Uk = U[{ ga.ellipsis, {}, { 1, k } }]
            local Vk = Vh[{ ga.ellipsis, { 1, k }, {} }]
            local rebuilt = ga.matmul(ga.multiply(Uk, ga.expand_dims(S, -2)), Vk)
            assert_small(gdiff(rebuilt, a), tol, label(dt, shape, what .. ": U S Vh = A"))
            local uu = ga.matmul(conj_t(U), U)
            assert_small(gdiff(uu, eye_b(uu.shape, dt)), tol, label(dt, shape, what .. ": U^H U = I"))
            local vv = ga.matmul(Vh, conj_t(Vh))
            assert_small(gdiff(vv, eye_b(vv.shape, dt)), tol, label(dt, shape, what .. ": Vh Vh^H = I"))
            local sv = R.values(S)
            for i = 2, #sv do
              if (i - 1) % k ~= 0 then
                assert(sv[i] <= sv[i - 1] * (1 + 1e-6) + 1e-12, label(dt, shape, what .. ": S descending"))
              end
            end
            local S2 = ga.linalg.svd(a, { compute_uv = false, full_matrices = full })
            assert.are.same(S.shape, S2.shape)
            assert_small(gdiff(S2, S), tol, label(dt, shape, what .. ": values alone"))
          end
          local S = ga.linalg.svd(a, { compute_uv = false })
          for _, i in ipairs(ends(nb)) do
            local one = ga.linalg.svd(mat(a, i), { compute_uv = false, method = "gesvd" })
            assert_small(gdiff(vec(S, i), one), tol, label(dt, shape, "values vs single path (gesvd)"))
          end
        end
      end)
  end
end)
