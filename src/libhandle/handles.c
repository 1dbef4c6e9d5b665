/*
** handles.c: the library-handle home (libhandle.h). The handles of one Lua state
** live in a userdata in the registry whose __gc destroys them, so a state
** closed by its host takes its handles with it; no C global holds one.
*/
#include <stdio.h>
#include <string.h>

#include "libhandle/libhandle.h"

#define MAX_LIBS 8          /* distinct ga_libdesc objects a state may use */
#define MAX_DEVICES 64

typedef struct {
  const ga_libdesc *lib;
  void *h[MAX_DEVICES];
  cudaStream_t bound[MAX_DEVICES];   /* the stream the handle was last bound to */
} slot;

typedef struct {
  slot s[MAX_LIBS];
} handles;

static const char handles_key = 'h';

static int handles_gc(lua_State *L) {
  handles *hs = (handles *)lua_touserdata(L, 1);
  int cur = -1;
  (void)cudaGetDevice(&cur);
  for (int i = 0; i < MAX_LIBS; i++) {
    slot *sl = &hs->s[i];
    for (int d = 0; sl->lib && d < MAX_DEVICES; d++) {
      if (!sl->h[d]) continue;
      (void)cudaSetDevice(d);
      sl->lib->destroy(sl->h[d]);     /* a finalizer never raises */
      sl->h[d] = NULL;
    }
  }
  if (cur >= 0) (void)cudaSetDevice(cur);
  return 0;
}

void *ga_lib_handle(lua_State *L, ga_state *ctx, const ga_libdesc *lib, cudaStream_t stream) {
  ga_device_enter(L, ctx);
  if (ga_fault(GA_FAULT_LIB)) ga_error(L, "%s: injected failure (GPUARRAY_FAIL=lib)", lib->name);
  int d = ctx->device;
  if (d < 0 || d >= MAX_DEVICES) ga_error(L, "%s: device %d is past the %d this module handles", lib->name, d, MAX_DEVICES);
  handles *hs = (handles *)ga_state_object(L, &handles_key, sizeof(handles), handles_gc);
  slot *sl = NULL;
  for (int i = 0; i < MAX_LIBS && !sl; i++)
    if (hs->s[i].lib == lib || !hs->s[i].lib) sl = &hs->s[i];
  if (!sl) ga_error(L, "%s: too many libraries in one state", lib->name);
  sl->lib = lib;
  if (!sl->h[d]) {
    void *h = NULL;
    char what[64];
    snprintf(what, sizeof what, "%s: creating a handle", lib->name);
    ga_status_check(L, lib->status, lib->create(&h), what);
    sl->h[d] = h;
    sl->bound[d] = (cudaStream_t)(intptr_t)-1;   /* not bound yet */
  }
  if (lib->set_stream && sl->bound[d] != stream) {
    char what[64];
    snprintf(what, sizeof what, "%s: binding the stream", lib->name);
    ga_status_check(L, lib->status, lib->set_stream(sl->h[d], stream), what);
    sl->bound[d] = stream;
  }
  return sl->h[d];
}

void *ga_lib_workspace(lua_State *L, ga_state *ctx, size_t nbytes) {
  if (nbytes == 0) return NULL;
  int64_t n = (int64_t)nbytes;
  ga_array *a = ga_new_array(L, ctx, GA_UINT8, 1, &n);
  return a->data;
}
