/*
** reduction.c: the reduction engine. Given a definition (ga_red_code), the
** operands and the axes to reduce, it
**   1. splits the broadcast shape into a kept space (the outputs) and a
**      reduced space, orders each by stride when no index is observed, and
**      merges contiguous axes;
**   2. picks the kernel shape: a row kernel when the reduced axis is the
**      fast one (threads of a block along one row), a column kernel when a
**      kept axis is (threads along the outputs, coalesced), vector loads
**      when alignment allows, and a split of long rows across blocks with a
**      second, deterministic pass over the partial results when the outputs
**      alone cannot fill the GPU (full reductions always do this unless the
**      input fits one block: then it is a single launch);
**   3. looks the kernels up in kcache (a few bytes of key), generating and
**      compiling the program on a miss (reduction_codegen.c), and launches.
** Programs are few: the main kernel serves one pass and split rows alike
** (a run-time switch in its store), strided kernels' indexers are padded to
** 4 or 8 axes (the padding costs a test, not a program; see bucket), and
** the kernel finishing split rows depends only on the op and the output
** side, so it is one program per reduction, dtype and output layout,
** shared by every input layout.
** No atomics: the combination order depends on the shapes and the device
** only, so the same call gives the same bits.
*/
#include <string.h>

#include "reduction/reduction.h"

#define MAXND_K 8      /* indexer dims past merging; more falls back to copies */
#define ROW_THREADS 256
#define COL_THREADS 256

/* ===================================================================== */
/* axes                                                                  */
/* ===================================================================== */

uint32_t ga_red_axes(lua_State *L, int idx, int ndim, const char *fname) {
  if (lua_isnoneornil(L, idx)) return ndim >= 32 ? 0xffffffffu : ((1u << ndim) - 1u);
  int64_t list[GA_MAXDIM];
  int n;
  if (lua_type(L, idx) == LUA_TNUMBER || lua_type(L, idx) == LUA_TTABLE) {
    if (lua_type(L, idx) == LUA_TTABLE && lua_rawlen(L, idx) > (size_t)GA_MAXDIM)
      ga_error(L, "%s: more axes than dimensions", fname);
    n = ga_checkintlist(L, idx, list, fname);
  } else {
    return (uint32_t)ga_error(L, "%s: axis must be an integer or a list of integers, got %s", fname,
                              luaL_typename(L, idx));
  }
  uint32_t mask = 0;
  for (int i = 0; i < n; i++) {
    if (list[i] == 0 || list[i] > ndim || list[i] < -ndim)
      ga_error(L, "%s: axis %I is out of range for an array of %d dimension%s", fname,
               (lua_Integer)list[i], ndim, ndim == 1 ? "" : "s");
    int d = list[i] > 0 ? (int)list[i] - 1 : ndim + (int)list[i];
    if (mask & (1u << d)) ga_error(L, "%s: axis %I is repeated", fname, (lua_Integer)list[i]);
    mask |= 1u << d;
  }
  return mask;
}

int ga_red_out_shape(int ndim, const int64_t *shape, uint32_t axes, int keepdims, int64_t *out) {
  int n = 0;
  for (int d = 0; d < ndim; d++) {
    if (axes & (1u << d)) {
      if (keepdims) out[n++] = 1;
    } else {
      out[n++] = shape[d];
    }
  }
  return n;
}

/* ===================================================================== */
/* layout                                                                */
/* ===================================================================== */

typedef struct {
  int nin, nout, nsc;
  int in[GA_RED_MAXARGS], out[GA_RED_MAXARGS], sc[GA_RED_MAXARGS];
  /* kept space: shape and strides of the inputs then the outputs */
  int ndk;
  int64_t kshape[GA_MAXDIM];
  int64_t kst[GA_RED_MAXARGS][GA_MAXDIM];
  /* reduced space: shape and strides of the inputs */
  int ndr;
  int64_t rshape[GA_MAXDIM];
  int64_t rst[GA_RED_MAXARGS][GA_MAXDIM];
  int64_t nout_e, nred;
} layout;

static int64_t iabs64(int64_t v) { return v < 0 ? -v : v; }

/* Stable sort of axes by the first input's |stride|, largest first, so that
** the fastest axis ends up innermost and merges with its neighbours */
static void sort_axes(int *ax, int n, const int64_t *st) {
  for (int i = 1; i < n; i++) {
    int a = ax[i], j = i;
    while (j > 0 && iabs64(st[ax[j - 1]]) < iabs64(st[a])) {
      ax[j] = ax[j - 1];
      j--;
    }
    ax[j] = a;
  }
}

/* Build the two spaces from the call; returns 0 when merging left more
** indexer dims than the kernels take */
static int build_layout(const ga_red_call *c, layout *lo) {
  const ga_red_code *code = c->code;
  lo->nin = lo->nout = lo->nsc = 0;
  for (int i = 0; i < code->narg; i++) {
    if (code->arg[i].out) lo->out[lo->nout++] = i;
    else if (code->arg[i].array) lo->in[lo->nin++] = i;
    else lo->sc[lo->nsc++] = i;
  }
  int nd = c->ndim;
  static const int64_t zero[GA_MAXDIM];
  int64_t full[GA_RED_MAXARGS][GA_MAXDIM];
  for (int k = 0; k < lo->nin; k++) {
    const ga_array *a = c->arr[lo->in[k]];
    ga_broadcast_strides(a->ndim, a->shape, a->strides, nd, c->shape, full[k]);
  }
  for (int m = 0; m < lo->nout; m++) {
    const ga_array *a = c->arr[lo->out[m]];
    int64_t *s = full[lo->nin + m];
    for (int d = 0, j = 0; d < nd; d++) {
      if (c->axes & (1u << d)) {
        s[d] = 0;
        if (c->keepdims) j++;
      } else {
        s[d] = a->strides[j++];
      }
    }
  }
  int kax[GA_MAXDIM], rax[GA_MAXDIM], nk = 0, nr = 0;
  for (int d = 0; d < nd; d++) {
    if (c->axes & (1u << d)) rax[nr++] = d;
    else kax[nk++] = d;
  }
  if (!code->uses_index) {
    sort_axes(kax, nk, lo->nin ? full[0] : zero);
    sort_axes(rax, nr, lo->nin ? full[0] : zero);
  }
  int nopk = lo->nin + lo->nout;
  int64_t *kptr[GA_RED_MAXARGS], *rptr[GA_RED_MAXARGS];
  for (int i = 0; i < nk; i++) {
    lo->kshape[i] = c->shape[kax[i]];
    for (int k = 0; k < nopk; k++) lo->kst[k][i] = full[k][kax[i]];
  }
  for (int i = 0; i < nr; i++) {
    lo->rshape[i] = c->shape[rax[i]];
    for (int k = 0; k < lo->nin; k++) lo->rst[k][i] = full[k][rax[i]];
  }
  lo->nout_e = ga_shape_size(nk, lo->kshape);
  lo->nred = ga_shape_size(nr, lo->rshape);
  for (int k = 0; k < nopk; k++) kptr[k] = lo->kst[k];
  for (int k = 0; k < lo->nin; k++) rptr[k] = lo->rst[k];
  lo->ndk = ga_merge_axes(nk, lo->kshape, nopk, kptr);
  lo->ndr = ga_merge_axes(nr, lo->rshape, lo->nin, rptr);
  if (lo->nred == 0) {                /* empty rows: every output is the identity */
    lo->ndr = 1;
    lo->rshape[0] = 0;
    for (int k = 0; k < lo->nin; k++) lo->rst[k][0] = 0;
  }
  if (lo->ndk == 0) {
    lo->ndk = 1;
    lo->kshape[0] = 1;
    for (int k = 0; k < nopk; k++) lo->kst[k][0] = 0;
  }
  if (lo->ndr == 0) {
    lo->ndr = 1;
    lo->rshape[0] = 1;
    for (int k = 0; k < lo->nin; k++) lo->rst[k][0] = 0;
  }
  return lo->ndk <= MAXND_K && lo->ndr <= MAXND_K;
}

/* Indexer dims come in few sizes (fewer programs to compile): spaces are
** padded with outer axes of length 1, which the kernels' ga_red_offsets
** skip at the cost of a test. Scans and masks pad to 4 or 8. */
static int pad_to(int nd, int want, int64_t *shape, int nop, int64_t *const *st) {
  if (nd <= 0) {
    shape[0] = 1;
    for (int k = 0; k < nop; k++) st[k][0] = 0;
    nd = 1;
  }
  int add = want - nd;
  for (int i = nd - 1; i >= 0 && add > 0; i--) {
    shape[i + add] = shape[i];
    for (int k = 0; k < nop; k++) st[k][i + add] = st[k][i];
  }
  for (int i = 0; i < add; i++) {
    shape[i] = 1;
    for (int k = 0; k < nop; k++) st[k][i] = 0;
  }
  return add > 0 ? want : nd;
}

int ga_red_pad(int nd, int64_t *shape, int nop, int64_t *const *st) {
  return pad_to(nd, nd <= 4 ? 4 : 8, shape, nop, st);
}

/* The dims a reduction kernel is generated for: the vectorised kernels
** (contiguous data: the common, fast case) keep a single axis exact, since
** every extra axis costs NVRTC time and each element some arithmetic; the
** general strided kernels take 4 or 8, so one program serves every layout
** of up to 4 axes. */
static int bucket(int nd, int vec) {
  if (nd <= 1 && vec > 1) return 1;
  return nd <= 4 ? 4 : 8;
}

/* ===================================================================== */
/* kernel choice                                                         */
/* ===================================================================== */

typedef struct {
  ga_red_variant v;
  unsigned bx, by, gx, gy;        /* main launch */
  int64_t chunk, split;
  unsigned fbx, fby, fgx;         /* finishing launch (split > 1) */
} plan;

static int64_t pow2_ceil(int64_t v) {
  int64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }
static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

static int aligned_to(const void *p, int64_t bytes) { return ((uintptr_t)p % (uintptr_t)bytes) == 0; }

/* Largest vector width V (elements) usable by every input, 1 if none */
static int pick_vec(const ga_red_call *c, const layout *lo, int kind) {
  int maxisz = 1;
  for (int k = 0; k < lo->nin; k++) {
    int isz = ga_dtypes[c->arr[lo->in[k]]->dtype].itemsize;
    if (isz > maxisz) maxisz = isz;
  }
  for (int v = 16 / maxisz; v >= 2; v /= 2) {
    int ok = 1;
    for (int k = 0; k < lo->nin && ok; k++) {
      const ga_array *a = c->arr[lo->in[k]];
      int64_t isz = ga_dtypes[a->dtype].itemsize, vb = v * isz;
      if (!aligned_to(a->data, vb)) ok = 0;
      if (kind == GA_RED_KIND_ROW) {
        /* short rows too: the vector loop is skipped, the tail does them */
        if (lo->ndr != 1 || lo->rst[k][0] != isz) ok = 0;
        for (int d = 0; d < lo->ndk && ok; d++)
          if (lo->kshape[d] > 1 && lo->kst[k][d] % vb) ok = 0;
      } else {
        int in = lo->ndk - 1;
        if (lo->kst[k][in] != isz || lo->kshape[in] % v) ok = 0;
        for (int d = 0; d < in && ok; d++)
          if (lo->kshape[d] > 1 && lo->kst[k][d] % vb) ok = 0;
        for (int d = 0; d < lo->ndr && ok; d++)
          if (lo->rshape[d] > 1 && lo->rst[k][d] % vb) ok = 0;
      }
    }
    if (ok) return v;
  }
  return 1;
}

static int choose_kind(const layout *lo) {
  if (lo->nout_e == 1) return GA_RED_KIND_ROW;
  /* the first input's fastest axis decides */
  int64_t best = INT64_MAX;
  int kind = GA_RED_KIND_ROW;
  for (int d = 0; d < lo->ndr; d++)
    if (lo->rshape[d] > 1 && lo->rst[0][d] != 0 && iabs64(lo->rst[0][d]) < best) {
      best = iabs64(lo->rst[0][d]);
      kind = GA_RED_KIND_ROW;
    }
  for (int d = 0; d < lo->ndk; d++)
    if (lo->kshape[d] > 1 && lo->kst[0][d] != 0 && iabs64(lo->kst[0][d]) < best) {
      best = iabs64(lo->kst[0][d]);
      kind = GA_RED_KIND_COL;
    }
  return kind;
}

static void make_plan(lua_State *L, ga_state *ctx, const ga_red_call *c, const layout *lo, plan *p) {
  const ga_devinfo *di = ga_device_info(L, ctx->device);
  int64_t sm = di->sm_count > 0 ? di->sm_count : 1;
  int64_t nout = lo->nout_e, nred = lo->nred;
  p->v.kind = choose_kind(lo);
  p->v.vec = pick_vec(c, lo, p->v.kind);
  int64_t V = p->v.vec, U = 4;
  p->split = 1;
  if (p->v.kind == GA_RED_KIND_ROW) {
    int64_t per_row = cdiv(nred, V);
    int64_t bx = clamp64(pow2_ceil(cdiv(per_row, 4)), 1, 512);
    int64_t by = nout == 1 ? 1 : (bx >= ROW_THREADS ? 1 : ROW_THREADS / bx);
    if (bx * by < 32) bx = 32 / by;             /* whole warps */
    int64_t blocks = cdiv(nout, by);
    int64_t target = sm * (1024 / (bx * by));   /* one wave (launch bounds: 1024 threads per SM) */
    if (blocks < target && per_row >= bx * U * 4)
      p->split = clamp64(target / blocks, 1, cdiv(per_row, bx * U * 2));
    p->bx = (unsigned)bx;
    p->by = (unsigned)by;
    p->gx = (unsigned)clamp64(blocks, 1, sm * 64);
    /* whole unrolled steps per block (equal chunks of any multiple of V,
    ** one per resident block, were slower on an H100: 51.5 against 47.9 us
    ** for a 2^26 bfloat16 sum, the rest of the last step one vector at a time) */
    int64_t unit = bx * V * U;
    p->chunk = cdiv(cdiv(nred, p->split), unit) * unit;
  } else {
    int64_t nv = nout / V;
    int64_t bx = clamp64(pow2_ceil(nv), 1, 32);
    int64_t by = COL_THREADS / bx;
    int64_t blocks = cdiv(nv, bx);
    int64_t target = sm * (1024 / COL_THREADS);
    if (blocks < target && nred >= by * U * 4)
      p->split = clamp64(target / blocks, 1, cdiv(nred, by * U * 2));
    p->bx = (unsigned)bx;
    p->by = (unsigned)by;
    p->gx = (unsigned)clamp64(blocks, 1, sm * 64);
    p->chunk = cdiv(cdiv(nred, p->split), by) * by;
  }
  if (p->chunk < 1) p->chunk = 1;
  p->split = nred > 0 ? cdiv(nred, p->chunk) : 1;
  if (p->split > 65535) {       /* grid.y limit (not reached: splits stay near one wave) */
    p->chunk = cdiv(cdiv(nred, 65535), 64) * 64;   /* chunks stay multiples of any vector width */
    p->split = cdiv(nred, p->chunk);
  }
  p->gy = (unsigned)p->split;
  if (p->split > 1) {
    /* a row kernel over the splits: with few splits its threads run along
    ** the outputs (partials of neighbouring outputs are neighbours) */
    int64_t bx = clamp64(pow2_ceil(cdiv(p->split, 4)), 1, 512);
    int64_t by = nout == 1 ? 1 : (bx >= ROW_THREADS ? 1 : ROW_THREADS / bx);
    if (bx * by < 32) bx = 32 / by;
    p->fbx = (unsigned)bx;
    p->fby = (unsigned)by;
    p->fgx = (unsigned)clamp64(cdiv(nout, by), 1, sm * 64);
  }
}

/* 32-bit offsets and indices suffice? */
static int needs_idx64(const layout *lo, const plan *p) {
  int64_t lim = (int64_t)1 << 31;
  if (lo->nout_e >= lim || lo->nred + p->chunk >= lim || p->split * lo->nout_e >= lim) return 1;
  int64_t *kptr[GA_RED_MAXARGS], *rptr[GA_RED_MAXARGS];
  for (int k = 0; k < lo->nin + lo->nout; k++) kptr[k] = (int64_t *)lo->kst[k];
  for (int k = 0; k < lo->nin; k++) rptr[k] = (int64_t *)lo->rst[k];
  if (!ga_fits32(lo->ndk, lo->kshape, lo->nin + lo->nout, kptr)) return 1;
  if (!ga_fits32(lo->ndr, lo->rshape, lo->nin, rptr)) return 1;
  for (int k = 0; k < lo->nin; k++) {
    int64_t kl, kh, rl, rh;
    ga_extent(lo->ndk, lo->kshape, lo->kst[k], &kl, &kh);
    ga_extent(lo->ndr, lo->rshape, lo->rst[k], &rl, &rh);
    if (kl + rl < -lim || kh + rh + 16 >= lim) return 1;
  }
  return 0;
}

/* ===================================================================== */
/* kernels                                                               */
/* ===================================================================== */

typedef struct {
  char tag[2];
  uint8_t fin, kind, vec, ndk, ndr, idx64;
  uint8_t accsel, narg, onek, pad[3];
  uint64_t hash;
  uint8_t dtypes[GA_RED_MAXARGS];
} red_key;

/* The generated program, written only when the memo misses */
typedef struct {
  ga_tkreq req;
  const ga_red_code *code;
  ga_red_variant v;
} red_src;

static void write_red(const ga_tkreq *req, ga_buf *b) {
  const red_src *r = (const red_src *)req;
  ga_red_generate(r->code, &r->v, b);
}

/* The main kernel (fin 0) or the one finishing split rows (fin 1) */
static cudaKernel_t get_kernel(lua_State *L, ga_state *ctx, const ga_red_code *code, const plan *p,
                               int accsel, int fin) {
  red_key key;
  memset(&key, 0, sizeof key);
  key.tag[0] = 'r';
  key.tag[1] = 'd';
  key.fin = (uint8_t)fin;
  if (!fin) {
    key.kind = (uint8_t)p->v.kind;
    key.vec = (uint8_t)p->v.vec;
    key.ndr = (uint8_t)p->v.ndr;
    key.onek = (uint8_t)p->v.onek;
  }
  key.ndk = (uint8_t)p->v.ndk;
  key.idx64 = (uint8_t)p->v.idx64;
  key.accsel = (uint8_t)accsel;
  key.narg = (uint8_t)code->narg;
  key.hash = code->hash;
  for (int i = 0; i < code->narg; i++) key.dtypes[i] = (uint8_t)(code->arg[i].dtype | (code->arg[i].array << 5));
  red_src src = {{code->name, NULL, write_red, code->kname, fin ? "__fin" : NULL, code->nopts, code->opts}, code,
                 p->v};
  src.v.fin = fin;
  if (fin) src.v.onek = 0;
  return ga_tkernel(L, ctx, &key, offsetof(red_key, dtypes) + (size_t)code->narg, &src.req);
}

/* ===================================================================== */
/* tickets: the one-launch finish of reductions to one value            */
/* ===================================================================== */

/* A row reduction to one value split across blocks finishes in its own
** launch (ga_red_last): each block takes a ticket from a counter and the
** last one combines the partials and zeroes the counter. Work on one stream
** never overlaps, so one counter serves a stream's reductions in turn; the
** counters are per state (a finalizer frees them, as libhandle's) and per
** device, one for each of the first TICKETS streams a state reduces on.
** Past those, and while a stream capture is active (a graph's copy of the
** kernel could replay beside the stream's own reductions), the finishing
** launch does it as before. */
#define TICKETS 64
#define TICKET_DEVICES 64

typedef struct {
  unsigned *counters[TICKET_DEVICES];       /* TICKETS zeroed counters each, or NULL */
  cudaStream_t stream[TICKET_DEVICES][TICKETS];
  int n[TICKET_DEVICES];                    /* streams given a counter; -1: none could be made */
} tickets;

static const char tickets_key = 't';

static int tickets_gc(lua_State *L) {
  tickets *t = (tickets *)lua_touserdata(L, 1);
  int cur = -1;
  (void)cudaGetDevice(&cur);
  for (int d = 0; d < TICKET_DEVICES; d++) {
    if (!t->counters[d]) continue;
    (void)cudaSetDevice(d);
    (void)cudaFree(t->counters[d]);
    t->counters[d] = NULL;
  }
  if (cur >= 0) (void)cudaSetDevice(cur);
  return 0;
}

/* The counter of the current stream, or NULL: finish with a second launch */
static unsigned *stream_ticket(lua_State *L, ga_state *ctx) {
  int d = ctx->device;
  if (d < 0 || d >= TICKET_DEVICES || ctx->capture || ga_pool_capturing(d)) return NULL;
  enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(ctx->stream, &st) != cudaSuccess) {   /* the legacy stream beside a capture */
    (void)cudaGetLastError();
    return NULL;
  }
  if (st != cudaStreamCaptureStatusNone) return NULL;   /* captured by host code */
  tickets *t = (tickets *)ga_state_object(L, &tickets_key, sizeof(tickets), tickets_gc);
  if (t->n[d] < 0) return NULL;
  if (!t->counters[d]) {
    /* made once and zeroed before any kernel can use them, on any stream:
    ** the host waits for the memset (cudaMemset alone goes to the legacy
    ** stream, which a non-blocking stream's kernel does not wait for:
    ** under racecheck on an H100 the first sum on such a stream raced it,
    ** found no last block and returned 0) */
    void *p = NULL;
    if (cudaMalloc(&p, TICKETS * sizeof(unsigned)) != cudaSuccess ||
        cudaMemsetAsync(p, 0, TICKETS * sizeof(unsigned), ctx->stream) != cudaSuccess ||
        cudaStreamSynchronize(ctx->stream) != cudaSuccess) {
      (void)cudaGetLastError();
      if (p) (void)cudaFree(p);
      t->n[d] = -1;
      return NULL;
    }
    t->counters[d] = (unsigned *)p;
  }
  for (int i = 0; i < t->n[d]; i++)
    if (t->stream[d][i] == ctx->stream) return t->counters[d] + i;
  if (t->n[d] == TICKETS) return NULL;
  t->stream[d][t->n[d]] = ctx->stream;
  return t->counters[d] + t->n[d]++;
}

/* ===================================================================== */
/* the call                                                              */
/* ===================================================================== */

static int shares_memory(const ga_array *a, const ga_array *b) {
  return a->block && a->block == b->block;
}

/* When merging leaves too many axes: copy each input into a C-contiguous
** array laid out as (kept axes, reduced axes), so each space is one axis */
static void regroup_inputs(lua_State *L, ga_state *ctx, ga_red_call *c, const layout *lo) {
  int perm[GA_MAXDIM], np = 0;
  for (int d = 0; d < c->ndim; d++)
    if (!(c->axes & (1u << d))) perm[np++] = d;
  for (int d = 0; d < c->ndim; d++)
    if (c->axes & (1u << d)) perm[np++] = d;
  int64_t pshape[GA_MAXDIM];
  for (int d = 0; d < c->ndim; d++) pshape[d] = c->shape[perm[d]];
  for (int k = 0; k < lo->nin; k++) {
    ga_array *a = c->arr[lo->in[k]];
    ga_array view = *a;               /* a permuted, broadcast view on the C stack */
    int64_t bst[GA_MAXDIM];
    ga_broadcast_strides(a->ndim, a->shape, a->strides, c->ndim, c->shape, bst);
    view.ndim = c->ndim;
    for (int d = 0; d < c->ndim; d++) {
      view.shape[d] = pshape[d];
      view.strides[d] = bst[perm[d]];
    }
    ga_array_update_flags(&view);
    ga_array *t = ga_new_array(L, ctx, a->dtype, c->ndim, pshape);
    ga_copy_into(L, ctx, t, &view, c->code->name);
    /* as the reduction sees it: the original axis order, permuted strides */
    for (int d = 0; d < c->ndim; d++) view.strides[perm[d]] = t->strides[d];
    memcpy(t->strides, view.strides, sizeof(int64_t) * (size_t)c->ndim);
    memcpy(t->shape, c->shape, sizeof(int64_t) * (size_t)c->ndim);
    ga_array_update_flags(t);
    c->arr[lo->in[k]] = t;            /* kept alive by the Lua stack */
  }
}

static void launch_plan(lua_State *L, ga_state *ctx, ga_red_call *c, layout *lo, plan *p, int accsel);

void ga_reduce(lua_State *L, ga_state *ctx, ga_red_call *c) {
  ga_red_code *code = c->code;
  luaL_checkstack(L, 2 * GA_RED_MAXARGS + 8, "reduction temporaries");
  int top = lua_gettop(L);
  layout lob, *lo = &lob;
  int ok = build_layout(c, lo);
  if (lo->nout_e == 0) {
    lua_settop(L, top);
    return;
  }
  if (lo->nin == 0) ga_error(L, "%s: needs at least one array input", code->name);
  for (int i = 0; i < code->narg; i++) {
    if (c->arr[i]) ga_check_device(L, ctx, c->arr[i], code->name);
  }
  ga_device_enter(L, ctx);
  /* outputs that share memory with an input: compute into fresh arrays */
  ga_array *real_out[GA_RED_MAXARGS] = {0};
  for (int m = 0; m < lo->nout; m++) {
    ga_array *o = c->arr[lo->out[m]];
    int clash = !ok;                  /* odd output layouts also go through a temporary */
    for (int k = 0; k < lo->nin && !clash; k++) clash = shares_memory(o, c->arr[lo->in[k]]);
    if (!clash) continue;
    real_out[m] = o;
    c->arr[lo->out[m]] = ga_new_array(L, ctx, o->dtype, o->ndim, o->shape);
  }
  if (!ok) {
    regroup_inputs(L, ctx, c, lo);
    build_layout(c, lo);
  }
  plan p;
  make_plan(L, ctx, c, lo, &p);
  p.v.ndk = bucket(lo->ndk, p.v.vec);
  p.v.ndr = bucket(lo->ndr, p.v.vec);
  p.v.idx64 = needs_idx64(lo, &p);
  int64_t *kptr[GA_RED_MAXARGS], *rptr[GA_RED_MAXARGS];
  for (int k = 0; k < lo->nin + lo->nout; k++) kptr[k] = lo->kst[k];
  for (int k = 0; k < lo->nin; k++) rptr[k] = lo->rst[k];
  lo->ndk = pad_to(lo->ndk, p.v.ndk, lo->kshape, lo->nin + lo->nout, kptr);
  lo->ndr = pad_to(lo->ndr, p.v.ndr, lo->rshape, lo->nin, rptr);
  launch_plan(L, ctx, c, lo, &p, c->accsel);
  for (int m = 0; m < lo->nout; m++) {
    if (!real_out[m]) continue;
    ga_copy_into(L, ctx, real_out[m], c->arr[lo->out[m]], code->name);
    ga_array_release(c->arr[lo->out[m]]);
    c->arr[lo->out[m]] = real_out[m];
  }
  lua_settop(L, top);
}

static void launch_plan(lua_State *L, ga_state *ctx, ga_red_call *c, layout *lo, plan *p, int accsel) {
  ga_red_code *code = c->code;
  int slot = code->identity && code->acc_size > 0 ? code->acc_size : 64;
  ga_ixbuf kix, rix;
  int64_t *kptr[GA_RED_MAXARGS], *rptr[GA_RED_MAXARGS];
  for (int k = 0; k < lo->nin + lo->nout; k++) kptr[k] = lo->kst[k];
  for (int k = 0; k < lo->nin; k++) rptr[k] = lo->rst[k];
  if (p->v.idx64) {
    ga_pack_indexer64(&kix, lo->ndk, lo->kshape, lo->nin + lo->nout, kptr);
    ga_pack_indexer64(&rix, lo->ndr, lo->rshape, lo->nin, rptr);
  } else {
    ga_pack_indexer32(&kix, lo->ndk, lo->kshape, lo->nin + lo->nout, kptr);
    ga_pack_indexer32(&rix, lo->ndr, lo->rshape, lo->nin, rptr);
  }
  unsigned *ticket = NULL;
  p->v.onek = 0;
  if (p->split > 1 && lo->nout_e == 1 && p->v.kind == GA_RED_KIND_ROW && p->by == 1 &&
      (ticket = stream_ticket(L, ctx)) != NULL)
    p->v.onek = 1;
  cudaKernel_t k_main = get_kernel(L, ctx, code, p, accsel, 0);
  cudaKernel_t k_fin = p->split > 1 && !p->v.onek ? get_kernel(L, ctx, code, p, accsel, 1) : NULL;

  void *args[3 * GA_RED_MAXARGS + 12];
  const void *ptrs[GA_RED_MAXARGS];
  int na = 0;
  for (int k = 0; k < lo->nin; k++) {
    ptrs[k] = c->arr[lo->in[k]]->data;
    args[na++] = &ptrs[k];
  }
  for (int k = 0; k < lo->nsc; k++) args[na++] = &c->val[lo->sc[k]];
  args[na++] = kix.bytes;
  args[na++] = rix.bytes;
  void *optrs[GA_RED_MAXARGS];
  for (int m = 0; m < lo->nout; m++) {
    optrs[m] = c->arr[lo->out[m]]->data;
    args[na++] = &optrs[m];
  }
  ga_array *part = NULL;
  void *partp = NULL;
  if (p->split > 1) {
    int64_t bytes = p->split * lo->nout_e * slot;
    part = ga_new_array(L, ctx, GA_UINT8, 1, &bytes);
    partp = part->data;
  }
  unsigned uslot = (unsigned)slot;
  uint64_t n64[4] = { (uint64_t)lo->nout_e, (uint64_t)lo->nred, (uint64_t)p->chunk, (uint64_t)p->split };
  uint32_t n32[4] = { (uint32_t)n64[0], (uint32_t)n64[1], (uint32_t)n64[2], (uint32_t)n64[3] };
  void *nv[4];
  for (int i = 0; i < 4; i++) nv[i] = p->v.idx64 ? (void *)&n64[i] : (void *)&n32[i];
  long long insize = (long long)(lo->nout_e * lo->nred), rsize = (long long)lo->nred;
  args[na++] = &partp;
  args[na++] = &uslot;
  for (int i = 0; i < 4; i++) args[na++] = nv[i];
  args[na++] = &insize;
  args[na++] = &rsize;
  if (ticket) args[na++] = &ticket;
  ga_launch(L, code->name, k_main, dim3_make(p->gx, p->gy, 1), dim3_make(p->bx, p->by, 1), args, 0,
            ctx->stream);
  if (k_fin) {
    /* (outputs, scalars, kept indexer, partials, slot, nout, nsplit, sizes) */
    void *fargs[2 * GA_RED_MAXARGS + 8];
    int nf = 0;
    for (int m = 0; m < lo->nout; m++) fargs[nf++] = &optrs[m];
    for (int k = 0; k < lo->nsc; k++) fargs[nf++] = &c->val[lo->sc[k]];
    fargs[nf++] = kix.bytes;
    fargs[nf++] = &partp;
    fargs[nf++] = &uslot;
    fargs[nf++] = nv[0];
    fargs[nf++] = nv[3];
    fargs[nf++] = &insize;
    fargs[nf++] = &rsize;
    ga_launch(L, code->name, k_fin, dim3_make(p->fgx, 1, 1), dim3_make(p->fbx, p->fby, 1), fargs, 0,
              ctx->stream);
  }
  if (part) ga_array_release(part);
}
