--- Sets: the isin case of ../shared/bench/cupy_ref.py (breadth) with the
-- same key, measured the same way (a fresh result per call, from the pool).
-- ga.isin sorts the 2^16 test values and binary searches every element in
-- one kernel (lua/gpuarray/set).
return function(ga, B)
  local el = ga.random.randint(0, 1 << 20, 1 << 24, "int32")
  local te = ga.random.randint(0, 1 << 20, 1 << 16, "int32")
  B.case("isin_i32_2^24in2^16_ms", function()
    return B.gpu_ms(function() return ga.isin(el, te) end, 20)
  end)
end
