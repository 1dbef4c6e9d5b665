--- ga.scipy.sparse.linalg (API.md §15): cupyx.scipy.sparse.linalg's
-- functions on sparse matrices, ndarrays and LinearOperators.
--   interface.lua  LinearOperator, aslinearoperator
--   krylov.lua     what the iterative solvers share (system, reductions,
--                  the device state that spares per-iteration reads)
--   isolve.lua     cg gmres bicgstab cgs minres
--   lsq.lua        lsqr lsmr
--   dsolve.lua     spsolve (cuSOLVER's sparse Cholesky or QR, chosen by
--                  structure) spsolve_triangular factorized splu spilu
--   eigen.lua      eigsh svds lobpcg
--   matfuncs.lua   norm matrix_power expm_multiply
return function(ga)
  local L = {}
  require("gpuarray.scipy.sparse.linalg.interface")(ga, L)
  require("gpuarray.scipy.sparse.linalg.krylov")(ga, L)
  require("gpuarray.scipy.sparse.linalg.isolve")(ga, L)
  require("gpuarray.scipy.sparse.linalg.lsq")(ga, L)
  require("gpuarray.scipy.sparse.linalg.dsolve")(ga, L)
  require("gpuarray.scipy.sparse.linalg.eigen")(ga, L)
  require("gpuarray.scipy.sparse.linalg.matfuncs")(ga, L)
  return L
end
