/*
** fft.c: cuFFT transforms of C-contiguous arrays over their last 1 to 3
** axes, batched over the leading ones, on the current stream:
**   _fft_exec(x, "c2c", rank, inverse) -> complex, x's shape
**   _fft_exec(x, "r2c", rank)          -> complex, last axis n // 2 + 1
**   _fft_exec(x, "c2r", rank, n)       -> real, last axis n
** Unnormalised, as cuFFT computes them. Everything NumPy-shaped (n and s,
** axes, norm, real promotion, layouts) is lua/gpuarray/fft.lua's.
**   _fft_cache_info([device]) -> {size, max_size, hits, misses}
**   _fft_set_cache_size(n)    the bound of the current device's plan cache
*/
#include <string.h>

#include <cufft.h>

#include "fft/fft.h"

#define PIN_MT "gpuarray.fftpin"

static const char *const kinds[] = {"c2c", "r2c", "c2r", NULL};
enum { K_C2C, K_R2C, K_C2R };

/* A pinned plan on the stack until the call is done: an error between
** acquiring and releasing it (allocating the work area) unpins it when the
** collector takes the guard. */
static int pin_gc(lua_State *L) {
  ga_fftplan **g = (ga_fftplan **)lua_touserdata(L, 1);
  if (*g) ga_fftplan_release(*g);
  *g = NULL;
  return 0;
}

static ga_fftplan **push_pin(lua_State *L) {
  ga_fftplan **g = (ga_fftplan **)lua_newuserdatauv(L, sizeof *g, 0);
  *g = NULL;
  if (luaL_newmetatable(L, PIN_MT)) {
    lua_pushcfunction(L, pin_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  return g;
}

static int l_fft_exec(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_array *x = ga_readarray(L, 1);
  int kind = luaL_checkoption(L, 2, NULL, kinds);
  int rank = (int)luaL_checkinteger(L, 3);
  if (rank < 1 || rank > 3 || rank > x->ndim) ga_error(L, "fft: 1 to 3 transform axes of at most ndim, got %d", rank);
  if (!(x->flags & GA_F_C)) ga_error(L, "fft: the input must be C-contiguous");
  int dbl = x->dtype == GA_FLOAT64 || x->dtype == GA_COMPLEX128;
  int want = kind == K_R2C ? (dbl ? GA_FLOAT64 : GA_FLOAT32) : (dbl ? GA_COMPLEX128 : GA_COMPLEX64);
  if (x->dtype != want || (kind == K_R2C) != GA_IS_FLOAT(x->dtype))
    ga_error(L, "fft: %s takes %s input, got %s", kinds[kind], kind == K_R2C ? "float32 or float64" : "complex",
             ga_dtypes[x->dtype].name);
  ga_check_device(L, ctx, x, "fft");
  int nd = x->ndim;
  int64_t shape[GA_MAXDIM];
  memcpy(shape, x->shape, sizeof(int64_t) * (size_t)nd);
  int64_t nlast = shape[nd - 1];
  if (kind == K_C2R) {
    nlast = (int64_t)luaL_checkinteger(L, 4);
    if (nlast < 1 || nlast / 2 + 1 != shape[nd - 1])
      ga_error(L, "fft: c2r of length %I needs %I input values, got %I", (lua_Integer)nlast,
               (lua_Integer)(nlast / 2 + 1), (lua_Integer)shape[nd - 1]);
    shape[nd - 1] = nlast;
  } else if (kind == K_R2C) {
    shape[nd - 1] = nlast / 2 + 1;
  }
  ga_fftkey key;
  memset(&key, 0, sizeof key);
  key.rank = rank;
  int64_t per = 1;
  for (int d = 0; d < rank; d++) {
    int64_t n = d == rank - 1 ? nlast : x->shape[nd - rank + d];
    if (n < 1) ga_error(L, "fft: invalid number of data points (%I)", (lua_Integer)n);
    key.dims[d] = n;
    per *= n;
  }
  key.batch = (long long)(per ? ga_shape_size(nd, kind == K_C2R ? shape : x->shape) / per : 0);
  key.type = kind == K_C2C ? (dbl ? CUFFT_Z2Z : CUFFT_C2C)
             : kind == K_R2C ? (dbl ? CUFFT_D2Z : CUFFT_R2C) : (dbl ? CUFFT_Z2D : CUFFT_C2R);
  int out_t = kind == K_C2R ? (dbl ? GA_FLOAT64 : GA_FLOAT32) : (dbl ? GA_COMPLEX128 : GA_COMPLEX64);
  lua_settop(L, 4);
  ga_array *out = ga_new_array(L, ctx, out_t, nd, shape);       /* the result, at 5 */
  if (key.batch == 0) return 1;
  void *in = x->data;
  if (kind == K_C2R) {
    /* cuFFT's c2r overwrites its input: transform a copy */
    ga_array *tmp = ga_new_array(L, ctx, x->dtype, nd, x->shape);
    ga_copy_into(L, ctx, tmp, x, "fft");
    in = tmp->data;
  }
  size_t work = 0;
  ga_fftplan **pin = push_pin(L);
  *pin = ga_fftplan_acquire(L, ctx, &key, &work);
  void *ws = ga_lib_workspace(L, ctx, work);
  int dir = kind == K_C2C && lua_toboolean(L, 4) ? CUFFT_INVERSE : CUFFT_FORWARD;
  int st = ga_fftplan_exec(*pin, ctx->stream, ws, in, out->data, dir);
  ga_fftplan_release(*pin);
  *pin = NULL;
  if (ws) ga_array_release(ga_toarray(L, -1));
  ga_status_check(L, ga_cufft_status, st, "fft: cufftExec");
  ga_gc_settle(L);
  lua_settop(L, 5);
  return 1;
}

static int l_fft_cache_info(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  int d = (int)luaL_optinteger(L, 1, ctx->device);
  if (d < 0 || d >= 64) ga_error(L, "fft.cache_info: no device %d", d);
  int size, max;
  uint64_t hits, misses;
  ga_fftplan_info(d, &size, &max, &hits, &misses);
  lua_createtable(L, 0, 5);
  ga_setint(L, "size", size);
  ga_setint(L, "max_size", max);
  ga_setint(L, "hits", (lua_Integer)hits);
  ga_setint(L, "misses", (lua_Integer)misses);
  ga_setint(L, "device", d);
  return 1;
}

static int l_fft_set_cache_size(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  lua_Integer n = ga_checkinteger(L, 1, "fft.set_cache_size", "the size");
  if (n < 0 || n > 1 << 20) ga_error(L, "fft.set_cache_size: a size from 0 to 2^20, got %I", n);
  if (ga_device_count() > 0) ga_device_enter(L, ctx);    /* evicted plans are destroyed on their device */
  ga_fftplan_set_size(ctx->device, (int)n);
  return 0;
}

static const luaL_Reg funcs_fft[] = {
  {"exec", l_fft_exec},
  {"cache_info", l_fft_cache_info},
  {"set_cache_size", l_fft_set_cache_size},
  {NULL, NULL}
};

void ga_open_fft(lua_State *L) {
  ga_status_register("cuFFT", ga_cufft_status);
  ga_setprivate(L, "fft", funcs_fft);
}
