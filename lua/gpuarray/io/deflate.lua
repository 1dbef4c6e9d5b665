--- DEFLATE (RFC 1951) in Lua, for .npz members (zip.lua): inflate reads
-- every block type (stored, fixed and dynamic Huffman); deflate writes
-- LZ77 (3-byte keys, hash chains, greedy matching) coded with dynamic
-- Huffman codes, or a stored block where coding would not pay (random
-- float bytes). Pure Lua on the host: no zlib is linked (the module loads
-- where zlib's headers are absent), so large arrays compress at a few MB/s.
-- CRC-32 (the zip members' checksum) is here too.
local M = {}

local byte, char, concat = string.byte, string.char, table.concat

---------------------------------------------------------------------------
-- CRC-32 (IEEE 802.3, reflected), four bytes a step (slicing by 4)

local T0, T1, T2, T3 = {}, {}, {}, {}
for i = 0, 255 do
  local c = i
  for _ = 1, 8 do c = (c & 1 == 1) and (0xEDB88320 ~ (c >> 1)) or (c >> 1) end
  T0[i] = c
end
for i = 0, 255 do
  T1[i] = (T0[i] >> 8) ~ T0[T0[i] & 255]
  T2[i] = (T1[i] >> 8) ~ T0[T1[i] & 255]
  T3[i] = (T2[i] >> 8) ~ T0[T2[i] & 255]
end

--- The CRC-32 of s (continuing crc, default a fresh one)
function M.crc32(s, crc)
  crc = (crc or 0) ~ 0xFFFFFFFF
  local n = #s
  local i = 1
  local unpack = string.unpack
  while i + 15 <= n do
    local a, b, c, d = unpack("<I4I4I4I4", s, i)
    crc = crc ~ a
    crc = T3[crc & 255] ~ T2[(crc >> 8) & 255] ~ T1[(crc >> 16) & 255] ~ T0[crc >> 24]
    crc = crc ~ b
    crc = T3[crc & 255] ~ T2[(crc >> 8) & 255] ~ T1[(crc >> 16) & 255] ~ T0[crc >> 24]
    crc = crc ~ c
    crc = T3[crc & 255] ~ T2[(crc >> 8) & 255] ~ T1[(crc >> 16) & 255] ~ T0[crc >> 24]
    crc = crc ~ d
    crc = T3[crc & 255] ~ T2[(crc >> 8) & 255] ~ T1[(crc >> 16) & 255] ~ T0[crc >> 24]
    i = i + 16
  end
  while i <= n do
    crc = T0[(crc ~ byte(s, i)) & 255] ~ (crc >> 8)
    i = i + 1
  end
  return crc ~ 0xFFFFFFFF
end

---------------------------------------------------------------------------
-- the tables of the format

local LEN_BASE = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
                   131, 163, 195, 227, 258 }
local LEN_EXTRA = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 }
local DIST_BASE = { 1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577 }
local DIST_EXTRA = { 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12,
                     13, 13 }
local CL_ORDER = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 }

local function fail(msg) error("gpuarray: " .. msg, 0) end

-- bit-reversed code of len bits
local function reverse(code, len)
  local r = 0
  for _ = 1, len do
    r = (r << 1) | (code & 1)
    code = code >> 1
  end
  return r
end

-- canonical codes from code lengths (lengths[sym + 1], 0 = unused):
-- codes[sym + 1] (bit-reversed, as the stream carries them)
local function canonical(lengths, n)
  local count, next_code = {}, {}
  local maxlen = 0
  for l = 0, 15 do count[l] = 0 end
  for s = 1, n do
    local l = lengths[s] or 0
    count[l] = count[l] + 1
    if l > maxlen then maxlen = l end
  end
  count[0] = 0
  local code = 0
  for l = 1, 15 do
    code = (code + count[l - 1]) << 1
    next_code[l] = code
  end
  local codes = {}
  for s = 1, n do
    local l = lengths[s] or 0
    if l > 0 then
      codes[s] = reverse(next_code[l], l)
      next_code[l] = next_code[l] + 1
    end
  end
  return codes, maxlen, count
end

---------------------------------------------------------------------------
-- inflate

-- a decoding table: entry [reversed code of maxlen bits] = sym | len << 16
local function decoder(lengths, n, what)
  local codes, maxlen, count = canonical(lengths, n)
  if maxlen == 0 then return { maxlen = 0 } end
  -- an over-subscribed code is corrupt (an incomplete one is allowed)
  local left = 1
  for l = 1, 15 do
    left = (left << 1) - count[l]
    if left < 0 then fail(("load: corrupt deflate stream (over-subscribed %s code)"):format(what)) end
  end
  local t = { maxlen = maxlen }
  for s = 1, n do
    local l = lengths[s] or 0
    if l > 0 then
      local entry = (s - 1) | (l << 16)
      for fill = codes[s], (1 << maxlen) - 1, 1 << l do t[fill] = entry end
    end
  end
  return t
end

local FIXED_LIT, FIXED_DIST
local function fixed_tables()
  if not FIXED_LIT then
    local l = {}
    for s = 0, 143 do l[s + 1] = 8 end
    for s = 144, 255 do l[s + 1] = 9 end
    for s = 256, 279 do l[s + 1] = 7 end
    for s = 280, 287 do l[s + 1] = 8 end
    FIXED_LIT = decoder(l, 288, "literal")
    local d = {}
    for s = 1, 30 do d[s] = 5 end
    FIXED_DIST = decoder(d, 30, "distance")
  end
  return FIXED_LIT, FIXED_DIST
end

--- Decompress the raw deflate stream in data (from byte pos, default 1);
-- expect: the size the result must have (nil: any). Returns the bytes.
function M.inflate(data, pos, expect)
  local p = pos or 1
  local n = #data
  local bitbuf, bitcnt = 0, 0
  -- the output: a byte window (at most 96 KiB) flushed into chunks
  local out, op, chunks, total = {}, 0, {}, 0
  local function flush(keep)
    local upto = op - keep
    if upto <= 0 then return end
    for i = 1, upto, 4096 do
      chunks[#chunks + 1] = char(table.unpack(out, i, math.min(i + 4095, upto)))
    end
    table.move(out, upto + 1, op, 1)
    for i = op - upto + 1, op do out[i] = nil end
    op = op - upto
  end

  local function need(k)
    while bitcnt < k do
      local b = byte(data, p)
      if b == nil then
        -- a peek may look 2 bytes past the end (a code of up to 15 bits)
        if p > n + 2 then fail("load: truncated deflate stream") end
        b = 0
      end
      bitbuf = bitbuf | (b << bitcnt)
      p = p + 1
      bitcnt = bitcnt + 8
    end
  end
  local function bits(k)
    if k == 0 then return 0 end
    need(k)
    local v = bitbuf & ((1 << k) - 1)
    bitbuf = bitbuf >> k
    bitcnt = bitcnt - k
    return v
  end
  local function decode(t)
    local maxlen = t.maxlen
    if maxlen == 0 then fail("load: corrupt deflate stream (an empty code is used)") end
    need(maxlen)
    local e = t[bitbuf & ((1 << maxlen) - 1)]
    if e == nil then fail("load: corrupt deflate stream (an invalid code)") end
    local l = e >> 16
    bitbuf = bitbuf >> l
    bitcnt = bitcnt - l
    return e & 0xFFFF
  end

  local final = false
  while not final do
    final = bits(1) == 1
    local btype = bits(2)
    if btype == 0 then
      -- stored: to the byte boundary, LEN, NLEN, then LEN bytes
      bitbuf, bitcnt = bitbuf >> (bitcnt % 8), bitcnt - bitcnt % 8
      local len, nlen = bits(16), bits(16)
      if len ~ 0xFFFF ~= nlen then fail("load: corrupt deflate stream (stored block length)") end
      -- the bit buffer is byte aligned and holds whole bytes read ahead
      p = p - bitcnt // 8
      bitbuf, bitcnt = 0, 0
      if p + len - 1 > n then fail("load: truncated deflate stream") end
      for i = p, p + len - 1, 4096 do
        local j = math.min(i + 4095, p + len - 1)
        local bs = { byte(data, i, j) }
        table.move(bs, 1, #bs, op + 1, out)
        op = op + #bs
        total = total + #bs
        if op > 98304 then flush(32768) end
      end
      p = p + len
    elseif btype == 1 or btype == 2 then
      local lit, dist
      if btype == 1 then
        lit, dist = fixed_tables()
      else
        local hlit, hdist, hclen = bits(5) + 257, bits(5) + 1, bits(4) + 4
        local cl = {}
        for i = 1, hclen do cl[CL_ORDER[i] + 1] = bits(3) end
        local clt = decoder(cl, 19, "code length")
        local lens = {}
        local k = 0
        while k < hlit + hdist do
          local sym = decode(clt)
          if sym < 16 then
            k = k + 1
            lens[k] = sym
          else
            local rep, v
            if sym == 16 then
              if k == 0 then fail("load: corrupt deflate stream (a repeat with no length)") end
              v, rep = lens[k], 3 + bits(2)
            elseif sym == 17 then
              v, rep = 0, 3 + bits(3)
            else
              v, rep = 0, 11 + bits(7)
            end
            if k + rep > hlit + hdist then fail("load: corrupt deflate stream (too many lengths)") end
            for _ = 1, rep do
              k = k + 1
              lens[k] = v
            end
          end
        end
        if (lens[257] or 0) == 0 then fail("load: corrupt deflate stream (no end-of-block code)") end
        local dl = {}
        for i = 1, hdist do dl[i] = lens[hlit + i] end
        lit = decoder(lens, hlit, "literal")
        dist = decoder(dl, hdist, "distance")
      end
      while true do
        local sym = decode(lit)
        if sym < 256 then
          op = op + 1
          out[op] = sym
          total = total + 1
          if op > 98304 then flush(32768) end
        elseif sym == 256 then
          break
        else
          sym = sym - 256
          if sym > 29 then fail("load: corrupt deflate stream (a bad length code)") end
          local len = LEN_BASE[sym] + bits(LEN_EXTRA[sym])
          local dsym = decode(dist) + 1
          if dsym > 30 then fail("load: corrupt deflate stream (a bad distance code)") end
          local d = DIST_BASE[dsym] + bits(DIST_EXTRA[dsym])
          if d > total then fail("load: corrupt deflate stream (a distance past the start)") end
          if d > op then fail("load: corrupt deflate stream (a distance past the window)") end
          local from = op - d
          for i = 1, len do out[op + i] = out[from + i] end
          op = op + len
          total = total + len
          if op > 98304 then flush(32768) end
        end
      end
    else
      fail("load: corrupt deflate stream (block type 3)")
    end
    if expect and total > expect then fail("load: deflate stream longer than its recorded size") end
  end
  flush(0)
  local s = concat(chunks)
  if expect and #s ~= expect then
    fail(("load: deflate stream gives %d bytes, its recorded size is %d"):format(#s, expect))
  end
  return s, p - bitcnt // 8
end

---------------------------------------------------------------------------
-- deflate

-- bits out, least significant first
local function writer()
  local w = { buf = 0, cnt = 0, bytes = {}, nb = 0, chunks = {} }
  function w.put(v, k)
    w.buf = w.buf | (v << w.cnt)
    w.cnt = w.cnt + k
    while w.cnt >= 8 do
      w.nb = w.nb + 1
      w.bytes[w.nb] = w.buf & 255
      w.buf = w.buf >> 8
      w.cnt = w.cnt - 8
      if w.nb >= 4096 then
        w.chunks[#w.chunks + 1] = char(table.unpack(w.bytes, 1, w.nb))
        w.nb = 0
      end
    end
  end
  function w.align()
    if w.cnt > 0 then w.put(0, 8 - w.cnt) end
  end
  function w.raw(s)   -- after align
    if w.nb > 0 then
      w.chunks[#w.chunks + 1] = char(table.unpack(w.bytes, 1, w.nb))
      w.nb = 0
    end
    w.chunks[#w.chunks + 1] = s
  end
  function w.finish()
    w.align()
    if w.nb > 0 then w.chunks[#w.chunks + 1] = char(table.unpack(w.bytes, 1, w.nb)) end
    return concat(w.chunks)
  end
  return w
end

-- code lengths (at most limit bits) for the frequencies freq[1..n]
local function code_lengths(freq, n, limit)
  local syms = {}
  for s = 1, n do if (freq[s] or 0) > 0 then syms[#syms + 1] = s end end
  local lengths = {}
  for s = 1, n do lengths[s] = 0 end
  if #syms == 0 then return lengths end
  if #syms == 1 then
    lengths[syms[1]] = 1
    return lengths
  end
  -- Huffman's algorithm over sorted leaves and a queue of merged nodes
  table.sort(syms, function(a, b)
    if freq[a] ~= freq[b] then return freq[a] < freq[b] end
    return a < b
  end)
  local leaves = {}
  for i, s in ipairs(syms) do leaves[i] = { freq[s], sym = s } end
  local li, qi, queue = 1, 1, {}
  local function take()
    local a = leaves[li]
    local b = queue[qi]
    if a and (not b or a[1] <= b[1]) then
      li = li + 1
      return a
    end
    qi = qi + 1
    return b
  end
  local count = #syms
  for _ = 1, count - 1 do
    local x = take()
    local y = take()
    queue[#queue + 1] = { x[1] + y[1], x, y }
  end
  local root = queue[#queue]   -- node: {w, left, right} or leaf {w, sym = s}
  -- depths
  local bl_count = {}
  for l = 0, 64 do bl_count[l] = 0 end
  local stack = { { root, 0 } }
  while #stack > 0 do
    local top = table.remove(stack)
    local node, d = top[1], top[2]
    if node.sym then
      bl_count[d] = bl_count[d] + 1
    else
      stack[#stack + 1] = { node[2], d + 1 }
      stack[#stack + 1] = { node[3], d + 1 }
    end
  end
  -- limit the lengths (zlib's way): move leaves deeper than limit up,
  -- keeping Kraft's sum, then give the shortest lengths to the most
  -- frequent symbols
  for l = limit + 1, 64 do
    bl_count[limit] = bl_count[limit] + bl_count[l]
    bl_count[l] = 0
  end
  -- each leaf moved to `limit` adds 2^-limit too much; repair
  local kraft = 0
  for l = 1, limit do kraft = kraft + bl_count[l] * (1 << (limit - l)) end
  while kraft > (1 << limit) do
    local l = limit - 1
    while bl_count[l] == 0 do l = l - 1 end
    bl_count[l] = bl_count[l] - 1
    bl_count[l + 1] = bl_count[l + 1] + 2
    bl_count[limit] = bl_count[limit] - 1
    kraft = kraft - 1
  end
  -- most frequent first get the shortest lengths
  local by_freq = {}
  for i = #syms, 1, -1 do by_freq[#by_freq + 1] = syms[i] end
  local k = 1
  for l = 1, limit do
    for _ = 1, bl_count[l] do
      lengths[by_freq[k]] = l
      k = k + 1
    end
  end
  return lengths
end

local function len_code(len)
  -- the length symbol index (1-based into LEN_BASE) for a match length
  local lo, hi = 1, 29
  while lo < hi do
    local mid = (lo + hi + 1) // 2
    if LEN_BASE[mid] <= len then lo = mid else hi = mid - 1 end
  end
  return lo
end
local function dist_code(d)
  local lo, hi = 1, 30
  while lo < hi do
    local mid = (lo + hi + 1) // 2
    if DIST_BASE[mid] <= d then lo = mid else hi = mid - 1 end
  end
  return lo
end
local LEN_SYM, DIST_SYM_SMALL = {}, {}
for len = 3, 258 do LEN_SYM[len] = len_code(len) end
for d = 1, 512 do DIST_SYM_SMALL[d] = dist_code(d) end
local function dsym_of(d)
  if d <= 512 then return DIST_SYM_SMALL[d] end
  return dist_code(d)
end

local MAX_CHAIN = 16
local WSIZE = 32768

-- LZ77 over s[from..to] (with the earlier bytes as history): the symbols
-- as parallel lists (lit: 0..255 literal, else length; dist)
local function lz77(s, from, to, head, prev)
  local lits, dists, ns = {}, {}, 0
  local lo = math.max(1, from - WSIZE)
  local hi = math.min(#s, to + 258)
  local b = {}
  for i = lo, hi, 4096 do
    local t = { byte(s, i, math.min(i + 4095, hi)) }
    table.move(t, 1, #t, i - lo + 1, b)
  end
  local off = lo - 1   -- b[i - off] is s[i]
  local i = from
  while i <= to do
    local best_len, best_d = 0, 0
    if i + 2 <= to then
      local b1, b2, b3 = b[i - off], b[i + 1 - off], b[i + 2 - off]
      local key = (b1 << 16) | (b2 << 8) | b3
      local cand = head[key]
      local chain = MAX_CHAIN
      local maxlen = math.min(258, to - i + 1)
      while cand and chain > 0 and i - cand <= WSIZE do
        if cand >= lo then
          local l = 3
          local ci, ii = cand - off, i - off
          while l < maxlen and b[ci + l] == b[ii + l] do l = l + 1 end
          if l > best_len then
            best_len, best_d = l, i - cand
            if l >= maxlen then break end
          end
        end
        cand = prev[cand % WSIZE]
        chain = chain - 1
      end
      prev[i % WSIZE] = head[key]
      head[key] = i
    end
    if best_len >= 3 then
      ns = ns + 1
      lits[ns], dists[ns] = 256 + best_len, best_d
      -- insert the keys of the skipped positions too
      for j = i + 1, math.min(i + best_len - 1, to - 2) do
        local key = (b[j - off] << 16) | (b[j + 1 - off] << 8) | b[j + 2 - off]
        prev[j % WSIZE] = head[key]
        head[key] = j
      end
      i = i + best_len
    else
      ns = ns + 1
      lits[ns], dists[ns] = b[i - off], 0
      i = i + 1
    end
  end
  return lits, dists, ns
end

-- one block: dynamic Huffman, or stored when that is smaller
local function write_block(w, s, from, to, lits, dists, ns, final)
  local lfreq, dfreq = {}, {}
  for k = 1, 286 do lfreq[k] = 0 end
  for k = 1, 30 do dfreq[k] = 0 end
  for k = 1, ns do
    local l = lits[k]
    if l < 256 then
      lfreq[l + 1] = lfreq[l + 1] + 1
    else
      local ls = LEN_SYM[l - 256]
      lfreq[257 + ls] = lfreq[257 + ls] + 1
      local ds = dsym_of(dists[k])
      dfreq[ds] = dfreq[ds] + 1
    end
  end
  lfreq[257] = 1   -- end of block
  local llen = code_lengths(lfreq, 286, 15)
  local dlen = code_lengths(dfreq, 30, 15)
  -- a distance code with no symbol still needs one length (RFC 1951 3.2.7)
  local any_d = false
  for k = 1, 30 do any_d = any_d or dlen[k] > 0 end
  if not any_d then dlen[1] = 1 end
  local hlit = 286
  while hlit > 257 and llen[hlit] == 0 do hlit = hlit - 1 end
  local hdist = 30
  while hdist > 1 and dlen[hdist] == 0 do hdist = hdist - 1 end
  -- the lengths run-length coded with 16/17/18
  local all = {}
  for k = 1, hlit do all[#all + 1] = llen[k] end
  for k = 1, hdist do all[#all + 1] = dlen[k] end
  local rle, rle_extra = {}, {}
  local k = 1
  while k <= #all do
    local v = all[k]
    local run = 1
    while k + run <= #all and all[k + run] == v do run = run + 1 end
    if v == 0 and run >= 3 then
      local r = math.min(run, 138)
      if r >= 11 then
        rle[#rle + 1], rle_extra[#rle + 1] = 18, r - 11
      else
        rle[#rle + 1], rle_extra[#rle + 1] = 17, r - 3
      end
      k = k + r
    elseif v ~= 0 and run >= 4 then
      rle[#rle + 1], rle_extra[#rle + 1] = v, 0
      local r = math.min(run - 1, 6)
      rle[#rle + 1], rle_extra[#rle + 1] = 16, r - 3
      k = k + 1 + r
    else
      rle[#rle + 1], rle_extra[#rle + 1] = v, 0
      k = k + 1
    end
  end
  local cfreq = {}
  for q = 1, 19 do cfreq[q] = 0 end
  local used = 0
  for _, c in ipairs(rle) do
    if cfreq[c + 1] == 0 then used = used + 1 end
    cfreq[c + 1] = cfreq[c + 1] + 1
  end
  -- zlib refuses an incomplete code-length code: give it a second symbol
  if used == 1 then
    if cfreq[1] == 0 then cfreq[1] = 1 else cfreq[2] = 1 end
  end
  local clen = code_lengths(cfreq, 19, 7)
  local hclen = 19
  while hclen > 4 and clen[CL_ORDER[hclen] + 1] == 0 do hclen = hclen - 1 end
  -- the cost in bits of the dynamic block, against a stored copy
  local bits_total = 3 + 5 + 5 + 4 + 3 * hclen
  local CL_EXTRA = { [16] = 2, [17] = 3, [18] = 7 }
  for _, c in ipairs(rle) do bits_total = bits_total + clen[c + 1] + (CL_EXTRA[c] or 0) end
  for q = 1, 286 do
    if lfreq[q] > 0 then
      local extra = q >= 258 and LEN_EXTRA[q - 257] or 0
      bits_total = bits_total + lfreq[q] * (llen[q] + extra)
    end
  end
  for q = 1, 30 do
    if dfreq[q] > 0 then bits_total = bits_total + dfreq[q] * (dlen[q] + DIST_EXTRA[q]) end
  end
  local nbytes = to - from + 1
  local stored_bits = (nbytes // 65535 + 1) * 40 + nbytes * 8 + 8
  if stored_bits <= bits_total then
    local i = from
    repeat
      local j = math.min(i + 65534, to)
      local last = final and j == to
      w.put(last and 1 or 0, 1)
      w.put(0, 2)
      w.align()
      local len = j - i + 1
      w.put(len, 16)
      w.put(len ~ 0xFFFF, 16)
      w.raw(s:sub(i, j))
      i = j + 1
    until i > to
    return
  end
  w.put(final and 1 or 0, 1)
  w.put(2, 2)
  w.put(hlit - 257, 5)
  w.put(hdist - 1, 5)
  w.put(hclen - 4, 4)
  for q = 1, hclen do w.put(clen[CL_ORDER[q] + 1], 3) end
  local ccodes = canonical(clen, 19)
  for q, c in ipairs(rle) do
    w.put(ccodes[c + 1], clen[c + 1])
    if CL_EXTRA[c] then w.put(rle_extra[q], CL_EXTRA[c]) end
  end
  local lcodes = canonical(llen, 286)
  local dcodes = canonical(dlen, 30)
  for q = 1, ns do
    local l = lits[q]
    if l < 256 then
      w.put(lcodes[l + 1], llen[l + 1])
    else
      local len = l - 256
      local ls = LEN_SYM[len]
      w.put(lcodes[257 + ls], llen[257 + ls])
      if LEN_EXTRA[ls] > 0 then w.put(len - LEN_BASE[ls], LEN_EXTRA[ls]) end
      local d = dists[q]
      local ds = dsym_of(d)
      w.put(dcodes[ds], dlen[ds])
      if DIST_EXTRA[ds] > 0 then w.put(d - DIST_BASE[ds], DIST_EXTRA[ds]) end
    end
  end
  w.put(lcodes[257], llen[257])
end

local BLOCK = 65536

--- Compress s as a raw deflate stream
function M.deflate(s)
  local w = writer()
  local n = #s
  if n == 0 then
    -- one final fixed block holding only the end-of-block code (7 zero bits)
    w.put(1, 1)
    w.put(1, 2)
    w.put(0, 7)
    return w.finish()
  end
  local head, prev = {}, {}
  local from = 1
  while from <= n do
    local to = math.min(from + BLOCK - 1, n)
    local lits, dists, ns = lz77(s, from, to, head, prev)
    write_block(w, s, from, to, lits, dists, ns, to == n)
    from = to + 1
    -- keys older than the window can never match: drop them now and then
    if from % (8 * BLOCK) == 1 then
      for key, pos in pairs(head) do
        if from - pos > WSIZE then head[key] = nil end
      end
    end
  end
  return w.finish()
end

return M
