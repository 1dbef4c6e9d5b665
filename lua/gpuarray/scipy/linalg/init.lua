--- ga.scipy.linalg (API.md §15): cupyx.scipy.linalg's functions, name for
-- name, on the engines of ga.linalg.
--   decomp.lua            solve_triangular (cuBLAS trsm), lu_factor,
--                         lu_solve, lu (ga.linalg's one LU, so one rule
--                         for "singular"), cho_factor, cho_solve
--   matfuncs.lua          expm (Pade scaling and squaring), sqrtm
--                         (Denman-Beavers), logm (inverse scaling and
--                         squaring)
--   special_matrices.lua  block_diag toeplitz circulant hankel companion
--                         convolution_matrix dft fiedler fiedler_companion
--                         hadamard helmert hilbert leslie khatri_rao
--                         bandwidth
-- Positions the user reads back are 1-based (lu_factor's pivots, API.md
-- §14); leading axes are batches where CuPy has them.
return function(ga)
  local linalg = {}
  require("gpuarray.scipy.linalg.decomp")(ga, linalg)
  require("gpuarray.scipy.linalg.matfuncs")(ga, linalg)
  require("gpuarray.scipy.linalg.special_matrices")(ga, linalg)
  return linalg
end
