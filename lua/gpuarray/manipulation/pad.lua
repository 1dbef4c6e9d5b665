--- pad (API.md §14): NumPy's pad with every mode: constant, edge,
-- linear_ramp, maximum, mean, median, minimum, reflect, symmetric, wrap,
-- empty; per-axis widths and values.
--
-- Two paths. constant, edge, and the even reflect, symmetric and wrap modes
-- run as one gather kernel over the result (pad_gather.lua; pad_rows.lua
-- where the result's rows are long and the input's contiguous); the rest, and
-- the cases the kernel cannot take, run NumPy's own algorithm on views:
-- the result is made, the input copied into its middle, then each axis in
-- turn pads its two ends from the region already filled (so later axes
-- see the earlier axes' padding, as in NumPy: the corners come from the
-- last axis). Both give NumPy 2's values, including its reflections of
-- pads longer than the axis, which are done chunk by chunk.
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local gather = require "gpuarray.manipulation.pad_gather"
  local pad_rows = require "gpuarray.manipulation.pad_rows"
  local fail, is_array = internal.fail, internal.is_array
  local def = api.def

  ---------------------------------------------------------------------------
  -- arguments: NumPy's _as_pairs
  ---------------------------------------------------------------------------

  -- the leaves of t below depth d of a nested list of shape, in C order
  local function walk(t, d, shape, flat)
    if d > #shape then
      flat[#flat + 1] = t
      return
    end
    for i = 1, shape[d] do walk(rawget(t, i), d + 1, shape, flat) end
  end

  -- the leaves of a nested list in C order, and its shape
  local function nested(v, fname, what)
    if is_array(v) then
      if v.ndim > 2 or v.size > 64 then
        fail(("%s: %s of shape %s is not one value, a pair or one pair per axis"):format(fname, what,
                                                                                       internal.shape_str(v.shape)))
      end
      local t = v.ndim == 0 and { v:item() } or v:totable()
      return nested(t, fname, what)
    end
    if type(v) ~= "table" then return { v }, {} end
    local shape = args.table_shape(v, fname)
    local flat = {}
    walk(v, 1, shape, flat)
    if #shape > 2 then fail(("%s: %s has %d levels of nesting (at most 2)"):format(fname, what, #shape)) end
    return flat, shape
  end

  -- one entry of as_pairs: as_index ones (widths, stat lengths) must be
  -- non-negative integers (pad_width exactly; stat_length rounded)
  local function pair_entry(x, fname, what, as_index)
    if as_index then
      if type(x) ~= "number" then fail(("%s: %s must be integers, got %s"):format(fname, what, type(x))) end
      if what == "pad_width" and math.type(x) ~= "integer" then
        fail(("%s: pad_width must be integers, got %s"):format(fname, tostring(x)))
      end
      x = math.tointeger(x) or math.floor(x + 0.5)
      if x < 0 then fail(("%s: %s cannot be negative, got %d"):format(fname, what, x)) end
    end
    return x
  end

  --- v broadcast to nd pairs {before, after}: a scalar, {v}, {before,
  -- after}, {{before, after}} or one pair per axis
  local function as_pairs(v, nd, fname, what, as_index)
    local flat, shape = nested(v, fname, what)
    local out = {}
    if #flat == 1 then
      local x = pair_entry(flat[1], fname, what, as_index)
      for d = 1, nd do out[d] = { x, x } end
      return out
    end
    if #flat == 2 and not (#shape == 2 and shape[1] == 2 and shape[2] == 1) then
      local b, a = pair_entry(flat[1], fname, what, as_index), pair_entry(flat[2], fname, what, as_index)
      for d = 1, nd do out[d] = { b, a } end
      return out
    end
    -- broadcast the (at most 2-level) shape to {nd, 2}
    local rows = #shape == 2 and shape[1] or 1
    local cols = #shape == 2 and shape[2] or shape[1]
    if (rows ~= nd and rows ~= 1) or (cols ~= 2 and cols ~= 1) then
      fail(("%s: %s of shape %s cannot be broadcast to {%d, 2}"):format(fname, what, internal.shape_str(shape), nd))
    end
    for d = 1, nd do
      local r = rows == 1 and 0 or d - 1
      local b = flat[r * cols + 1]
      local a = flat[r * cols + (cols == 1 and 1 or 2)]
      out[d] = { pair_entry(b, fname, what, as_index), pair_entry(a, fname, what, as_index) }
    end
    return out
  end

  -- a pad value as the array's dtype wants it: NumPy assigns with C's
  -- casts (a float into an integer array truncates toward zero)
  local function cast_value(v, dtype, fname)
    if type(v) == "userdata" then return ga[dtype](v) end
    local kind = ga.dtype(dtype).kind
    if type(v) == "boolean" then v = v and 1 or 0 end
    if type(v) ~= "number" then fail(("%s: a pad value must be a number, got %s"):format(fname, type(v))) end
    if kind == "b" then return ga.bool(v ~= 0) end
    if (kind == "i" or kind == "u") and math.type(v) == "float" then
      if v ~= v or v == math.huge or v == -math.huge then
        fail(("%s: cannot put %s into an integer array"):format(fname, tostring(v)))
      end
      v = v >= 0 and math.floor(v) or math.ceil(v)
      v = math.tointeger(v) or fail(("%s: %s does not fit %s"):format(fname, tostring(v), dtype))
    end
    return ga[dtype](v)
  end

  ---------------------------------------------------------------------------
  -- the view path (NumPy's algorithm)
  ---------------------------------------------------------------------------

  -- x's elements [lo, hi] (1-based, inclusive) along axis ax, step 1 or -1
  local function span(v, ax, lo, hi, step)
    return v[args.range_key(v.ndim, ax, lo, hi, step)]
  end

  -- the part of the result axis ax pads from: every axis up to ax whole,
  -- the later axes only over the original elements
  local function roi(padded, ax, widths, shape)
    local key = {}
    for d = 1, padded.ndim do
      key[d] = d <= ax and {} or { widths[d][1] + 1, widths[d][1] + shape[d] }
    end
    return padded[key]
  end

  local function set_area(r, ax, b, a, left, right)
    local len = r.shape[ax]
    if b > 0 then span(r, ax, 1, b):set(left) end
    if a > 0 then span(r, ax, len - a + 1, len):set(right) end
  end

  local function edges(r, ax, b, a)
    local len = r.shape[ax]
    return span(r, ax, b + 1, b + 1), span(r, ax, len - a, len - a)
  end

  local function median(x, ax)
    if ga.median then return ga.median(x, { axis = ax, keepdims = true }) end
    local n = x.shape[ax]
    local s = ga.sort(x, ax)
    local mid = span(s, ax, (n + 1) // 2, n // 2 + 1)
    local m = ga.mean(mid, { axis = ax, keepdims = true })
    -- a NaN anywhere makes the median NaN, as NumPy's (sort puts NaNs last)
    local k = ga.dtype(x.dtype).kind
    if k == "f" or k == "c" then m = ga.where(ga.isnan(span(s, ax, n, n)), span(s, ax, n, n), m) end
    return m
  end

  local STAT = {
    maximum = function(x, ax) return ga.max(x, { axis = ax, keepdims = true }) end,
    minimum = function(x, ax) return ga.min(x, { axis = ax, keepdims = true }) end,
    mean = function(x, ax) return ga.mean(x, { axis = ax, keepdims = true }) end,
    median = median,
  }

  local function stats(r, ax, b, a, lengths, mode, dtype)
    local len = r.shape[ax]
    local lo, hi = b + 1, len - a
    local maxlen = hi - lo + 1
    local lb = (lengths[1] == nil or lengths[1] > maxlen) and maxlen or lengths[1]
    local la = (lengths[2] == nil or lengths[2] > maxlen) and maxlen or lengths[2]
    if (lb == 0 or la == 0) and (mode == "maximum" or mode == "minimum") then
      fail("pad: stat_length of 0 gives no value to pad with")
    end
    local f = STAT[mode]
    local function stat(part)
      local s = f(part, ax)
      if args.INTEGRAL[dtype] and dtype ~= "bool" and ga.dtype(s.dtype).kind ~= ga.dtype(dtype).kind then
        s = ga.around(s)
      end
      return s
    end
    local left = stat(span(r, ax, lo, lo + lb - 1))
    if lb == maxlen and la == maxlen then return left, left end
    return left, stat(span(r, ax, hi - la + 1, hi))
  end

  local function ramps(r, ax, b, a, ends, dtype)
    local el, er = edges(r, ax, b, a)
    local function ramp(edge, endv, width)
      local dt = ga.result_type(edge, endv, 1.0)
      local e = edge:astype(dt)
      local s = {}
      for d = 1, r.ndim do s[d] = 1 end
      s[ax] = width
      local k = ga.arange(0, width, "float64"):astype(dt):reshape(s)
      local delta = ga.subtract(e, endv)
      local step = ga.divide(delta, width)
      local y
      local zero = ga.any(ga.equal(step, 0))
      if is_array(zero) then zero = zero:item() end
      if zero then y = ga.multiply(ga.divide(k, width), delta) else y = ga.multiply(k, step) end
      y = ga.add(y, endv)
      local kind = ga.dtype(dtype).kind
      if kind == "i" or kind == "u" then y = ga.floor(y) end
      return y:astype(dtype)
    end
    local left = b > 0 and ramp(el, ends[1], b) or nil
    local right = a > 0 and ga.flip(ramp(er, ends[2], a), ax) or nil
    return left, right
  end

  -- one round of NumPy's _set_reflect_both on r along ax; returns the pads left
  local function reflect_both(r, ax, lp, rp, odd, include_edge)
    local len = r.shape[ax]
    local old = len - rp - lp
    local eo = include_edge and 1 or 0
    if not include_edge then old = old - 1 end
    if lp > 0 then
      local chunk = math.min(old, lp)
      local stop = lp - eo
      local start = stop + chunk
      local src = span(r, ax, start + 1, stop + 2, -1)
      if odd then src = ga.subtract(ga.multiply(span(r, ax, lp + 1, lp + 1), 2), src) end
      span(r, ax, lp - chunk + 1, lp):set(src)
      lp = lp - chunk
    end
    if rp > 0 then
      local chunk = math.min(old, rp)
      local start = -rp + eo - 2
      local stop = start - chunk
      local src = span(r, ax, len + start + 1, len + stop + 2, -1)
      if odd then src = ga.subtract(ga.multiply(span(r, ax, len - rp, len - rp), 2), src) end
      span(r, ax, len - rp + 1, len - rp + chunk):set(src)
      rp = rp - chunk
    end
    return lp, rp
  end

  -- one round of NumPy's _set_wrap_both
  local function wrap_both(r, ax, lp, rp, period0)
    local len = r.shape[ax]
    local period = (len - rp - lp) // period0 * period0
    local nl, nr = 0, 0
    if lp > 0 then
      local e = lp + period
      local s = e - math.min(period, lp)
      local src = span(r, ax, s + 1, e)
      if lp > period then
        span(r, ax, lp - period + 1, lp):set(src)
        nl = lp - period
      else
        span(r, ax, 1, lp):set(src)
      end
    end
    if rp > 0 then
      local s = len - rp - period
      local src = span(r, ax, s + 1, s + math.min(period, rp))
      if rp > period then
        span(r, ax, len - rp + 1, len - rp + period):set(src)
        nr = rp - period
      else
        span(r, ax, len - rp + 1, len):set(src)
      end
    end
    return nl, nr
  end

  local function pad_views(x, widths, oshape, mode, o)
    local nd = x.ndim
    local shape = x.shape
    local padded = ga.empty(oshape, x.dtype)
    local mid = {}
    for d = 1, nd do mid[d] = { widths[d][1] + 1, widths[d][1] + shape[d] } end
    padded[mid] = x
    if mode == "empty" then return padded end
    for ax = 1, nd do
      local b, a = widths[ax][1], widths[ax][2]
      if b > 0 or a > 0 then
        local r = roi(padded, ax, widths, shape)
        if mode == "constant" then
          local v = o.values[ax]
          if b > 0 then span(r, ax, 1, b):fill(v[1]) end
          if a > 0 then span(r, ax, r.shape[ax] - a + 1, r.shape[ax]):fill(v[2]) end
        elseif mode == "edge" or ((mode == "reflect" or mode == "symmetric") and shape[ax] == 1) then
          set_area(r, ax, b, a, edges(r, ax, b, a))
        elseif mode == "linear_ramp" then
          set_area(r, ax, b, a, ramps(r, ax, b, a, o.ends[ax], x.dtype))
        elseif STAT[mode] then
          set_area(r, ax, b, a, stats(r, ax, b, a, o.lengths[ax], mode, x.dtype))
        elseif mode == "reflect" or mode == "symmetric" then
          while b > 0 or a > 0 do
            b, a = reflect_both(r, ax, b, a, o.odd, mode == "symmetric")
          end
        else   -- wrap
          while b > 0 or a > 0 do b, a = wrap_both(r, ax, b, a, shape[ax]) end
        end
      end
    end
    return padded
  end

  ---------------------------------------------------------------------------
  -- the gather path
  ---------------------------------------------------------------------------

  -- whether NumPy's chunked reflection of an axis of n elements padded by
  -- (b, a) reflects about true centres only (every chunk's centre is a
  -- multiple of the period's half): then the closed form gives its values
  local function reflect_closed(n, b, a, include_edge)
    if n == 1 then return true end
    local L = n - 1
    local s, e = 0, n
    while b > 0 or a > 0 do
      local old = e - s - (include_edge and 0 or 1)
      if b > 0 then
        if (include_edge and s % n or s % L) ~= 0 then return false end
        local c = math.min(old, b)
        s, b = s - c, b - c
      end
      if a > 0 then
        if (include_edge and e % n or (e - 1) % L) ~= 0 then return false end
        local c = math.min(old, a)
        e, a = e + c, a - c
      end
    end
    return true
  end

  local function gather_ok(x, widths, mode, odd)
    if not gather.MODES[mode] or odd then return false end
    if mode == "reflect" or mode == "symmetric" then
      local shape = x.shape
      for d = 1, x.ndim do
        if not reflect_closed(shape[d], widths[d][1], widths[d][2], mode == "symmetric") then return false end
      end
    end
    return true
  end
  internal.pad_reflect_closed = reflect_closed   -- for the CPU spec

  ---------------------------------------------------------------------------
  -- the common call's memo
  ---------------------------------------------------------------------------

  -- pad(x, n, mode) with an ndarray x, one integer n and no options is the
  -- common call; the bench's pad_reflect_f32_4096^2 times it with events
  -- around the Lua call, so its host work before the launch counts. Where
  -- the row kernel takes it, everything between the call and the launch
  -- depends on x's layout (dtype, shape, strides), n and the mode alone:
  -- the checks, the merged layout, the result's shape and the kernel's
  -- plan. The memo keeps the last MEMO such launches, newest first; a call
  -- that finds its key allocates the result and launches the kept plan.
  -- Entries are made only by the full path, after every check has passed
  -- for their key, so a call that would raise never finds one. On a CPU
  -- without a GPU (tools/probe/pad_host.lua, the device's empty and launch
  -- stubbed) a 64x64 call's host work fell from 11.4 to 1.6 us.
  local MEMO = 8
  local memo = {}
  local same = args.same_shape

  local function memo_find(dtype, width, mode, shape, strides)
    for i = 1, #memo do
      local e = memo[i]
      if e.width == width and e.mode == mode and e.dtype == dtype and same(e.shape, shape)
          and same(e.strides, strides) then
        return e
      end
    end
    return nil
  end

  -- shape, strides and oshape are kept: tables nobody else writes
  local function memo_keep(dtype, width, mode, shape, strides, oshape, plan)
    table.insert(memo, 1, { dtype = dtype, width = width, mode = mode, shape = shape, strides = strides,
                            oshape = oshape, plan = plan })
    memo[MEMO + 1] = nil
  end
  internal.pad_memo = { find = memo_find, keep = memo_keep, entries = memo, MEMO = MEMO }   -- for the CPU spec

  ---------------------------------------------------------------------------
  -- pad
  ---------------------------------------------------------------------------

  local USES = {
    constant = "constant_values", linear_ramp = "end_values", maximum = "stat_length", mean = "stat_length",
    median = "stat_length", minimum = "stat_length", reflect = "reflect_type", symmetric = "reflect_type",
  }

  local function unused(mode, key)
    fail(("pad: mode '%s' takes no %s"):format(mode, key))
  end

  def(ga, [[
pad(array: array_like, pad_width: integer|list|ndarray,
mode: "constant"|"edge"|"linear_ramp"|"maximum"|"mean"|"median"|"minimum"|"reflect"|"symmetric"|"wrap"|"empty" =
"constant",
    *, stat_length: integer|list?, constant_values: scalar|list?, end_values: scalar|list?,
    reflect_type: "even"|"odd"?) -> ndarray
NumPy's pad: array with pad_width[d] = {before, after} elements added along
each axis d (N, {N}, {before, after} or {{before, after}} for every axis).
Modes: constant (constant_values, default 0), edge, linear_ramp (from the
edge to end_values), maximum/mean/median/minimum (of stat_length elements
at each end, all when nil), reflect and symmetric (mirrored without or
with the edge; reflect_type "odd" mirrors 2*edge - x), wrap, empty
(values unset). The values take the same per-axis pair forms. A complex
constant is a typed scalar (a {re, im} list is {before, after}).
]], function(array, pad_width, mode, stat_length, constant_values, end_values, reflect_type)
    -- the common call with a kept launch (the memo above); the option
    -- tests come first, the layout reads (about 0.5 us) only where it may hit
    if pad_rows.MODES[mode] and math.type(pad_width) == "integer" and #memo > 0 and reflect_type == nil
        and stat_length == nil and constant_values == nil and end_values == nil and is_array(array) then
      local e = memo_find(array.dtype, pad_width, mode, array.shape, array.strides)
      if e then
        local out = internal.empty(e.oshape, e.dtype)
        pad_rows.launch(ga, e.plan, array, out)
        return out
      end
    end
    -- an option the mode does not use raises (four tests: no table a call)
    if stat_length ~= nil and USES[mode] ~= "stat_length" then unused(mode, "stat_length") end
    if constant_values ~= nil and USES[mode] ~= "constant_values" then unused(mode, "constant_values") end
    if end_values ~= nil and USES[mode] ~= "end_values" then unused(mode, "end_values") end
    if reflect_type ~= nil and USES[mode] ~= "reflect_type" then unused(mode, "reflect_type") end
    -- the arguments are checked before anything touches the device
    local nd = #args.shape_of(array, "pad")
    local widths = as_pairs(pad_width, nd, "pad", "pad_width", true)
    local x = args.array(ga, array, "pad")
    if nd == 0 then return x:copy() end
    local shape, oshape = x.shape, {}
    for d = 1, nd do oshape[d] = shape[d] + widths[d][1] + widths[d][2] end
    local o = { odd = reflect_type == "odd" }
    if mode == "constant" then
      local raw = as_pairs(constant_values == nil and 0 or constant_values, nd, "pad", "constant_values")
      o.values = {}
      for d = 1, nd do
        o.values[d] = { cast_value(raw[d][1], x.dtype, "pad"), cast_value(raw[d][2], x.dtype, "pad") }
      end
    elseif mode == "linear_ramp" then
      o.ends = as_pairs(end_values == nil and 0 or end_values, nd, "pad", "end_values")
    elseif STAT[mode] then
      o.lengths = stat_length == nil and {} or as_pairs(stat_length, nd, "pad", "stat_length", true)
      for d = 1, nd do o.lengths[d] = o.lengths[d] or {} end
    end
    if mode ~= "constant" and mode ~= "empty" and x.size == 0 then
      for d = 1, nd do
        if shape[d] == 0 and (widths[d][1] > 0 or widths[d][2] > 0) then
          fail(("pad: an empty axis (%d) can only be padded by the modes constant and empty"):format(d))
        end
      end
      return ga.empty(oshape, x.dtype)
    end
    if args.prod(oshape) == 0 then return ga.empty(oshape, x.dtype) end
    if gather_ok(x, widths, mode, o.odd) then
      local xm, mw, first, mshape, mstrides = gather.merge(x, widths)
      -- the row kernel reads x's and writes the result's memory through
      -- their data pointers alone: the merged layout is the same bytes, so
      -- x and a result of the unmerged shape go as they are (no reshape)
      local p = pad_rows.plan(mshape, mstrides, x.itemsize, mw, mode)
      if p then
        local out = internal.empty(oshape, x.dtype)   -- the core's: no Lua checks of a shape made here
        pad_rows.launch(ga, p, x, out)
        if rawequal(x, array) and math.type(pad_width) == "integer" then
          memo_keep(x.dtype, pad_width, mode, shape, x.strides, oshape, p)
        end
        return out
      end
      if #mshape <= gather.max_axes(mode) then
        local ms = {}
        for d = 1, #mshape do ms[d] = mshape[d] + mw[d][1] + mw[d][2] end
        local values
        if mode == "constant" then
          values = {}
          for m = 1, #mshape do values[m] = o.values[first[m]] end
        end
        local out = ga.empty(ms, x.dtype)
        gather.run(ga, xm, mw, mode, values, out)
        if rawequal(xm, x) then return out end   -- nothing merged: out has the result's shape
        return out:reshape(oshape)
      end
    end
    return pad_views(x, widths, oshape, mode, o)
  end)
end
