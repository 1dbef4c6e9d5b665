--- The difftest's generators for the creation, manipulation and indexing
-- rooms (issue 25): tuples of axes (expand_dims, flip, roll), moveaxis,
-- rot90, pad (every mode whose values NumPy 1.x and 2.x agree on), tile,
-- repeat_ with counts per element, concatenate/stack, array_split,
-- delete, insert, take_along_axis with argsort, full_like with shape.
-- Each is a Program method returning a new variable (gen.lua's model:
-- shape and kind). Lua is 1-based and inclusive, Python 0-based.
return function(Program, H)
  local random, pick, copy = H.random, H.pick, H.copy

  -- a 1-based axis, maybe negative, and its 0-based Python spelling
  local function axis_of(nd)
    local ax = random(1, nd)
    if random() < 0.25 then return ax - nd - 1, ax - nd - 1, ax end
    return ax, ax - 1, ax
  end

  local function tuple(list)
    if #list == 1 then return "(" .. list[1] .. ",)" end
    return "(" .. table.concat(list, ", ") .. ")"
  end

  local function distinct_axes(nd, k)
    local all = {}
    for d = 1, nd do all[d] = d end
    for d = nd, 2, -1 do
      local j = random(d)
      all[d], all[j] = all[j], all[d]
    end
    local out = {}
    for i = 1, k do out[i] = all[i] end
    return out
  end

  function Program:manip_axes(a)
    local nd = #a.shape
    local r = random(100)
    if r <= 30 and nd < 4 then
      -- expand_dims with a tuple of new positions
      local k = random(1, math.min(2, 4 - nd))
      local outnd = nd + k
      local axes = distinct_axes(outnd, k)
      local la, pa, s = {}, {}, {}
      local new = {}
      for i, d in ipairs(axes) do
        new[d] = true
        local neg = random() < 0.3
        la[i] = tostring(neg and d - outnd - 1 or d)
        pa[i] = tostring(neg and d - outnd - 1 or d - 1)
      end
      local k2 = 1
      for d = 1, outnd do
        if new[d] then s[d] = 1 else s[d] = a.shape[k2] k2 = k2 + 1 end
      end
      return self:var(s, a.kind, ("ga.expand_dims(%s, {%s})"):format(a.name, table.concat(la, ", ")),
                      ("np.expand_dims(%s, %s)"):format(a.name, tuple(pa)))
    end
    if nd == 0 then return self:unary(a) end
    if r <= 55 then
      local axes = distinct_axes(nd, random(1, nd))
      local la, pa = {}, {}
      for i, d in ipairs(axes) do la[i], pa[i] = tostring(d), tostring(d - 1) end
      if random() < 0.5 then
        return self:var(copy(a.shape), a.kind, ("ga.flip(%s, {axis = {%s}})"):format(a.name, table.concat(la, ", ")),
                        ("np.flip(%s, axis=%s)"):format(a.name, tuple(pa)))
      end
      local shift = random(-5, 5)
      return self:var(copy(a.shape), a.kind,
                      ("ga.roll(%s, %d, {axis = {%s}})"):format(a.name, shift, table.concat(la, ", ")),
                      ("np.roll(%s, %d, axis=%s)"):format(a.name, shift, tuple(pa)))
    end
    if r <= 75 then
      local la, pa, src = axis_of(nd)
      local lb, pb, dst = axis_of(nd)
      local order = {}
      for d = 1, nd do if d ~= src then order[#order + 1] = d end end
      table.insert(order, dst, src)
      local s = {}
      for d = 1, nd do s[d] = a.shape[order[d]] end
      return self:var(s, a.kind, ("ga.moveaxis(%s, %d, %d)"):format(a.name, la, lb),
                      ("np.moveaxis(%s, %d, %d)"):format(a.name, pa, pb))
    end
    if nd < 2 then return self:unary(a) end
    local k = random(-2, 5)
    local ax = distinct_axes(nd, 2)
    local s = copy(a.shape)
    if k % 2 == 1 then s[ax[1]], s[ax[2]] = s[ax[2]], s[ax[1]] end
    return self:var(s, a.kind, ("ga.rot90(%s, %d, {%d, %d})"):format(a.name, k, ax[1], ax[2]),
                    ("np.rot90(%s, %d, (%d, %d))"):format(a.name, k, ax[1] - 1, ax[2] - 1))
  end

  function Program:pad(a)
    local nd = #a.shape
    if nd == 0 or H.has_zero(a.shape) then return self:unary(a) end
    local modes = { "constant", "edge", "reflect", "symmetric", "wrap" }
    if a.kind ~= "c" then
      modes[#modes + 1] = "maximum"
      modes[#modes + 1] = "minimum"
    end
    local mode = pick(modes)
    local lw, pw, s = {}, {}, {}
    for d = 1, nd do
      -- pads up to the axis length less one: NumPy 1.x and 2.x agree there
      local m = math.max(0, a.shape[d] - 1)
      if mode == "constant" or mode == "edge" or mode == "maximum" or mode == "minimum" then m = 3 end
      local b, c = random(0, m), random(0, m)
      lw[d], pw[d] = ("{%d, %d}"):format(b, c), ("(%d, %d)"):format(b, c)
      s[d] = a.shape[d] + b + c
    end
    local lopt, popt = "", ""
    if mode == "constant" and random() < 0.6 then
      local v = a.kind == "b" and 1 or random(0, 9)
      lopt, popt = (", {constant_values = %d}"):format(v), (", constant_values=%d"):format(v)
    elseif (mode == "reflect" or mode == "symmetric") and a.kind ~= "b" and a.kind ~= "u" and random() < 0.3 then
      lopt, popt = ', {reflect_type = "odd"}', ", reflect_type='odd'"
    end
    return self:var(s, a.kind, ("ga.pad(%s, {%s}, %q%s)"):format(a.name, table.concat(lw, ", "), mode, lopt),
                    ("np.pad(%s, (%s,), mode=%q%s)"):format(a.name, table.concat(pw, ", "), mode, popt))
  end

  function Program:rearrange(a)
    local nd = #a.shape
    if nd == 0 then return self:unary(a) end
    local r = random(100)
    local la, pa, ax = axis_of(nd)
    if r <= 20 then
      local reps = {}
      local lr, s = {}, {}
      for d = 1, nd do
        reps[d] = random(1, 2)
        lr[d] = tostring(reps[d])
        s[d] = a.shape[d] * reps[d]
      end
      return self:var(s, a.kind, ("ga.tile(%s, {%s})"):format(a.name, table.concat(lr, ", ")),
                      ("np.tile(%s, %s)"):format(a.name, tuple(lr)))
    end
    if r <= 40 then
      local n = a.shape[ax]
      local counts, total = {}, 0
      for i = 1, n do
        counts[i] = tostring(random(0, 3))
        total = total + tonumber(counts[i])
      end
      local s = copy(a.shape)
      s[ax] = total
      local list = "{" .. table.concat(counts, ", ") .. "}"
      -- NumPy's list of counts is intp even when empty: the array says int64
      local lrep = random() < 0.5 and list or ("ga.array(%s, \"int64\")"):format(list)
      return self:var(s, a.kind, ("ga.repeat_(%s, %s, %d)"):format(a.name, lrep, la),
                      ("np.repeat(%s, [%s], axis=%d)"):format(a.name, table.concat(counts, ", "), pa))
    end
    if r <= 55 then
      local s = copy(a.shape)
      if random() < 0.5 then
        s[ax] = s[ax] * 2
        return self:var(s, a.kind, ("ga.concatenate({%s, %s}, %d)"):format(a.name, a.name, la),
                        ("np.concatenate((%s, %s), %d)"):format(a.name, a.name, pa))
      end
      local ls, ps, st = axis_of(nd + 1)
      s = copy(a.shape)
      table.insert(s, st, 2)
      return self:var(s, a.kind, ("ga.stack({%s, %s}, %d)"):format(a.name, a.name, ls),
                      ("np.stack((%s, %s), %d)"):format(a.name, a.name, ps))
    end
    if r <= 70 then
      local n = a.shape[ax]
      local k = random(1, 3)
      local s = copy(a.shape)
      s[ax] = n // k + ((n % k) > 0 and 1 or 0)
      return self:var(s, a.kind, ("ga.array_split(%s, %d, {axis = %d})[1]"):format(a.name, k, la),
                      ("np.array_split(%s, %d, axis=%d)[0]"):format(a.name, k, pa))
    end
    if r <= 85 and a.shape[ax] > 0 then
      local n = a.shape[ax]
      local p = random(1, n)
      local s = copy(a.shape)
      if random() < 0.5 then
        s[ax] = n - 1
        return self:var(s, a.kind, ("ga.delete(%s, %d, %d)"):format(a.name, p, la),
                        ("np.delete(%s, %d, %d)"):format(a.name, p - 1, pa))
      end
      local v = random(0, 1)
      p = random(1, n + 1)
      s[ax] = n + 1
      return self:var(s, a.kind, ("ga.insert(%s, %d, %d, %d)"):format(a.name, p, v, la),
                      ("np.insert(%s, %d, %d, %d)"):format(a.name, p - 1, v, pa))
    end
    if a.kind ~= "c" and a.kind ~= "b" then
      -- sorted along an axis through the positions argsort gives (stable in both)
      return self:var(copy(a.shape), a.kind,
                      ("ga.take_along_axis(%s, ga.argsort(%s, %d), %d)"):format(a.name, a.name, la, la),
                      ("np.take_along_axis(%s, np.argsort(%s, axis=%d, kind='stable'), %d)")
                        :format(a.name, a.name, pa, pa))
    end
    local s = H.random_shape(2)
    return self:var(s, a.kind, ("ga.full_like(%s, 1, {shape = %s})"):format(a.name, H.shape_lit(s)),
                    ("np.full_like(%s, 1, shape=%s)"):format(a.name, H.shape_lit(s, true)))
  end

  return {
    { "manip_axes", 5 }, { "pad", 4 }, { "rearrange", 6 },
  }
end
