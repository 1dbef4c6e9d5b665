--- ga.graph: CUDA graphs (CuPy's Stream.begin_capture / end_capture and
-- cupy.cuda.Graph). The capture itself is C (runtime/graph.c); this adds
-- ga.graph.capture(fn[, stream]), which runs fn with the stream current and
-- in capture mode and always leaves the previous current stream in place.
return function(ga)
  local core = ga._core
  local graph = {}

  local api = require "gpuarray.api"
  api.def(graph, [[
graph.capture(fn: function, stream: Stream?) -> Graph
fn(stream) runs once with the stream current and capturing; what it queues becomes the graph
(g:launch([stream]) replays it). Without a stream a new non-blocking one is made. If fn raises,
the capture is thrown away and the error goes on.
]], function(fn, stream)
    local s = stream
    if s == nil then
      s = ga.Stream({ non_blocking = true })
    else
      core.runtime.check_stream(s, "graph.capture")
    end
    local _ <close> = s:scope()
    s:begin_capture()
    local ok, err = pcall(api.call_user, fn, s)   -- the user's errors pass unchanged
    if not ok then
      core.runtime.abort_capture(s)
      error(err, 0)
    end
    return s:end_capture()
  end)

  ga.graph = graph
end
