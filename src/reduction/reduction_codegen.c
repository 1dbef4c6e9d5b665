/*
** reduction_codegen.c: CUDA source of one reduction program. The templates in
** kernels/reduction/reduction.cuh do the work; what is generated here is the part
** that depends on the definition: typedefs, the op (identity and combine),
** the map and post-map functions with the user's parameter names, the
** structs that read inputs and write outputs. Two programs:
**   NAME       the main kernel (row or column shape): writes the outputs,
**              or partial results when rows are split across blocks
**   NAME__fin  combines the partial results: depends only on the op and
**              the output side, so every layout of a reduction shares it
** Each user expression sits on a line of its own that NVRTC's error quote
** shows ("line N: return ...(x * x);  // map"), so compile errors name it.
*/
#include <string.h>

#include "reduction/reduction.h"

static const char *ct(int t) { return ga_dtypes[t].ctype; }

uint64_t ga_red_hash(const ga_red_code *c) {
  uint64_t h = 0xcbf29ce484222325ull;
  const char *parts[9] = { c->name, c->kname, c->map, c->reduce, c->post,
                           c->identity ? c->identity : "\1", c->reduce_type, c->preamble, c->later };
  for (int i = 0; i < 9; i++) {
    const char *s = parts[i] ? parts[i] : "";
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    h = (h ^ 0xff) * 0x100000001b3ull;       /* separator */
  }
  for (int i = 0; i < c->nopts; i++) {
    for (const char *s = c->opts[i]; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    h = (h ^ 0xfe) * 0x100000001b3ull;
  }
  for (int i = 0; i < c->narg; i++) {
    for (const char *s = c->arg[i].name; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    h = (h ^ (0xf0u + (unsigned)c->arg[i].out)) * 0x100000001b3ull;
  }
  h = (h ^ (unsigned)c->with_math) * 0x100000001b3ull;
  return h;
}

/* Counts and positions of the three kinds of arguments */
typedef struct {
  int nin, nout, nsc;
  int in[GA_RED_MAXARGS], out[GA_RED_MAXARGS], sc[GA_RED_MAXARGS];
} arg_groups;

static void group_args(const ga_red_code *c, arg_groups *g) {
  g->nin = g->nout = g->nsc = 0;
  for (int i = 0; i < c->narg; i++) {
    const ga_red_arg *a = &c->arg[i];
    if (a->out) g->out[g->nout++] = i;
    else if (a->array) g->in[g->nin++] = i;
    else g->sc[g->nsc++] = i;
  }
}

/* Position of arg i among the arrays in / scalars (for _p<k>, _s<k>) */
static int index_in(const int *list, int n, int i) {
  for (int k = 0; k < n; k++)
    if (list[k] == i) return k;
  return -1;
}

static void gen_op(const ga_red_code *c, ga_buf *b) {
  int maybe = c->identity == NULL;
  ga_buf_addf(b, "typedef %s _type_reduce;\n", c->reduce_type);
  ga_buf_add(b, "struct _ga_op {\n");
  if (maybe) {
    ga_buf_add(b,
      "  typedef ga_maybe<_type_reduce> acc_t;\n"
      "  static __device__ __forceinline__ acc_t identity() { return ga_maybe_none<_type_reduce>(); }\n"
      "  static __device__ __forceinline__ acc_t lift(const _type_reduce &v) { return ga_maybe_some(v); }\n"
      "  static __device__ __forceinline__ const _type_reduce &value(const acc_t &v) { return v.v; }\n");
  } else {
    ga_buf_add(b,
      "  typedef _type_reduce acc_t;\n"
      "  static __device__ __forceinline__ acc_t identity() {\n");
    ga_buf_addf(b, "    return _type_reduce(%s);  // identity\n", c->identity);
    ga_buf_add(b,
      "  }\n"
      "  static __device__ __forceinline__ acc_t lift(const _type_reduce &v) { return v; }\n"
      "  static __device__ __forceinline__ const _type_reduce &value(const acc_t &v) { return v; }\n");
  }
  ga_buf_add(b, "  static __device__ __forceinline__ acc_t combine(const acc_t &_x, const acc_t &_y) {\n");
  if (maybe) ga_buf_add(b, "    if (!_x.ok) return _y;\n    if (!_y.ok) return _x;\n");
  ga_buf_add(b, "    const _type_reduce &a = value(_x);\n    const _type_reduce &b = value(_y);\n");
  ga_buf_addf(b, "    return lift(static_cast<_type_reduce>(%s));  // reduce_expr\n", c->reduce);
  ga_buf_add(b, "  }\n");
  /* later: the threads' own sequential folds, where _y is the later element */
  ga_buf_add(b, "  static __device__ __forceinline__ acc_t later(const acc_t &_x, const acc_t &_y) {\n");
  if (c->later) {
    if (maybe) ga_buf_add(b, "    if (!_x.ok) return _y;\n    if (!_y.ok) return _x;\n");
    ga_buf_add(b, "    const _type_reduce &a = value(_x);\n    const _type_reduce &b = value(_y);\n");
    ga_buf_addf(b, "    return lift(static_cast<_type_reduce>(%s));\n", c->later);
  } else {
    ga_buf_add(b, "    return combine(_x, _y);\n");
  }
  ga_buf_add(b, "  }\n};\n");
}

static void gen_map_post(const ga_red_code *c, const arg_groups *g, int with_map, ga_buf *b) {
  /* map: the inputs in declared order, by value (the finishing kernel has
  ** none: it reads partial results) */
  if (with_map) {
    ga_buf_add(b, "__device__ __forceinline__ _type_reduce _ga_map(");
    for (int i = 0; i < c->narg; i++) {
      if (c->arg[i].out) continue;
      ga_buf_addf(b, "const %s %s, ", ct(c->arg[i].dtype), c->arg[i].name);
    }
    ga_buf_add(b, "const long long _i, const long long _j) {\n");
    ga_buf_addf(b, "  return static_cast<_type_reduce>(%s);  // map_expr\n}\n", c->map);
  }
  /* post-map: a, the outputs by reference, the scalars */
  ga_buf_add(b, "__device__ __forceinline__ void _ga_post(const _type_reduce &a, ");
  for (int k = 0; k < g->nout; k++) {
    const ga_red_arg *a = &c->arg[g->out[k]];
    ga_buf_addf(b, "%s &%s, ", ct(a->dtype), a->name);
  }
  for (int k = 0; k < g->nsc; k++) {
    const ga_red_arg *a = &c->arg[g->sc[k]];
    ga_buf_addf(b, "const %s %s, ", ct(a->dtype), a->name);
  }
  ga_buf_add(b, "const long long _i, const ga_red_size _in_ind, const ga_red_size _out_ind, "
                "const long long _red_size) {\n");
  ga_buf_addf(b, "  %s;  // post_map_expr\n}\n", c->post);
}

/* The arguments of _ga_map at one element: value k of each input's vector
** (VK is "k" or "0"), the scalars as struct fields */
static void map_args(const ga_red_code *c, const arg_groups *g, ga_buf *b, const char *vk) {
  for (int i = 0; i < c->narg; i++) {
    if (c->arg[i].out) continue;
    if (c->arg[i].array) ga_buf_addf(b, "v.v%d.v[%s], ", index_in(g->in, g->nin, i), vk);
    else ga_buf_addf(b, "s%d, ", index_in(g->sc, g->nsc, i));
  }
}

static void gen_in(const ga_red_code *c, const arg_groups *g, ga_buf *b) {
  ga_buf_add(b, "struct _ga_in {\n");
  for (int k = 0; k < g->nin; k++) ga_buf_addf(b, "  const char *p%d;\n", k);
  for (int k = 0; k < g->nsc; k++) ga_buf_addf(b, "  %s s%d;\n", ct(c->arg[g->sc[k]].dtype), k);
  ga_buf_add(b, "  _ga_kix_t kix;\n  _ga_rix_t rix;\n");
  ga_buf_addf(b, "  struct row_t { _ga_O k[%d]; _ga_I o; };\n", g->nin);
  ga_buf_add(b, "  template <int V> struct vals_t {\n");
  for (int k = 0; k < g->nin; k++)
    ga_buf_addf(b, "    ga_vec<%s, V> v%d;\n", ct(c->arg[g->in[k]].dtype), k);
  ga_buf_add(b, "  };\n");
  ga_buf_addf(b,
    "  __device__ __forceinline__ row_t row(_ga_I o) const {\n"
    "    row_t w;\n"
    "    _ga_O off[%d];\n"
    "    ga_red_offsets(kix, o, off);\n"
    "#pragma unroll\n"
    "    for (int q = 0; q < %d; q++) w.k[q] = off[q];\n"
    "    w.o = o;\n"
    "    return w;\n"
    "  }\n", g->nin + g->nout, g->nin);
  /* DIRECT: r counts unit-stride elements of the row; else the reduced
  ** indexer places it (V > 1 there: V consecutive outputs) */
  ga_buf_add(b,
    "  template <int V, bool DIRECT>\n"
    "  __device__ __forceinline__ void load(vals_t<V> &v, const row_t &w, _ga_I r) const {\n"
    "    if (DIRECT) {\n");
  for (int k = 0; k < g->nin; k++) {
    const char *t = ct(c->arg[g->in[k]].dtype);
    ga_buf_addf(b, "      v.v%d = *reinterpret_cast<const ga_vec<%s, V> *>(p%d + w.k[%d] + "
                   "(_ga_O)r * (_ga_O)sizeof(%s));\n", k, t, k, k, t);
  }
  ga_buf_addf(b, "    } else {\n      _ga_O ro[%d];\n      ga_red_offsets(rix, r, ro);\n", g->nin);
  for (int k = 0; k < g->nin; k++)
    ga_buf_addf(b, "      v.v%d = *reinterpret_cast<const ga_vec<%s, V> *>(p%d + w.k[%d] + ro[%d]);\n", k,
                ct(c->arg[g->in[k]].dtype), k, k, k);
  ga_buf_add(b, "    }\n  }\n");
  /* lane k goes to accumulator k; its indices: (o, r + k) along a row,
  ** (o + k, r) across columns */
  ga_buf_add(b,
    "  template <int V, bool COL>\n"
    "  __device__ __forceinline__ void fold(_ga_op::acc_t *acc, const vals_t<V> &v, const row_t &w,\n"
    "                                       _ga_I r) const {\n"
    "#pragma unroll\n"
    "    for (int k = 0; k < V; k++)\n"
    "      acc[k] = _ga_op::later(acc[k], _ga_op::lift(_ga_map(");
  map_args(c, g, b, "k");
  ga_buf_add(b, "(long long)(COL ? w.o + k : w.o), (long long)(COL ? r : r + k))));\n  }\n};\n");
}

/* The output side. part: the main kernel's, which writes partial results
** instead when the rows are split (nsplit > 1) */
static void gen_out(const ga_red_code *c, const arg_groups *g, int part, ga_buf *b) {
  ga_buf_add(b, "struct _ga_out {\n");
  for (int k = 0; k < g->nout; k++) ga_buf_addf(b, "  char *q%d;\n", k);
  for (int k = 0; k < g->nsc; k++) ga_buf_addf(b, "  %s s%d;\n", ct(c->arg[g->sc[k]].dtype), k);
  ga_buf_add(b, "  _ga_kix_t kix;\n  long long insize, nout, rsize;\n");
  if (part) ga_buf_add(b, "  char *part;\n  unsigned slot;\n  _ga_I nsplit;\n");
  ga_buf_add(b, "  __device__ __forceinline__ void store(_ga_I o, _ga_I s, const _ga_op::acc_t &acc) const {\n");
  if (part)
    ga_buf_add(b,
      "    if (nsplit > 1) {\n"
      "      *reinterpret_cast<_ga_op::acc_t *>(part + ((size_t)s * (size_t)nout + o) * slot) = acc;\n"
      "      return;\n"
      "    }\n");
  ga_buf_addf(b,
    "    _ga_O off[%d];\n"
    "    ga_red_offsets(kix, o, off);\n"
    "    _ga_post(_ga_op::value(acc), ", g->nin + g->nout);
  for (int k = 0; k < g->nout; k++)
    ga_buf_addf(b, "*reinterpret_cast<%s *>(q%d + off[%d]), ", ct(c->arg[g->out[k]].dtype), k, g->nin + k);
  for (int k = 0; k < g->nsc; k++) ga_buf_addf(b, "s%d, ", k);
  ga_buf_add(b, "(long long)o, ga_red_size{insize}, ga_red_size{nout}, rsize);\n  }\n};\n");
}

static void gen_out_init(const arg_groups *g, int part, ga_buf *b) {
  ga_buf_add(b, "  const _ga_out out = {");
  for (int k = 0; k < g->nout; k++) ga_buf_addf(b, "_q%d, ", k);
  for (int k = 0; k < g->nsc; k++) ga_buf_addf(b, "_s%d, ", k);
  ga_buf_addf(b, "_kix, _insize, (long long)_nout, _rsize%s};\n", part ? ", _part, _slot, _nsplit" : "");
}

/* The common head of both programs: headers, typedefs, the op, post-map */
static void gen_head(const ga_red_code *c, const ga_red_variant *v, const arg_groups *g, ga_buf *b) {
  const ga_ixnames names = ga_ix_names(v->idx64);
  const char *ix = names.IX;
  ga_buf_add(b, ga_kernel_source("common"));
  if (c->with_math && ga_kernel_source("math")) ga_buf_add(b, ga_kernel_source("math"));
  ga_buf_add(b, ga_kernel_source("reduction"));
  ga_buf_add(b, "\n// ---- generated ----\n");
  for (int i = 0; i < c->narg; i++)
    ga_buf_addf(b, "typedef %s type_%s_raw;\n", ct(c->arg[i].dtype), c->arg[i].name);
  if (c->typemap) ga_typemap_typedefs(c->typemap, b);
  if (c->preamble && *c->preamble) {
    ga_buf_add(b, c->preamble);
    ga_buf_add(b, "\n");
  }
  ga_buf_addf(b, "typedef %s _ga_I;\ntypedef %s _ga_O;\n", names.I, names.O);
  ga_buf_addf(b, "typedef %s<%d, %d> _ga_kix_t;\n", ix, v->ndk, g->nin + g->nout);
  if (!v->fin) ga_buf_addf(b, "typedef %s<%d, %d> _ga_rix_t;\n", ix, v->ndr, g->nin);
  gen_op(c, b);
  if (c->acc_size > 0 && c->identity)
    ga_buf_addf(b, "static_assert(sizeof(_ga_op::acc_t) == %d, \"gpuarray: reduce type size\");\n", c->acc_size);
  else
    ga_buf_add(b, "static_assert(sizeof(_ga_op::acc_t) <= 64, \"reduce_type is larger than 64 bytes\");\n");
}

void ga_red_generate(const ga_red_code *c, const ga_red_variant *v, ga_buf *b) {
  arg_groups g;
  group_args(c, &g);
  gen_head(c, v, &g, b);
  if (v->fin) {
    /* combine the partial results of split rows: a row kernel over the
    ** splits (threads along the outputs when there are few splits) */
    gen_map_post(c, &g, 0, b);
    gen_out(c, &g, 0, b);
    ga_buf_addf(b, "extern \"C\" __global__ void __launch_bounds__(512, 2) %s__fin(", c->kname);
    for (int k = 0; k < g.nout; k++) ga_buf_addf(b, "char *_q%d, ", k);
    for (int k = 0; k < g.nsc; k++) ga_buf_addf(b, "const %s _s%d, ", ct(c->arg[g.sc[k]].dtype), k);
    ga_buf_add(b, "const _ga_kix_t _kix, const char *_part, const unsigned _slot, const _ga_I _nout, "
                  "const _ga_I _nsplit, const long long _insize, const long long _rsize) {\n"
                  "  const ga_red_part_in<_ga_op, _ga_I> in = {_part, _nout, _slot};\n");
    gen_out_init(&g, 0, b);
    ga_buf_add(b, "  ga_red_row<_ga_op, ga_red_part_in<_ga_op, _ga_I>, _ga_out, 1, 1, _ga_I>(in, out, _nout, "
                  "_nsplit, _nsplit);\n}\n");
    return;
  }
  gen_map_post(c, &g, 1, b);
  gen_in(c, &g, b);
  gen_out(c, &g, 1, b);
  /* launch bounds with a minimum of resident blocks: the host sizes split
  ** grids to one wave of 1024 threads per SM (reduction.c) */
  int col = v->kind == GA_RED_KIND_COL;
  ga_buf_addf(b, "extern \"C\" __global__ void __launch_bounds__(%s) %s(", col ? "256, 4" : "512, 2", c->kname);
  for (int k = 0; k < g.nin; k++) ga_buf_addf(b, "const char *_p%d, ", k);
  for (int k = 0; k < g.nsc; k++) ga_buf_addf(b, "const %s _s%d, ", ct(c->arg[g.sc[k]].dtype), k);
  ga_buf_add(b, "const _ga_kix_t _kix, const _ga_rix_t _rix, ");
  for (int k = 0; k < g.nout; k++) ga_buf_addf(b, "char *_q%d, ", k);
  ga_buf_add(b, "char *_part, const unsigned _slot, const _ga_I _nout, const _ga_I _nred, "
                "const _ga_I _chunk, const _ga_I _nsplit, const long long _insize, const long long _rsize");
  ga_buf_add(b, v->onek ? ", unsigned *const _ticket) {\n" : ") {\n");
  ga_buf_add(b, "  const _ga_in in = {");
  for (int k = 0; k < g.nin; k++) ga_buf_addf(b, "_p%d, ", k);
  for (int k = 0; k < g.nsc; k++) ga_buf_addf(b, "_s%d, ", k);
  ga_buf_add(b, "_kix, _rix};\n");
  gen_out_init(&g, 1, b);
  ga_buf_addf(b, "  %s<_ga_op, _ga_in, _ga_out, %d, %s_ga_I>(in, out, _nout, _nred, _chunk);\n",
              col ? "ga_red_col" : "ga_red_row", v->vec, col ? "" : "GA_RED_U, ");
  if (v->onek) ga_buf_add(b, "  ga_red_last<_ga_op>(out, _ticket);\n");
  ga_buf_add(b, "}\n");
}
