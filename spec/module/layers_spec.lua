-- The layer check (tools/check-layers.lua, `make check-layers`, run before
-- every build): the real tree passes, and a copy of it with an upward
-- include, a cycle, Lua in core/, an include of one feature room from
-- another that does not declare it, or rooms using each other in a circle
-- fails naming the file and line; `make all` on such a copy fails before
-- it compiles anything. Runs without a GPU.
local function sh(cmd)
  -- without LD_PRELOAD: under make asan, cp and make are not instrumented
  local p = io.popen("unset LD_PRELOAD; " .. cmd .. " 2>&1; echo \"rc=$?\"")
  local out = p:read("a")
  p:close()
  local rc = tonumber(out:match("rc=(%d+)%s*$"))
  return rc, out
end

local function copy_tree(what)
  local dir = os.tmpname()
  os.remove(dir)
  assert(sh(("mkdir -p %q && cp -r %s %q/"):format(dir, what or "src", dir)) == 0)
  return dir
end

local function check(dir)
  local rc, out = sh(("lua5.4 tools/check-layers.lua %q"):format(dir))
  sh(("rm -rf %q"):format(dir))
  return rc, out
end

local function replace(path, from, to)
  local f = assert(io.open(path))
  local text = f:read("a")
  f:close()
  local i, j = text:find(from, 1, true)
  assert(i, from)
  f = assert(io.open(path, "w"))
  f:write(text:sub(1, i - 1) .. to .. text:sub(j + 1))
  f:close()
end

local function append(path, text)
  local f = assert(io.open(path, "a"))
  f:write(text)
  f:close()
end

describe("layer check", function()
  it("passes on the tree as it is", function()
    local rc, out = sh("lua5.4 tools/check-layers.lua .")
    assert.are.equal(0, rc, out)
    assert.matches("layers: ok", out)
  end)

  it("fails on an include that goes up a layer", function()
    local dir = copy_tree()
    append(dir .. "/src/runtime/launch.c", '\n#include "array/array.h"\n')
    local rc, out = check(dir)
    assert.are.equal(1, rc, out)
    assert.matches("runtime/launch.c:%d+: includes \"array/array.h\": layer 'array' is above 'runtime'", out)
  end)

  it("fails on a layer below the rooms including a feature", function()
    local dir = copy_tree()
    append(dir .. "/src/array/copy.c", '\n#include "sort/sort.h"\n')
    local rc, out = check(dir)
    assert.are.equal(1, rc, out)
    assert.matches("array/copy.c:%d+: includes \"sort/sort.h\": layer 'array' is below the feature rooms", out)
  end)

  it("knows every room by its header's feature line", function()
    local rc, out = sh("lua5.4 tools/check-layers.lua .")
    assert.are.equal(0, rc, out)
    for _, room in ipairs { "elementwise", "reduction", "scan", "sort", "select", "random", "rawkernel", "blas",
                            "solver", "fft", "sparse", "nccl" } do
      local f = assert(io.open(("src/%s/%s.h"):format(room, room)), room)
      local text = f:read("a")
      f:close()
      assert.matches("/%* feature: " .. room .. " — uses: [%w_ ]+ %*/", text)
    end
  end)

  it("fails on an include of a feature the room does not declare", function()
    local dir = copy_tree()
    append(dir .. "/src/select/mask.c", '\n#include "sort/sort.h"\n')
    local rc, out = check(dir)
    assert.are.equal(1, rc, out)
    assert.matches("select/mask.c:%d+: includes \"sort/sort.h\": feature 'select' does not declare it uses 'sort' "
                   .. "%(select/select.h says uses: reduction%)", out)
  end)

  it("accepts it once the room's header declares it", function()
    local dir = copy_tree()
    append(dir .. "/src/select/mask.c", '\n#include "sort/sort.h"\n')
    replace(dir .. "/src/select/select.h", "uses: reduction", "uses: reduction sort")
    local rc, out = check(dir)
    assert.are.equal(0, rc, out)
  end)

  it("fails on a room's file other than its header", function()
    local dir = copy_tree()
    append(dir .. "/src/scan/scan.c", '\n#include "reduction/reduction_lua.c"\n')
    local rc, out = check(dir)
    assert.are.equal(1, rc, out)
    assert.matches("scan/scan.c:%d+: includes \"reduction/reduction_lua.c\": another room is reached through its "
                   .. "header reduction/reduction.h only", out)
  end)

  it("fails on rooms that use each other", function()
    local dir = copy_tree()
    replace(dir .. "/src/reduction/reduction.h", "uses: none", "uses: scan")
    local rc, out = check(dir)
    assert.are.equal(1, rc, out)
    assert.matches("feature cycle: reduction uses scan uses reduction", out)
  end)

  it("fails on a folder without a feature header, or a use of no room", function()
    local dir = copy_tree()
    sh(("mkdir -p %q/src/stats && echo 'int x;' > %q/src/stats/stats.c"):format(dir, dir))
    replace(dir .. "/src/sort/sort.h", "uses: none", "uses: sorting")
    local rc, out = check(dir)
    assert.are.equal(1, rc, out)
    assert.matches("stats/: a feature room needs its header stats/stats.h", out)
    assert.matches("sort/sort.h: uses 'sorting', which is no feature room of src/", out)
  end)

  it("fails the build: make all stops at the check, before compiling", function()
    local dir = copy_tree("Makefile src include kernels lua tools")
    append(dir .. "/src/select/mask.c", '\n#include "sort/sort.h"\n')
    local rc, out = sh(("make --no-print-directory -C %q all"):format(dir))
    local objs = select(2, sh(("find %q/build -name '*.o' | wc -l"):format(dir)))
    sh(("rm -rf %q"):format(dir))
    assert.are_not.equal(0, rc, out)
    assert.matches("feature 'select' does not declare it uses 'sort'", out)
    assert.are.equal(0, tonumber(objs:match("^%s*(%d+)")), "objects were compiled: " .. objs)
  end)

  it("fails on an include cycle inside a layer", function()
    local dir = copy_tree()
    append(dir .. "/src/runtime/runtime.h", '\n#include "pool_internal.h"\n')
    local rc, out = check(dir)
    assert.are.equal(1, rc, out)
    assert.matches("include cycle: runtime/", out)
  end)

  it("fails when core/ takes a Lua state", function()
    local dir = copy_tree()
    append(dir .. "/src/core/shape.c", "\nint ga_bad(lua_State *L);\n")
    local rc, out = check(dir)
    assert.are.equal(1, rc, out)
    assert.matches("core/shape.c:%d+: core/ uses lua_State", out)
  end)
end)
