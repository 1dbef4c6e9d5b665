/*
** compile_lua.c: the compiler as Lua sees it: ga.cache_dir and the test
** hooks that compile, hash and read or write the disk cache without a GPU.
*/
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"

/* ===================================================================== */
/* launching                                                             */
/* ===================================================================== */

/* ===================================================================== */
/* Lua functions                                                         */
/* ===================================================================== */

/* Options from a Lua list of strings into a scratch array on the stack;
** the strings stay alive because the table (at idx) holds them. */
static const char **check_opts(lua_State *L, int idx, int *n) {
  *n = 0;
  if (lua_isnoneornil(L, idx)) return NULL;
  luaL_checktype(L, idx, LUA_TTABLE);
  lua_Integer n64 = luaL_len(L, idx);      /* __len may answer anything */
  if (n64 < 0 || n64 > 1024) ga_error(L, "options: a list of at most 1024 strings is required");
  int len = (int)n64;
  const char **opts = (const char **)lua_newuserdatauv(L, ((size_t)len + 1) * sizeof *opts, 0);
  for (int i = 1; i <= len; i++) {
    size_t sl;
    if (lua_geti(L, idx, i) != LUA_TSTRING)
      ga_error(L, "options: item %d is not a string", i);
    opts[i - 1] = lua_tolstring(L, -1, &sl);
    if (strlen(opts[i - 1]) != sl) ga_error(L, "options: item %d holds a NUL byte", i);
    lua_pop(L, 1);
  }
  *n = len;
  return opts;
}

/* _compile(src, opts, arch) -> bytes of the binary; no device needed */
static int l_compile(lua_State *L) {
  size_t len;
  const char *src = luaL_checklstring(L, 1, &len);
  int nopts;
  const char **opts = check_opts(L, 2, &nopts);
  int arch = (int)luaL_optinteger(L, 3, 90);
  size_t size = 0;
  ga_compile_for_arch(L, "compile", src, len, nopts, opts, arch, &size);
  lua_pushinteger(L, (lua_Integer)size);
  return 1;
}

static int l_cache_dir(lua_State *L) {
  lua_pushstring(L, ga_cache_dir());   /* nil when there is none (no $HOME) */
  return 1;
}

static int l_nvrtc_version(lua_State *L) {
  int nv_major, nv_minor;
  ga_nvrtc_version(&nv_major, &nv_minor);
  lua_pushfstring(L, "%d.%d", nv_major, nv_minor);
  return 1;
}

static void str_key(lua_State *L, int idx, ga_key *k) {
  size_t len;
  const char *s = luaL_checklstring(L, idx, &len);
  ga_key_init(k);
  ga_key_add(k, s, len);
}

/* _hash(str) -> 32 hex digits: the 128-bit key of one string */
static int l_hash(lua_State *L) {
  ga_key k;
  char hex[33];
  str_key(L, 1, &k);
  ga_key_hex(&k, hex);
  lua_pushstring(L, hex);
  return 1;
}

/* Test hooks for the disk cache (specs, no device): the file for key
** string ks is <dir>/<_hash(ks)>.bin.
** _disk_cache_write(dir, ks, image[, {lowered names}]) -> boolean */
static int l_disk_write(lua_State *L) {
  const char *dir = ga_checkstring(L, 1, "_disk_cache_write", "the directory");
  ga_key k;
  str_key(L, 2, &k);
  ga_image img;
  memset(&img, 0, sizeof img);
  img.image = luaL_checklstring(L, 3, &img.image_len);
  lua_settop(L, 4);   /* the buffer below must not take slot 4 */
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  if (!lua_isnoneornil(L, 4)) {
    luaL_checktype(L, 4, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 4);
    if (n < 0 || n > 1 << 20) ga_error(L, "_disk_cache_write: bad list of names");
    img.nnames = (int)n;
    for (int i = 1; i <= img.nnames; i++) {
      /* only luaL_addvalue may use the stack while the buffer is open */
      size_t sl;
      if (lua_geti(L, 4, i) != LUA_TSTRING) ga_error(L, "_disk_cache_write: name %d is not a string", i);
      if (strlen(lua_tolstring(L, -1, &sl)) != sl) ga_error(L, "_disk_cache_write: name %d holds a NUL byte", i);
      luaL_addvalue(&b);
      luaL_addchar(&b, '\0');
    }
  }
  luaL_pushresult(&b);
  img.names = lua_tolstring(L, -1, &img.names_len);
  lua_pushboolean(L, ga_disk_write(dir, &k, &img));
  return 1;
}

/* _disk_cache_read(dir, ks) -> image, {lowered names} | nil */
static int l_disk_read(lua_State *L) {
  const char *dir = ga_checkstring(L, 1, "_disk_cache_read", "the directory");
  ga_key k;
  str_key(L, 2, &k);
  ga_image img;
  if (!ga_disk_read(dir, &k, &img)) {
    lua_pushnil(L);
    return 1;
  }
  /* test hook: a memory error while pushing would leak img.mem */
  lua_pushlstring(L, img.image, img.image_len);
  lua_createtable(L, img.nnames, 0);
  const char *n = img.names;
  for (int i = 1; i <= img.nnames; i++, n += strlen(n) + 1) {
    lua_pushstring(L, n);
    lua_rawseti(L, -2, i);
  }
  free(img.mem);
  return 2;
}

/* core._test.name_expr_check(s) -> true | false, why (core/srccheck.c's rule) */
static int l_name_expr_check(lua_State *L) {
  char why[160];
  int ok = ga_name_expr_check(ga_checkstring(L, 1, "name_expr_check", "the name expression"), why, sizeof why);
  lua_pushboolean(L, ok);
  if (ok) return 1;
  lua_pushstring(L, why);
  return 2;
}

/* core._test.compile_isolated(src[, nnames]) -> why the compile would run in a
** child process, or nil */
static int l_compile_isolated(lua_State *L) {
  size_t len;
  const char *src = ga_checklstring(L, 1, &len, "compile_isolated", "the source");
  char why[160];
  if (ga_compile_isolated(src, len, (int)luaL_optinteger(L, 2, 0), why, sizeof why)) lua_pushstring(L, why);
  else lua_pushnil(L);
  return 1;
}

/* core._test.launch_empty(): one bare cuLaunchKernel of an empty kernel on the
** current stream, the floor under every overhead key of make bench */
static void write_empty(const ga_tkreq *req, ga_buf *b) {
  (void)req;
  ga_buf_add(b, "extern \"C\" __global__ void k() {}\n");
}

static int l_launch_empty(lua_State *L) {
  static const ga_tkreq req = {"_launch_empty", NULL, write_empty, NULL, NULL, 0, NULL};
  ga_state *ctx = ga_ctx(L);
  cudaKernel_t k = ga_tkernel(L, ctx, "empty", 5, &req);
  ga_device_enter(L, ctx);
  CUfunction f = ga_driver_function(k);
  dim3 one = dim3_make(1, 1, 1);
  if (!f || !ga_driver_launch(f, one, one, NULL, 0, ctx->stream)) ga_launch(L, "_launch_empty", k, one, one, NULL, 0, ctx->stream);
  return 0;
}

/* core.compile.kernel_source(name) -> the text of kernels/<room>/<name>.cuh
** as embedded in the module */
static int l_kernel_source(lua_State *L) {
  const char *src = ga_kernel_source(luaL_checkstring(L, 1));
  if (!src) ga_error(L, "kernel_source: no kernels/*/%s.cuh", lua_tostring(L, 1));
  lua_pushstring(L, src);
  return 1;
}

static const luaL_Reg compile_funcs_compile[] = {
  {"kernel_source", l_kernel_source},
  {NULL, NULL}
};

static const luaL_Reg compile_funcs[] = {
  {"cache_dir", l_cache_dir},
  {NULL, NULL}
};

static const luaL_Reg compile_funcs_test[] = {
  {"launch_empty", l_launch_empty},
  {"compile", l_compile},
  {"nvrtc_version", l_nvrtc_version},
  {"hash", l_hash},
  {"disk_cache_write", l_disk_write},
  {"disk_cache_read", l_disk_read},
  {"name_expr_check", l_name_expr_check},
  {"compile_isolated", l_compile_isolated},
  {NULL, NULL}
};

void ga_open_compile(lua_State *L) {
  ga_setfuncs(L, compile_funcs);
  ga_setprivate(L, "compile", compile_funcs_compile);
  ga_setprivate(L, GA_TEST, compile_funcs_test);
}
