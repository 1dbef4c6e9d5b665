/*
** ew_codegen.c: the elementwise engine's code generation. One kernel
** variant's source: the loop of its layout class with the operation
** spliced in, the parameters typed, outputs cast back to their storage.
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
#include <string.h>

#include "elementwise/elementwise.h"

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

/* FLAT: each thread takes U vectors a block apart (coalesced) and loads
** all of them before it computes and stores any: the compiler cannot hoist
** a load above a store that may alias it, so load-compute-store per vector
** would wait for memory U times in a row (a tiny array pays each wait in
** full); loads first pay it once.
** A block whose vectors are all whole and in range (every block of a large
** call but the last) takes a copy of the loop where _full is the constant
** true: no bound checks, straight-line code, so the compiler interleaves
** the U*V elements' operations. With a check around each element, a
** compute-heavy operation (the bench's fused tanh(sin(x) + 0.1*x)) ran at
** 93% of the straight-line speed on an H200. In the other copy, for the
** last block, the loads stay unrolled (all in flight at once) but the
** operation runs in a plain loop (unroll 1, over vectors in arrays of that
** copy's own, so only they may go to local memory): the operation is
** compiled once more, not U*V times more, and NVRTC's time stays near
** what one copy took. */
static void emit_flat_loop(ga_buf *b, const ga_ewspec *s, const ga_ewvariant *v, const loop_types *lt,
                           int whole, const char *const *rp) {
  const char *I = lt->I;
  const char *unroll = whole ? "#pragma unroll" : "#pragma unroll 1";
  for (int k = 0; k < s->nparams; k++)
    if (s->p[k].kind == GA_EW_ARRAY) ga_buf_addf(b, "  ga_vec<%s, %d> _v%d[%d];\n", ct(s->p[k].storage), v->vec, k, v->unroll);
  for (int pass = 0; pass < 2; pass++) {
    ga_buf_addf(b, "%s\n  for (int _u = 0; _u < %d; _u++) {\n", pass == 0 ? "#pragma unroll" : unroll, v->unroll);
    ga_buf_addf(b, "    const %s _e = (((%s)blockIdx.x * %d + _u) * blockDim.x + threadIdx.x) * %d;\n",
                I, I, v->unroll, v->vec);
    if (whole)
      ga_buf_add(b, "    {\n      const bool _full = true;\n");
    else
      ga_buf_addf(b, "    if (_e < _n) {\n      const bool _full = _e + %d <= _n;\n", v->vec);
    if (pass == 0) {
      for (int k = 0; k < s->nparams; k++) {
        const ga_ewparam *p = &s->p[k];
        if (p->kind == GA_EW_ARRAY && (!p->out || loads_output(p)))
          ga_buf_addf(b, "      ga_vload(_v%d[_u], _p%d, _e, _n, _full);\n", k, k);
      }
      ga_buf_add(b, "    }\n  }\n");
      continue;
    }
    ga_buf_addf(b, "%s\n      for (int _k = 0; _k < %d; _k++) {\n"
                   "        if (_full || _e + _k < _n) {\n"
                   "          const long long i = (long long)(_e + _k);\n"
                   "          (void)i;\n", unroll, v->vec);
    emit_bindings(b, s, "          ", rp);
    emit_operation(b, s, "          ", rp);
    ga_buf_add(b, "        }\n      }\n");
    for (int k = 0; k < s->nparams; k++)
      if (s->p[k].kind == GA_EW_ARRAY && s->p[k].out)
        ga_buf_addf(b, "      ga_vstore(_v%d[_u], _p%d, _e, _n, _full);\n", k, k);
    ga_buf_add(b, "    }\n  }\n");
  }
}

static void emit_flat(ga_buf *b, const ga_ewspec *s, const ga_ewvariant *v, const loop_types *lt) {
  char refs[GA_MAXPARAMS][32];
  const char *rp[GA_MAXPARAMS];
  for (int k = 0; k < s->nparams; k++) {
    snprintf(refs[k], sizeof refs[k], "_v%d[_u].v[_k]", k);
    rp[k] = refs[k];
  }
  /* in 64 bits: 2^32 blocks * U * 1024 threads * V is far below 2^64 */
  ga_buf_addf(b, "  if (((unsigned long long)blockIdx.x + 1) * %d * blockDim.x * %d <= (unsigned long long)_n) {\n",
              v->unroll, v->vec);
  emit_flat_loop(b, s, v, lt, 1, rp);
  ga_buf_add(b, "  } else {\n");
  emit_flat_loop(b, s, v, lt, 0, rp);
  ga_buf_add(b, "  }\n");
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
  lt.I = ga_ix_names(v->idx64).I;
  lt.O = ga_ix_names(v->idx64).O;
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
