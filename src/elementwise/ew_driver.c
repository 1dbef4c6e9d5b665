/*
** ew_driver.c: the one call driver of the elementwise engine. Ufuncs and
** operators (ufunc.c), ElementwiseKernel (elementwise.c), and whatever else
** produces an elementwise kernel (fuse, jit), describe a call as a
** ga_ewcall — typed parameters, the arrays and scalar values bound to them
** — and this file does the rest: broadcasting, checking and allocating
** outputs, reading overlapping inputs from a copy where asked, choosing the
** layout class, finding the compiled variant in the caller's memo (or
** compiling it through the caller's spec), and launching. One pipeline, so
** one cost: nothing here allocates a Lua table.
*/
#include <stdio.h>
#include <string.h>

#include "elementwise/elementwise.h"

/* Does input a, broadcast to out's shape, read each element exactly where
** out writes it? Then in-place is safe element by element. */
static int same_elements(const ga_array *out, const ga_array *a) {
  int64_t st[GA_MAXDIM];
  if (a->data != out->data || ga_dtypes[a->dtype].itemsize != ga_dtypes[out->dtype].itemsize) return 0;
  if (!ga_broadcast_strides(a->ndim, a->shape, a->strides, out->ndim, out->shape, st)) return 0;
  for (int d = 0; d < out->ndim; d++)
    if (out->shape[d] > 1 && st[d] != out->strides[d]) return 0;
  return 1;
}

static const char *out_name(const ga_ewcall *c, int j, char *buf, size_t cap) {
  if (!c->param_name) return "the output";
  snprintf(buf, cap, "output %s", c->param_name(c, j));
  return buf;
}

/* The broadcast shape of the non-raw inputs, then of each given output
** (which must already have it); *same: every array has one shape */
int ga_ew_shape(lua_State *L, const ga_ewcall *c, int64_t *shape, int *same) {
  int nb = 0, ndims[GA_MAXPARAMS], nd = 0;
  const int64_t *shapes[GA_MAXPARAMS];
  for (int j = 0; j < c->np; j++)
    if (c->kind[j] == GA_EW_ARRAY && c->a[j] && !c->out[j]) {
      ndims[nb] = c->a[j]->ndim;
      shapes[nb++] = c->a[j]->shape;
    }
  *same = 1;
  for (int m = 1; m < nb && *same; m++)
    *same = ndims[m] == ndims[0] && ga_ew_same_shape(ndims[0], shapes[m], shapes[0]);
  if (nb > 0 && *same) {
    nd = ndims[0];
    memcpy(shape, shapes[0], sizeof(int64_t) * (size_t)nd);
  } else if (nb > 0) {
    int bad = ga_broadcast(nb, ndims, shapes, &nd, shape);
    if (bad >= 0)
      ga_error(L, "%s: shapes %s and %s cannot be broadcast", c->what, ga_shape_str(L, ndims[0], shapes[0]),
               ga_shape_str(L, ndims[bad], shapes[bad]));
  }
  int have = nb > 0;
  for (int j = 0; j < c->np; j++) {
    const ga_array *o = c->a[j];
    if (!c->out[j] || !o || c->kind[j] != GA_EW_ARRAY) continue;
    if (!have) {                       /* no array input: the output decides */
      nd = o->ndim;
      memcpy(shape, o->shape, sizeof(int64_t) * (size_t)nd);
      have = 1;
      continue;
    }
    if (o->ndim == nd && ga_ew_same_shape(nd, o->shape, shape)) continue;
    *same = 0;
    int64_t full[GA_MAXDIM];
    int fnd, nds[2] = {o->ndim, nd};
    const int64_t *shs[2] = {o->shape, shape};
    char nm[GA_NAME_MAX + 16];
    if (ga_broadcast(2, nds, shs, &fnd, full) >= 0 || fnd != o->ndim || !ga_ew_same_shape(fnd, full, o->shape))
      ga_error(L, "%s: %s has shape %s, the broadcast shape is %s", c->what, out_name(c, j, nm, sizeof nm),
               ga_shape_str(L, o->ndim, o->shape), ga_shape_str(L, nd, shape));
    nd = o->ndim;
    memcpy(shape, o->shape, sizeof(int64_t) * (size_t)nd);
  }
  if (!have && c->size >= 0) {         /* raw parameters only: size decides */
    nd = 1;
    shape[0] = c->size;
  }                                    /* scalars only: a 0-d result */
  return nd;
}

void ga_ew_call_defaults(ga_ewcall *c, const ga_state *ctx, ga_ewcache *cache,
                         void (*make_spec)(const ga_ewcall *c, ga_ewspec *s), const void *ud, int loop) {
  c->param_name = NULL;
  c->size = -1;
  c->reduce_dims = c->allow_vin = c->copy_overlaps = 1;
  c->block = 0;
  c->stream = ctx->stream;
  c->cache = cache;
  c->make_spec = make_spec;
  c->ud = ud;
  c->loop = loop;
  c->nopts = 0;
  c->opts = NULL;
}

int ga_ew_run(lua_State *L, ga_state *ctx, ga_ewcall *c) {
  int64_t shape[GA_MAXDIM];
  int same;
  int nd = ga_ew_shape(L, c, shape, &same);
  for (int j = 0; j < c->np; j++)
    if (c->a[j] && c->a[j]->device != ctx->device) ga_check_device(L, ctx, c->a[j], c->what);
  int64_t n = ga_shape_size(nd, shape);

  /* outputs: given ones get the NumPy overlap rule where asked; missing ones
  ** are allocated C-contiguous at the broadcast shape (raw ones at {size}) */
  int entered = 0;
  for (int j = 0; j < c->np; j++) {
    if (!c->out[j]) continue;
    ga_array *o = c->a[j];
    if (o) {
      c->outidx[j] = c->idx[j];
      for (int k = 0; c->copy_overlaps && k < c->np; k++) {
        ga_array *in = c->a[k];
        if (c->out[k] || c->kind[k] != GA_EW_ARRAY || !in || !ga_arrays_overlap(o, in) || same_elements(o, in))
          continue;
        /* read before anything is written (an operand lazy evaluation
        ** hands over has no stack slot: copied from its layout) */
        if (c->idx[k] > 0) {
          c->a[k] = ga_contiguous(L, ctx, c->idx[k], -1, 1);
        } else {
          ga_array *t = ga_new_array(L, ctx, in->dtype, in->ndim, in->shape);
          ga_copy_into(L, ctx, t, in, c->what);
          c->a[k] = t;
        }
        same = 0;
      }
      continue;
    }
    int raw = c->kind[j] == GA_EW_RAW;
    c->a[j] = ga_new_array(L, ctx, c->dtype[j], raw ? 1 : nd, raw ? &c->size : shape);
    c->outidx[j] = lua_gettop(L);
    entered = c->a[j]->size > 0;       /* ga_alloc made the device current */
  }
  if (n == 0) return 0;

  ga_ewiter it;
  it.narr = 0;
  it.ndim = nd;
  it.n = n;
  it.contiguous = same;
  for (int j = 0; j < c->np; j++) {
    if (c->kind[j] != GA_EW_ARRAY) continue;
    const ga_array *a = c->a[j];
    int m = it.narr++;
    it.ptr[m] = a->data;
    it.itemsize[m] = ga_dtypes[a->dtype].itemsize;
    it.out[m] = c->out[j];
    it.contiguous &= (a->flags & GA_F_C) && (same || (a->ndim == nd && ga_ew_same_shape(nd, a->shape, shape)));
  }
  if (!it.contiguous) {
    memcpy(it.shape, shape, sizeof(int64_t) * (size_t)nd);
    for (int j = 0, m = 0; j < c->np; j++)
      if (c->kind[j] == GA_EW_ARRAY)
        ga_broadcast_strides(c->a[j]->ndim, c->a[j]->shape, c->a[j]->strides, nd, shape, it.strides[m++]);
  }
  ga_ewvariant v;
  ga_ixbuf ix;
  int64_t count;
  ga_ew_layout(&it, c->reduce_dims, c->allow_vin, &v, &ix, &count);
  c->key[0] = ga_ew_variant_word(&v, ctx->device);
  const ga_ewentry *ent = ga_ewcache_get(c->cache, c->key);
  ga_ewentry spare;
  if (!ent) {
    int top = lua_gettop(L);
    ga_ewspec *spec = (ga_ewspec *)lua_newuserdatauv(L, sizeof(ga_ewspec), 0);
    c->L = L;
    c->make_spec(c, spec);
    cudaKernel_t kern = ga_ew_compile(L, ctx, c->what, spec, &v, c->nopts, c->opts);
    ent = ga_ewcache_put(c->cache, c->key, kern, &spare);
    lua_settop(L, top);
    entered = 0;                       /* a compile may have switched devices */
  }
  if (!entered) ga_device_enter(L, ctx);
  void *args[GA_MAXPARAMS + 2];
  void *ptrs[GA_MAXPARAMS];
  int64_t raws[GA_MAXPARAMS][2 + 2 * GA_MAXDIM];
  for (int j = 0; j < c->np; j++) {
    if (c->kind[j] == GA_EW_ARRAY) {
      ptrs[j] = c->a[j]->data;
      args[j] = &ptrs[j];
    } else if (c->kind[j] == GA_EW_RAW) {
      ga_ew_pack_raw(raws[j], c->a[j]);
      args[j] = raws[j];
    } else {
      args[j] = &c->val[j];
    }
  }
  ga_ew_launch(L, c->stream, c->what, ent, &v, args, c->np, &ix, count, c->block);
  return 0;
}

void ga_ew_pack_raw(int64_t *w, const ga_array *a) {
  int nd = a->ndim;
  w[0] = (int64_t)(intptr_t)a->data;
  w[1] = a->size;
  if (nd == 0) {
    w[2] = 1;
    w[3] = 0;
    return;
  }
  for (int d = 0; d < nd; d++) {
    w[2 + d] = a->shape[d];
    w[2 + nd + d] = a->strides[d];
  }
}
