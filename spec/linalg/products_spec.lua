-- The products built on matmul and the diagonal family, against Lua loops
-- (lref.einsum is a brute-force sum over every index): vdot, inner, outer,
-- tensordot, kron, trace, diagonal, diag, tril, triu; and einsum on more
-- than 15 subscript strings.
local helper = require "helper"
local R = require "ndref"
local L = require "linalg.lref"
local ga = helper.ga

local function rand(shape, dt)
  dt = dt or "float64"
  local lo, hi = -1, 1
  if R.KIND[dt] == "i" then lo, hi = -9, 9 end
  local M = { shape = shape, data = R.rand_list(R.size(shape), dt, lo, hi) }
  return M, R.to_gpu(M, dt)
end

local function same(got, want, tol, what)
  assert.are.same(want.shape, got.shape, what .. ": shape")
  L.assert_close(R.values(got), want.data, tol, what)
end

describe("linalg: products", function()
  it("einsum checks its subscripts before touching the device", function()
    helper.assert_gaerror(function() ga.einsum(5) end, "einsum: subscripts must be a string")
    helper.assert_gaerror(function() ga.einsum("ij") end, "einsum: no operands")
  end)

  helper.gpu_it("vdot, inner, outer (real and complex)", function()
    local A, a = rand({ 3, 4 }, "complex128")
    local B, b = rand({ 3, 4 }, "complex128")
    local want = 0
    for i = 1, 12 do want = L.add(want, L.mul(L.conj(A.data[i]), B.data[i])) end
    L.assert_close(R.values(ga.vdot(a, b)), { want }, 1e-12, "vdot complex")
    local X, x = rand({ 2, 5 })
    local Y, y = rand({ 3, 5 })
    same(ga.inner(x, y), L.einsum("ik,jk->ij", X, Y), 1e-12, "inner")
    local V, v = rand({ 4 })
    local W, w = rand({ 6 })
    same(ga.outer(v, w), L.einsum("i,j->ij", V, W), 1e-12, "outer")
    local I, ii = rand({ 50 }, "int32")
    local J, jj = rand({ 50 }, "int32")
    assert.are.equal(L.einsum("i,i->", I, J).data[1], ga.inner(ii, jj):item())
  end)

  helper.gpu_it("tensordot with an integer and with axis lists; kron", function()
    local A, a = rand({ 3, 4, 5 })
    local B, b = rand({ 4, 5, 2 })
    same(ga.tensordot(a, b), L.einsum("ijk,jkl->il", A, B), 1e-12, "tensordot 2")
    local C, c = rand({ 5, 3 })
    same(ga.tensordot(a, c, 1), L.einsum("ijk,kl->ijl", A, C), 1e-12, "tensordot 1")
    local D, d = rand({ 5, 3, 2 })
    same(ga.tensordot(a, d, { { 1, 3 }, { 2, 1 } }), L.einsum("ijk,kil->jl", A, D), 1e-12, "tensordot lists")
    same(ga.tensordot(a, d, 0), L.einsum("ijk,lmn->ijklmn", A, D), 1e-12, "tensordot 0")
    local K1, k1 = rand({ 2, 3 }, "int32")
    local K2, k2 = rand({ 4, 2 }, "int32")
    local want = R.build({ 8, 6 }, function(mi)
      local i, j = mi[1] - 1, mi[2] - 1
      return R.get(K1, { i // 4 + 1, j // 2 + 1 }) * R.get(K2, { i % 4 + 1, j % 2 + 1 })
    end)
    local got = ga.kron(k1, k2)
    assert.are.equal("int32", got.dtype)
    same(got, want, 0, "kron")
    helper.assert_gaerror(function() ga.tensordot(a, b, { { 1 }, { 1 } }) end, "tensordot: axis 1")
  end)

  helper.gpu_it("trace, diagonal (a view), diag both ways, with offsets and axes", function()
    local A, a = rand({ 5, 7 })
    for _, k in ipairs({ 0, 2, -3, 9 }) do
      local want = {}
      for i = 1, 5 do
        local j = i + k
        if j >= 1 and j <= 7 then want[#want + 1] = R.get(A, { i, j }) end
      end
      same(ga.diagonal(a, k), { shape = { #want }, data = want }, 0, "diagonal " .. k)
      local s = 0
      for _, v in ipairs(want) do s = s + v end
      L.assert_close({ ga.trace(a, k):item() }, { s }, 1e-12, "trace " .. k)
    end
    local B, b = rand({ 3, 4, 4 })
    same(ga.trace(b, { axis1 = 2, axis2 = 3 }), L.einsum("bii->b", B), 1e-12, "batched trace")
    same(b:diagonal({ axis1 = 2, axis2 = 3 }), L.einsum("bii->bi", B), 0, "batched diagonal")
    local view = ga.diagonal(a)
    view:set(ga.zeros(5))
    assert.are.equal(0, a:totable()[3][3], "diagonal is a view")
    local V, v = rand({ 4 }, "int64")
    local D = ga.diag(v, 1)
    assert.are.same({ 5, 5 }, D.shape)
    same(D, R.build({ 5, 5 }, function(mi) return mi[2] == mi[1] + 1 and V.data[mi[1]] or 0 end), 0, "diag 1-D")
    same(ga.diag(D, 1), V, 0, "diag 2-D")
    helper.assert_gaerror(function() ga.diagonal(v) end, "diagonal: the array needs at least 2 axes")
  end)

  helper.gpu_it("tril and triu with k, batched, keeping the dtype", function()
    for _, dt in ipairs({ "float32", "int32", "complex64" }) do
      local A, a = rand({ 2, 4, 6 }, dt)
      for _, k in ipairs({ 0, 1, -2 }) do
        local lo = ga.tril(a, k)
        local up = ga.triu(a, k)
        assert.are.equal(dt, lo.dtype)
        local zero = R.KIND[dt] == "c" and { 0, 0 } or 0
        same(lo, R.build({ 2, 4, 6 }, function(mi) return mi[3] - mi[2] <= k and R.get(A, mi) or zero end), 0,
          "tril " .. dt .. " " .. k)
        same(up, R.build({ 2, 4, 6 }, function(mi) return mi[3] - mi[2] >= k and R.get(A, mi) or zero end), 0,
          "triu " .. dt .. " " .. k)
      end
    end
  end)

  -- {subscripts, reference subscripts (explicit), operand shapes}
  local EINSUM = {
    { "ij->ji", nil, { { 3, 4 } } },
    { "ii->", nil, { { 4, 4 } } },
    { "ii->i", nil, { { 4, 4 } } },
    { "ij->", nil, { { 3, 5 } } },
    { "ij->j", nil, { { 3, 5 } } },
    { "i,i->", nil, { { 7 }, { 7 } } },
    { "i,j->ij", nil, { { 3 }, { 4 } } },
    { "ij,j->i", nil, { { 3, 5 }, { 5 } } },
    { "ij,jk->ik", nil, { { 3, 5 }, { 5, 2 } } },
    { "ij,kj->ik", nil, { { 3, 5 }, { 4, 5 } } },
    { "bij,bjk->bik", nil, { { 2, 3, 4 }, { 2, 4, 5 } } },
    { "bij,bkj->bik", nil, { { 2, 3, 4 }, { 2, 5, 4 } } },
    { "ijk->kji", nil, { { 2, 3, 4 } } },
    { "ij,ij->ij", nil, { { 3, 4 }, { 3, 4 } } },
    { "ij,ij->", nil, { { 3, 4 }, { 3, 4 } } },
    { "ijk,jk->i", nil, { { 2, 3, 4 }, { 3, 4 } } },
    { "ij,jk,kl->il", nil, { { 2, 3 }, { 3, 4 }, { 4, 2 } } },
    { "iij->j", nil, { { 3, 3, 2 } } },
    { "ijk,ikl->jl", nil, { { 2, 3, 4 }, { 2, 4, 3 } } },
    { "ab,cd->abcd", nil, { { 2, 3 }, { 2, 2 } } },
    { "ij,jk", "ij,jk->ik", { { 3, 4 }, { 4, 2 } } },
    { "ba", "ba->ab", { { 3, 2 } } },
    { "...ij,...jk->...ik", "bij,bjk->bik", { { 3, 2, 4 }, { 3, 4, 2 } } },
    { "i i -> i", "ii->i", { { 3, 3 } } },
    { "bn,anm,bm->ba", nil, { { 2, 3 }, { 4, 3, 5 }, { 2, 5 } } },
  }

  helper.gpu_it("einsum on " .. #EINSUM .. " subscript strings against a Lua loop", function()
    for _, dt in ipairs({ "float64", "int32" }) do
      for _, e in ipairs(EINSUM) do
        local models, arrays = {}, {}
        for i, sh in ipairs(e[3]) do models[i], arrays[i] = rand(sh, dt) end
        local want = L.einsum(e[2] or e[1], table.unpack(models))
        local got = ga.einsum(e[1], table.unpack(arrays))
        assert.are.equal(dt, got.dtype, e[1])
        same(got, want, dt == "int32" and 0 or 1e-12, dt .. " einsum " .. e[1])
      end
    end
  end)

  helper.gpu_it("einsum errors name the cause", function()
    local a = ga.ones({ 2, 3 })
    helper.assert_gaerror(function() ga.einsum("ij,jk->ik", a) end, "einsum: 1 operands for 2 subscript terms")
    helper.assert_gaerror(function() ga.einsum("ijk->i", a) end, "einsum: operand 1 has 2 axes")
    helper.assert_gaerror(function() ga.einsum("ij,ij->i", a, ga.ones({ 3, 2 })) end, "index 'i' has sizes 2 and 3")
    helper.assert_gaerror(function() ga.einsum("ij->z", a) end, "output index 'z'")
  end)
end)

-- issue 26: a letter written twice in one operand without "->" is summed
-- out, as NumPy's implicit output counts every occurrence ("ii" is the
-- trace, not the diagonal); values from NumPy 1.24 on arange inputs
describe("einsum's repeated subscripts", function()
  helper.gpu_it("match NumPy in every implicit and explicit form", function()
    local a = ga.arange(9, "float64"):reshape(3, 3)
    local b = ga.arange(27, "float64"):reshape(3, 3, 3)
    local cases = {
      { "ii", { a }, {}, 12.0 }, { "ii->i", { a }, { 3 }, { 0, 4, 8 } }, { "ii->", { a }, {}, 12.0 },
      { "iij", { b }, { 3 }, { 36, 39, 42 } }, { "iji", { b }, { 3 }, { 30, 39, 48 } },
      { "iii", { b }, {}, 39.0 }, { "iii->i", { b }, { 3 }, { 0, 13, 26 } },
      { "iij->ij", { b }, { 3, 3 }, { { 0, 1, 2 }, { 12, 13, 14 }, { 24, 25, 26 } } },
      { "ij,jj", { a, a }, { 3 }, { 20, 56, 92 } }, { "ii,i", { a, a[1] }, {}, 20.0 },
      { "...ii", { b }, { 3 }, { 12, 39, 66 } }, { "jii", { b }, { 3 }, { 12, 39, 66 } },
      { "...ii->...i", { b }, { 3, 3 }, { { 0, 4, 8 }, { 9, 13, 17 }, { 18, 22, 26 } } },
    }
    for _, c in ipairs(cases) do
      local r = ga.einsum(c[1], table.unpack(c[2]))
      assert.same(c[3], r.shape, c[1] .. " shape")
      local got = r.ndim == 0 and r:item() or r:totable()
      assert.same(c[4], got, c[1])
    end
  end)
end)
