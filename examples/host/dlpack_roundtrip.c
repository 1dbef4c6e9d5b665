/*
** dlpack_roundtrip.c: DLPack exchange between gpuarray and C, both layouts
** (DLManagedTensor and DLManagedTensorVersioned):
**   1. ours -> tensor -> ours: the same pointer, shape, strides and dtype;
**      the producer's memory outlives its arrays until the deleter runs;
**   2. ours -> a C consumer, which reads the fields and calls the deleter;
**   3. a tensor made by hand in C (Fortran order, cudaMalloc) -> ours;
**   4. a read-only one (copied), refused with copy = false, and a DLPack
**      major version this module does not read (refused, not consumed);
**   5. bfloat16 both ways (kDLBfloat, 16 bits): ours -> C, whose bits are
**      C's own round-to-nearest-even of the float32 values the array was
**      made from; C's bits -> ours, read back as the exact values.
** Every deleter is counted: exactly once each.
*/
#include "host_util.h"

/* ---- counting the deleters --------------------------------------------- */

/* A producer's deleter, interposed: the original runs, and is counted */
typedef struct {
  void *tensor;
  void (*legacy)(DLManagedTensor *);
  void (*versioned)(struct DLManagedTensorVersioned *);
  int calls;
} interposed;

static interposed slots[16];
static int nslots;

/* newest first: a freed tensor's address may come back for a later one */
static interposed *find(void *tensor) {
  for (int i = nslots - 1; i >= 0; i--)
    if (slots[i].tensor == tensor) return &slots[i];
  abort();
}

static void counted_legacy(DLManagedTensor *self) {
  interposed *s = find(self);
  s->calls++;
  s->legacy(self);
}

static void counted_versioned(struct DLManagedTensorVersioned *self) {
  interposed *s = find(self);
  s->calls++;
  s->versioned(self);
}

/* Interpose on p's deleter; returns its counter */
static interposed *count_deleter(void *p, int versioned) {
  interposed *s = &slots[nslots++];
  s->tensor = p;
  if (versioned) {
    struct DLManagedTensorVersioned *v = (struct DLManagedTensorVersioned *)p;
    s->versioned = v->deleter;
    v->deleter = counted_versioned;
  } else {
    DLManagedTensor *m = (DLManagedTensor *)p;
    s->legacy = m->deleter;
    m->deleter = counted_legacy;
  }
  return s;
}

/* ---- 1 and 2: our own tensors ------------------------------------------ */

static const char *make_ours =
  "local versioned = ...\n"
  "local x = ga.random.uniform(-1, 1, {6, 8}, 'float64')\n"
  "local v = x[{{2, 6}, {8, 1, -2}}]       -- strided, one stride negative\n"
  "return x, v, v:to_dlpack({versioned = versioned}), v:sum():item()\n";

static const char *consume_ours =
  "local p, versioned, v, total = ...\n"
  "local y = ga.from_dlpack(p, {versioned = versioned})\n"
  "assert(ga.array_equal(y, v), 'values differ')\n"
  "return y\n";

static void same_layout(const ga_desc *a, const ga_desc *b, const char *what) {
  EXPECT(a->data == b->data, "%s: pointer %p vs %p", what, a->data, b->data);
  EXPECT(a->dtype == b->dtype && a->ndim == b->ndim, "%s: dtype or ndim differ", what);
  for (int d = 0; d < a->ndim && d < b->ndim; d++)
    EXPECT(a->shape[d] == b->shape[d] && a->strides[d] == b->strides[d], "%s: axis %d: shape %lld/%lld strides %lld/%lld",
           what, d, (long long)a->shape[d], (long long)b->shape[d], (long long)a->strides[d],
           (long long)b->strides[d]);
}

static void ours_to_ours(lua_State *L, int versioned) {
  lua_pushboolean(L, versioned);
  if (!host_call(L, "=make", make_ours, 1, 4)) return;
  double total = lua_tonumber(L, -1);
  void *p = lua_touserdata(L, -2);
  interposed *count = count_deleter(p, versioned);
  ga_desc v = ga_check(L, -3);
  /* the consumer: from_dlpack (x, v stay below on the stack) */
  lua_pushlightuserdata(L, p);
  lua_pushboolean(L, versioned);
  lua_pushvalue(L, -5);
  lua_pushnumber(L, total);
  if (!host_call(L, "=consume", consume_ours, 4, 1)) return;
  ga_desc y = ga_check(L, -1);
  same_layout(&y, &v, versioned ? "versioned round trip" : "round trip");
  int y_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pop(L, 4);                              /* x, v, p, total: the producer's arrays go */
  full_gc(L);
  EXPECT(count->calls == 0, "deleter ran while the consumer's array lives");
  /* the memory is still there for the consumer */
  lua_rawgeti(L, LUA_REGISTRYINDEX, y_ref);
  lua_pushnumber(L, total);
  host_call(L, "=still", "local y, t = ...; assert(math.abs(y:sum():item() - t) <= 1e-12 * math.abs(t) + 1e-12)",
            2, 0);
  luaL_unref(L, LUA_REGISTRYINDEX, y_ref);
  full_gc(L);
  full_gc(L);
  EXPECT(count->calls == 1, "ours -> ours: deleter called %d times", count->calls);
}

static void ours_to_c(lua_State *L, int versioned) {
  lua_pushboolean(L, versioned);
  if (!host_call(L, "=make", make_ours, 1, 4)) return;
  void *p = lua_touserdata(L, -2);
  interposed *count = count_deleter(p, versioned);
  ga_desc v = ga_check(L, -3);
  const DLTensor *t = versioned ? &((struct DLManagedTensorVersioned *)p)->dl_tensor
                                : &((DLManagedTensor *)p)->dl_tensor;
  EXPECT((char *)t->data + t->byte_offset == v.data, "C consumer: pointer");
  EXPECT(t->device.device_type == kDLCUDA && t->device.device_id == v.device, "C consumer: device");
  EXPECT(t->dtype.code == kDLFloat && t->dtype.bits == 64 && t->dtype.lanes == 1, "C consumer: dtype");
  EXPECT(t->ndim == v.ndim, "C consumer: ndim");
  for (int d = 0; d < t->ndim; d++)
    EXPECT(t->shape[d] == v.shape[d] && t->strides[d] * 8 == v.strides[d], "C consumer: axis %d", d);
  if (versioned) {
    struct DLManagedTensorVersioned *m = (struct DLManagedTensorVersioned *)p;
    EXPECT(m->version.major == DLPACK_MAJOR_VERSION && m->flags == 0, "C consumer: version/flags");
    m->deleter(m);
  } else {
    DLManagedTensor *m = (DLManagedTensor *)p;
    m->deleter(m);
  }
  lua_pop(L, 4);
  full_gc(L);
  EXPECT(count->calls == 1, "ours -> C: deleter called %d times", count->calls);
}

/* ---- 3 and 4: tensors made by hand in C -------------------------------- */

typedef struct {
  union {
    DLManagedTensor legacy;
    struct DLManagedTensorVersioned versioned;
  } m;
  int64_t shape[2], strides[2];
  double *dev;
  int *calls;
} handmade;

static void handmade_free(handmade *h) {
  (*h->calls)++;
  cudaFree(h->dev);
  free(h);
}
static void handmade_legacy(DLManagedTensor *self) { handmade_free((handmade *)self->manager_ctx); }
static void handmade_versioned(struct DLManagedTensorVersioned *self) {
  handmade_free((handmade *)self->manager_ctx);
}

/* A 3 x 5 float64 tensor in Fortran order: element (i, j) is host[i + 3 j] */
static handmade *make_tensor(const double *host, int versioned, uint64_t flags, uint32_t major, int *calls) {
  handmade *h = (handmade *)calloc(1, sizeof *h);
  CUDA_OK(cudaMalloc((void **)&h->dev, 15 * sizeof(double)));
  CUDA_OK(cudaMemcpy(h->dev, host, 15 * sizeof(double), cudaMemcpyHostToDevice));
  h->shape[0] = 3, h->shape[1] = 5, h->strides[0] = 1, h->strides[1] = 3;
  h->calls = calls;
  DLTensor *t = versioned ? &h->m.versioned.dl_tensor : &h->m.legacy.dl_tensor;
  t->data = h->dev;
  t->device.device_type = kDLCUDA;
  t->device.device_id = 0;
  t->ndim = 2;
  t->dtype.code = kDLFloat;
  t->dtype.bits = 64;
  t->dtype.lanes = 1;
  t->shape = h->shape;
  t->strides = h->strides;
  if (versioned) {
    h->m.versioned.version.major = major;
    h->m.versioned.version.minor = 0;
    h->m.versioned.flags = flags;
    h->m.versioned.manager_ctx = h;
    h->m.versioned.deleter = handmade_versioned;
  } else {
    h->m.legacy.manager_ctx = h;
    h->m.legacy.deleter = handmade_legacy;
  }
  return h;
}

static const char *consume_handmade =
  "local p, versioned, copy = ...\n"
  "local y = ga.from_dlpack(p, {versioned = versioned, copy = copy})\n"
  "return y, y:sum():item(), y[{2, 3}]\n";

static void handmade_to_ours(lua_State *L, const double *host, int versioned, int readonly) {
  int calls = 0;
  handmade *h = make_tensor(host, versioned, readonly ? DLPACK_FLAG_BITMASK_READ_ONLY : 0, 1, &calls);
  double *dev = h->dev, total = 0;
  for (int k = 0; k < 15; k++) total += host[k];
  lua_pushlightuserdata(L, &h->m);
  lua_pushboolean(L, versioned);
  if (!host_call(L, "=handmade", consume_handmade, 2, 3)) return;
  ga_desc y = ga_check(L, -3);
  EXPECT(y.dtype == GA_DT_FLOAT64 && y.ndim == 2 && y.shape[0] == 3 && y.shape[1] == 5, "hand-made: layout");
  if (readonly) {
    EXPECT(y.data != dev && y.c_contiguous, "read-only: not copied");
    EXPECT(calls == 1, "read-only: deleter called %d times after the copy", calls);
  } else {
    EXPECT(y.data == dev && y.strides[0] == 8 && y.strides[1] == 24, "hand-made: pointer or strides");
    EXPECT(calls == 0, "hand-made: deleter called while the array lives");
  }
  EXPECT(lua_tonumber(L, -2) == total || (lua_tonumber(L, -2) - total) * (lua_tonumber(L, -2) - total) < 1e-20,
         "hand-made: sum %.17g, expected %.17g", lua_tonumber(L, -2), total);
  EXPECT(lua_tonumber(L, -1) == host[1 + 3 * 2], "hand-made: y[{2, 3}] = %g, expected %g", lua_tonumber(L, -1),
         host[1 + 3 * 2]);
  lua_pop(L, 3);
  full_gc(L);
  full_gc(L);
  EXPECT(calls == 1, "hand-made (%s%s): deleter called %d times", versioned ? "versioned" : "legacy",
         readonly ? ", read-only" : "", calls);
}

/* Refused tensors are not consumed: their owner still deletes them */
static void refused(lua_State *L, const double *host, uint64_t flags, uint32_t major, const char *why) {
  int calls = 0;
  handmade *h = make_tensor(host, 1, flags, major, &calls);
  lua_pushlightuserdata(L, &h->m);
  lua_pushstring(L, why);
  host_call(L, "=refused",
            "local p, why = ...\n"
            "local ok, err = pcall(ga.from_dlpack, p, {versioned = true, copy = false})\n"
            "assert(not ok and err:find(why, 1, true), tostring(err))\n",
            2, 0);
  full_gc(L);
  EXPECT(calls == 0, "refused (%s): consumed", why);
  h->m.versioned.deleter(&h->m.versioned);
  EXPECT(calls == 1, "refused (%s): deleter called %d times", why, calls);
}

/* ---- 5: bfloat16 ------------------------------------------------------- */

/* float32 -> bfloat16 bits, round to nearest even (finite values) */
static uint16_t bf16_rne(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

static float bf16_value(uint16_t b) {
  uint32_t u = (uint32_t)b << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* values that round: 1/3 and -1e-3 to the nearer neighbour; ties to even:
** 1 + 1.5 * 2^-7 up to 1 + 2^-6, 1 + 2^-8 down to 1, 257 down to 256, 259 up
** to 260 (8 significant bits) */
static const float bf16_src[8] = {1.0f / 3.0f, -2.5f, 1.01171875f, 1.00390625f, 257.0f, 259.0f, 0.0f, -1e-3f};

static const char *make_bf16 =
  "local versioned, src = ...\n"
  "local x = ga.array(src, 'float32'):astype('bfloat16')\n"
  "return x, x:to_dlpack({versioned = versioned})\n";

static void bf16_to_c(lua_State *L, int versioned) {
  lua_pushboolean(L, versioned);
  lua_createtable(L, 8, 0);
  for (int k = 0; k < 8; k++) {
    lua_pushnumber(L, bf16_src[k]);
    lua_rawseti(L, -2, k + 1);
  }
  if (!host_call(L, "=make_bf16", make_bf16, 2, 2)) return;
  void *p = lua_touserdata(L, -1);
  ga_desc x = ga_check(L, -2);
  const DLTensor *t = versioned ? &((struct DLManagedTensorVersioned *)p)->dl_tensor
                                : &((DLManagedTensor *)p)->dl_tensor;
  EXPECT(x.dtype == GA_DT_BFLOAT16, "bfloat16 -> C: dtype id %d", x.dtype);
  EXPECT(t->dtype.code == kDLBfloat && t->dtype.bits == 16 && t->dtype.lanes == 1,
         "bfloat16 -> C: DLPack dtype code %d bits %d", t->dtype.code, t->dtype.bits);
  EXPECT(t->ndim == 1 && t->shape[0] == 8 && (!t->strides || t->strides[0] == 1), "bfloat16 -> C: layout");
  uint16_t got[8];
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaMemcpy(got, (char *)t->data + t->byte_offset, sizeof got, cudaMemcpyDeviceToHost));
  for (int k = 0; k < 8; k++)
    EXPECT(got[k] == bf16_rne(bf16_src[k]), "bfloat16 -> C: element %d (%.9g): bits 0x%04x, expected 0x%04x", k,
           (double)bf16_src[k], got[k], bf16_rne(bf16_src[k]));
  if (versioned) ((struct DLManagedTensorVersioned *)p)->deleter((struct DLManagedTensorVersioned *)p);
  else ((DLManagedTensor *)p)->deleter((DLManagedTensor *)p);
  lua_pop(L, 2);
  full_gc(L);
}

static void c_to_bf16(lua_State *L) {
  uint16_t bits[8];
  for (int k = 0; k < 8; k++) bits[k] = bf16_rne(bf16_src[k]);
  int calls = 0;
  handmade *h = (handmade *)calloc(1, sizeof *h);
  CUDA_OK(cudaMalloc((void **)&h->dev, sizeof bits));
  CUDA_OK(cudaMemcpy(h->dev, bits, sizeof bits, cudaMemcpyHostToDevice));
  h->shape[0] = 8;
  h->strides[0] = 1;
  h->calls = &calls;
  DLTensor *t = &h->m.legacy.dl_tensor;
  t->data = h->dev;
  t->device.device_type = kDLCUDA;
  t->device.device_id = 0;
  t->ndim = 1;
  t->dtype.code = kDLBfloat;
  t->dtype.bits = 16;
  t->dtype.lanes = 1;
  t->shape = h->shape;
  t->strides = h->strides;
  h->m.legacy.manager_ctx = h;
  h->m.legacy.deleter = handmade_legacy;
  lua_pushlightuserdata(L, &h->m);
  if (!host_call(L, "=consume_bf16", "local y = ga.from_dlpack(...); return y, y.dtype, y:totable()", 1, 3)) return;
  ga_desc y = ga_check(L, -3);
  EXPECT(y.dtype == GA_DT_BFLOAT16 && y.data == (void *)h->dev, "C -> bfloat16: dtype %d, same memory", y.dtype);
  EXPECT(strcmp(lua_tostring(L, -2), "bfloat16") == 0, "C -> bfloat16: dtype name %s", lua_tostring(L, -2));
  for (int k = 0; k < 8; k++) {
    lua_rawgeti(L, -1, k + 1);
    EXPECT(lua_tonumber(L, -1) == bf16_value(bits[k]), "C -> bfloat16: element %d is %.9g, expected %.9g", k,
           lua_tonumber(L, -1), (double)bf16_value(bits[k]));
    lua_pop(L, 1);
  }
  lua_pop(L, 3);
  full_gc(L);
  full_gc(L);
  EXPECT(calls == 1, "C -> bfloat16: deleter called %d times", calls);
}

int main(void) {
  skip_without_device("dlpack_roundtrip");
  lua_State *L = host_state();
  double host[15];
  for (int k = 0; k < 15; k++) host[k] = 1.5 * k - 3.25;
  for (int versioned = 0; versioned <= 1; versioned++) {
    ours_to_ours(L, versioned);
    ours_to_c(L, versioned);
    handmade_to_ours(L, host, versioned, 0);
  }
  handmade_to_ours(L, host, 1, 1);
  refused(L, host, DLPACK_FLAG_BITMASK_READ_ONLY, 1, "read-only");
  refused(L, host, 0, 2, "DLPack version 2.0");
  bf16_to_c(L, 0);
  bf16_to_c(L, 1);
  c_to_bf16(L);
  lua_close(L);
  return host_finish("dlpack_roundtrip");
}
