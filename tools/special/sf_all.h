// every kernels/special header, in dependency order (the host harness)
#include "sf_base.cuh"
#include "sf_gamma.cuh"
#include "sf_bessel.cuh"
#include "sf_erf.cuh"
#include "sf_elem.cuh"
#include "sf_igam.cuh"
#include "sf_incbet.cuh"
