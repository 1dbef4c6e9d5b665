rockspec_format = "3.0"
package = "gpuarray"
version = "scm-1"
source = {
  url = "git+https://github.com/gpuarray/gpuarray",
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
  },
}
-- `luarocks test`: the specs with busted (.busted sets the paths); those
-- that need a GPU are reported as pending where there is none
test = {
  type = "busted",
}
