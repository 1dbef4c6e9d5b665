-- The ndarray as CuPy's: x.real, x.imag (views, writable: x.real = y,
-- x.imag[{ga.ellipsis}] = 0), x.flat, x.mT, x.nbytes/itemsize/base, and
-- the methods (the functions with the array first, declared once, plus
-- view, item, tobytes, tolist, partition with their own signatures).
-- CI (no GPU): views of empty arrays, the method table, the declarations.
-- GPU: values.
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it
local internal = require "gpuarray.internal"
local api = require "gpuarray.api"

local METHODS = {
  "all", "any", "argmax", "argmin", "argpartition", "argsort", "choose", "clip", "compress", "conj", "cumprod",
  "cumsum", "diagonal", "dot", "fill", "flatten", "item", "max", "mean", "min", "nonzero", "partition", "prod", "ptp",
  "put", "ravel", "repeat", "repeat_", "reshape", "round", "searchsorted", "sort", "squeeze", "std", "sum",
  "swapaxes", "take", "tobytes", "tolist", "trace", "transpose", "var", "view", "astype", "copy",
}

describe("the ndarray's fields and methods without a device", function()
  it("has CuPy's methods (tofile comes with the I/O routines)", function()
    for _, m in ipairs(METHODS) do
      assert(ga.methods[m] ~= nil, "no method " .. m)
    end
    for _, m in ipairs(internal.missing_methods) do assert.are.equal("tofile", m) end
    assert.are.equal(ga.repeat_, ga.methods["repeat"])
    for _, m in ipairs { "view", "item", "tobytes", "tolist", "reshape", "transpose", "astype", "copy", "fill",
                         "flatten", "ravel", "take", "compress" } do
      assert(api.entry("ndarray:" .. m), "ndarray:" .. m .. " is not declared")
    end
  end)

  it("real and imag are views of the parts; view reinterprets; mT swaps the last axes", function()
    local z = ga.empty({ 0, 3 }, "complex64")
    local re, im = z.real, z.imag
    assert.are.equal("float32", re.dtype)
    assert.are.equal("float32", im.dtype)
    assert.are.same(z.strides, re.strides)
    assert.are.same(z.strides, im.strides)
    assert.are.equal(z, re.base)
    local r = ga.empty({ 0, 3 }, "int16")
    assert.are.equal("int16", r.real.dtype)
    assert.are.same({ 0, 3 }, r.imag.shape)
    helper.assert_gaerror(function() r.imag = 1 end, "imag: a int16 array has no imaginary part to set")
    helper.assert_gaerror(function() r.shape = 1 end, "fields are read-only ('shape')")
    local f = ga.empty({ 0, 4 }, "float32")
    local v = f:view("float64")
    assert.are.same({ 0, 2 }, v.shape)
    assert.are.same({ 16, 8 }, v.strides)
    assert.are.same({ 0, 8 }, f:view("int16").shape)
    assert.are.equal("uint32", f:view("uint32").dtype)
    helper.assert_gaerror(function() ga.empty({ 0, 3 }, "float32"):view("float64") end,
                          "view: the last axis (12 bytes) is not a multiple of the new itemsize 8")
    assert.are.same({ 0, 4, 2 }, ga.empty({ 0, 2, 4 }).mT.shape)
    helper.assert_gaerror(function() return ga.empty({ 0 }).mT end, "mT: the array must have at least 2 dimensions")
    assert.are.equal(0, #ga.empty({ 0, 2 }).flat)
    assert.are.equal(12, ga.empty({ 0, 3 }, "float32").itemsize * 3)
    helper.assert_gaerror(function() return ga.empty(0).nosuchfield end, "ndarray has no field or method 'nosuchfield'")
  end)
end)

describe("the ndarray's fields and methods on the device", function()
  gpu_it("x.real = y, x.imag[...] = 0, and views that write through", function()
    local z = ga.array({ { 1, 2 }, { 3, -4 } }, "complex128")
    assert.are.same({ 1, 3 }, z.real:totable())
    assert.are.same({ 2, -4 }, z.imag:totable())
    z.real = ga.array({ 10, 30 })
    assert.are.same({ { 10, 2 }, { 30, -4 } }, z:totable())
    z.imag[{ ga.ellipsis }] = 0
    assert.are.same({ { 10, 0 }, { 30, 0 } }, z:totable())
    z.imag = 5
    assert.are.same({ { 10, 5 }, { 30, 5 } }, z:totable())
    local r = ga.array({ 1.5, 2.5 }, "float32")
    r.real = 7
    assert.are.same({ 7, 7 }, r:totable())
    assert.are.same({ 0, 0 }, r.imag:totable())
  end)

  gpu_it("x.flat reads and writes by 1-based flat position", function()
    local x = ga.arange(12, "int32"):reshape(3, 4)
    local f = x.flat
    assert.are.equal(12, #f)
    assert.are.equal(0, f[1])
    assert.are.equal(11, f[-1])
    assert.are.equal(5, f[6])
    assert.are.same({ 2, 3, 4 }, f[{ 3, 5 }]:totable())
    assert.are.same({ 11, 0 }, f[ga.array({ 12, 1 })]:totable())
    f[2] = 100
    f[{ 11, 12 }] = { -1, -2 }
    assert.are.same({ { 0, 100, 2, 3 }, { 4, 5, 6, 7 }, { 8, 9, -1, -2 } }, x:totable())
    local t = x:transpose()
    t.flat = { 1, 2 }
    assert.are.same({ { 1, 2, 1 }, { 2, 1, 2 }, { 1, 2, 1 }, { 2, 1, 2 } }, t:totable())
    assert.are.same(x:transpose():flatten():totable(), t.flat:copy():totable())
  end)

  gpu_it("view, tobytes in F order, tolist of 0-d, item, nbytes; methods with options", function()
    local x = ga.array({ 1, 2, 3, 4 }, "int32")
    local v = x:view("int16")
    assert.are.same({ 1, 0, 2, 0, 3, 0, 4, 0 }, v:totable())
    v[1] = 5
    assert.are.equal(5, x[1])
    assert.are.equal(16, x.nbytes)
    local m = ga.array({ { 1, 2 }, { 3, 4 } }, "int8")
    assert.are.equal(string.char(1, 3, 2, 4), m:tobytes("F"))
    assert.are.equal(string.char(1, 2, 3, 4), m:tobytes())
    assert.are.equal(7, ga.array(7):tolist())
    assert.are.same({ 1, 2 }, ga.array({ 1, 2 }, "complex64"):reshape({}):tolist())
    assert.are.equal(4, m:item(2, 2))
    assert.are.same({ 1, 1, 2, 2, 3, 3, 4, 4 }, m["repeat"](m, 2):totable())
    assert.are.same({ { 2 }, { 4 } }, m:compress({ false, true }, 2):totable())
    assert.are.same({ 3, 2 }, ga.array({ 2, 1 }):choose({ { 1, 2 }, { 3, 4 } }):totable())
    if ga.partition then
      local p = ga.array({ 5, 1, 4, 2, 3 })
      p:partition(3)
      assert.are.equal(3, p[3])
    end
    assert.are.same({ { 1, 3 }, { 2, 4 } }, m:transpose(2, 1):totable())
    assert.are.same({ 4, 1 }, m:reshape(4, 1, { order = "C" }).shape)
    assert.are.same({ 1, 3, 2, 4 }, m:ravel("F"):totable())
  end)
end)
