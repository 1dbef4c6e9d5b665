/*
** ufunc.c: the built-in ufuncs. Each is made from a Lua definition
** (lua/gpuarray/ufuncs.lua: name, arity, NumPy-style loop signatures, the
** CUDA expression) and compiled by the elementwise engine, like any
** ElementwiseKernel: one engine, one cache, one set of bugs.
**
** A call resolves the loop as NumPy does for uniform ufuncs: the inputs
** promote (Lua numbers weak, NEP 50) to one dtype P, and the first loop
** whose inputs P casts to safely is taken (a table per P, computed once).
** opts.dtype picks the loop instead; opts.out receives the result with
** same_kind casting. The hot path (a + b) touches no Lua table, builds no
** string and finds its kernel in a small memo inside the ufunc.
**
** Up to UF_MAXIN inputs and UF_MAXOUT outputs (scipy.special has betainc's
** three inputs, sph_harm_y's four, sici's two outputs, ellipj's four); a
** definition may carry a preamble (device functions its expression calls,
** kernels/special/) and a declaration (api.declare) that option tables
** are checked against; fname is the name errors use
** ("scipy.special.erf"), name the ufunc's own ("erf").
*/
#include <string.h>

#include "api/api.h"
#include "elementwise/lazy.h"

#define UF_MAXLOOPS 48
#define UF_MAXOPS 16
#define UF_MAXIN 4
#define UF_MAXOUT 4
#define UF_NWORDS 3

typedef struct {
  uint8_t in[UF_MAXIN], out[UF_MAXOUT], op;    /* signature dtypes; index into ops */
} uloop;

struct ga_ufunc {
  char name[32];
  char fname[64];            /* the name errors use */
  char kname[48];            /* "ga_uf_add": the kernels' name */
  int nin, nout;
  const char *preamble;      /* device functions the ops call, or NULL */
  const ga_decl *decl;       /* the public declaration, or NULL */
  int nloops;
  uloop loops[UF_MAXLOOPS];
  int8_t loop_for[GA_NDTYPES];
  int nops;
  const char *ops[UF_MAXOPS];
  const char *types_msg;     /* what it supports, for the no-loop error */
  const char *bool_msg;      /* the error for bool inputs (subtract, negative) */
  ga_ewcache cache;
};

static int dtype_of_char(char c) { return ga_dtype_of_char(c); }
static char char_of_dtype(int t) { return t >= 0 && t < GA_NDTYPES ? ga_dtype_chars[t] : '?'; }

/* float16 and bfloat16 are stored as themselves and computed in float32 */
static int compute_of(int t) { return ga_compute_dtype(t); }

ga_ufunc *ga_toufunc(lua_State *L, int idx) {
  return (ga_ufunc *)luaL_testudata(L, idx, GA_UFUNC_MT);
}

static ga_ufunc *check_ufunc(lua_State *L, int idx) {
  return (ga_ufunc *)luaL_checkudata(L, idx, GA_UFUNC_MT);
}

/* ===================================================================== */
/* operands and loop resolution                                          */
/* ===================================================================== */

/* An input operand, or a clear error naming the argument */
static void classify(lua_State *L, ga_state *ctx, const ga_ufunc *u, int idx, ga_operand *o, int argn,
                     int dtypes_ok) {
  int kind = ga_operand_read(L, ctx, idx, dtypes_ok, o);
  if (kind == GA_OP_ARRAY && (o->a->flags & GA_F_FREED))
    ga_error(L, "%s: argument %d: the array was freed", u->fname, argn);
  if (kind == GA_OP_NONE)
    ga_error(L, "%s: argument %d must be an ndarray or a number, got %s", u->fname, argn, luaL_typename(L, idx));
}

/* Can operand o go to dtype t under 'safe' casting? A weak Lua scalar
** casts as NEP 50 says: a bool to anything, an integer to any float or
** complex and to an integer its value fits, a float to floats and complex
** numbers, a pair to complex numbers. */
static int safe_for(lua_State *L, const ga_operand *o, int t) {
  if (o->kind != GA_OP_WEAK) return ga_can_cast_safe(o->dtype, t);
  ga_value tmp;
  switch (o->weak) {
    case 'b': return 1;
    case 'i': return GA_IS_INT(t) ? ga_value_from_int((ga_dtype)t, lua_tointeger(L, o->idx), &tmp) == NULL
                                  : t != GA_BOOL;
    case 'f': return GA_IS_FLOAT(t) || GA_IS_COMPLEX(t);
    default: return GA_IS_COMPLEX(t);
  }
}

/* ... and under 'same_kind' casting (a weak integer's value is checked
** when it is converted) */
static int same_kind_for(const ga_operand *o, int t) {
  if (o->kind != GA_OP_WEAK) return ga_can_cast_same_kind(o->dtype, t);
  switch (o->weak) {
    case 'b': return 1;
    case 'i': return t != GA_BOOL;
    case 'f': return GA_IS_FLOAT(t) || GA_IS_COMPLEX(t);
    default: return GA_IS_COMPLEX(t);
  }
}

/* The loop opts.dtype (NumPy's dtype=, a signature fixing the output)
** names, searched as NumPy's type_tuple_type_resolver does: first the
** loops giving that dtype whose inputs the operands cast to safely (so
** divide(uint8, 3, dtype=float64) takes BB->d), then the homogeneous loop
** (all of that dtype; the caller checks same_kind input casting). Last,
** NumPy's deprecated meaning for comparisons (binary, bool results): the
** loop taking that dtype. Else there is none: divide(dtype=int64) raises.
** The first output's dtype is the one compared. */
static int find_forced(lua_State *L, const ga_ufunc *u, const ga_operand *ops, int dtype) {
  for (int l = 0; l < u->nloops; l++) {
    int ok = u->loops[l].out[0] == dtype;
    for (int k = 0; ok && k < u->nin; k++) ok = safe_for(L, &ops[k], u->loops[l].in[k]);
    if (ok) return l;
  }
  for (int l = 0; l < u->nloops; l++) {
    int ok = u->loops[l].out[0] == dtype;
    for (int k = 0; ok && k < u->nin; k++) ok = u->loops[l].in[k] == dtype;
    if (ok) return l;
  }
  for (int l = 0; l < u->nloops && u->nin == 2; l++)
    if (u->loops[l].out[0] == GA_BOOL && u->loops[l].in[0] == dtype) return l;
  return -1;
}

/* The loop for these operands (raises when there is none) */
static int weak_rank(char c) { return c == 'b' ? 1 : c == 'i' ? 2 : c == 'f' ? 3 : 4; }

static int resolve(lua_State *L, const ga_ufunc *u, const ga_operand *ops, int forced) {
  int strong = -1;
  char weak = 0;
  for (int k = 0; k < u->nin; k++) {
    if (ops[k].kind == GA_OP_WEAK) {
      if (!weak || weak_rank(ops[k].weak) > weak_rank(weak)) weak = ops[k].weak;
    } else {
      strong = strong < 0 ? ops[k].dtype : (int)ga_promote((ga_dtype)strong, (ga_dtype)ops[k].dtype);
    }
  }
  int P = strong < 0 ? (int)ga_default_for_kind(weak)
                     : weak ? (int)ga_promote_weak((ga_dtype)strong, weak) : strong;
  if (GA_IS_INT(P) && forced < 0) {   /* NEP 50: a Lua integer that does not fit raises */
    for (int k = 0; k < u->nin; k++) {
      ga_value tmp;
      if (ops[k].kind == GA_OP_WEAK && ops[k].weak == 'i' &&
          ga_value_from_int((ga_dtype)P, lua_tointeger(L, ops[k].idx), &tmp))
        ga_error(L, "%s: Lua integer %I does not fit %s", u->fname, lua_tointeger(L, ops[k].idx),
                 ga_dtypes[P].name);
    }
  }
  if (forced < 0) {
    if (P == GA_BOOL && u->bool_msg) ga_error(L, "%s: %s", u->fname, u->bool_msg);
    int l = u->loop_for[P];
    if (l < 0) ga_error(L, "%s: not supported for %s (supports %s)", u->fname, ga_dtypes[P].name, u->types_msg);
    return l;
  }
  int l = find_forced(L, u, ops, forced);
  if (l < 0) ga_error(L, "%s: no loop for dtype %s (supports %s)", u->fname, ga_dtypes[forced].name, u->types_msg);
  for (int k = 0; k < u->nin; k++) {
    int from = ops[k].kind == GA_OP_WEAK ? (int)ga_default_for_kind(ops[k].weak) : ops[k].dtype;
    if (!same_kind_for(&ops[k], u->loops[l].in[k]))
      ga_error(L, "%s: cannot cast input %d from %s to %s (casting rule 'same_kind')", u->fname, k + 1,
               ga_dtypes[from].name, ga_dtypes[u->loops[l].in[k]].name);
  }
  return l;
}

/* A scalar operand as the loop's compute type (the value is first rounded
** to the signature type, as NumPy converts a weak scalar) */
static void scalar_value(lua_State *L, const ga_ufunc *u, const ga_operand *o, int t, ga_value *out) {
  ga_value tmp;
  ga_operand_value(L, o, t, &tmp, u->fname);
  int c = compute_of(t);
  if (c != t) ga_value_cast(c, out, t, &tmp);
  else *out = tmp;
}

/* ===================================================================== */
/* the call                                                              */
/* ===================================================================== */

static const char *const in_names[UF_MAXIN] = {"in0", "in1", "in2", "in3"};
static const char *const out_names[UF_MAXOUT] = {"out0", "out1", "out2", "out3"};

/* kind/storage: per input; ostorage: per output */
static void make_spec(const ga_ufunc *u, const uloop *lp, const int *kind, const int *storage, const int *ostorage,
                      ga_ewspec *s) {
  memset(s, 0, sizeof *s);
  s->kname = u->kname;
  s->nparams = u->nin + u->nout;
  for (int k = 0; k < s->nparams; k++) {
    ga_ewparam *p = &s->p[k];
    int out = k >= u->nin, j = out ? k - u->nin : k;
    p->name = out ? out_names[j] : in_names[j];
    p->kind = out ? GA_EW_ARRAY : kind[j];
    p->out = out;
    p->compute = compute_of(out ? lp->out[j] : lp->in[j]);
    p->storage = out ? ostorage[j] : (kind[j] == GA_EW_SCALAR ? p->compute : storage[j]);
    p->write_first = 1;
  }
  s->operation = u->ops[lp->op];
  s->preamble = u->preamble;
  s->ufunc_typedefs = 1;
}

/* the driver's memo miss: the spec of the loop the call resolved */
static void call_spec(const ga_ewcall *c, ga_ewspec *s) {
  const ga_ufunc *u = (const ga_ufunc *)c->ud;
  make_spec(u, &u->loops[c->loop], c->kind, c->dtype, c->dtype + u->nin, s);
}

/* The lazy recorder takes the call (lazy.h) when it is on, no capture
** records the launches, an array is among the inputs (scalars alone give a
** 0-d array eagerly), the recorder takes every array (on the current
** device: the eager call raises otherwise; not wrapped memory), and a
** multi-output ufunc writes no out= */
static int recordable(const ga_state *ctx, const ga_ufunc *u, const ga_ewcall *c) {
  if (!ctx->lazy || ctx->capture) return 0;
  int arrays = 0;
  for (int k = 0; k < c->np; k++) {
    if (!c->a[k]) continue;
    if (!ga_lz_takes(ctx, c->a[k])) return 0;
    if (c->out[k] && u->nout > 1) return 0;
    arrays += !c->out[k];
  }
  return arrays > 0;
}

/* Record the call: one pending array per output (or the given output's
** value replaced), each a node over the inputs' nodes and the scalar
** values the eager call would pass. Shape errors raise here, as eagerly. */
static int record(lua_State *L, ga_state *ctx, ga_ufunc *u, int l, ga_ewcall *c) {
  int nin = u->nin, nout = u->nout;
  int64_t shape[GA_MAXDIM];
  int same;
  int nd = ga_ew_shape(L, c, shape, &same);
  for (int j = 0; j < nout; j++) {
    ga_lznode *n;
    for (int tries = 0;; tries++) {
      n = ga_lz_node_new(L, LZ_UFUNC, c->dtype[nin + j]);
      n->op.u = u;
      n->op.loop = l;
      n->op.pick = j;
      n->op.nargs = nin;
      for (int k = 0; k < nin; k++) {
        if (c->a[k]) {
          n->op.arg[k] = ga_lz_operand(L, ctx, c->a[k]);
        } else {
          n->op.sdtype[k] = c->dtype[k];
          n->op.sval[k] = c->val[k];
        }
      }
      if (ga_lz_node_seal(n) || tries) break;
      /* past a bound (lazy.h): the pending inputs are computed first */
      ga_lz_node_unref(n);
      ctx->lz->bounds++;
      for (int k = 0; k < nin; k++)
        if (c->a[k] && (c->a[k]->flags & GA_F_LAZY)) ga_lz_settle_array(L, ctx, c->a[k]);
    }
    ga_array *o = c->a[nin + j];
    if (o) {
      ga_lz_store(L, ctx, o, n);
      lua_pushvalue(L, c->idx[nin + j]);
    } else {
      ga_lz_push_result(L, ctx, n, nd, shape);
    }
  }
  return nout;
}

/* out_idx: per output, an ndarray's stack index or 0 (allocate) */
static int apply(lua_State *L, ga_ufunc *u, const int *in_idx, const int *out_idx, int forced) {
  ga_state *ctx = ga_ctx(L);
  ga_operand ops[UF_MAXIN];
  int nin = u->nin, nout = u->nout;
  for (int k = 0; k < nin; k++) classify(L, ctx, u, in_idx[k], &ops[k], k + 1, 0);
  int l = resolve(L, u, ops, forced);
  const uloop *lp = &u->loops[l];
  ga_ewcall c;
  c.what = u->fname;
  c.np = nin + nout;
  for (int k = 0; k < nin; k++) {
    c.out[k] = 0;
    c.idx[k] = ops[k].idx;
    if (ops[k].kind == GA_OP_ARRAY) {
      c.kind[k] = GA_EW_ARRAY;
      c.dtype[k] = ops[k].a->dtype;
      c.a[k] = ops[k].a;
    } else {
      c.kind[k] = GA_EW_SCALAR;
      c.dtype[k] = compute_of(lp->in[k]);
      c.a[k] = NULL;
      scalar_value(L, u, &ops[k], lp->in[k], &c.val[k]);
    }
  }
  c.key[1] = (uint64_t)l;
  c.key[2] = 0;
  for (int k = 0; k < nin; k++) c.key[1] |= (uint64_t)(c.dtype[k] | c.kind[k] << 4) << (8 + 8 * k);
  for (int j = 0; j < nout; j++) {
    int otype = lp->out[j], oi = out_idx[j];
    ga_array *out = NULL;
    if (oi) {
      out = ga_toarray_in(L, ctx, oi);
      if (!out) ga_error(L, "%s: out must be an ndarray, got %s", u->fname, luaL_typename(L, oi));
      if (out->flags & GA_F_FREED) ga_error(L, "%s: the out array was freed", u->fname);
      if (otype != out->dtype && !ga_can_cast_same_kind(otype, out->dtype))
        ga_error(L, "%s: cannot cast the %s result to the %s output (casting rule 'same_kind')", u->fname,
                 ga_dtypes[otype].name, ga_dtypes[out->dtype].name);
      otype = out->dtype;
    }
    int k = nin + j;
    c.kind[k] = GA_EW_ARRAY;
    c.out[k] = 1;
    c.dtype[k] = otype;
    c.idx[k] = oi;
    c.a[k] = out;
    c.key[2] |= (uint64_t)otype << (8 * j);
  }
  ga_ew_call_defaults(&c, ctx, &u->cache, call_spec, u, l);
  if (recordable(ctx, u, &c)) return record(L, ctx, u, l, &c);
  /* eagerly: pending operands are computed, pending work on the output's
  ** memory settled */
  for (int k = 0; k < c.np; k++)
    if (c.a[k]) ga_array_ready(L, c.a[k], c.out[k] ? GA_LZ_WRITE : GA_LZ_READ);
  ga_ew_run(L, ctx, &c);
  for (int j = 0; j < nout; j++) lua_pushvalue(L, c.outidx[nin + j]);
  return nout;
}

/* ===================================================================== */
/* what lazy evaluation needs of a ufunc (lazy.h)                        */
/* ===================================================================== */

void ga_ufunc_loopinfo_get(const ga_ufunc *u, int loop, ga_ufunc_loopinfo *li) {
  const uloop *lp = &u->loops[loop];
  li->name = u->name;
  li->op = u->ops[lp->op];
  li->nin = u->nin;
  li->nout = u->nout;
  int n = 0;
  for (int k = 0; k < u->nin; k++) {
    li->in[k] = lp->in[k];
    li->sig[n++] = char_of_dtype(lp->in[k]);
  }
  li->sig[n++] = '-';
  li->sig[n++] = '>';
  for (int j = 0; j < u->nout; j++) {
    li->out[j] = lp->out[j];
    li->sig[n++] = char_of_dtype(lp->out[j]);
  }
  li->sig[n] = 0;
}

void ga_ufunc_run_loop(lua_State *L, ga_state *ctx, ga_ufunc *u, int l, ga_array *const *a,
                       const ga_value *sval, ga_array *out) {
  const uloop *lp = &u->loops[l];
  int nin = u->nin;
  ga_ewcall c;
  c.what = u->fname;
  c.np = nin + 1;
  c.key[1] = (uint64_t)l;
  c.key[2] = (uint64_t)out->dtype;
  for (int k = 0; k < nin; k++) {
    c.out[k] = 0;
    c.idx[k] = 0;
    c.a[k] = a[k];
    if (a[k]) {
      c.kind[k] = GA_EW_ARRAY;
      c.dtype[k] = a[k]->dtype;
    } else {
      c.kind[k] = GA_EW_SCALAR;
      c.dtype[k] = compute_of(lp->in[k]);
      c.val[k] = sval[k];
    }
    c.key[1] |= (uint64_t)(c.dtype[k] | c.kind[k] << 4) << (8 + 8 * k);
  }
  c.kind[nin] = GA_EW_ARRAY;
  c.out[nin] = 1;
  c.dtype[nin] = out->dtype;
  c.idx[nin] = 0;
  c.a[nin] = out;
  ga_ew_call_defaults(&c, ctx, &u->cache, call_spec, u, l);
  ga_ew_run(L, ctx, &c);
}

/* Every ufunc stays alive as long as its state: a pending node may hold
** one after the Lua side dropped it, and codegen pushes it by address */
static const char anchor_key = 'u';

static void anchor(lua_State *L, ga_ufunc *u, int idx) {
  idx = lua_absindex(L, idx);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &anchor_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &anchor_key);
  }
  lua_pushvalue(L, idx);
  lua_rawsetp(L, -2, u);
  lua_pop(L, 1);
}

void ga_ufunc_push(lua_State *L, const ga_ufunc *u) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &anchor_key);
  lua_rawgetp(L, -1, u);
  lua_remove(L, -2);
}

int ga_ufunc_apply(lua_State *L, ga_ufunc *u, const int *in_idx, int out_idx, int forced) {
  int outs[UF_MAXOUT] = {out_idx, 0, 0, 0};
  return apply(L, u, in_idx, outs, forced);
}

/* __call's upvalues: the context, the ufunc metatable and the option names
** as Lua strings (a lookup with them skips interning a C string) */
#define UV_MT lua_upvalueindex(2)
#define UV_OUT lua_upvalueindex(3)
#define UV_DTYPE lua_upvalueindex(4)

/* The ufunc at 1, for __call: its metatable is an upvalue, so the check is
** a getmetatable and a raw compare, not a registry lookup by name */
static ga_ufunc *call_self(lua_State *L) {
  ga_ufunc *u = (ga_ufunc *)lua_touserdata(L, 1);
  int ok = u && lua_getmetatable(L, 1) && lua_rawequal(L, -1, UV_MT);
  if (u && ok) lua_pop(L, 1);
  if (!ok) return check_ufunc(L, 1);   /* raises the usual message */
  return u;
}

/* An options table's keys: out and dtype (a ufunc takes its inputs by
** position, as NumPy's). The common keys are compared as the interned
** strings of the upvalues; any other key raises: an unknown one through the
** declaration's check (with the nearest name), an input's name as such.
** (Only __call's frame reaches the upvalues.) */
static void check_keys(lua_State *L, const ga_ufunc *u, int opts) {
  lua_pushnil(L);
  while (lua_next(L, opts)) {
    lua_pop(L, 1);
    if (lua_rawequal(L, -1, UV_OUT) || lua_rawequal(L, -1, UV_DTYPE)) continue;
    if (u->decl) ga_api_check_options(L, opts, u->decl, u->fname);
    const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (!key) ga_error(L, "%s: the options table has a key that is not a string", u->fname);
    if (u->decl) ga_error(L, "%s: %s is an input: give it by position", u->fname, key);
    ga_error(L, "%s: unknown option '%s' (a ufunc takes out and dtype)", u->fname, key);
  }
}

/* The outputs given at idx: an ndarray (one output) or a list of nout
** entries, each an ndarray or nil (allocate that one) */
static void read_outs(lua_State *L, const ga_ufunc *u, int idx, int *outs) {
  if (lua_type(L, idx) != LUA_TTABLE || u->nout == 1) {
    outs[0] = idx;
    return;
  }
  int n = (int)lua_rawlen(L, idx);
  if (n > u->nout) ga_error(L, "%s: out has %d entries, the ufunc has %d outputs", u->fname, n, u->nout);
  for (int j = 0; j < u->nout; j++) {
    if (lua_rawgeti(L, idx, j + 1) == LUA_TNIL) {
      lua_pop(L, 1);
      continue;
    }
    outs[j] = lua_gettop(L);   /* stays on the stack for the call */
  }
}

/* ga.NAME(a[, b...][, out][, {out=, dtype=}]) */
static int l_ufunc_call(lua_State *L) {
  ga_ufunc *u = call_self(L);
  int top = lua_gettop(L);
  /* nils past the inputs are no arguments (ga.add(a, b, out, opts) from
  ** code that passes its optional out and options on), as the binder's */
  while (top > u->nin + 1 && lua_isnil(L, top)) top--;
  lua_settop(L, top);
  if (ga_ctx(L)->tracing) {             /* ga.fuse is recording (base.h: ga_trace_offer) */
    int n = ga_trace_offer(L, "ufunc", 1, 2, top);
    if (n >= 0) return n;
  }
  int nin = u->nin;
  if (top < nin + 1)
    ga_error(L, "%s: takes %d input%s, got %d", u->fname, nin, nin == 1 ? "" : "s", top - 1);
  int in_idx[UF_MAXIN] = {2, 3, 4, 5};
  int outs[UF_MAXOUT] = {0, 0, 0, 0};
  int pos = nin + 2, out_pos = 0, forced = -1;
  if (pos <= top) {
    int t = lua_type(L, pos);
    if (t == LUA_TNIL) pos++;                            /* ga.add(a, b, nil, opts) */
    else if (t == LUA_TUSERDATA && ga_toarray_in(L, ga_ctx(L), pos)) out_pos = pos++;
    else if (t == LUA_TTABLE && u->nout > 1 && lua_rawlen(L, pos) > 0) out_pos = pos++;   /* {o1, o2} */
  }
  if (pos <= top && lua_type(L, pos) == LUA_TTABLE && !ga_is_complex_pair(L, pos)) {
    int opts = pos++;
    check_keys(L, u, opts);
    lua_pushvalue(L, UV_OUT);
    if (lua_gettable(L, opts) != LUA_TNIL) {
      if (out_pos) ga_error(L, "%s: out given twice", u->fname);
      out_pos = lua_gettop(L);
    } else {
      lua_pop(L, 1);
    }
    lua_pushvalue(L, UV_DTYPE);
    if (lua_gettable(L, opts) != LUA_TNIL) forced = ga_checkdtype(L, -1, -1, u->fname);
    lua_pop(L, 1);
  }
  if (pos <= top)
    ga_error(L, "%s: takes %d input%s, got %d arguments", u->fname, nin, nin == 1 ? "" : "s", top - 1);
  if (out_pos) read_outs(L, u, out_pos, outs);
  return apply(L, u, in_idx, outs, forced);
}

/* ===================================================================== */
/* construction from a Lua definition                                    */
/* ===================================================================== */

static void parse_sig(lua_State *L, ga_ufunc *u, const char *sig, uloop *lp) {
  size_t len = strlen(sig);
  int ok = len == (size_t)u->nin + 2 + (size_t)u->nout && sig[u->nin] == '-' && sig[u->nin + 1] == '>';
  for (int k = 0; ok && k < u->nin; k++) ok = dtype_of_char(sig[k]) >= 0;
  for (int j = 0; ok && j < u->nout; j++) ok = dtype_of_char(sig[u->nin + 2 + j]) >= 0;
  if (!ok) ga_error(L, "_ufunc %s: bad loop signature '%s'", u->name, sig);
  for (int k = 0; k < UF_MAXIN; k++) lp->in[k] = (uint8_t)dtype_of_char(sig[k < u->nin ? k : 0]);
  for (int j = 0; j < UF_MAXOUT; j++) lp->out[j] = (uint8_t)dtype_of_char(sig[u->nin + 2 + (j < u->nout ? j : 0)]);
}

static const char *def_string(lua_State *L, int def, int uv, const char *key, int required, const char *name) {
  int t = lua_getfield(L, def, key);
  if (t == LUA_TNIL && !required) { lua_pop(L, 1); return NULL; }
  if (t != LUA_TSTRING) ga_error(L, "_ufunc %s: field %s must be a string", name, key);
  const char *s = lua_tostring(L, -1);
  lua_setfield(L, uv, key);
  return s;
}

/* core.elementwise.ufunc{name=, nin=, nout=, loops={"ff->f", ...}, op=, ops={[chars]=op},
** types=, bool_error=, fname=, preamble=, decl=, methods=} -> ufunc;
** methods: a table whose fields u.<key> reads when key is none of the
** ufunc's own (reduce, accumulate, ...) */
static int l_ufunc_new(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  ga_ufunc *u = (ga_ufunc *)lua_newuserdatauv(L, sizeof(ga_ufunc), 1);
  memset(u, 0, sizeof *u);
  ga_ewcache_init(&u->cache, UF_NWORDS);
  luaL_setmetatable(L, GA_UFUNC_MT);
  int self = lua_gettop(L);
  lua_newtable(L);
  int uv = lua_gettop(L);
  lua_pushvalue(L, uv);
  lua_setiuservalue(L, self, 1);
  const char *name = def_string(L, 1, uv, "name", 1, "?");
  if (strlen(name) >= sizeof u->name - 1) ga_error(L, "_ufunc: name too long");
  strcpy(u->name, name);
  const char *fname = def_string(L, 1, uv, "fname", 0, name);
  if (!fname) fname = name;
  if (strlen(fname) >= sizeof u->fname - 1) ga_error(L, "_ufunc: fname too long");
  strcpy(u->fname, fname);
  snprintf(u->kname, sizeof u->kname, "ga_uf_%s", name);
  lua_getfield(L, 1, "nin");
  u->nin = (int)lua_tointeger(L, -1);
  lua_getfield(L, 1, "nout");
  u->nout = lua_isnil(L, -1) ? 1 : (int)lua_tointeger(L, -1);
  lua_pop(L, 2);
  if (u->nin < 1 || u->nin > UF_MAXIN) ga_error(L, "_ufunc %s: nin must be 1 to %d", name, UF_MAXIN);
  if (u->nout < 1 || u->nout > UF_MAXOUT) ga_error(L, "_ufunc %s: nout must be 1 to %d", name, UF_MAXOUT);
  u->ops[0] = def_string(L, 1, uv, "op", 1, name);
  u->nops = 1;
  u->types_msg = def_string(L, 1, uv, "types", 0, name);
  if (!u->types_msg) u->types_msg = "other dtypes";
  u->bool_msg = def_string(L, 1, uv, "bool_error", 0, name);
  u->preamble = def_string(L, 1, uv, "preamble", 0, name);
  if (lua_getfield(L, 1, "decl") != LUA_TNIL) {
    u->decl = ga_api_checkdecl(L, -1, "_ufunc");
    lua_setfield(L, uv, "decl");   /* kept alive by the ufunc */
  } else {
    lua_pop(L, 1);
  }
  if (lua_getfield(L, 1, "methods") == LUA_TTABLE) lua_setfield(L, uv, "methods");
  else lua_pop(L, 1);

  if (lua_getfield(L, 1, "loops") != LUA_TTABLE) ga_error(L, "_ufunc %s: loops must be a list", name);
  int nl = (int)lua_rawlen(L, -1);
  if (nl < 1 || nl > UF_MAXLOOPS) ga_error(L, "_ufunc %s: between 1 and %d loops", name, UF_MAXLOOPS);
  for (int l = 0; l < nl; l++) {
    lua_rawgeti(L, -1, l + 1);
    const char *sig = lua_tostring(L, -1);
    if (!sig) ga_error(L, "_ufunc %s: loops[%d] is not a string", name, l + 1);
    parse_sig(L, u, sig, &u->loops[l]);
    lua_pop(L, 1);
  }
  u->nloops = nl;
  lua_pop(L, 1);
  /* ops: {[type chars] = expression}: loops whose first input is one of
  ** the chars use that expression */
  if (lua_getfield(L, 1, "ops") == LUA_TTABLE) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
        ga_error(L, "_ufunc %s: ops maps type chars to expressions", name);
      if (u->nops == UF_MAXOPS) ga_error(L, "_ufunc %s: too many ops", name);
      const char *chars = lua_tostring(L, -2);
      int op = u->nops++;
      u->ops[op] = lua_tostring(L, -1);
      lua_pushvalue(L, -1);
      lua_rawseti(L, uv, op + 1);      /* keep the string */
      for (int l = 0; l < nl; l++)
        if (strchr(chars, char_of_dtype(u->loops[l].in[0]))) u->loops[l].op = (uint8_t)op;
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  /* NumPy 2's dispatch: the loop taking exactly the promoted dtype, else
  ** the first one it casts to safely. The two agree for NumPy's dtypes,
  ** whose loops go narrow to wide; bfloat16's loops come after float64's
  ** (so that int16 still takes float32's loop, not bfloat16's, which JAX's
  ** promotion would let it cast to) and are found by the exact match. */
  for (int t = 0; t < GA_NDTYPES; t++) {
    u->loop_for[t] = -1;
    for (int l = 0; l < nl && u->loop_for[t] < 0; l++) {
      int ok = 1;
      for (int k = 0; k < u->nin; k++) ok &= u->loops[l].in[k] == t;
      if (ok) u->loop_for[t] = (int8_t)l;
    }
    for (int l = 0; l < nl && u->loop_for[t] < 0; l++) {
      int ok = 1;
      for (int k = 0; k < u->nin; k++) ok &= ga_can_cast_safe(t, u->loops[l].in[k]);
      if (ok) u->loop_for[t] = (int8_t)l;
    }
  }
  lua_settop(L, self);
  anchor(L, u, self);
  ga_operators_bind(L, u->name, self);   /* a + b calls "add" from now on */
  return 1;
}

static int l_ufunc_gc(lua_State *L) {
  ga_ufunc *u = ga_toufunc(L, 1);
  if (u) ga_ewcache_free(&u->cache);
  return 0;
}

/* ===================================================================== */
/* introspection and test hooks                                          */
/* ===================================================================== */

static void push_sig(lua_State *L, const ga_ufunc *u, const uloop *lp) {
  char s[UF_MAXIN + UF_MAXOUT + 2];
  int n = 0;
  for (int k = 0; k < u->nin; k++) s[n++] = char_of_dtype(lp->in[k]);
  s[n++] = '-';
  s[n++] = '>';
  for (int j = 0; j < u->nout; j++) s[n++] = char_of_dtype(lp->out[j]);
  lua_pushlstring(L, s, (size_t)n);
}

/* core.elementwise.resolve(u, a[, b...][, {dtype=}]) -> result dtype, loop
** signature: the loop a call would take (the first output's dtype); dtype
** names stand for arrays of that dtype */
static int l_ufunc_resolve(lua_State *L) {
  ga_ufunc *u = check_ufunc(L, 1);
  ga_operand ops[UF_MAXIN];
  for (int k = 0; k < u->nin; k++) classify(L, ga_state_get(L), u, 2 + k, &ops[k], k + 1, 1);
  int forced = -1;
  if (lua_type(L, u->nin + 2) == LUA_TTABLE) {
    lua_getfield(L, u->nin + 2, "dtype");
    forced = ga_checkdtype(L, -1, -1, u->fname);
    lua_pop(L, 1);
  }
  int l = resolve(L, u, ops, forced);
  ga_value v;
  for (int k = 0; k < u->nin; k++)     /* the same scalar checks a call makes */
    if (ops[k].kind == GA_OP_WEAK || ops[k].kind == GA_OP_TYPED) scalar_value(L, u, &ops[k], u->loops[l].in[k], &v);
  lua_pushstring(L, ga_dtypes[u->loops[l].out[0]].name);
  push_sig(L, u, &u->loops[l]);
  return 2;
}

/* One variant of loop l for _ufunc_source */
static void add_variant(ga_buf *b, const ga_ufunc *u, int l, const char *tag, int cls, int nd, int idx64,
                        int scalar1, int cast) {
  const uloop *lp = &u->loops[l];
  int kind[UF_MAXIN], storage[UF_MAXIN], ostorage[UF_MAXOUT];
  for (int k = 0; k < UF_MAXIN; k++) {
    kind[k] = GA_EW_ARRAY;
    storage[k] = cast ? GA_INT8 : lp->in[k];
  }
  for (int j = 0; j < UF_MAXOUT; j++) ostorage[j] = cast ? GA_COMPLEX128 : lp->out[j];
  if (scalar1) kind[u->nin - 1] = GA_EW_SCALAR;
  ga_ewspec s;
  make_spec(u, lp, kind, storage, ostorage, &s);
  s.preamble = NULL;           /* the program has it once */
  char kname[80];
  snprintf(kname, sizeof kname, "%s_%d_%s", u->kname, l, tag);
  s.kname = kname;
  int wide = 1;
  for (int k = 0; k < s.nparams; k++) {
    const ga_ewparam *p = &s.p[k];
    if (p->kind == GA_EW_ARRAY && ga_dtypes[p->storage].itemsize > wide) wide = ga_dtypes[p->storage].itemsize;
  }
  ga_ewvariant v = {cls, cls == GA_EW_FLAT ? 16 / wide : 2,
                    cls == GA_EW_FLAT ? GA_EW_FLAT_UNROLL : cls == GA_EW_STRIDED ? GA_EW_STRIDED_UNROLL : 1,
                    nd, idx64, cls == GA_EW_VIN ? 1u : 0u};
  if (cls == GA_EW_VIN && 16 / wide < 2) v.vec = 1;
  s.no_headers = 1;            /* the program has them once */
  ga_ew_generate(&s, &v, b);
}

/* core._test.ufunc_source(u[, full]) -> one program holding u's kernels, so
** that specs compile all of them with one NVRTC call: every loop in the
** strided class (the operation once per kernel: the cheapest to compile),
** and the first and last loops also in the others (flat, flat with a
** scalar, strided 64-bit, vectorised inner axis with a broadcast operand,
** with casts); full true: every loop in every class; full "strided": only
** the strided kernels (scipy.special's heavy operations, compiled by the
** CPU specs for every function) */
static int l_ufunc_source(lua_State *L) {
  ga_ufunc *u = check_ufunc(L, 1);
  int lean = lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "strided") == 0;
  int full = !lean && lua_toboolean(L, 2);
  ga_buf b;
  ga_buf_init(&b);
  ga_buf_add(&b, ga_kernel_source("common"));
  ga_buf_add(&b, ga_kernel_source("math"));
  ga_buf_add(&b, ga_kernel_source("elementwise"));
  if (u->preamble) {
    ga_buf_add(&b, u->preamble);
    ga_buf_add(&b, "\n");
  }
  for (int l = 0; l < u->nloops; l++) {
    add_variant(&b, u, l, "str", GA_EW_STRIDED, 3, 0, 0, 0);
    if (lean || (!full && l != 0 && l != u->nloops - 1)) continue;
    add_variant(&b, u, l, "flat", GA_EW_FLAT, 0, 0, 0, 0);
    if (u->nin >= 2) add_variant(&b, u, l, "scal", GA_EW_FLAT, 0, 0, 1, 0);
    add_variant(&b, u, l, "s64", GA_EW_STRIDED, 2, 1, 1, 0);
    add_variant(&b, u, l, "vin", GA_EW_VIN, 2, 0, 0, 0);
    add_variant(&b, u, l, "cast", GA_EW_STRIDED, 1, 0, 0, 1);
  }
  lua_pushlstring(L, b.s, b.len);
  ga_buf_free(&b);
  return 1;
}

static int l_ufunc_index(lua_State *L) {
  ga_ufunc *u = check_ufunc(L, 1);
  const char *k = ga_checkstring(L, 2, "ufunc", "a field name");
  if (strcmp(k, "name") == 0) lua_pushstring(L, u->name);
  else if (strcmp(k, "nin") == 0) lua_pushinteger(L, u->nin);
  else if (strcmp(k, "nout") == 0) lua_pushinteger(L, u->nout);
  else if (strcmp(k, "nargs") == 0) lua_pushinteger(L, u->nin + u->nout);
  else if (strcmp(k, "ntypes") == 0) lua_pushinteger(L, u->nloops);
  else if (strcmp(k, "types") == 0) {
    lua_createtable(L, u->nloops, 0);
    for (int l = 0; l < u->nloops; l++) {
      push_sig(L, u, &u->loops[l]);
      lua_rawseti(L, -2, l + 1);
    }
  } else {
    /* the definition's methods table (reduce, accumulate, ..., identity:
    ** lua/gpuarray/math/ufunc_methods.lua), or nil */
    lua_getiuservalue(L, 1, 1);
    if (lua_getfield(L, -1, "methods") == LUA_TTABLE) lua_getfield(L, -1, k);
    else lua_pushnil(L);
  }
  return 1;
}

static int l_ufunc_tostring(lua_State *L) {
  lua_pushfstring(L, "<ufunc '%s'>", check_ufunc(L, 1)->name);
  return 1;
}

static const luaL_Reg ufunc_meta[] = {
  {"__index", l_ufunc_index},
  {"__gc", l_ufunc_gc},
  {"__tostring", l_ufunc_tostring},
  {NULL, NULL}
};

static const luaL_Reg ufunc_funcs_elementwise[] = {
  {"ufunc", l_ufunc_new},
  {"resolve", l_ufunc_resolve},
  {NULL, NULL}
};

static const luaL_Reg ufunc_funcs_test[] = {
  {"ufunc_source", l_ufunc_source},
  {NULL, NULL}
};

void ga_open_ufunc(lua_State *L) {
  luaL_newmetatable(L, GA_UFUNC_MT);
  ga_setfuncs(L, ufunc_meta);
  ga_state_push(L);
  lua_pushvalue(L, -2);
  lua_pushliteral(L, "out");
  lua_pushliteral(L, "dtype");
  lua_pushcclosure(L, l_ufunc_call, 4);   /* see UV_MT */
  lua_setfield(L, -2, "__call");
  lua_pop(L, 1);
  ga_setprivate(L, "elementwise", ufunc_funcs_elementwise);
  ga_setprivate(L, GA_TEST, ufunc_funcs_test);
}
