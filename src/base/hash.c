/*
** hash.c: hashing for cache keys. A wyhash-style 64-bit hash and the 128-bit
** key made of two of them (compiled programs, the on-disk cache).
*/
#include <stdio.h>
#include <string.h>

#include "base/base.h"

/* ===================================================================== */
/* hashing                                                               */
/* ===================================================================== */

/* A wyhash-style 64-bit hash: one 64x64->128 multiply per 16 bytes, a
** splitmix64 finaliser. Two seeds give the 128-bit cache key. Not for
** adversaries; for telling generated sources apart. */
#define HP0 0xa0761d6478bd642fULL
#define HP1 0xe7037ed1a0b428dbULL
#define HP2 0x8ebc6af09c88c6e3ULL
#define HP3 0x589965cc75374cc3ULL

static inline uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline uint64_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

static inline uint64_t mum(uint64_t a, uint64_t b) {
  __uint128_t r = (__uint128_t)a * b;
  return (uint64_t)r ^ (uint64_t)(r >> 64);
}

uint64_t ga_hash64(const void *data, size_t n, uint64_t seed) {
  const uint8_t *p = (const uint8_t *)data;
  uint64_t h = mum(seed ^ HP0, (uint64_t)n ^ HP1);
  size_t left = n;
  uint64_t a = 0, b = 0;
  while (left > 16) {
    /* "+ h" keeps the state when a block multiplies to zero */
    h = mum(rd64(p) ^ HP2, rd64(p + 8) ^ h ^ HP3) + h;
    p += 16;
    left -= 16;
  }
  /* 0..16 bytes left; overlapping reads are fine since n is mixed in */
  if (left > 8) { a = rd64(p); b = rd64(p + left - 8); }
  else if (left >= 4) { a = (rd32(p) << 32) | rd32(p + left - 4); }
  else if (left > 0) { a = ((uint64_t)p[0] << 16) | ((uint64_t)p[left >> 1] << 8) | p[left - 1]; }
  h = mum(a ^ HP1 ^ h, b ^ HP2) ^ h;
  h ^= h >> 30; h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27; h *= 0x94d049bb133111ebULL;
  h ^= h >> 31;
  return h;
}


#define SEED0 0x6770756172726179ULL   /* "gpuarray" */
#define SEED1 0x6b65726e656c7321ULL   /* "kernels!" */

/* Chain one more piece into the key; each piece's length goes in with it,
** so ("ab","c") and ("a","bc") differ. */
void ga_key_add(ga_key *k, const void *data, size_t n) {
  k->h[0] = ga_hash64(data, n, k->h[0]);
  k->h[1] = ga_hash64(data, n, k->h[1] ^ HP3);
}

void ga_key_init(ga_key *k) { k->h[0] = SEED0; k->h[1] = SEED1; }

void ga_key_hex(const ga_key *k, char out[33]) {
  snprintf(out, 33, "%016llx%016llx", (unsigned long long)k->h[0], (unsigned long long)k->h[1]);
}
