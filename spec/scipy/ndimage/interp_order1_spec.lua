--- The bench's interpolation paths on the GPU: map_coordinates reading
-- float32 (and integer) coordinates as they are, zoom's factors passed as
-- scalars and its output unravelled in 32 bits, against a bilinear
-- reference in Lua (mode constant, SciPy's: a point outside [0, n - 1] on
-- any axis takes cval; taps past the edge read mirrored, with weight 0).
local helper = require "helper"
local ga = helper.ga
local nd = ga.scipy.ndimage

local function bilinear(img, r, c, cval)
  local h, w = #img, #img[1]
  if r < 0 or r > h - 1 or c < 0 or c > w - 1 then return cval end
  local r0, c0 = math.floor(r), math.floor(c)
  local fr, fc = r - r0, c - c0
  local function at(i, j)
    if i > h - 1 then i = 2 * (h - 1) - i end   -- mirror: weight 0 there anyway
    if j > w - 1 then j = 2 * (w - 1) - j end
    return img[i + 1][j + 1]
  end
  return (1 - fr) * ((1 - fc) * at(r0, c0) + fc * at(r0, c0 + 1)) +
         fr * ((1 - fc) * at(r0 + 1, c0) + fc * at(r0 + 1, c0 + 1))
end

local function random_image(h, w)
  local t = {}
  for i = 1, h do
    t[i] = {}
    for j = 1, w do t[i][j] = helper.to_f32(math.random()) end
  end
  return t
end

describe("scipy.ndimage order-1 interpolation (the bench's paths)", function()
  helper.gpu_it("map_coordinates with float32, float64 and int32 coordinates", function()
    local h, w, P = 23, 17, 1000
    local t = random_image(h, w)
    local img = ga.array(t, "float32")
    local rows, cols = {}, {}
    for k = 1, P do
      -- some outside on purpose, some exactly on the last row / column
      rows[k] = helper.to_f32(math.random() * (h + 1) - 1)
      cols[k] = helper.to_f32(math.random() * (w + 1) - 1)
      if k % 50 == 0 then rows[k] = h - 1 end
      if k % 70 == 0 then cols[k] = w - 1 end
    end
    local c32 = ga.array({ rows, cols }, "float32")
    local got32 = nd.map_coordinates(img, c32, nil, 1)
    local got64 = nd.map_coordinates(img, c32:astype("float64"), nil, 1)
    assert.equal("float32", got32.dtype)
    assert.same({ P }, got32.shape)
    local g32, g64 = got32:totable(), got64:totable()
    for k = 1, P do
      local want = bilinear(t, rows[k], cols[k], 0)
      assert(g32[k] == g64[k], ("point %d (%.9g, %.9g): float32 coordinates give %.9g, float64 %.9g"):format(
        k, rows[k], cols[k], g32[k], g64[k]))
      assert(math.abs(g32[k] - want) <= 1e-6, ("point %d (%.9g, %.9g): %.9g, want %.9g"):format(
        k, rows[k], cols[k], g32[k], want))
    end
    -- integer coordinates: the pixels themselves
    local ci = ga.array({ { 0, 5, 22, 23 }, { 0, 16, 3, 1 } }, "int32")
    helper.assert_same({ t[1][1], t[6][17], t[23][4], 0 }, nd.map_coordinates(img, ci, nil, 1):totable(), 1e-7,
                       "int32 coordinates")
    -- a strided view of float32 coordinates
    local wide = ga.array({ rows, cols, rows }, "float32")[{ { 1, 2 }, { 1, P, 3 } }]
    local gs = nd.map_coordinates(img, wide, nil, 1):totable()
    for k = 1, #gs do
      local j = 3 * (k - 1) + 1
      assert(gs[k] == g32[j], ("strided coordinates: point %d gives %.9g, want %.9g"):format(k, gs[k], g32[j]))
    end
  end)

  helper.gpu_it("zoom x2 order 1 of float32, and a non-square factor", function()
    local h, w = 13, 10
    local t = random_image(h, w)
    local img = ga.array(t, "float32")
    for _, z in ipairs({ { 2, 2 }, { 1.5, 0.7 } }) do
      local y = nd.zoom(img, z, nil, 1)
      local oh, ow = y.shape[1], y.shape[2]
      local yt = y:totable()
      assert.equal("float32", y.dtype)
      -- the coordinate as SciPy (and the kernel) make it: o * ((n - 1) / (m - 1))
      local zr, zc = (h - 1) / (oh - 1), (w - 1) / (ow - 1)
      for i = 1, oh do
        for j = 1, ow do
          local r, c = (i - 1) * zr, (j - 1) * zc
          local want = bilinear(t, r, c, 0)
          assert(math.abs(yt[i][j] - want) <= 1e-6, ("zoom {%s, %s}: output (%d, %d) %.9g, want %.9g"):format(
            z[1], z[2], i, j, yt[i][j], want))
        end
      end
    end
  end)
end)
