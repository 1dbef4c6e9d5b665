--- choice, permutation and shuffle. Permutations come from a keyed
-- bijection of the index range (a Feistel network cycle-walked into
-- [0, n), kernels/random/philox.cuh): every index appears exactly once,
-- with no sort; the first k values of one are k draws without replacement.
-- Weighted choice inverts the cumulative weights by binary search.
return function(ga, bits, M)
  local internal = require("gpuarray.internal")
  local fail = internal.fail
  local is_array = internal.is_array

  -- a permutation of [0, n) plus add (the first count of it), int64
  local function perm(self, n, count, add)
    return bits.fill(self._bits, ga.empty(count, "int64"), "permutation", n, add)
  end

  --- permutation(n): a shuffled arange(n) (values 0..n-1, as NumPy);
  -- permutation(x): a copy of x shuffled along its first axis
  function M.permutation(self, x)
    local n = math.tointeger(x)
    if n then
      if n < 0 then fail("random.permutation: n must be >= 0") end
      return perm(self, n, n, 0)
    end
    if type(x) == "table" and not is_array(x) then x = ga.array(x) end
    if not is_array(x) then fail("random.permutation: an integer or an ndarray, got " .. type(x)) end
    if x.ndim == 0 then fail("random.permutation: x must be at least 1-d") end
    local len = x.shape[1]
    if len == 0 then return x:copy() end
    return ga.take(x, perm(self, len, len, 1), 1)
  end

  --- shuffle(x): x shuffled in place along its first axis (returns nothing)
  function M.shuffle(self, x)
    if not is_array(x) then fail("random.shuffle: x must be an ndarray") end
    if x.ndim == 0 then fail("random.shuffle: x must be at least 1-d") end
    local len = x.shape[1]
    if len > 1 then x:set(ga.take(x, perm(self, len, len, 1), 1)) end
  end

  local search_kernel
  local function searcher()
    search_kernel = search_kernel or ga.ElementwiseKernel("float64 u, raw float64 cdf, int64 m, int64 base",
      "int64 k", [[
        long long lo = 0, hi = m - 1;
        double t = u * cdf[m - 1];
        while (lo < hi) {
          long long mid = lo + (hi - lo) / 2;
          if (cdf[mid] > t) hi = mid; else lo = mid + 1;
        }
        k = lo + base;
      ]], "ga_random_choice_search")
    return search_kernel
  end

  -- weights p (a table or 1-D ndarray of n non-negative values summing to 1)
  -- as float64 cumulative sums
  local function cdf_of(p, n)
    local w = is_array(p) and p:astype("float64") or ga.array(p, "float64")
    if w.ndim ~= 1 or w.shape[1] ~= n then fail("random.choice: p must be 1-d with one weight per value") end
    local total = w:sum():item()
    if ga.any(w:lt(0)):item() then fail("random.choice: probabilities are not non-negative") end
    if math.abs(total - 1) > 1e-8 * math.max(1, n) ^ 0.5 then
      fail("random.choice: probabilities do not sum to 1")
    end
    return ga.cumsum(w)
  end

  --- choice(a[, size[, replace[, p]]]) or choice(a, {size=, replace=, p=}):
  -- a is an integer n (draw from 0..n-1) or a 1-D ndarray / table of values
  function M.choice(self, a, size, replace, p)
    if type(size) == "table" and not is_array(size) and (size.size or size.replace ~= nil or size.p) then
      size, replace, p = size.size, size.replace, size.p
    end
    if replace == nil then replace = true end
    local n = math.tointeger(a)
    local values
    if n == nil then
      values = is_array(a) and a or (type(a) == "table" and ga.array(a))
      if not values then fail("random.choice: a must be an integer or a 1-d array") end
      if values.ndim ~= 1 then fail("random.choice: a must be 1-dimensional") end
      n = values.shape[1]
    end
    if n <= 0 then fail("random.choice: a must be non-empty") end
    local base = values and 1 or 0      -- 1-based positions for take, values 0..n-1 otherwise
    local shape = bits.shape(size)
    local count = 1
    for _, d in ipairs(type(shape) == "table" and shape or { shape }) do count = count * d end
    local idx
    if p ~= nil then
      if not replace then fail("random.choice: p with replace=false is not supported") end
      local u = M.random(self, shape, "float64")
      idx = searcher()(u, cdf_of(p, n), ga.int64(n), ga.int64(base))
    elseif replace then
      idx = M._integers(self, "random.choice", base, n - 1 + base, shape, "int64", true)
    else
      if count > n then fail("random.choice: cannot take a larger sample than the population without replacement") end
      idx = perm(self, n, count, base):reshape(shape)
    end
    if values then return ga.take(values, idx, 1) end
    return idx
  end
end
