/*
** indexer.c: packs shapes and strides into the byte layout of the kernels'
** ga_indexer32 / ga_indexer64 structs (kernels/common/common.cuh), which kernels
** take by value. The layout depends on ND and NOP, so packing is done here,
** in one place, rather than by a C struct that could drift from the CUDA one.
*/
#include <string.h>

#include "core/core.h"

int ga_fits32(int nd, const int64_t *shape, int nop, int64_t *const *strides) {
  int64_t n = ga_shape_size(nd, shape);
  if (n < 0 || n >= ((int64_t)1 << 31)) return 0;
  for (int k = 0; k < nop; k++) {
    int64_t lo, hi;
    ga_extent(nd, shape, strides[k], &lo, &hi);
    if (lo < -((int64_t)1 << 31) || hi >= ((int64_t)1 << 31)) return 0;
  }
  return 1;
}

/* PyTorch's IntDivider: q = (umulhi(n, mul) + n) >> shift, for n < 2^31 */
static void magic32(uint32_t d, uint32_t *mul, uint32_t *shift) {
  uint32_t s = 0;
  while (s < 32 && ((uint64_t)1 << s) < d) s++;
  uint64_t m = (((uint64_t)1 << 32) * (((uint64_t)1 << s) - d)) / d + 1;
  *mul = (uint32_t)m;
  *shift = s;
}

ga_ixnames ga_ix_names(int idx64) {
  ga_ixnames n = {"unsigned", "int", "ga_indexer32"};
  if (idx64) n = (ga_ixnames){"unsigned long long", "long long", "ga_indexer64"};
  return n;
}

void ga_pack_indexer32(ga_ixbuf *b, int nd, const int64_t *shape, int nop,
                       int64_t *const *strides) {
  uint32_t *w = (uint32_t *)b->bytes;
  for (int d = 0; d < nd; d++) {
    uint32_t mul, shift;
    magic32((uint32_t)(shape[d] > 0 ? shape[d] : 1), &mul, &shift);
    w[d] = (uint32_t)shape[d];
    w[nd + d] = mul;
    w[2 * nd + d] = shift;
  }
  int32_t *s = (int32_t *)(w + 3 * nd);
  for (int k = 0; k < nop; k++)
    for (int d = 0; d < nd; d++) s[k * nd + d] = (int32_t)strides[k][d];
  b->len = (size_t)(3 * nd + nop * nd) * 4;
}

void ga_pack_indexer64(ga_ixbuf *b, int nd, const int64_t *shape, int nop,
                       int64_t *const *strides) {
  uint64_t *w = (uint64_t *)b->bytes;
  for (int d = 0; d < nd; d++) w[d] = (uint64_t)shape[d];
  int64_t *s = (int64_t *)(w + nd);
  for (int k = 0; k < nop; k++)
    for (int d = 0; d < nd; d++) s[k * nd + d] = strides[k][d];
  b->len = (size_t)(nd + nop * nd) * 8;
}
