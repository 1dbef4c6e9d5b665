-- What the NCCL specs share: the dtypes and ops ga.nccl takes, random data
-- that each op keeps exact (no overflow, integers that floats hold exactly),
-- and the reduction of several ranks' values computed in Lua.
local ref = {}

ref.dtypes = { "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
               "float16", "float32", "float64", "complex64", "complex128" }
ref.ops = { "sum", "prod", "max", "min", "avg" }

--- Does NCCL reduce dtype with op? (the rest must raise)
function ref.reducible(dtype, op)
  if dtype == "int16" or dtype == "uint16" then return false end
  if dtype == "bool" then return op == "max" or op == "min" end
  if dtype:match("^complex") then return op == "sum" or op == "avg" end
  return true
end

--- A random value of dtype for op: small enough that nranks of them
-- combine exactly in the dtype (prod: 1 to 3; avg: not negative, so that
-- NCCL's integer division and Lua's floor division agree)
function ref.value(dtype, op, nranks)
  if dtype == "bool" then return math.random() < 0.5 end
  local hi = op == "prod" and 3 or (dtype:match("int8") and math.floor(100 / nranks) or 1000)
  local v = math.random(op == "prod" and 1 or 0, hi)
  if not dtype:match("^u") and op ~= "prod" and op ~= "avg" and math.random() < 0.5 then v = -v end
  if dtype:match("^complex") then return { v, math.random(-1000, 1000) } end
  return v
end

--- values[r][i]: rank r's element i -> the reduction over ranks
function ref.combine(values, op, dtype)
  local n = #values
  local out = {}
  for i = 1, #values[1] do
    local acc = values[1][i]
    for r = 2, n do
      local v = values[r][i]
      if type(acc) == "table" then
        acc = { acc[1] + v[1], acc[2] + v[2] }
      elseif type(acc) == "boolean" then
        if op == "max" then acc = acc or v else acc = acc and v end
      elseif op == "sum" or op == "avg" then acc = acc + v
      elseif op == "prod" then acc = acc * v
      elseif op == "max" then acc = math.max(acc, v)
      else acc = math.min(acc, v) end
    end
    if op == "avg" then
      if type(acc) == "table" then acc = { acc[1] / n, acc[2] / n }
      elseif dtype:match("float") then acc = acc / n
      else acc = acc // n end   -- NCCL divides integer sums (all values >= 0 here)
    end
    out[i] = acc
  end
  return out
end

return ref
