--- ZIP archives, as .npz files are (PKWARE APPNOTE): a writer of stored
-- or deflated members (ZIP64 records where a size or an offset passes
-- 32 bits), and a reader of what NumPy's zipfile writes: members found
-- through the central directory (ZIP64 included), stored or deflated,
-- their CRC-32 checked. Byte strings in, byte strings out: no device, so
-- the CPU specs test it against archives Python writes and reads.
local deflate = require "gpuarray.io.deflate"

local M = {}

local pack, unpack = string.pack, string.unpack
local U32 = 0xFFFFFFFF

local function fail(msg) error("gpuarray: " .. msg, 0) end

-- the DOS time and date of now
local function dos_now()
  local t = os.date("*t")
  local time = (t.hour << 11) | (t.min << 5) | (t.sec // 2)
  local date = ((math.max(t.year, 1980) - 1980) << 9) | (t.month << 5) | t.day
  return time, date
end

--- Write the archive of members { {name = "a.npy", data = bytes}, ... }
-- with compression "stored" or "deflated" to the open file f (only
-- f:write is used). zip64_at: sizes or offsets from which ZIP64 records
-- are used (default 0xFFFFFFFF; a spec passes a small one).
function M.write(f, members, compression, zip64_at)
  zip64_at = zip64_at or U32
  local time, date = dos_now()
  local offset = 0
  local central = {}
  local method = compression == "deflated" and 8 or 0
  for _, m in ipairs(members) do
    local data = m.data
    local crc = deflate.crc32(data)
    local body = method == 8 and deflate.deflate(data) or data
    local usize, csize = #data, #body
    local big = usize >= zip64_at or csize >= zip64_at
    local name = m.name
    local flags = name:find("[\128-\255]") and 0x800 or 0     -- UTF-8 names
    local version = big and 45 or 20
    -- the local header: with ZIP64, both sizes live in its extra field
    local lextra = big and pack("<I2I2I8I8", 1, 16, usize, csize) or ""
    local lheader = pack("<I4I2I2I2I2I2I4I4I4I2I2", 0x04034b50, version, flags, method, time, date, crc,
      big and U32 or csize, big and U32 or usize, #name, #lextra) .. name .. lextra
    f:write(lheader, body)
    -- the central entry: ZIP64 fields for what does not fit, in order
    local cfields, cextra = {}, ""
    local far = offset >= zip64_at
    if big then cfields[#cfields + 1] = usize; cfields[#cfields + 1] = csize end
    if far then cfields[#cfields + 1] = offset end
    if #cfields > 0 then
      cextra = pack("<I2I2", 1, 8 * #cfields)
      for _, v in ipairs(cfields) do cextra = cextra .. pack("<I8", v) end
      version = 45
    end
    central[#central + 1] = pack("<I4I2I2I2I2I2I2I4I4I4I2I2I2I2I2I4I4", 0x02014b50, (3 << 8) | version, version,
      flags, method, time, date, crc, big and U32 or csize, big and U32 or usize, #name, #cextra, 0, 0, 0,
      (0x81A4 << 16), far and U32 or offset) .. name .. cextra
    offset = offset + #lheader + csize
  end
  local cd = table.concat(central)
  local count = #members
  local cd_far = offset >= zip64_at or #cd >= zip64_at or count >= 0xFFFF
  if cd_far then
    local z64 = offset + #cd
    f:write(cd, pack("<I4I8I2I2I4I4I8I8I8I8", 0x06064b50, 44, (3 << 8) | 45, 45, 0, 0, count, count, #cd, offset),
      pack("<I4I4I8I4", 0x07064b50, 0, z64, 1),
      pack("<I4I2I2I2I2I4I4I2", 0x06054b50, 0, 0, 0xFFFF, 0xFFFF, U32, U32, 0))
  else
    f:write(cd, pack("<I4I2I2I2I2I4I4I2", 0x06054b50, 0, 0, count, count, #cd, offset, 0))
  end
end

-- ZIP64 extended information in an extra field: the values of the fields
-- marked U32, in the order usize, csize, offset
local function zip64_values(extra, want, what)
  local p = 1
  while p + 3 <= #extra do
    local id, size = unpack("<I2I2", extra, p)
    if id == 1 then
      local vals, q = {}, p + 4
      for k = 1, want do
        if q + 7 > p + 3 + size then fail(what .. ": a truncated ZIP64 field") end
        vals[k] = unpack("<I8", extra, q)
        q = q + 8
      end
      return vals
    end
    p = p + 4 + size
  end
  fail(what .. ": a ZIP64 size without its ZIP64 field")
end

--- The members of the archive in bytes s: a list of { name = , data = }
-- in the central directory's order. what names the file in errors.
function M.read(s, what)
  local n = #s
  -- the end of central directory record: scan back over a comment
  local eocd
  for p = n - 21, math.max(1, n - 21 - 65535), -1 do
    if s:byte(p) == 0x50 and unpack("<I4", s, p) == 0x06054b50 then
      eocd = p
      break
    end
  end
  if not eocd then fail(what .. ": not a zip file (no end of central directory)") end
  local _, _, _, count, cdsize, cdoff = unpack("<I2I2I2I2I4I4", s, eocd + 4)
  if count == 0xFFFF or cdsize == U32 or cdoff == U32 then
    local loc = eocd - 20
    if loc < 1 or unpack("<I4", s, loc) ~= 0x07064b50 then fail(what .. ": a ZIP64 archive without its locator") end
    local z64 = unpack("<I8", s, loc + 8) + 1
    if z64 + 55 > n or unpack("<I4", s, z64) ~= 0x06064b50 then fail(what .. ": a bad ZIP64 end record") end
    count, cdsize, cdoff = unpack("<I8I8I8", s, z64 + 32)
  end
  local p = cdoff + 1
  if p + cdsize - 1 > n then fail(what .. ": the central directory is past the end of the file") end
  local members = {}
  for _ = 1, count do
    if p + 45 > n or unpack("<I4", s, p) ~= 0x02014b50 then fail(what .. ": a bad central directory entry") end
    local flags, method, _, _, crc, csize, usize, nlen, xlen, clen, _, _, _, off =
      unpack("<I2I2I2I2I4I4I4I2I2I2I2I2I4I4", s, p + 8)
    local name = s:sub(p + 46, p + 45 + nlen)
    local extra = s:sub(p + 46 + nlen, p + 45 + nlen + xlen)
    local want = (usize == U32 and 1 or 0) + (csize == U32 and 1 or 0) + (off == U32 and 1 or 0)
    if want > 0 then
      local vals, k = zip64_values(extra, want, what), 1
      if usize == U32 then usize, k = vals[k], k + 1 end
      if csize == U32 then csize, k = vals[k], k + 1 end
      if off == U32 then off = vals[k] end
    end
    if flags & 1 ~= 0 then fail(("%s: member %s is encrypted"):format(what, name)) end
    members[#members + 1] = { name = name, method = method, crc = crc, csize = csize, usize = usize, offset = off }
    p = p + 46 + nlen + xlen + clen
  end
  for _, m in ipairs(members) do
    local lp = m.offset + 1
    if lp + 29 > n or unpack("<I4", s, lp) ~= 0x04034b50 then
      fail(("%s: member %s has no local header"):format(what, m.name))
    end
    local nlen, xlen = unpack("<I2I2", s, lp + 26)
    local start = lp + 30 + nlen + xlen
    if start + m.csize - 1 > n then fail(("%s: member %s is truncated"):format(what, m.name)) end
    local data
    if m.method == 0 then
      data = s:sub(start, start + m.csize - 1)
      if #data ~= m.usize then fail(("%s: member %s: stored sizes differ"):format(what, m.name)) end
    elseif m.method == 8 then
      data = deflate.inflate(s:sub(start, start + m.csize - 1), 1, m.usize)
    else
      fail(("%s: member %s uses compression method %d (only stored and deflated are read)"):format(what,
        m.name, m.method))
    end
    if deflate.crc32(data) ~= m.crc then fail(("%s: member %s: CRC-32 mismatch"):format(what, m.name)) end
    m.data = data
  end
  return members
end

return M
