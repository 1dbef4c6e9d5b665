--- The .npy reader: mutated files (headers of every version, shapes, dtypes,
-- orders, truncations) through ga.load; zero-size arrays load without a
-- device, so the whole reader runs.
local internal = require("gpuarray.internal")
local path = os.tmpname()

return {
  name = "npy",
  teardown = function() os.remove(path) end,
  setup = function(F) return { corpus = F.corpus("npy") } end,
  gen = function(F)
    local c = F.state.corpus
    local s = F.pick(c)
    if F.chance(0.9) then s = F.mutate(s, c) end
    return s
  end,
  run = function(bytes, F)
    local f = assert(io.open(path, "wb"))
    f:write(bytes)
    f:close()
    local x = F.ga.load(path)
    if internal.is_array(x) then return x.shape end
  end,
}
