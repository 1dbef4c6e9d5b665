--- dtypes and promotion: ga.dtype, result_type over any mix of arrays,
-- dtypes, typed scalars and Lua values, the default dtype, astype.
return {
  name = "dtype",
  gen = function(F)
    local r = math.random(5)
    if r == 1 then return { op = "dtype", v = F.any(1) } end
    if r == 2 then return { op = "result_type", args = F.args(math.random(0, 5), function() return F.any(1) end) } end
    if r == 3 then return { op = "default", v = F.any(0) } end
    if r == 4 then return { op = "astype", x = F.array(), v = F.any(1), o = F.any(1) } end
    return { op = "names" }
  end,
  run = function(t, F)
    local ga = F.ga
    if t.op == "dtype" then return ga.dtype(t.v) end
    if t.op == "result_type" then return ga.result_type(table.unpack(t.args, 1, t.args.n)) end
    if t.op == "default" then
      local before = ga.get_default_dtype()
      local ok, err = pcall(ga.set_default_dtype, t.v)
      local x = ga.empty(0)
      local now = ga.get_default_dtype()
      ga.set_default_dtype(before)
      assert(x.dtype == now, "gpuarray: fuzz: empty() ignored the default dtype")
      if not ok then error(err, 0) end
      return
    end
    if t.op == "astype" then return t.x:astype(t.v, t.o) end
    return ga.dtype_names()
  end,
}
