--- An image pipeline with ga.scipy.ndimage: load an .npy image (a
-- synthetic one with shapes is made and saved first when none is given),
-- Gaussian blur, Sobel edges, label the blobs, measure them, save the
-- results (.npy) and write the edges as a PGM picture.
--   lua5.4 examples/image_pipeline.lua [image.npy] [outdir]
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()
local nd = ga.scipy.ndimage

local path, outdir = arg[1], arg[2] or os.getenv("TMPDIR") or "/tmp"
local synthetic = not path
local H, W = 256, 320
local discs = { { 60, 80, 30 }, { 150, 220, 45 }, { 200, 70, 25 }, { 90, 260, 20 } }
if not path then
  -- four discs and a bar on a dark background, with a little noise
  local yy = ga.arange(H, "float32"):reshape(H, 1)
  local xx = ga.arange(W, "float32"):reshape(1, W)
  local img = ga.zeros({ H, W }, "float32")
  for _, d in ipairs(discs) do
    local r2 = (yy - d[1]) ^ 2 + (xx - d[2]) ^ 2
    img = ga.where(r2:le(d[3] * d[3]), 1.0, img)
  end
  img = ga.where(ga.logical_and(yy:ge(10), yy:lt(20)) * xx:ge(150) * xx:lt(300), 0.8, img)
  ga.random.seed(7)
  img = (img + ga.random.random({ H, W }, "float32") * 0.2):astype("float32")
  path = outdir .. "/image_pipeline_input.npy"
  ga.save(path, img)
  print("wrote a synthetic image to " .. path)
end

local img = ga.load(path):astype("float32")
local blur = nd.gaussian_filter(img, 2.0)
local gx, gy = nd.sobel(blur, 1), nd.sobel(blur, 2)
local edges = ga.sqrt(gx * gx + gy * gy)
local mask = blur:gt(0.5)
local labels, n = nd.label(mask)
print(("%dx%d image: %d blobs"):format(img.shape[1], img.shape[2], n))
local index = {}
for k = 1, n do index[k] = k end
local sizes = nd.sum_labels(mask, labels, index):totable()
local centres = nd.center_of_mass(mask, labels, index)
local boxes = nd.find_objects(labels)
for k = 1, n do
  local b = boxes[k]
  print(("  blob %d: %d pixels, centre (%.1f, %.1f), rows %d-%d, columns %d-%d"):format(k, math.floor(sizes[k]),
    centres[k][1], centres[k][2], b[1][1], b[1][2], b[2][1], b[2][2]))
end

-- its own check, on the GPU: every set pixel has a label, every label's pixels are set
local unlabelled = ga.logical_and(mask, labels:eq(0)):sum():item()
local stray = ga.logical_and(ga.logical_not(mask), labels:gt(0)):sum():item()
example.check(unlabelled == 0 and stray == 0, "labels do not match the mask (%d unlabelled, %d stray)",
  unlabelled, stray)
example.check(n >= 1, "no blobs found")
-- and against what the synthetic image holds: four discs and a bar, each
-- disc found where it was drawn, with about pi r^2 pixels (centres of mass
-- are coordinates, 0-based as SciPy's and as the drawing's)
if synthetic then
  example.check(n == #discs + 1, "%d blobs, the image has %d", n, #discs + 1)
  for _, d in ipairs(discs) do
    local hit
    for k = 1, n do
      if math.abs(centres[k][1] - d[1]) < 1.5 and math.abs(centres[k][2] - d[2]) < 1.5 then hit = k end
    end
    example.check(hit ~= nil, "no blob centred at (%d, %d)", d[1], d[2])
    local area = math.pi * d[3] * d[3]
    example.check(math.abs(sizes[hit] - area) < 0.1 * area, "the disc at (%d, %d): %d pixels, about %d expected",
      d[1], d[2], math.floor(sizes[hit]), math.floor(area))
  end
end

ga.save(outdir .. "/image_pipeline_labels.npy", labels)
ga.save(outdir .. "/image_pipeline_edges.npy", edges)
-- the edges as an 8-bit PGM (P5): scaled to 0..255 on the GPU, written from Lua
local top = ga.max(edges):item()
local bytes = ga.clip(edges * (255 / math.max(top, 1e-12)), 0, 255):astype("uint8")
local pgm = outdir .. "/image_pipeline_edges.pgm"
local f = assert(io.open(pgm, "wb"))
f:write(("P5\n%d %d\n255\n"):format(bytes.shape[2], bytes.shape[1]), bytes:tobytes())
f:close()
print("wrote " .. pgm .. " and the labels and edges as .npy in " .. outdir)
print("image_pipeline: ok")
