/*
** distributed.c: core.distributed, the C half of ga.distributed (the public
** functions are lua/gpuarray/distributed/). MPI here only carries bytes
** (the NCCL id) and barriers on MPI_COMM_WORLD; the data moves through
** NCCL. Ranks are 0-based, as MPI numbers them.
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "distributed/distributed.h"

#define MPI_THREAD_FUNNELED 1   /* the same value in Open MPI and MPICH */

static int we_initialized;      /* MPI_Init was ours: finalize at exit */

static const ga_mpi_api *need_mpi(lua_State *L, const char *fname) {
  const char *reason;
  const ga_mpi_api *m = ga_mpi_try(&reason);
  if (!m) ga_error(L, "%s: MPI is not available: %s", fname, reason);
  return m;
}

static void check(lua_State *L, int status, const char *fname, const char *call) {
  if (status != 0) ga_error(L, "%s: %s failed (MPI error code %d)", fname, call, status);
}

/* MPI wants MPI_Finalize before the process ends, or mpirun reports the
** job as failed; a script that never calls finalize gets it at exit */
static void finalize_at_exit(void) {
  const ga_mpi_api *m = ga_mpi_try(NULL);
  int done = 1;
  if (m && we_initialized && m->finalized(&done) == 0 && !done) (void)m->finalize();
}

/* mpi_available() -> true, flavor | false, why */
static int l_mpi_available(lua_State *L) {
  const char *reason;
  const ga_mpi_api *m = ga_mpi_try(&reason);
  lua_pushboolean(L, m != NULL);
  lua_pushstring(L, m ? m->flavor : reason);
  return 2;
}

/* mpi_init() -> rank, size on MPI_COMM_WORLD (MPI started if no one did) */
static int l_mpi_init(lua_State *L) {
  static const char *fname = "distributed.init";
  const ga_mpi_api *m = need_mpi(L, fname);
  int flag = 0, provided = 0, rank = 0, size = 0;
  check(L, m->initialized(&flag), fname, "MPI_Initialized");
  if (!flag) {
    check(L, m->init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided), fname, "MPI_Init_thread");
    if (!we_initialized) atexit(finalize_at_exit);
    we_initialized = 1;
  }
  check(L, m->rank(&rank), fname, "MPI_Comm_rank");
  check(L, m->size(&size), fname, "MPI_Comm_size");
  lua_pushinteger(L, rank);
  lua_pushinteger(L, size);
  return 2;
}

/* mpi_bcast(bytes, root, n) -> the root's n bytes on every rank (bytes is
** read on the root only) */
static int l_mpi_bcast(lua_State *L) {
  static const char *fname = "distributed.init";
  const ga_mpi_api *m = need_mpi(L, fname);
  lua_Integer root = luaL_checkinteger(L, 2), n = luaL_checkinteger(L, 3);
  if (n < 0 || n > 1 << 20) return ga_error(L, "%s: broadcast of %d bytes", fname, (int)n);
  int rank = 0;
  check(L, m->rank(&rank), fname, "MPI_Comm_rank");
  luaL_Buffer b;
  char *buf = luaL_buffinitsize(L, &b, (size_t)n);
  if (rank == root) {
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    if ((lua_Integer)len != n) return ga_error(L, "%s: the root's message has %d bytes, not %d", fname, (int)len, (int)n);
    memcpy(buf, s, len);
  }
  check(L, m->bcast(buf, (int)n, (int)root), fname, "MPI_Bcast");
  luaL_pushresultsize(&b, (size_t)n);
  return 1;
}

static int l_mpi_barrier(lua_State *L) {
  const ga_mpi_api *m = need_mpi(L, "distributed.barrier");
  check(L, m->barrier(), "distributed.barrier", "MPI_Barrier");
  return 0;
}

/* mpi_finalize(): ends MPI when this module started it (once) */
static int l_mpi_finalize(lua_State *L) {
  const ga_mpi_api *m = ga_mpi_try(NULL);
  int done = 1;
  if (m && we_initialized && m->finalized(&done) == 0 && !done)
    check(L, m->finalize(), "distributed.finalize", "MPI_Finalize");
  return 0;
}

/* now() -> seconds on a monotonic clock (deadlines of the file store) */
static int l_now(lua_State *L) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  lua_pushnumber(L, (lua_Number)ts.tv_sec + (lua_Number)ts.tv_nsec * 1e-9);
  return 1;
}

/* sleep(s): at most a second at a time is asked of the caller */
static int l_sleep(lua_State *L) {
  lua_Number s = luaL_checknumber(L, 1);
  if (!(s > 0)) return 0;
  if (s > 1) s = 1;
  struct timespec ts = {(time_t)s, (long)((s - (lua_Number)(time_t)s) * 1e9)};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
  return 0;
}

static const luaL_Reg funcs[] = {
  {"mpi_available", l_mpi_available},
  {"mpi_init", l_mpi_init},
  {"mpi_bcast", l_mpi_bcast},
  {"mpi_barrier", l_mpi_barrier},
  {"mpi_finalize", l_mpi_finalize},
  {"now", l_now},
  {"sleep", l_sleep},
  {NULL, NULL}
};

void ga_open_distributed(lua_State *L) { ga_setprivate(L, "distributed", funcs); }
