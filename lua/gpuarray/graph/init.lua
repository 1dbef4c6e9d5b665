--- ga.graph: CUDA graphs (CuPy's Stream.begin_capture / end_capture and
-- cupy.cuda.Graph). The capture itself is C (runtime/graph.c); this adds
-- ga.graph.capture(fn[, stream]), which runs fn with the stream current and
-- in capture mode and always leaves the previous current stream in place.
return function(ga)
  local core = ga._core
  local graph = {}

  --- ga.graph.capture(fn[, stream]) -> graph. fn(stream) runs once, with
  -- stream current and capturing; what it queues becomes the graph. Without
  -- a stream a new non-blocking one is made (g.stream keeps it). If fn
  -- raises, the capture is thrown away and the error goes on.
  function graph.capture(fn, stream)
    if type(fn) ~= "function" then
      error("gpuarray: graph.capture: expected a function, got " .. type(fn), 0)
    end
    local s = stream
    if s == nil then
      s = ga.Stream({ non_blocking = true })
    else
      core.runtime.check_stream(s, "graph.capture")
    end
    local _ <close> = s:scope()
    s:begin_capture()
    local ok, err = pcall(fn, s)
    if not ok then
      core.runtime.abort_capture(s)
      error(err, 0)
    end
    return s:end_capture()
  end

  ga.graph = graph
end
