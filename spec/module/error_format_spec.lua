-- ga_error formats its message with lua_pushfstring, which knows only
-- %% %s %f %I %p %d %c %U: a printf habit such as %lld or %zu raises
-- "invalid option" instead of the message (found in nccl.c, sort.c and
-- sparse.c). Every ga_error call in src/ is read here, on CI too.
local function c_files()
  local p = io.popen("find src -name '*.c' | sort")
  local files = {}
  for f in p:lines() do files[#files + 1] = f end
  p:close()
  return files
end

describe("ga_error formats", function()
  it("use only the conversions lua_pushfstring knows", function()
    local bad = {}
    for _, file in ipairs(c_files()) do
      local fh = assert(io.open(file))
      local text = fh:read("a")
      fh:close()
      for call in text:gmatch("ga_error%((.-)%);") do
        local fmt = call:match('^%s*L%s*,%s*(".-[^\\]")')
        if fmt then
          for conv in fmt:gsub("%%%%", ""):gmatch("%%(.)") do
            if not conv:match("[sfIpdcU]") then bad[#bad + 1] = file .. ": %" .. conv .. " in " .. fmt end
          end
        end
      end
    end
    assert.are.same({}, bad)
  end)
end)
