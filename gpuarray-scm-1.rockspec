package = "gpuarray"
version = "scm-1"
source = {
  url = "git+file:///dev/null",   -- installed from a checkout: `luarocks make`
}
description = {
  summary = "CuPy for Lua: N-dimensional arrays in CUDA device memory",
  detailed = [[
    NumPy-style arrays on NVIDIA GPUs for Lua 5.4: creation, views, indexing,
    casting, element-wise math, reductions, and kernels written as CUDA source
    strings compiled at run time by NVRTC. Needs the CUDA toolkit to build
    (set CUDA_HOME if it is not /usr/local/cuda) and an NVIDIA driver and GPU
    to run; the module loads without them.
  ]],
  license = "MIT",
}
dependencies = {
  "lua >= 5.4, < 5.5",
}
build = {
  type = "make",
  build_variables = {
    CFLAGS = "$(CFLAGS)",
    LUA = "$(LUA)",
    LUA_INCDIR = "$(LUA_INCDIR)",
  },
  install_variables = {
    PREFIX = "$(PREFIX)",
    LIBDIR = "$(LIBDIR)",
    LUADIR = "$(LUADIR)",
  },
}
