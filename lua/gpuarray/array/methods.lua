--- The ndarray's methods as CuPy's ndarray has them (API.md §3, §14):
-- the functions with the array first (x:take(idx) is ga.take(x, idx)),
-- declared once as the function and aliased here, and the methods with a
-- signature of their own (view, item, tobytes, tolist, partition). Loaded
-- last, so that every room's functions exist. A method whose function is
-- missing is not made (no stubs): internal.missing_methods lists them.
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail = internal.fail
  local def = api.def
  local methods = ga.methods
  local core = ga._core

  local C = { item = methods.item, tobytes = methods.tobytes, totable = methods.totable }

  -- method name -> the function it is (the array its first argument)
  local ALIASES = {
    all = "all", any = "any", argmax = "argmax", argmin = "argmin", argpartition = "argpartition",
    argsort = "argsort", choose = "choose", clip = "clip", conj = "conj", conjugate = "conjugate",
    cumprod = "cumprod", cumsum = "cumsum", diagonal = "diagonal", dot = "dot", max = "max", mean = "mean",
    min = "min", nonzero = "nonzero", prod = "prod", ptp = "ptp", put = "put", ravel = "ravel",
    ["repeat"] = "repeat_", repeat_ = "repeat_", round = "round", searchsorted = "searchsorted",
    squeeze = "squeeze", std = "std", sum = "sum", swapaxes = "swapaxes", take = "take", trace = "trace",
    var = "var", tofile = "tofile", nanmax = "nanmax", nanmin = "nanmin", nansum = "nansum",
    expand_dims = "expand_dims", count_nonzero = "count_nonzero",
  }

  internal.missing_methods = {}
  for m, f in pairs(ALIASES) do
    local fn = ga[f]
    if fn == nil then
      if methods[m] == nil then internal.missing_methods[#internal.missing_methods + 1] = m end
    else
      if methods[m] == nil then methods[m] = fn end
      if api.entry(fn) and not api.entry("ndarray:" .. m) then api.alias("ndarray:" .. m, fn) end
    end
  end
  table.sort(internal.missing_methods)

  -- ndarray.partition sorts in place, as NumPy's (ga.partition returns a copy)
  if ga.partition and methods.partition == nil then
    def(methods, [[
ndarray:partition(kth: integer|list, axis: integer = -1)
Partition the array in place along axis: the element at 1-based position
kth is where a sort would put it, smaller ones before, larger after.
]], function(self, kth, axis)
      self:set(ga.partition(self, kth, axis))
    end)
  end

  def(methods, [[
ndarray:view(dtype: dtype?) -> ndarray
A view of the same memory as dtype (the array's own when nil). Another
itemsize rescales the last axis, which must be contiguous.
]], function(self, dtype)
    local t = dtype and args.dtype(ga, dtype) or self.dtype
    local old, new = self.itemsize, ga.dtype(t).itemsize
    local shape, strides = self.shape, self.strides
    if old ~= new then
      local nd = #shape
      if nd == 0 then fail(("view: a 0-d array cannot change its itemsize (%d to %d)"):format(old, new)) end
      if shape[nd] ~= 1 and strides[nd] ~= old then
        fail("view: the last axis must be contiguous to change the itemsize")
      end
      local bytes = shape[nd] * old
      if bytes % new ~= 0 then
        fail(("view: the last axis (%d bytes) is not a multiple of the new itemsize %d"):format(bytes, new))
      end
      shape[nd] = bytes // new
      strides[nd] = new
    end
    return core.ndarray.as_strided(self, shape, strides, 0, t)
  end)

  def(methods, [[
ndarray:item(...: integer) -> any
One element as a Lua value (a number, a boolean; two numbers, re and im,
for complex): the only element, the element at a flat 1-based position,
or at one 1-based index per axis. Synchronizes.
]], C.item)

  def(methods, [[
ndarray:tobytes(order: "C"|"F"|"A"|"K" = "C") -> string
The elements' raw bytes (C's layout of the dtype), read in C order or F
order ("A"/"K": F for an F-contiguous array that is not C-contiguous).
]], function(self, order)
    local f = self.flags
    if order == "F" or ((order == "A" or order == "K") and f.f_contiguous and not f.c_contiguous) then
      return C.tobytes(self:transpose())
    end
    return C.tobytes(self)
  end)

  def(methods, [[
ndarray:tolist() -> table
The elements as nested Lua lists (bool as booleans, complex as {re, im}
pairs); a 0-d array gives its value. Synchronizes.
]], function(self)
    if self.ndim == 0 then
      local re, im = C.item(self)
      if im ~= nil then return { re, im } end
      return re
    end
    return C.totable(self)
  end)

  def(methods, [[
ndarray:totable() -> table
The elements as nested Lua lists (bool as booleans, complex as {re, im}
pairs); a 0-d array gives its value as ndarray:tolist. Synchronizes.
]], C.totable)
end
