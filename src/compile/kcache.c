/*
** kcache.c: the engines' memo of compiled kernels, keyed by a few bytes that
** say what was generated (engine, dtypes, variant, arch) rather than by the
** source text. A hit costs one hash of the key and one lock: the generated
** source is built, hashed and looked up in compile.c only on a miss.
** Process-wide, shared by every lua_State; entries live until exit.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"

typedef struct {
  uint64_t hash;
  cudaKernel_t kernel;
  uint8_t len;
  unsigned char key[GA_KKEY_MAX];
} entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry *table;
static size_t cap, count;

static uint64_t hash_key(const void *key, size_t len) {
  const unsigned char *p = key;
  uint64_t h = 0xcbf29ce484222325ull;           /* FNV-1a, then a final mix */
  for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  h ^= h >> 33; h *= 0xff51afd7ed558ccdull; h ^= h >> 33;
  return h | 1;                                 /* 0 marks an empty slot */
}

static entry *find(uint64_t h, const void *key, size_t len) {
  if (!cap) return NULL;
  for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1)) {
    entry *e = &table[i];
    if (!e->hash) return e;
    if (e->hash == h && e->len == len && memcmp(e->key, key, len) == 0) return e;
  }
}

cudaKernel_t ga_kcache_get(const void *key, size_t len) {
  uint64_t h = hash_key(key, len);
  pthread_mutex_lock(&lock);
  entry *e = find(h, key, len);
  cudaKernel_t k = e && e->hash ? e->kernel : NULL;
  pthread_mutex_unlock(&lock);
  return k;
}

static int grow(void) {
  size_t ncap = cap ? 2 * cap : 256;
  entry *nt = calloc(ncap, sizeof *nt);
  if (!nt) return 0;
  entry *old = table;
  size_t ocap = cap;
  table = nt;
  cap = ncap;
  for (size_t i = 0; i < ocap; i++)
    if (old[i].hash) *find(old[i].hash, old[i].key, old[i].len) = old[i];
  free(old);
  return 1;
}

void ga_kcache_put(const void *key, size_t len, cudaKernel_t k) {
  if (len > GA_KKEY_MAX) return;
  uint64_t h = hash_key(key, len);
  pthread_mutex_lock(&lock);
  if ((count + 1) * 2 > cap && !grow()) {
    pthread_mutex_unlock(&lock);
    return;                                     /* not cached: only slower */
  }
  entry *e = find(h, key, len);
  if (!e->hash) {
    e->hash = h;
    e->len = (uint8_t)len;
    memcpy(e->key, key, len);
    count++;
  }
  e->kernel = k;
  pthread_mutex_unlock(&lock);
}
