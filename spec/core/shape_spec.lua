-- Broadcasting, axis merging, and index parsing: pure arithmetic on shapes
-- and strides (no GPU).
local helper = require "helper"
local ga = helper.ga
local core = ga._core

describe("broadcast_shapes", function()
  it("follows NumPy's rules", function()
    assert.same({ 2, 3 }, ga.broadcast_shapes({ 2, 1 }, { 3 }))
    assert.same({ 4 }, ga.broadcast_shapes({}, { 4 }))
    assert.same({ 5, 3, 4 }, ga.broadcast_shapes({ 5, 1, 4 }, { 3, 1 }))
    assert.same({ 0 }, ga.broadcast_shapes({ 0 }, { 1 }))
    assert.same({ 2, 0, 3 }, ga.broadcast_shapes({ 2, 1, 3 }, { 0, 1 }))
    assert.same({ 7 }, ga.broadcast_shapes(7))
    assert.same({}, ga.broadcast_shapes({}, {}))
  end)

  it("names the shapes that cannot be broadcast", function()
    helper.assert_gaerror(function() ga.broadcast_shapes({ 2, 3 }, { 4 }) end, "{2,3} and {4} cannot be broadcast")
    helper.assert_gaerror(function() ga.broadcast_shapes({ 0 }, { 2 }) end, "cannot be broadcast")
    helper.assert_gaerror(function() ga.broadcast_shapes({ -1 }) end, "negative dimension")
  end)
end)

describe("axis merging", function()
  it("merges contiguous axes for every operand", function()
    local shape, s1 = core._test.merge_axes({ 2, 3, 4 }, { 48, 16, 4 })
    assert.same({ 24 }, shape)
    assert.same({ 4 }, s1)
    -- a transposed operand keeps the axes apart
    local sh, a, b = core._test.merge_axes({ 3, 4 }, { 16, 4 }, { 4, 12 })
    assert.same({ 3, 4 }, sh)
    assert.same({ 16, 4 }, a)
    assert.same({ 4, 12 }, b)
    -- length-1 axes vanish; broadcast (zero) strides merge with zeros
    sh, a, b = core._test.merge_axes({ 1, 5, 1, 6 }, { 999, 24, 7, 4 }, { 0, 0, 0, 0 })
    assert.same({ 30 }, sh)
    assert.same({ 4 }, a)
    assert.same({ 0 }, b)
    -- negative strides merge too
    sh, a = core._test.merge_axes({ 3, 4 }, { -16, -4 })
    assert.same({ 12 }, sh)
    assert.same({ -4 }, a)
    -- an empty space is left as it is
    sh = core._test.merge_axes({ 3, 0 }, { 0, 4 })
    assert.same({ 3, 0 }, sh)
  end)

  it("agrees with a brute-force enumeration of offsets", function()
    for _ = 1, 50 do
      local nd = math.random(1, 4)
      local shape, st = {}, {}
      for d = 1, nd do shape[d] = math.random(1, 4) end
      -- strides of a random permutation of a C-contiguous block, sometimes sliced
      local acc = 8
      for d = nd, 1, -1 do
        st[d] = acc * (math.random() < 0.3 and 2 or 1) * (math.random() < 0.2 and -1 or 1)
        acc = acc * shape[d] * 2
      end
      local function offsets(sh, s)
        local out = {}
        local idx = {}
        for d = 1, #sh do idx[d] = 0 end
        local total = 1
        for d = 1, #sh do total = total * sh[d] end
        for _ = 1, total do
          local o = 0
          for d = 1, #sh do o = o + idx[d] * s[d] end
          out[#out + 1] = o
          for d = #sh, 1, -1 do
            idx[d] = idx[d] + 1
            if idx[d] < sh[d] then break end
            idx[d] = 0
          end
        end
        return out
      end
      local msh, mst = core._test.merge_axes(shape, st)
      assert.same(offsets(shape, st), offsets(msh, mst))
    end
  end)
end)

describe("index parsing", function()
  local ev, na = ga.ellipsis, ga.newaxis
  local function view(shape, strides, key)
    return core._test.index_view(shape, strides, 8, key)
  end

  it("selects with integers, 1-based and from the end", function()
    local sh, st, off, scalar = view({ 5 }, { 8 }, 2)
    assert.same({}, sh)
    assert.same({}, st)
    assert.equal(8, off)
    assert.is_true(scalar)
    sh, st, off = view({ 5 }, { 8 }, -1)
    assert.equal(32, off)
    sh, st, off, scalar = view({ 3, 4 }, { 32, 8 }, 2)
    assert.same({ 4 }, sh)
    assert.same({ 8 }, st)
    assert.equal(32, off)
    assert.is_false(scalar)
    sh, st, off, scalar = view({ 3, 4 }, { 32, 8 }, { 2, 3 })
    assert.equal(48, off)
    assert.is_true(scalar)
  end)

  it("takes inclusive ranges with steps, including negative ones", function()
    local sh, st, off = view({ 5 }, { 8 }, { { 2, 4 } })
    assert.same({ 3 }, sh); assert.same({ 8 }, st); assert.equal(8, off)
    sh, st, off = view({ 5 }, { 8 }, { { nil, nil, -1 } })
    assert.same({ 5 }, sh); assert.same({ -8 }, st); assert.equal(32, off)
    sh, st, off = view({ 5 }, { 8 }, { { 5, 1, -2 } })
    assert.same({ 3 }, sh); assert.same({ -16 }, st); assert.equal(32, off)
    sh = view({ 5 }, { 8 }, { { 2, 100 } })
    assert.same({ 4 }, sh)
    sh = view({ 5 }, { 8 }, { { 4, 2 } })
    assert.same({ 0 }, sh)
    sh, st, off = view({ 5 }, { 8 }, { { nil, 3 } })
    assert.same({ 3 }, sh); assert.equal(0, off)
    sh, st, off = view({ 5 }, { 8 }, { { -2 } })
    assert.same({ 2 }, sh); assert.equal(24, off)
    sh, st, off = view({ 3, 4 }, { 32, 8 }, { {}, { 2, -1, 2 } })
    assert.same({ 3, 2 }, sh); assert.same({ 32, 16 }, st); assert.equal(8, off)
  end)

  it("matches a brute-force model of ranges", function()
    for _ = 1, 300 do
      local n = math.random(0, 9)
      local step = ({ 1, 2, 3, -1, -2, -3 })[math.random(6)]
      local r = {}
      if math.random() < 0.8 then r[1] = math.random(-n - 2, n + 2) end
      if math.random() < 0.8 then r[2] = math.random(-n - 2, n + 2) end
      r[3] = step
      -- model: walk positions from start by step while inside [1, n] and not past stop
      local function norm(v) return v < 0 and n + 1 + v or v end
      local s = r[1] and norm(r[1]) or (step > 0 and 1 or n)
      local e = r[2] and norm(r[2]) or (step > 0 and n or 1)
      if step > 0 then s = math.max(s, 1); e = math.min(e, n) else s = math.min(s, n); e = math.max(e, 1) end
      local picked = {}
      local p = s
      while (step > 0 and p <= e) or (step < 0 and p >= e) do
        picked[#picked + 1] = p
        p = p + step
      end
      local sh, st, off = view({ n }, { 8 }, { r })
      assert.equal(#picked, sh[1], ("n=%d range {%s,%s,%d}"):format(n, tostring(r[1]), tostring(r[2]), step))
      if #picked > 0 then
        assert.equal((picked[1] - 1) * 8, off)
        assert.equal(step * 8, st[1])
      end
    end
  end)

  it("expands an ellipsis and inserts new axes", function()
    local sh, st, off = view({ 3, 4 }, { 32, 8 }, { ev, 2 })
    assert.same({ 3 }, sh); assert.same({ 32 }, st); assert.equal(8, off)
    sh, st = view({ 3, 4 }, { 32, 8 }, { na, {}, 1 })
    assert.same({ 1, 3 }, sh); assert.same({ 0, 32 }, st)
    sh = view({ 2, 3, 4 }, { 96, 32, 8 }, { 1, ev })
    assert.same({ 3, 4 }, sh)
    sh = view({ 2, 3, 4 }, { 96, 32, 8 }, { ev })
    assert.same({ 2, 3, 4 }, sh)
    local _, _, _, scalar = view({ 5 }, { 8 }, { 2, na })
    assert.is_false(scalar)
    sh = view({}, {}, { na })
    assert.same({ 1 }, sh)
  end)

  it("refuses out-of-range and malformed keys", function()
    helper.assert_gaerror(function() view({ 5 }, { 8 }, 6) end, "index 6 is out of range for axis 1 with size 5")
    helper.assert_gaerror(function() view({ 5 }, { 8 }, -6) end, "out of range")
    helper.assert_gaerror(function() view({ 5 }, { 8 }, 0) end, "out of range")
    helper.assert_gaerror(function() view({ 5 }, { 8 }, { 1, 1 }) end, "too many indices")
    helper.assert_gaerror(function() view({ 5 }, { 8 }, { ev, ev }) end, "one ellipsis")
    helper.assert_gaerror(function() view({ 5 }, { 8 }, { { 1, 2, 0 } }) end, "step cannot be 0")
    helper.assert_gaerror(function() view({ 5 }, { 8 }, { { 1, 2, 1, 4 } }) end, "more than 3")
    helper.assert_gaerror(function() view({ 5 }, { 8 }, { "a" }) end, "unsupported selector")
    helper.assert_gaerror(function() view({ 5 }, { 8 }, 1.5) end, "must be an integer")
  end)
end)
