--- Index maps of distributed arrays, pure Lua (CuPy's
-- cupyx.distributed.array index_map): device ordinal -> list of blocks,
-- a block one {start, stop} per axis, 1-based and inclusive (API.md §4's
-- ranges; CuPy's slices of 0-based half-open bounds). Blocks are boxes;
-- a device may hold several, blocks may overlap (the array's mode says
-- what overlapping chunks mean). Also the plan of matmul.
local M = {}

--- M.make_2d(i_partitions, j_partitions, devices, fail): CuPy's
-- make_2d_index_map. The partitions are cut points along each axis, 0 first
-- and increasing (values, as CuPy has them: {0, 2, 4} cuts 4 rows in two);
-- devices[i][j] is a device ordinal or a list of them, the owners of block
-- (i, j). Returns the index map.
function M.make_2d(i_partitions, j_partitions, devices, fail)
  local function cuts(p, what)
    if #p < 2 then fail(("%s needs at least two cut points (0 and the length), got %d"):format(what, #p)) end
    if p[1] ~= 0 then fail(("%s must start at 0 (got %s)"):format(what, tostring(p[1]))) end
    for k = 2, #p do
      if math.type(p[k]) ~= "integer" or p[k] < p[k - 1] then
        fail(("%s must be non-decreasing integers (entry %d is %s after %s)"):format(what, k, tostring(p[k]),
          tostring(p[k - 1])))
      end
    end
  end
  cuts(i_partitions, "i_partitions")
  cuts(j_partitions, "j_partitions")
  local m, n = #i_partitions - 1, #j_partitions - 1
  if #devices ~= m then fail(("devices has %d rows, i_partitions makes %d blocks"):format(#devices, m)) end
  local map = {}
  for i = 1, m do
    local row = devices[i]
    if type(row) ~= "table" or #row ~= n then
      fail(("devices[%d] must list %d entries (j_partitions makes %d blocks)"):format(i, n, n))
    end
    for j = 1, n do
      local owners = type(row[j]) == "table" and row[j] or { row[j] }
      for _, d in ipairs(owners) do
        if math.type(d) ~= "integer" or d < 0 then
          fail(("devices[%d][%d] must be device ordinals (0-based), got %s"):format(i, j, tostring(d)))
        end
        map[d] = map[d] or {}
        table.insert(map[d], { { i_partitions[i] + 1, i_partitions[i + 1] }, { j_partitions[j] + 1,
          j_partitions[j + 1] } })
      end
    end
  end
  return map
end

--- M.normalize(index_map, shape, fail) -> sorted devices, chunks: a list
-- of {device, box} in device order then the map's order; a box is
-- {{start, stop}, ...} per axis, 1-based inclusive, nil ends filled in
-- ({} is the whole axis), negative positions counted from the end
function M.normalize(index_map, shape, fail)
  if type(index_map) ~= "table" then fail("index_map must be a table device -> list of blocks") end
  local devices = {}
  for d in pairs(index_map) do
    if math.type(d) ~= "integer" or d < 0 then
      fail(("index_map's keys must be device ordinals (0-based), got %s"):format(tostring(d)))
    end
    devices[#devices + 1] = d
  end
  if #devices == 0 then fail("index_map is empty") end
  table.sort(devices)
  local chunks = {}
  for _, d in ipairs(devices) do
    local blocks = index_map[d]
    if type(blocks) ~= "table" then fail(("index_map[%d] must be a list of blocks"):format(d)) end
    -- one block given bare ({{1, 2}, {}}) is a list of one
    if #blocks > 0 and type(blocks[1]) == "table" and (#blocks[1] == 0 or type(blocks[1][1]) ~= "table") then
      blocks = { blocks }
    end
    for b, block in ipairs(blocks) do
      if type(block) ~= "table" or #block > #shape then
        fail(("index_map[%d][%d] must be one range per axis (%d axes)"):format(d, b, #shape))
      end
      local box = {}
      for ax = 1, #shape do
        local r = block[ax] or {}
        if type(r) ~= "table" or (r[3] ~= nil and r[3] ~= 1) then
          fail(("index_map[%d][%d]: axis %d must be a range {start, stop} (step 1)"):format(d, b, ax))
        end
        local n = shape[ax]
        local s, e = r[1] or 1, r[2] or n
        if s < 0 then s = n + s + 1 end
        if e < 0 then e = n + e + 1 end
        if math.type(s) ~= "integer" or math.type(e) ~= "integer" or s < 1 or e > n or s > e + 1 then
          fail(("index_map[%d][%d]: axis %d's range {%s, %s} is not within 1 to %d"):format(d, b, ax,
            tostring(r[1]), tostring(r[2]), n))
        end
        box[ax] = { s, e }
      end
      chunks[#chunks + 1] = { device = d, box = box }
    end
  end
  return devices, chunks
end

--- M.intersect(a, b) -> the box both cover, or nil
function M.intersect(a, b)
  local out = {}
  for ax = 1, #a do
    local s, e = math.max(a[ax][1], b[ax][1]), math.min(a[ax][2], b[ax][2])
    if s > e then return nil end
    out[ax] = { s, e }
  end
  return out
end

--- M.relative(box, within) -> box in the coordinates of the block within
function M.relative(box, within)
  local out = {}
  for ax = 1, #box do out[ax] = { box[ax][1] - within[ax][1] + 1, box[ax][2] - within[ax][1] + 1 } end
  return out
end

--- M.shape(box) -> the block's shape
function M.shape(box)
  local out = {}
  for ax = 1, #box do out[ax] = box[ax][2] - box[ax][1] + 1 end
  return out
end

--- M.export(chunks) -> an index map (device -> list of boxes), copied
function M.export(chunks)
  local map = {}
  for _, c in ipairs(chunks) do
    map[c.device] = map[c.device] or {}
    local box = {}
    for ax, r in ipairs(c.box) do box[ax] = { r[1], r[2] } end
    table.insert(map[c.device], box)
  end
  return map
end

local function same_range(x, y) return x[1] == y[1] and x[2] == y[2] end

--- M.matmul_plan(a_chunks, b_chunks, m, k, n, fail) -> a list of
-- {device, a (index into a_chunks), b (into b_chunks), box (of the
-- result)}: each product A[I,K] @ B[K,J] once, on a device holding both
-- blocks; the result's mode is sum over these chunks. Every K of the
-- contraction must be covered for every (I, J), once.
function M.matmul_plan(a_chunks, b_chunks, m, k, n, fail)
  local plan, done = {}, {}
  for ai, a in ipairs(a_chunks) do
    for bi, b in ipairs(b_chunks) do
      if a.device == b.device and same_range(a.box[2], b.box[1]) then
        local key = table.concat({ a.box[1][1], a.box[1][2], a.box[2][1], a.box[2][2], b.box[2][1], b.box[2][2] }, ",")
        if not done[key] then
          done[key] = true
          plan[#plan + 1] = { device = a.device, a = ai, b = bi, box = { a.box[1], b.box[2] } }
        end
      end
    end
  end
  -- coverage: every element of the result gets the whole contraction once;
  -- checked on the cells between the blocks' edges, not element by element
  local function cells(axis, len)
    local cut = { [1] = true, [len + 1] = true }
    for _, p in ipairs(plan) do cut[p.box[axis][1]], cut[p.box[axis][2] + 1] = true, true end
    local starts = {}
    for c in pairs(cut) do if c <= len then starts[#starts + 1] = c end end
    table.sort(starts)
    return starts
  end
  local rows, cols = cells(1, m), cells(2, n)
  for _, i in ipairs(rows) do
    for _, j in ipairs(cols) do
      local terms = 0
      for _, p in ipairs(plan) do
        if p.box[1][1] <= i and i <= p.box[1][2] and p.box[2][1] <= j and j <= p.box[2][2] then
          local kr = a_chunks[p.a].box[2]
          terms = terms + (kr[2] - kr[1] + 1)
        end
      end
      if terms ~= k then
        fail(("element (%d, %d) of the product gets %d of the %d terms of its sum: a's column blocks and b's "
          .. "row blocks must match, and some device must hold both blocks of each product"):format(i, j, terms, k))
      end
    end
  end
  return plan
end

return M
