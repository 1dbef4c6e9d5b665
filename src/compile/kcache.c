/*
** kcache.c: the one way every template engine (copy, gather, scan, mask,
** reduction) gets its kernels. A kernel is named by a few key bytes that
** say what was generated (engine tag, dtypes, variant), to which the device
** is added here; the source is written only on a miss, then compiled (or
** found in the program caches, compile/program.c) and memoised.
**
** The memo is process-wide and read without a lock: several lua_States on
** threads hit it on every launch. Entries are immutable and never freed;
** the table is an array of atomic pointers, replaced (never modified in
** place) when it grows, so a reader holding an old table still reads valid
** entries. Writers take a mutex. A reader racing a writer may miss an entry
** that is being added and take the slow path, which finds it under the lock.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"

typedef struct {
  uint64_t hash;
  cudaKernel_t kernel;
  size_t len;
  unsigned char key[];
} entry;

typedef struct {
  size_t cap;                 /* a power of two */
  size_t count;               /* written under the lock */
  _Atomic(entry *) slot[];
} table;

static _Atomic(table *) current;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t hash_key(const void *key, size_t len) {
  return ga_hash64(key, len, 0x6b6361636865ull) | 1;   /* never 0 */
}

static entry *probe(table *t, uint64_t h, const void *key, size_t len, size_t *empty) {
  for (size_t i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
    entry *e = atomic_load_explicit(&t->slot[i], memory_order_acquire);
    if (!e) {
      if (empty) *empty = i;
      return NULL;
    }
    if (e->hash == h && e->len == len && memcmp(e->key, key, len) == 0) return e;
  }
}

cudaKernel_t ga_kcache_get(const void *key, size_t len) {
  table *t = atomic_load_explicit(&current, memory_order_acquire);
  if (!t) return NULL;
  entry *e = probe(t, hash_key(key, len), key, len, NULL);
  return e ? e->kernel : NULL;
}

static table *table_new(size_t cap) {
  table *t = calloc(1, sizeof(table) + cap * sizeof(_Atomic(entry *)));
  if (t) t->cap = cap;
  return t;
}

/* Under the lock: a table with room for one more entry (old tables stay
** allocated: readers may still hold them) */
static table *room(void) {
  table *t = atomic_load_explicit(&current, memory_order_relaxed);
  if (t && (t->count + 1) * 2 <= t->cap) return t;
  table *nt = table_new(t ? 2 * t->cap : 256);
  if (!nt) return NULL;
  for (size_t i = 0; t && i < t->cap; i++) {
    entry *e = atomic_load_explicit(&t->slot[i], memory_order_relaxed);
    size_t at;
    if (e && !probe(nt, e->hash, e->key, e->len, &at)) {
      atomic_store_explicit(&nt->slot[at], e, memory_order_relaxed);
      nt->count++;
    }
  }
  atomic_store_explicit(&current, nt, memory_order_release);
  return nt;
}

void ga_kcache_put(const void *key, size_t len, cudaKernel_t k) {
  uint64_t h = hash_key(key, len);
  pthread_mutex_lock(&lock);
  table *t = room();
  size_t at;
  if (t && !probe(t, h, key, len, &at)) {
    entry *e = malloc(sizeof(entry) + len);
    if (e) {                                      /* else not memoised: only slower */
      e->hash = h;
      e->kernel = k;
      e->len = len;
      memcpy(e->key, key, len);
      t->count++;
      atomic_store_explicit(&t->slot[at], e, memory_order_release);
    }
  }
  pthread_mutex_unlock(&lock);
}

cudaKernel_t ga_tkernel(lua_State *L, ga_state *ctx, const void *key, size_t keylen, const ga_tkreq *req) {
  unsigned char full[GA_KKEY_MAX + 2 * sizeof(int32_t)];
  if (keylen > GA_KKEY_MAX) ga_error(L, "%s: kernel key of %d bytes is too long", req->what, (int)keylen);
  int32_t dev[2] = {ctx->device, ga_device_arch(ctx->device)};
  memcpy(full, key, keylen);
  memcpy(full + keylen, dev, sizeof dev);
  size_t len = keylen + sizeof dev;
  cudaKernel_t k = ga_kcache_get(full, len);
  if (k) return k;
  ga_buf b;
  ga_buf_init(&b);
  for (int i = 0; req->parts && req->parts[i]; i++) ga_buf_add(&b, ga_kernel_source(req->parts[i]));
  req->write(req, &b);
  /* in a Lua string before anything can raise, so a compile error leaks nothing */
  lua_pushlstring(L, b.s, b.len);
  ga_buf_free(&b);
  size_t srclen;
  const char *src = lua_tolstring(L, -1, &srclen);
  ga_program *p = ga_program_get(L, ctx, req->what, src, srclen, req->nopts, req->opts, 0, NULL);
  const char *name = lua_pushfstring(L, "%s%s", req->kname ? req->kname : "k", req->ksuffix ? req->ksuffix : "");
  k = ga_program_kernel(L, p, name);
  lua_pop(L, 2);
  ga_kcache_put(full, len, k);
  return k;
}

/* ga_tkernel_line's request: the family and the integers */
typedef struct {
  ga_tkreq req;
  const ga_tkline *f;
  const int *p;
} line_req;

static void write_line(const ga_tkreq *req, ga_buf *b) {
  const line_req *r = (const line_req *)req;
  char w[2048];
  r->f->line(w, sizeof w, r->p);
  ga_buf_add(b, w);
}

cudaKernel_t ga_tkernel_line(lua_State *L, ga_state *ctx, const ga_tkline *f, const char *what, int n,
                             const int *p) {
  uint8_t key[2 + GA_TKLINE_MAXP];
  if (n > GA_TKLINE_MAXP) ga_error(L, "%s: %d kernel parameters, at most %d (internal)", what, n, GA_TKLINE_MAXP);
  memcpy(key, f->tag, 2);
  for (int i = 0; i < n; i++) key[2 + i] = (uint8_t)p[i];
  line_req r = {{what, f->parts, write_line, NULL, NULL, 0, NULL}, f, p};
  return ga_tkernel(L, ctx, key, 2 + (size_t)n, &r.req);
}
