/*
** shape.c: shapes and strides. Broadcasting, contiguity, the axis merging
** that lets one flat or low-dimensional kernel serve any layout, and
** NumPy's no-copy reshape. Pure C (plus the Lua binding of
** broadcast_shapes at the bottom): specced without a GPU.
*/
#include <string.h>

#include "core/core.h"

int64_t ga_shape_size(int ndim, const int64_t *shape) {
  return ga_shape_nbytes(ndim, shape, 1);
}

int64_t ga_shape_nbytes(int ndim, const int64_t *shape, int64_t itemsize) {
  int64_t n = itemsize;
  int empty = 0;
  for (int d = 0; d < ndim; d++) {
    if (shape[d] < 0) return -1;
    if (shape[d] == 0) empty = 1;
    else if (!ga_mul64(n, shape[d], &n)) return -1;
  }
  return empty ? 0 : n;
}

int ga_double_to_int64(double d, int64_t *out) {
  /* the comparisons are false for NaN; 2^63 itself is out of range */
  if (!(d >= -0x1p63 && d < 0x1p63)) return 0;
  int64_t i = (int64_t)d;
  if ((double)i != d) return 0;
  *out = i;
  return 1;
}

void ga_c_strides(int ndim, const int64_t *shape, int64_t itemsize, int64_t *strides) {
  int64_t s = itemsize;
  for (int d = ndim - 1; d >= 0; d--) {
    strides[d] = s;
    /* callers check ga_shape_nbytes first; a shape that fails it gets
    ** meaningless strides here, never an overflow */
    if (!ga_mul64(s, shape[d] > 0 ? shape[d] : 1, &s)) s = INT64_MAX;
  }
}

/* Axes of length 1 may have any stride; an empty array is contiguous */
int ga_is_c_contiguous(int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize) {
  int64_t s = itemsize;
  for (int d = 0; d < ndim; d++)
    if (shape[d] == 0) return 1;
  for (int d = ndim - 1; d >= 0; d--) {
    if (shape[d] != 1 && strides[d] != s) return 0;
    if (!ga_mul64(s, shape[d], &s)) return 0;     /* only for shapes no array has */
  }
  return 1;
}

int ga_is_f_contiguous(int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize) {
  int64_t s = itemsize;
  for (int d = 0; d < ndim; d++)
    if (shape[d] == 0) return 1;
  for (int d = 0; d < ndim; d++) {
    if (shape[d] != 1 && strides[d] != s) return 0;
    if (!ga_mul64(s, shape[d], &s)) return 0;     /* only for shapes no array has */
  }
  return 1;
}

int ga_broadcast(int n, const int *ndims, const int64_t *const *shapes,
                 int *out_ndim, int64_t *out_shape) {
  int nd = 0;
  for (int i = 0; i < n; i++)
    if (ndims[i] > nd) nd = ndims[i];
  for (int d = 0; d < nd; d++) out_shape[d] = 1;
  for (int i = 0; i < n; i++) {
    int off = nd - ndims[i];
    for (int d = 0; d < ndims[i]; d++) {
      int64_t s = shapes[i][d], *o = &out_shape[off + d];
      if (s == *o || s == 1) continue;
      if (*o == 1) *o = s;
      else return i;
    }
  }
  *out_ndim = nd;
  return -1;
}

int ga_broadcast_strides(int ndim, const int64_t *shape, const int64_t *strides,
                         int out_ndim, const int64_t *out_shape, int64_t *out_strides) {
  if (ndim > out_ndim) return 0;
  int off = out_ndim - ndim;
  for (int d = 0; d < off; d++) out_strides[d] = 0;
  for (int d = 0; d < ndim; d++) {
    if (shape[d] == out_shape[off + d]) out_strides[off + d] = shape[d] == 1 ? 0 : strides[d];
    else if (shape[d] == 1) out_strides[off + d] = 0;
    else return 0;
  }
  return 1;
}

int ga_merge_axes(int ndim, int64_t *shape, int nop, int64_t **strides) {
  for (int d = 0; d < ndim; d++)
    if (shape[d] == 0) return ndim;
  /* drop length-1 axes: their strides never matter */
  int nd = 0;
  for (int d = 0; d < ndim; d++) {
    if (shape[d] == 1) continue;
    shape[nd] = shape[d];
    for (int k = 0; k < nop; k++) strides[k][nd] = strides[k][d];
    nd++;
  }
  if (nd == 0) return 0;
  /* merge axis d+1 into d when every operand steps over d exactly as a
  ** run of d+1 would */
  /* (checked: the _merge_axes and _ew_layout hooks take any numbers) */
  int out = 0;
  for (int d = 1; d < nd; d++) {
    int64_t run, merged;
    int ok = ga_mul64(shape[out], shape[d], &merged);
    for (int k = 0; k < nop && ok; k++)
      ok = ga_mul64(strides[k][d], shape[d], &run) && strides[k][out] == run;
    if (ok) {
      shape[out] = merged;
      for (int k = 0; k < nop; k++) strides[k][out] = strides[k][d];
    } else {
      out++;
      shape[out] = shape[d];
      for (int k = 0; k < nop; k++) strides[k][out] = strides[k][d];
    }
  }
  return out + 1;
}

void ga_extent(int ndim, const int64_t *shape, const int64_t *strides,
               int64_t *lo, int64_t *hi) {
  int64_t l = 0, h = 0;
  for (int d = 0; d < ndim; d++)
    if (shape[d] == 0) { *lo = *hi = 0; return; }
  /* saturating: arrays never get near, the layout hooks take any strides */
  for (int d = 0; d < ndim; d++) {
    int64_t span;
    if (!ga_mul64(shape[d] - 1, strides[d], &span)) span = strides[d] < 0 ? INT64_MIN : INT64_MAX;
    if (span < 0) { if (!ga_add64(l, span, &l)) l = INT64_MIN; }
    else if (!ga_add64(h, span, &h)) h = INT64_MAX;
  }
  *lo = l;
  *hi = h;
}

/* NumPy's _attempt_nocopy_reshape: walk old and new axes in groups of equal
** element count; each group of old axes must be contiguous among itself. */
int ga_reshape_strides(int ndim, const int64_t *shape, const int64_t *strides,
                       int new_ndim, const int64_t *new_shape, int64_t itemsize,
                       int64_t *new_strides) {
  int64_t oshape[GA_MAXDIM], ostrides[GA_MAXDIM];
  int ond = 0;
  if (ga_shape_size(ndim, shape) == 0) {     /* empty: any strides do */
    ga_c_strides(new_ndim, new_shape, itemsize, new_strides);
    return 1;
  }
  for (int d = 0; d < ndim; d++) {
    if (shape[d] == 1) continue;
    oshape[ond] = shape[d];
    ostrides[ond] = strides[d];
    ond++;
  }
  int oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < new_ndim && oi < ond) {
    int64_t np = new_shape[ni], op = oshape[oi];
    while (np != op) {
      if (np < op) np *= new_shape[nj++];
      else op *= oshape[oj++];
    }
    for (int ok = oi; ok < oj - 1; ok++)
      if (ostrides[ok] != oshape[ok + 1] * ostrides[ok + 1]) return 0;
    new_strides[nj - 1] = ostrides[oj - 1];
    for (int nk = nj - 1; nk > ni; nk--)
      new_strides[nk - 1] = new_strides[nk] * new_shape[nk];
    ni = nj++;
    oi = oj++;
  }
  /* trailing length-1 axes of the new shape */
  int64_t last = ni > 0 ? new_strides[ni - 1] : itemsize;
  for (int nk = ni; nk < new_ndim; nk++) new_strides[nk] = last;
  return 1;
}
