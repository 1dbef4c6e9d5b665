/*
** ewgen.c: the elementwise engine under ElementwiseKernel and the ufuncs.
** It writes one kernel variant's source (the loop of its layout class with
** the operation spliced in), picks the layout class of a call, memoises
** compiled variants per object and launches. See elementwise.h.
**
** The three loops:
**   FLAT     every array contiguous at the iteration shape: thread t takes
**            U vectors of V elements, 16-byte loads and stores where the
**            pointers allow, element by element in the last partial vector;
**   STRIDED  any layout: a grid-stride loop over the merged iteration
**            space, byte offsets from ga_indexer32 (multiply-shift divmod)
**            or ga_indexer64;
**   VIN      the last axis is contiguous or broadcast (stride 0) for every
**            operand and a multiple of V long: the indexer runs over
**            vectors, so one divmod serves V elements, and a broadcast
**            operand is one scalar load per vector (X(m, n) * w(n)).
*/
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

#define THREADS 256

static const char *ct(int t) { return ga_dtypes[t].ctype; }

/* ===================================================================== */
/* code generation                                                       */
/* ===================================================================== */

typedef struct {
  const char *I;     /* the loop index type */
  const char *O;     /* the byte offset type */
  char IX[64];       /* the indexer type */
} loop_types;

static void emit_params(ga_buf *b, const ga_ewspec *s, const ga_ewvariant *v, const loop_types *lt) {
  for (int k = 0; k < s->nparams; k++) {
    const ga_ewparam *p = &s->p[k];
    if (k) ga_buf_add(b, ", ");
    switch (p->kind) {
      case GA_EW_ARRAY:
        ga_buf_addf(b, "%s%s *_p%d", p->out ? "" : "const ", ct(p->storage), k);
        break;
      case GA_EW_SCALAR:
        ga_buf_addf(b, "%s %s", ct(p->compute), p->name);
        break;
      default:
        ga_buf_addf(b, "ga_raw<%s, %d, %s> %s", ct(p->storage), p->raw_nd,
                    p->raw_contig ? "true" : "false", p->name);
        break;
    }
  }
  if (s->nparams) ga_buf_add(b, ", ");
  if (v->cls != GA_EW_FLAT) ga_buf_addf(b, "%s _ix, ", lt->IX);
  ga_buf_addf(b, "%s _n", lt->I);
}

/* Bind each array parameter's name to its element (ref: a printf format
** taking the parameter's index and its position among arrays) */
static void emit_bindings(ga_buf *b, const ga_ewspec *s, const char *ind, const char *const *refs) {
  for (int k = 0; k < s->nparams; k++) {
    const ga_ewparam *p = &s->p[k];
    if (p->kind != GA_EW_ARRAY) continue;
    const char *ref = refs[k];
    const char *S = ct(p->storage), *C = ct(p->compute);
    if (p->storage == p->compute)
      ga_buf_addf(b, "%s%s%s &%s = %s;\n", ind, p->out ? "" : "const ", S, p->name, ref);
    else if (!p->out)
      ga_buf_addf(b, "%sconst %s %s = ga_cast<%s>(%s);\n", ind, C, p->name, C, ref);
    else if (p->write_first)
      ga_buf_addf(b, "%s%s %s;\n", ind, C, p->name);
    else
      ga_buf_addf(b, "%s%s %s = ga_cast<%s>(%s);\n", ind, C, p->name, C, ref);
  }
}

static void emit_operation(ga_buf *b, const ga_ewspec *s, const char *ind, const char *const *refs) {
  /* on lines of its own, so that NVRTC's errors point at the user's text */
  ga_buf_addf(b, "%s{\n%s\n;\n%s}\n", ind, s->operation ? s->operation : "", ind);
  for (int k = 0; k < s->nparams; k++) {
    const ga_ewparam *p = &s->p[k];
    if (p->kind == GA_EW_ARRAY && p->out && p->storage != p->compute)
      ga_buf_addf(b, "%s%s = ga_cast<%s>(%s);\n", ind, refs[k], ct(p->storage), p->name);
  }
}

static int loads_output(const ga_ewparam *p) { return !p->write_first; }

static void emit_flat(ga_buf *b, const ga_ewspec *s, const ga_ewvariant *v, const loop_types *lt) {
  const char *I = lt->I;
  char refs[GA_MAXPARAMS][32];
  const char *rp[GA_MAXPARAMS];
  for (int k = 0; k < s->nparams; k++) {
    snprintf(refs[k], sizeof refs[k], "_v%d.v[_k]", k);
    rp[k] = refs[k];
  }
  ga_buf_addf(b, "#pragma unroll\n  for (int _u = 0; _u < %d; _u++) {\n", v->unroll);
  ga_buf_addf(b, "    const %s _e = (((%s)blockIdx.x * %d + _u) * blockDim.x + threadIdx.x) * %d;\n",
              I, I, v->unroll, v->vec);
  ga_buf_addf(b, "    if (_e < _n) {\n      const bool _full = _e + %d <= _n;\n", v->vec);
  for (int k = 0; k < s->nparams; k++) {
    const ga_ewparam *p = &s->p[k];
    if (p->kind != GA_EW_ARRAY) continue;
    ga_buf_addf(b, "      ga_vec<%s, %d> _v%d;\n", ct(p->storage), v->vec, k);
    if (!p->out || loads_output(p)) ga_buf_addf(b, "      ga_vload(_v%d, _p%d, _e, _n, _full);\n", k, k);
  }
  ga_buf_addf(b, "#pragma unroll\n      for (int _k = 0; _k < %d; _k++) {\n"
                 "        if (_full || _e + _k < _n) {\n"
                 "          const long long i = (long long)(_e + _k);\n"
                 "          (void)i;\n", v->vec);
  emit_bindings(b, s, "          ", rp);
  emit_operation(b, s, "          ", rp);
  ga_buf_add(b, "        }\n      }\n");
  for (int k = 0; k < s->nparams; k++)
    if (s->p[k].kind == GA_EW_ARRAY && s->p[k].out)
      ga_buf_addf(b, "      ga_vstore(_v%d, _p%d, _e, _n, _full);\n", k, k);
  ga_buf_add(b, "    }\n  }\n");
}

static int array_count(const ga_ewspec *s) {
  int na = 0;
  for (int k = 0; k < s->nparams; k++) na += s->p[k].kind == GA_EW_ARRAY;
  return na;
}

/* STRIDED: each thread takes U elements a grid apart (coalesced), loads
** every input of all U first, then computes and stores: the compiler could
** not hoist loads above stores that may alias, and U loads in flight per
** thread is what keeps a scattered access pattern near the bandwidth */
static void emit_strided(ga_buf *b, const ga_ewspec *s, const ga_ewvariant *v, const loop_types *lt) {
  char refs[GA_MAXPARAMS][32];
  const char *rp[GA_MAXPARAMS];
  int na = array_count(s), U = v->unroll > 0 ? v->unroll : 1;
  const char *I = lt->I;
  for (int k = 0; k < s->nparams; k++) {
    snprintf(refs[k], sizeof refs[k], "_r%d[_u]", k);
    rp[k] = refs[k];
  }
  ga_buf_addf(b, "  const %s _stride = (%s)gridDim.x * blockDim.x;\n", I, I);
  ga_buf_addf(b, "  for (%s _j0 = (%s)blockIdx.x * blockDim.x + threadIdx.x; _j0 < _n; _j0 += _stride * %d) {\n",
              I, I, U);
  ga_buf_addf(b, "    %s _off[%d][%d];\n", lt->O, U, na > 0 ? na : 1);
  for (int k = 0; k < s->nparams; k++)
    if (s->p[k].kind == GA_EW_ARRAY) ga_buf_addf(b, "    %s _r%d[%d];\n", ct(s->p[k].storage), k, U);
  ga_buf_addf(b, "#pragma unroll\n    for (int _u = 0; _u < %d; _u++) {\n"
                 "      const %s _j = _j0 + (%s)_u * _stride;\n"
                 "      if (_j < _n) {\n        _ix.offsets(_j, _off[_u]);\n", U, I, I);
  for (int k = 0, a = 0; k < s->nparams; k++) {
    const ga_ewparam *p = &s->p[k];
    if (p->kind != GA_EW_ARRAY) continue;
    if (!p->out || loads_output(p))
      ga_buf_addf(b, "        _r%d[_u] = *(const %s *)((const char *)_p%d + _off[_u][%d]);\n", k,
                  ct(p->storage), k, a);
    a++;
  }
  ga_buf_add(b, "      }\n    }\n");
  ga_buf_addf(b, "#pragma unroll\n    for (int _u = 0; _u < %d; _u++) {\n"
                 "      const %s _j = _j0 + (%s)_u * _stride;\n"
                 "      if (_j < _n) {\n"
                 "        const long long i = (long long)_j;\n        (void)i;\n", U, I, I);
  emit_bindings(b, s, "        ", rp);
  emit_operation(b, s, "        ", rp);
  for (int k = 0, a = 0; k < s->nparams; k++) {
    const ga_ewparam *p = &s->p[k];
    if (p->kind != GA_EW_ARRAY) continue;
    if (p->out)
      ga_buf_addf(b, "        *(%s *)((char *)_p%d + _off[_u][%d]) = _r%d[_u];\n", ct(p->storage), k, a, k);
    a++;
  }
  ga_buf_add(b, "      }\n    }\n  }\n");
}

static void emit_vin(ga_buf *b, const ga_ewspec *s, const ga_ewvariant *v, const loop_types *lt) {
  char refs[GA_MAXPARAMS][32];
  const char *rp[GA_MAXPARAMS];
  int na = array_count(s);
  ga_buf_addf(b, "  for (%s _j = (%s)blockIdx.x * blockDim.x + threadIdx.x; _j < _n; "
                 "_j += (%s)gridDim.x * blockDim.x) {\n", lt->I, lt->I, lt->I);
  ga_buf_addf(b, "    %s _off[%d];\n    _ix.offsets(_j, _off);\n", lt->O, na);
  for (int k = 0, a = 0; k < s->nparams; k++) {
    const ga_ewparam *p = &s->p[k];
    rp[k] = refs[k];
    if (p->kind != GA_EW_ARRAY) continue;
    const char *S = ct(p->storage);
    if (v->bmask & (1u << a)) {
      snprintf(refs[k], sizeof refs[k], "_b%d", k);
      ga_buf_addf(b, "    const %s _b%d = *(const %s *)((const char *)_p%d + _off[%d]);\n", S, k, S, k, a);
    } else {
      snprintf(refs[k], sizeof refs[k], "_v%d.v[_k]", k);
      ga_buf_addf(b, "    ga_vec<%s, %d> _v%d", S, v->vec, k);
      if (!p->out || loads_output(p))
        ga_buf_addf(b, " = *(const ga_vec<%s, %d> *)((const char *)_p%d + _off[%d])", S, v->vec, k, a);
      ga_buf_add(b, ";\n");
    }
    a++;
  }
  ga_buf_addf(b, "#pragma unroll\n    for (int _k = 0; _k < %d; _k++) {\n"
                 "      const long long i = (long long)_j * %d + _k;\n      (void)i;\n", v->vec, v->vec);
  emit_bindings(b, s, "      ", rp);
  emit_operation(b, s, "      ", rp);
  ga_buf_add(b, "    }\n");
  for (int k = 0, a = 0; k < s->nparams; k++) {
    const ga_ewparam *p = &s->p[k];
    if (p->kind != GA_EW_ARRAY) continue;
    if (p->out)
      ga_buf_addf(b, "    *(ga_vec<%s, %d> *)((char *)_p%d + _off[%d]) = _v%d;\n", ct(p->storage), v->vec,
                  k, a, k);
    a++;
  }
  ga_buf_add(b, "  }\n");
}

static int mentions(const char *s, const char *what) { return s && strstr(s, what) != NULL; }

/* math.cuh costs NVRTC ~10 ms: leave it out of kernels that cannot use it
** (no ga_ helper named, no complex value: a + b, x * 2) */
static int needs_math(const ga_ewspec *s) {
  for (int k = 0; k < s->nparams; k++)
    if (GA_IS_COMPLEX(s->p[k].storage) || GA_IS_COMPLEX(s->p[k].compute)) return 1;
  const char *code[] = {s->typedefs, s->preamble, s->loop_prep, s->operation, s->after_loop};
  for (int i = 0; i < 5; i++)
    if (mentions(code[i], "ga_") || mentions(code[i], "complex")) return 1;
  return 0;
}

void ga_ew_generate(const ga_ewspec *s, const ga_ewvariant *v, ga_buf *b) {
  loop_types lt;
  int na = array_count(s);
  lt.I = v->idx64 ? "unsigned long long" : "unsigned";
  lt.O = v->idx64 ? "long long" : "int";
  snprintf(lt.IX, sizeof lt.IX, "ga_indexer%s<%d, %d>", v->idx64 ? "64" : "32", v->nd > 0 ? v->nd : 1,
           na > 0 ? na : 1);
  if (!s->no_headers) {
    ga_buf_add(b, ga_kernel_source("common"));
    if (needs_math(s)) ga_buf_add(b, ga_kernel_source("math"));
    ga_buf_add(b, ga_kernel_source("elementwise"));
  }
  ga_buf_add(b, "\n");
  if (s->typedefs) ga_buf_add(b, s->typedefs);
  if (s->preamble) ga_buf_addf(b, "%s\n", s->preamble);
  ga_buf_addf(b, "extern \"C\" __global__ void %s(", s->kname);
  emit_params(b, s, v, &lt);
  ga_buf_add(b, ") {\n");
  if (s->ufunc_typedefs)
    for (int k = 0; k < s->nparams; k++)
      ga_buf_addf(b, "  typedef %s %s_type;\n", ct(s->p[k].compute), s->p[k].name);
  if (v->cls == GA_EW_VIN) ga_buf_addf(b, "  const ga_ind _ind = {(long long)_n * %d};\n", v->vec);
  else ga_buf_add(b, "  const ga_ind _ind = {(long long)_n};\n");
  ga_buf_add(b, "  (void)_ind;\n");
  if (s->raw_views && v->cls != GA_EW_VIN) {
    for (int k = 0, a = 0; k < s->nparams; k++) {
      const ga_ewparam *p = &s->p[k];
      if (p->kind != GA_EW_ARRAY) continue;
      const char *S = ct(p->storage);
      if (v->cls == GA_EW_FLAT)
        ga_buf_addf(b, "  const ga_flatview<%s> _raw_%s = {(%s *)_p%d, (long long)_n};\n", S, p->name, S, k);
      else
        ga_buf_addf(b, "  const ga_ixview<%s, %s, %d> _raw_%s = {(%s *)_p%d, &_ix, (long long)_n};\n", S,
                    lt.IX, a, p->name, S, k);
      a++;
    }
  }
  if (s->loop_prep) ga_buf_addf(b, "%s\n;\n", s->loop_prep);
  switch (v->cls) {
    case GA_EW_FLAT: emit_flat(b, s, v, &lt); break;
    case GA_EW_STRIDED: emit_strided(b, s, v, &lt); break;
    default: emit_vin(b, s, v, &lt); break;
  }
  if (s->after_loop) ga_buf_addf(b, "%s\n;\n", s->after_loop);
  ga_buf_add(b, "}\n");
}

cudaKernel_t ga_ew_compile(lua_State *L, ga_state *ctx, const char *what, const ga_ewspec *s,
                           const ga_ewvariant *v, int nopts, const char *const *opts) {
  ga_buf b;
  ga_buf_init(&b);
  ga_ew_generate(s, v, &b);
  /* in a Lua string before anything can raise, so nothing leaks */
  lua_pushlstring(L, b.s, b.len);
  ga_buf_free(&b);
  size_t len;
  const char *src = lua_tolstring(L, -1, &len);
  ga_program *p = ga_program_get(L, ctx, what, src, len, nopts, opts, 0, NULL);
  cudaKernel_t k = ga_program_kernel(L, p, s->kname);
  lua_pop(L, 1);
  return k;
}

/* ===================================================================== */
/* layout classes                                                        */
/* ===================================================================== */

/* w is a power of two (vector width x itemsize): a mask, not a division
** (64-bit divisions were the slowest instructions of a tiny a + b) */
static int multiple_of(int64_t x, int64_t w) { return (x & (w - 1)) == 0; }

static int pick_flat_vec(const ga_ewiter *it) {
  int wide = 1;
  for (int k = 0; k < it->narr; k++)
    if (it->itemsize[k] > wide) wide = it->itemsize[k];
  int v = 16 >> __builtin_ctz((unsigned)wide);   /* itemsizes are powers of two */
  if (v < 1) v = 1;
  for (;;) {
    int ok = 1;
    for (int k = 0; k < it->narr && ok; k++)
      ok = multiple_of((int64_t)(uintptr_t)it->ptr[k], (int64_t)v * it->itemsize[k]);
    if (ok || v == 1) return v;
    v /= 2;
  }
}

/* VIN: every operand's last stride is its itemsize (a vector operand) or 0
** (an input broadcast along the last axis) */
static int try_vin(ga_ewiter *it, int nd, int64_t *shape, int64_t **st, ga_ewvariant *v, ga_ixbuf *ix,
                   int64_t *count) {
  int last = nd - 1, wide = 1;
  uint32_t bm = 0;
  for (int k = 0; k < it->narr; k++) {
    int64_t s = st[k][last];
    if (s == it->itemsize[k]) {
      if (it->itemsize[k] > wide) wide = it->itemsize[k];
    } else if (s == 0 && !it->out[k]) {
      bm |= 1u << k;
    } else {
      return 0;
    }
  }
  int vec = 16 / wide;
  for (; vec >= 2; vec /= 2) {
    int ok = multiple_of(shape[last], vec);
    for (int k = 0; k < it->narr && ok; k++) {
      if (bm & (1u << k)) continue;
      int64_t w = (int64_t)vec * it->itemsize[k];
      ok = multiple_of((int64_t)(uintptr_t)it->ptr[k], w);
      for (int d = 0; d < last && ok; d++) ok = multiple_of(st[k][d], w);
    }
    if (ok) break;
  }
  if (vec < 2) return 0;
  int idx64 = !ga_fits32(nd, shape, it->narr, st);
  int64_t vshape[GA_MAXDIM];
  memcpy(vshape, shape, sizeof(int64_t) * nd);
  vshape[last] /= vec;
  for (int k = 0; k < it->narr; k++) st[k][last] = (bm & (1u << k)) ? 0 : (int64_t)vec * it->itemsize[k];
  if (idx64) ga_pack_indexer64(ix, nd, vshape, it->narr, st);
  else ga_pack_indexer32(ix, nd, vshape, it->narr, st);
  v->cls = GA_EW_VIN;
  v->vec = vec;
  v->unroll = 1;
  v->nd = nd;
  v->idx64 = idx64;
  v->bmask = bm;
  *count = it->n / vec;
  return 1;
}

void ga_ew_layout(ga_ewiter *it, int reduce_dims, int allow_vin, ga_ewvariant *v, ga_ixbuf *ix,
                  int64_t *count) {
  memset(v, 0, sizeof *v);
  int64_t n = it->n;
  int flat = it->contiguous || it->narr == 0;
  int nd = it->ndim;
  int64_t shape[GA_MAXDIM];
  int64_t *st[GA_IX_MAXOP];
  if (!flat) {
    memcpy(shape, it->shape, sizeof(int64_t) * nd);
    for (int k = 0; k < it->narr; k++) st[k] = it->strides[k];
    if (reduce_dims) nd = ga_merge_axes(nd, shape, it->narr, st);
    if (nd == 0) {
      flat = 1;                   /* one element */
    } else if (nd == 1 && reduce_dims) {
      flat = 1;
      for (int k = 0; k < it->narr && flat; k++) flat = st[k][0] == it->itemsize[k];
    }
  }
  if (flat) {
    /* without arrays (raw parameters and a size) consecutive threads take
    ** consecutive i, for the user's own indexing to coalesce */
    v->cls = GA_EW_FLAT;
    v->vec = it->narr ? pick_flat_vec(it) : 1;
    v->unroll = it->narr ? GA_EW_FLAT_UNROLL : 1;
    /* the last thread's first element index stays below 2^32 */
    v->idx64 = n >= ((int64_t)1 << 31) - ((int64_t)1 << 16);
    *count = n;
    return;
  }
  if (allow_vin && reduce_dims && try_vin(it, nd, shape, st, v, ix, count)) return;
  if (nd == 0) {                  /* reduce_dims off and a 0-d iteration */
    nd = 1;
    shape[0] = 1;
    for (int k = 0; k < it->narr; k++) st[k][0] = 0;
  }
  v->cls = GA_EW_STRIDED;
  v->unroll = GA_EW_STRIDED_UNROLL;
  v->nd = nd;
  v->idx64 = !ga_fits32(nd, shape, it->narr, st);
  if (v->idx64) ga_pack_indexer64(ix, nd, shape, it->narr, st);
  else ga_pack_indexer32(ix, nd, shape, it->narr, st);
  *count = n;
}

/* Threads per block for a call needing 'threads' of them: THREADS, or for
** tiny calls the fewest whole warps (one block of 32 for a + b on one
** element: less for the GPU to set up per launch) */
static unsigned block_for(uint64_t threads) {
  if (threads >= THREADS) return THREADS;
  return threads <= 32 ? 32u : (unsigned)((threads + 31) & ~(uint64_t)31);
}

void ga_ew_launch(lua_State *L, cudaStream_t stream, const char *what, const ga_ewentry *e,
                  const ga_ewvariant *v, void **args, int nargs, ga_ixbuf *ix, int64_t count,
                  int block) {
  uint32_t c32 = (uint32_t)count;
  uint64_t c64 = (uint64_t)count;
  if (v->cls != GA_EW_FLAT) args[nargs++] = ix->bytes;
  args[nargs++] = v->idx64 ? (void *)&c64 : (void *)&c32;
  /* elements per thread: vec * unroll, a power of two (no division) */
  unsigned per = (unsigned)((v->cls == GA_EW_FLAT ? v->vec : 1) * (v->unroll > 0 ? v->unroll : 1));
  unsigned sh = (unsigned)__builtin_ctz(per);
  uint64_t threads = (c64 + per - 1) >> sh;
  unsigned b = block > 0 ? (unsigned)block : block_for(threads);
  uint64_t grid = (b & (b - 1)) == 0 ? (threads + b - 1) >> __builtin_ctz(b) : (threads + b - 1) / b;
  if (grid < 1) grid = 1;
  if (grid > 0x7fffffff) grid = 0x7fffffff;   /* the strided loops stride over the rest */
  dim3 g = dim3_make((unsigned)grid, 1, 1), bl = dim3_make(b, 1, 1);
  /* the entry's CUfunction: no device query, no table lookup per call */
  if (e->fn && ga_driver_launch(e->fn, g, bl, args, 0, stream)) return;
  ga_launch(L, what, e->k, g, bl, args, 0, stream);
}

/* ===================================================================== */
/* the memo                                                              */
/* ===================================================================== */

void ga_ewcache_init(ga_ewcache *c, int nwords) {
  c->n = c->cap = 0;
  c->nwords = nwords;
  c->e = NULL;
}

static int key_equal(const uint64_t *a, const uint64_t *b, int n) {
  for (int i = 0; i < n; i++)
    if (a[i] != b[i]) return 0;
  return 1;
}

const ga_ewentry *ga_ewcache_get(ga_ewcache *c, const uint64_t *key) {
  for (int i = 0; i < c->n; i++) {
    if (!key_equal(c->e[i].key, key, c->nwords)) continue;
    if (i == 0) return &c->e[0];
    /* move hits forward: the hot variant is found first */
    ga_ewentry t = c->e[i - 1];
    c->e[i - 1] = c->e[i];
    c->e[i] = t;
    return &c->e[i - 1];
  }
  return NULL;
}

const ga_ewentry *ga_ewcache_put(ga_ewcache *c, const uint64_t *key, cudaKernel_t k, ga_ewentry *spare) {
  ga_ewentry *e = spare;
  if (c->n == c->cap) {
    int cap = c->cap ? 2 * c->cap : 4;
    ga_ewentry *ne = (ga_ewentry *)realloc(c->e, sizeof *ne * (size_t)cap);
    if (ne) {
      c->e = ne;
      c->cap = cap;
    }
  }
  if (c->n < c->cap) e = &c->e[c->n++];   /* else not memoised: only slower */
  memset(e, 0, sizeof *e);
  memcpy(e->key, key, sizeof(uint64_t) * (size_t)c->nwords);
  e->k = k;
  e->fn = ga_driver_function(k);
  return e;
}

void ga_ewcache_free(ga_ewcache *c) {
  free(c->e);
  c->e = NULL;
  c->n = c->cap = 0;
}

uint64_t ga_ew_variant_word(const ga_ewvariant *v, int device) {
  return (uint64_t)v->cls | (uint64_t)v->vec << 2 | (uint64_t)v->unroll << 7 | (uint64_t)v->nd << 10 |
         (uint64_t)v->idx64 << 16 | (uint64_t)(device & 0xff) << 17 | (uint64_t)(v->bmask & 0xffff) << 25;
}

/* ===================================================================== */
/* helpers                                                               */
/* ===================================================================== */

int ga_can_cast_safe(int from, int to) {
  return ga_promote((ga_dtype)from, (ga_dtype)to) == (ga_dtype)to;
}

static int kind_order(int t) {
  switch (ga_dtypes[t].kind) {
    case 'b': return 0;
    case 'u': return 1;
    case 'i': return 2;
    case 'f': return 3;
    default: return 4;
  }
}

int ga_can_cast_same_kind(int from, int to) {
  return ga_can_cast_safe(from, to) || kind_order(from) <= kind_order(to);
}


/* A tiny C tokenizer for ga_ew_write_first: identifiers, numbers, strings,
** punctuation (== and the compound assignments as one token) */
typedef struct {
  const char *s;
  char tok[64];
  int ident;
} lexer;

static int lex(lexer *x) {
  const char *s = x->s;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    if (s[0] == '/' && s[1] == '/') { while (*s && *s != '\n') s++; continue; }
    if (s[0] == '/' && s[1] == '*') {
      const char *e = strstr(s + 2, "*/");
      s = e ? e + 2 : s + strlen(s);
      continue;
    }
    break;
  }
  if (!*s) return 0;
  x->ident = 0;
  const char *start = s;
  if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_') {
    while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_') s++;
    x->ident = 1;
  } else if (*s >= '0' && *s <= '9') {
    while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '.') s++;
  } else if (*s == '"' || *s == '\'') {
    char q = *s++;
    while (*s && *s != q) s += (*s == '\\' && s[1]) ? 2 : 1;
    if (*s) s++;
  } else if (strchr("=!<>+-*/%&|^", *s) && s[1] == '=') {
    s += 2;
  } else if ((s[0] == '<' && s[1] == '<') || (s[0] == '>' && s[1] == '>')) {
    s += (s[2] == '=') ? 3 : 2;
  } else {
    s++;
  }
  size_t n = (size_t)(s - start);
  if (n >= sizeof x->tok) n = sizeof x->tok - 1;
  memcpy(x->tok, start, n);
  x->tok[n] = '\0';
  x->s = s;
  return 1;
}

static int is_control(const char *t) {
  static const char *const kw[] = {"if", "else", "for", "while", "do", "switch", "case", "default",
                                   "return", "goto", "break", "continue", "#", NULL};
  for (int i = 0; kw[i]; i++)
    if (strcmp(t, kw[i]) == 0) return 1;
  return 0;
}

int ga_ew_write_first(const char *op, const char *name) {
  if (!op) return 0;
  lexer x = {op, {0}, 0};
  int depth = 0, start = 1, assigning = 0;
  while (lex(&x)) {
    const char *t = x.tok;
    if (assigning) {               /* in "name = ...;": the right side must not read name */
      if (x.ident && strcmp(t, name) == 0) return 0;
      if (strchr("([{", t[0]) && !t[1]) depth++;
      else if (strchr(")]}", t[0]) && !t[1]) depth--;
      else if (t[0] == ';' && depth == 0) return 1;
      continue;
    }
    if (start && depth == 0) {
      if (x.ident && strcmp(t, name) == 0) {
        if (!lex(&x) || strcmp(x.tok, "=") != 0) return 0;
        assigning = 1;
        continue;
      }
      if (is_control(t) || t[0] == '{') return 0;
    }
    if (x.ident && strcmp(t, name) == 0) return 0;   /* read (or written conditionally) first */
    start = 0;
    if (strchr("([{", t[0]) && !t[1]) depth++;
    else if (strchr(")]}", t[0]) && !t[1]) depth--;
    else if (t[0] == ';' && depth == 0) start = 1;
  }
  return assigning;                /* "z = x + y" without a final ';' */
}

/* ===================================================================== */
/* test hook                                                             */
/* ===================================================================== */

static int64_t int_field(lua_State *L, int t, const char *key, int64_t def) {
  lua_getfield(L, t, key);
  int64_t v = lua_isnil(L, -1) ? def : (int64_t)luaL_checkinteger(L, -1);
  lua_pop(L, 1);
  return v;
}

/* core._ew_layout{shape=, ops={{strides=, itemsize=, ptr=, out=}, ...},
** contiguous=, reduce_dims=, vin=} -> {class=, vec=, unroll=, nd=, idx64=,
** bmask=, count=}: the layout class a call would take, for specs */
int ga_l_ew_layout(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  ga_ewiter it;
  memset(&it, 0, sizeof it);
  lua_getfield(L, 1, "shape");
  it.ndim = ga_checkshape(L, -1, it.shape, "_ew_layout");
  lua_pop(L, 1);
  it.n = ga_shape_size(it.ndim, it.shape);
  lua_getfield(L, 1, "ops");
  luaL_checktype(L, -1, LUA_TTABLE);
  it.narr = (int)lua_rawlen(L, -1);
  if (it.narr > GA_IX_MAXOP) ga_error(L, "_ew_layout: too many operands");
  for (int k = 0; k < it.narr; k++) {
    lua_rawgeti(L, -1, k + 1);
    int t = lua_gettop(L);
    lua_getfield(L, t, "strides");
    if (ga_checkintlist(L, -1, it.strides[k], "_ew_layout") != it.ndim)
      ga_error(L, "_ew_layout: operand %d: strides and shape differ in length", k + 1);
    lua_pop(L, 1);
    it.itemsize[k] = (int)int_field(L, t, "itemsize", 4);
    it.ptr[k] = (char *)(intptr_t)int_field(L, t, "ptr", 4096);
    lua_getfield(L, t, "out");
    it.out[k] = lua_toboolean(L, -1);
    lua_settop(L, t - 1);
  }
  lua_pop(L, 1);
  lua_getfield(L, 1, "contiguous");
  it.contiguous = lua_toboolean(L, -1);
  lua_getfield(L, 1, "reduce_dims");
  int reduce = lua_isnil(L, -1) || lua_toboolean(L, -1);
  lua_getfield(L, 1, "vin");
  int vin = lua_isnil(L, -1) || lua_toboolean(L, -1);
  lua_pop(L, 3);
  ga_ewvariant v;
  ga_ixbuf ix;
  int64_t count;
  ga_ew_layout(&it, reduce, vin, &v, &ix, &count);
  static const char *const cls[] = {"flat", "strided", "vin"};
  lua_createtable(L, 0, 7);
  lua_pushstring(L, cls[v.cls]);
  lua_setfield(L, -2, "class");
  lua_pushinteger(L, v.vec);
  lua_setfield(L, -2, "vec");
  lua_pushinteger(L, v.unroll);
  lua_setfield(L, -2, "unroll");
  lua_pushinteger(L, v.nd);
  lua_setfield(L, -2, "nd");
  lua_pushboolean(L, v.idx64);
  lua_setfield(L, -2, "idx64");
  lua_pushinteger(L, v.bmask);
  lua_setfield(L, -2, "bmask");
  lua_pushinteger(L, count);
  lua_setfield(L, -2, "count");
  return 1;
}
