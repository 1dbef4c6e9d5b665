/*
** bind.h: the top of the C tree. What module.c registers: every layer's
** and every feature room's ga_open_* functions (declared in their headers).
*/
#ifndef GA_BIND_H
#define GA_BIND_H

#include "api/api.h"
#include "elementwise/elementwise.h"
#include "reduction/reduction.h"
#include "scan/scan.h"
#include "select/select.h"
#include "sort/sort.h"
#include "random/random.h"
#include "rawkernel/rawkernel.h"
#include "blas/blas.h"
#include "solver/solver.h"
#include "fft/fft.h"
#include "sparse/sparse.h"
#include "nccl/nccl.h"
#include "distributed/distributed.h"
#include "profiler/profiler.h"
#include "interop/interop.h"

#endif
