/*
** compile.h: NVRTC, the in-memory and on-disk program caches, the memo of
** template kernels, and the kernel sources embedded at build time.
*/
#ifndef GA_COMPILE_H
#define GA_COMPILE_H

#include "runtime/runtime.h"


typedef struct ga_program ga_program;

/* Compile (or fetch from the caches) src for the current device's arch and
** load it. 'what' names the caller for error messages. name_exprs are
** NVRTC name expressions (templated kernels), NULL when nnames is 0.
** Raises "gpuarray: <what>: compile error ..." with NVRTC's log and the
** offending source lines. The result lives until the process ends. */
ga_program *ga_program_get(lua_State *L, ga_state *ctx, const char *what,
                           const char *src, size_t srclen,
                           int nopts, const char *const *opts,
                           int nnames, const char *const *name_exprs);
/* A kernel of a program by name (or by one of its name expressions) */
cudaKernel_t ga_program_kernel(lua_State *L, ga_program *p, const char *name);

/* Compile without loading, for an explicit arch (no device needed), through
** the disk cache: what constructors do where there is no GPU, so that a
** compile error raises where the kernel is written. Raises like
** ga_program_get. */
void ga_program_check(lua_State *L, const char *what, const char *src, size_t srclen,
                      int nopts, const char *const *opts, int nnames,
                      const char *const *name_exprs, int arch);
/* The arch ga_program_check compiles for when there is no device */
#define GA_CHECK_ARCH 90

/* Compile the source on the top of the stack now, ahead of any launch (a
** kernel's compile(dtype...)): for the current device when there is one
** (the program cache then serves the first call), else as
** ga_program_check for GA_CHECK_ARCH. Errors name "<kind> '<name>'" and
** are ga_program_get's; pops the source. */
void ga_program_prepare(lua_State *L, const char *kind, const char *name, int nopts, const char *const *opts);

/* Compile only, for an explicit arch (no device needed: used by specs on
** machines without a GPU). Returns 0 and sets *binsize, or raises. */
int ga_compile_for_arch(lua_State *L, const char *what, const char *src, size_t srclen,
                        int nopts, const char *const *opts, int arch, size_t *binsize);

/* kcache.c: the memo of template kernels (copy, gather, scan, mask,
** reduction), keyed by a few bytes that say what was generated; lookups take
** no lock. */
#define GA_KKEY_MAX 96
cudaKernel_t ga_kcache_get(const void *key, size_t len);    /* NULL on a miss */
void ga_kcache_put(const void *key, size_t len, cudaKernel_t k);

/* How to write a template kernel's source, asked only on a miss: the
** embedded sources named in parts (NULL-terminated, may be NULL), then
** whatever write appends (the instantiating wrapper or generated code).
** Engines embed this struct first in their own, to pass their parameters
** to write. */
typedef struct ga_tkreq ga_tkreq;
struct ga_tkreq {
  const char *what;                 /* names the caller in compile errors */
  const char *const *parts;
  void (*write)(const ga_tkreq *req, ga_buf *b);
  const char *kname, *ksuffix;      /* the entry point: kname..ksuffix ("k" when NULL) */
  int nopts;
  const char *const *opts;          /* NVRTC options */
};

/* The kernel named by key on ctx's current device: memoised, or written,
** compiled (through the program caches) and memoised now. */
cudaKernel_t ga_tkernel(lua_State *L, ga_state *ctx, const void *key, size_t keylen, const ga_tkreq *req);

/* The common case (copy, gather, mask, random): the embedded parts, then
** one instantiating line that line() writes from a few small integers
** (kinds, dtypes, flags, each below 256), which after the family's two-byte
** tag are also the memo key. A caller states its family once and passes its
** integers per call. */
#define GA_TKLINE_MAXP 12
typedef struct {
  char tag[2];                      /* tells families apart in the memo */
  const char *const *parts;
  void (*line)(char *w, size_t cap, const int *p);   /* a kernel "k" */
} ga_tkline;
/* what names the caller in compile errors; n <= GA_TKLINE_MAXP */
cudaKernel_t ga_tkernel_line(lua_State *L, ga_state *ctx, const ga_tkline *f, const char *what, int n,
                             const int *p);

/* Built-in kernel sources embedded at build time (kernels/ *.cuh, see
** tools/embed.lua): NULL when no such file */
const char *ga_kernel_source(const char *name);

/* Fixed-size growable string buffer for code generation */

/* ---- inside the compile layer (nvrtc.c, diskcache.c, program.c) ------- */

/* What NVRTC is asked for: "-arch=sm_90" (CUBIN) when it knows the arch,
** else the newest virtual arch not above it (PTX, JIT-compiled by the
** driver), so a device newer than the toolkit still runs. */
typedef struct {
  char opt[48];
  int ptx;
} ga_target;

/* A binary ready to load: PTX (NUL included) or CUBIN, plus the lowered
** names of the name expressions, back to back, each NUL-terminated. One
** malloc (mem) holds both. */
typedef struct {
  char *mem;
  const char *names; size_t names_len;
  const char *image; size_t image_len;
  int nnames, ptx;
} ga_image;

#define GA_DISK_VERSION 1   /* of the cache file format; part of every key */

void ga_nvrtc_version(int *major, int *minor);
/* The target for arch; 0 when NVRTC can compile for nothing at or below it */
int ga_pick_target(int arch, ga_target *t);
/* The final option list, in a scratch userdata pushed on the stack */
const char **ga_final_options(lua_State *L, int nopts, const char *const *opts, ga_target *t, int *nall);
/* Compile to an image (malloc'd: free(out->mem)) or raise with NVRTC's log */
void ga_compile_or_raise(lua_State *L, const char *what, const char *src, size_t srclen, int nall,
                         const char *const *all, int ptx, int nnames, const char *const *name_exprs,
                         ga_image *out);
/* NVRTC itself (nvrtc.c): 1 with *out filled (free(out->mem)), or 0 with
** the reason in err; never raises */
int ga_nvrtc_compile(const char *src, size_t srclen, int nall, const char *const *all, int ptx, int nnames,
                     const char *const *name_exprs, ga_image *out, ga_buf *err);
/* isolate.c: should this compile run in a child process (1, with the
** reason in why)? Then ga_nvrtc_child runs it there (a crash of NVRTC is an
** error), else ga_nvrtc_here here; both as ga_nvrtc_compile */
int ga_compile_isolated(const char *src, size_t srclen, int nnames, char *why, size_t cap);
int ga_nvrtc_child(const char *src, size_t srclen, int nall, const char *const *all, int ptx, int nnames,
                   const char *const *name_exprs, ga_image *out, ga_buf *err);
int ga_nvrtc_here(const char *src, size_t srclen, int nall, const char *const *all, int ptx, int nnames,
                  const char *const *name_exprs, ga_image *out, ga_buf *err);
const char *ga_cache_dir(void);      /* NULL when there is none */
int ga_disk_read(const char *dir, const ga_key *k, ga_image *out);   /* 1: found and intact */
int ga_disk_write(const char *dir, const ga_key *k, const ga_image *img);

void ga_open_compile(lua_State *L);

#endif
