--- ndimage morphology (SciPy 1.10). Binary erosion is a minimum filter
-- of the 0/1 input over the structure with the border value as a constant
-- boundary, dilation the maximum over the reflected structure (SciPy's
-- origin rule for even sizes), both through ndimage's footprint filters;
-- iterations repeat them (to a fixed point for iterations < 1), a mask
-- keeps its false elements at the step's input. binary_fill_holes labels
-- the background (label.lua) and keeps the components that touch the
-- border out, which is SciPy's propagation from the border with a
-- symmetric structure. Grey morphology is SciPy's min/max filter.
return function(ga, M, S)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  local fail, is_array = internal.fail, internal.is_array
  local MODES = S.MODES

  api.def(M, [[
scipy.ndimage.generate_binary_structure(rank: integer, connectivity: integer) -> ndarray
The bool 3^rank structure of the elements within connectivity axis steps of the centre.
]], function(rank, connectivity)
    if connectivity < 1 then connectivity = 1 end
    if rank < 1 then return ga.array(true, "bool") end
    -- 3^rank host elements: 3^13 is past a million (and 3^41 no integer)
    if rank > 12 then
      fail(("scipy.ndimage.generate_binary_structure: rank %d is more than 12 (3^rank elements)"):format(rank))
    end
    local flat = {}
    for k = 0, math.tointeger(3 ^ rank) - 1 do
      local r, far = k, 0
      for _ = 1, rank do
        far = far + math.abs(r % 3 - 1)
        r = r // 3
      end
      flat[k + 1] = far <= connectivity
    end
    local shape = {}
    for d = 1, rank do shape[d] = 3 end
    return ga.array(flat, "bool"):reshape(shape)
  end)

  local function as_bool(v)
    local a = is_array(v) and v or ga.asarray(v)
    return a.dtype == "bool" and a or a:ne(0)
  end

  local function structure_of(structure, ndim, fname)
    local s
    if structure == nil then s = M.generate_binary_structure(ndim, 1)
    else s = as_bool(structure) end
    if s.ndim ~= ndim then fail(fname .. ": structure and input must have same dimensionality") end
    if s.size < 1 then fail(fname .. ": structure must not be empty") end
    return s
  end

  --- one erosion (or dilation: invert) step of u8 (uint8 0/1)
  local function step(fname, u8, s, origins, border, dilate)
    local fp, org = s, {}
    for d = 1, #origins do org[d] = origins[d] end
    if dilate then
      fp = ga.flip(s)
      for d = 1, #org do
        org[d] = -org[d]
        if s.shape[d] % 2 == 0 then org[d] = org[d] - 1 end
      end
    end
    local any = ga.any(fp):item()
    if not any then
      -- an empty structure: erosion keeps all (an empty AND), dilation none
      return dilate and ga.zeros(u8.shape, "uint8") or ga.ones(u8.shape, "uint8")
    end
    return M._min_or_max(fname, u8, nil, fp, nil, "uint8", "constant", border and 1 or 0, org,
                         dilate and "max" or "min")
  end

  local function binary_morph(fname, input, structure, iterations, mask, output, border_value, origin, dilate)
    local x = is_array(input) and input or ga.asarray(input)
    if S.COMPLEX[x.dtype] then fail(fname .. ": Complex type not supported") end
    local x1 = x.ndim == 0 and x:reshape(1) or x
    local s = structure_of(structure, x1.ndim, fname)
    if x.ndim == 0 and s.ndim == 0 then s = s:reshape(1) end
    local m
    if mask ~= nil then
      m = as_bool(mask)
      if #m.shape ~= #x.shape then fail(fname .. ": mask and input must have equal sizes") end
      for d = 1, x.ndim do
        if m.shape[d] ~= x.shape[d] then fail(fname .. ": mask and input must have equal sizes") end
      end
      m = m:reshape(x1.shape)
    end
    local origins = S.seq(origin, x1.ndim, fname, "origin", true)
    local border = border_value ~= 0 and border_value ~= false
    local cur = as_bool(x1):astype("uint8")
    local k = 0
    while true do
      k = k + 1
      local nxt = step(fname, cur, s, origins, border, dilate)
      if m then nxt = ga.where(m, nxt, cur) end
      if iterations >= 1 then
        cur = nxt
        if k >= iterations then break end
      else
        local same = ga.array_equal(nxt, cur)
        cur = nxt
        if same then break end
      end
    end
    local y = cur:astype("bool")
    if x.ndim == 0 then y = y:reshape({}) end
    if is_array(output) then
      output:set(y)
      return output
    end
    if output ~= nil then y = y:astype(ga.dtype(output).name) end
    return y
  end
  M._binary_morph = binary_morph

  local BIN_SIG = [[(input: array_like, structure: array_like?, iterations: integer = 1, mask: array_like?,
        output: ndarray|dtype?, border_value: number|boolean = 0, origin: integer|list = 0,
        brute_force: boolean = false) -> ndarray]]

  api.def(M, "scipy.ndimage.binary_erosion" .. BIN_SIG .. [[

Binary erosion: an element stays set where the structure around it fits in the set elements (outside:
border_value); iterations < 1 repeats to a fixed point.
]], function(input, structure, iterations, mask, output, border_value, origin)
    return binary_morph("scipy.ndimage.binary_erosion", input, structure, iterations, mask, output, border_value,
                        origin, false)
  end)

  api.def(M, "scipy.ndimage.binary_dilation" .. BIN_SIG .. [[

Binary dilation: an element is set where the reflected structure around it meets a set element.
]], function(input, structure, iterations, mask, output, border_value, origin)
    return binary_morph("scipy.ndimage.binary_dilation", input, structure, iterations, mask, output, border_value,
                        origin, true)
  end)

  local OC_SIG = [[(input: array_like, structure: array_like?, iterations: integer = 1, output: ndarray|dtype?,
        origin: integer|list = 0, mask: array_like?, border_value: number|boolean = 0,
        brute_force: boolean = false) -> ndarray]]

  api.def(M, "scipy.ndimage.binary_opening" .. OC_SIG .. [[

Binary opening: erosion, then dilation with the same structure.
]], function(input, structure, iterations, output, origin, mask, border_value)
    local fname = "scipy.ndimage.binary_opening"
    local x = is_array(input) and input or ga.asarray(input)
    local s = structure or M.generate_binary_structure(x.ndim, 1)
    local t = binary_morph(fname, x, s, iterations, mask, nil, border_value, origin, false)
    return binary_morph(fname, t, s, iterations, mask, output, border_value, origin, true)
  end)

  api.def(M, "scipy.ndimage.binary_closing" .. OC_SIG .. [[

Binary closing: dilation, then erosion with the same structure.
]], function(input, structure, iterations, output, origin, mask, border_value)
    local fname = "scipy.ndimage.binary_closing"
    local x = is_array(input) and input or ga.asarray(input)
    local s = structure or M.generate_binary_structure(x.ndim, 1)
    local t = binary_morph(fname, x, s, iterations, mask, nil, border_value, origin, true)
    return binary_morph(fname, t, s, iterations, mask, output, border_value, origin, false)
  end)

  api.def(M, [[
scipy.ndimage.binary_hit_or_miss(input: array_like, structure1: array_like?, structure2: array_like?,
                                 output: ndarray|dtype?, origin1: integer|list = 0, origin2: integer|list?) -> ndarray
Where structure1 fits the set elements and structure2 fits the unset ones (structure2: not structure1 by default).
]], function(input, structure1, structure2, output, origin1, origin2)
    local fname = "scipy.ndimage.binary_hit_or_miss"
    local x = is_array(input) and input or ga.asarray(input)
    local s1 = structure_of(structure1, x.ndim, fname)
    local s2 = structure2 ~= nil and structure_of(structure2, x.ndim, fname) or ga.logical_not(s1)
    local o1 = S.seq(origin1, x.ndim, fname, "origin1", true)
    local o2 = origin2 ~= nil and S.seq(origin2, x.ndim, fname, "origin2", true) or o1
    local u8 = as_bool(x):astype("uint8")
    local hit = step(fname, u8, s1, o1, false, false)
    -- the miss: no set element under structure2 (SciPy's inverted erosion, structure not reflected)
    local miss
    if ga.any(s2):item() then
      miss = M._min_or_max(fname, u8, nil, s2, nil, "uint8", "constant", 0, o2, "max")
    else
      miss = ga.zeros(u8.shape, "uint8")
    end
    local y = ga.logical_and(hit:ne(0), miss:eq(0))
    if is_array(output) then
      output:set(y)
      return output
    end
    if output ~= nil then y = y:astype(ga.dtype(output).name) end
    return y
  end)

  api.def(M, [[
scipy.ndimage.binary_propagation(input: array_like, structure: array_like?, mask: array_like?, output: ndarray|dtype?,
                                 border_value: number|boolean = 0, origin: integer|list = 0) -> ndarray
Dilation repeated to a fixed point inside mask (the set elements' reach through the mask).
]], function(input, structure, mask, output, border_value, origin)
    return binary_morph("scipy.ndimage.binary_propagation", input, structure, -1, mask, output, border_value,
                        origin, true)
  end)

  api.def(M, [[
scipy.ndimage.binary_fill_holes(input: array_like, structure: array_like?, output: ndarray|dtype?,
                                origin: integer|list = 0) -> ndarray
The input with its holes filled: the unset elements the border cannot reach through unset elements.
]], function(input, structure, output, origin)
    local fname = "scipy.ndimage.binary_fill_holes"
    local x = is_array(input) and input or ga.asarray(input)
    local b = as_bool(x)
    local origins = S.seq(origin, math.max(x.ndim, 1), fname, "origin", true)
    local zero = true
    for _, o in ipairs(origins) do zero = zero and o == 0 end
    local s = structure_of(structure, x.ndim, fname)
    local symmetric = ga.array_equal(s, ga.flip(s))
    local y
    local three = true
    for d = 1, s.ndim do three = three and s.shape[d] == 3 end
    if zero and symmetric and three and x.ndim > 0 then
      local lab = M.label(ga.logical_not(b), s)
      -- the labels on the border
      local ids = {}
      for d = 1, x.ndim do
        for _, k in ipairs({ 1, x.shape[d] }) do
          local sel = {}
          for e = 1, x.ndim do sel[e] = e == d and k or {} end
          ids[#ids + 1] = lab[sel]:reshape(-1)
        end
      end
      local border = ga.concatenate(ids)
      -- label 0 is the set elements (not background): a set element on
      -- the border must not take every set element outside with it
      local outside = ga.logical_and(ga.isin(lab, border), lab:ne(0))
      y = ga.logical_not(outside)
    else
      local t = binary_morph(fname, ga.zeros(x.shape, "bool"), s, -1, ga.logical_not(b), nil, 1, origin, true)
      y = ga.logical_not(t)
    end
    if is_array(output) then
      output:set(y)
      return output
    end
    if output ~= nil then y = y:astype(ga.dtype(output).name) end
    return y
  end)

  api.def(M, [[
scipy.ndimage.iterate_structure(structure: array_like, iterations: integer, origin: integer|list?) -> ndarray, list
The structure dilated by itself iterations - 1 times (with origin given: also the origin scaled by iterations).
]], function(structure, iterations, origin)
    local fname = "scipy.ndimage.iterate_structure"
    local s = as_bool(structure)
    local out
    if iterations < 2 then out = s:copy()
    else
      local ni = iterations - 1
      local shape, sel = {}, {}
      for d = 1, s.ndim do
        shape[d] = s.shape[d] + ni * (s.shape[d] - 1)
        local p = ni * (s.shape[d] // 2)
        sel[d] = { p + 1, p + s.shape[d] }
      end
      local big = ga.zeros(shape, "bool")
      big[sel] = s
      out = binary_morph(fname, big, s, ni, nil, nil, 0, 0, true)
    end
    if origin == nil then return out end
    local o = S.seq(origin, s.ndim, fname, "origin", true)
    for d = 1, #o do o[d] = o[d] * iterations end
    return out, o
  end)

  -------------------------------------------------------------------------
  -- grey morphology

  local function grey(fname, input, size, footprint, structure, output, mode, cval, origin, dilate)
    local x = S.input(input, fname)
    if size == nil and footprint == nil and structure == nil then
      fail(fname .. ": size, footprint, or structure must be specified")
    end
    local N = math.max(x.ndim, 1)
    local origins = S.seq(origin, N, fname, "origin", true)
    -- checked here: the dilation's origin shift below reads size[d] and
    -- the footprint's and structure's shape[d] (a footprint of false, a
    -- 0-d array_like, read the size it stood for; SciPy's IndexError)
    if size ~= nil and footprint == nil and structure == nil then size = S.seq(size, N, fname, "size", true) end
    if footprint ~= nil and S.ndim(footprint) ~= N then fail(fname .. ": footprint array has incorrect shape.") end
    if structure ~= nil and S.ndim(structure) ~= N then fail(fname .. ": structure array has incorrect shape") end
    local fp = footprint ~= nil and (is_array(footprint) and footprint or ga.asarray(footprint)) or nil
    local st = structure ~= nil and (is_array(structure) and structure or ga.asarray(structure)) or nil
    if dilate then
      if st then st = ga.flip(st) end
      if fp then fp = ga.flip(fp) end
      for d = 1, N do
        origins[d] = -origins[d]
        local sz
        if fp then sz = fp.shape[d]
        elseif st then sz = st.shape[d]
        elseif type(size) == "number" then sz = size
        else sz = size[d] end
        if sz and sz % 2 == 0 then origins[d] = origins[d] - 1 end
      end
    end
    local ydtype, out = S.output(output, x.dtype, x.shape, fname)
    return S.deliver(M._min_or_max(fname, x, size, fp, st, ydtype, mode, cval, origins, dilate and "max" or "min"),
                     out)
  end

  local GREY_SIG = [[(input: array_like, size: integer|list?, footprint: array_like?, structure: array_like?,
        output: ndarray|dtype?, mode: ]] .. MODES .. [[ = "reflect", cval: number = 0.0,
        origin: integer|list = 0) -> ndarray]]

  local function greyop(name, doc, impl)
    api.def(M, "scipy.ndimage." .. name .. GREY_SIG .. "\n" .. doc .. "\n", impl)
  end

  greyop("grey_erosion", "Grey erosion: the minimum over the footprint, less the structure's values.",
    function(input, size, footprint, structure, output, mode, cval, origin)
      return grey("scipy.ndimage.grey_erosion", input, size, footprint, structure, output, mode, cval, origin, false)
    end)
  greyop("grey_dilation", "Grey dilation: the maximum over the reflected footprint, plus the structure's values.",
    function(input, size, footprint, structure, output, mode, cval, origin)
      return grey("scipy.ndimage.grey_dilation", input, size, footprint, structure, output, mode, cval, origin, true)
    end)
  greyop("grey_opening", "Grey opening: grey erosion, then grey dilation.",
    function(input, size, footprint, structure, output, mode, cval, origin)
      local f = "scipy.ndimage.grey_opening"
      local t = grey(f, input, size, footprint, structure, nil, mode, cval, origin, false)
      return grey(f, t, size, footprint, structure, output, mode, cval, origin, true)
    end)
  greyop("grey_closing", "Grey closing: grey dilation, then grey erosion.",
    function(input, size, footprint, structure, output, mode, cval, origin)
      local f = "scipy.ndimage.grey_closing"
      local t = grey(f, input, size, footprint, structure, nil, mode, cval, origin, true)
      return grey(f, t, size, footprint, structure, output, mode, cval, origin, false)
    end)
  greyop("morphological_gradient", "The morphological gradient: grey dilation minus grey erosion.",
    function(input, size, footprint, structure, output, mode, cval, origin)
      local f = "scipy.ndimage.morphological_gradient"
      local a = grey(f, input, size, footprint, structure, nil, mode, cval, origin, true)
      local b = grey(f, input, size, footprint, structure, nil, mode, cval, origin, false)
      local r = ga.subtract(a, b)
      return S.deliver(r, is_array(output) and output or nil)
    end)
  greyop("morphological_laplace", "The morphological Laplace: grey dilation + grey erosion - 2 * input.",
    function(input, size, footprint, structure, output, mode, cval, origin)
      local f = "scipy.ndimage.morphological_laplace"
      local x = S.input(input, f)
      local a = grey(f, x, size, footprint, structure, nil, mode, cval, origin, true)
      local b = grey(f, x, size, footprint, structure, nil, mode, cval, origin, false)
      local r = ga.subtract(ga.add(a, b), ga.multiply(x, 2):astype(x.dtype))
      return S.deliver(r, is_array(output) and output or nil)
    end)
  greyop("white_tophat", "The white top-hat: input minus its grey opening (xor for bool).",
    function(input, size, footprint, structure, output, mode, cval, origin)
      local f = "scipy.ndimage.white_tophat"
      local x = S.input(input, f)
      local t = grey(f, x, size, footprint, structure, nil, mode, cval, origin, false)
      t = grey(f, t, size, footprint, structure, nil, mode, cval, origin, true)
      local r = x.dtype == "bool" and ga.logical_xor(x, t) or ga.subtract(x, t)
      return S.deliver(r, is_array(output) and output or nil)
    end)
  greyop("black_tophat", "The black top-hat: the grey closing minus the input (xor for bool).",
    function(input, size, footprint, structure, output, mode, cval, origin)
      local f = "scipy.ndimage.black_tophat"
      local x = S.input(input, f)
      local t = grey(f, x, size, footprint, structure, nil, mode, cval, origin, true)
      t = grey(f, t, size, footprint, structure, nil, mode, cval, origin, false)
      local r = x.dtype == "bool" and ga.logical_xor(t, x) or ga.subtract(t, x)
      return S.deliver(r, is_array(output) and output or nil)
    end)
end
