-- The C API (include/gpuarray.h): the header compiles alone as C and C++,
-- luaopen_gpuarray opens the module with no Lua files on disk, ga_check
-- describes arrays. Runs everywhere (ga_wrap and host streams need a GPU:
-- examples/host, host_spec.lua).
local helper = require "helper"
local ga = helper.ga
local core = ga._core

local function first_dir(list)
  for _, d in ipairs(list) do
    local f = io.open(d .. "/lua.h")
    if f then
      f:close()
      return d
    end
  end
end

local lua_inc = os.getenv("LUA_INCDIR") or first_dir({ "/usr/include/lua5.4", "/usr/local/include/lua5.4",
  "/usr/local/include", "/usr/include" })
local cuda_inc = (os.getenv("CUDA_HOME") or "/usr/local/cuda") .. "/include"

local sh = helper.sh

local function compiles(compiler, flags, source)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(source)
  f:close()
  local ok, out = sh(("%s %s -fsyntax-only -Iinclude -I%s -I%s %s"):format(compiler, flags, lua_inc, cuda_inc,
    path))
  os.remove(path)
  return ok, out
end

local uses_everything = [[
#include <gpuarray.h>
#include <gpuarray.h>
static int use(lua_State *L) {
  ga_desc d;
  int64_t shape[2] = {2, 3};
  if (!ga_test(L, 1, &d)) d = ga_check(L, 1);
  ga_wrap(L, d.data, GA_DT_FLOAT32, 2, shape, NULL, NULL, NULL);
  ga_set_stream(L, d.stream);
  ga_push_stream(L, d.stream);
  ga_forget_stream(d.stream);
  DLManagedTensor m;
  struct DLManagedTensorVersioned v;
  m.dl_tensor.dtype.code = kDLFloat;
  v.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  v.version.major = DLPACK_MAJOR_VERSION;
  (void)m; (void)v;
  return luaopen_gpuarray(L) + (GPUARRAY_VERSION_NUM > 0) + (ga_version() != NULL);
}
int main(void) { return use(NULL); }
]]

describe("include/gpuarray.h", function()
  local cc = os.getenv("CC") or "cc"
  local cxx = os.getenv("CXX") or "c++"

  it("compiles alone as C11 and C99 (with lua.h and cuda_runtime_api.h only)", function()
    assert(lua_inc, "lua.h not found")
    local ok, out = compiles(cc, "-x c -std=c11 -Wall -Wextra -Werror -pedantic", uses_everything)
    assert(ok, out)
    ok, out = compiles(cc, "-x c -std=c99 -Wall -Wextra -Werror", uses_everything)
    assert(ok, out)
  end)

  it("compiles as C++11", function()
    local ok, out = compiles(cxx, "-x c++ -std=c++11 -Wall -Wextra -Werror -pedantic", uses_everything)
    assert(ok, out)
  end)

  it("leaves DLPack to a dlpack.h included first", function()
    local src = "#define DLPACK_DLPACK_H_\n#include <gpuarray.h>\nint f(lua_State *L) { return luaopen_gpuarray(L); }\n"
    local ok, out = compiles(cc, "-x c -std=c11 -Wall -Wextra -Werror", src)
    assert(ok, out)
  end)

  it("has the module's version", function()
    local f = assert(io.open("include/gpuarray.h"))
    local text = f:read("a")
    f:close()
    local v = text:match('#define GPUARRAY_VERSION "([^"]+)"')
    assert.equal(ga.version, v)
    local major, minor, patch = v:match("^(%d+)%.(%d+)%.(%d+)$")
    assert.equal(major, text:match("#define GPUARRAY_VERSION_MAJOR (%d+)"))
    assert.equal(minor, text:match("#define GPUARRAY_VERSION_MINOR (%d+)"))
    assert.equal(patch, text:match("#define GPUARRAY_VERSION_PATCH (%d+)"))
  end)

  it("numbers dtypes as the module does", function()
    local f = assert(io.open("include/gpuarray.h"))
    local text = f:read("a")
    f:close()
    local body = text:match("typedef enum {(.-)} ga_dtype_id;")
    local i = 0
    for name in body:gmatch("GA_DT_(%w+)") do
      assert.equal(name:lower(), ga.dtype(name:lower()).name)
      i = i + 1
    end
    assert.equal(15, i)
  end)
end)

describe("luaopen_gpuarray", function()
  -- a fresh interpreter with no search paths at all: only the module file
  local function run_isolated(body)
    local script = os.tmpname()
    local f = assert(io.open(script, "w"))
    f:write(([[
package.path, package.cpath = "", ""
local open = assert(package.loadlib("build/gpuarray/core.so", "luaopen_gpuarray"))
%s
print("isolated ok")
]]):format(body))
    f:close()
    local ok, out = sh(("LUA_PATH= LUA_CPATH= LUA_INIT= lua5.4 %s"):format(script))
    os.remove(script)
    return ok and out:find("isolated ok", 1, true) ~= nil, out
  end

  it("opens the module with no Lua files on disk", function()
    local ok, out = run_isolated([[
package.preload["gpuarray.profiler.benchmark"] = function() return function(ga) ga.host_bench = true end end
local ga = open()
assert(package.loaded.gpuarray == ga, "not registered as gpuarray")
assert(package.loaded["gpuarray.core"] == ga._core, "gpuarray.core differs")
assert(type(ga.zeros) == "function" and type(ga.linalg.norm) == "function" and type(ga.fft.fftfreq) == "function")
assert(ga.host_bench, "a preload entry of the host was replaced")
assert(ga.methods.to_dlpack and ga.from_dlpack)
assert(open() == ga, "a second open gives another table")
local x = ga.empty({2, 0})
assert(x.shape[1] == 2 and x.shape[2] == 0 and x.dtype == "float64")
]])
    assert(ok, out)
  end)

  it("embeds every file of lua/gpuarray, each loadable by its module name", function()
    local p = io.popen("find lua -name '*.lua' | sort")
    local names = {}
    for path in p:lines() do
      names[#names + 1] = path:gsub("^lua/", ""):gsub("/init%.lua$", ""):gsub("%.lua$", ""):gsub("/", ".")
    end
    p:close()
    assert.is_true(#names > 10)
    local checks = {}
    for _, n in ipairs(names) do
      checks[#checks + 1] = ('assert(type(package.preload[%q]) == "function", %q)'):format(n, n)
    end
    local ok, out = run_isolated("open()\n" .. table.concat(checks, "\n"))
    assert(ok, out)
  end)

  it("names embedded files in errors and tracebacks", function()
    local ok, out = run_isolated([[
local ga = open()
local ok, err = pcall(ga.concatenate, {})
assert(not ok and err:find("gpuarray: ", 1, true), tostring(err))
-- public functions are bound C closures now: a Lua helper names its file
local where = debug.getinfo(require("gpuarray.internal").fail, "S").source
assert(where == "@lua/gpuarray/internal.lua", where)
]])
    assert(ok, out)
  end)
end)

describe("ga_check", function()
  it("describes an array read-only, views included", function()
    local x = ga.empty({ 3, 0, 4 }, "int16")
    local d = core._test.capi_desc(x)
    assert.same({ 3, 0, 4 }, d.shape)
    assert.same(x.strides, d.strides)
    assert.equal("int16", d.dtype)
    assert.equal(2, d.itemsize)
    assert.equal(0, d.size)
    assert.equal(0, d.data)
    assert.equal(x.device, d.device)
    assert.is_true(d.c_contiguous)
    assert.equal(ga.get_current_stream().ptr, d.stream)
    local t = core._test.capi_desc(x.T)
    assert.same({ 4, 0, 3 }, t.shape)
    local s = x.strides
    assert.same({ s[3], s[2], s[1] }, t.strides)
    assert.is_true(t.f_contiguous)
  end)

  it("raises for what is no usable array", function()
    helper.assert_gaerror(function() core._test.capi_desc(42) end, "expected an ndarray at argument 1, got number")
    helper.assert_gaerror(function() core._test.capi_desc(ga.Stream.null) end, "expected an ndarray")
    local x = ga.empty(0)
    x:free()
    helper.assert_gaerror(function() core._test.capi_desc(x) end, "the array at argument 1 was freed")
  end)
end)
