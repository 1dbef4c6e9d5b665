--- The declarations of ga.jit (API.md §0). jit.rawkernel and
-- jit.elementwisekernel are bound like any function; the intrinsics
-- (jit.atomic_add, jit.syncthreads, jit.tanh, ...) stand for CUDA inside a
-- translated kernel and are found there by identity, so they are declared
-- without a wrapper, as kernel-only (calling one on the host raises).
return function(ga)
  local api = require "gpuarray.api"
  local jit = ga.jit

  local c_raw, c_ew = jit.rawkernel, jit.elementwisekernel
  api.def(jit, [[
jit.rawkernel(fn: function, *, name: string?) -> callable
A CUDA kernel from a Lua function in ga.jit's Lua subset (docs/kernels-in-lua.md): launch k(grid, block,
args[, {shared_mem=, stream=}]); one compile per argument type signature; k:source(args...) shows the CUDA.
]], function(fn, name) return c_raw(fn, { name = name }) end)
  api.def(jit, [[
jit.elementwisekernel(fn: function, *, name: string?) -> callable
An ElementwiseKernel from a scalar Lua function in ga.jit's subset: k(x, y, ...) -> the result array.
]], function(fn, name) return c_ew(fn, { name = name }) end)

  local function kernel_only(text, f)
    if f == nil or api.entry(f) then return end
    api.declare(text .. "\nInside ga.jit kernels only (translated to CUDA; raises on the host).", f)
    api.entry(f).kernel_only = true
  end
  kernel_only("jit.syncthreads()\n__syncthreads(): every thread of the block waits here.", jit.syncthreads)
  kernel_only("jit.syncwarp()\n__syncwarp().", jit.syncwarp)
  kernel_only([[
jit.shared_memory(dtype: dtype, size: integer) -> array
A shared-memory array of the block, as the value of a local: local s = jit.shared_memory(ga.float32, 256).]],
              jit.shared_memory)
  for _, op in ipairs { "add", "sub", "exch", "min", "max", "and", "or", "xor" } do
    kernel_only(([[
jit.atomic_%s(array: any, index: integer, value: number) -> number
atomic%s(&array[index], value): the old value.]]):format(op, op:sub(1, 1):upper() .. op:sub(2)), jit["atomic_" .. op])
  end
  kernel_only([[
jit.atomic_cas(array: any, index: integer, compare: number, value: number) -> number
atomicCAS(&array[index], compare, value): the old value.]], jit.atomic_cas)
  for _, name in ipairs { "tanh", "sinh", "cosh", "asinh", "acosh", "atanh", "log2", "log10", "log1p", "exp2",
                          "expm1", "cbrt", "trunc", "rint", "rsqrt", "isnan", "isinf", "isfinite" } do
    kernel_only(("jit.%s(x: number) -> number\nThe CUDA math function %s of x."):format(name, name), jit[name])
  end
  for _, name in ipairs { "hypot", "atan2", "copysign" } do
    kernel_only(("jit.%s(x: number, y: number) -> number\nThe CUDA math function %s."):format(name, name), jit[name])
  end
end
