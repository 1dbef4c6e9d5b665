-- What probing by hand found (issue 24), each as it reproduced: crashes of
-- the process, kernels compiled from other code than the user wrote, and
-- errors without the prefix. Each case failed (or killed busted) before its
-- fix. The GPU cases (linalg's singular matrices) are gpu_it.
local helper = require "helper"
local ga = helper.ga
local core = ga._core
local gaerror = helper.assert_gaerror

local function tmpfile(bytes)
  local path = os.tmpname()
  local f = assert(io.open(path, "wb"))
  f:write(bytes)
  f:close()
  return path
end

-- A .npy v1 file with this header dict and the data bytes
local function npy(dict, data)
  local total = 10 + #dict + 1
  local pad = (64 - total % 64) % 64
  return "\x93NUMPY\1\0" .. string.pack("<I2", #dict + pad + 1) .. dict .. (" "):rep(pad) .. "\n" .. (data or "")
end

describe("issue 24: NVRTC cannot take the process down", function()
  it("a name expression NVRTC lowers to no name is an error (was strlen(NULL))", function()
    gaerror(function()
      return ga.RawModule('extern "C" __global__ void k(){} // \255', { name_expressions = { "k" } })
    end, "RawModule: name expression 'k': NVRTC lowered it to no name")
  end)

  it("malformed name expressions are refused before NVRTC sees them", function()
    local src = "template <typename T, int N> __global__ void scale(T *x) { x[0] *= N; }"
    for expr, why in pairs({
      ["scale<float, (4>"] = "'(' is never closed",
      ["scale<float, 4"] = "'<' is never closed",
      ["scale<float, 4>>"] = "'>' closes nothing",
      ["scale<float, 4)>"] = "')' closes another bracket",
      ["scale<float, [4)>"] = "')' closes another bracket",
      ["scale<float; 4>"] = "';' cannot be part of a name",
      ["scale<\"x\", 4>"] = "'\"' cannot be part of a name",
      ["scale<float,\n4>"] = "byte 0x0a cannot be part of a name",
      ["scal\195\169<float, 4>"] = "byte 0xc3 cannot be part of a name",
      ["<float>"] = "it does not start with a name",
      [""] = "it is empty",
      [("k<" .. ("(1)+"):rep(300) .. "1>")] = "it is longer than 1024 bytes",
    }) do
      gaerror(function() return ga.RawModule(src, { name_expressions = { expr } }) end,
        "is not a name: " .. why)
      local ok, got = core._test.name_expr_check(expr)
      assert.is_false(ok, expr)
      assert.truthy(got:find(why, 1, true), expr .. ": " .. tostring(got))
    end
    for _, expr in ipairs({ "scale<float, 4>", "&scale<double, (4 > 2) + 1>", "::ns::k<int, sizeof(int[2])>",
                            "k", "k<>", "k<float, -1>" }) do
      assert.is_true(core._test.name_expr_check(expr), expr)
    end
  end)

  it("a source that crashes NVRTC is compiled in a child: the crash is an error", function()
    -- NVRTC 13 dies of SIGSEGV on this pair in the compiling process (a
    -- later NVRTC may answer with a compile error instead: also fine)
    local ok, err = pcall(ga.RawModule, "template <typename T, int N> __global__ void scale(T__align__(",
      { name_expressions = { "scale<float, 4>" } })
    assert.is_false(ok)
    assert.truthy(tostring(err):find("^gpuarray: RawModule: NVRTC crashed compiling this source %(in a child process")
      or tostring(err):find("^gpuarray: RawModule: compile error"), tostring(err))
    -- and the process goes on compiling
    local m = ga.RawModule("template <typename T> __global__ void twice(T *x) { x[0] *= 2; }",
      { name_expressions = { "twice<float>", "twice<double>" } })
    assert.same({ "twice<float>", "twice<double>" }, m.name_expressions)
    assert.equal("twice<double>", m:get_function("twice<double>").name)
  end)

  it("compile errors from a child process carry NVRTC's log and the source line", function()
    local ok, err = pcall(ga.RawModule, "template <typename T> __global__ void k(T *x) { x[0] = undefined_name; }",
      { name_expressions = { "k<float>" } })
    assert.is_false(ok)
    assert.truthy(err:find("^gpuarray: RawModule: compile error"), err)
    assert.truthy(err:find("line 1: template", 1, true), err)
    assert.truthy(err:find("undefined_name", 1, true), err)
  end)

  it("which compiles run in a child: suspicious sources and name expressions", function()
    local clean = "extern \"C\" __global__ void k(float *x) { x[0] = 1.0f; /* ( */ const char *s = \")\"; }"
    assert.is_nil(core._test.compile_isolated(clean))
    assert.is_nil(core._test.compile_isolated("#define OPEN (\n__global__ void k() {}"))   -- directives aside
    assert.is_nil(core._test.compile_isolated("auto s = R\"x(\n)\" )x\";\nint n = 1'000;"))
    assert.is_nil(core._test.compile_isolated("// caf\195\169\n__global__ void k() {}"))   -- valid UTF-8
    assert.equal("name expressions", core._test.compile_isolated(clean, 1))
    for src, why in pairs({
      ["__global__ void k() {} // \255"] = "invalid UTF-8 at offset 26",
      ["__global__ void k() {} // \192\128"] = "invalid UTF-8",                  -- overlong
      ["__global__ void k() {} // \237\160\128"] = "invalid UTF-8",              -- a surrogate
      ["__global__ void k() {\1}"] = "control byte 0x01",
      ["__global__ void k(T__align__("] = "'(' is never closed",
      ["__global__ void k() { x[1) }"] = "')' on line 1 closes another bracket",
      ["__global__ void k() {}\n}"] = "'}' on line 2 closes nothing",
      ["/* open\n\n__global__ void k() {}"] = "a comment opened on line 1 is never closed",
      ["const char *s = \"abc;\nint x;"] = "a string literal on line 1 is never closed",
      ["#define S R\"x(abc\n__global__ void k() {}"] = "a raw string opened on line 1 is never closed",
    }) do
      local got = core._test.compile_isolated(src)
      assert.truthy(got and got:find(why, 1, true), ("%q: %s"):format(src, tostring(got)))
    end
  end)
end)

describe("issue 24: a NUL byte never cuts code, names or paths", function()
  it("ElementwiseKernel: operation, name, parameter lists, options", function()
    gaerror(function() return ga.ElementwiseKernel("T x", "T y", "y = x;\0 y = 2*x;", "k") end,
      "ElementwiseKernel: operation contains a NUL byte")
    gaerror(function() return ga.ElementwiseKernel("T x", "T y", "y = x;", "k\0evil") end,
      "ElementwiseKernel: name contains a NUL byte")
    gaerror(function() return ga.ElementwiseKernel("T x\0", "T y", "y = x;") end,
      "ElementwiseKernel: in_params contains a NUL byte")
    gaerror(function() return ga.ElementwiseKernel("T x", "T y", "y = x;", "k", { preamble = "#define A\0" }) end,
      "ElementwiseKernel: preamble contains a NUL byte")
    gaerror(function() return ga.ElementwiseKernel("T x", "T y", "y = x;", "k", { options = { "-DA=1\0" } }) end,
      "ElementwiseKernel: an NVRTC option contains a NUL byte")
    assert.equal("k", ga.ElementwiseKernel("T x", "T y", "y = x;", "k").name)
  end)

  it("ReductionKernel: every expression, the name, the options", function()
    local args = { "T x", "T y", "x", "a + b", "y = a", "0", "r" }
    local whats = { "in_params", "out_params", "map_expr", "reduce_expr", "post_map_expr", "identity", "name" }
    for i, what in ipairs(whats) do
      local a = { table.unpack(args) }
      a[i] = a[i] .. "\0junk"
      gaerror(function() return ga.ReductionKernel(table.unpack(a)) end, what .. " contains a NUL byte")
    end
    local function red(opts) return ga.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "r", opts) end
    gaerror(function() return red({ preamble = "\0" }) end, "r: preamble contains a NUL byte")
    gaerror(function() return red({ options = "-O3\0" }) end, "r: an NVRTC option contains a NUL byte")
  end)

  it("RawKernel and RawModule: source, name, options, name expressions, get_function", function()
    local src = 'extern "C" __global__ void k(float *x) { x[0] = 1.0f; }'
    gaerror(function() return ga.RawKernel(src .. "\0garbage", "k") end, "RawKernel: the source contains a NUL byte")
    gaerror(function() return ga.RawKernel(src, "k\0x") end, "RawKernel: the kernel name contains a NUL byte")
    gaerror(function() return ga.RawKernel(src, "k", { options = { "-DX=1\0junk" } }) end,
      "RawKernel: options item 1 contains a NUL byte")
    gaerror(function() return ga.RawModule(src, { options = "-DX\0" }) end, "RawModule: options contains a NUL byte")
    gaerror(function() return ga.RawModule(src, { name_expressions = { "k", "k\0x" } }) end,
      "RawModule: name_expressions item 2 contains a NUL byte")
    local m = ga.RawModule("template <typename T> __global__ void k(T *x) { x[0] = 1; }",
      { name_expressions = { "k<int>" } })
    gaerror(function() return m:get_function("k<int>\0x") end, "get_function: the kernel name contains a NUL byte")
  end)

  it("dtype names, field names, save and load paths", function()
    gaerror(function() return ga.dtype("float32\0junk") end, "dtype: the dtype name contains a NUL byte")
    gaerror(function() return ga.empty(0, "int32\0") end, "empty: the dtype name contains a NUL byte")
    gaerror(function() return ga.empty(0):astype("int8\0") end, "astype: the dtype name contains a NUL byte")
    local x = ga.empty({ 0, 2 }, "float32")
    gaerror(function() return x["shape\0junk"] end, "ndarray has no field or method")
    assert.is_nil(ga.float32["name\0"])
    local path = os.tmpname()
    os.remove(path)
    gaerror(function() return ga.save(path .. "\0junk", x) end, "save: path contains a NUL byte")
    assert.is_nil(io.open(path, "rb"))   -- nothing was written under the cut name
    gaerror(function() return ga.load(path .. "\0junk") end, "load: path contains a NUL byte")
  end)
end)

describe("issue 24: .npy headers are read as NumPy reads them", function()
  local function load_dict(dict, data)
    local path = tmpfile(npy(dict, data))
    local ok, x = pcall(ga.load, path)
    os.remove(path)
    return ok, x
  end

  it("a repeated key keeps its last value (a Python dict)", function()
    local ok, x = load_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (5,), 'shape': (0, 3), }")
    assert.is_true(ok, x)
    assert.same({ 0, 3 }, x.shape)
    ok, x = load_dict("{'descr': '<f8', 'descr': '<i2', 'fortran_order': True, 'shape': (0,), }")
    assert.is_true(ok, x)
    assert.equal("int16", x.dtype)
  end)

  it("keys NumPy does not know, unquoted strings and quoted booleans are refused", function()
    for dict, why in pairs({
      ["{'descr': '<f8', 'fortran_order': False, 'shape': (0,), 'extra': 1}"] = "unknown key 'extra'",
      ["{'descr': <f8, 'fortran_order': False, 'shape': (0,)}"] = "the value of 'descr'",
      ["{'descr': '<f8', 'fortran_order': 'False', 'shape': (0,)}"] = "fortran_order must be True or False",
      ["{'descr': '<f8', 'fortran_order': False, 'shape': '(0,)'}"] = "shape must be a tuple",
      ["{'descr': '<f8', 'fortran_order': False, 'shape': (0,)} junk"] = "text after the dict",
      ["{'descr': '<f8', 'fortran_order': False}"] = "it needs descr, fortran_order and shape",
      ["{'descr': '<f8' 'fortran_order': False, 'shape': (0,)}"] = "no ',' or '}' after 'descr'",
      ["{'descr: '<f8', 'fortran_order': False, 'shape': (0,)}"] = "",
    }) do
      local ok, err = load_dict(dict)
      assert.is_false(ok, dict)
      assert.truthy(err:find("^gpuarray: load: ") and err:find(why, 1, true), dict .. " -> " .. err)
    end
    local ok, x = load_dict('{"descr": "|b1", "fortran_order": False, "shape": (2, 0)}')
    assert.is_true(ok, x)
    assert.same({ 2, 0 }, x.shape)
  end)
end)

describe("issue 24: ga.jit translates the function it is given, or raises", function()
  -- the statement (x[0] = ...) the kernel's source holds
  local function body(fn)
    local src = ga.jit.rawkernel(fn):source("float32[]")
    return src:match("\n%s*x%[0%] = ([^;]*);")
  end
  -- fns of a chunk, loaded from a string and from a file (the jit reads
  -- the file when it translates: removed after the tests)
  local files = {}
  teardown(function()
    for _, path in ipairs(files) do os.remove(path) end
  end)
  local function both(text)
    local from_string = { assert(load(text, text))() }
    local path = os.tmpname()
    local f = assert(io.open(path, "wb"))
    f:write(text)
    f:close()
    local from_file = { assert(loadfile(path))() }
    files[#files + 1] = path
    return from_string, from_file
  end

  it("two functions on one line", function()
    for _, fns in ipairs({ both("local double, triple = function(x) x[0] = x[0] * 2 end, " ..
                                "function(x) x[0] = x[0] * 3 end\nreturn double, triple") }) do
      assert.equal("(x[0] * 3.0f)", body(fns[2]))
      assert.equal("(x[0] * 2.0f)", body(fns[1]))
    end
  end)

  it("a function on a line that begins inside a long string or comment", function()
    local texts = {
      "local s = [[\nlocal bad = function(x) x[0] = 7 end ]] local good = function(x) x[0] = 5 end\nreturn good",
      "--[==[\nlocal bad = function(x) x[0] = 7 end ]==] local good = function(x) x[0] = 5 end\nreturn good",
      "local s = 'a\\\nlocal bad = function(x) x[0] = 7 end' local good = function(x) x[0] = 5 end\nreturn good",
    }
    for _, text in ipairs(texts) do
      for _, fns in ipairs({ both(text) }) do assert.equal("5.0f", body(fns[1]), text) end
    end
  end)

  it("functions told apart by their parameters, '...', and their code", function()
    local a, b = both("local up = 3\nlocal f, g, h = function(x) x[0] = up end, function(x, n) x[0] = n end, " ..
                      "function(x) x[0] = up + 1 end\nreturn f, g, h")
    for _, fns in ipairs({ a, b }) do
      assert.equal("3.0f", body(fns[1]))
      assert.equal("4.0f", body(fns[3]))
      assert.truthy(ga.jit.rawkernel(fns[2]):source("float32[]", "float32"):find("x[0] = n;", 1, true))
    end
    -- the same code twice: either one is the function
    local same = both("local p, q = function(x) x[0] = 1 end, function(x) x[0] = 1 end\nreturn p, q")
    assert.equal("1.0f", body(same[2]))
  end)

  it("raises where the code cannot tell functions of one line apart", function()
    -- a <const> local is folded into each function's code, where a copy
    -- compiled alone reads a global: neither copy matches
    local fns = both("local K <const> = 4\nlocal a, b = function(x) x[0] = K end, function(x) x[0] = K + 1 end\n" ..
                     "return a, b")
    gaerror(function() return ga.jit.rawkernel(fns[2]) end,
      "jit: line 2: 2 functions on this line take (x) and end on line 2, and their code cannot tell which one this is")
  end)

  it("elementwisekernel reads the same function", function()
    local fns = both("local a, b = function(x) return x * 2 end, function(x) return x * 3 end\nreturn a, b")
    local _, d = ga.jit.elementwisekernel(fns[2]):source("float32")
    assert.truthy(d.preamble:find("(x * 3.0f)", 1, true), d.preamble)
    assert.falsy(d.preamble:find("(x * 2.0f)", 1, true), d.preamble)
  end)

  it("files with a #! line and methods", function()
    local path = os.tmpname()
    local f = assert(io.open(path, "wb"))
    f:write("#!/usr/bin/env lua5.4\nlocal t = {}\nfunction t:k(x) x[0] = 9 end local z = function(x) x[0] = 8 end\n" ..
            "return t, z")
    f:close()
    local t, z = assert(loadfile(path))()
    files[#files + 1] = path
    assert.equal("8.0f", body(z))
    assert.equal("9.0f", body(t.k))
  end)
end)

describe("issue 24: small inputs cannot exhaust memory", function()
  it("a pinned array's totable bounds the tables of an empty array, as the ndarray's does", function()
    local h = core._test.pinned_empty({ 1 << 30, 0 })
    gaerror(function() return h:totable() end, "totable: an empty array of shape {1073741824,0} would need more than")
    gaerror(function() return ga.empty({ 1 << 30, 0 }):totable() end, "totable: an empty array of shape")
    assert.same({ {}, {} }, core._test.pinned_empty({ 2, 0 }):totable())
    local v = core._test.pinned_empty({ 2, 3 }, "int32")
    v:set({ { 1, 2, 3 }, { 4, 5, 6 } })
    assert.same({ { 1, 2, 3 }, { 4, 5, 6 } }, v:totable())
  end)

  it("array_split returns at most 2^20 views", function()
    local t0 = os.clock()
    gaerror(function() return ga.array_split(ga.empty({ 0 }), 16777216) end,
      "array_split: 16777216 sections are more than the 1048576 views a split returns")
    gaerror(function() return ga.split(ga.empty({ 0 }), (1 << 20) + 1) end, "views a split returns")
    assert.is_true(os.clock() - t0 < 1, "the refusals take no time")
    local parts = ga.array_split(ga.empty({ 3, 0 }), 5)
    assert.equal(5, #parts)
    assert.same({ 1, 0 }, parts[3].shape)
    assert.same({ 0, 0 }, parts[5].shape)
  end)
end)

describe("issue 24: every error says gpuarray, every repr says its dtype", function()
  it("the comparison and in-place methods name themselves", function()
    local x = ga.empty({ 0 })
    for _, m in ipairs({ "add_", "sub_", "mul_", "div_", "pow_", "eq", "ne", "lt", "le", "gt", "ge" }) do
      gaerror(function() return x[m](x) end, m .. ": the second operand is missing")
      gaerror(function() return x[m](5, x) end, m .. ": expected an ndarray (x:" .. m .. "(y)), got number")
    end
    assert.same({ 0 }, x:add_(1).shape)
    assert.equal("bool", x:lt(x).dtype)
  end)

  it("a RawKernel of more than 128 parameters raises where it is made", function()
    local function src(n)
      local ps = {}
      for i = 1, n do ps[i] = "float *p" .. i end
      return 'extern "C" __global__ void k(' .. table.concat(ps, ", ") .. ") {}"
    end
    gaerror(function() return ga.RawKernel(src(129), "k") end,
      "RawKernel: kernel 'k' declares more than 128 parameters, the most a launch passes")
    gaerror(function() return ga.RawModule(src(200)):get_function("k") end,
      "get_function: kernel 'k' declares more than 128 parameters")
    local k = ga.RawKernel(src(128), "k")
    assert.equal(128, #k.params)
    assert.equal("p128", k.params[128].name)
  end)

  it("tostring of an empty array always names its dtype (NumPy's repr)", function()
    for _, dt in ipairs({ "bool", "float64", "int64", "float32", "complex64" }) do
      assert.equal("array([], dtype=" .. dt .. ")", tostring(ga.empty({ 0 }, dt)))
      assert.equal("array([], shape={2,0}, dtype=" .. dt .. ")", tostring(ga.empty({ 2, 0 }, dt)))
    end
  end)

  it("a pinned array set from an empty one copies nothing from nowhere (UBSan: memmove(NULL, NULL, 0))", function()
    local a, b = core._test.pinned_empty({ 0 }), core._test.pinned_empty({ 0 })
    a:set(b)
    assert.equal(0, #a:totable())
    local c, d = core._test.pinned_empty({ 2, 0 }, "int8"), core._test.pinned_empty({ 2, 0 }, "float32")
    c:set(d)
    assert.same({ {}, {} }, c:totable())
  end)
end)
