/*
** dlpack_hooks.c: DLPack tensors made by hand, for the specs (core._test.dlpack_*):
** a producer other than ourselves, whose checks (versions, devices, dtypes,
** shapes, the read-only flag) and deleter counts run without a GPU. The
** tensors point at whatever address they are given and own only
** themselves; their deleters count calls in one process-wide counter.
*/
#include <stdlib.h>
#include <string.h>

#include "interop/interop.h"

static atomic_long deleted;

typedef struct {
  union {
    DLManagedTensor legacy;
    struct DLManagedTensorVersioned versioned;
  } m;
  int64_t dims[2 * GA_MAXDIM + 2];
} made;

static void delete_legacy(DLManagedTensor *self) {
  atomic_fetch_add(&deleted, 1);
  free(self->manager_ctx);
}

static void delete_versioned(struct DLManagedTensorVersioned *self) {
  atomic_fetch_add(&deleted, 1);
  free(self->manager_ctx);
}

static lua_Integer field_int(lua_State *L, const char *key, lua_Integer def) {
  lua_getfield(L, 1, key);
  lua_Integer v = luaL_optinteger(L, -1, def);
  lua_pop(L, 1);
  return v;
}

/* Reads the list field key into out (at most max); returns its length or
** -1 when absent */
static int field_list(lua_State *L, const char *key, int64_t *out, int max) {
  if (lua_getfield(L, 1, key) != LUA_TTABLE) {
    lua_pop(L, 1);
    return -1;
  }
  int n = (int)lua_rawlen(L, -1);
  for (int i = 0; i < n && i < max; i++) {
    lua_rawgeti(L, -1, i + 1);
    out[i] = luaL_checkinteger(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return n;
}

/* core._test.dlpack_make{versioned=, major=, minor=, flags=, device_type=,
** device_id=, code=, bits=, lanes=, shape=, strides=, ndim=, data=,
** byte_offset=} -> light userdata (defaults: unversioned, CUDA device 0,
** float32, shape {}) */
static int l_make(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  made *m = (made *)calloc(1, sizeof *m);
  if (!m) return ga_error(L, "_dlpack_make: out of memory");
  lua_getfield(L, 1, "versioned");
  int versioned = lua_toboolean(L, -1);
  lua_pop(L, 1);
  DLTensor *t = versioned ? &m->m.versioned.dl_tensor : &m->m.legacy.dl_tensor;
  int64_t *shape = m->dims, *strides = m->dims + GA_MAXDIM + 1;
  int n = field_list(L, "shape", shape, GA_MAXDIM + 1);
  int ns = field_list(L, "strides", strides, GA_MAXDIM + 1);
  t->ndim = (int32_t)field_int(L, "ndim", n < 0 ? 0 : n);
  t->shape = n < 0 ? NULL : shape;
  t->strides = ns < 0 ? NULL : strides;
  t->data = (void *)(uintptr_t)field_int(L, "data", 0);
  t->byte_offset = (uint64_t)field_int(L, "byte_offset", 0);
  t->device.device_type = (DLDeviceType)field_int(L, "device_type", kDLCUDA);
  t->device.device_id = (int32_t)field_int(L, "device_id", 0);
  t->dtype.code = (uint8_t)field_int(L, "code", kDLFloat);
  t->dtype.bits = (uint8_t)field_int(L, "bits", 32);
  t->dtype.lanes = (uint16_t)field_int(L, "lanes", 1);
  if (versioned) {
    m->m.versioned.version.major = (uint32_t)field_int(L, "major", DLPACK_MAJOR_VERSION);
    m->m.versioned.version.minor = (uint32_t)field_int(L, "minor", DLPACK_MINOR_VERSION);
    m->m.versioned.flags = (uint64_t)field_int(L, "flags", 0);
    m->m.versioned.manager_ctx = m;
    m->m.versioned.deleter = delete_versioned;
  } else {
    m->m.legacy.manager_ctx = m;
    m->m.legacy.deleter = delete_legacy;
  }
  lua_pushlightuserdata(L, &m->m);
  return 1;
}

/* core._test.dlpack_deleted() -> how many deleters of made tensors ran */
static int l_deleted(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)atomic_load(&deleted));
  return 1;
}

/* core._test.dlpack_delete(p[, versioned]): call p's deleter, as its owner does
** with a tensor nobody consumed */
static int l_delete(lua_State *L) {
  luaL_checktype(L, 1, LUA_TLIGHTUSERDATA);
  void *p = lua_touserdata(L, 1);
  if (lua_toboolean(L, 2)) {
    struct DLManagedTensorVersioned *v = (struct DLManagedTensorVersioned *)p;
    if (v->deleter) v->deleter(v);
  } else {
    DLManagedTensor *m = (DLManagedTensor *)p;
    if (m->deleter) m->deleter(m);
  }
  return 0;
}

/* core._test.dlpack_read(p[, versioned]) -> the tensor's fields as a table */
static int l_read(lua_State *L) {
  luaL_checktype(L, 1, LUA_TLIGHTUSERDATA);
  void *p = lua_touserdata(L, 1);
  int versioned = lua_toboolean(L, 2);
  const DLTensor *t = versioned ? &((struct DLManagedTensorVersioned *)p)->dl_tensor
                                : &((DLManagedTensor *)p)->dl_tensor;
  lua_createtable(L, 0, 12);
  if (versioned) {
    const struct DLManagedTensorVersioned *v = (const struct DLManagedTensorVersioned *)p;
    ga_setint(L, "major", v->version.major);
    ga_setint(L, "minor", v->version.minor);
    ga_setint(L, "flags", (lua_Integer)v->flags);
  }
  ga_setint(L, "data", (lua_Integer)(uintptr_t)t->data);
  ga_setint(L, "byte_offset", (lua_Integer)t->byte_offset);
  ga_setint(L, "device_type", t->device.device_type);
  ga_setint(L, "device_id", t->device.device_id);
  ga_setint(L, "code", t->dtype.code);
  ga_setint(L, "bits", t->dtype.bits);
  ga_setint(L, "lanes", t->dtype.lanes);
  int nd = t->ndim < 0 || t->ndim > GA_MAXDIM ? 0 : t->ndim;
  ga_setint(L, "ndim", t->ndim);
  if (t->shape) {
    ga_pushshape(L, nd, t->shape);
    lua_setfield(L, -2, "shape");
  }
  if (t->strides) {
    ga_pushshape(L, nd, t->strides);
    lua_setfield(L, -2, "strides");
  }
  return 1;
}

static const luaL_Reg hook_funcs_test[] = {
  {"dlpack_make", l_make},
  {"dlpack_deleted", l_deleted},
  {"dlpack_delete", l_delete},
  {"dlpack_read", l_read},
  {NULL, NULL}
};

void ga_open_dlpack_hooks(lua_State *L) {
  ga_setprivate(L, GA_TEST, hook_funcs_test);
}
