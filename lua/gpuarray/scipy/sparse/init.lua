--- ga.scipy.sparse (API.md §15): the same table as ga.sparse (matrices,
-- formats, constructors: lua/gpuarray/sparse/), with its submodules added
-- on first use: linalg (lua/gpuarray/scipy/sparse/linalg/) and csgraph.
-- After ga.scipy.sparse is first read, ga.sparse.linalg is the same table.
return function(ga)
  local sparse = ga.sparse
  sparse.linalg = require("gpuarray.scipy.sparse.linalg")(ga, sparse)
  sparse.csgraph = require("gpuarray.scipy.sparse.csgraph")(ga, sparse)
  return sparse
end
