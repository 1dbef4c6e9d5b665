/*
** distributed.h: what ga.distributed needs from C: libmpi, opened on first
** use like libnccl (mpi_load.c: the module never links it), and the few
** process-level helpers the launcher rendezvous needs (distributed.c:
** a monotonic clock and a sleep, for polling a file store with a deadline).
*/
/* feature: distributed — uses: none */
#ifndef GA_DISTRIBUTED_H
#define GA_DISTRIBUTED_H

#include "base/base.h"

/* mpi_load.c: the few MPI calls the NCCL id exchange needs. MPI's handles
** are implementation-defined: Open MPI's MPI_COMM_WORLD and MPI_BYTE are
** addresses of globals, MPICH's (and its ABI family's: Intel MPI,
** MVAPICH) are integer constants. ga_mpi hides which one was opened. */
typedef struct {
  const char *flavor;   /* "Open MPI" or "MPICH" */
  int (*initialized)(int *flag);
  int (*finalized)(int *flag);
  int (*init_thread)(int *argc, char ***argv, int required, int *provided);
  int (*finalize)(void);
  /* on MPI_COMM_WORLD, bytes */
  int (*rank)(int *rank);
  int (*size)(int *size);
  int (*bcast)(void *buf, int count, int root);
  int (*barrier)(void);
} ga_mpi_api;
/* The loaded library, or NULL with *reason saying why (never raises) */
const ga_mpi_api *ga_mpi_try(const char **reason);
/* distributed.c: core.distributed */
void ga_open_distributed(lua_State *L);

#endif
