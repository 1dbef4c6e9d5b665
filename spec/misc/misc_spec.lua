-- Misc: shares_memory's exact search against a byte-by-byte reference on
-- random strided layouts, show_config and who (no GPU); byte_bounds,
-- may_share_memory and shares_memory on real views (GPU).
local helper = require "helper"
local ga = helper.ga
local M = require("gpuarray.internal").misc

-- a layout as overlap_exact reads it
local function layout(ptr, shape, strides, isz)
  local n = 1
  for _, v in ipairs(shape) do n = n * v end
  return { data_ptr = ptr, shape = shape, strides = strides, itemsize = isz, size = n }
end
local function bytes(a)
  local set = {}
  local function rec(d, off)
    if d > #a.shape then
      for u = 0, a.itemsize - 1 do set[off + u] = true end
      return
    end
    for i = 0, a.shape[d] - 1 do rec(d + 1, off + i * a.strides[d]) end
  end
  if a.size > 0 then rec(1, a.data_ptr) end
  return set
end

-- What fn prints. The default output is restored whatever fn does: busted
-- writes its report through io.write, so an error left inside fn with the
-- output redirected would swallow the report (the run then looks like a
-- crash: no summary)
local function printed(fn)
  local tmp = io.tmpfile()
  local old = io.output()
  io.output(tmp)
  local ok, err = pcall(fn)
  io.output(old)
  tmp:seek("set")
  local text = tmp:read("a")
  tmp:close()
  if not ok then error(err, 0) end
  return text
end

describe("misc without a device", function()
  it("the exact overlap search agrees with enumerating bytes", function()
    for _ = 1, 2000 do
      local function rnd()
        local nd = math.random(0, 3)
        local shape, strides = {}, {}
        for d = 1, nd do shape[d], strides[d] = math.random(1, 4), math.random(-24, 24) end
        return layout(4096 + math.random(-40, 40), shape, strides, ({ 1, 2, 4, 8 })[math.random(4)])
      end
      local a, b = rnd(), rnd()
      local sa, sb = bytes(a), bytes(b)
      local want = false
      for k in pairs(sa) do if sb[k] then want = true break end end
      assert.equal(want, M.overlap_exact(a, b))
    end
    -- the work limit: nil when exhausted
    local big = layout(0, { 1000, 1000 }, { 7, 1009 }, 8)
    local other = layout(3, { 1000 }, { 1013 }, 8)
    local r = M.overlap_exact(big, other, 1)
    assert.is_true(r == nil or r == true or r == false)
  end)

  it("show_config returns or prints the configuration; who prints arrays", function()
    local c = ga.show_config("dicts")
    assert.equal(ga.version, c.gpuarray.version)
    assert.equal(_VERSION, c.lua.version)
    assert.is_string(c.cuda.runtime)
    local text = printed(function()
      ga.show_config()
      ga.who({})
    end)
    assert.truthy(text:find("runtime:", 1, true), text)
    assert.truthy(text:find("Upper bound on total bytes  =       0", 1, true), text)
    -- a table of names is who's vardict, never an options table
    text = printed(function() ga.who({ x = 1, name = "not an array" }) end)
    assert.truthy(text:find("Upper bound on total bytes  =       0", 1, true), text)
    helper.assert_gaerror(function() ga.who(5) end, "who: vardict must be")
    helper.assert_gaerror(function() ga.show_config("json") end, "show_config: mode must be")
  end)
end)

describe("misc on the GPU", function()
  helper.gpu_it("byte_bounds, may_share_memory and shares_memory on views", function()
    local x = ga.zeros({ 4, 6 }, "float32")
    local lo, hi = ga.byte_bounds(x)
    assert.equal(x.data_ptr, lo)
    assert.equal(x.data_ptr + 96, hi)
    local a, b = x[{ {}, { 1, 3 } }], x[{ {}, { 4, 6 } }]
    assert.is_true(ga.may_share_memory(a, b))
    assert.is_false(ga.shares_memory(a, b))
    assert.is_true(ga.shares_memory(a, x))
    local even, odd = x[{ {}, { 1, nil, 2 } }], x[{ {}, { 2, nil, 2 } }]
    assert.is_false(ga.shares_memory(even, odd))
    assert.is_true(ga.may_share_memory(even, odd, 0))
    assert.is_false(ga.may_share_memory(x, ga.zeros(3)))
    assert.is_false(ga.shares_memory(x, 1))
    local rlo, rhi = ga.byte_bounds(ga.flip(x, 1))
    assert.equal(lo, rlo)
    assert.equal(hi, rhi)
    local text = printed(function() ga.who({ x = x, y = a, z = x }) end)
    assert.truthy(text:find("4 x 6", 1, true), text)
    assert.truthy(text:find("4 x 3", 1, true), text)
    assert.truthy(text:find("float32", 1, true), text)
    assert.truthy(text:find("z (x)", 1, true), text)   -- the same array counted once
    assert.truthy(text:find("Upper bound on total bytes  =       144", 1, true), text)
  end)
end)
