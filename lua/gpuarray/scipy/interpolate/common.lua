--- What the interpolate files share: data moved to the host (x, and y with
-- its interpolation axis first and the rest flattened to columns), the
-- banded solver of the spline systems, and evaluation into the caller's
-- shape (queries' shape + y's trailing shape).
return function(ga)
  local internal = require("gpuarray.internal")
  local fail, is_array = internal.fail, internal.is_array
  local C = {}
  C.K = require("gpuarray.scipy.interpolate.kernels")(ga)

  --- a 1-D list of numbers from array_like
  function C.list(v, fname, what)
    local a = is_array(v) and v or ga.asarray(v)
    if a.ndim ~= 1 then fail(("%s: %s must be 1-D"):format(fname, what)) end
    local t = a:astype("float64"):totable()
    return t, a
  end

  --- y with axis (1-based, negative from the end) first: rows (n lists
  -- of r numbers), r, the trailing shape, the dtype
  C.MAX_ROWS = 1 << 24
  function C.rows(y, axis, fname)
    local a = is_array(y) and y or ga.asarray(y)
    if a.ndim == 0 then fail(fname .. ": y must be at least 1-D") end
    local ax = axis < 0 and axis + a.ndim + 1 or axis
    if ax < 1 or ax > a.ndim then fail(fname .. ": axis out of bounds") end
    local perm = { ax }
    for d = 1, a.ndim do if d ~= ax then perm[#perm + 1] = d end end
    local m = ga.ascontiguousarray(a:transpose(perm))
    local n = m.shape[1]
    -- the rows become host tables (a Krogh or barycentric table is O(n^2)
    -- work there): 2^53 rows of nothing looped past 10^8 instructions
    if n > C.MAX_ROWS then
      fail(("%s: at most %d points (y has %d along the axis)"):format(fname, C.MAX_ROWS, n))
    end
    local trail = {}
    for d = 2, m.ndim do trail[#trail + 1] = m.shape[d] end
    local r = 1
    for _, s in ipairs(trail) do r = r * s end
    local flat = m:astype("float64"):reshape(-1):totable()
    local rows = {}
    for i = 1, n do
      local row = {}
      for c = 1, r do row[c] = flat[(i - 1) * r + c] end
      rows[i] = row
    end
    return rows, r, trail, a.dtype, n
  end

  --- rows (list of lists) as a flat float64 device array
  function C.upload(rows)
    local flat = {}
    for _, row in ipairs(rows) do
      for _, v in ipairs(row) do flat[#flat + 1] = v end
    end
    if #flat == 0 then flat[1] = 0 end
    return ga.array(flat, "float64")
  end

  --- x strictly increasing
  function C.check_increasing(x, fname)
    for i = 2, #x do
      if x[i] <= x[i - 1] or x[i] ~= x[i] then fail(fname .. ": `x` must be strictly increasing sequence.") end
    end
  end

  --- the query array (float or int; read as is) and the result shape
  function C.queries(x, trail)
    local q = is_array(x) and x or ga.asarray(x)
    if not (q.dtype == "float32" or q.dtype == "float64") then q = q:astype("float64") end
    local shape = q.shape
    for _, s in ipairs(trail) do shape[#shape + 1] = s end
    return ga.ascontiguousarray(q), shape
  end

  --- run an eval kernel over q.size * r outputs and shape the result
  function C.eval(kernel, q, r, shape, dtype, ...)
    local y = ga.empty(q.size * r, dtype or "float64")
    if y.size > 0 then
      local args = table.pack(q, ...)
      args[args.n + 1] = y
      kernel()(table.unpack(args, 1, args.n + 1))
    end
    return y:reshape(shape)
  end

  --- solve the banded system A x = b in place (no pivoting: the spline
  -- collocation and normal matrices here are totally positive or
  -- positive definite). A: n rows, each a table col -> value within the
  -- band (lower kl, upper ku); b: n rows of r numbers. Returns b's solution.
  function C.banded_solve(A, b, n, kl, ku)
    for i = 1, n do
      local piv = A[i][i]
      if piv == 0 or piv ~= piv then return nil end
      for j = i + 1, math.min(n, i + kl) do
        local f = (A[j][i] or 0) / piv
        if f ~= 0 then
          for c = i, math.min(n, i + ku) do
            A[j][c] = (A[j][c] or 0) - f * (A[i][c] or 0)
          end
          for c = 1, #b[j] do b[j][c] = b[j][c] - f * b[i][c] end
        end
      end
    end
    for i = n, 1, -1 do
      for c = 1, #b[i] do
        local s = b[i][c]
        for j = i + 1, math.min(n, i + ku) do s = s - (A[i][j] or 0) * b[j][c] end
        b[i][c] = s / A[i][i]
      end
    end
    return b
  end

  return C
end
