--- distance_transform_edt's passes: the shared-memory line kernel of every
-- variant compiles (CPU), its sizes are what its source lays out, and on
-- the GPU random masks (1-3 d, dense and sparse background, sampling, lines
-- longer than a block, past 48 KiB of shared memory, and past the line
-- kernel to the global-memory pass) against a brute-force reference in Lua.
local helper = require "helper"
local ga = helper.ga
local nd = ga.scipy.ndimage
local Line = require "gpuarray.scipy.ndimage.distance_line"

--- the exact squared distances and the zeros' positions of a mask given
-- as a flat Lua list of booleans (true: feature) in C order
local function brute(mask, shape, samp)
  local N, total = #shape, #mask
  local strides = {}
  local s = 1
  for d = N, 1, -1 do strides[d] = s; s = s * shape[d] end
  local function pos(i)
    local p, r = {}, i - 1
    for d = 1, N do p[d] = r // strides[d]; r = r % strides[d] end
    return p
  end
  local zeros = {}
  for i = 1, total do if not mask[i] then zeros[#zeros + 1] = pos(i) end end
  local best = {}
  for i = 1, total do
    local p, b = pos(i), math.huge
    for _, z in ipairs(zeros) do
      local acc = 0
      for d = 1, N do
        local dd = (p[d] - z[d]) * samp[d]
        acc = acc + dd * dd
      end
      if acc < b then b = acc end
    end
    best[i] = b
  end
  return best, pos
end

local function check(shape, density, samp, what)
  local total = 1
  for _, n in ipairs(shape) do total = total * n end
  local mask = {}
  for i = 1, total do mask[i] = math.random() >= density end
  local s = {}
  for d = 1, #shape do s[d] = samp and samp[d] or 1.0 end
  local want, pos = brute(mask, shape, s)
  local m = ga.array(mask, "bool"):reshape(shape)
  local dist, ind = nd.distance_transform_edt(m, samp, true, true)
  local dt, it = dist:reshape(-1):totable(), ind:reshape(#shape, -1):totable()
  local only = nd.distance_transform_edt(m, samp):reshape(-1):totable()
  for i = 1, total do
    local w = math.sqrt(want[i])
    local tag = ("%s: shape {%s} element %d (0-based %s)"):format(what, table.concat(shape, ","), i,
                                                                  table.concat(pos(i), ","))
    if w == math.huge then
      assert(dt[i] == math.huge and only[i] == math.huge, tag .. ": no zero, want inf, got " .. dt[i])
      for d = 1, #shape do assert(it[d][i] == 0, tag .. ": no zero, want index 0 (1-based -1)") end
    else
      assert(math.abs(dt[i] - w) <= 1e-12 * math.max(1, w), ("%s: distance %.17g, want %.17g"):format(tag, dt[i], w))
      assert(only[i] == dt[i], ("%s: without indices %.17g, with %.17g"):format(tag, only[i], dt[i]))
      -- the index names a zero at that distance (ties may name any)
      local flat, acc = 0, 0
      local p = pos(i)
      for d = #shape, 1, -1 do
        local stride = 1
        for e = d + 1, #shape do stride = stride * shape[e] end
        flat = flat + (it[d][i] - 1) * stride
        local dd = (it[d][i] - 1 - p[d]) * s[d]
        acc = acc + dd * dd
      end
      assert(not mask[flat + 1], tag .. ": the index does not name a zero")
      assert(math.abs(math.sqrt(acc) - w) <= 1e-12 * math.max(1, w), tag .. ": the index is not a nearest zero")
    end
  end
end

describe("scipy.ndimage.distance_transform_edt passes", function()
  it("compiles every variant of the line kernel", function()
    for _, first in ipairs({ true, false }) do
      for _, N in ipairs({ false, 1, 2, 3 }) do
        for _, root in ipairs({ true, false }) do
          assert.is_not_nil(nd._edt_line_kernel(first, N or nil, root).k)
        end
      end
    end
  end)

  it("sizes blocks and shared memory as the source lays them out", function()
    assert.equal(32, Line.threads(1))
    assert.equal(64, Line.threads(33))
    assert.equal(256, Line.threads(2048))
    -- 8 (f) + 4 + 4 (least f) + 2 + 2 (nearest finite) bytes a position,
    -- 8-aligned, then four ints or floats per thread
    assert.equal(8 * (2 * 2048 + 1024) + 16 * 256, Line.shared_bytes(2048, 256))
    assert(Line.shared_bytes(2048, 256) <= 48 * 1024, "the bench's 2048 lines fit without an opt-in")
    assert.equal(8 * (2 * 7 + 4) + 16 * 32, Line.shared_bytes(7, 32))
  end)

  helper.gpu_it("matches a brute-force reference on random masks", function()
    check({ 37, 23 }, 0.02, nil, "2-d, 2% zeros")
    check({ 37, 23 }, 0.5, nil, "2-d, half zeros")
    check({ 31, 29 }, 0.01, { 2.0, 0.5 }, "2-d sampling")
    check({ 9, 7, 5 }, 0.05, { 1.0, 1.3, 0.7 }, "3-d sampling")
    check({ 300 }, 0.01, nil, "1-d longer than a block")
    check({ 3, 600 }, 0.003, nil, "lines of 600")
    check({ 5, 6 }, 0.0, nil, "no zero")
  end)

  helper.gpu_it("lines past 48 KiB of shared memory and past the line kernel", function()
    -- 4000: 84 KiB of shared memory (the opt-in); 70000: the global pass
    for _, n in ipairs({ 4000, 70000 }) do
      local x = ga.ones(n, "bool")
      x[{ 3 }] = false
      x[{ n - 100 }] = false
      local d, i = nd.distance_transform_edt(x, nil, true, true)
      local dt, it = d:totable(), i:reshape(-1):totable()
      for _, q in ipairs({ 1, 2, 3, 4, (n - 97) // 2 + 1, (n - 97) // 2 + 2, n - 100, n }) do
        local z = (q - 3 <= n - 100 - q) and 3 or n - 100
        local want = math.abs(q - z)
        assert(dt[q] == want, ("n %d: element %d distance %s, want %d"):format(n, q, dt[q], want))
        assert(it[q] == z, ("n %d: element %d index %d, want %d"):format(n, q, it[q], z))
      end
    end
  end)
end)
