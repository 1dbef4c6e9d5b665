-- examples/host: C programs that embed Lua and gpuarray, built by
-- `make host-examples` against an installed tree (build/stage: the header, the
-- pkg-config file and the module, nothing of src/). Where there is no GPU
-- they build, load and say they skipped; on a GPU they run and check
-- everything in C (each prints "<name>: ok").
local helper = require "helper"

local sh = helper.sh

local built, build_log
local function build()
  if built == nil then
    built, build_log = sh("make --no-print-directory host-examples")
  end
  assert(built, build_log)
end

local function run(prog, args)
  build()
  local ok, out = sh(("build/examples/%s %s"):format(prog, args or ""))
  return ok, out
end

describe("examples/host", function()
  it("build against the installed tree alone", function()
    build()
    local f = assert(io.open("build/stage/lib/pkgconfig/gpuarray.pc"))
    local pc = f:read("a")
    f:close()
    assert.is_truthy(pc:find("build/stage/include", 1, true))
    assert.is_falsy(pc:find("/src", 1, true))
    assert.is_truthy(io.open("build/stage/include/gpuarray.h")):close()
    for _, prog in ipairs({ "embed_demo", "threads", "dlpack_roundtrip", "stream_handback", "soak" }) do
      assert.is_truthy(io.open("build/examples/" .. prog), prog):close()
    end
  end)

  it("soak: threads x states compile (NVRTC in forked children too), fuse, jit, save, load (GPU or not)",
    function()
      local ok, out = run("soak", "3 4")
      assert(ok and out:find("host_soak: ok", 1, true), out)
      local states = tonumber(out:match("(%d+) states"))
      assert(states and states >= 4, out)
      local counters = { "compiles", "raw_modules", "fuse_traces", "jit_translations", "npy_round_trips" }
      for _, counter in ipairs(counters) do
        assert((tonumber(out:match(counter .. " (%d+)")) or 0) > 0, counter .. ": " .. out)
      end
      if helper.gpu then
        local before, after = out:match("pool used bytes (%d+) before and (%d+) after")
        assert.equal(before, after)
      end
    end)

  if not helper.gpu then
    it("load and skip where there is no GPU", function()
      for _, prog in ipairs({ "embed_demo", "threads", "dlpack_roundtrip", "stream_handback" }) do
        local ok, out = run(prog)
        assert(ok, out)
        assert.equal("skipped: no CUDA device\n", out)
      end
    end)
  end

  helper.gpu_it("embed_demo: a host buffer and stream, ufuncs and a RawKernel, checked in C", function()
    local ok, out = run("embed_demo")
    print(out)
    assert(ok and out:find("embed_demo: ok", 1, true), out)
  end)

  -- issue 24, defect 8: the host's stream given back (lua_close,
  -- ga_set_stream(L, NULL)) and destroyed without ga_forget_stream, then a
  -- new state allocating the blocks freed on it; a ga.Stream collected with
  -- blocks freed on it cached. The pool logic is specced on the CPU in
  -- spec/runtime/pool_streams_spec.lua ("a host's stream given back").
  helper.gpu_it("stream_handback: a host's stream given back, destroyed, and the module used again", function()
    local ok, out = run("stream_handback")
    print(out)
    assert(ok and out:find("stream_handback: ok", 1, true), out)
  end)

  helper.gpu_it("dlpack_roundtrip: both layouts, each deleter exactly once", function()
    local ok, out = run("dlpack_roundtrip")
    print(out)
    assert(ok and out:find("dlpack_roundtrip: ok", 1, true), out)
  end)

  helper.gpu_it("threads: 8 threads x 1000 iterations, 8 states, pool back to its start", function()
    local ok, out = run("threads", "8 1000")
    print(out)
    assert(ok and out:find("threads: ok", 1, true), out)
    local before, after = out:match("used bytes (%d+) before and (%d+) after")
    assert.equal(before, after)
  end)
end)
