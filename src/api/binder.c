/*
** binder.c: a declaration applied to a call's arguments (api.h). The rule
** is API.md §0's: a trailing plain table whose keys are all strings is the
** options table (an empty one too, unless the parameter it would fill by
** position takes a table); everything before it is positional; every
** parameter can also be given by name in the options table, never both.
*/
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "api/api.h"

const char ga_api_types_key = 't';

/* ===================================================================== */
/* types                                                                 */
/* ===================================================================== */

static int has_name(lua_State *L, int idx, const char *name) {
  int r = 0;
  if (luaL_getmetafield(L, idx, "__name") == LUA_TSTRING) {
    r = strcmp(lua_tostring(L, -1), name) == 0;
    lua_pop(L, 1);
  }
  return r;
}

/* A table read raw as a list of integers (shapes, axes); at most 64 */
static int is_plain_table(lua_State *L, int idx);

static int int_list(lua_State *L, int idx) {
  if (!is_plain_table(L, idx)) return 0;
  lua_Unsigned n = lua_rawlen(L, idx);
  if (n > 64) return 0;
  for (lua_Unsigned i = 1; i <= n; i++) {
    int ok = lua_rawgeti(L, idx, (lua_Integer)i) == LUA_TNUMBER && lua_isinteger(L, -1);
    lua_pop(L, 1);
    if (!ok) return 0;
  }
  return 1;
}

static int is_plain_table(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return 0;
  if (lua_getmetatable(L, idx)) {
    lua_pop(L, 1);
    return 0;
  }
  return 1;
}

/* A type registered by name (api_lua.c: a checker function), else an
** object whose metatable is named gpuarray.<name> or <name> */
static int custom_ok(lua_State *L, int idx, const char *name) {
  idx = lua_absindex(L, idx);
  /* `false`: NumPy's None where nil already means "not given" (axis) */
  if (strcmp(name, "false") == 0) return lua_type(L, idx) == LUA_TBOOLEAN && !lua_toboolean(L, idx);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &ga_api_types_key) == LUA_TTABLE) {
    if (lua_getfield(L, -1, name) == LUA_TFUNCTION) {
      lua_pushvalue(L, idx);
      lua_call(L, 1, 1);
      int ok = lua_toboolean(L, -1);
      lua_pop(L, 2);
      return ok;
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  char full[128];
  snprintf(full, sizeof full, "gpuarray.%s", name);
  return has_name(L, idx, full) || has_name(L, idx, name);
}

static int alt_ok(lua_State *L, int idx, const ga_declalt *a) {
  int t = lua_type(L, idx);
  switch (a->kind) {
  case GA_DT_ANY: return 1;
  case GA_DT_BOOLEAN: return t == LUA_TBOOLEAN;
  case GA_DT_INTEGER: case GA_DT_AXIS: return t == LUA_TNUMBER && lua_isinteger(L, idx);
  case GA_DT_NUMBER: return t == LUA_TNUMBER;
  case GA_DT_STRING: return t == LUA_TSTRING;
  case GA_DT_TABLE: case GA_DT_DICT: return t == LUA_TTABLE;
  case GA_DT_LIST: return is_plain_table(L, idx);
  case GA_DT_FUNCTION: return t == LUA_TFUNCTION;
  case GA_DT_CALLABLE:
    if (t == LUA_TFUNCTION) return 1;
    if (luaL_getmetafield(L, idx, "__call") != LUA_TNIL) {
      lua_pop(L, 1);
      return 1;
    }
    return 0;
  case GA_DT_NDARRAY: return t == LUA_TUSERDATA && has_name(L, idx, "gpuarray.ndarray");
  case GA_DT_ARRAYLIKE:
    return t == LUA_TNUMBER || t == LUA_TBOOLEAN || t == LUA_TTABLE ||
           (t == LUA_TUSERDATA && (has_name(L, idx, "gpuarray.ndarray") || has_name(L, idx, "gpuarray.scalar")));
  case GA_DT_SCALAR:
    if (t == LUA_TNUMBER || t == LUA_TBOOLEAN) return 1;
    if (t == LUA_TUSERDATA) return has_name(L, idx, "gpuarray.scalar");
    if (is_plain_table(L, idx) && lua_rawlen(L, idx) == 2) {   /* a complex {re, im} */
      int ok = lua_rawgeti(L, idx, 1) == LUA_TNUMBER;
      ok = (lua_rawgeti(L, idx, 2) == LUA_TNUMBER) && ok;
      lua_pop(L, 2);
      return ok;
    }
    return 0;
  case GA_DT_DTYPE:
    if (t == LUA_TSTRING) return ga_dtype_lookup(lua_tostring(L, idx)) >= 0;
    if (t == LUA_TUSERDATA) return has_name(L, idx, "gpuarray.dtype") || has_name(L, idx, "gpuarray.scalar");
    if (t == LUA_TTABLE) {   /* what ga.dtype(name) returns: a table with the name */
      int ok = lua_getfield(L, idx, "name") == LUA_TSTRING && ga_dtype_lookup(lua_tostring(L, -1)) >= 0;
      lua_pop(L, 1);
      return ok;
    }
    return 0;
  case GA_DT_SHAPE: case GA_DT_AXES:
    return (t == LUA_TNUMBER && lua_isinteger(L, idx)) || int_list(L, idx);
  case GA_DT_USERDATA: return t == LUA_TUSERDATA || t == LUA_TLIGHTUSERDATA;
  case GA_DT_OBJECT:
    if (t == LUA_TUSERDATA) return 1;
    if (t == LUA_TTABLE && lua_getmetatable(L, idx)) {
      lua_pop(L, 1);
      return 1;
    }
    return 0;
  case GA_DT_ENUM: return t == LUA_TSTRING && strcmp(lua_tostring(L, idx), a->text) == 0;
  case GA_DT_CUSTOM: return custom_ok(L, idx, a->text);
  }
  return 0;
}

static const char *const type_words[GA_DT_NBASE] = {
  "any value", "a boolean", "an integer", "a number", "a string", "a table", "a list", "a table of named values",
  "a function", "a function", "an ndarray", "an array (an ndarray, a number, a boolean or a nested table)",
  "a scalar", "a dtype", "a shape (an integer or a list of integers)", "an integer", "an integer or a list of integers",
  "a userdata", "an object",
};

/* Push what the parameter takes, in words: "an integer or nil",
** "one of \"constant\", \"edge\" or nil" */
static void push_expected(lua_State *L, const ga_declparam *p) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  int n = 0, enums = 0;
  for (int k = 0; k < p->nalt; k++) {
    const ga_declalt *a = &p->alt[k];
    if (a->kind == GA_DT_ENUM) continue;
    if (n++) luaL_addstring(&b, " or ");
    if (a->kind == GA_DT_CUSTOM) {
      /* "an Event", "a Stream": the article by the name's first letter */
      const char *art = strcmp(a->text, "false") == 0 ? "" : strchr("AEIOUaeiou", a->text[0]) ? "an " : "a ";
      lua_pushfstring(L, "%s%s", art, a->text);
      luaL_addvalue(&b);
    } else {
      luaL_addstring(&b, type_words[a->kind]);
    }
  }
  for (int k = 0; k < p->nalt; k++) {
    const ga_declalt *a = &p->alt[k];
    if (a->kind != GA_DT_ENUM) continue;
    luaL_addstring(&b, enums++ ? ", " : n ? " or one of " : "one of ");
    lua_pushfstring(L, "\"%s\"", a->text);
    luaL_addvalue(&b);
  }
  if (p->optional && !p->vararg) luaL_addstring(&b, " or nil");
  luaL_pushresult(&b);
}

/* Push how a value looks in an error: numbers and strings as they are */
static void push_got(lua_State *L, int idx) {
  switch (lua_type(L, idx)) {
  case LUA_TNUMBER: lua_pushfstring(L, "%s", luaL_tolstring(L, idx, NULL)); lua_remove(L, -2); break;
  case LUA_TSTRING: lua_pushfstring(L, "\"%s\"", lua_tostring(L, idx)); break;
  default: {
    int t = luaL_getmetafield(L, idx, "__name");   /* pushes nothing when nil */
    if (t != LUA_TSTRING) {
      if (t != LUA_TNIL) lua_pop(L, 1);
      lua_pushstring(L, luaL_typename(L, idx));
    }
  }
  }
}

/* The declared name nearest key (edit distance <= 2), or NULL; names of
** p[from..] */
static const char *nearest(const ga_decl *d, const char *key, int from) {
  const char *best = NULL;
  int bestd = 3;
  for (int k = from; k < d->np; k++)   /* the same name in other letter case first */
    for (int a = 0; a < d->p[k].nnames && !d->p[k].vararg; a++)
      if (strcasecmp(key, d->p[k].names[a]) == 0) return d->p[k].names[a];
  for (int k = from; k < d->np; k++) {
    if (d->p[k].vararg) continue;
    for (int a = 0; a < d->p[k].nnames; a++) {
      int dist = ga_edit_distance(key, d->p[k].names[a]);
      if (dist < bestd) bestd = dist, best = d->p[k].names[a];
    }
  }
  return best;
}

static const char *nearest_enum(const ga_declparam *p, const char *s) {
  const char *best = NULL;
  int bestd = 3;
  for (int k = 0; k < p->nalt; k++)
    if (p->alt[k].kind == GA_DT_ENUM) {
      int dist = ga_edit_distance(s, p->alt[k].text);
      if (dist < bestd) bestd = dist, best = p->alt[k].text;
    }
  return best;
}

/* The common cases of alt_ok, read from the parameter's kinds (decl.h)
** without strings or metafields: whether the value at idx (of Lua type t)
** is surely accepted. A no sends the value through check_value, which
** decides (and words the error), so this only has to never say yes
** where every alternative says no. array_mt: the ndarray metatable's
** identity (ga_state), or NULL. */
#define KIND(x) (1u << GA_DT_##x)
static inline __attribute__((always_inline)) int quick_ok(lua_State *L, int idx, int t, unsigned kinds,
                                                         const void *array_mt) {
  if (kinds & KIND(ANY)) return 1;
  switch (t) {
  case LUA_TNUMBER:
    if (kinds & (KIND(NUMBER) | KIND(ARRAYLIKE) | KIND(SCALAR))) return 1;
    return (kinds & (KIND(INTEGER) | KIND(AXIS) | KIND(SHAPE) | KIND(AXES))) && lua_isinteger(L, idx);
  case LUA_TBOOLEAN: return (kinds & (KIND(BOOLEAN) | KIND(ARRAYLIKE) | KIND(SCALAR))) != 0;
  case LUA_TSTRING: return (kinds & KIND(STRING)) != 0;
  case LUA_TTABLE: return (kinds & (KIND(TABLE) | KIND(DICT) | KIND(ARRAYLIKE))) != 0;
  case LUA_TFUNCTION: return (kinds & (KIND(FUNCTION) | KIND(CALLABLE))) != 0;
  case LUA_TUSERDATA:
    if (kinds & (KIND(USERDATA) | KIND(OBJECT))) return 1;
    if ((kinds & (KIND(NDARRAY) | KIND(ARRAYLIKE))) && array_mt && lua_getmetatable(L, idx)) {
      int ok = lua_topointer(L, -1) == array_mt;
      lua_pop(L, 1);
      return ok;
    }
    return 0;
  }
  return 0;
}
#undef KIND

static void check_value(lua_State *L, int idx, const ga_decl *d, const ga_declparam *p, const char *fname) {
  if (p->nalt == 0) return;
  idx = lua_absindex(L, idx);
  for (int k = 0; k < p->nalt; k++)
    if (alt_ok(L, idx, &p->alt[k])) return;
  push_expected(L, p);
  push_got(L, idx);
  const char *hint = lua_type(L, idx) == LUA_TSTRING ? nearest_enum(p, lua_tostring(L, idx)) : NULL;
  const char *pname = p->vararg ? "each extra argument" : p->names[0];
  if (hint)
    ga_error(L, "%s: %s must be %s, got %s (did you mean \"%s\"?)", fname, pname, lua_tostring(L, -2),
             lua_tostring(L, -1), hint);
  ga_error(L, "%s: %s must be %s, got %s", fname, pname, lua_tostring(L, -2), lua_tostring(L, -1));
}

/* Whether a table fits the parameter's type (an empty `{}` is then a value) */
static int takes_table(const ga_declparam *p) {
  if (p->nalt == 0) return 1;
  for (int k = 0; k < p->nalt; k++)
    switch (p->alt[k].kind) {
    case GA_DT_TABLE: case GA_DT_LIST: case GA_DT_DICT: case GA_DT_ARRAYLIKE: case GA_DT_SHAPE:
    case GA_DT_AXES: case GA_DT_SCALAR: case GA_DT_DTYPE: case GA_DT_OBJECT: case GA_DT_CUSTOM:
      return 1;
    }
  return 0;
}

static int takes_dict(const ga_declparam *p) {
  if (p->nalt == 0 && !p->vararg) return 1;   /* `any` takes any table by position */
  for (int k = 0; k < p->nalt; k++)
    if (p->alt[k].kind == GA_DT_DICT) return 1;
  return 0;
}

/* ===================================================================== */
/* the binder                                                            */
/* ===================================================================== */

int ga_api_is_options(lua_State *L, int idx) {
  if (!is_plain_table(L, idx)) return 0;
  idx = lua_absindex(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    int str = lua_type(L, -2) == LUA_TSTRING;
    lua_pop(L, 1);
    if (!str) {
      lua_pop(L, 1);
      return 0;
    }
  }
  return 1;
}

/* The parameter a value at position i (0-based, self included) fills, or NULL */
static const ga_declparam *slot(const ga_decl *d, int i) {
  if (i < d->npos) return &d->p[i];
  return d->vararg >= 0 ? &d->p[d->vararg] : NULL;
}

/* The parameter an option key names, or -1 (no such name, the `...`
** parameter, a method's self) */
static int option_param(const ga_decl *d, const char *key) {
  int k = ga_decl_find(d, key);
  return k < 0 || d->p[k].vararg || (k == 0 && d->self_class) ? -1 : k;
}

static void unknown_option(lua_State *L, const ga_decl *d, const char *fname, const char *key) {
  const char *near = nearest(d, key, d->self_class ? 1 : 0);
  if (near) ga_error(L, "%s: unknown option '%s' (did you mean '%s'?)", fname, key, near);
  ga_error(L, "%s: unknown option '%s'", fname, key);
}

void ga_api_check_options(lua_State *L, int idx, const ga_decl *d, const char *fname) {
  idx = lua_absindex(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (!key) ga_error(L, "%s: the options table has a key that is not a string", fname);
    if (option_param(d, key) < 0) unknown_option(L, d, fname, key);
  }
}

/* The parameters an options table names, as a mask: bit k for parameter
** k < 63, bit 63 for any later one */
static uint64_t param_bit(int k) { return (uint64_t)1 << (k < 63 ? k : 63); }

/* ga_api_bind, with the ndarray metatable's identity (or NULL) for the
** quick type test */
int ga_api_bind_in(lua_State *L, const ga_decl *d, const char *fname, int base, int top, const void *array_mt) {
  if (!fname) fname = d->fname;
  int nargs = top - base + 1, opts = 0;
  uint64_t named = 0;          /* the parameters the options table names */
  const char *unknown = NULL;  /* its first key that names none */
  if (nargs > 0 && is_plain_table(L, top)) {
    /* a trailing options table; `{}` is a value where the parameter it
    ** would fill by position takes a table, and a named table is one where
    ** that parameter takes a dict. One walk over the keys tells whether
    ** they are all strings (else the table is a value) and which
    ** parameters they name; an unknown one raises below, after the
    ** count of arguments is checked. */
    const ga_declparam *s = slot(d, nargs - 1);
    lua_pushnil(L);
    if (!lua_next(L, top)) {
      opts = !(s && takes_table(s));
    } else if (s && takes_dict(s)) {
      lua_pop(L, 2);
    } else {
      opts = 1;
      do {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) {
          lua_pop(L, 1);
          opts = 0, named = 0, unknown = NULL;
          break;
        }
        const char *key = lua_tostring(L, -1);   /* kept alive by the table */
        int k = option_param(d, key);
        if (k >= 0) named |= param_bit(k);
        else if (!unknown) unknown = key;
      } while (lua_next(L, top));
    }
  }
  int npos = nargs - opts;
  /* nils past the last parameter are no arguments (f(x, nil) from code
  ** that passes an optional value on) */
  if (!opts)
    while (npos > d->npos && d->vararg < 0 && lua_isnil(L, base + npos - 1)) npos--;
  int self = d->self_class ? 1 : 0;
  if (npos > d->npos && d->vararg < 0) {
    if (d->npos - self == 0)
      ga_error(L, "%s: takes no arguments%s (got %d)", fname, d->np > self ? " but options" : "", npos - self);
    ga_error(L, "%s: too many arguments (at most %d, got %d)", fname, d->npos - self, npos - self);
  }
  int optidx = opts ? top : 0;
  if (unknown) unknown_option(L, d, fname, unknown);
  luaL_checkstack(L, d->np + (npos > d->npos ? npos - d->npos : 0) + 8, "gpuarray: too many arguments");
  int pushed = 0;
  for (int k = 0; k < d->np; k++) {
    const ga_declparam *p = &d->p[k];
    if (p->vararg) continue;
    int given = 0, t = LUA_TNIL;
    if (k < npos && k < d->npos && (t = lua_type(L, base + k)) != LUA_TNIL) {
      lua_pushvalue(L, base + k);
      given = 1;
    }
    if ((named & param_bit(k)) && !(k == 0 && self)) {
      for (int a = 0; a < p->nnames; a++) {
        if (lua_getfield(L, optidx, p->names[a]) == LUA_TNIL) {
          lua_pop(L, 1);
          continue;
        }
        if (given) {
          if (given == 1)
            ga_error(L, "%s: %s given both as argument %d and as option '%s'", fname, p->names[0], k + 1 - self,
                     p->names[a]);
          ga_error(L, "%s: '%s' and '%s' name the same option: give one", fname, p->names[0], p->names[a]);
        }
        given = 2;
        t = lua_type(L, -1);
      }
    }
    if (given) {
      if (p->nalt && !quick_ok(L, -1, t, p->kinds, array_mt)) check_value(L, -1, d, p, fname);
    } else {
      switch (p->defkind) {
      case GA_DEF_BOOL: lua_pushboolean(L, p->defbool); break;
      case GA_DEF_INT: lua_pushinteger(L, p->defint); break;
      case GA_DEF_NUM: lua_pushnumber(L, p->defnum); break;
      case GA_DEF_STR: lua_pushstring(L, p->defstr); break;
      case GA_DEF_TABLE: lua_newtable(L); break;
      default:
        if (!p->optional) {
          if (k == 0 && self) ga_error(L, "%s: called without an object (use ':' to call a method)", fname);
          ga_error(L, "%s: missing argument '%s'", fname, p->names[0]);
        }
        lua_pushnil(L);
      }
    }
    pushed++;
  }
  if (d->vararg >= 0) {
    const ga_declparam *p = &d->p[d->vararg];
    for (int i = d->npos; i < npos; i++) {
      lua_pushvalue(L, base + i);
      int t = lua_type(L, -1);
      if (t != LUA_TNIL && p->nalt && !quick_ok(L, -1, t, p->kinds, array_mt)) check_value(L, -1, d, p, fname);
      pushed++;
    }
  }
  return pushed;
}

int ga_api_bind(lua_State *L, const ga_decl *d, const char *fname, int base, int top) {
  return ga_api_bind_in(L, d, fname, base, top, ga_state_get(L)->array_mt);
}
