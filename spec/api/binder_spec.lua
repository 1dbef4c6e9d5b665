--- The declarations and the binder (API.md §0), on the CPU: the grammar,
-- positional and options forms, defaults, types, unknown keys with the
-- nearest name, surplus arguments, errors renamed to the public function.
local helper = require "helper"
local ga = helper.ga
local api = require "gpuarray.api"

local function pack(...) return table.pack(...) end

local function decl(text)
  return api.def(nil, text, pack)
end

local function err_of(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return e
end

describe("api: the binder", function()
  local f = decl [[
demo.f(a: array_like, k: integer = 0, b: boolean?, *, mode: "constant"|"reflect" = "constant",
       dtype: dtype?, axis|ax: axes?) -> ndarray
A demonstration.
]]

  it("fills every parameter by position, defaults in", function()
    local r = f(7)
    assert.are.same({ n = 6, 7, 0, nil, "constant", nil, nil }, r)
    r = f(7, 3, true)
    assert.are.same({ 7, 3, true, "constant" }, { r[1], r[2], r[3], r[4] })
  end)

  it("takes every optional parameter by name too, and both forms agree", function()
    for _ = 1, 20 do
      local k = math.random(-5, 5)
      local b = math.random() < 0.5
      local p, o = f(1, k, b), f(1, { k = k, b = b })
      assert.are.same(p, o)
      local mixed = f(1, k, { b = b, mode = "reflect", dtype = "float32", axis = { 1, -1 } })
      assert.are.same({ 1, k, b, "reflect", "float32", { 1, -1 } }, { table.unpack(mixed, 1, 6) })
    end
  end)

  it("knows aliases", function()
    assert.are.same({ 2 }, f(1, { ax = { 2 } })[6])
    assert.matches("name the same option", err_of(f, 1, { ax = 1, axis = 2 }))
  end)

  it("raises on unknown keys, suggesting the nearest name", function()
    assert.are.equal("gpuarray: demo.f: unknown option 'axsi' (did you mean 'axis'?)", err_of(f, 1, { axsi = 2 }))
    assert.are.equal("gpuarray: demo.f: unknown option 'MODE' (did you mean 'mode'?)", err_of(f, 1, { MODE = "x" }))
    assert.are.equal("gpuarray: demo.f: unknown option 'zzzzzz'", err_of(f, 1, { zzzzzz = 1 }))
    -- a transposition counts one
    assert.matches("did you mean 'dtype'", err_of(f, 1, { dtpye = "int8" }))
  end)

  it("raises on wrong types: a table is never true", function()
    assert.are.equal("gpuarray: demo.f: b must be a boolean or nil, got table", err_of(f, 1, 0, { 1 }))
    assert.are.equal("gpuarray: demo.f: k must be an integer or nil, got 2.5", err_of(f, 1, 2.5))
    assert.matches('mode must be one of "constant", "reflect" or nil, got "reflct" %(did you mean "reflect"%?%)',
                   err_of(f, 1, { mode = "reflct" }))
    assert.matches("dtype must be a dtype or nil, got \"float33\"", err_of(f, 1, { dtype = "float33" }))
    assert.matches("axis must be an integer or a list of integers or nil", err_of(f, 1, { axis = { 1.5 } }))
  end)

  it("raises on surplus and missing arguments, and on an argument given twice", function()
    assert.are.equal("gpuarray: demo.f: too many arguments (at most 3, got 4)", err_of(f, 1, 2, true, 4))
    assert.are.equal("gpuarray: demo.f: missing argument 'a'", err_of(f))
    assert.are.equal("gpuarray: demo.f: k given both as argument 2 and as option 'k'", err_of(f, 1, 2, { k = 3 }))
  end)

  it("reads `{}` as a value where the parameter takes a table, else as empty options", function()
    local g = decl [[demo.g(x: number, axis: axes?)]]
    assert.are.same({}, g(1, {})[2])
    local h = decl [[demo.h(x: number, k: integer = 0)]]
    assert.are.equal(0, h(1, {})[2])
    -- a table with a non-string key is a value: a type error here
    assert.matches("k must be an integer", err_of(h, 1, { 1, k = 2 }))
  end)

  -- the binder accepts the common values from a mask of the parameter's
  -- kinds (ndarrays by their metatable) and leaves the rest to the full
  -- test, which words the error: both must agree
  it("checks types by the quick test and the full one alike", function()
    local q = decl [[demo.q(x: ndarray, y: array_like?, n: integer?, c: callable?, u: userdata?, o: object?)]]
    local x = ga.empty(0)   -- size 0: no device needed
    local r = q(x, x, 2, print, x, x)
    assert.are.equal(x, r[1])
    assert.are.equal(x, r[2])
    assert.are.equal(x, r[6])
    assert.are.equal(7, q(x, ga.int32(7))[2]:item())   -- a typed scalar is array_like
    assert.are.equal("gpuarray: demo.q: x must be an ndarray, got gpuarray.scalar", err_of(q, ga.int32(7)))
    assert.are.equal("gpuarray: demo.q: y must be an array (an ndarray, a number, a boolean or a nested table) "
                     .. "or nil, got gpuarray.dtype", err_of(q, x, ga.float32))
    assert.are.equal("gpuarray: demo.q: n must be an integer or nil, got 2.0", err_of(q, x, nil, 2.0))
    local callable = setmetatable({}, { __call = print })
    assert.are.equal(callable, q(x, nil, nil, callable)[4])
    assert.are.equal(io.stdout, q(x, nil, nil, nil, io.stdout)[5])
    assert.are.equal("gpuarray: demo.q: o must be an object or nil, got table", err_of(q, x, nil, nil, nil, nil, {}))
  end)

  it("reads an options table in one walk: counts first, then unknown keys, then types", function()
    local q = decl [[demo.w(x: number, n: integer?, *, mode: "a"|"b" = "a")]]
    assert.are.equal("gpuarray: demo.w: too many arguments (at most 2, got 3)", err_of(q, 1, 2, 3, { zz = 1 }))
    assert.are.equal("gpuarray: demo.w: unknown option 'mdoe' (did you mean 'mode'?)",
                     err_of(q, 1, { mdoe = "b", n = 2.5 }))
    -- a non-string key makes the table a value, whatever its other keys
    assert.are.equal("gpuarray: demo.w: n must be an integer or nil, got table", err_of(q, 1, { zz = 1, [1] = 2 }))
    assert.are.same({ n = 3, 1, 4, "b" }, q(1, { mode = "b", n = 4 }))
    assert.are.equal("gpuarray: demo.w: n given both as argument 2 and as option 'n'", err_of(q, 1, 2, { n = 4 }))
  end)

  it("passes ... values after the named parameters", function()
    local g = decl [[demo.v(...: number, *, indexing: "xy"|"ij" = "xy")]]
    assert.are.same({ n = 4, "ij", 1, 2, 3 }, g(1, 2, 3, { indexing = "ij" }))
    assert.are.same({ n = 1, "xy" }, g())
    assert.matches("each extra argument must be a number", err_of(g, 1, "x"))
  end)

  it("declares methods: self first, errors by the method's name", function()
    local m = decl [[ndarray:fill2(value: scalar)]]
    assert.are.equal("gpuarray: fill2: self must be an ndarray, got 5", err_of(m, 5, 1))
    local s = decl [[Thing:go(n: integer = 1)]]
    assert.matches("^gpuarray: Thing.go: self must be a Thing", err_of(s, {}, 2))
    api.set_type("Thing", function(v) return type(v) == "table" and v.thing == true end)
    assert.are.same({ n = 2, { thing = true }, 5 }, s({ thing = true }, { n = 5 }))
  end)

  it("renames errors of what the function calls to the function the user called", function()
    local inner = api.def(nil, [[demo.inner(x: integer)]], function(x)
      error("gpuarray: demo.inner: bad " .. x, 0)
    end)
    local outer = api.def(nil, [[demo.outer(x: integer)]], function(x) return inner(x) end)
    local cuda = api.def(nil, [[demo.cuda()]], function() error("gpuarray: cudaMalloc: failed", 0) end)
    local other = api.def(nil, [[demo.other()]], function() error({ code = 1 }) end)
    assert.are.equal("gpuarray: demo.outer: bad 3", err_of(outer, 3))
    assert.are.equal("gpuarray: demo.inner: bad 3", err_of(inner, 3))
    assert.are.equal("gpuarray: demo.cuda: cudaMalloc: failed", err_of(cuda))
    assert.are.same({ code = 1 }, err_of(other))
    -- the binding errors of an inner call name the outer one too
    local outer2 = api.def(nil, [[demo.outer2()]], function() return inner("x") end)
    assert.are.equal("gpuarray: demo.outer2: x must be an integer, got \"x\"", err_of(outer2))
    -- user code run by a public function names what it calls itself
    local runs = api.def(nil, [[demo.runs(fn: function)]], function(fn) return api.call_user(fn) end)
    assert.are.equal("gpuarray: demo.inner: bad 4", err_of(runs, function() return inner(4) end))
    assert.are.equal("plain", err_of(runs, function() error("plain", 0) end))
    -- and the state is clean after errors
    assert.are.equal("gpuarray: demo.inner: bad 5", err_of(inner, 5))
  end)

  it("survives coroutines yielding through a declared function", function()
    local runs = api.def(nil, [[demo.co(fn: function)]], function(fn) return api.call_user(fn) end)
    local co = coroutine.wrap(function() return runs(function() coroutine.yield(1) return 2 end) end)
    assert.are.equal(1, co())
    assert.are.equal(2, co())
  end)

  it("refuses bad declarations, naming them", function()
    for _, text in ipairs {
      "f", "f(a", "f(a,)", "f(a = 1, b)", "f(a: notype!)", "f(a, a)", "f(*, *)", "f(...: number, ...)",
      "f(a = bogus)", "1f()", "f() junk", "f(a\0b)",
    } do
      local ok, e = pcall(api.declare, text)
      assert.is_false(ok, text)
      assert.matches("^gpuarray: api.parse: ", e, 1, false, text)
    end
  end)

  it("renders the reference entry from the declaration", function()
    local text = api.render(api.entry(f))
    assert.matches("demo.f%(a: array_like, k: integer = 0, b: boolean%?, %*, mode:", text)
    assert.matches("| `axis, ax` | axes%? | nil | by name |", text)
    assert.matches("Returns: ndarray.", text, 1, true)
    assert.are.equal(text, api.render(api.entry("demo.f")))
  end)

  it("edit distance: transpositions count one", function()
    local d = api.declare [[demo.e(*, abcd: integer?)]]
    assert.is_truthy(d)
    assert.are.equal("gpuarray: demo.e: unknown option 'bacd' (did you mean 'abcd'?)",
                     err_of(function() return api.apply(d, { bacd = 1 }) end))
  end)
end)

describe("api: ga.help", function()
  it("returns the reference entry of a function or a name", function()
    assert.are.equal(ga.help(ga.triu), ga.help("triu"))
    assert.matches("triu%(m: array_like, k: integer = 0%) %-> ndarray", ga.help("ga.triu"))
    assert.matches("no declaration", err_of(ga.help, "no_such_function"))
  end)
end)
