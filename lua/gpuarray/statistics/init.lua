--- Statistics (NumPy 2): order statistics (quantile.lua), means, variances,
-- covariances and correlation (moments.lua), histograms of several
-- dimensions (histograms.lua). ptp, mean, var, std are reductions
-- (reduction/builtins.lua); histogram, bincount, digitize are in sort/count.lua.
return function(ga)
  require("gpuarray.statistics.quantile")(ga)
  require("gpuarray.statistics.moments")(ga)
  require("gpuarray.statistics.histograms")(ga)
end
