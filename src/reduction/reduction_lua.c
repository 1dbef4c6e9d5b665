/*
** reduction_lua.c: what Lua sees of the reduction engine.
**   - built-in reductions: lua/gpuarray/reductions.lua describes each one as
**     data (expressions, and per input dtype the reduce type and the result
**     dtype); core.reduction.builtin(def) turns it into one C closure that
**     serves both ga.sum(x, opts) and x:sum(axis, opts). The hot path
**     (x:sum(), x:sum(2)) reads no Lua table and calls no binder; any other
**     call goes through the binder with the definition's declaration
**     (NumPy's keyword names, types, unknown keys, surplus arguments).
**   - ga.ReductionKernel(in_params, out_params, map, reduce, post_map,
**     identity, name[, opts]): CuPy's user reduction kernels.
**   - test hooks for CI: the source of any variant without a device.
*/
#include <ctype.h>
#include <string.h>

#include "api/api.h"
#include "reduction/reduction.h"

#define GA_REDKERNEL_MT "gpuarray.ReductionKernel"
#define MAXOPTS 32

/* ===================================================================== */
/* options shared by both front ends                                     */
/* ===================================================================== */

typedef struct {
  int axis_idx;      /* stack index of the axis argument, 0: all axes */
  int keepdims;
  int dtype;         /* -1: none */
  ga_array *out;
  int out_idx;
  double ddof;
} red_opts;

static int is_array_at(lua_State *L, int idx) { return ga_toarray(L, idx) != NULL; }

/* Fields of the options table at idx; pushes the axis value if it is there */
static void read_opts(lua_State *L, int idx, red_opts *o, const char *fname) {
  if (!idx) return;
  if (lua_getfield(L, idx, "axis") != LUA_TNIL) {
    if (o->axis_idx) ga_error(L, "%s: axis given twice (argument and option)", fname);
    o->axis_idx = lua_gettop(L);
  } else {
    lua_pop(L, 1);
  }
  lua_getfield(L, idx, "keepdims");
  o->keepdims = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (lua_getfield(L, idx, "dtype") != LUA_TNIL) {
    o->dtype = ga_checkdtype(L, lua_gettop(L), -1, fname);
  }
  lua_pop(L, 1);
  if (lua_getfield(L, idx, "out") != LUA_TNIL) {
    o->out = ga_toarray(L, -1);
    if (!o->out) ga_error(L, "%s: out must be an ndarray, got %s", fname, luaL_typename(L, -1));
    ga_checkarray(L, -1);
    o->out_idx = lua_gettop(L);    /* stays on the stack */
  } else {
    lua_pop(L, 1);
  }
  if (lua_getfield(L, idx, "ddof") != LUA_TNIL) {
    int isnum;
    o->ddof = lua_tonumberx(L, -1, &isnum);
    if (!isnum) ga_error(L, "%s: ddof must be a number", fname);
  }
  lua_pop(L, 1);
}

static void check_out_shape(lua_State *L, const ga_array *out, int nd, const int64_t *shape,
                            const char *fname) {
  int same = out->ndim == nd;
  for (int d = 0; same && d < nd; d++) same = out->shape[d] == shape[d];
  if (!same)
    ga_error(L, "%s: out has shape %s, the result has shape %s", fname, ga_shape_str(L, out->ndim, out->shape),
             ga_shape_str(L, nd, shape));
}

static int64_t reduced_size(int nd, const int64_t *shape, uint32_t axes) {
  int64_t n = 1;
  for (int d = 0; d < nd; d++)
    if (axes & (1u << d)) n *= shape[d];
  return n;
}

/* ===================================================================== */
/* built-in reductions                                                   */
/* ===================================================================== */

typedef struct {
  const char *name, *kname, *map, *reduce, *later, *post, *identity, *empty_msg;
  const char *acc_ct[GA_NDTYPES];
  int acc_size[GA_NDTYPES], out_dt[GA_NDTYPES];
  const char *dacc_ct[GA_NDTYPES];
  int dacc_size[GA_NDTYPES], dout_dt[GA_NDTYPES];
  int has_dtype, single_axis, ddof, index;
  uint64_t hash;
  const ga_decl *decl;       /* the public declaration (anchored by the definition table) */
  int p_axis, p_dtype, p_out, p_keepdims, p_ddof;   /* its parameters' positions, -1: none */
} red_builtin;

static const char *opt_string(lua_State *L, int t, const char *key, int required) {
  lua_getfield(L, t, key);
  const char *s = lua_tostring(L, -1);      /* anchored by the definition table */
  lua_pop(L, 1);
  if (!s && required) ga_error(L, "_reduction_builtin: field '%s' is required", key);
  return s;
}

/* types[dtype name] = {acc C type, result dtype name, acc size} */
static int read_types(lua_State *L, int t, const char *key, const char **ct, int *size, int *out) {
  for (int d = 0; d < GA_NDTYPES; d++) ct[d] = NULL;
  if (lua_getfield(L, t, key) != LUA_TTABLE) {
    lua_pop(L, 1);
    return 0;
  }
  int tt = lua_gettop(L);
  for (int d = 0; d < GA_NDTYPES; d++) {
    if (lua_getfield(L, tt, ga_dtypes[d].name) == LUA_TTABLE) {
      lua_rawgeti(L, -1, 1);
      lua_rawgeti(L, -2, 2);
      lua_rawgeti(L, -3, 3);
      ct[d] = lua_tostring(L, -3);
      out[d] = lua_isstring(L, -2) ? ga_dtype_lookup(lua_tostring(L, -2)) : -1;
      size[d] = (int)lua_tointeger(L, -1);
      if (!ct[d] || out[d] < 0) ga_error(L, "_reduction_builtin: bad %s entry for %s", key, ga_dtypes[d].name);
      lua_pop(L, 3);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return 1;
}

/* The code of one call of a built-in, given the dtypes */
static void builtin_code(const red_builtin *bi, int in_dt, int over, int out_dt, ga_red_code *c) {
  memset(c, 0, sizeof *c);
  c->name = bi->name;
  c->kname = bi->kname;
  c->map = bi->map;
  c->reduce = bi->reduce;
  c->later = bi->later;
  c->post = bi->post;
  c->identity = bi->identity;
  c->reduce_type = over >= 0 ? bi->dacc_ct[over] : bi->acc_ct[in_dt];
  c->acc_size = over >= 0 ? bi->dacc_size[over] : bi->acc_size[in_dt];
  c->uses_index = bi->index;
  c->hash = bi->hash;
  int n = 0;
  c->arg[n++] = (ga_red_arg){ "in0", in_dt, 1, 0 };
  if (bi->ddof) c->arg[n++] = (ga_red_arg){ "_ddof", GA_FLOAT64, 0, 0 };
  c->arg[n++] = (ga_red_arg){ "out0", out_dt, 1, 1 };
  c->narg = n;
}

/* The value of bound parameter p (pushed by ga_api_bind from base), or
** none: the index of an empty slot past the top (read it with
** lua_isnoneornil: lua_isnil is false there) */
static int bound_at(lua_State *L, int base, int p) { return p < 0 ? lua_gettop(L) + 1 : base + p; }

/* f(x[, axis][, opts]): x:sum() and x:sum(2) read their two arguments
** directly; everything else is bound by the declaration */
static int l_builtin_call(lua_State *L) {
  const red_builtin *bi = (const red_builtin *)lua_touserdata(L, lua_upvalueindex(2));
  const char *fname = bi->name;
  ga_state *ctx = ga_ctx(L);
  int top = lua_gettop(L), t2 = lua_type(L, 2);
  if (ctx->tracing && !ga_toarray(L, 1)) {   /* ga.fuse is recording (base.h: ga_trace_offer) */
    lua_pushstring(L, fname);
    int n = ga_trace_offer(L, "reduce", top + 1, 1, top);
    if (n >= 0) return n;
    lua_settop(L, top);
  }
  red_opts o = { 0, 0, -1, NULL, 0, 0.0 };
  ga_array *x;
  int x_idx = 1;
  if (top <= 2 && (t2 == LUA_TNONE || t2 == LUA_TNIL || t2 == LUA_TNUMBER) && (x = ga_toarray(L, 1))) {
    if (t2 == LUA_TNUMBER) o.axis_idx = 2;
  } else {
    int base = top + 1;
    ga_api_bind(L, bi->decl, fname, 1, top);
    x_idx = base;
    x = ga_toarray(L, base);
    if (!x) return ga_error(L, "%s: expected an ndarray, got %s", fname, luaL_typename(L, base));
    int ai = bound_at(L, base, bi->p_axis);
    if (!lua_isnoneornil(L, ai)) o.axis_idx = ai;
    int di = bound_at(L, base, bi->p_dtype);
    if (!lua_isnoneornil(L, di)) o.dtype = ga_checkdtype(L, di, -1, fname);
    int oi = bound_at(L, base, bi->p_out);
    if (!lua_isnoneornil(L, oi)) {
      o.out = ga_checkarray(L, oi);
      o.out_idx = oi;
    }
    o.keepdims = lua_toboolean(L, bound_at(L, base, bi->p_keepdims));
    int ddi = bound_at(L, base, bi->p_ddof);
    if (!lua_isnoneornil(L, ddi)) o.ddof = lua_tonumber(L, ddi);
  }
  ga_readarray(L, x_idx);
  if (bi->single_axis && o.axis_idx && lua_type(L, o.axis_idx) != LUA_TNUMBER)
    return ga_error(L, "%s: axis must be an integer, got %s", fname, luaL_typename(L, o.axis_idx));
  uint32_t axes = ga_red_axes(L, o.axis_idx ? o.axis_idx : lua_gettop(L) + 1, x->ndim, fname);

  int in_dt = x->dtype, out_dt;
  if (o.dtype >= 0) {
    if (!bi->dacc_ct[o.dtype])
      return ga_error(L, "%s: dtype %s is not supported", fname, ga_dtypes[o.dtype].name);
    out_dt = bi->dout_dt[o.dtype];
  } else {
    if (!bi->acc_ct[in_dt])
      return ga_error(L, "%s: not supported for %s arrays", fname, ga_dtypes[in_dt].name);
    out_dt = bi->out_dt[in_dt];
  }
  int64_t oshape[GA_MAXDIM];
  int ond = ga_red_out_shape(x->ndim, x->shape, axes, o.keepdims, oshape);
  if (bi->empty_msg && reduced_size(x->ndim, x->shape, axes) == 0 && ga_shape_size(ond, oshape) != 0)
    return ga_error(L, "%s: %s", fname, bi->empty_msg);
  ga_array *out;
  int out_idx;
  if (o.out) {
    check_out_shape(L, o.out, ond, oshape, fname);
    out = o.out;
    out_idx = o.out_idx;
    ga_check_device(L, ctx, out, fname);
  } else {
    out = ga_new_array(L, ctx, out_dt, ond, oshape);
    out_idx = lua_gettop(L);
  }
  ga_red_code code;
  builtin_code(bi, in_dt, o.dtype, out->dtype, &code);
  ga_red_call call;
  call.code = &code;
  call.ndim = x->ndim;
  memcpy(call.shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
  call.axes = axes;
  call.keepdims = o.keepdims;
  call.accsel = o.dtype >= 0 ? 32 + o.dtype : in_dt;
  int n = 0;
  call.arr[n++] = x;
  if (bi->ddof) {
    call.arr[n] = NULL;
    call.val[n++].f64 = o.ddof;
  }
  call.arr[n++] = out;
  ga_reduce(L, ctx, &call);
  lua_pushvalue(L, out_idx);
  return 1;
}

static int l_reduction_builtin(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  red_builtin *bi = (red_builtin *)lua_newuserdatauv(L, sizeof *bi, 0);
  memset(bi, 0, sizeof *bi);
  bi->name = opt_string(L, 1, "name", 1);
  bi->kname = opt_string(L, 1, "kname", 1);
  bi->map = opt_string(L, 1, "map", 1);
  bi->reduce = opt_string(L, 1, "reduce", 1);
  bi->later = opt_string(L, 1, "later", 0);
  bi->post = opt_string(L, 1, "post", 1);
  bi->identity = opt_string(L, 1, "identity", 0);
  bi->empty_msg = opt_string(L, 1, "empty", 0);
  read_types(L, 1, "types", bi->acc_ct, bi->acc_size, bi->out_dt);
  bi->has_dtype = read_types(L, 1, "dtypes", bi->dacc_ct, bi->dacc_size, bi->dout_dt);
  lua_getfield(L, 1, "single_axis");
  bi->single_axis = lua_toboolean(L, -1);
  lua_getfield(L, 1, "ddof");
  bi->ddof = lua_toboolean(L, -1);
  lua_getfield(L, 1, "index");
  bi->index = lua_toboolean(L, -1);
  lua_pop(L, 3);
  if (lua_getfield(L, 1, "decl") == LUA_TNIL) ga_error(L, "_reduction_builtin: field 'decl' is required");
  bi->decl = ga_api_checkdecl(L, -1, "_reduction_builtin");
  lua_pop(L, 1);
  bi->p_axis = ga_decl_find(bi->decl, "axis");
  bi->p_dtype = ga_decl_find(bi->decl, "dtype");
  bi->p_out = ga_decl_find(bi->decl, "out");
  bi->p_keepdims = ga_decl_find(bi->decl, "keepdims");
  bi->p_ddof = ga_decl_find(bi->decl, "ddof");
  if (bi->p_axis < 0 || (bi->has_dtype && bi->p_dtype < 0) || (bi->ddof && bi->p_ddof < 0))
    ga_error(L, "_reduction_builtin %s: the declaration lacks a parameter the reduction takes", bi->name);
  ga_red_code tmpl;
  builtin_code(bi, GA_FLOAT64, -1, GA_FLOAT64, &tmpl);
  tmpl.reduce_type = "";
  bi->hash = ga_red_hash(&tmpl);
  /* the closure: context, the definition, the table that anchors its strings */
  ga_state_push(L);
  lua_pushvalue(L, -2);
  lua_pushvalue(L, 1);
  lua_pushcclosure(L, l_builtin_call, 3);
  return 1;
}

/* ===================================================================== */
/* ReductionKernel                                                       */
/* ===================================================================== */

typedef struct {
  ga_paramlist in, out;
  const char *name, *map, *reduce, *post, *identity, *reduce_type, *preamble;
  int nopts;
  const char *opts[MAXOPTS];
  int uses_index;
  uint64_t hash;
} red_kernel;

static int is_identifier(const char *s) {
  if (!*s || !(isalpha((unsigned char)*s) || *s == '_')) return 0;
  for (; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_')) return 0;
  return 1;
}

/* Does the C expression s use identifier id? */
static int uses_ident(const char *s, const char *id) {
  size_t n = strlen(id);
  for (const char *p = strstr(s, id); p; p = strstr(p + 1, id)) {
    int before = p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
    int after = isalnum((unsigned char)p[n]) || p[n] == '_';
    if (!before && !after) return 1;
  }
  return 0;
}

/* sizeof a reduce type named in source, when it is a dtype or a plain C type */
static int known_size(const char *type, const ga_typemap *tm) {
  int t = ga_dtype_lookup(type);
  if (t < 0 && tm) t = ga_typemap_get(tm, type);
  if (t >= 0) return ga_dtypes[t].itemsize;
  static const struct { const char *name; int size; } c_types[] = {
    {"float", 4}, {"double", 8}, {"int", 4}, {"unsigned", 4}, {"unsigned int", 4},
    {"long long", 8}, {"unsigned long long", 8}, {"bool", 1}, {"short", 2}, {"char", 1},
    {"signed char", 1}, {"unsigned char", 1}, {"unsigned short", 2}, {"size_t", 8}, {"ptrdiff_t", 8},
  };
  for (size_t i = 0; i < sizeof c_types / sizeof c_types[0]; i++)
    if (strcmp(type, c_types[i].name) == 0) return c_types[i].size;
  return 0;
}

static red_kernel *check_kernel(lua_State *L, int idx) {
  return (red_kernel *)luaL_checkudata(L, idx, GA_REDKERNEL_MT);
}

/* Anchor the string at idx in the uservalue table at t; returns it. Its
** text goes into the kernel's source as a C string: no NUL inside. */
static const char *keep_string(lua_State *L, int t, int idx, const char *name, const char *what) {
  lua_pushvalue(L, idx);
  const char *s = lua_tostring(L, -1);
  ga_checkstring(L, -1, name, what);
  lua_rawseti(L, t, (lua_Integer)luaL_len(L, t) + 1);
  return s;
}

/* ga.ReductionKernel(in_params, out_params, map, reduce, post, identity, name[, opts]) */
static int l_reduction_kernel(lua_State *L) {
  const char *name = lua_isnoneornil(L, 7) ? "reduce_kernel" : ga_checkstring(L, 7, "ReductionKernel", "name");
  if (!is_identifier(name)) ga_error(L, "ReductionKernel: invalid kernel name '%s'", name);
  for (int i = 1; i <= 5; i++)
    if (lua_type(L, i) != LUA_TSTRING)
      ga_error(L, "%s: argument %d must be a string, got %s", name, i, luaL_typename(L, i));
  ga_checkstring(L, 1, name, "in_params");
  ga_checkstring(L, 2, name, "out_params");
  if (!lua_isnoneornil(L, 6) && lua_type(L, 6) != LUA_TSTRING && lua_type(L, 6) != LUA_TNUMBER)
    ga_error(L, "%s: identity must be a string, a number or nil", name);
  if (!lua_isnoneornil(L, 8) && !lua_istable(L, 8))
    ga_error(L, "%s: options must be a table, got %s", name, luaL_typename(L, 8));
  lua_settop(L, 8);
  red_kernel *k = (red_kernel *)lua_newuserdatauv(L, sizeof *k, 1);
  memset(k, 0, sizeof *k);
  luaL_setmetatable(L, GA_REDKERNEL_MT);
  int ud = lua_gettop(L);
  lua_newtable(L);
  int t = lua_gettop(L);
  ga_kernel_params(L, lua_tostring(L, 1), lua_tostring(L, 2), &k->in, &k->out, name);
  if (k->out.n == 0) ga_error(L, "%s: needs at least one output parameter", name);
  if (k->in.n + k->out.n > GA_RED_MAXARGS) ga_error(L, "%s: more than %d parameters", name, GA_RED_MAXARGS);
  for (int i = 0; i < k->in.n; i++)
    if (k->in.p[i].raw) ga_error(L, "%s: raw parameters are not supported by ReductionKernel ('%s')", name,
                                 k->in.p[i].name);
  for (int i = 0; i < k->out.n; i++)
    if (k->out.p[i].raw) ga_error(L, "%s: raw parameters are not supported by ReductionKernel ('%s')", name,
                                  k->out.p[i].name);
  k->map = keep_string(L, t, 3, name, "map_expr");
  k->reduce = keep_string(L, t, 4, name, "reduce_expr");
  k->post = keep_string(L, t, 5, name, "post_map_expr");
  k->identity = lua_isnil(L, 6) ? NULL : keep_string(L, t, 6, name, "identity");
  lua_pushstring(L, name);
  k->name = keep_string(L, t, -1, name, "name");
  lua_pop(L, 1);
  k->preamble = "";
  if (!lua_isnil(L, 8)) {
    if (lua_getfield(L, 8, "reduce_type") != LUA_TNIL) {
      if (lua_type(L, -1) != LUA_TSTRING) ga_error(L, "%s: reduce_type must be a string", name);
      k->reduce_type = keep_string(L, t, -1, name, "reduce_type");
    }
    lua_pop(L, 1);
    if (lua_getfield(L, 8, "preamble") != LUA_TNIL) {
      if (lua_type(L, -1) != LUA_TSTRING) ga_error(L, "%s: preamble must be a string", name);
      k->preamble = keep_string(L, t, -1, name, "preamble");
    }
    lua_pop(L, 1);
    int ot = lua_getfield(L, 8, "options");
    if (ot == LUA_TSTRING) {
      k->opts[k->nopts++] = keep_string(L, t, -1, name, "an NVRTC option");
    } else if (ot == LUA_TTABLE) {
      int n = (int)luaL_len(L, -1);
      if (n > MAXOPTS) ga_error(L, "%s: more than %d options", name, MAXOPTS);
      for (int i = 1; i <= n; i++) {
        if (lua_geti(L, -1, i) != LUA_TSTRING) ga_error(L, "%s: options: item %d is not a string", name, i);
        k->opts[k->nopts++] = keep_string(L, t, -1, name, "an NVRTC option");
        lua_pop(L, 1);
      }
    } else if (ot != LUA_TNIL) {
      ga_error(L, "%s: options must be a string or a list of strings", name);
    }
    lua_pop(L, 1);
  }
  if (!k->reduce_type) k->reduce_type = k->out.p[0].type;
  k->uses_index = uses_ident(k->map, "_i") || uses_ident(k->map, "_j") || uses_ident(k->post, "_i");
  lua_setiuservalue(L, ud, 1);
  /* the definition's hash, with the argument names */
  ga_red_code tmpl;
  memset(&tmpl, 0, sizeof tmpl);
  tmpl.name = tmpl.kname = k->name;
  tmpl.map = k->map;
  tmpl.reduce = k->reduce;
  tmpl.post = k->post;
  tmpl.identity = k->identity;
  tmpl.reduce_type = k->reduce_type;
  tmpl.preamble = k->preamble;
  tmpl.with_math = 1;
  tmpl.nopts = k->nopts;
  tmpl.opts = k->opts;
  for (int i = 0; i < k->in.n; i++) tmpl.arg[tmpl.narg++] = (ga_red_arg){ k->in.p[i].name, 0, 1, 0 };
  for (int i = 0; i < k->out.n; i++) tmpl.arg[tmpl.narg++] = (ga_red_arg){ k->out.p[i].name, 0, 1, 1 };
  k->hash = ga_red_hash(&tmpl);
  lua_settop(L, ud);
  return 1;
}

static int mentions(const char *s, const char *what) { return s && strstr(s, what) != NULL; }

/* math.cuh costs NVRTC ~10 ms to parse: only for kernels that can use it
** (a complex value, or a ga_ helper or "complex" named in the code) */
static int needs_math(const red_kernel *k, const int *dt, int narg) {
  for (int i = 0; i < narg; i++)
    if (GA_IS_COMPLEX(dt[i])) return 1;
  const char *code[] = {k->map, k->reduce, k->post, k->identity, k->reduce_type, k->preamble};
  for (int i = 0; i < 6; i++)
    if (mentions(code[i], "ga_") || mentions(code[i], "complex")) return 1;
  return 0;
}

/* The code of a call once every argument's dtype is known */
static void kernel_code(const red_kernel *k, const ga_typemap *tm, const int *dt, const int *is_array,
                        ga_red_code *c) {
  memset(c, 0, sizeof *c);
  c->name = c->kname = k->name;
  c->map = k->map;
  c->reduce = k->reduce;
  c->post = k->post;
  c->identity = k->identity;
  c->reduce_type = k->reduce_type;
  c->typemap = tm;
  c->with_math = needs_math(k, dt, k->in.n + k->out.n);
  c->preamble = k->preamble;
  c->nopts = k->nopts;
  c->opts = k->opts;
  c->acc_size = known_size(k->reduce_type, tm);
  c->uses_index = k->uses_index;
  c->hash = k->hash;
  for (int i = 0; i < k->in.n; i++) c->arg[c->narg++] = (ga_red_arg){ k->in.p[i].name, dt[i], is_array[i], 0 };
  for (int i = 0; i < k->out.n; i++)
    c->arg[c->narg++] = (ga_red_arg){ k->out.p[i].name, dt[k->in.n + i], 1, 1 };
}

/* Bind a placeholder or check a fixed dtype against an array argument */
static void bind_array(lua_State *L, const red_kernel *k, const ga_param *p, int dtype, ga_typemap *tm) {
  if (p->dtype >= 0) {
    if (p->dtype != dtype)
      ga_error(L, "%s: argument '%s' has dtype %s, the kernel takes %s", k->name, p->name,
               ga_dtypes[dtype].name, ga_dtypes[p->dtype].name);
  } else if (!ga_typemap_bind(tm, p->type, dtype)) {
    ga_error(L, "%s: argument '%s' has dtype %s, but %s is already %s", k->name, p->name, ga_dtypes[dtype].name,
             p->type, ga_dtypes[ga_typemap_get(tm, p->type)].name);
  }
}

/* k(x, ...[, outs...][, {axis=, keepdims=, out=}]) */
static int l_kernel_call(lua_State *L) {
  red_kernel *k = check_kernel(L, 1);
  ga_state *ctx = ga_ctx(L);
  const char *fname = k->name;
  luaL_checkstack(L, GA_RED_MAXARGS + 8, "ReductionKernel outputs");
  int first = 2, n = lua_gettop(L) - 1, opts_idx = 0;
  if (n > 0 && lua_type(L, first + n - 1) == LUA_TTABLE && !is_array_at(L, first + n - 1)) {
    opts_idx = first + n - 1;
    n--;
  }
  int nin = k->in.n, nout = k->out.n;
  if (n != nin && n != nin + nout)
    return ga_error(L, "%s: takes %d argument%s (or %d with the outputs), got %d", fname, nin, nin == 1 ? "" : "s",
                    nin + nout, n);
  red_opts o = { 0, 0, -1, NULL, 0, 0.0 };
  read_opts(L, opts_idx, &o, fname);
  int out_idx[GA_RED_MAXARGS];
  for (int m = 0; m < nout; m++) out_idx[m] = n > nin ? first + nin + m : 0;
  if (o.out) {
    if (nout != 1) ga_error(L, "%s: the out option needs exactly one output parameter", fname);
    if (n > nin) ga_error(L, "%s: out given both as an argument and as an option", fname);
    out_idx[0] = o.out_idx;
  }
  /* types: outputs given, then input arrays, then scalars */
  ga_typemap tm;
  ga_typemap_init(&tm);
  int dt[GA_RED_MAXARGS], is_arr[GA_RED_MAXARGS];
  for (int m = 0; m < nout; m++) {
    if (!out_idx[m]) continue;
    ga_array *a = ga_toarray(L, out_idx[m]);
    if (!a) ga_error(L, "%s: output '%s' must be an ndarray, got %s", fname, k->out.p[m].name,
                     luaL_typename(L, out_idx[m]));
    ga_checkarray(L, out_idx[m]);
    bind_array(L, k, &k->out.p[m], a->dtype, &tm);
  }
  for (int i = 0; i < nin; i++) {
    ga_array *a = ga_toarray(L, first + i);
    is_arr[i] = a != NULL;
    if (a) {
      ga_readarray(L, first + i);
      bind_array(L, k, &k->in.p[i], a->dtype, &tm);
    }
  }
  ga_red_call call;
  for (int i = 0; i < nin; i++) {
    if (is_arr[i]) {
      dt[i] = ga_param_dtype(&k->in.p[i], &tm);
      call.arr[i] = ga_readarray(L, first + i);
      continue;
    }
    int t = ga_param_dtype(&k->in.p[i], &tm);
    if (t < 0) {      /* unlike CuPy: a scalar binds a placeholder no array binds */
      ga_scalar *s = ga_toscalar(L, first + i);
      char kind = s ? 0 : ga_scalar_kind(L, first + i);
      if (!s && !kind)
        ga_error(L, "%s: argument '%s' must be an ndarray or a scalar, got %s", fname, k->in.p[i].name,
                 luaL_typename(L, first + i));
      t = s ? s->dtype : (int)ga_default_for_kind(kind);
      ga_typemap_bind(&tm, k->in.p[i].type, t);
    }
    dt[i] = t;
    call.arr[i] = NULL;
    ga_checkvalue(L, first + i, t, &call.val[i], fname);
  }
  for (int m = 0; m < nout; m++) {
    int t = out_idx[m] ? ga_toarray(L, out_idx[m])->dtype : ga_param_dtype(&k->out.p[m], &tm);
    if (t < 0) ga_error(L, "%s: cannot tell the dtype of output '%s' (%s is not bound by any input)", fname,
                        k->out.p[m].name, k->out.p[m].type);
    dt[nin + m] = t;
  }
  /* shapes */
  int nd = 0, nb = 0, ndims[GA_RED_MAXARGS];
  const int64_t *shapes[GA_RED_MAXARGS];
  int64_t shape[GA_MAXDIM];
  for (int i = 0; i < nin; i++) {
    if (!is_arr[i]) continue;
    ndims[nb] = call.arr[i]->ndim;
    shapes[nb++] = call.arr[i]->shape;
  }
  if (nb == 0) ga_error(L, "%s: needs at least one ndarray input", fname);
  int bad = ga_broadcast(nb, ndims, shapes, &nd, shape);
  if (bad >= 0)
    ga_error(L, "%s: input shapes cannot be broadcast together (%s against the others)", fname,
             ga_shape_str(L, ndims[bad], shapes[bad]));
  uint32_t axes = ga_red_axes(L, o.axis_idx ? o.axis_idx : lua_gettop(L) + 1, nd, fname);
  int64_t oshape[GA_MAXDIM];
  int ond = ga_red_out_shape(nd, shape, axes, o.keepdims, oshape);
  if (!k->identity && reduced_size(nd, shape, axes) == 0 && ga_shape_size(ond, oshape) != 0)
    ga_error(L, "%s: zero-size array to reduction operation %s which has no identity", fname, fname);
  for (int m = 0; m < nout; m++) {
    if (out_idx[m]) {
      ga_array *a = ga_toarray(L, out_idx[m]);
      check_out_shape(L, a, ond, oshape, fname);
      call.arr[nin + m] = a;
    } else {
      call.arr[nin + m] = ga_new_array(L, ctx, dt[nin + m], ond, oshape);
      out_idx[m] = lua_gettop(L);
    }
  }
  ga_red_code code;
  kernel_code(k, &tm, dt, is_arr, &code);
  call.code = &code;
  call.ndim = nd;
  memcpy(call.shape, shape, sizeof(int64_t) * (size_t)nd);
  call.axes = axes;
  call.keepdims = o.keepdims;
  call.accsel = 0;
  ga_reduce(L, ctx, &call);
  for (int m = 0; m < nout; m++) lua_pushvalue(L, out_idx[m]);
  return nout;
}

static int l_kernel_index(lua_State *L) {
  red_kernel *k = check_kernel(L, 1);
  const char *key = ga_checkstring(L, 2, "ReductionKernel", "a field name");
  if (strcmp(key, "name") == 0) lua_pushstring(L, k->name);
  else if (strcmp(key, "nin") == 0) lua_pushinteger(L, k->in.n);
  else if (strcmp(key, "nout") == 0) lua_pushinteger(L, k->out.n);
  else if (strcmp(key, "nargs") == 0) lua_pushinteger(L, k->in.n + k->out.n);
  else if (strcmp(key, "identity") == 0) lua_pushstring(L, k->identity);
  else if (strcmp(key, "reduce_type") == 0) lua_pushstring(L, k->reduce_type);
  else {
    luaL_getmetatable(L, GA_REDKERNEL_MT);
    lua_getfield(L, -1, "methods");
    lua_getfield(L, -1, key);
  }
  return 1;
}

static int l_kernel_tostring(lua_State *L) {
  red_kernel *k = check_kernel(L, 1);
  lua_pushfstring(L, "gpuarray.ReductionKernel(%s)", k->name);
  return 1;
}

/* ===================================================================== */
/* test hooks (no device)                                                */
/* ===================================================================== */

/* The variant from an options table {kind=, vec=, ndk=, ndr=, idx64=, fin=}:
** ndk and ndr are axis counts, padded as the engine does (1 stays 1 for
** vectorised kernels, else 4 or 8); fin: the program finishing split rows */
static int dims_bucket(lua_Integer nd, int vec) {
  if (nd <= 1 && vec > 1) return 1;
  return nd <= 4 ? 4 : 8;
}

/* An integer field of the variant table (def when absent) */
static lua_Integer variant_int(lua_State *L, int idx, const char *key, lua_Integer def) {
  lua_getfield(L, idx, key);
  int isnum;
  lua_Integer v = lua_tointegerx(L, -1, &isnum);
  if (!isnum && !lua_isnil(L, -1)) ga_error(L, "_reduction_source: variant field %s must be an integer", key);
  lua_pop(L, 1);
  return isnum ? v : def;
}

static void read_variant(lua_State *L, int idx, ga_red_variant *v) {
  v->kind = GA_RED_KIND_ROW;
  v->vec = 1;
  v->ndk = v->ndr = 4;      /* a strided kernel of 1 to 4 axes */
  v->idx64 = 0;
  v->fin = 0;
  v->onek = 0;
  if (lua_isnoneornil(L, idx)) return;
  if (!lua_istable(L, idx)) ga_error(L, "_reduction_source: the variant must be a table");
  lua_getfield(L, idx, "kind");
  if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "col") == 0) v->kind = GA_RED_KIND_COL;
  lua_getfield(L, idx, "idx64");
  v->idx64 = lua_toboolean(L, -1);
  lua_getfield(L, idx, "fin");
  v->fin = lua_toboolean(L, -1);
  lua_getfield(L, idx, "onek");
  v->onek = lua_toboolean(L, -1) && !v->fin;
  lua_pop(L, 4);
  lua_Integer vec = variant_int(L, idx, "vec", 1);
  if (vec != 1 && vec != 2 && vec != 4 && vec != 8 && vec != 16)
    ga_error(L, "_reduction_source: vec must be 1, 2, 4, 8 or 16");
  v->vec = (int)vec;
  v->ndk = dims_bucket(variant_int(L, idx, "ndk", 1), v->vec);
  v->ndr = dims_bucket(variant_int(L, idx, "ndr", 1), v->vec);
}

static int push_source(lua_State *L, const ga_red_code *c, const ga_red_variant *v) {
  ga_buf b;
  ga_buf_init(&b);
  ga_red_generate(c, v, &b);
  lua_pushlstring(L, b.s, b.len);
  ga_buf_free(&b);
  return 1;
}

/* core._test.reduction_source(fn, in_dtype[, variant][, {dtype=, out=}]) for a
** built-in reduction closure */
static int l_builtin_source(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  /* only our own closures hold a red_builtin as upvalue 2 */
  if (lua_tocfunction(L, 1) != l_builtin_call || !lua_getupvalue(L, 1, 2))
    return ga_error(L, "_reduction_source: not a built-in reduction");
  const red_builtin *bi = (const red_builtin *)lua_touserdata(L, -1);
  lua_pop(L, 1);
  int in_dt = ga_checkdtype(L, 2, -1, "_reduction_source");
  if (in_dt < 0) return ga_error(L, "_reduction_source: an input dtype is required");
  ga_red_variant v;
  read_variant(L, 3, &v);
  int over = -1, out_dt;
  if (lua_istable(L, 4)) {
    lua_getfield(L, 4, "dtype");
    over = ga_checkdtype(L, lua_gettop(L), -1, "_reduction_source");
    lua_pop(L, 1);
  }
  const char *acc = over >= 0 ? bi->dacc_ct[over] : bi->acc_ct[in_dt];
  if (!acc) return ga_error(L, "%s: not supported for %s", bi->name, ga_dtypes[over >= 0 ? over : in_dt].name);
  out_dt = over >= 0 ? bi->dout_dt[over] : bi->out_dt[in_dt];
  if (lua_istable(L, 4)) {
    lua_getfield(L, 4, "out");
    out_dt = ga_checkdtype(L, lua_gettop(L), out_dt, "_reduction_source");
    lua_pop(L, 1);
  }
  ga_red_code c;
  builtin_code(bi, in_dt, over, out_dt, &c);
  return push_source(L, &c, &v);
}

/* Bind argument dtypes without arguments (t[]: per input and output, -1:
** unknown; outputs first, as a call binds), all inputs as arrays: for
** _source and compile */
static void bind_dtypes(lua_State *L, const red_kernel *k, const int *t, const char *fname, ga_typemap *tm,
                        int *dt, int *is_arr) {
  ga_typemap_init(tm);
  for (int m = 0; m < k->out.n; m++)
    if (t[k->in.n + m] >= 0) bind_array(L, k, &k->out.p[m], t[k->in.n + m], tm);
  for (int i = 0; i < k->in.n; i++) {
    int ti = t[i] >= 0 ? t[i] : ga_param_dtype(&k->in.p[i], tm);
    if (ti < 0) ga_error(L, "%s: no dtype for argument %d", fname, i + 1);
    bind_array(L, k, &k->in.p[i], ti, tm);
    dt[i] = ti;
    is_arr[i] = 1;
  }
  for (int m = 0; m < k->out.n; m++) {
    int to = ga_param_dtype(&k->out.p[m], tm);
    if (to < 0)
      ga_error(L, "%s: %s: output type %s is not bound by the inputs: give the output dtypes too", fname,
               k->name, k->out.p[m].type);
    dt[k->in.n + m] = to;
  }
}

/* core._test.reduction_kernel_source(k, {dtype per input (nil: the placeholder's first binding)...}[, variant]) */
static int l_kernel_source(lua_State *L) {
  red_kernel *k = check_kernel(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  ga_typemap tm;
  int t[GA_RED_MAXARGS], dt[GA_RED_MAXARGS], is_arr[GA_RED_MAXARGS];
  for (int i = 0; i < k->in.n + k->out.n; i++) {
    lua_geti(L, 2, i + 1);
    t[i] = i < k->in.n ? ga_checkdtype(L, lua_gettop(L), -1, "_source") : -1;
    lua_pop(L, 1);
  }
  bind_dtypes(L, k, t, "_source", &tm, dt, is_arr);
  ga_red_variant v;
  read_variant(L, 3, &v);
  ga_red_code c;
  kernel_code(k, &tm, dt, is_arr, &c);
  return push_source(L, &c, &v);
}

/* k:compile(dtype...): compile for these argument dtypes (one per input,
** or per input and output) without running, so that prototyping finds
** compile errors early (NVRTC needs no GPU); the row kernel over 1 to 4
** axes is the variant compiled. Returns k. */
static int l_kernel_compile(lua_State *L) {
  red_kernel *k = check_kernel(L, 1);
  int t[GA_RED_MAXARGS], dt[GA_RED_MAXARGS], is_arr[GA_RED_MAXARGS];
  ga_compile_dtypes(L, k->name, k->in.n, k->out.n, t);
  ga_typemap tm;
  bind_dtypes(L, k, t, "compile", &tm, dt, is_arr);
  ga_red_variant v;
  read_variant(L, lua_gettop(L) + 1, &v);   /* none: the default variant */
  ga_red_code c;
  kernel_code(k, &tm, dt, is_arr, &c);
  push_source(L, &c, &v);
  ga_program_prepare(L, "ReductionKernel", k->name, k->nopts, k->opts);
  lua_settop(L, 1);
  return 1;
}

/* core._test.reduce_axes(ndim, axis) -> sorted list of the 1-based reduced axes */
static int l_reduce_axes(lua_State *L) {
  int ndim = (int)luaL_checkinteger(L, 1);
  if (ndim < 0 || ndim > GA_MAXDIM) return ga_error(L, "_reduce_axes: bad ndim");
  uint32_t axes = ga_red_axes(L, 2, ndim, "_reduce_axes");
  lua_newtable(L);
  int n = 0;
  for (int d = 0; d < ndim; d++)
    if (axes & (1u << d)) {
      lua_pushinteger(L, d + 1);
      lua_rawseti(L, -2, ++n);
    }
  return 1;
}

/* ===================================================================== */
/* registration                                                          */
/* ===================================================================== */

static const luaL_Reg funcs[] = {
  {"ReductionKernel", l_reduction_kernel},
  {NULL, NULL}
};

static const luaL_Reg funcs_reduction[] = {
  {"builtin", l_reduction_builtin},
  {NULL, NULL}
};

static const luaL_Reg funcs_test[] = {
  {"reduction_source", l_builtin_source},
  {"reduction_kernel_source", l_kernel_source},
  {"reduce_axes", l_reduce_axes},
  {NULL, NULL}
};

static const luaL_Reg kernel_meta[] = {
  {"__call", l_kernel_call},
  {"__index", l_kernel_index},
  {"__tostring", l_kernel_tostring},
  {NULL, NULL}
};

static const luaL_Reg kernel_methods[] = {
  {"compile", l_kernel_compile},
  {NULL, NULL}
};

void ga_open_reduction(lua_State *L) {
  ga_setfuncs(L, funcs);
  ga_setprivate(L, "reduction", funcs_reduction);
  ga_setprivate(L, GA_TEST, funcs_test);
  luaL_newmetatable(L, GA_REDKERNEL_MT);
  ga_setfuncs(L, kernel_meta);
  lua_newtable(L);
  ga_setfuncs(L, kernel_methods);
  lua_setfield(L, -2, "methods");
  lua_pop(L, 1);
}
