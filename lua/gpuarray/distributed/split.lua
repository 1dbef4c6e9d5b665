--- new_group's arithmetic, pure: which color and key each rank gives
-- NCCL's ncclCommSplit so that the listed ranks, and only they, form a
-- group ranked in the order listed.
local M = {}

--- M.key(ranks, my_rank, size, fail) -> color, key: color 0 for the
-- members (key: the position in ranks, so the group's rank i is
-- ranks[i + 1]), -1 (NCCL_SPLIT_NOCOLOR: no group) for the others
function M.key(ranks, my_rank, size, fail)
  if #ranks == 0 then fail("ranks is empty (a group needs at least one rank)") end
  local seen, key = {}, -1
  for i, r in ipairs(ranks) do
    if math.type(r) ~= "integer" then fail(("ranks[%d] is not an integer (got %s)"):format(i, tostring(r))) end
    if r < 0 or r >= size then
      fail(("rank %d is not in the group of %d (ranks are 0-based: 0 to %d)"):format(r, size, size - 1))
    end
    if seen[r] then fail(("rank %d is listed twice"):format(r)) end
    seen[r] = true
    if r == my_rank then key = i - 1 end
  end
  if key >= 0 then return 0, key end
  return -1, 0
end

return M
