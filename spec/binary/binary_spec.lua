-- Bit operations: binary_repr and base_repr against NumPy's answers, the
-- kernels' compile (no GPU); packbits/unpackbits (axes, bitorder, count)
-- and bitwise_count against Lua references on random data (GPU).
local helper = require "helper"
local ga = helper.ga
local internal = require "gpuarray.internal"

local function flat(x) return helper.flatten(x:totable()) end

describe("bit operations without a device", function()
  it("binary_repr and base_repr give NumPy's strings", function()
    -- python3 -c "import numpy as np; print(np.binary_repr(...))" for each
    local cases = {
      { 0, nil, "0" }, { 0, 4, "0000" }, { 5, nil, "101" }, { 5, 8, "00000101" }, { -5, nil, "-101" },
      { -5, 8, "11111011" }, { -4, 3, "100" }, { -1, 1, "1" }, { -128, 8, "10000000" },
      { 255, 8, "11111111" }, { math.maxinteger, nil, ("1"):rep(63) },
      { math.mininteger, nil, "-1" .. ("0"):rep(63) }, { math.mininteger, 64, "1" .. ("0"):rep(63) },
    }
    for _, c in ipairs(cases) do
      assert.equal(c[3], ga.binary_repr(c[1], c[2]), tostring(c[1]) .. " " .. tostring(c[2]))
    end
    helper.assert_gaerror(function() ga.binary_repr(5, 2) end, "insufficient bit width")
    helper.assert_gaerror(function() ga.binary_repr(1.5) end, "binary_repr: num must be an integer")
    local b = {
      { 0, 2, 0, "0" }, { 5, 2, 0, "101" }, { -5, 7, 0, "-5" }, { 255, 7, 0, "513" }, { -128, 36, 3, "-0003K" },
      { 35, 36, 0, "Z" }, { 10, 10, 2, "0010" }, { -7.9, 2, 0, "-111" },
      { math.maxinteger, 36, 3, "0001Y2P0IJ32E8E7" }, { math.mininteger, 36, 0, "-1Y2P0IJ32E8E8" },
    }
    for _, c in ipairs(b) do
      assert.equal(c[4], ga.base_repr(c[1], c[2], c[3]), tostring(c[1]))
    end
    assert.equal("11", ga.base_repr(3))
    helper.assert_gaerror(function() ga.base_repr(5, 37) end, "greater than 36")
    helper.assert_gaerror(function() ga.base_repr(5, 1) end, "less than 2")
    -- 'resulting string too large', a plain Lua error (fuzz decl seed 20261127)
    helper.assert_gaerror(function() ga.base_repr({ number = 12, padding = 4611686018427387904 }) end,
                          "base_repr: padding = 4611686018427387904 is more than the 16777216 characters")
    helper.assert_gaerror(function() ga.binary_repr(31, 4294967296) end,
                          "binary_repr: width = 4294967296 is more than the 16777216 characters")
    assert.equal(("0"):rep(16777211) .. "11111", ga.binary_repr(31, 16777216))
  end)

  it("the kernels compile for every integer dtype", function()
    local k = internal.binary_kernels
    for _, dt in ipairs({ "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64" }) do
      k("bitwise_count"):compile(dt, "uint8")
    end
    k("pack"):compile("bool", "int64", "int64", "bool", "uint8")
    k("unpack"):compile("uint8", "int64", "int64", "bool", "uint8")
  end)

  it("names the Array API's bitwise ufuncs", function()
    assert.equal(ga.invert, ga.bitwise_invert)
    assert.equal(ga.left_shift, ga.bitwise_left_shift)
    assert.equal(ga.right_shift, ga.bitwise_right_shift)
  end)
end)

-- Lua references
local function pack_ref(bits, little)
  local out = {}
  for k = 1, #bits, 8 do
    local v = 0
    for j = 0, 7 do
      if bits[k + j] then v = v | (little and (1 << j) or (0x80 >> j)) end
    end
    out[#out + 1] = v
  end
  return out
end

describe("bit operations on the GPU", function()
  helper.gpu_it("packbits and unpackbits along axes, both bit orders, with count", function()
    for _, little in ipairs({ false, true }) do
      local order = little and "little" or "big"
      local t = helper.random_table({ 3, 13 }, function() return math.random(0, 2) end)
      local x = ga.array(t, "int32")
      -- flattened
      local bits = {}
      for i, v in ipairs(flat(x)) do bits[i] = v ~= 0 end
      local p = ga.packbits(x, nil, order)
      assert.equal("uint8", p.dtype)
      helper.assert_same(pack_ref(bits, little), flat(p), nil, order)
      -- along the last axis: per row
      local pr = ga.packbits(x, -1, order)
      assert.same({ 3, 2 }, pr.shape)
      for r = 1, 3 do
        local rb = {}
        for c = 1, 13 do rb[c] = t[r][c] ~= 0 end
        helper.assert_same(pack_ref(rb, little), pr:totable()[r])
      end
      -- along the first axis
      local pc = ga.packbits(ga.array(t, "bool"), 1, order)
      assert.same({ 1, 13 }, pc.shape)
      -- unpack inverts (within the padding)
      local u = ga.unpackbits(pr, 2, nil, order)
      assert.same({ 3, 16 }, u.shape)
      for r = 1, 3 do
        for c = 1, 13 do assert.equal(t[r][c] ~= 0 and 1 or 0, u:totable()[r][c]) end
      end
      local uc = ga.unpackbits(pr, 2, 13, order)
      assert.same({ 3, 13 }, uc.shape)
      assert.same({ 3, 20 }, ga.unpackbits(pr, 2, 20, order).shape)
      assert.same({ 3, 10 }, ga.unpackbits(pr, 2, -6, order).shape)
    end
    local b = ga.unpackbits(ga.array({ 1, 128 }, "uint8"))
    helper.assert_same({ 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0 }, flat(b))
    helper.assert_gaerror(function() ga.unpackbits(ga.zeros(2, "int8")) end, "unsigned byte")
    helper.assert_gaerror(function() ga.packbits(ga.zeros(2)) end, "integer or boolean")
    assert.same({ 0 }, ga.packbits(ga.zeros(0, "bool")).shape)
  end)

  helper.gpu_it("bitwise_count counts the bits of |x| (uint8), every integer dtype", function()
    local function popcount(v)
      if v < 0 then v = -v end
      local c = 0
      while v ~= 0 do
        c = c + (v & 1)
        v = v >> 1
      end
      return c
    end
    for _, dt in ipairs({ "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32" }) do
      local bits = tonumber(dt:match("%d+"))
      local hi = bits >= 32 and 1 << 30 or (dt:match("^u") and (1 << bits) - 1 or (1 << (bits - 1)) - 1)
      local lo = dt:match("^u") and 0 or -hi - 1
      local x = ga.array(helper.random_table({ 50 }, function() return math.random(lo, hi) end), dt)
      local want = {}
      for i, v in ipairs(flat(x)) do want[i] = popcount(v) end
      local got = ga.bitwise_count(x)
      assert.equal("uint8", got.dtype)
      helper.assert_same(want, flat(got), nil, dt)
    end
    helper.assert_same({ 1, 1, 1, 0 }, flat(ga.bitwise_count(ga.array({ math.mininteger, -1, 1, 0 }, "int64"))))
    helper.assert_same({ 1, 0 }, flat(ga.bitwise_count(ga.array({ true, false }))))
    helper.assert_gaerror(function() ga.bitwise_count(ga.ones(2)) end, "not supported for the input type float64")
  end)
end)
