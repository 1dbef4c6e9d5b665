-- astype over all 196 dtype pairs against C casting done in Lua, through
-- the flat, strided and tiled copy kernels. GPU only.
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it
local BF = require "spec.bf16.bfref"

local NAMES = ga.dtype_names()
local BITS = { int8 = 8, int16 = 16, int32 = 32, int64 = 64, uint8 = 8, uint16 = 16, uint32 = 32, uint64 = 64 }
local RANGE = {
  int8 = { -128, 127 }, int16 = { -32768, 32767 }, int32 = { -2147483648, 2147483647 },
  int64 = { -(1 << 53), 1 << 53 }, uint8 = { 0, 255 }, uint16 = { 0, 65535 },
  uint32 = { 0, 4294967295 }, uint64 = { 0, 1 << 53 },
}

local function kind(dt) return ga.dtype(dt).kind end

-- Integer wrap to a width, as C conversions do on two's complement machines;
-- uint64 results past Lua's integers come back as the nearest float.
local function wrap(v, to)
  local bits = BITS[to]
  if bits == 64 then
    if to == "uint64" and v < 0 then return v + 2.0 ^ 64 end
    return v
  end
  local m = v % (1 << bits)
  if kind(to) == "i" and m >= (1 << (bits - 1)) then m = m - (1 << bits) end
  return m
end

local function round_to(v, to)
  if to == "float16" then return helper.to_half(v) end
  -- bfloat16: one rounding of the value, integers exactly (API.md §17)
  if to == "bfloat16" then return math.type(v) == "integer" and BF.round_int(v) or BF.round(v) end
  if to == "float32" or to == "complex64" then return helper.to_f32(v) end
  return v + 0.0
end

-- C casting of one Lua value (as totable gives it for dtype from) to dtype to
local function cast(v, from, to)
  local fk, tk = kind(from), kind(to)
  local re, im = v, 0
  if fk == "c" then re, im = v[1], v[2] end
  if fk == "b" then re = v and 1 or 0 end
  if tk == "b" then return re ~= 0 or im ~= 0 end
  if tk == "c" then return { round_to(re, to), round_to(im + 0.0, to) } end
  if tk == "f" then return round_to(re, to) end
  -- to an integer type: floats truncate toward zero (values chosen in range)
  if math.type(re) == "float" then
    local t = re < 0 and math.ceil(re) or math.floor(re)
    return math.tointeger(t)
  end
  return wrap(re, to)
end

-- Values of dtype from whose cast to dtype to is defined in C
local function sample(from, to, n)
  local fk, tk = kind(from), kind(to)
  local vals = {}
  for i = 1, n do
    local v
    if fk == "b" then
      v = math.random() < 0.5
    elseif fk == "i" or fk == "u" then
      local r = RANGE[from]
      v = math.random(r[1], r[2])
    else
      local lo = tk == "u" and 0 or -120
      local x = lo + math.random() * (250 - (tk == "u" and 0 or 130))
      if math.random() < 0.2 then x = math.floor(x) + ({ 0.5, 0.25, 0.75 })[math.random(3)] end
      if tk == "i" and BITS[to] == 8 then x = math.max(-127.5, math.min(127.5, x)) end
      x = round_to(x, from == "complex64" and "float32" or (from == "complex128" and "float64" or from))
      if fk == "c" then
        v = { x, round_to((math.random() - 0.5) * 50, from == "complex64" and "float32" or "float64") }
        if i == 1 then v = { 0.0, 0.0 } end
        if i == 2 then v = { 0.0, 1.5 } end
      else
        v = x
        if i == 1 then v = 0.0 end
      end
    end
    vals[i] = v
  end
  -- specials where every target defines them
  if (fk == "f" or fk == "c") and (tk == "f" or tk == "c" or tk == "b") then
    local specials = { math.huge, -math.huge, 0 / 0, -0.0 }
    for k, s in ipairs(specials) do
      vals[#vals - k + 1] = fk == "c" and { s, 1.0 } or s
    end
  end
  return vals
end

local function check(expected, got, ctx)
  local ok, why = helper.same(expected, got)
  assert(ok, ctx .. ": " .. tostring(why))
end

describe("astype", function()
  gpu_it("casts every one of the 196 dtype pairs like C", function()
    for _, from in ipairs(NAMES) do
      for _, to in ipairs(NAMES) do
        local vals = sample(from, to, 37)
        local x = ga.array(vals, from)
        local y = x:astype(to)
        assert.equal(to, y.dtype)
        assert.same({ 37 }, y.shape)
        local expected = {}
        for i, v in ipairs(x:totable()) do expected[i] = cast(v, from, to) end
        check(expected, y:totable(), from .. " -> " .. to)
      end
    end
  end)

  gpu_it("casts through strided and transposing layouts", function()
    for _, from in ipairs(NAMES) do
      for _, to in ipairs(NAMES) do
        local rows, cols = 33, 20
        local flat = sample(from, to, rows * cols)
        local t = {}
        for r = 1, rows do
          t[r] = {}
          for c = 1, cols do t[r][c] = flat[(r - 1) * cols + c] end
        end
        local x = ga.array(t, from)
        local back = x:totable()
        -- a transposed read (tiled kernel) and a stepped, reversed read (strided kernel)
        local tt = x.T:astype(to):totable()
        local st = x[{ { nil, nil, -2 }, { 2, -1, 3 } }]:astype(to):totable()
        for c = 1, cols do
          for r = 1, rows do
            check(cast(back[r][c], from, to), tt[c][r], ("%s -> %s (T)[%d][%d]"):format(from, to, c, r))
          end
        end
        for i, r in ipairs({ 33, 31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1 }) do
          for j, c in ipairs({ 2, 5, 8, 11, 14, 17, 20 }) do
            check(cast(back[r][c], from, to), st[i][j], ("%s -> %s (strided)"):format(from, to))
          end
        end
        -- into an existing non-contiguous destination: set casts too
        local dst = ga.zeros({ cols, rows }, to)
        dst:set(x.T)
        check(tt, dst:totable(), from .. " -> " .. to .. " (set)")
      end
    end
  end)

  gpu_it("astype with copy=false returns the same array for the same dtype", function()
    local x = ga.arange(5, "int32")
    assert.equal(x, x:astype("int32", { copy = false }))
    assert.are_not.equal(x, x:astype("int32"))
    assert.equal(x, ga.asarray(x))
    assert.are_not.equal(x, ga.array(x))
  end)
end)
