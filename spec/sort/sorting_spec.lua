-- The sorting room's declared forms and its newer routines: msort,
-- sort_complex, nanargmax/nanargmin, flatnonzero, extract, searchsorted's
-- sorter and method form, x:partition; against Lua references (GPU), the
-- declarations' errors without a device.
local helper = require "helper"
local ga = helper.ga
local R = require "spec.sort.sref"

-- one Lua value an element: complex elements stay {re, im} pairs
local function flat(x) return x:ravel():totable() end

describe("sorting without a device", function()
  it("checks its arguments through the declarations", function()
    helper.assert_gaerror(function() ga.sort({ 1 }, true) end, "sort: axis must be an integer or false")
    helper.assert_gaerror(function() ga.sort({ 1 }, { kind = "bubble" }) end, "sort: kind must be")
    helper.assert_gaerror(function() ga.argsort({ 1 }, { axes = 1 }) end, "did you mean 'axis'")
    helper.assert_gaerror(function() ga.searchsorted({ 1 }, 1, "middle") end, "side must be")
    helper.assert_gaerror(function() ga.lexsort({}) end, "at least one key")
    helper.assert_gaerror(function() ga.partition({ 1 }) end, "partition: missing argument 'kth'")
    helper.assert_gaerror(function() ga.nanargmax({ 1 }, { keepdim = true }) end, "did you mean 'keepdims'")
    helper.assert_gaerror(function() ga.extract({ 1 }) end, "extract: missing argument 'arr'")
    assert.truthy(ga.help(ga.searchsorted):find("1-based", 1, true))
    assert.truthy(ga.help("ndarray:sort"):find("in place", 1, true))
  end)
end)

describe("sorting on the GPU", function()
  helper.gpu_it("msort sorts along the first axis; sort_complex gives NumPy's complex dtypes", function()
    local t = helper.random_table({ 5, 4 }, R.gen("float32"))
    local x = ga.array(t, "float32")
    helper.assert_same(R.along(flat(x), { 5, 4 }, 1, R.sort), flat(ga.msort(x)))
    for dt, want in pairs({ int8 = "complex64", uint16 = "complex64", int32 = "complex128",
                            float32 = "complex128", float64 = "complex128", complex64 = "complex64" }) do
      local y = ga.array(helper.random_table({ 3, 6 }, R.gen(dt)), dt)
      local s = ga.sort_complex(y)
      assert.equal(want, s.dtype, dt)
      local vals = flat(y)
      local ref = R.along(vals, { 3, 6 }, 2, R.sort)
      local got = flat(s)
      -- the values are exact (float32 and smaller in complex64 or
      -- complex128): equal parts, NaN equal to NaN, infinities included
      for k, v in ipairs(ref) do
        local pair = type(v) == "table" and v or { v, 0 }
        for p = 1, 2 do
          local a, b = pair[p], got[k][p]
          assert((a ~= a and b ~= b) or a == b,
                 ("%s: element %d part %d: got %s, want %s"):format(dt, k, p, tostring(b), tostring(a)))
        end
      end
    end
  end)

  helper.gpu_it("nanargmax/nanargmin skip NaNs (1-based), raise on an all-NaN slice", function()
    local nan = 0 / 0
    local x = ga.array({ { nan, 3, 1, nan }, { 2, nan, 5, 5 }, { -1, -1, nan, 0 } })
    assert.equal(7, ga.nanargmax(x):item())        -- flat: row 2, first 5
    assert.equal(9, ga.nanargmin(x):item())        -- flat: row 3, first -1
    helper.assert_same({ 2, 3, 4 }, flat(ga.nanargmax(x, 2)))
    helper.assert_same({ 3, 1, 1 }, flat(ga.nanargmin(x, -1)))
    helper.assert_same({ 2, 1, 2, 2 }, flat(ga.nanargmax(x, { axis = 1 })))
    assert.same({ 3, 1 }, ga.nanargmax(x, 2, nil, { keepdims = true }).shape)
    helper.assert_gaerror(function() ga.nanargmax(ga.array({ { 1, 2 }, { nan, nan } }), 2) end, "All-NaN slice")
    assert.equal(2, ga.nanargmax(ga.array({ 3, 7, 7 }, "int16")):item())
    local c = ga.array({ { nan, 0 }, { 1, 5 }, { 1, 2 } }, "complex64")
    assert.equal(2, ga.nanargmax(c):item())
    assert.equal(3, ga.nanargmin(c):item())
  end)

  helper.gpu_it("flatnonzero and extract give 1-based positions and values", function()
    local t = helper.random_table({ 4, 6 }, function() return math.random(-1, 1) end)
    local x = ga.array(t, "int32")
    local v = flat(x)
    local pos, vals = {}, {}
    for k, e in ipairs(v) do
      if e ~= 0 then
        pos[#pos + 1] = k
        vals[#vals + 1] = e * 10
      end
    end
    local fz = ga.flatnonzero(x)
    assert.equal("int64", fz.dtype)
    helper.assert_same(pos, flat(fz))
    helper.assert_same(vals, flat(ga.extract(x, x * 10)))
    helper.assert_same(vals, flat(ga.extract(ga.not_equal(x, 0), x * 10)))
    -- a shorter condition reads the first elements; a longer one must be zero past arr
    helper.assert_same({ 2 }, flat(ga.extract(ga.array({ false, true }), ga.array({ 1, 2, 3 }))))
    helper.assert_same({ 1 }, flat(ga.extract(ga.array({ 1, 0, 0, 0 }), ga.array({ 1, 2 }))))
    helper.assert_gaerror(function() ga.extract(ga.array({ 0, 0, 1 }), ga.array({ 1, 2 })) end, "past arr")
    assert.same({ 0 }, ga.flatnonzero(ga.zeros({ 2, 3 })).shape)
  end)

  helper.gpu_it("searchsorted with sorter and as a method; x:partition in place; kinds accepted", function()
    local a = ga.array({ 30, 10, 20, 40 }, "float32")
    local order = ga.argsort(a)
    helper.assert_same({ 1, 2, 4, 5 }, flat(ga.searchsorted(a, ga.array({ 5, 15, 35, 45 }), "left", order)))
    helper.assert_same({ 3 }, flat(ga.sort(a):searchsorted(ga.array({ 25 }))))
    helper.assert_gaerror(function() ga.searchsorted(a, 1, "left", ga.array({ 1, 2 })) end, "sorter must be 1-D")
    local p = ga.array({ 5, 1, 4, 2, 3 })
    assert.equal(p, p:partition(2))
    assert.equal(2, p[2])
    helper.assert_same(flat(ga.sort(a)), flat(ga.sort(a, -1, "stable")))
    helper.assert_same(flat(ga.argsort(a)), flat(ga.argsort(a, { kind = "mergesort", stable = true })))
    helper.assert_same({ 10, 20, 30, 40 }, flat(ga.sort(a:reshape(2, 2), false)))
  end)
end)
