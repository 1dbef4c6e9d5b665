/*
** dlpack.c: zero-copy exchange with other CUDA libraries through DLPack
** v1.x (the layouts are in include/gpuarray.h), both the unversioned
** DLManagedTensor and DLManagedTensorVersioned, as light userdata.
**
** x:to_dlpack([{versioned = true}]) hands out a managed tensor that holds
** one reference to x's memory block: the memory stays alive, whatever
** happens to x, until the consumer calls the deleter (exactly once, from
** any thread). ga.from_dlpack(p[, {versioned =, copy =}]) wraps p's memory
** as an ndarray whose block calls p's deleter when its last view is gone.
** A light userdata says nothing of its layout, so the caller says which
** of the two it is (versioned = true), as Python's capsule names do.
**
** Ownership on errors: from_dlpack validates everything before it takes
** p; when it raises there, p is not consumed and its owner still calls the
** deleter. Once taken, p is released exactly once (a copy that fails
** leaves the wrapping array to the collector, which releases it).
** A read-only tensor (DLPACK_FLAG_BITMASK_READ_ONLY) is copied, since
** ndarrays are writable; copy = false refuses it instead.
*/
#include <stdlib.h>
#include <string.h>

#include "interop/interop.h"

/* What to_dlpack allocates: the managed tensor first (the light userdata
** is its address, and the deleter's self), then what it points to */
typedef struct {
  union {
    DLManagedTensor legacy;
    struct DLManagedTensorVersioned versioned;
  } m;
  ga_block *block;                  /* one reference, NULL for size 0 */
  int64_t dims[2 * GA_MAXDIM];      /* shape, then strides in elements */
} exported;

static void exported_free(exported *e) {
  ga_block_release(e->block);       /* never raises; may run on any thread */
  free(e);
}

static void delete_legacy(DLManagedTensor *self) {
  exported_free((exported *)self->manager_ctx);
}

static void delete_versioned(struct DLManagedTensorVersioned *self) {
  exported_free((exported *)self->manager_ctx);
}

/* ===================================================================== */
/* dtypes                                                                */
/* ===================================================================== */

static DLDataType dl_dtype(int t) {
  DLDataType d;
  d.bits = (uint8_t)(8 * ga_dtypes[t].itemsize);
  d.lanes = 1;
  if (t == GA_BFLOAT16) {   /* a float by kind, DLPack's own code */
    d.code = kDLBfloat;
    return d;
  }
  switch (ga_dtypes[t].kind) {
    case 'b': d.code = kDLBool; break;
    case 'i': d.code = kDLInt; break;
    case 'u': d.code = kDLUInt; break;
    case 'f': d.code = kDLFloat; break;
    default: d.code = kDLComplex; break;
  }
  return d;
}

/* The dtype of d, or -1 */
static int ga_from_dl(DLDataType d) {
  if (d.lanes != 1) return -1;
  for (int t = 0; t < GA_NDTYPES; t++) {
    DLDataType m = dl_dtype(t);
    if (m.code == d.code && m.bits == d.bits) return t;
  }
  return -1;
}

/* ===================================================================== */
/* to_dlpack                                                             */
/* ===================================================================== */

static int opt_flag(lua_State *L, int opts, const char *key, int def) {
  if (!lua_istable(L, opts)) return def;
  int t = lua_getfield(L, opts, key);
  int v = t == LUA_TNIL ? def : lua_toboolean(L, -1);
  lua_pop(L, 1);
  return v;
}

/* x:to_dlpack([{versioned = false}]) -> light userdata */
static int l_to_dlpack(lua_State *L) {
  ga_array *a = ga_checkarray(L, 1);
  if (!lua_isnoneornil(L, 2) && !lua_istable(L, 2))
    ga_error(L, "to_dlpack: expected an options table, got %s", luaL_typename(L, 2));
  int versioned = opt_flag(L, 2, "versioned", 0);
  int64_t isz = ga_dtypes[a->dtype].itemsize;
  for (int d = 0; d < a->ndim; d++)
    if (a->strides[d] % isz)
      ga_error(L, "to_dlpack: the stride of axis %d (%I bytes) is no multiple of the item size", d + 1,
               (lua_Integer)a->strides[d]);
  exported *e = (exported *)calloc(1, sizeof *e);
  if (!e) ga_error(L, "to_dlpack: out of host memory");
  DLTensor *t = versioned ? &e->m.versioned.dl_tensor : &e->m.legacy.dl_tensor;
  t->data = a->size > 0 ? a->data : NULL;
  t->device.device_type = kDLCUDA;
  t->device.device_id = a->device;
  t->ndim = a->ndim;
  t->dtype = dl_dtype(a->dtype);
  t->shape = e->dims;
  t->strides = e->dims + GA_MAXDIM;
  t->byte_offset = 0;
  for (int d = 0; d < a->ndim; d++) {
    e->dims[d] = a->shape[d];
    e->dims[GA_MAXDIM + d] = a->strides[d] / isz;
  }
  if (versioned) {
    e->m.versioned.version.major = DLPACK_MAJOR_VERSION;
    e->m.versioned.version.minor = DLPACK_MINOR_VERSION;
    e->m.versioned.manager_ctx = e;
    e->m.versioned.deleter = delete_versioned;
    e->m.versioned.flags = 0;
  } else {
    e->m.legacy.manager_ctx = e;
    e->m.legacy.deleter = delete_legacy;
  }
  e->block = a->block;
  if (e->block) ga_block_retain(e->block);
  lua_pushlightuserdata(L, &e->m);
  return 1;
}

/* ===================================================================== */
/* from_dlpack                                                           */
/* ===================================================================== */

/* The wrapping array's release: the consumer is done, the producer's
** deleter runs (NULL is allowed: nothing to call) */
static void release_legacy(void *ctx, void *ptr) {
  DLManagedTensor *m = (DLManagedTensor *)ctx;
  if (m->deleter) m->deleter(m);
}

static void release_versioned(void *ctx, void *ptr) {
  struct DLManagedTensorVersioned *m = (struct DLManagedTensorVersioned *)ctx;
  if (m->deleter) m->deleter(m);
}

static const char *device_name(int type) {
  switch (type) {
    case kDLCPU: return "CPU";
    case kDLCUDAHost: return "CUDA pinned host";
    case kDLOpenCL: return "OpenCL";
    case kDLVulkan: return "Vulkan";
    case kDLMetal: return "Metal";
    case kDLROCM: return "ROCm";
    case kDLROCMHost: return "ROCm host";
    case kDLOneAPI: return "oneAPI";
    default: return "non-CUDA";
  }
}

/* Everything from_dlpack checks before it takes the tensor */
typedef struct {
  void *data;
  int dtype, ndim, device;
  int64_t shape[GA_MAXDIM], strides[GA_MAXDIM];
} dl_layout;

static void read_tensor(lua_State *L, const DLTensor *t, dl_layout *o) {
  const char *f = "from_dlpack";
  if (t->device.device_type != kDLCUDA && t->device.device_type != kDLCUDAManaged)
    ga_error(L, "%s: the tensor is in %s memory (device type %d), not CUDA device memory", f,
             device_name((int)t->device.device_type), (int)t->device.device_type);
  o->dtype = ga_from_dl(t->dtype);
  if (o->dtype < 0)
    ga_error(L, "%s: unsupported DLPack dtype (code %d, %d bits, %d lanes)", f, (int)t->dtype.code,
             (int)t->dtype.bits, (int)t->dtype.lanes);
  if (t->ndim < 0 || t->ndim > GA_MAXDIM) ga_error(L, "%s: %d dimensions (0 to %d)", f, (int)t->ndim, GA_MAXDIM);
  o->ndim = t->ndim;
  if (o->ndim > 0 && !t->shape) ga_error(L, "%s: the tensor has no shape", f);
  int64_t isz = ga_dtypes[o->dtype].itemsize;
  for (int d = 0; d < o->ndim; d++) {
    o->shape[d] = t->shape[d];
    if (o->shape[d] < 0) ga_error(L, "%s: negative length %I of axis %d", f, (lua_Integer)o->shape[d], d + 1);
  }
  if (t->strides) {
    for (int d = 0; d < o->ndim; d++) {
      int64_t s = t->strides[d];
      if (s > INT64_MAX / 16 || s < -(INT64_MAX / 16))
        ga_error(L, "%s: stride %I of axis %d is out of range", f, (lua_Integer)s, d + 1);
      o->strides[d] = s * isz;
    }
  } else {
    ga_c_strides(o->ndim, o->shape, isz, o->strides);
  }
  o->device = t->device.device_id;
  int n = ga_device_count();
  if (o->device < 0 || o->device >= n)
    ga_error(L, "%s: CUDA device %d does not exist (%d devices)", f, o->device, n);
  o->data = t->data ? (char *)t->data + t->byte_offset : NULL;
}

/* ga.from_dlpack(p[, {versioned = false, copy = nil}]) -> ndarray; also
** accepts an ndarray (a view of it, as NumPy's from_dlpack does) */
static int l_from_dlpack(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  const char *f = "from_dlpack";
  ga_array *x = ga_toarray_in(L, ctx, 1);
  if (x) {
    if (x->flags & GA_F_FREED) ga_error(L, "%s: the array was freed", f);
    ga_array_ready(L, x, GA_LZ_READ);   /* a view of a pending array: its value first */
    ga_new_view(L, 1, x->ndim, x->shape, x->strides, x->data);
    return 1;
  }
  if (!lua_islightuserdata(L, 1) || !lua_touserdata(L, 1))
    ga_error(L, "%s: expected a DLPack tensor (a light userdata) or an ndarray, got %s", f,
             lua_isnil(L, 1) ? "nil" : lua_islightuserdata(L, 1) ? "NULL" : luaL_typename(L, 1));
  if (!lua_isnoneornil(L, 2) && !lua_istable(L, 2))
    ga_error(L, "%s: expected an options table, got %s", f, luaL_typename(L, 2));
  void *p = lua_touserdata(L, 1);
  int versioned = opt_flag(L, 2, "versioned", 0);
  int copy = opt_flag(L, 2, "copy", -1);        /* -1: only when read-only */
  uint64_t flags = 0;
  const DLTensor *t;
  if (versioned) {
    struct DLManagedTensorVersioned *v = (struct DLManagedTensorVersioned *)p;
    if (v->version.major != DLPACK_MAJOR_VERSION)
      ga_error(L, "%s: DLPack version %d.%d is not supported (this module reads %d.x)", f,
               (int)v->version.major, (int)v->version.minor, DLPACK_MAJOR_VERSION);
    flags = v->flags;
    t = &v->dl_tensor;
  } else {
    t = &((DLManagedTensor *)p)->dl_tensor;
  }
  int readonly = (flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
  if (readonly && copy == 0)
    ga_error(L, "%s: the tensor is read-only and copy = false, but ndarrays are writable", f);
  dl_layout o;
  read_tensor(L, t, &o);
  /* taken: from here p is released exactly once, by the array's block */
  ga_array *w = ga_wrap_memory(L, ctx, o.data, o.dtype, o.ndim, o.shape, o.strides, o.device,
                               versioned ? release_versioned : release_legacy, p, f);
  if (!readonly && copy != 1) return 1;
  /* a copy of our own; the producer's memory is handed back as soon as
  ** the copy has read it */
  ga_contiguous(L, ctx, -1, -1, 1);
  ga_device_enter(L, ctx);
  ga_cuda_check(L, cudaStreamSynchronize(ctx->stream), "from_dlpack: cudaStreamSynchronize");
  ga_array_release(w);
  return 1;
}

static const luaL_Reg dlpack_funcs[] = {
  {"from_dlpack", l_from_dlpack},
  {NULL, NULL}
};

static const luaL_Reg dlpack_methods[] = {
  {"to_dlpack", l_to_dlpack},
  {NULL, NULL}
};

void ga_open_dlpack(lua_State *L) {
  ga_setfuncs(L, dlpack_funcs);
  ga_push_methods(L);
  ga_setfuncs(L, dlpack_methods);
  lua_pop(L, 1);
}
