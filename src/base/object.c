/*
** object.c: the one header and checker of every handle type the module
** hands to Lua (Stream, Event, memory pools, and the plans, library
** handles, graphs and communicators to come), after liolib's pattern: the
** userdata is created zeroed and "not alive", with its metatable, before the
** resource is acquired, so a failure in between leaves nothing to leak; the
** checker names the function, the type it wanted and what it got.
*/
#include <string.h>

#include "base/base.h"

void *ga_object_new(lua_State *L, const ga_objtype *t, size_t size, int nuv) {
  ga_object *o = (ga_object *)lua_newuserdatauv(L, size, nuv);
  memset(o, 0, size);
  o->type = t;
  luaL_setmetatable(L, t->mt);
  return o;
}

void *ga_object_test(lua_State *L, int idx, const ga_objtype *t) {
  ga_object *o = (ga_object *)luaL_testudata(L, idx, t->mt);
  return o && o->type == t ? o : NULL;
}

void *ga_object_check(lua_State *L, int idx, const ga_objtype *t, const char *fname) {
  ga_object *o = (ga_object *)ga_object_test(L, idx, t);
  if (!o) ga_error(L, "%s: expected %s, got %s", fname, t->what, luaL_typename(L, idx));
  if (!o->alive) ga_error(L, "%s: the %s was destroyed", fname, t->name);
  return o;
}
