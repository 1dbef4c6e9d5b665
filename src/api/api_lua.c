/*
** api_lua.c: declarations as Lua values and bound functions (core.api):
**   parse(text) -> decl          a declaration, parsed once
**   bind(decl, impl) -> f        f(...) applies decl, then impl(values...)
**   apply(decl, ...) -> values   the binder alone (for specs and methods)
**   info(decl) -> table          what the reference and ga.help print
**   call_user(fn, ...)           run a user's function from inside a public one
**   set_type(name, checker)      an object type declarations can name
** A bound function renames errors: whatever it calls raises "gpuarray:
** asarray: ..." as "gpuarray: linalg.inv: ...", the function the user
** called (API.md §0). Only the outermost declared call does this, so it is
** the one pcall a call costs; user functions it runs (call_user) start
** afresh.
*/
#include <stdio.h>
#include <string.h>

#include "api/api.h"

#define DECL_MT "gpuarray.decl"

/* The registry key of the set of declared function names (fname -> true):
** an error naming one of them is renamed, any other prefix is kept */
static const char names_key = 'n';
/* The registry key of the last error that left a user's function run by
** call_user: it passes the public functions around it unchanged */
static const char user_error_key = 'u';

static int decl_gc(lua_State *L) {
  ga_apidecl *a = (ga_apidecl *)luaL_checkudata(L, 1, DECL_MT);
  ga_decl_free(&a->d);
  return 0;
}

const ga_decl *ga_api_checkdecl(lua_State *L, int idx, const char *fname) {
  ga_apidecl *a = (ga_apidecl *)luaL_testudata(L, idx, DECL_MT);
  if (!a || !a->d.mem) ga_error(L, "%s: expected a declaration", fname);
  return &a->d;
}

static int l_parse(lua_State *L) {
  size_t len;
  const char *text = ga_checklstring(L, 1, &len, "api.parse", "the declaration");
  ga_apidecl *a = (ga_apidecl *)lua_newuserdatauv(L, sizeof *a, 0);
  memset(a, 0, sizeof *a);
  luaL_setmetatable(L, DECL_MT);
  char err[256];
  if (ga_decl_parse(&a->d, text, len, err, sizeof err) < 0) {
    /* the first line names the declaration in the message */
    const char *nl = memchr(text, '\n', len);
    int first = (int)(nl ? (size_t)(nl - text) : len);
    char line[128];
    snprintf(line, sizeof line, "%.*s", first > 120 ? 120 : first, text);
    return ga_error(L, "api.parse: %s (in \"%s\")", err, line);
  }
  /* register the name errors may be renamed from */
  lua_rawgetp(L, LUA_REGISTRYINDEX, &names_key);
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, a->d.fname);
  lua_pop(L, 1);
  return 1;
}

/* ===================================================================== */
/* bound functions                                                       */
/* ===================================================================== */

/* "gpuarray: <inner>: reason" as "gpuarray: <fname>: reason" when inner is
** a declared name other than fname; "gpuarray: <fname>: <inner>: reason"
** when inner is something else (a CUDA call); other values unchanged */
static void rename_error(lua_State *L, const char *fname) {
  static const char prefix[] = "gpuarray: ";
  const size_t np = sizeof prefix - 1;
  if (lua_type(L, -1) != LUA_TSTRING) return;
  size_t len;
  const char *msg = lua_tolstring(L, -1, &len);
  if (len < np || memcmp(msg, prefix, np) != 0) return;
  const char *inner = msg + np, *sep = strstr(inner, ": ");
  size_t fl = strlen(fname);
  if (sep && (size_t)(sep - inner) == fl && memcmp(inner, fname, fl) == 0) return;
  int known = 0;
  /* C naming the function by its last name ("get_unique_id" inside
  ** "nccl.get_unique_id") is the function itself */
  const char *last = fname + strlen(fname);
  while (last > fname && last[-1] != '.' && last[-1] != ':') last--;
  size_t ll = strlen(last);
  if (sep && last != fname && (size_t)(sep - inner) == ll && memcmp(inner, last, ll) == 0) known = 1;
  if (sep && !known) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &names_key);
    lua_pushlstring(L, inner, (size_t)(sep - inner));
    known = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 2);
  }
  if (known)
    lua_pushfstring(L, "%s%s%s", prefix, fname, sep);
  else
    lua_pushfstring(L, "%s%s: %s", prefix, fname, inner);
  lua_remove(L, -2);
}

/* upvalues: 1 the context, 2 the declaration, 3 the implementation */
static int bound_done(lua_State *L, int status, lua_KContext base) {
  ga_state *ctx = ga_ctx(L);
  ctx->api_depth = 0;
  if (status != LUA_OK && status != LUA_YIELD) {
    const ga_apidecl *a = (const ga_apidecl *)lua_touserdata(L, lua_upvalueindex(2));
    lua_rawgetp(L, LUA_REGISTRYINDEX, &user_error_key);
    int user = lua_rawequal(L, -1, -2);
    lua_pop(L, 1);
    if (user) {   /* used once: a later error of the same text is renamed */
      lua_pushnil(L);
      lua_rawsetp(L, LUA_REGISTRYINDEX, &user_error_key);
    }
    if (!user) rename_error(L, a->d.fname);
    return lua_error(L);
  }
  return lua_gettop(L) - (int)base;
}

static int bound_nested(lua_State *L, int status, lua_KContext base) {
  (void)status;
  return lua_gettop(L) - (int)base;
}

static int bound_call(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  const ga_apidecl *a = (const ga_apidecl *)lua_touserdata(L, lua_upvalueindex(2));
  int top = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(3));
  int n;
  if (ctx->api_depth) {
    n = ga_api_bind_in(L, &a->d, NULL, 1, top, ctx->array_mt);
    lua_callk(L, n, LUA_MULTRET, top, bound_nested);
    return lua_gettop(L) - top;
  }
  /* the outermost declared call: binding errors need no renaming, but the
  ** implementation's do */
  n = ga_api_bind_in(L, &a->d, NULL, 1, top, ctx->array_mt);
  ctx->api_depth = 1;
  int status = lua_pcallk(L, n, LUA_MULTRET, 0, top, bound_done);
  if (status == LUA_OK) {   /* the common end, without bound_done's look-ups */
    ctx->api_depth = 0;
    return lua_gettop(L) - top;
  }
  return bound_done(L, status, top);
}

static int l_bind(lua_State *L) {
  ga_api_checkdecl(L, 1, "api.bind");
  luaL_checktype(L, 2, LUA_TFUNCTION);
  ga_state_push(L);
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, bound_call, 3);
  return 1;
}

static int l_apply(lua_State *L) {
  const ga_decl *d = ga_api_checkdecl(L, 1, "api.apply");
  int top = lua_gettop(L);
  return ga_api_bind(L, d, NULL, 2, top);
}

/* call_user(fn, ...): fn runs as user code: the public functions it calls
** name themselves in their errors, and its own errors pass unchanged */
static int user_done(lua_State *L, int status, lua_KContext saved) {
  ga_ctx(L)->api_depth = (int)saved;
  if (status != LUA_OK && status != LUA_YIELD) {
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &user_error_key);
    return lua_error(L);
  }
  return lua_gettop(L);
}

static int l_call_user(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  int saved = ctx->api_depth;
  ctx->api_depth = 0;
  int status = lua_pcallk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, saved, user_done);
  return user_done(L, status, saved);
}

static int l_set_type(lua_State *L) {
  const char *name = ga_checkstring(L, 1, "api.set_type", "the type name");
  if (!lua_isfunction(L, 2)) ga_error(L, "api.set_type: the checker must be a function");
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ga_api_types_key);
  lua_pushvalue(L, 2);
  lua_setfield(L, -2, name);
  return 0;
}

/* ===================================================================== */
/* info                                                                  */
/* ===================================================================== */

static void push_alt(lua_State *L, const ga_declalt *a) {
  if (a->kind == GA_DT_ENUM) lua_pushfstring(L, "\"%s\"", a->text);
  else if (a->kind == GA_DT_CUSTOM) lua_pushstring(L, a->text);
  else lua_pushstring(L, ga_decltype_names[a->kind]);
}

static int l_info(lua_State *L) {
  const ga_decl *d = ga_api_checkdecl(L, 1, "api.info");
  lua_createtable(L, 0, 10);
  ga_setstr(L, "qualname", d->qualname);
  ga_setstr(L, "fname", d->fname);
  ga_setstr(L, "signature", d->signature);
  ga_setstr(L, "doc", d->doc);
  if (d->returns) ga_setstr(L, "returns", d->returns);
  if (d->self_class) ga_setstr(L, "class", d->self_class);
  ga_setint(L, "npos", d->npos);
  lua_createtable(L, d->np, 0);
  for (int k = 0; k < d->np; k++) {
    const ga_declparam *p = &d->p[k];
    lua_createtable(L, 0, 8);
    ga_setstr(L, "name", p->names[0]);
    lua_createtable(L, p->nnames, 0);
    for (int a = 0; a < p->nnames; a++) {
      lua_pushstring(L, p->names[a]);
      lua_rawseti(L, -2, a + 1);
    }
    lua_setfield(L, -2, "names");
    lua_createtable(L, p->nalt, 0);
    for (int a = 0; a < p->nalt; a++) {
      push_alt(L, &p->alt[a]);
      lua_rawseti(L, -2, a + 1);
    }
    lua_setfield(L, -2, "types");
    if (p->type_text) ga_setstr(L, "type", p->type_text);
    if (p->default_text) ga_setstr(L, "default", p->default_text);
    ga_setbool(L, "optional", p->optional);
    ga_setbool(L, "kwonly", p->kwonly);
    ga_setbool(L, "vararg", p->vararg);
    ga_setbool(L, "self", k == 0 && d->self_class != NULL);
    lua_rawseti(L, -2, k + 1);
  }
  lua_setfield(L, -2, "params");
  return 1;
}

/* names(decl) -> qualname, fname: what registering a declaration needs,
** without info's tables (made on demand: ~800 declarations' tables would
** stay on the Lua heap of every state that requires the module) */
static int l_names(lua_State *L) {
  const ga_decl *d = ga_api_checkdecl(L, 1, "api.names");
  lua_pushstring(L, d->qualname);
  lua_pushstring(L, d->fname);
  return 2;
}

static const luaL_Reg decl_meta[] = {
  { "__gc", decl_gc },
  { NULL, NULL },
};

static const luaL_Reg api_funcs[] = {
  { "parse", l_parse },
  { "bind", l_bind },
  { "apply", l_apply },
  { "info", l_info },
  { "names", l_names },
  { "call_user", l_call_user },
  { "set_type", l_set_type },
  { NULL, NULL },
};

void ga_open_api(lua_State *L) {
  if (luaL_newmetatable(L, DECL_MT)) luaL_setfuncs(L, decl_meta, 0);
  lua_pop(L, 1);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &names_key) != LUA_TTABLE) {
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &names_key);
  }
  lua_pop(L, 1);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &ga_api_types_key) != LUA_TTABLE) {
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &ga_api_types_key);
  }
  lua_pop(L, 1);
  ga_setprivate(L, "api", api_funcs);
}
