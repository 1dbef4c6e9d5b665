-- Lazy evaluation's memory promise (issue 29): a 20-operation chain over a
-- 1 GiB array raises the pool's use by at most one array's size; the
-- intermediates nothing holds are never allocated. The pool has no peak
-- counter: recording must allocate nothing (used_bytes unchanged), and
-- after free_all_blocks the bytes the pool holds from the device
-- (total_bytes, which keeps whatever a temporary took) grow by at most one
-- array's size through the evaluation. Needs 2 GiB free (an 80 GB card).
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it
local core = require "gpuarray.core"

describe("lazy evaluation's memory", function()
  gpu_it("a 20-operation chain over 1 GiB raises the pool by one array", function()
    local prev = ga.set_lazy(true)
    local ok, err = pcall(function()
      local pool = ga.get_default_memory_pool()
      local n = (1 << 30) // 4
      local x = ga.zeros(n, "float32")
      x:add_(0.5)
      ga.synchronize()
      collectgarbage()
      collectgarbage()
      pool:free_all_blocks()
      local used0, total0 = pool:used_bytes(), pool:total_bytes()
      local y = x
      for i = 1, 10 do y = y * 1.0001 + i end   -- 20 operations
      assert(core._test.lazy_info(y), "the chain is pending")
      assert.are.equal(used0, pool:used_bytes(), "recording allocated nothing")
      y:eval()
      ga.synchronize()
      local used1, total1 = pool:used_bytes(), pool:total_bytes()
      local one = n * 4
      assert(used1 - used0 <= one,
        ("used grew by %d bytes, one array is %d"):format(used1 - used0, one))
      assert(total1 - total0 <= one + (64 << 20),
        ("the pool took %d bytes from the device, one array is %d"):format(total1 - total0, one))
      -- the value: x = 0.5, then ten steps of y * 1.0001 + i in float32
      local e = 0.5
      for i = 1, 10 do
        e = string.unpack("f", string.pack("f", e * string.unpack("f", string.pack("f", 1.0001))))
        e = string.unpack("f", string.pack("f", e + i))
      end
      assert.are.equal(e, y[{ n }], "the last element")
    end)
    ga.set_lazy(prev)
    if not ok then error(err, 0) end
  end)
end)
