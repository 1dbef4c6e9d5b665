-- The layer check (tools/check-layers.lua, `make check-layers`): the real
-- tree passes, and a copy of it with an upward include, a cycle or Lua in
-- core/ fails naming the file and line. Runs without a GPU.
local function sh(cmd)
  local p = io.popen(cmd .. " 2>&1; echo \"rc=$?\"")
  local out = p:read("a")
  p:close()
  local rc = tonumber(out:match("rc=(%d+)%s*$"))
  return rc, out
end

local function copy_tree()
  local dir = os.tmpname()
  os.remove(dir)
  assert(sh(("mkdir -p %q && cp -r src %q/"):format(dir, dir)) == 0)
  return dir
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
    append(dir .. "/src/runtime/launch.c", '\n#include "engine/engine.h"\n')
    local rc, out = sh(("lua5.4 tools/check-layers.lua %q"):format(dir))
    sh(("rm -rf %q"):format(dir))
    assert.are.equal(1, rc, out)
    assert.matches("runtime/launch.c:%d+: includes \"engine/engine.h\": layer 'engine' is above 'runtime'", out)
  end)

  it("fails on an include cycle inside a layer", function()
    local dir = copy_tree()
    append(dir .. "/src/runtime/runtime.h", '\n#include "pool_internal.h"\n')
    local rc, out = sh(("lua5.4 tools/check-layers.lua %q"):format(dir))
    sh(("rm -rf %q"):format(dir))
    assert.are.equal(1, rc, out)
    assert.matches("include cycle: runtime/", out)
  end)

  it("fails when core/ takes a Lua state", function()
    local dir = copy_tree()
    append(dir .. "/src/core/shape.c", "\nint ga_bad(lua_State *L);\n")
    local rc, out = sh(("lua5.4 tools/check-layers.lua %q"):format(dir))
    sh(("rm -rf %q"):format(dir))
    assert.are.equal(1, rc, out)
    assert.matches("core/shape.c:%d+: core/ uses lua_State", out)
  end)
end)
