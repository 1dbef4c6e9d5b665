-- pad: every mode against a Lua model of NumPy 2's algorithm
-- (spec/manipulation/padref.lua, checked against NumPy on 1200 random
-- cases when written), per-axis widths and values, pads longer than the
-- axis, the gather kernel and the view path, non-contiguous inputs.
-- CI (no GPU): the closed forms of the kernel against the model, the
-- kernels' NVRTC compiles, argument errors and empty shapes.
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it
local R = require "ndref"
local P = require "spec.manipulation.padref"
local internal = require "gpuarray.internal"
local gather = require "gpuarray.manipulation.pad_gather"
local pad_rows = require "gpuarray.manipulation.pad_rows"

-- the closed forms of pad_gather.lua, in Lua (0-based t, n elements)
local CLOSED = {
  reflect = function(t, n)
    if t >= 0 and t < n then return t end
    if n == 1 then return 0 end
    local p = 2 * (n - 1)
    if t < 0 then t = -t end
    if t >= n then t = t % p if t >= n then t = p - t end end
    return t
  end,
  symmetric = function(t, n)
    if t >= 0 and t < n then return t end
    if t < 0 then t = -1 - t end
    if t >= n then local p = 2 * n t = t % p if t >= n then t = p - 1 - t end end
    return t
  end,
  wrap = function(t, n) return t % n end,
  edge = function(t, n) return t < 0 and 0 or (t >= n and n - 1 or t) end,
}

-- pad_rows.lua's kernel, thread by thread in Lua: which source element
-- (its offset from x's element 0, in elements) each output element reads.
-- estrides: the input's strides in elements; xbase, ybase: the element
-- addresses of x's element 0 and y's (their 16-byte alignment decides
-- which vectors load whole). Raises where an element is written twice.
local function emulate_rows(shape, estrides, size, widths, mode, xbase, ybase)
  local bstrides = {}
  for d, st in ipairs(estrides) do bstrides[d] = st * size end
  local p = pad_rows.plan(shape, bstrides, size, widths, mode)
  if not p then return nil end
  local f = CLOSED[mode]
  local V = 16 // size
  local tiles, per_row, W, n, b = table.unpack(p.args, 1, 5)
  local span = pad_rows.U * p.block
  local out = {}
  for tile = 0, tiles - 1 do
    local r = tile // per_row
    local seg = tile - r * per_row
    local q, src = r, 0
    for d = p.nouter - 1, 0, -1 do
      local nd, bd, od, sd = table.unpack(p.args, 6 + 4 * d, 9 + 4 * d)
      local c = q
      if d > 0 then c, q = q % od, q // od end
      src = src + f(c - bd, nd) * sd
    end
    local yr = ybase + r * W
    local h = math.min(W, ((16 - (yr * size) % 16) % 16) // size)
    local nv = (W - h) // V
    local function put(c, from)
      local i = r * W + c
      assert(out[i] == nil, ("output %d written twice"):format(i))
      out[i] = from
    end
    if seg == 0 then
      for c = 0, h - 1 do put(c, src + f(c - b, n)) end
      for c = h + nv * V, W - 1 do put(c, src + f(c - b, n)) end
    end
    for t = 0, p.block - 1 do
      for u = 0, pad_rows.U - 1 do
        local k = seg * span + t + u * p.block
        if k < nv then
          local t0 = h + k * V - b
          local whole = t0 >= 0 and t0 <= n - V and ((xbase + src + t0) * size) % 16 == 0
          for j = 0, V - 1 do put(h + k * V + j, src + (whole and t0 + j or f(t0 + j, n))) end
        end
      end
    end
  end
  return out, p
end

local function line_model(n, b, a, mode)
  local A = R.build({ n }, function(mi) return mi[1] * 10 end)
  return P.pad(A, { { b, a } }, mode, {}, "int64").data
end

describe("pad without a device", function()
  it("the kernel's closed forms give NumPy's values wherever pad takes the kernel", function()
    local closed, total = 0, 0
    for _, mode in ipairs { "reflect", "symmetric", "wrap" } do
      for n = 1, 7 do
        for b = 0, 16 do
          for a = 0, 16 do
            local model = line_model(n, b, a, mode)
            local ok = mode == "wrap" or internal.pad_reflect_closed(n, b, a, mode == "symmetric")
            total = total + 1
            if ok then
              closed = closed + 1
              for o = 1, n + b + a do
                local want = model[o]
                local got = (CLOSED[mode](o - 1 - b, n) + 1) * 10
                assert(want == got, ("%s n=%d pad (%d, %d): position %d is %s, the model says %s")
                  :format(mode, n, b, a, o, got, want))
              end
            end
          end
        end
      end
    end
    -- most cases take the kernel; NumPy's chunked reflections of long pads do not
    assert.is_true(closed > total * 0.9, closed .. " of " .. total)
    assert.is_false(internal.pad_reflect_closed(3, 1, 8, false))
    assert.is_true(internal.pad_reflect_closed(3, 2, 2, false))
  end)

  it("compiles the gather kernels with NVRTC (modes, dimensions, dtypes)", function()
    local function compile(nd, mode, dtype)
      local k = gather.kernel(ga, nd, mode)
      local types, scalar = { dtype }, {}
      for _ = 1, nd do
        types[#types + 1] = "int64"
        scalar[#types] = true
        types[#types + 1] = "int64"
        scalar[#types] = true
      end
      if mode == "constant" then
        for _ = 1, 2 * nd do
          types[#types + 1] = dtype
          scalar[#types] = true
        end
      end
      types[#types + 1] = dtype
      local src, opts = ga._core._test.elementwise_kernel_source(k, {
        types = types, scalar = scalar, raw_nd = { nd }, raw_contig = { false }, layout = "flat", vec = 4 })
      assert.is_nil(src:find("ga_vload%(_v" .. (#types - 1)), "the result must not be loaded first")
      local ok, err = pcall(ga.RawModule, src, { options = opts })
      assert(ok, ("%s %dd %s: %s"):format(mode, nd, dtype, tostring(err)))
    end
    for _, mode in ipairs { "constant", "edge", "reflect", "symmetric", "wrap" } do
      compile(1, mode, "float32")
      compile(3, mode, "float32")
    end
    for _, dt in ipairs { "bool", "int8", "float16", "complex128" } do compile(2, "reflect", dt) end
    for _, dt in ipairs { "bool", "float16", "complex64" } do compile(2, "constant", dt) end
    compile(7, "constant", "float32")
    compile(15, "wrap", "float32")
  end)

  it("the row kernel's threads write every element once, with NumPy's values (a Lua model of the kernel)", function()
    local cases = {
      { { 6, 300 }, { 300, 1 }, 4, { { 2, 3 }, { 32, 32 } }, 0, 0 },
      { { 6, 300 }, { 301, 1 }, 4, { { 5, 0 }, { 7, 9 } }, 1, 0 },        -- rows of odd starts
      { { 3, 4, 300 }, { 1500, 310, 1 }, 2, { { 1, 2 }, { 3, 0 }, { 5, 7 } }, 3, 0 },
      { { 5000 }, { 1 }, 8, { { 3, 4 } }, 1, 0 },                        -- a row in several tiles
      { { 2, 3, 2, 130 }, { -900, 300, 140, 1 }, 4, { { 1, 1 }, { 2, 1 }, { 1, 0 }, { 9, 4 } }, 1801, 2 },
      { { 4, 700 }, { 0, 1 }, 1, { { 2, 2 }, { 0, 0 } }, 5, 0 },          -- a broadcast row, no pad in it
    }
    for ci, c in ipairs(cases) do
      local shape, estrides, size, widths, xbase, ybase = table.unpack(c)
      local A = R.build(shape, function(mi)
        local off = 0
        for d = 1, #shape do off = off + (mi[d] - 1) * estrides[d] end
        return off
      end)
      for _, mode in ipairs { "edge", "reflect", "symmetric", "wrap" } do
        local what = ("case %d %s"):format(ci, mode)
        local got, p = emulate_rows(shape, estrides, size, widths, mode, xbase, ybase)
        assert(got, what .. ": the row kernel should take it")
        local want = P.pad(A, widths, mode, {}, "int64")
        assert.are.equal(#want.data, p.args[1] // p.args[2] * p.args[3], what)
        for i = 1, #want.data do
          assert(got[i - 1] == want.data[i], ("%s: output %d reads %s, NumPy's pad %s"):format(
            what, i - 1, tostring(got[i - 1]), tostring(want.data[i])))
        end
      end
    end
  end)

  it("the row kernel's plans: the bench's layout, and what it leaves to the gather kernel", function()
    local p = pad_rows.plan({ 4096, 4096 }, { 16384, 4 }, 4, { { 32, 32 }, { 32, 32 } }, "reflect")
    -- a tile a row (1040 vectors, 4 a thread), 4160 rows
    assert.are.same({ 4160, 1, 4160, 4096, 32, 4096, 32, 4160, 4096 }, p.args)
    assert.are.equal(4160, p.grid)
    assert.are.equal(288, p.block)
    local w2 = { { 1, 1 }, { 100, 100 } }
    assert.is_nil(pad_rows.plan({ 4, 300 }, { 1200, 4 }, 4, w2, "constant"))
    assert.is_nil(pad_rows.plan({ 4, 300 }, { 9600, 32 }, 16, w2, "reflect"))      -- complex128
    assert.is_nil(pad_rows.plan({ 4, 300 }, { 4, 16 }, 4, w2, "reflect"))          -- a strided last axis
    assert.is_nil(pad_rows.plan({ 4, 300 }, { 1200, -4 }, 4, w2, "reflect"))
    assert.is_nil(pad_rows.plan({ 40, 20 }, { 80, 4 }, 4, { { 1, 1 }, { 2, 2 } }, "wrap"))   -- short rows
    assert.is_nil(pad_rows.plan({ 2, 2, 2, 2, 300 }, { 4800, 2400, 1200, 600, 2 }, 2,
      { { 1, 1 }, { 1, 1 }, { 1, 1 }, { 1, 1 }, { 1, 1 } }, "edge"))                 -- 4 outer axes
    local long = pad_rows.plan({ 1 << 20 }, { 4 }, 4, { { 5, 5 } }, "wrap")
    assert.is_true(long.args[2] > 1, "a long row spans several tiles")
    assert.are.equal(512, long.block)
  end)

  it("compiles the row kernels with NVRTC (modes, element sizes, outer axes)", function()
    for _, mode in ipairs { "edge", "reflect", "symmetric", "wrap" } do
      for _, c in ipairs { { 1, 3 }, { 2, 0 }, { 4, 1 }, { 8, 2 } } do
        local name, src = pad_rows.source(mode, c[1], c[2])
        local ok, k = pcall(ga.RawKernel, src, name)
        assert(ok, ("%s size %d outer %d: %s"):format(mode, c[1], c[2], tostring(k)))
        -- x, y, then the plan's scalars, typed from the source (Lua integers convert)
        local shape, strides, widths = {}, {}, {}
        for d = 1, c[2] + 1 do
          shape[d], widths[d] = d == c[2] + 1 and 600 or 3, { 1, 2 }
        end
        for d = c[2] + 1, 1, -1 do strides[d] = d == c[2] + 1 and c[1] or strides[d + 1] * shape[d + 1] end
        local plan = pad_rows.plan(shape, strides, c[1], widths, mode)
        assert.are.equal(2 + #plan.args, #k.params, name)
        assert.are.equal("pointer", k.params[1].kind)
        for i = 3, #k.params do assert.are.equal("scalar", k.params[i].kind, name .. " " .. k.params[i].name) end
      end
    end
  end)

  it("checks its arguments before any device work", function()
    local x = ga.empty({ 0, 3 }, "float32")
    helper.assert_gaerror(function() ga.pad(x, 1, "reflct") end, 'did you mean "reflect"')
    helper.assert_gaerror(function() ga.pad(x, 1, "edge", { constant_values = 1 }) end,
                          "pad: mode 'edge' takes no constant_values")
    helper.assert_gaerror(function() ga.pad(x, 1, "constant", { reflect_type = "odd" }) end,
                          "pad: mode 'constant' takes no reflect_type")
    helper.assert_gaerror(function() ga.pad(x, -1) end, "pad: pad_width cannot be negative, got -1")
    helper.assert_gaerror(function() ga.pad(x, { 1.5 }) end, "pad: pad_width must be integers, got 1.5")
    helper.assert_gaerror(function() ga.pad(x, { { 1, 2 }, { 3, 4 }, { 5, 6 } }) end,
                          "pad: pad_width of shape {3,2} cannot be broadcast to {2, 2}")
    helper.assert_gaerror(function() ga.pad(x, { { { 1 } } }) end, "pad: pad_width has 3 levels of nesting")
    helper.assert_gaerror(function() ga.pad(x, 1, "mean", { stat_length = -2 }) end,
                          "pad: stat_length cannot be negative")
    helper.assert_gaerror(function() ga.pad(x, 1, { zzz = 1 }) end, "pad: unknown option 'zzz'")
    -- the empty axis can only grow with constant or empty
    helper.assert_gaerror(function() ga.pad(x, 1, "edge") end,
                          "pad: an empty axis (1) can only be padded by the modes constant and empty")
    assert.are.same({ 0, 7 }, ga.pad(x, { { 0, 0 }, { 2, 2 } }, "edge").shape)
    assert.are.same({ 0, 9 }, ga.pad(x, { { 0, 0 }, { 1, 5 } }, "reflect").shape)
    assert.are.equal("float32", ga.pad(x, { { 0, 0 }, { 1, 1 } }, "wrap").dtype)
    assert.are.same({ 0, 5 }, ga.pad(x, { { 0 }, { 1 } }).shape)      -- one pair per axis, {{0}, {1}}
  end)

  it("the common call's memo: one launch kept per layout, width, mode and dtype, never another's", function()
    local fake = require("gpuarray.core")._test.lazy_fake   -- ndarrays over host memory
    local memo = internal.pad_memo
    local kernel, empty = pad_rows.kernel, internal.empty
    local function forget()
      for i = #memo.entries, 1, -1 do memo.entries[i] = nil end
    end
    -- the device steps stubbed: results are host arrays, the kernels record
    -- their launches (kept plans hold the stub: the memo is emptied after)
    local launched = {}
    internal.empty = function(shape, dtype) return fake(shape, dtype) end
    pad_rows.kernel = function(_, mode, size, nouter)
      return function(grid, block, argv)
        launched[#launched + 1] = { kernel = ("%s %d %d"):format(mode, size, nouter), grid = grid, block = block,
                                    args = { table.unpack(argv) } }
      end
    end
    forget()
    finally(function()
      pad_rows.kernel, internal.empty = kernel, empty
      forget()
    end)
    -- each call launches x, its result, then the plan's scalars of that layout
    local function check_launch(l, x, r, shape, strides, size, w, mode)
      local p = pad_rows.plan(shape, strides, size, { { w, w }, { w, w } }, mode)
      assert.are.equal(("%s %d 1"):format(mode, size), l.kernel)
      assert.is_true(rawequal(x, l.args[1]))
      assert.is_true(rawequal(r, l.args[2]))
      assert.are.same(p.args, { table.unpack(l.args, 3) })
      assert.are.equal(p.grid, l.grid)
      assert.are.equal(p.block, l.block)
      assert.are.same({ shape[1] + 2 * w, shape[2] + 2 * w }, r.shape)
    end
    local A = fake({ 64, 600 }, "float32")
    local r1 = ga.pad(A, 32, "reflect")
    assert.are.equal(1, #memo.entries)                       -- kept by the full path
    local r2 = ga.pad(A, 32, "reflect")
    assert.are.equal(1, #memo.entries)                       -- found, not kept again
    check_launch(launched[1], A, r1, { 64, 600 }, { 2400, 4 }, 4, 32, "reflect")
    check_launch(launched[2], A, r2, { 64, 600 }, { 2400, 4 }, 4, 32, "reflect")
    local kept = memo.entries[1].plan
    assert.is_false(kept.argv[1])                            -- a kept plan holds no array
    assert.is_false(kept.argv[2])
    -- another layout of the same shape, another dtype, width or mode: each its own launch
    local S = fake({ 64, 1200 }, "float32")[{ {}, { 1, 600 } }]
    local I = fake({ 64, 600 }, "int32")
    local others = {
      { S, 32, "reflect", { 4800, 4 }, 4 }, { I, 32, "reflect", { 2400, 4 }, 4 },
      { A, 16, "reflect", { 2400, 4 }, 4 }, { A, 32, "edge", { 2400, 4 }, 4 },
    }
    for round = 1, 2 do   -- the first round keeps, the second finds
      for _, c in ipairs(others) do
        local r = ga.pad(c[1], c[2], c[3])
        assert.are.equal(c[1].dtype, r.dtype)
        check_launch(launched[#launched], c[1], r, { 64, 600 }, c[4], c[5], c[2], c[3])
      end
      assert.are.equal(5, #memo.entries, "round " .. round)
    end
    assert.are.equal(kept, memo.find("float32", 32, "reflect", { 64, 600 }, { 2400, 4 }).plan)
    assert.is_nil(memo.find("float32", 32, "reflect", { 64, 600 }, { 4, 256 }))
    assert.is_nil(memo.find("float32", 32, "reflect", { 64, 601 }, { 2400, 4 }))
    assert.is_nil(memo.find("float32", 32, "symmetric", { 64, 600 }, { 2400, 4 }))
    -- a call that must raise still does, its layout kept or not
    helper.assert_gaerror(function() ga.pad(A, -1, "reflect") end, "pad: pad_width cannot be negative, got -1")
    helper.assert_gaerror(function() ga.pad(A, 32, "edge", { constant_values = 1 }) end,
                          "pad: mode 'edge' takes no constant_values")
    -- bounded: MEMO newer launches push the first one out
    for w = 1, memo.MEMO do ga.pad(A, w, "wrap") end
    assert.are.equal(memo.MEMO, #memo.entries)
    assert.is_nil(memo.find("float32", 32, "reflect", { 64, 600 }, { 2400, 4 }))
  end)
end)

---------------------------------------------------------------------------
-- GPU
---------------------------------------------------------------------------

local function gen(dtype)
  if dtype == "bool" then return function() return math.random() < 0.5 end end
  if dtype:find("int") then return function() return math.random(0, 50) end end
  return function() return math.random(-400, 400) * 0.25 end
end

local function values(x)
  local out = {}
  for i, v in ipairs(R.values(x)) do out[i] = v end
  return out
end

local function check(mode, A, dtype, widths, o, got, rtol, what)
  local want = P.pad(A, widths, mode, o, dtype)
  assert.are.equal(dtype, got.dtype, what)
  assert.are.same(want.shape, got.shape, what)
  if mode == "empty" then return end
  helper.assert_same(want.data, values(got), rtol, what)
end

local function random_widths(shape, long)
  local w = {}
  for d = 1, #shape do
    local m = long and 2 * shape[d] + 3 or shape[d] - 1
    w[d] = { math.random(0, math.max(m, 1)), math.random(0, math.max(m, 1)) }
  end
  return w
end

describe("pad on the device", function()
  gpu_it("every mode on random data, per-axis widths and values, against NumPy's algorithm", function()
    for _, mode in ipairs { "constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp", "maximum",
                            "minimum", "mean", "median", "empty" } do
      for _, shape in ipairs { { 7 }, { 4, 5 }, { 3, 1, 4 } } do
        local dtype = mode == "linear_ramp" and "float64" or "float32"
        if mode == "maximum" or mode == "median" then dtype = "int32" end
        local A = R.build(shape, gen(dtype))
        local x = R.to_gpu(A, dtype)
        for _, long in ipairs { false, true } do
          local widths = random_widths(shape, long)
          local o, opts = {}, {}
          if mode == "constant" then
            o.values, opts.constant_values = {}, {}
            for d = 1, #shape do
              o.values[d] = { math.random(-9, 9), math.random(-9, 9) }
              opts.constant_values[d] = o.values[d]
            end
          elseif mode == "linear_ramp" then
            o.ends, opts.end_values = {}, {}
            for d = 1, #shape do
              o.ends[d] = { math.random(-20, 20), math.random(-20, 20) }
              opts.end_values[d] = o.ends[d]
            end
          elseif mode == "maximum" or mode == "mean" then
            o.lengths, opts.stat_length = {}, {}
            for d = 1, #shape do
              o.lengths[d] = { math.random(1, 3), math.random(1, 3) }
              opts.stat_length[d] = o.lengths[d]
            end
          end
          local ws = {}
          for d, w in ipairs(widths) do ws[d] = ("{%d, %d}"):format(w[1], w[2]) end
          local what = ("%s %s widths {%s}"):format(mode, internal.shape_str(shape), table.concat(ws, ", "))
          local got = ga.pad(x, widths, mode, opts)
          check(mode, A, dtype, widths, o, got, dtype == "float32" and 1e-6 or 1e-12, what)
        end
      end
    end
  end)

  gpu_it("reflect and symmetric, even and odd, in several dtypes; both paths agree", function()
    for _, dtype in ipairs { "int8", "uint16", "float64", "float16", "bool" } do
      local shape = { 5, 6 }
      local A = R.build(shape, gen(dtype))
      if dtype == "float16" then
        for i, v in ipairs(A.data) do A.data[i] = helper.to_half(v) end
      end
      local x = R.to_gpu(A, dtype)
      for _, mode in ipairs { "reflect", "symmetric" } do
        for _, odd in ipairs { false, true } do
          if not (odd and dtype == "bool") then
            local widths = { { math.random(0, 9), math.random(0, 9) }, { math.random(0, 4), math.random(0, 12) } }
            local got = ga.pad(x, widths, mode, odd and { reflect_type = "odd" } or nil)
            check(mode, A, dtype, widths, { odd = odd }, got, dtype == "float16" and 5e-3 or 1e-12,
                  ("%s odd=%s %s"):format(mode, tostring(odd), dtype))
          end
        end
      end
    end
    -- a single axis of length 1 reflects as edge (NumPy's legacy rule)
    local y = ga.pad(ga.array({ { 3 }, { 4 } }, "int32"), { { 0, 0 }, { 2, 1 } }, "reflect")
    assert.are.same({ { 3, 3, 3, 3 }, { 4, 4, 4, 4 } }, y:totable())
  end)

  gpu_it("non-contiguous inputs, unpadded axes that merge, 0-d and empty", function()
    local A = R.build({ 6, 4, 3 }, gen("float32"))
    local x = R.to_gpu(A, "float32")
    -- a transposed view: pad reads it through its strides
    local xt = x:transpose({ 3, 1, 2 })
    local At = R.build({ 3, 6, 4 }, function(mi) return R.get(A, { mi[2], mi[3], mi[1] }) end)
    local w = { { 1, 2 }, { 0, 0 }, { 3, 1 } }
    check("reflect", At, "float32", w, {}, ga.pad(xt, w, "reflect"), 0, "transposed")
    check("constant", At, "float32", w, { values = { { 1, 2 }, { 3, 4 }, { 5, 6 } } },
          ga.pad(xt, w, "constant", { constant_values = { { 1, 2 }, { 3, 4 }, { 5, 6 } } }), 0, "transposed")
    -- reversed (negative strides)
    local xr = ga.flip(x, 2)
    local Ar = R.build({ 6, 4, 3 }, function(mi) return R.get(A, { mi[1], 5 - mi[2], mi[3] }) end)
    check("wrap", Ar, "float32", { { 2, 1 }, { 5, 7 }, { 0, 0 } }, {}, ga.pad(xr, { { 2, 1 }, { 5, 7 }, { 0,
      0 } }, "wrap"),
          0, "flipped")
    -- only the first axis padded: the others merge into one
    check("edge", A, "float32", { { 2, 3 }, { 0, 0 }, { 0, 0 } }, {}, ga.pad(x, { { 2, 3 }, { 0, 0 }, { 0,
      0 } }, "edge"),
          0, "merged")
    -- 0-d: a copy; empty axes with constant
    local z = ga.pad(ga.array(5.0), 3)
    assert.are.same({}, z.shape)
    assert.are.equal(5.0, z:item())
    local e = ga.pad(ga.empty({ 0, 2 }, "int16"), 1, "constant", { constant_values = 7 })
    assert.are.same({ { 7, 7, 7, 7 }, { 7, 7, 7, 7 } }, e:totable())
    -- a float constant into an integer array truncates toward zero (C's cast)
    assert.are.same({ -2, 1, -2 }, ga.pad(ga.array({ 1 }, "int32"), 1, "constant",
      { constant_values = -2.7 }):totable())
    -- a complex constant is a typed scalar
    local c = ga.pad(ga.array({ { 1, 2 } }, "complex64"), 1, "constant", { constant_values = ga.complex64(0, 1) })
    assert.are.same({ { 0, 1 }, { 1, 2 }, { 0, 1 } }, c:totable())
  end)

  gpu_it("the row kernel (long rows): element sizes 1 to 8, 1-D to 4-D, unaligned and strided rows", function()
    local cases = {
      { "float32", { 3, 300 } }, { "int8", { 2, 3, 530 } }, { "bool", { 2, 600 } }, { "float16", { 4, 257 } },
      { "float64", { 3000 } }, { "uint16", { 2, 2, 2, 290 } }, { "int64", { 2, 70 } },
    }
    for _, c in ipairs(cases) do
      local dtype, shape = c[1], c[2]
      local A = R.build(shape, gen(dtype))
      local x = R.to_gpu(A, dtype)
      for _, mode in ipairs { "edge", "reflect", "symmetric", "wrap" } do
        local widths = {}
        for d = 1, #shape do
          local m = math.min(shape[d] - 1, 40)   -- one reflection: the kernels' closed forms
          widths[d] = { math.random(1, m), math.random(1, m) }
        end
        if dtype == "int64" then widths[#shape] = { 30, 31 } end   -- 131 elements: 1048 bytes
        local ws = {}
        for d, w in ipairs(widths) do ws[d] = w[1] .. "/" .. w[2] end
        local what = ("%s %s %s widths %s"):format(dtype, internal.shape_str(shape), mode, table.concat(ws, " "))
        assert(pad_rows.plan(x.shape, x.strides, x.itemsize, widths, mode), what .. ": the row kernel should take it")
        check(mode, A, dtype, widths, {}, ga.pad(x, widths, mode), 0, what)
      end
    end
    -- unpadded inner axes merge into one long row (b = 0 in the kernel);
    -- merge returns the view's own shape and strides
    do
      local A = R.build({ 5, 4, 300 }, gen("float32"))
      local x = R.to_gpu(A, "float32")
      for _, w in ipairs { { { 2, 3 }, { 0, 0 }, { 0, 0 } }, { { 1, 1 }, { 2, 1 }, { 0, 0 } } } do
        local xm, mw, _, mshape, mstrides = gather.merge(x, w)
        assert.are.same(xm.shape, mshape)
        assert.are.same(xm.strides, mstrides)
        assert(pad_rows.plan(mshape, mstrides, 4, mw, "reflect"), "merged rows: the row kernel should take it")
        check("reflect", A, "float32", w, {}, ga.pad(x, w, "reflect"), 0, "merged rows")
      end
      local xt = x:transpose({ 2, 1, 3 })        -- not mergeable: strides out of order
      local _, _, _, tshape, tstrides = gather.merge(xt, { { 1, 1 }, { 0, 0 }, { 0, 0 } })
      assert.are.same(xt.shape, tshape)
      assert.are.same(xt.strides, tstrides)
    end
    -- rows that start off a 16-byte boundary (a column slice) and rows a
    -- step apart (a row slice), float32 and float64
    for _, dtype in ipairs { "float32", "float64" } do
      local A = R.build({ 8, 301 }, gen(dtype))
      local x = R.to_gpu(A, dtype)
      local views = { { { 1, 8 }, { 2, 300 } }, { { 1, 8, 2 }, { 1, 301 } }, { { 8, 1, -3 }, { 3, 299 } } }
      for _, view in ipairs(views) do
        local xv = x[view]
        local Av = R.index(A, view)
        for _, mode in ipairs { "reflect", "wrap" } do
          local widths = { { 2, 1 }, { 33, 64 } }
          local what = ("%s view {%s; %s} %s"):format(dtype, table.concat(view[1], ","), table.concat(view[2], ","),
                                                      mode)
          assert(pad_rows.plan(xv.shape, xv.strides, xv.itemsize, widths, mode),
                 what .. ": the row kernel should take it")
          check(mode, Av, dtype, widths, {}, ga.pad(xv, widths, mode), 0, what)
        end
      end
    end
  end)

  gpu_it("pad(x, n, mode) repeated: the kept launch gives the first call's values, per layout and dtype", function()
    -- an integer width and no options: the second and later calls with the
    -- same layout take the memo's launch (pad.lua); strided and offset
    -- views share a shape with the contiguous array but not its strides
    for _, dtype in ipairs { "float32", "int16", "float64" } do
      local A = R.build({ 6, 300 }, gen(dtype))
      local x = R.to_gpu(A, dtype)
      local views = { { {}, {} }, { { 1, 6, 2 }, {} }, { {}, { 2, 299 } } }
      for _, view in ipairs(views) do
        local xv, Av = x[view], R.index(A, view)
        for _, mode in ipairs { "edge", "reflect", "symmetric", "wrap" } do
          local n = math.random(1, 2)
          local widths = { { n, n }, { n, n } }
          for rep = 1, 3 do
            check(mode, Av, dtype, widths, {}, ga.pad(xv, n, mode), 0,
                  ("%s %s rep %d"):format(dtype, mode, rep))
          end
        end
      end
    end
    -- a freed input on the kept launch still raises, naming pad
    local x = ga.random.random({ 4, 200 }, "float32")
    ga.pad(x, 3, "reflect")
    local y = ga.random.random({ 4, 200 }, "float32")
    y:free()
    helper.assert_gaerror(function() ga.pad(y, 3, "reflect") end, "pad: ")
  end)

  gpu_it("the view path gives the kernel's values (odd reflections off, long pads on)", function()
    local A = R.build({ 5, 4 }, gen("float64"))
    local x = R.to_gpu(A, "float64")
    -- chunked reflections NumPy does not centre (n = 4: pads past 3 then past 6)
    for _, w in ipairs { { { 1, 14 }, { 2, 9 } }, { { 13, 1 }, { 0, 11 } } } do
      for _, mode in ipairs { "reflect", "symmetric", "wrap" } do
        check(mode, A, "float64", w, {}, ga.pad(x, w, mode), 0, mode .. " long")
      end
    end
  end)
end)
