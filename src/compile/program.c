/*
** program.c: compiled programs and the process-wide program cache. A
** program is keyed by a 128-bit hash of everything that decides its binary
** (NVRTC version, target arch, options in order, name expressions, source),
** looked up in memory, then on disk, then compiled.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"

/* ===================================================================== */
/* programs and the in-memory cache                                      */
/* ===================================================================== */

typedef struct { char *name; cudaKernel_t k; } kernel_entry;

struct ga_program {
  cudaLibrary_t lib;
  int nnames;
  const char **exprs;     /* name expressions ... */
  const char **lowered;   /* ... and what NVRTC lowered them to */
  pthread_mutex_t mu;     /* guards the kernel list */
  int nkernels, capkernels;
  kernel_entry *kernels;
};

/* Open addressing on the key; programs are never freed (they live until the
** process ends, like the CUDA context they are loaded in). */
typedef struct { ga_key key; ga_program *p; } slot;

static pthread_mutex_t table_mu = PTHREAD_MUTEX_INITIALIZER;
static slot *table;
static size_t table_cap, table_n;

static ga_program *table_find_locked(const ga_key *k) {
  if (!table_cap) return NULL;
  for (size_t i = k->h[0] & (table_cap - 1);; i = (i + 1) & (table_cap - 1)) {
    if (!table[i].p) return NULL;
    if (table[i].key.h[0] == k->h[0] && table[i].key.h[1] == k->h[1]) return table[i].p;
  }
}

static void table_put_locked(slot *t, size_t cap, const ga_key *k, ga_program *p) {
  size_t i = k->h[0] & (cap - 1);
  while (t[i].p) i = (i + 1) & (cap - 1);
  t[i].key = *k;
  t[i].p = p;
}

/* Insert p unless another thread got there first: returns the winner */
static ga_program *table_insert(const ga_key *k, ga_program *p) {
  pthread_mutex_lock(&table_mu);
  ga_program *old = table_find_locked(k);
  if (old) { pthread_mutex_unlock(&table_mu); return old; }
  if ((table_n + 1) * 2 > table_cap) {
    size_t cap = table_cap ? table_cap * 2 : 64;
    slot *t = (slot *)calloc(cap, sizeof *t);
    if (t) {
      for (size_t i = 0; i < table_cap; i++)
        if (table[i].p) table_put_locked(t, cap, &table[i].key, table[i].p);
      free(table);
      table = t;
      table_cap = cap;
    }
  }
  /* without memory to grow, a full table just stops caching */
  if (table_n + 1 < table_cap) {
    table_put_locked(table, table_cap, k, p);
    table_n++;
  }
  pthread_mutex_unlock(&table_mu);
  return p;
}

/* One allocation for the struct, the pointer arrays and the strings */
static ga_program *program_new(cudaLibrary_t lib, int nnames, const char *const *exprs,
                               const ga_image *img) {
  size_t strs = img->names_len;
  for (int i = 0; i < nnames; i++) strs += strlen(exprs[i]) + 1;
  size_t ptrs = 2 * (size_t)nnames * sizeof(char *);
  ga_program *p = (ga_program *)malloc(sizeof *p + ptrs + strs);
  if (!p) return NULL;
  memset(p, 0, sizeof *p);
  p->lib = lib;
  p->nnames = nnames;
  p->exprs = (const char **)(p + 1);
  p->lowered = p->exprs + nnames;
  char *w = (char *)(p->lowered + nnames);
  if (img->names_len) memcpy(w, img->names, img->names_len);
  for (int i = 0; i < nnames; i++) {
    p->lowered[i] = w;
    w += strlen(w) + 1;
  }
  for (int i = 0; i < nnames; i++) {
    size_t n = strlen(exprs[i]) + 1;
    memcpy(w, exprs[i], n);
    p->exprs[i] = w;
    w += n;
  }
  pthread_mutex_init(&p->mu, NULL);
  return p;
}

static cudaError_t load_library(const ga_image *img, cudaLibrary_t *lib) {
  return cudaLibraryLoadData(lib, img->image, NULL, NULL, 0, NULL, NULL, 0);
}

/* The target for arch, the final options (a scratch userdata pushed on the
** stack) and the program's key: everything that decides the binary */
static const char **program_key(lua_State *L, const char *what, const char *src, size_t srclen,
                                int nopts, const char *const *opts, int nnames,
                                const char *const *name_exprs, int arch, ga_target *t, int *nall,
                                ga_key *k) {
  int nv_major, nv_minor;
  ga_nvrtc_version(&nv_major, &nv_minor);
  if (!ga_pick_target(arch, t))
    ga_error(L, "%s: NVRTC %d.%d cannot compile for sm_%d", what, nv_major, nv_minor, arch);
  const char **all = ga_final_options(L, nopts, opts, t, nall);
  ga_key_init(k);
  int ver[3] = { nv_major, nv_minor, GA_DISK_VERSION };
  ga_key_add(k, ver, sizeof ver);
  ga_key_add(k, t->opt, strlen(t->opt));
  ga_key_add(k, nall, sizeof *nall);
  for (int i = 0; i < *nall; i++) ga_key_add(k, all[i], strlen(all[i]));
  ga_key_add(k, &nnames, sizeof nnames);
  for (int i = 0; i < nnames; i++) ga_key_add(k, name_exprs[i], strlen(name_exprs[i]));
  ga_key_add(k, src, srclen);
  return all;
}

ga_program *ga_program_get(lua_State *L, ga_state *ctx, const char *what,
                           const char *src, size_t srclen,
                           int nopts, const char *const *opts,
                           int nnames, const char *const *name_exprs) {
  ga_device_enter(L, ctx);
  if (ga_fault(GA_FAULT_COMPILE)) ga_error(L, "%s: compile failed (injected: GPUARRAY_FAIL=compile)", what);
  ga_target t;
  int nall;
  ga_key k;
  const char **all = program_key(L, what, src, srclen, nopts, opts, nnames, name_exprs,
                                 ga_device_arch(ctx->device), &t, &nall, &k);

  pthread_mutex_lock(&table_mu);
  ga_program *p = table_find_locked(&k);
  pthread_mutex_unlock(&table_mu);
  if (p) { lua_pop(L, 1); return p; }

  const char *dir = ga_cache_dir();
  ga_image img;
  cudaLibrary_t lib = NULL;
  cudaError_t err = cudaErrorUnknown;
  if (ga_disk_read(dir, &k, &img)) {
    if (img.nnames == nnames) err = load_library(&img, &lib);
    if (err != cudaSuccess) {  /* e.g. written by a newer driver's JIT: recompile */
      (void)cudaGetLastError();
      free(img.mem);
    }
  }
  if (err != cudaSuccess) {
    ga_compile_or_raise(L, what, src, srclen, nall, all, t.ptx, nnames, name_exprs, &img);
    err = load_library(&img, &lib);
    if (err != cudaSuccess) {
      free(img.mem);
      ga_cuda_check(L, err, lua_pushfstring(L, "%s: cudaLibraryLoadData", what));
    }
    ga_disk_write(dir, &k, &img);
  }
  p = program_new(lib, nnames, name_exprs, &img);
  free(img.mem);
  if (!p) {
    cudaLibraryUnload(lib);
    ga_error(L, "%s: out of host memory", what);
  }
  ga_program *winner = table_insert(&k, p);
  if (winner != p) {   /* another thread loaded the same program meanwhile */
    cudaLibraryUnload(p->lib);
    pthread_mutex_destroy(&p->mu);
    free(p);
  }
  lua_pop(L, 1);   /* the option scratch */
  return winner;
}

cudaKernel_t ga_program_kernel(lua_State *L, ga_program *p, const char *name) {
  cudaKernel_t k = NULL;
  pthread_mutex_lock(&p->mu);
  for (int i = 0; i < p->nkernels; i++)
    if (strcmp(p->kernels[i].name, name) == 0) { k = p->kernels[i].k; break; }
  pthread_mutex_unlock(&p->mu);
  if (k) return k;

  const char *sym = name;
  for (int i = 0; i < p->nnames; i++)
    if (strcmp(p->exprs[i], name) == 0) { sym = p->lowered[i]; break; }
  cudaError_t err = cudaLibraryGetKernel(&k, p->lib, sym);
  if (err == cudaErrorSymbolNotFound) {
    (void)cudaGetLastError();
    ga_error(L, "%s: no such kernel in the program", name);
  }
  ga_cuda_check(L, err, "cudaLibraryGetKernel");

  /* remember it; out of memory here only means looking it up again */
  pthread_mutex_lock(&p->mu);
  if (p->nkernels == p->capkernels) {
    int cap = p->capkernels ? 2 * p->capkernels : 4;
    kernel_entry *e = (kernel_entry *)realloc(p->kernels, (size_t)cap * sizeof *e);
    if (e) { p->kernels = e; p->capkernels = cap; }
  }
  char *copy = p->nkernels < p->capkernels ? strdup(name) : NULL;
  if (copy) {
    p->kernels[p->nkernels].name = copy;
    p->kernels[p->nkernels].k = k;
    p->nkernels++;
  }
  pthread_mutex_unlock(&p->mu);
  return k;
}

/* The program for arch through the on-disk cache, without a device: read
** from disk when an earlier compile (a spec's, or a device that runs it)
** left it there, else compiled by NVRTC and written. Returns the size of
** its binary. */
static size_t program_cached(lua_State *L, const char *what, const char *src, size_t srclen,
                             int nopts, const char *const *opts, int nnames,
                             const char *const *name_exprs, int arch) {
  ga_target t;
  int nall;
  ga_key k;
  const char **all = program_key(L, what, src, srclen, nopts, opts, nnames, name_exprs, arch, &t,
                                 &nall, &k);
  const char *dir = ga_cache_dir();
  ga_image img;
  /* a program on disk compiled once: the device that later runs it (of
  ** this arch) finds the same file under the same key */
  if (!(ga_disk_read(dir, &k, &img) && img.nnames == nnames)) {
    if (img.mem) free(img.mem);
    ga_compile_or_raise(L, what, src, srclen, nall, all, t.ptx, nnames, name_exprs, &img);
    ga_disk_write(dir, &k, &img);
  }
  size_t size = img.image_len;
  free(img.mem);
  lua_pop(L, 1);   /* the option scratch */
  return size;
}

/* the specs' compile hooks: a second run of the suite finds its programs on
** disk instead of compiling them again (NVRTC is most of a CPU run's time) */
int ga_compile_for_arch(lua_State *L, const char *what, const char *src, size_t srclen,
                        int nopts, const char *const *opts, int arch, size_t *binsize) {
  if (ga_fault(GA_FAULT_COMPILE)) ga_error(L, "%s: compile failed (injected: GPUARRAY_FAIL=compile)", what);
  *binsize = program_cached(L, what, src, srclen, nopts, opts, 0, NULL, arch);
  return 0;
}

void ga_program_check(lua_State *L, const char *what, const char *src, size_t srclen,
                      int nopts, const char *const *opts, int nnames,
                      const char *const *name_exprs, int arch) {
  (void)program_cached(L, what, src, srclen, nopts, opts, nnames, name_exprs, arch);
}

void ga_program_prepare(lua_State *L, const char *kind, const char *name, int nopts, const char *const *opts) {
  size_t len;
  const char *src = lua_tolstring(L, -1, &len);
  const char *what = lua_pushfstring(L, "%s '%s'", kind, name);
  ga_state *ctx = ga_state_get(L);
  if (ga_device_count() > 0) ga_program_get(L, ctx, what, src, len, nopts, opts, 0, NULL);
  else ga_program_check(L, what, src, len, nopts, opts, 0, NULL, GA_CHECK_ARCH);
  lua_pop(L, 2);
}
