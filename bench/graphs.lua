--- CUDA graph cases: a loop of 100 tiny dependent ufuncs, eager (host time
-- per loop) and captured once then replayed on a created non-blocking
-- stream (10 warm-up replays, 200 timed, host clock). CuPy's twin is the
-- end of fusion_and_graphs in ../shared/bench/cupy_ref.py.
return function(ga, B)
  local a = ga.ones(1024, "float32")
  local b = ga.empty_like(a)

  local function hundred()
    for _ = 1, 50 do
      ga.multiply(a, 1.0001, { out = b })
      ga.add(b, 1e-4, { out = a })
    end
    ga.eval(a, b)      -- lazy evaluation: the 100 ops are computed in each rep
  end

  B.case("eager_100ops_us", function()
    return B.host_us(hundred, 200)
  end)

  B.case("graph_100ops_us", function()
    local s = ga.Stream({ non_blocking = true })
    local g
    do
      local _ <close> = s:scope()
      hundred()          -- compile and warm outside the capture
      s:synchronize()
      s:begin_capture()
      hundred()
      g = s:end_capture()
    end
    for _ = 1, 10 do g:launch(s) end
    s:synchronize()
    local now = ga._core.runtime.now
    local t = now()
    for _ = 1, 200 do g:launch(s) end
    s:synchronize()
    return (now() - t) / 200 * 1e6
  end)
end
