rockspec_format = "3.0"
package = "gpuarray"
version = "0.2.0-1"
source = {
  url = "git+https://github.com/gpuarray/gpuarray.git",
  tag = "v0.2.0",
}
description = {
  summary = "CuPy for Lua: N-dimensional arrays in CUDA device memory",
  detailed = [[
    NumPy-style arrays on NVIDIA GPUs for Lua 5.4: creation, views, indexing,
    casting, element-wise math, reductions, scans, and kernels written as CUDA
    source strings compiled at run time by NVRTC. Needs the CUDA toolkit to
    build (found as the CUDA external dependency: pass CUDA_DIR=/usr/local/cuda
    when it is not under /usr) and an NVIDIA driver and GPU to run; the module
    loads without them.
  ]],
  homepage = "https://github.com/gpuarray/gpuarray",
  license = "MIT",
}
dependencies = {
  "lua >= 5.4, < 5.5",
}
-- The toolkit: headers and the runtime (NVRTC and the libraries the
-- Makefile links live next to it). `luarocks make CUDA_DIR=/usr/local/cuda`.
external_dependencies = {
  CUDA = {
    header = "cuda_runtime_api.h",
    library = "cudart",
  },
}
build = {
  type = "make",
  build_variables = {
    CFLAGS = "$(CFLAGS)",
    LUA = "$(LUA)",
    LUA_INCDIR = "$(LUA_INCDIR)",
    CUDA_INCDIR = "$(CUDA_INCDIR)",
    CUDA_LIBDIR = "$(CUDA_LIBDIR)",
    WERROR = "",   -- warnings stay warnings on users' compilers (CI and `make lint` keep -Werror)
  },
  install_variables = {
    PREFIX = "$(PREFIX)",
    LIBDIR = "$(LIBDIR)",
    LUADIR = "$(LUADIR)",
    LUA_INCDIR = "$(LUA_INCDIR)",
    CUDA_INCDIR = "$(CUDA_INCDIR)",
    CUDA_LIBDIR = "$(CUDA_LIBDIR)",
    WERROR = "",
    -- for hosts that embed Lua (docs/embedding.md): LuaRocks moves what is
    -- installed under LIBDIR into its tree's lib/lua/5.4/, so the header
    -- and gpuarray.pc go there too (lib/lua/5.4/gpuarray/include/,
    -- lib/lua/5.4/pkgconfig/), and the .pc names them relative to itself
    INCDIR = "$(LIBDIR)/gpuarray/include",
    PCDIR = "$(LIBDIR)/pkgconfig",
    PC_RELATIVE = "1",
  },
}
-- `luarocks test`: the project's own test command, `make test` (busted
-- from the system's packages, never a rock download: it runs offline).
-- Arguments after `--` go to make: `luarocks test -- SPEC_FILES=spec/core`.
-- The specs that need a GPU are counted as skipped where there is none.
test = {
  type = "command",
  command = "make test",
}
