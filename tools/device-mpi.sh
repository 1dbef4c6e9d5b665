#!/bin/sh
# Open MPI for a GPU machine that has none (and no network to install it).
#   sh tools/device-mpi.sh prepare      here: Debian's openmpi-bin, libopenmpi3 and the
#                                       libraries they need, downloaded into .device/mpi/
#                                       (git-ignored; carry ".device" with the device call)
#   sh tools/device-mpi.sh CMD ARGS...  there: unpacks them into /opt/mpiroot (once), puts
#                                       mpirun on PATH, its libraries on LD_LIBRARY_PATH,
#                                       OPAL_PREFIX where Open MPI now lives, allows root,
#                                       and runs CMD
set -e
debs=".device/mpi"
if [ "${1:-}" = prepare ]; then
  mkdir -p "$debs"
  (cd "$debs" && apt-get download openmpi-bin openmpi-common libopenmpi3 libpmix2 libhwloc15 \
    libevent-core-2.1-7 libevent-pthreads-2.1-7 libfabric1 libucx0 libibverbs1 librdmacm1 libnl-3-200 \
    libnl-route-3-200 libpsm-infinipath1 libpsm2-2 libmunge2 libnuma1 > /dev/null) \
    || { echo "apt-get download failed (apt-get update first?)"; exit 1; }
  echo "ready: $debs ($(du -sh "$debs" | cut -f1), $(ls "$debs" | wc -l) packages)"
  exit 0
fi
R=${MPI_ROOT:-/opt/mpiroot}
if [ ! -e $R/usr/bin/mpirun ]; then
  ls "$debs"/*.deb > /dev/null 2>&1 || { echo "tools/device-mpi.sh: no $debs/*.deb (run 'prepare' and carry .device)"; exit 1; }
  mkdir -p $R
  for f in "$debs"/*.deb; do dpkg -x "$f" $R; done
  # Debian names them through update-alternatives, which dpkg -x does not run
  ln -sf mpirun.openmpi $R/usr/bin/mpirun
  ln -sf mpiexec.openmpi $R/usr/bin/mpiexec
fi
lib=$R/usr/lib/x86_64-linux-gnu
export PATH=$R/usr/bin:$PATH
export LD_LIBRARY_PATH=$lib:$lib/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OPAL_PREFIX=$R/usr
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export GPUARRAY_MPI=$lib/libmpi.so.40
# one node: no remote shell is needed (and the machine has none): the
# "isolated" launcher starts the ranks locally
export OMPI_MCA_plm=isolated
exec "$@"
