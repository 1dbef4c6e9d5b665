/*
** rawkernel.c: ga.RawKernel(src, name[, opts]) and ga.RawModule(src[, opts]).
**
** A module holds the source, the NVRTC options and the name expressions in
** one userdata, and the program compiled for each device (compile/program.c caches
** programs in memory and on disk, so both objects are cheap to remake). A
** kernel holds its name, its parameters as sigparse.c read them from the
** source (once, at construction) and its cudaKernel_t per device.
**
** Launching, k(grid, block, args[, {shared_mem=, stream=}]), reads the args
** list once into a C array: ndarrays become device pointers, typed scalars
** their bytes, Lua numbers the C type the signature declares. Nothing is
** allocated on the way (no Lua table, no string) until an error.
**
** Compilation happens at construction, so that errors show up where the
** kernel is written: for the device when one exists, else for
** GA_CHECK_ARCH through the disk cache (NVRTC needs no GPU; a device of
** that arch later finds the binary there). A kernel name must be declared
** in the source as a whole name.
*/
#include <pthread.h>
#include <string.h>

#include <cuda.h>   /* driver types only: entry points come through the runtime */

#include "rawkernel/rawkernel.h"

#define MAXDEV 64
#define MAXARGS GA_SIG_MAXPARAMS

typedef struct {
  const char *src;
  size_t srclen;
  int nopts, nnames;
  const char **opts;
  const char **names;
  ga_program *prog[MAXDEV];
  /* then the pointer arrays and the strings, in this same userdata */
} rawmodule;

typedef struct {
  signed char kind;          /* ga_sigkind */
  signed char dtype;
  char type[GA_SIG_TYPE];
  char name[GA_SIG_NAME];
} rkparam;

typedef struct {
  rawmodule *mod;            /* kept alive by user value 1 */
  const char *name;          /* user value 2 */
  int nparams;               /* -1: no declaration found in the source */
  int max_dyn;               /* set_max_dynamic_shared_mem; -1: never set */
  cudaKernel_t k[MAXDEV];
  CUfunction fn[MAXDEV];     /* the kernel in the device's context, for cuLaunchKernel */
  rkparam p[];
} rawkernel;

typedef union {
  void *p;
  ga_value v;
} slot;

/* ===================================================================== */
/* the driver's launch                                                   */
/* ===================================================================== */

/* Launches go through launch.c's driver path (ga_driver_function,
** ga_driver_launch); each kernel object keeps its CUfunction per device. */

/* ===================================================================== */
/* modules                                                               */
/* ===================================================================== */

/* A list of strings at idx (or one string) into out; returns the count */
static int string_list(lua_State *L, int idx, const char **out, int max, const char *fname, const char *what) {
  if (lua_isnoneornil(L, idx)) return 0;
  if (lua_type(L, idx) == LUA_TSTRING) {
    const char *s = ga_checkstring(L, idx, fname, what);
    if (out) out[0] = s;
    return 1;
  }
  if (!lua_istable(L, idx)) ga_error(L, "%s: %s must be a list of strings, got %s", fname, what, luaL_typename(L, idx));
  int n = (int)lua_rawlen(L, idx);
  if (n > max) ga_error(L, "%s: more than %d %s", fname, max, what);
  for (int i = 0; i < n; i++) {
    if (lua_rawgeti(L, idx, i + 1) != LUA_TSTRING)
      ga_error(L, "%s: %s item %d is not a string", fname, what, i + 1);
    int item = lua_gettop(L);
    const char *s = ga_checkstring(L, item, fname, lua_pushfstring(L, "%s item %d", what, i + 1));
    lua_pop(L, 2);   /* the item's description, the item (anchored by the list) */
    if (out) out[i] = s;
  }
  return n;
}

/* Only the keys we know: a typo should not pass silently */
static void check_keys(lua_State *L, int idx, const char *const *keys, const char *fname) {
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    int ok = 0;
    if (lua_type(L, -2) == LUA_TSTRING)
      for (int i = 0; keys[i]; i++) ok |= strcmp(lua_tostring(L, -2), keys[i]) == 0;
    if (!ok) ga_error(L, "%s: unknown option '%s'", fname, luaL_tolstring(L, -2, NULL));
    lua_pop(L, 1);
  }
}

#define MAXOPTS 256

/* Push a module: the source at src_idx, options from the table at opt_idx
** (`options`, and `name_expressions` when names is set) */
static rawmodule *push_module(lua_State *L, int src_idx, int opt_idx, int names, const char *fname) {
  size_t srclen;
  ga_checkstring(L, src_idx, fname, "the source");
  const char *src = lua_tolstring(L, src_idx, &srclen);
  int top = lua_gettop(L);
  const char *opts[MAXOPTS], *exprs[MAXOPTS];
  int nopts = 0, nnames = 0;
  if (lua_istable(L, opt_idx)) {
    static const char *const kernel_keys[] = {"options", NULL};
    static const char *const module_keys[] = {"options", "name_expressions", NULL};
    check_keys(L, opt_idx, names ? module_keys : kernel_keys, fname);
    lua_getfield(L, opt_idx, "options");
    nopts = string_list(L, top + 1, opts, MAXOPTS, fname, "options");
    lua_getfield(L, opt_idx, "name_expressions");
    nnames = string_list(L, top + 2, exprs, MAXOPTS, fname, "name_expressions");
  } else if (!lua_isnoneornil(L, opt_idx)) {
    ga_error(L, "%s: expected an options table, got %s", fname, luaL_typename(L, opt_idx));
  }
  size_t strs = srclen + 1;
  for (int i = 0; i < nopts; i++) strs += strlen(opts[i]) + 1;
  for (int i = 0; i < nnames; i++) strs += strlen(exprs[i]) + 1;
  size_t ptrs = (size_t)(nopts + nnames) * sizeof(char *);
  rawmodule *m = (rawmodule *)lua_newuserdatauv(L, sizeof *m + ptrs + strs, 0);
  memset(m, 0, sizeof *m);
  m->opts = (const char **)(m + 1);
  m->names = m->opts + nopts;
  char *w = (char *)(m->names + nnames);
  memcpy(w, src, srclen);
  w[srclen] = '\0';
  m->src = w;
  m->srclen = srclen;
  w += srclen + 1;
  for (int i = 0; i < nopts; i++) {
    size_t n = strlen(opts[i]) + 1;
    m->opts[i] = memcpy(w, opts[i], n);
    w += n;
  }
  for (int i = 0; i < nnames; i++) {
    size_t n = strlen(exprs[i]) + 1;
    m->names[i] = memcpy(w, exprs[i], n);
    w += n;
  }
  m->nopts = nopts;
  m->nnames = nnames;
  luaL_setmetatable(L, GA_RAWMODULE_MT);
  lua_copy(L, -1, top + 1);
  lua_settop(L, top + 1);
  return m;
}

static rawmodule *checkmodule(lua_State *L, int idx, const char *fname) {
  rawmodule *m = (rawmodule *)luaL_testudata(L, idx, GA_RAWMODULE_MT);
  if (!m) ga_error(L, "%s: expected a RawModule, got %s", fname, luaL_typename(L, idx));
  return m;
}

static ga_program *module_program(lua_State *L, ga_state *ctx, rawmodule *m, const char *what) {
  if (ctx->device >= MAXDEV) ga_error(L, "%s: device %d is beyond %d devices", what, ctx->device, MAXDEV);
  if (!m->prog[ctx->device])
    m->prog[ctx->device] = ga_program_get(L, ctx, what, m->src, m->srclen, m->nopts, m->opts,
                                          m->nnames, m->names);
  return m->prog[ctx->device];
}

/* ===================================================================== */
/* kernels                                                               */
/* ===================================================================== */

static rawkernel *checkkernel(lua_State *L, int idx, const char *fname) {
  rawkernel *k = (rawkernel *)luaL_testudata(L, idx, GA_RAWKERNEL_MT);
  if (!k) ga_error(L, "%s: expected a RawKernel, got %s", fname, luaL_typename(L, idx));
  return k;
}

/* The kernel for the current device, compiled and looked up on first use */
static cudaKernel_t get_kernel(lua_State *L, ga_state *ctx, rawkernel *k) {
  ga_device_enter(L, ctx);
  if (ctx->device >= MAXDEV) ga_error(L, "RawKernel '%s': device %d is beyond %d devices", k->name, ctx->device, MAXDEV);
  cudaKernel_t f = k->k[ctx->device];
  if (f) return f;
  ga_program *prog = module_program(L, ctx, k->mod, lua_pushfstring(L, "RawKernel '%s'", k->name));
  lua_pop(L, 1);
  f = ga_program_kernel(L, prog, k->name);
  if (k->max_dyn >= 0)
    ga_cuda_check(L, cudaFuncSetAttribute((const void *)f, cudaFuncAttributeMaxDynamicSharedMemorySize, k->max_dyn),
                  "set_max_dynamic_shared_mem: cudaFuncSetAttribute");
  /* a raised shared memory limit is the runtime's attribute of the
  ** cudaKernel_t: such kernels launch through the runtime */
  k->fn[ctx->device] = k->max_dyn >= 0 ? NULL : ga_driver_function(f);
  k->k[ctx->device] = f;
  return f;
}

/* No GPU: compile for GA_CHECK_ARCH anyway (NVRTC needs no device), so that
** a compile error raises where the kernel is written on every machine */
static void check_compiles(lua_State *L, const rawmodule *m, const char *what) {
  ga_program_check(L, what, m->src, m->srclen, m->nopts, m->opts, m->nnames, m->names, GA_CHECK_ARCH);
}

/* Push a kernel of the module at mod_idx */
static rawkernel *push_kernel(lua_State *L, int mod_idx, int name_idx, const char *fname) {
  mod_idx = lua_absindex(L, mod_idx);
  name_idx = lua_absindex(L, name_idx);
  rawmodule *m = checkmodule(L, mod_idx, fname);
  const char *name = ga_checkstring(L, name_idx, fname, "the kernel name");
  ga_sigkernel *sig = (ga_sigkernel *)lua_newuserdatauv(L, sizeof *sig, 0);   /* scratch */
  ga_raw_check_name(L, m->src, m->srclen, name, sig, fname);
  int found = ga_sig_find(m->src, m->srclen, name, sig);
  /* a launch passes at most MAXARGS arguments: such a kernel could never
  ** run (and its parameters were not all read) */
  if (found && sig->nparams < 0)
    ga_error(L, "%s: kernel '%s' declares more than %d parameters, the most a launch passes", fname, name, MAXARGS);
  int n = found ? sig->nparams : 0;
  rawkernel *k = (rawkernel *)lua_newuserdatauv(L, sizeof *k + (size_t)n * sizeof(rkparam), 2);
  memset(k, 0, sizeof *k);
  k->nparams = found ? n : -1;
  k->max_dyn = -1;
  for (int i = 0; i < n; i++) {
    const ga_sigparam *q = &sig->params[i];
    k->p[i].kind = (signed char)q->kind;
    k->p[i].dtype = (signed char)q->dtype;
    memcpy(k->p[i].type, q->type, sizeof q->type);
    memcpy(k->p[i].name, q->name, sizeof q->name);
  }
  lua_pushvalue(L, mod_idx);
  lua_setiuservalue(L, -2, 1);
  lua_pushvalue(L, name_idx);
  lua_setiuservalue(L, -2, 2);
  lua_getiuservalue(L, -1, 2);
  k->name = lua_tostring(L, -1);   /* anchored by the user value */
  lua_pop(L, 1);
  k->mod = m;
  luaL_setmetatable(L, GA_RAWKERNEL_MT);
  lua_remove(L, -2);   /* the scratch signature */
  if (ga_device_count() > 0) get_kernel(L, ga_ctx(L), k);
  return k;
}

/* ga.RawKernel(source, name[, {options=}]) */
static int l_rawkernel(lua_State *L) {
  ga_checkstring(L, 1, "RawKernel", "the source");
  ga_checkstring(L, 2, "RawKernel", "the kernel name");
  rawmodule *m = push_module(L, 1, 3, 0, "RawKernel");
  push_kernel(L, -1, 2, "RawKernel");
  if (ga_device_count() == 0) {
    lua_pushfstring(L, "RawKernel '%s'", lua_tostring(L, 2));
    check_compiles(L, m, lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  return 1;
}

/* ga.RawModule(source[, {options=, name_expressions=}]) */
static int l_rawmodule(lua_State *L) {
  ga_checkstring(L, 1, "RawModule", "the source");
  rawmodule *m = push_module(L, 1, 2, 1, "RawModule");
  if (ga_device_count() > 0) module_program(L, ga_ctx(L), m, "RawModule");
  else check_compiles(L, m, "RawModule");
  return 1;
}

/* m:get_function(name) -> RawKernel (name may be a name expression) */
static int l_get_function(lua_State *L) {
  checkmodule(L, 1, "get_function");
  ga_checkstring(L, 2, "get_function", "the kernel name");
  push_kernel(L, 1, 2, "get_function");
  return 1;
}

/* ===================================================================== */
/* launching                                                             */
/* ===================================================================== */

static void read_dims(lua_State *L, int idx, dim3 *d, rawkernel *k, const char *what) {
  lua_Integer v[3] = {1, 1, 1};
  int n = 1;
  if (lua_isinteger(L, idx)) {
    v[0] = lua_tointeger(L, idx);
  } else if (lua_istable(L, idx) && (n = (int)lua_rawlen(L, idx)) >= 1 && n <= 3) {
    for (int i = 0; i < n; i++) {
      int ok;
      lua_rawgeti(L, idx, i + 1);
      v[i] = lua_tointegerx(L, -1, &ok);
      lua_pop(L, 1);
      if (!ok) n = 0;
    }
  } else {
    n = 0;
  }
  if (n == 0)
    ga_error(L, "RawKernel '%s': %s must be an integer or a list of 1 to 3 integers, got %s", k->name, what,
             luaL_typename(L, idx));
  for (int i = 0; i < 3; i++)
    if (v[i] < 1 || v[i] > 0xffffffffLL)
      ga_error(L, "RawKernel '%s': %s dimension %d is %I, not a positive 32-bit count", k->name, what,
               i + 1, v[i]);
  d->x = (unsigned)v[0];
  d->y = (unsigned)v[1];
  d->z = (unsigned)v[2];
}

static void check_limits(lua_State *L, rawkernel *k, int dev, dim3 g, dim3 b, size_t shmem) {
  const ga_devinfo *di = ga_device_info(L, dev);
  unsigned gd[3] = {g.x, g.y, g.z}, bd[3] = {b.x, b.y, b.z};
  static const char axis[] = "xyz";
  for (int i = 0; i < 3; i++) {
    if (bd[i] > (unsigned)di->max_block[i])
      ga_error(L, "RawKernel '%s': block %c = %d exceeds the device limit of %d", k->name, axis[i], (int)bd[i],
               di->max_block[i]);
    if (gd[i] > (unsigned)di->max_grid[i])
      ga_error(L, "RawKernel '%s': grid %c = %I exceeds the device limit of %d", k->name, axis[i],
               (lua_Integer)gd[i], di->max_grid[i]);
  }
  uint64_t threads = (uint64_t)b.x * b.y * b.z;
  if (threads > (uint64_t)di->max_threads_per_block)
    ga_error(L, "RawKernel '%s': a block of %I threads exceeds the device limit of %d threads per block",
             k->name, (lua_Integer)threads, di->max_threads_per_block);
  if (shmem > di->shared_per_block_optin)
    ga_error(L, "RawKernel '%s': shared_mem = %I bytes exceeds the device limit of %I bytes per block",
             k->name, (lua_Integer)shmem, (lua_Integer)di->shared_per_block_optin);
}

/* "RawKernel 'k': argument 2 (int n): <why>" */
static int arg_error(lua_State *L, rawkernel *k, int i, const char *fmt, const char *detail) {
  const char *decl = "";
  if (k->nparams > 0) {
    const rkparam *p = &k->p[i];
    decl = lua_pushfstring(L, " (%s%s%s)", p->type, p->name[0] ? " " : "", p->name);
  }
  lua_pushfstring(L, fmt, detail);
  return ga_error(L, "RawKernel '%s': argument %d%s: %s", k->name, i + 1, decl, lua_tostring(L, -1));
}

/* The argument on top of the stack into s; returns 1 for a pinned array */
static int convert_arg(lua_State *L, ga_state *ctx, rawkernel *k, int i, slot *s) {
  int kind = k->nparams >= 0 ? k->p[i].kind : -1;
  int t = lua_type(L, -1);
  if (t == LUA_TNUMBER || t == LUA_TBOOLEAN) {
    if (kind == GA_SIG_SCALAR) {
      int dt = k->p[i].dtype;
      const char *why;
      if (lua_isinteger(L, -1)) {
        why = ga_value_from_int(dt, lua_tointeger(L, -1), &s->v);
      } else if (t == LUA_TBOOLEAN) {
        why = ga_value_from_int(dt, lua_toboolean(L, -1), &s->v);
      } else {
        lua_Number v = lua_tonumber(L, -1);
        int64_t iv;     /* range first: converting NaN or 1e300 is undefined */
        if (GA_IS_INT(dt) && v > -0x1p63 && v < 0x1p63 && !ga_double_to_int64(v, &iv))
          return arg_error(L, k, i, "%s is not an integer", lua_tostring(L, -1));
        why = ga_value_from_float(dt, v, &s->v);
      }
      if (why) {
        lua_pushfstring(L, "%s %s %s", luaL_tolstring(L, -1, NULL), why, ga_dtypes[dt].name);
        return arg_error(L, k, i, "%s", lua_tostring(L, -1));
      }
      return 0;
    }
    if (kind == GA_SIG_POINTER)
      return arg_error(L, k, i, "a %s where the kernel wants a pointer: pass an ndarray",
                       lua_isinteger(L, -1) ? "integer" : t == LUA_TBOOLEAN ? "boolean" : "float");
    if (kind == GA_SIG_UNKNOWN)
      return arg_error(L, k, i, "%s",
                       "its type could not be read from the source, so a Lua number cannot be converted: "
                       "pass a typed scalar such as ga.int32(v) or ga.float32(v)");
    lua_pushfstring(L, "the declaration of '%s' was not found in the source, so Lua numbers cannot be "
                    "typed: pass typed scalars such as ga.int32(v) or ga.float32(v)", k->name);
    return arg_error(L, k, i, "%s", lua_tostring(L, -1));
  }
  if (t == LUA_TUSERDATA) {
    ga_array *a = ga_toarray(L, -1);
    if (a) {
      if (kind == GA_SIG_SCALAR) return arg_error(L, k, i, "%s", "an ndarray where the kernel wants a scalar");
      if (a->flags & GA_F_FREED) return arg_error(L, k, i, "%s", "the array was freed");
      if (a->device != ctx->device) {
        lua_pushfstring(L, "array is on device %d, the current device is %d", a->device, ctx->device);
        return arg_error(L, k, i, "%s", lua_tostring(L, -1));
      }
      s->p = a->data;
      return 0;
    }
    ga_scalar *sc = ga_toscalar(L, -1);
    if (sc) {
      if (kind == GA_SIG_POINTER)
        return arg_error(L, k, i, "a %s scalar where the kernel wants a pointer: pass an ndarray",
                         ga_dtypes[sc->dtype].name);
      if (kind == GA_SIG_SCALAR && sc->dtype != k->p[i].dtype) {
        lua_pushfstring(L, "the kernel wants %s, got a %s scalar (pass a Lua number to convert)",
                        ga_dtypes[k->p[i].dtype].name, ga_dtypes[sc->dtype].name);
        return arg_error(L, k, i, "%s", lua_tostring(L, -1));
      }
      s->v = sc->v;
      return 0;
    }
    void *hp = ga_pinned_data(L, -1);
    if (hp) {
      if (kind == GA_SIG_SCALAR) return arg_error(L, k, i, "%s", "a pinned array where the kernel wants a scalar");
      s->p = hp;
      return 1;
    }
  }
  if (t == LUA_TTABLE && kind == GA_SIG_SCALAR && GA_IS_COMPLEX(k->p[i].dtype)) {   /* {re, im} */
    ga_value v;
    const char *fname = lua_pushfstring(L, "RawKernel '%s': argument %d", k->name, i + 1);
    ga_checkvalue(L, -2, k->p[i].dtype, &v, fname);
    lua_pop(L, 1);
    s->v = v;
    return 0;
  }
  return arg_error(L, k, i, "expected an ndarray, a number or a typed scalar, got %s", luaL_typename(L, -1));
}

__attribute__((noinline, cold))
static int launch_error(lua_State *L, rawkernel *k, cudaError_t err, size_t shmem) {
  (void)cudaGetLastError();
  const char *hint = "";
  if (shmem > 48 * 1024 && k->max_dyn < (int)shmem)
    hint = lua_pushfstring(L, " (shared_mem = %I bytes: above 48 KiB call k:set_max_dynamic_shared_mem(bytes) first)",
                           (lua_Integer)shmem);
  return ga_error(L, "RawKernel '%s': launch failed: %s (%s)%s", k->name, cudaGetErrorName(err),
                  cudaGetErrorString(err), hint);
}

static const char kernel_mt_key = 'k';   /* registry: the RawKernel metatable */

/* k(grid, block, args[, {shared_mem=, stream=}]) */
static int l_call(lua_State *L) {
  rawkernel *k = (rawkernel *)lua_touserdata(L, 1);
  int ok = k && lua_getmetatable(L, 1);   /* __call is reachable by getmetatable: check */
  if (ok) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &kernel_mt_key);
    ok = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
  }
  if (!ok) return ga_error(L, "RawKernel: expected a RawKernel, got %s", luaL_typename(L, 1));
  ga_state *ctx = ga_ctx(L);
  dim3 grid, block;
  read_dims(L, 2, &grid, k, "grid");
  read_dims(L, 3, &block, k, "block");
  int n = 0;
  if (lua_type(L, 4) == LUA_TTABLE) n = (int)lua_rawlen(L, 4);
  else if (!lua_isnoneornil(L, 4))
    ga_error(L, "RawKernel '%s': args must be a list, got %s", k->name, luaL_typename(L, 4));
  size_t shmem = 0;
  cudaStream_t s = ctx->stream;
  if (lua_type(L, 5) == LUA_TTABLE) {
    if (lua_getfield(L, 5, "shared_mem") != LUA_TNIL) {
      int isint;
      lua_Integer v = lua_tointegerx(L, -1, &isint);
      if (!isint || v < 0) ga_error(L, "RawKernel '%s': shared_mem must be a non-negative integer", k->name);
      shmem = (size_t)v;
    }
    lua_pop(L, 1);
    s = ga_opt_stream(L, ctx, 5, "RawKernel");
  } else if (!lua_isnoneornil(L, 5)) {
    ga_error(L, "RawKernel '%s': expected an options table, got %s", k->name, luaL_typename(L, 5));
  }
  if (k->nparams >= 0 && n != k->nparams)
    ga_error(L, "RawKernel '%s': the kernel takes %d argument%s, got %d", k->name, k->nparams,
             k->nparams == 1 ? "" : "s", n);
  if (n > MAXARGS) ga_error(L, "RawKernel '%s': more than %d arguments", k->name, MAXARGS);
  slot vals[MAXARGS];
  void *argp[MAXARGS];
  int pinned = 0;
  for (int i = 0; i < n; i++) {
    lua_rawgeti(L, 4, i + 1);
    pinned |= convert_arg(L, ctx, k, i, &vals[i]);
    lua_pop(L, 1);
    argp[i] = &vals[i];
  }
  cudaKernel_t f = (unsigned)ctx->device < MAXDEV ? k->k[ctx->device] : NULL;
  if (f) ga_device_enter(L, ctx);
  else f = get_kernel(L, ctx, k);
  check_limits(L, k, ctx->device, grid, block, shmem);
  for (int i = 0; pinned && i < n; i++) {
    lua_rawgeti(L, 4, i + 1);
    ga_pinned_before(L, -1, s);
    lua_pop(L, 1);
  }
  CUfunction fn = k->fn[ctx->device];
  if (!fn || !ga_driver_launch(fn, grid, block, argp, shmem, s)) {
    /* no driver path, or it failed: the runtime launches, or names the
    ** failure (the same launch fails the same way, and nothing ran) */
    cudaError_t err = ga_runtime_launch((const void *)f, grid, block, argp, shmem, s);
    if (err != cudaSuccess) return launch_error(L, k, err, shmem);
  }
  for (int i = 0; pinned && i < n; i++) {
    lua_rawgeti(L, 4, i + 1);
    ga_pinned_after(L, -1, s);
    lua_pop(L, 1);
  }
  ga_gc_settle(L);
  return 0;
}

/* ===================================================================== */
/* attributes and fields                                                 */
/* ===================================================================== */

static int push_attributes(lua_State *L, rawkernel *k) {
  cudaKernel_t f = get_kernel(L, ga_ctx(L), k);
  struct cudaFuncAttributes a;
  ga_cuda_check(L, cudaFuncGetAttributes(&a, (const void *)f), "attributes: cudaFuncGetAttributes");
  lua_createtable(L, 0, 10);
  ga_setint(L, "num_regs", a.numRegs);
  ga_setint(L, "max_threads_per_block", a.maxThreadsPerBlock);
  ga_setint(L, "shared_size_bytes", (lua_Integer)a.sharedSizeBytes);
  ga_setint(L, "const_size_bytes", (lua_Integer)a.constSizeBytes);
  ga_setint(L, "local_size_bytes", (lua_Integer)a.localSizeBytes);
  ga_setint(L, "max_dynamic_shared_size_bytes", a.maxDynamicSharedSizeBytes);
  ga_setint(L, "preferred_shared_memory_carveout", a.preferredShmemCarveout);
  ga_setint(L, "ptx_version", a.ptxVersion);
  ga_setint(L, "binary_version", a.binaryVersion);
  ga_setint(L, "cache_mode_ca", a.cacheModeCA);
  return 1;
}

/* k:set_max_dynamic_shared_mem(bytes): allow launches with more than the
** default 48 KiB of dynamic shared memory (up to the device's opt-in limit
** minus the kernel's static shared memory) */
static int l_set_max_dynamic_shared_mem(lua_State *L) {
  rawkernel *k = checkkernel(L, 1, "set_max_dynamic_shared_mem");
  int ok;
  lua_Integer bytes = lua_tointegerx(L, 2, &ok);
  if (!ok || bytes < 0 || bytes > 0x7fffffff)
    ga_error(L, "set_max_dynamic_shared_mem: bytes must be a non-negative integer");
  ga_state *ctx = ga_ctx(L);
  cudaKernel_t f = get_kernel(L, ctx, k);
  const ga_devinfo *di = ga_device_info(L, ctx->device);
  struct cudaFuncAttributes a;
  ga_cuda_check(L, cudaFuncGetAttributes(&a, (const void *)f), "set_max_dynamic_shared_mem: cudaFuncGetAttributes");
  if ((size_t)bytes + a.sharedSizeBytes > di->shared_per_block_optin)
    ga_error(L, "set_max_dynamic_shared_mem: %I bytes plus %I of static shared memory exceed the device limit of %I",
             bytes, (lua_Integer)a.sharedSizeBytes, (lua_Integer)di->shared_per_block_optin);
  ga_cuda_check(L, cudaFuncSetAttribute((const void *)f, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes),
                "set_max_dynamic_shared_mem: cudaFuncSetAttribute");
  k->max_dyn = (int)bytes;
  k->fn[ctx->device] = NULL;   /* see get_kernel */
  for (int d = 0; d < MAXDEV; d++)   /* other devices: set when next looked up */
    if (d != ctx->device) k->k[d] = NULL;
  return 0;
}

static void push_params(lua_State *L, rawkernel *k) {
  if (k->nparams < 0) {
    lua_pushnil(L);
    return;
  }
  lua_createtable(L, k->nparams, 0);
  for (int i = 0; i < k->nparams; i++) {
    lua_createtable(L, 0, 4);
    ga_setstr(L, "name", k->p[i].name);
    ga_setstr(L, "type", k->p[i].type);
    ga_setstr(L, "kind", ga_sig_kindname(k->p[i].kind));
    if (k->p[i].kind == GA_SIG_SCALAR) {
      ga_setstr(L, "dtype", ga_dtypes[k->p[i].dtype].name);
    }
    lua_rawseti(L, -2, i + 1);
  }
}

static void push_strings(lua_State *L, const char *const *s, int n) {
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_pushstring(L, s[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

static const char *const attr_fields[] = {
  "num_regs", "max_threads_per_block", "shared_size_bytes", "const_size_bytes", "local_size_bytes",
  "max_dynamic_shared_size_bytes", "ptx_version", "binary_version", NULL
};

static int l_kernel_index(lua_State *L) {
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) return 1;
  rawkernel *k = checkkernel(L, 1, "RawKernel");
  const char *key = ga_fieldkey(L, 2);
  if (!key) return 0;
  if (strcmp(key, "name") == 0) lua_getiuservalue(L, 1, 2);
  else if (strcmp(key, "code") == 0) lua_pushlstring(L, k->mod->src, k->mod->srclen);
  else if (strcmp(key, "options") == 0) push_strings(L, k->mod->opts, k->mod->nopts);
  else if (strcmp(key, "params") == 0) push_params(L, k);
  else if (strcmp(key, "module") == 0) lua_getiuservalue(L, 1, 1);
  else if (strcmp(key, "attributes") == 0) push_attributes(L, k);
  else {
    for (int i = 0; attr_fields[i]; i++)
      if (strcmp(key, attr_fields[i]) == 0) {
        push_attributes(L, k);
        lua_getfield(L, -1, key);
        return 1;
      }
    return ga_error(L, "RawKernel has no field or method '%s'", key);
  }
  return 1;
}

static int l_module_index(lua_State *L) {
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) return 1;
  rawmodule *m = checkmodule(L, 1, "RawModule");
  const char *key = ga_fieldkey(L, 2);
  if (!key) return 0;
  if (strcmp(key, "code") == 0) lua_pushlstring(L, m->src, m->srclen);
  else if (strcmp(key, "options") == 0) push_strings(L, m->opts, m->nopts);
  else if (strcmp(key, "name_expressions") == 0) push_strings(L, m->names, m->nnames);
  else return ga_error(L, "RawModule has no field or method '%s'", key);
  return 1;
}

/* _compile_for_arch(arch): NVRTC only, no device (for specs on machines
** without a GPU); raises the compile error a launch would */
static int compile_for_arch(lua_State *L, rawmodule *m, const char *what) {
  int arch = (int)luaL_optinteger(L, 2, 90);
  size_t size = 0;
  ga_compile_for_arch(L, what, m->src, m->srclen, m->nopts, m->opts, arch, &size);
  lua_pushinteger(L, (lua_Integer)size);
  return 1;
}

static int l_kernel_compile_for_arch(lua_State *L) {
  rawkernel *k = checkkernel(L, 1, "_compile_for_arch");
  return compile_for_arch(L, k->mod, lua_pushfstring(L, "RawKernel '%s'", k->name));
}

static int l_module_compile_for_arch(lua_State *L) {
  return compile_for_arch(L, checkmodule(L, 1, "_compile_for_arch"), "RawModule");
}

static int l_kernel_tostring(lua_State *L) {
  rawkernel *k = checkkernel(L, 1, "__tostring");
  lua_pushfstring(L, "gpuarray.RawKernel(%s)", k->name);
  return 1;
}

static int l_module_tostring(lua_State *L) {
  lua_pushfstring(L, "gpuarray.RawModule(%p)", lua_touserdata(L, 1));
  return 1;
}

/* ===================================================================== */
/* test hooks: the signature parser from Lua                              */
/* ===================================================================== */

static void push_sig(lua_State *L, const ga_sigkernel *k) {
  lua_createtable(L, 0, 5);
  ga_setstr(L, "name", k->name);
  ga_setbool(L, "extern_c", k->extern_c);
  lua_createtable(L, k->ntparams, 0);
  for (int i = 0; i < k->ntparams; i++) {
    lua_pushstring(L, k->tparams[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "template");
  if (k->nparams < 0) {
    ga_setbool(L, "too_many", 1);
    return;
  }
  lua_createtable(L, k->nparams, 0);
  for (int i = 0; i < k->nparams; i++) {
    const ga_sigparam *q = &k->params[i];
    lua_createtable(L, 0, 5);
    ga_setstr(L, "name", q->name);
    ga_setstr(L, "type", q->type);
    ga_setstr(L, "kind", ga_sig_kindname(q->kind));
    if (q->kind == GA_SIG_SCALAR) {
      ga_setstr(L, "dtype", ga_dtypes[q->dtype].name);
    }
    if (q->tparam >= 0) {
      ga_setint(L, "tparam", q->tparam + 1);
    }
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "params");
}

/* _sigparse(src) -> every __global__ declaration, in order */
static int l_sigparse(lua_State *L) {
  size_t len;
  const char *src = ga_checklstring(L, 1, &len, "_sigparse", "the source");
  ga_sigkernel *k = (ga_sigkernel *)lua_newuserdatauv(L, sizeof *k, 0);
  ga_sigscan *s = (ga_sigscan *)lua_newuserdatauv(L, sizeof *s, 0);
  lua_newtable(L);
  ga_sig_begin(s, src, len);
  for (int i = 1; ga_sig_next(s, k); i++) {
    push_sig(L, k);
    lua_rawseti(L, -2, i);
  }
  return 1;
}

/* _sigfind(src, name) -> the kernel a launch name means, or nil */
static int l_sigfind(lua_State *L) {
  size_t len;
  const char *src = ga_checklstring(L, 1, &len, "_sigfind", "the source");
  const char *name = ga_checkstring(L, 2, "_sigfind", "the kernel name");
  ga_sigkernel *k = (ga_sigkernel *)lua_newuserdatauv(L, sizeof *k, 0);
  if (!ga_sig_find(src, len, name, k)) return 0;
  push_sig(L, k);
  return 1;
}

/* _ctype(text) -> dtype name, "pointer", or nil */
static int l_ctype(lua_State *L) {
  int d = ga_sig_ctype(ga_checkstring(L, 1, "_ctype", "the type"));
  if (d == -1) lua_pushliteral(L, "pointer");
  else if (d >= 0) lua_pushstring(L, ga_dtypes[d].name);
  else lua_pushnil(L);
  return 1;
}

/* ===================================================================== */
/* registration                                                          */
/* ===================================================================== */

static const luaL_Reg kernel_methods[] = {
  {"set_max_dynamic_shared_mem", l_set_max_dynamic_shared_mem},
  {NULL, NULL}
};

static const luaL_Reg kernel_meta[] = {
  {"__call", l_call},
  {"__tostring", l_kernel_tostring},
  {NULL, NULL}
};

static const luaL_Reg module_methods[] = {
  {"get_function", l_get_function},
  {NULL, NULL}
};

static const luaL_Reg module_meta[] = {
  {"__tostring", l_module_tostring},
  {NULL, NULL}
};

static const luaL_Reg rawkernel_funcs[] = {
  {"RawKernel", l_rawkernel},
  {"RawModule", l_rawmodule},
  {NULL, NULL}
};

static const luaL_Reg rawkernel_funcs_test[] = {
  {"sigparse", l_sigparse},
  {"sigfind", l_sigfind},
  {"ctype", l_ctype},
  {"rawkernel_compile_for_arch", l_kernel_compile_for_arch},
  {"rawmodule_compile_for_arch", l_module_compile_for_arch},
  {NULL, NULL}
};

void ga_open_rawkernel(lua_State *L) {
  ga_new_type(L, GA_RAWKERNEL_MT, kernel_meta, kernel_methods, l_kernel_index);
  luaL_getmetatable(L, GA_RAWKERNEL_MT);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kernel_mt_key);
  ga_new_type(L, GA_RAWMODULE_MT, module_meta, module_methods, l_module_index);
  ga_setfuncs(L, rawkernel_funcs);
  ga_setprivate(L, GA_TEST, rawkernel_funcs_test);
}
