-- What singular means to the LU routines (issue 24): an exactly zero pivot
-- of the LU of A, as LAPACK under NumPy. solve, inv, det and slogdet share
-- that LU, so they agree: solve and inv raise exactly where det is 0 and
-- slogdet (0, -inf), for a matrix alone and the same matrix in a batch. A
-- tiny pivot that is not zero is no error (as NumPy). Expected values from
-- NumPy 1.24 (in the comments).
local helper = require "helper"
local ga = helper.ga

local DTYPES = { "float32", "float64", "complex64", "complex128" }
-- NumPy: det 0.0, slogdet (0.0, -inf), inv and solve raise "Singular
-- matrix", in every dtype; before the fix inv gave entries near 6e15 and det
-- -6.7e-16 (the LU of A^T)
local M = { { 1, 2, 3 }, { 2, 4, 6 }, { 1, 0, 1 } }

-- a real matrix in dtype dt (a complex dtype's nested tables hold pairs)
local function mk(t, dt) return ga.array(t, "float64"):astype(dt) end
local function show(m)
  local rows = {}
  for i, r in ipairs(m) do rows[i] = "{" .. table.concat(r, ",") .. "}" end
  return "{" .. table.concat(rows, ",") .. "}"
end
local function re(v) return type(v) == "table" and v[1] or v end
local function im(v) return type(v) == "table" and v[2] or 0 end

-- the verdicts of all four routines on the matrix a (n x n) or batch
local function verdicts(a)
  local inv_ok, inv_err = pcall(ga.linalg.inv, a)
  local n = a.shape[a.ndim]
  local b = ga.ones(n, a.dtype)
  local solve_ok, solve_err = pcall(ga.linalg.solve, a, b)
  local det = ga.linalg.det(a)
  local sign, logdet = ga.linalg.slogdet(a)
  return { inv_ok = inv_ok, inv_err = inv_err, solve_ok = solve_ok, solve_err = solve_err,
           det = det:totable(), sign = sign:totable(), logdet = logdet:totable() }
end

describe("linalg: singular matrices (issue 24)", function()
  for _, dt in ipairs(DTYPES) do
    helper.gpu_it(dt .. ": the issue's matrix is singular to solve, inv, det and slogdet, alone and batched", function()
      local a = mk(M, dt)
      local v = verdicts(a)
      assert.is_false(v.inv_ok, dt .. ": inv returned where NumPy raises")
      assert.truthy(tostring(v.inv_err):find("linalg.inv: matrix is singular", 1, true), tostring(v.inv_err))
      assert.is_false(v.solve_ok, dt .. ": solve returned")
      assert.truthy(tostring(v.solve_err):find("linalg.solve: matrix is singular", 1, true), tostring(v.solve_err))
      assert.are.equal(0, re(v.det), dt .. ": det " .. tostring(re(v.det)))
      assert.are.equal(0, im(v.det), dt .. ": det (imaginary part)")
      assert.are.equal(0, re(v.sign), dt .. ": slogdet's sign")
      assert.are.equal(-math.huge, v.logdet, dt .. ": slogdet's logabsdet")
      -- in a batch (the batched LU path), second of three
      local batch = ga.stack({ ga.eye(3, dt), a, ga.multiply(ga.eye(3, dt), 2) })
      local w = verdicts(batch)
      assert.is_false(w.inv_ok, dt .. ": batched inv returned")
      assert.truthy(tostring(w.inv_err):find("matrix is singular (matrix 2 of the batch)", 1, true),
        tostring(w.inv_err))
      assert.is_false(w.solve_ok, dt .. ": batched solve returned")
      assert.truthy(tostring(w.solve_err):find("matrix is singular (matrix 2 of the batch)", 1, true),
        tostring(w.solve_err))
      assert.are.same({ 1, 0, 8 }, { re(w.det[1]), re(w.det[2]), re(w.det[3]) }, dt .. ": batched det")
      assert.are.same({ 1, 0, 1 }, { re(w.sign[1]), re(w.sign[2]), re(w.sign[3]) }, dt .. ": batched sign")
      assert.are.equal(-math.huge, w.logdet[2], dt .. ": batched logdet")
      assert(math.abs(w.logdet[3] - math.log(8)) < 1e-6, dt .. ": logdet of 2I: " .. tostring(w.logdet[3]))
    end)

    helper.gpu_it(dt .. ": the four routines agree on random integer matrices, many singular, alone and in a batch",
      function()
        local n, count, singular = 4, 40, 0
        local mats = {}
        for k = 1, count do
          local rows = {}
          for r = 1, n do
            rows[r] = {}
            for c = 1, n do rows[r][c] = math.random(-3, 3) end
          end
          -- most of them singular: a row that is a sum of two others, or twice another
          if k % 4 ~= 0 then
            local i, j, t = math.random(n), math.random(n), math.random(n)
            for c = 1, n do rows[t][c] = (k % 2 == 0) and rows[i][c] + rows[j][c] or 2 * rows[i][c] end
          end
          mats[k] = rows
        end
        local batch = mk(mats, dt)
        local bdet = ga.linalg.det(batch):totable()
        local bsign, blog = ga.linalg.slogdet(batch)
        bsign, blog = bsign:totable(), blog:totable()
        for k = 1, count do
          local what = ("%s matrix %d %s"):format(dt, k, show(mats[k]))
          local v = verdicts(mk(mats[k], dt))
          local zero = re(v.det) == 0 and im(v.det) == 0
          if zero then singular = singular + 1 end
          assert.are.equal(not zero, v.inv_ok, what .. ": inv raises exactly where det is 0")
          assert.are.equal(not zero, v.solve_ok, what .. ": solve raises exactly where det is 0")
          assert.are.equal(zero, re(v.sign) == 0 and im(v.sign) == 0, what .. ": slogdet's sign 0 exactly there")
          assert.are.equal(zero, v.logdet == -math.huge, what .. ": logabsdet -inf exactly there")
          -- the same matrix in the batch gets the same LU: the same verdict
          assert.are.equal(zero, re(bdet[k]) == 0 and im(bdet[k]) == 0, what .. ": det 0 alone and in the batch")
          assert.are.equal(zero, blog[k] == -math.huge, what .. ": logdet -inf alone and in the batch")
          if not zero then
            assert(math.abs(blog[k] - v.logdet) <= 1e-4 * (1 + math.abs(v.logdet)),
              what .. ": logdet alone and batched")
          end
        end
        assert(singular >= count // 5, ("%s: only %d of %d matrices came out singular"):format(dt, singular, count))
      end)
  end

  helper.gpu_it("a tiny pivot that is not zero is no error (NumPy's rule)", function()
    -- NumPy: det 9.094947017729282e-13 (2^-40), slogdet (1, -27.725887222397812),
    -- inv [[2^40 + 1, -2^40], [-2^40, 2^40]], solve(b = {1, 2}) {-(2^40 - 1), 2^40}
    local B = ga.array({ { 1, 1 }, { 1, 1 + 2 ^ -40 } }, "float64")
    assert.are.equal(2 ^ -40, ga.linalg.det(B):item())
    local s, l = ga.linalg.slogdet(B)
    assert.are.equal(1, s:item())
    assert(math.abs(l:item() - -27.725887222397812) < 1e-12, "logdet " .. l:item())
    assert.are.same({ { 2 ^ 40 + 1, -2 ^ 40 }, { -2 ^ 40, 2 ^ 40 } }, ga.linalg.inv(B):totable())
    assert.are.same({ -(2 ^ 40 - 1), 2 ^ 40 }, ga.linalg.solve(B, ga.array({ 1, 2 }, "float64")):totable())
  end)
end)
