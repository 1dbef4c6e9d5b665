/*
** nccl.h: NCCL, loaded on first use (nccl_load.c: the module never links
** it), and ga.nccl's communicators and collectives (nccl.c).
*/
/* feature: nccl — uses: none */
#ifndef GA_NCCL_H
#define GA_NCCL_H

#include "array/array.h"

/* nccl_load.c: NCCL, loaded on first use (the module never links it).
** Its ABI, declared here so nccl.h is not needed to build. */
typedef struct { char internal[128]; } ga_nccl_id;
typedef struct ncclComm *ga_nccl_comm;
enum { GA_NCCL_INT8, GA_NCCL_UINT8, GA_NCCL_INT32, GA_NCCL_UINT32, GA_NCCL_INT64, GA_NCCL_UINT64,
       GA_NCCL_FLOAT16, GA_NCCL_FLOAT32, GA_NCCL_FLOAT64, GA_NCCL_BFLOAT16 };   /* ncclBfloat16: NCCL >= 2.10 */
enum { GA_NCCL_SUM, GA_NCCL_PROD, GA_NCCL_MAX, GA_NCCL_MIN, GA_NCCL_AVG };
typedef struct {
  int (*get_version)(int *version);
  int (*get_unique_id)(ga_nccl_id *id);
  int (*comm_init_rank)(ga_nccl_comm *comm, int nranks, ga_nccl_id id, int rank);
  int (*comm_init_all)(ga_nccl_comm *comms, int ndev, const int *devlist);
  int (*comm_destroy)(ga_nccl_comm comm);
  int (*comm_abort)(ga_nccl_comm comm);
  int (*comm_count)(ga_nccl_comm comm, int *count);
  int (*comm_cu_device)(ga_nccl_comm comm, int *device);
  int (*comm_user_rank)(ga_nccl_comm comm, int *rank);
  int (*comm_get_async_error)(ga_nccl_comm comm, int *error);
  const char *(*get_error_string)(int status);
  const char *(*get_last_error)(ga_nccl_comm comm);
  int (*all_reduce)(const void *send, void *recv, size_t count, int type, int op, ga_nccl_comm comm,
                    cudaStream_t s);
  int (*reduce)(const void *send, void *recv, size_t count, int type, int op, int root, ga_nccl_comm comm,
                cudaStream_t s);
  int (*broadcast)(const void *send, void *recv, size_t count, int type, int root, ga_nccl_comm comm,
                   cudaStream_t s);
  int (*all_gather)(const void *send, void *recv, size_t sendcount, int type, ga_nccl_comm comm,
                    cudaStream_t s);
  int (*reduce_scatter)(const void *send, void *recv, size_t recvcount, int type, int op,
                        ga_nccl_comm comm, cudaStream_t s);
  int (*send)(const void *buf, size_t count, int type, int peer, ga_nccl_comm comm, cudaStream_t s);
  int (*recv)(void *buf, size_t count, int type, int peer, ga_nccl_comm comm, cudaStream_t s);
  int (*group_start)(void);
  int (*group_end)(void);
  /* optional (NULL where the library is older): non-blocking init (2.14),
  ** communicator split (2.18) */
  int (*comm_init_rank_config)(ga_nccl_comm *comm, int nranks, ga_nccl_id id, int rank, void *config);
  int (*comm_split)(ga_nccl_comm comm, int color, int key, ga_nccl_comm *newcomm, void *config);
} ga_nccl_api;
/* ncclConfig_t as NCCL 2.14 laid it out (NCCL reads an older layout by its
** size and version fields); NCCL_CONFIG_INITIALIZER's values with
** blocking chosen */
typedef struct {
  size_t size;
  unsigned int magic, version;
  int blocking, cga_cluster_size, min_ctas, max_ctas;
  const char *net_name;
} ga_nccl_config;
enum { GA_NCCL_IN_PROGRESS = 7 };
/* NCCL's status names */
extern const ga_statusname ga_nccl_status[];
/* The loaded library, or NULL with *reason saying why (never raises) */
const ga_nccl_api *ga_nccl_try(const char **reason);
/* The loaded library, or raise "<fname>: NCCL is not available: <why>" */
const ga_nccl_api *ga_nccl(lua_State *L, const char *fname);
/* Raise "<fname>: <call> failed: <status> (<NCCL's last error>)" unless
** status is ncclSuccess; comm may be NULL */
void ga_nccl_check(lua_State *L, int status, ga_nccl_comm comm, const char *fname, const char *call);
/* nccl.c: ga.nccl's communicators and collectives (core.nccl) */
void ga_open_nccl(lua_State *L);

#endif
