/*
** elementwise.c: ga.ElementwiseKernel, with CuPy's semantics. The object
** holds the parsed parameter lists and the code strings; a call binds the
** placeholder types from the arguments, broadcasts, allocates outputs,
** picks the layout class and launches the variant compiled for that
** combination through the call driver (ew_driver.c), memoised in the object.
**
** Binding follows CuPy's _decide_params_type: arrays and typed scalars
** are strong and must match fixed types exactly (outputs first, then
** inputs); Lua numbers are weak, take the parameter's type, and bind a
** placeholder only when nothing else does (then as int64 / float64 /
** bool / complex128, the widest kind among them).
*/
#include <string.h>

#include "elementwise/elementwise.h"

#define EK_MT "gpuarray.ElementwiseKernel"
#define EK_MAXOPTS 32

typedef struct {
  ga_paramlist in, out;
  const char *name, *operation, *preamble, *loop_prep, *after_loop;
  int nopts;
  const char *opts[EK_MAXOPTS];
  int no_return, reduce_dims, raw_views;
  int write_first[GA_MAXPARAMS];    /* per output */
  ga_ewcache cache;
} ga_ek;

static ga_ek *check_ek(lua_State *L, int idx) {
  return (ga_ek *)luaL_checkudata(L, idx, EK_MT);
}

static const ga_param *param_at(const ga_ek *k, int j) {
  return j < k->in.n ? &k->in.p[j] : &k->out.p[j - k->in.n];
}

/* ===================================================================== */
/* construction                                                          */
/* ===================================================================== */

static int is_identifier(const char *s) {
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
      return 0;
  return 1;
}

/* Keep the string at the top in the object's string table (user value 1)
** under key, and return it: Lua strings do not move while referenced */
static const char *keep(lua_State *L, int uv, const char *key) {
  const char *s = lua_tostring(L, -1);
  lua_setfield(L, uv, key);
  return s;
}

static const char *opt_string(lua_State *L, int opts, int uv, const char *key) {
  int t = lua_getfield(L, opts, key);
  if (t == LUA_TNIL) { lua_pop(L, 1); return NULL; }
  if (t != LUA_TSTRING) ga_error(L, "ElementwiseKernel: option %s must be a string", key);
  ga_checkstring(L, -1, "ElementwiseKernel", key);
  return keep(L, uv, key);
}

static void read_options(lua_State *L, ga_ek *k, int opts, int uv) {
  static const char *const known[] = {"preamble", "options", "loop_prep", "after_loop", "no_return",
                                      "reduce_dims", "return_tuple", NULL};
  lua_pushnil(L);
  while (lua_next(L, opts)) {
    int ok = 0;
    if (lua_type(L, -2) == LUA_TSTRING)
      for (int i = 0; known[i] && !ok; i++) ok = strcmp(lua_tostring(L, -2), known[i]) == 0;
    if (!ok) ga_error(L, "ElementwiseKernel: unknown option '%s'", luaL_tolstring(L, -2, NULL));
    lua_pop(L, 1);
  }
  k->preamble = opt_string(L, opts, uv, "preamble");
  k->loop_prep = opt_string(L, opts, uv, "loop_prep");
  k->after_loop = opt_string(L, opts, uv, "after_loop");
  lua_getfield(L, opts, "no_return");
  k->no_return = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (lua_getfield(L, opts, "reduce_dims") != LUA_TNIL) k->reduce_dims = lua_toboolean(L, -1);
  lua_pop(L, 1);
  int t = lua_getfield(L, opts, "options");
  if (t == LUA_TSTRING) {
    lua_createtable(L, 1, 0);
    lua_insert(L, -2);
    lua_rawseti(L, -2, 1);
  } else if (t != LUA_TTABLE && t != LUA_TNIL) {
    ga_error(L, "ElementwiseKernel: options must be a string or a list of strings");
  }
  if (t != LUA_TNIL) {
    int n = (int)lua_rawlen(L, -1);
    if (n > EK_MAXOPTS) ga_error(L, "ElementwiseKernel: more than %d NVRTC options", EK_MAXOPTS);
    for (int i = 1; i <= n; i++) {
      if (lua_rawgeti(L, -1, i) != LUA_TSTRING) ga_error(L, "ElementwiseKernel: options[%d] is not a string", i);
      k->opts[i - 1] = ga_checkstring(L, -1, "ElementwiseKernel", "an NVRTC option");
      lua_pop(L, 1);
    }
    k->nopts = n;
    lua_setfield(L, uv, "options");   /* the list keeps the strings alive */
  } else {
    lua_pop(L, 1);
  }
}

static int mentions(const char *s, const char *what) { return s && strstr(s, what) != NULL; }

/* ElementwiseKernel(in_params, out_params, operation[, name][, opts]) */
static int l_ek_new(lua_State *L) {
  const char *in_s = ga_checkstring(L, 1, "ElementwiseKernel", "in_params");
  const char *out_s = ga_checkstring(L, 2, "ElementwiseKernel", "out_params");
  ga_checkstring(L, 3, "ElementwiseKernel", "operation");
  int opts = 0;
  if (lua_istable(L, 4)) opts = 4;
  else if (lua_istable(L, 5)) opts = 5;
  const char *name = lua_type(L, 4) == LUA_TSTRING ? ga_checkstring(L, 4, "ElementwiseKernel", "name") : "kernel";
  if (!lua_isnoneornil(L, 4) && !lua_istable(L, 4) && lua_type(L, 4) != LUA_TSTRING)
    ga_error(L, "ElementwiseKernel: name must be a string");
  if (!is_identifier(name) || strlen(name) >= GA_NAME_MAX)
    ga_error(L, "ElementwiseKernel: name '%s' is not a valid identifier", name);

  ga_ek *k = (ga_ek *)lua_newuserdatauv(L, sizeof(ga_ek), 1);
  memset(k, 0, sizeof *k);
  k->reduce_dims = 1;
  luaL_setmetatable(L, EK_MT);
  int self = lua_gettop(L);
  lua_createtable(L, 0, 8);
  int uv = lua_gettop(L);
  lua_pushvalue(L, uv);
  lua_setiuservalue(L, self, 1);

  char fname[GA_NAME_MAX + 24];
  snprintf(fname, sizeof fname, "ElementwiseKernel %s", name);
  ga_kernel_params(L, in_s, out_s, &k->in, &k->out, fname);
  if (k->in.n + k->out.n > GA_MAXPARAMS)
    ga_error(L, "%s: more than %d parameters", fname, GA_MAXPARAMS);
  lua_pushvalue(L, 1);
  keep(L, uv, "in_params");
  lua_pushvalue(L, 2);
  keep(L, uv, "out_params");
  lua_pushvalue(L, 3);
  k->operation = keep(L, uv, "operation");
  lua_pushstring(L, name);
  k->name = keep(L, uv, "name");
  if (opts) read_options(L, k, opts, uv);
  k->raw_views = mentions(k->operation, "_raw_") || mentions(k->loop_prep, "_raw_") ||
                 mentions(k->after_loop, "_raw_") || mentions(k->preamble, "_raw_");
  for (int j = 0; j < k->out.n; j++) {
    /* loop_prep could read an output before the operation writes it */
    k->write_first[j] = !mentions(k->loop_prep, k->out.p[j].name) &&
                        ga_assigned_first(k->operation, k->out.p[j].name);
  }
  int np = k->in.n + k->out.n;
  ga_ewcache_init(&k->cache, 1 + (2 * np + 7) / 8);
  lua_settop(L, self);
  return 1;
}

static int l_ek_gc(lua_State *L) {
  ga_ek *k = (ga_ek *)luaL_testudata(L, 1, EK_MT);
  if (k) ga_ewcache_free(&k->cache);
  return 0;
}

/* ===================================================================== */
/* binding                                                               */
/* ===================================================================== */

enum { ARG_NONE, ARG_ARRAY, ARG_TYPED, ARG_WEAK };

typedef struct {
  int np, nin;
  int arg[GA_MAXPARAMS];      /* ARG_* */
  int idx[GA_MAXPARAMS];      /* stack index (0: an output to allocate) */
  ga_array *a[GA_MAXPARAMS];
  int dtype[GA_MAXPARAMS];
  char weak[GA_MAXPARAMS];    /* b i f c */
  ga_value vals[GA_MAXPARAMS];   /* scalar arguments in their parameter's dtype */
  ga_typemap tm;
} binding;


static void bind_strong(lua_State *L, const ga_ek *k, binding *bd, int j, int t) {
  const ga_param *p = param_at(k, j);
  if (p->dtype >= 0) {
    if (p->dtype != t)
      ga_error(L, "%s: argument %d (%s) is %s, the kernel declares %s", k->name, j + 1, p->name,
               ga_dtypes[t].name, ga_dtypes[p->dtype].name);
  } else if (!ga_typemap_bind(&bd->tm, p->type, t)) {
    ga_error(L, "%s: argument %d (%s) is %s, but %s is already %s", k->name, j + 1, p->name,
             ga_dtypes[t].name, p->type, ga_dtypes[ga_typemap_get(&bd->tm, p->type)].name);
  }
}

static void bind(lua_State *L, ga_state *ctx, const ga_ek *k, binding *bd, int first, int given) {
  static const char order[] = "bifc";
  bd->nin = k->in.n;
  bd->np = k->in.n + k->out.n;
  ga_typemap_init(&bd->tm);
  /* outputs first, as CuPy does: they are what the caller fixed */
  for (int j = bd->nin; j < bd->np; j++) {
    const ga_param *p = param_at(k, j);
    bd->idx[j] = given ? first + j : 0;
    bd->arg[j] = ARG_NONE;
    bd->a[j] = NULL;
    if (!given) continue;
    ga_array *a = ga_toarray_in(L, ctx, first + j);
    if (!a) ga_error(L, "%s: output %s must be an ndarray, got %s", k->name, p->name, luaL_typename(L, first + j));
    if (a->flags & GA_F_FREED) ga_error(L, "%s: output %s was freed", k->name, p->name);
    bd->a[j] = a;
    bd->arg[j] = ARG_ARRAY;
    bind_strong(L, k, bd, j, a->dtype);
  }
  for (int j = 0; j < bd->nin; j++) {
    const ga_param *p = param_at(k, j);
    int idx = first + j;
    ga_operand o;
    int kind = ga_operand_read(L, ctx, idx, 0, &o);
    bd->idx[j] = idx;
    bd->a[j] = NULL;
    if (kind == GA_OP_ARRAY) {
      if (o.a->flags & GA_F_FREED) ga_error(L, "%s: argument %d (%s) was freed", k->name, j + 1, p->name);
      bd->a[j] = o.a;
      bd->arg[j] = ARG_ARRAY;
      bind_strong(L, k, bd, j, o.a->dtype);
      continue;
    }
    if (p->raw)
      ga_error(L, "%s: argument %d (%s) is raw and needs an ndarray, got %s", k->name, j + 1, p->name,
               luaL_typename(L, idx));
    if (kind == GA_OP_TYPED) {
      bd->arg[j] = ARG_TYPED;
      bind_strong(L, k, bd, j, o.dtype);
    } else if (kind == GA_OP_WEAK) {
      bd->arg[j] = ARG_WEAK;
      bd->weak[j] = o.weak;
    } else {
      ga_error(L, "%s: argument %d (%s) must be an ndarray or a scalar, got %s", k->name, j + 1, p->name,
               luaL_typename(L, idx));
    }
  }
  /* weak scalars bind what nothing else did, with the widest kind among them */
  for (int j = 0; j < bd->nin; j++) {
    const ga_param *p = param_at(k, j);
    if (bd->arg[j] != ARG_WEAK || p->dtype >= 0 || ga_typemap_get(&bd->tm, p->type) >= 0) continue;
    char kind = bd->weak[j];
    for (int m = j + 1; m < bd->nin; m++)
      if (bd->arg[m] == ARG_WEAK && strcmp(param_at(k, m)->type, p->type) == 0 &&
          strchr(order, bd->weak[m]) > strchr(order, kind))
        kind = bd->weak[m];
    ga_typemap_bind(&bd->tm, p->type, ga_default_for_kind(kind));
  }
  for (int j = 0; j < bd->np; j++) {
    const ga_param *p = param_at(k, j);
    bd->dtype[j] = ga_param_dtype(p, &bd->tm);
    if (bd->dtype[j] < 0)
      ga_error(L, "%s: placeholder type %s (of %s %s) is not bound by any argument: pass the output arrays",
               k->name, p->type, j < bd->nin ? "input" : "output", p->name);
  }
  for (int j = 0; j < bd->nin; j++)
    if (bd->arg[j] == ARG_TYPED || bd->arg[j] == ARG_WEAK)
      ga_checkvalue(L, bd->idx[j], bd->dtype[j], &bd->vals[j], k->name);
}

/* ===================================================================== */
/* calling                                                               */
/* ===================================================================== */

static int is_options(lua_State *L, int idx) {
  return lua_type(L, idx) == LUA_TTABLE && lua_rawlen(L, idx) == 0;
}


static void make_spec(const ga_ek *k, const binding *bd, const int *kind, ga_ewspec *s, const char *typedefs) {
  memset(s, 0, sizeof *s);
  s->kname = k->name;
  s->nparams = bd->np;
  for (int j = 0; j < bd->np; j++) {
    ga_ewparam *p = &s->p[j];
    p->name = param_at(k, j)->name;
    p->kind = kind[j];
    p->out = j >= bd->nin;
    p->storage = p->compute = bd->dtype[j];
    if (kind[j] == GA_EW_RAW && bd->a[j]) {
      p->raw_nd = bd->a[j]->ndim;
      p->raw_contig = (bd->a[j]->flags & GA_F_C) != 0;
    }
    p->write_first = p->out ? k->write_first[j - bd->nin] : 0;
  }
  s->typedefs = typedefs;
  s->preamble = k->preamble;
  s->loop_prep = k->loop_prep;
  s->operation = k->operation;
  s->after_loop = k->after_loop;
  s->raw_views = k->raw_views;
}

/* key[0]: the variant and device; then two bytes per parameter (dtype,
** kind, raw contiguity; raw ndim), packed little end first */
static void make_key(const ga_ek *k, const binding *bd, const int *kind, uint64_t *key) {
  for (int w = 1; w < k->cache.nwords; w++) key[w] = 0;
  for (int j = 0; j < bd->np; j++) {
    int raw = kind[j] == GA_EW_RAW;
    int contig = raw && (bd->a[j]->flags & GA_F_C);
    uint64_t pair = (uint64_t)(bd->dtype[j] | kind[j] << 4 | contig << 6) |
                    (uint64_t)(raw ? bd->a[j]->ndim : 0) << 8;
    key[1 + j / 4] |= pair << (16 * (j % 4));
  }
}

/* The driver's view of a call: the kernel and its binding */
typedef struct {
  const ga_ek *k;
  const binding *bd;
} ek_call;

static const char *ek_param_name(const ga_ewcall *c, int j) {
  return param_at(((const ek_call *)c->ud)->k, j)->name;
}

/* On a memo miss: the spec, with the placeholder typedefs in a Lua string
** (left on the stack: the driver pops it after compiling) */
static void ek_spec(const ga_ewcall *c, ga_ewspec *s) {
  const ek_call *e = (const ek_call *)c->ud;
  ga_buf td;
  ga_buf_init(&td);
  ga_typemap_typedefs(&e->bd->tm, &td);
  lua_State *L = c->L;
  lua_pushlstring(L, td.s, td.len);
  ga_buf_free(&td);
  make_spec(e->k, e->bd, c->kind, s, lua_tostring(L, -1));
}

/* The kernel at 1, for __call: its metatable is upvalue 2 (a raw compare,
** not a registry lookup by name) */
static ga_ek *call_self(lua_State *L) {
  ga_ek *k = (ga_ek *)lua_touserdata(L, 1);
  int ok = k && lua_getmetatable(L, 1) && lua_rawequal(L, -1, lua_upvalueindex(2));
  if (k && ok) lua_pop(L, 1);
  if (!ok) return check_ek(L, 1);   /* raises the usual message */
  return k;
}

static int l_ek_call(lua_State *L) {
  ga_ek *k = call_self(L);
  ga_state *ctx = ga_ctx(L);
  int top = lua_gettop(L), nargs = top - 1, optidx = 0;
  if (nargs > 0 && is_options(L, top)) {
    optidx = top;
    nargs--;
  }
  int nin = k->in.n, np = nin + k->out.n;
  if (nargs != nin && nargs != np) {
    if (k->out.n)
      ga_error(L, "%s: takes %d arguments (or %d with the outputs), got %d", k->name, nin, np, nargs);
    ga_error(L, "%s: takes %d arguments, got %d", k->name, nin, nargs);
  }
  binding bd;
  bind(L, ctx, k, &bd, 2, nargs == np && k->out.n > 0);

  int64_t size = -1;
  int block = 0;
  cudaStream_t stream = ctx->stream;
  if (optidx) {
    if (lua_getfield(L, optidx, "size") != LUA_TNIL) {
      int isnum;
      size = lua_tointegerx(L, -1, &isnum);
      if (!isnum || size < 0) ga_error(L, "%s: size must be a non-negative integer", k->name);
    }
    if (lua_getfield(L, optidx, "block_size") != LUA_TNIL) {
      lua_Integer b = lua_tointeger(L, -1);
      if (b < 1 || b > 1024) ga_error(L, "%s: block_size must be between 1 and 1024", k->name);
      block = (int)b;
    }
    lua_pop(L, 2);
    stream = ga_opt_stream(L, ctx, optidx, k->name);
  }

  ga_ewcall c;
  c.what = k->name;
  c.np = np;
  int narr = 0, nb = 0;
  for (int j = 0; j < np; j++) {
    const ga_param *p = param_at(k, j);
    if (p->raw) c.kind[j] = GA_EW_RAW;
    else if (j < nin && bd.arg[j] != ARG_ARRAY) c.kind[j] = GA_EW_SCALAR;
    else c.kind[j] = GA_EW_ARRAY;
    narr += c.kind[j] == GA_EW_ARRAY;
    nb += c.kind[j] == GA_EW_ARRAY && bd.a[j] != NULL;
    c.out[j] = j >= nin;
    c.dtype[j] = bd.dtype[j];
    c.idx[j] = bd.idx[j];
    c.a[j] = bd.a[j];
    c.val[j] = bd.vals[j];
  }
  if (narr > GA_IX_MAXOP) ga_error(L, "%s: more than %d non-raw array arguments", k->name, GA_IX_MAXOP);
  if (nb > 0 && size >= 0) ga_error(L, "%s: size must not be given when there are non-raw array arguments", k->name);
  if (nb == 0 && size < 0) ga_error(L, "%s: the size option is required when no argument is a non-raw array", k->name);
  for (int j = nin; j < np; j++)
    if (!bd.a[j] && c.kind[j] == GA_EW_RAW && size < 0)
      ga_error(L, "%s: raw output %s needs the size option or an output array", k->name, param_at(k, j)->name);
  c.param_name = ek_param_name;
  c.size = size;
  c.reduce_dims = k->reduce_dims;
  c.allow_vin = !k->raw_views;
  c.copy_overlaps = 0;             /* CuPy's kernels read and write as written */
  c.block = block;
  c.stream = stream;
  c.cache = &k->cache;
  make_key(k, &bd, c.kind, c.key);
  c.make_spec = ek_spec;
  ek_call ec = {k, &bd};
  c.ud = &ec;
  c.L = L;
  c.loop = 0;
  c.nopts = k->nopts;
  c.opts = k->opts;
  lua_settop(L, top);
  ga_ew_run(L, ctx, &c);
  if (k->no_return) return 0;
  for (int j = nin; j < np; j++) lua_pushvalue(L, c.outidx[j]);
  return np - nin;
}

/* ===================================================================== */
/* fields and test hooks                                                 */
/* ===================================================================== */

static const char *dtype_field(lua_State *L, int t, int i, const char *key) {
  if (lua_getfield(L, t, key) == LUA_TNIL) { lua_pop(L, 1); return NULL; }
  lua_rawgeti(L, -1, i);
  const char *s = lua_tostring(L, -1);
  lua_pop(L, 2);
  return s;
}

/* Push the source of variant v for the dtypes bd binds (the source hook and
** compile show and compile what a call would) */
static void push_generated(lua_State *L, const ga_ek *k, const binding *bd, const int *kind,
                           const ga_ewvariant *v) {
  ga_buf td, src;
  ga_buf_init(&td);
  ga_typemap_typedefs(&bd->tm, &td);
  ga_ewspec spec;
  make_spec(k, bd, kind, &spec, td.s);
  ga_buf_init(&src);
  ga_ew_generate(&spec, v, &src);
  ga_buf_free(&td);
  lua_pushlstring(L, src.s, src.len);
  ga_buf_free(&src);
}

/* core._test.elementwise_kernel_source(k, {types = {dtype per parameter}, scalar = {[j] = true},
** layout = "flat"|"strided"|"vin", vec =, nd =, idx64 =, raw_nd = {[j] = nd},
** raw_contig = {[j] = bool}} -> source, {NVRTC options}: the code a call
** with those arguments would compile, for specs without a GPU */
static int l_ek_source(lua_State *L) {
  ga_ek *k = check_ek(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  binding bd;
  int kind[GA_MAXPARAMS];
  memset(&bd, 0, sizeof bd);
  bd.nin = k->in.n;
  bd.np = k->in.n + k->out.n;
  ga_typemap_init(&bd.tm);
  ga_array fake[GA_MAXPARAMS];
  for (int j = 0; j < bd.np; j++) {
    const ga_param *p = param_at(k, j);
    const char *tn = dtype_field(L, 2, j + 1, "types");
    int t = tn ? ga_dtype_lookup(tn) : -1;
    if (t < 0) ga_error(L, "_source: types[%d] is not a dtype", j + 1);
    bind_strong(L, k, &bd, j, t);
    bd.dtype[j] = t;
    const char *sc = NULL;
    if (lua_getfield(L, 2, "scalar") == LUA_TTABLE) {
      lua_rawgeti(L, -1, j + 1);
      sc = lua_toboolean(L, -1) ? "y" : NULL;
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    kind[j] = p->raw ? GA_EW_RAW : sc && j < bd.nin ? GA_EW_SCALAR : GA_EW_ARRAY;
    memset(&fake[j], 0, sizeof fake[j]);
    fake[j].ndim = 1;
    fake[j].flags = GA_F_C;
    if (kind[j] == GA_EW_RAW) {
      if (lua_getfield(L, 2, "raw_nd") == LUA_TTABLE && lua_rawgeti(L, -1, j + 1) == LUA_TNUMBER)
        fake[j].ndim = (int)lua_tointeger(L, -1);
      lua_settop(L, 2);
      if (lua_getfield(L, 2, "raw_contig") == LUA_TTABLE && lua_rawgeti(L, -1, j + 1) == LUA_TBOOLEAN &&
          !lua_toboolean(L, -1))
        fake[j].flags = 0;
      lua_settop(L, 2);
      bd.a[j] = &fake[j];
    }
  }
  ga_ewvariant v;
  memset(&v, 0, sizeof v);
  lua_getfield(L, 2, "layout");
  const char *layout = luaL_optstring(L, -1, "flat");
  v.cls = strcmp(layout, "strided") == 0 ? GA_EW_STRIDED : strcmp(layout, "vin") == 0 ? GA_EW_VIN : GA_EW_FLAT;
  lua_getfield(L, 2, "vec");
  v.vec = (int)luaL_optinteger(L, -1, 4);
  lua_getfield(L, 2, "nd");
  v.nd = (int)luaL_optinteger(L, -1, 2);
  lua_getfield(L, 2, "idx64");
  v.idx64 = lua_toboolean(L, -1);
  lua_getfield(L, 2, "bmask");
  v.bmask = (uint32_t)luaL_optinteger(L, -1, 0);
  v.unroll = v.cls == GA_EW_FLAT ? GA_EW_FLAT_UNROLL : v.cls == GA_EW_STRIDED ? GA_EW_STRIDED_UNROLL : 1;
  lua_settop(L, 2);
  push_generated(L, k, &bd, kind, &v);
  lua_createtable(L, k->nopts, 0);
  for (int i = 0; i < k->nopts; i++) {
    lua_pushstring(L, k->opts[i]);
    lua_rawseti(L, -2, i + 1);
  }
  return 2;
}

/* k:compile(dtype...): compile for these argument dtypes (one per input,
** or per input and output) without running, so that prototyping finds
** compile errors early: NVRTC needs no GPU. What is compiled is the
** variant a call on C-contiguous arrays takes (ga_ew_layout decides, as
** for a call); with a device the program cache then serves that call.
** Returns k. */
static int l_ek_compile(lua_State *L) {
  ga_ek *k = check_ek(L, 1);
  binding bd;
  memset(&bd, 0, sizeof bd);
  bd.nin = k->in.n;
  bd.np = k->in.n + k->out.n;
  ga_typemap_init(&bd.tm);
  int given[GA_MAXPARAMS], kind[GA_MAXPARAMS];
  ga_compile_dtypes(L, k->name, bd.nin, k->out.n, given);
  for (int j = bd.nin; j < bd.np; j++)     /* outputs first, as a call binds */
    if (given[j] >= 0) bind_strong(L, k, &bd, j, given[j]);
  for (int j = 0; j < bd.nin; j++) bind_strong(L, k, &bd, j, given[j]);
  ga_array fake[GA_MAXPARAMS];
  ga_ewiter it;
  memset(&it, 0, sizeof it);
  it.ndim = 1;
  it.shape[0] = it.n = 1 << 20;
  it.contiguous = 1;
  for (int j = 0; j < bd.np; j++) {
    const ga_param *p = param_at(k, j);
    bd.dtype[j] = ga_param_dtype(p, &bd.tm);
    if (bd.dtype[j] < 0)
      ga_error(L, "compile: %s: placeholder type %s (of output %s) is not bound by the inputs: give the output "
               "dtypes too", k->name, p->type, p->name);
    kind[j] = p->raw ? GA_EW_RAW : GA_EW_ARRAY;
    memset(&fake[j], 0, sizeof fake[j]);
    fake[j].ndim = 1;
    fake[j].flags = GA_F_C;
    if (p->raw) {
      bd.a[j] = &fake[j];
      continue;
    }
    if (it.narr == GA_IX_MAXOP) ga_error(L, "%s: more than %d non-raw array arguments", k->name, GA_IX_MAXOP);
    it.ptr[it.narr] = (char *)(uintptr_t)256;     /* aligned, as the pool's blocks */
    it.itemsize[it.narr] = ga_dtypes[bd.dtype[j]].itemsize;
    it.out[it.narr++] = j >= bd.nin;
  }
  ga_ewvariant v;
  ga_ixbuf ix;
  int64_t count;
  ga_ew_layout(&it, k->reduce_dims, !k->raw_views, &v, &ix, &count);
  push_generated(L, k, &bd, kind, &v);
  ga_program_prepare(L, "ElementwiseKernel", k->name, k->nopts, k->opts);
  lua_settop(L, 1);
  return 1;
}

static int l_ek_index(lua_State *L) {
  ga_ek *k = check_ek(L, 1);
  const char *key = ga_checkstring(L, 2, "ElementwiseKernel", "a field name");
  if (strcmp(key, "nin") == 0) lua_pushinteger(L, k->in.n);
  else if (strcmp(key, "nout") == 0) lua_pushinteger(L, k->out.n);
  else if (strcmp(key, "nargs") == 0) lua_pushinteger(L, k->in.n + k->out.n);
  else if (strcmp(key, "compile") == 0) lua_pushcfunction(L, l_ek_compile);
  else if (strcmp(key, "no_return") == 0) lua_pushboolean(L, k->no_return);
  else if (strcmp(key, "reduce_dims") == 0) lua_pushboolean(L, k->reduce_dims);
  else {
    lua_getiuservalue(L, 1, 1);
    lua_getfield(L, -1, key);   /* name, operation, in_params, out_params, preamble, ... */
  }
  return 1;
}

static int l_ek_tostring(lua_State *L) {
  ga_ek *k = check_ek(L, 1);
  lua_pushfstring(L, "gpuarray.ElementwiseKernel(%s)", k->name);
  return 1;
}

static const luaL_Reg ek_meta[] = {
  {"__index", l_ek_index},
  {"__gc", l_ek_gc},
  {"__tostring", l_ek_tostring},
  {NULL, NULL}
};

static const luaL_Reg ek_funcs[] = {
  {"ElementwiseKernel", l_ek_new},
  {NULL, NULL}
};

static const luaL_Reg ek_funcs_test[] = {
  {"ew_layout", ga_l_ew_layout},
  {"elementwise_kernel_source", l_ek_source},
  {NULL, NULL}
};

void ga_open_elementwise(lua_State *L) {
  luaL_newmetatable(L, EK_MT);
  ga_setfuncs(L, ek_meta);
  ga_state_push(L);
  lua_pushvalue(L, -2);
  lua_pushcclosure(L, l_ek_call, 2);   /* upvalues: the context, the metatable */
  lua_setfield(L, -2, "__call");
  lua_pop(L, 1);
  ga_setfuncs(L, ek_funcs);
  ga_setprivate(L, GA_TEST, ek_funcs_test);
}
