/*
** mpi_load.c: libmpi, loaded when first used. ga.distributed hands the
** NCCL id from rank 0 to the others through MPI when the job was started by
** mpirun/mpiexec; nothing else needs MPI, so the module never links it (a
** machine without MPI loads gpuarray all the same, and the job chooses its
** MPI at run time through the loader's path or GPUARRAY_MPI).
**
** MPI has no common ABI: the functions are the same, the handles are not.
** Open MPI's MPI_Comm and MPI_Datatype are pointers (MPI_COMM_WORLD is
** &ompi_mpi_comm_world, MPI_BYTE &ompi_mpi_byte); MPICH's are ints
** (MPI_COMM_WORLD 0x44000000, MPI_BYTE 0x4c00010d). Which one was opened is
** told by the symbol ompi_mpi_comm_world, and the calls that take handles
** go through wrappers of the right signature.
*/
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "distributed/distributed.h"

#define MPICH_COMM_WORLD 0x44000000
#define MPICH_BYTE 0x4c00010d

static ga_mpi_api api;
static int loaded;
static char why[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* the raw entry points, one signature per handle kind */
static int (*ompi_bcast)(void *buf, int count, void *type, int root, void *comm);
static int (*ompi_barrier)(void *comm);
static void *ompi_world, *ompi_byte;
static int (*mpich_bcast)(void *buf, int count, int type, int root, int comm);
static int (*mpich_barrier)(int comm);
static void *comm_rank_sym, *comm_size_sym;

static int w_rank(int *r) {
  return ompi_world ? ((int (*)(void *, int *))comm_rank_sym)(ompi_world, r)
                    : ((int (*)(int, int *))comm_rank_sym)(MPICH_COMM_WORLD, r);
}
static int w_size(int *n) {
  return ompi_world ? ((int (*)(void *, int *))comm_size_sym)(ompi_world, n)
                    : ((int (*)(int, int *))comm_size_sym)(MPICH_COMM_WORLD, n);
}
static int w_bcast(void *buf, int count, int root) {
  return ompi_world ? ompi_bcast(buf, count, ompi_byte, root, ompi_world)
                    : mpich_bcast(buf, count, MPICH_BYTE, root, MPICH_COMM_WORLD);
}
static int w_barrier(void) { return ompi_world ? ompi_barrier(ompi_world) : mpich_barrier(MPICH_COMM_WORLD); }

/* Where to look: the user's choice, then Open MPI's and MPICH's sonames */
static const char *const candidates[] = {"libmpi.so.40", "libmpi.so.12", "libmpi.so", NULL};

static void *open_library(void) {
  /* RTLD_GLOBAL: Open MPI's plugins resolve libmpi's symbols through the
  ** global scope and fail to load without it */
  const char *env = getenv("GPUARRAY_MPI");
  if (env && *env) {
    void *h = dlopen(env, RTLD_NOW | RTLD_GLOBAL);
    if (!h) snprintf(why, sizeof why, "GPUARRAY_MPI=%s could not be loaded: %s", env, dlerror());
    return h;
  }
  for (int i = 0; candidates[i]; i++) {
    void *h = dlopen(candidates[i], RTLD_NOW | RTLD_GLOBAL);
    if (h) return h;
  }
  snprintf(why, sizeof why,
           "libmpi was not found (tried libmpi.so.40, libmpi.so.12, libmpi.so; set GPUARRAY_MPI to its path, "
           "or use store = \"file:DIR\")");
  return NULL;
}

static void load(void) {
  void *h = open_library();
  if (!h) return;
  struct { void **slot; const char *name; } syms[] = {
    {(void **)&api.initialized, "MPI_Initialized"}, {(void **)&api.finalized, "MPI_Finalized"},
    {(void **)&api.init_thread, "MPI_Init_thread"}, {(void **)&api.finalize, "MPI_Finalize"},
    {&comm_rank_sym, "MPI_Comm_rank"}, {&comm_size_sym, "MPI_Comm_size"},
    {(void **)&ompi_bcast, "MPI_Bcast"}, {(void **)&ompi_barrier, "MPI_Barrier"},
  };
  for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
    *syms[i].slot = dlsym(h, syms[i].name);
    if (!*syms[i].slot) {
      snprintf(why, sizeof why, "the MPI library has no %s (is it an MPI library?)", syms[i].name);
      dlclose(h);
      return;
    }
  }
  ompi_world = dlsym(h, "ompi_mpi_comm_world");
  if (ompi_world) {
    ompi_byte = dlsym(h, "ompi_mpi_byte");
    if (!ompi_byte) {
      snprintf(why, sizeof why, "the Open MPI library has ompi_mpi_comm_world but no ompi_mpi_byte");
      dlclose(h);
      return;
    }
    api.flavor = "Open MPI";
  } else {
    /* the same entry points with int handles (MPICH's ABI) */
    *(void **)&mpich_bcast = *(void **)&ompi_bcast;
    *(void **)&mpich_barrier = *(void **)&ompi_barrier;
    api.flavor = "MPICH";
  }
  api.rank = w_rank;
  api.size = w_size;
  api.bcast = w_bcast;
  api.barrier = w_barrier;
  loaded = 1;   /* the handle stays open for the life of the process */
}

const ga_mpi_api *ga_mpi_try(const char **reason) {
  pthread_once(&once, load);
  if (reason) *reason = loaded ? NULL : why;
  return loaded ? &api : NULL;
}
