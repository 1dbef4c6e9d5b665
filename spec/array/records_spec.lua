-- format_parser (numpy.rec.format_parser) and make_aligned_dtype (CuPy's):
-- host-side record descriptions (lua/gpuarray/array/records.lua). Every
-- expected value below is NumPy 1.24's on x86-64 (python3 -c "import numpy
-- as np; p = np.rec.format_parser(...); p._names, p._offsets,
-- p.dtype.itemsize, str(p.dtype), p.dtype.descr"), except where a comment
-- derives CUDA's layout by hand (make_aligned_dtype is CuPy's, not NumPy's).
local helper = require "helper"
local ga = helper.ga

describe("format_parser", function()
  -- formats, names, titles, aligned, byteorder; then NumPy's _names,
  -- _offsets, dtype.itemsize, str(dtype), dtype.descr
  local CASES = {
    { 'f8,i4,(2,3)u1,S5', 'a,b', nil, false, nil,
      { 'a', 'b', 'f2', 'f3' }, { 0, 8, 12, 18 }, 23,
      "[('a', '<f8'), ('b', '<i4'), ('f2', 'u1', (2, 3)), ('f3', 'S5')]",
      { { 'a', '<f8' }, { 'b', '<i4' }, { 'f2', '|u1', { 2, 3 } }, { 'f3', '|S5' } } },
    -- aligned moves offsets only; NumPy rebuilds the dtype without align,
    -- so the itemsize is max(offset + size), unpadded
    { 'f8,i4,(2,3)u1,S5', 'a,b', nil, true, nil,
      { 'a', 'b', 'f2', 'f3' }, { 0, 8, 12, 18 }, 23,
      "[('a', '<f8'), ('b', '<i4'), ('f2', 'u1', (2, 3)), ('f3', 'S5')]",
      { { 'a', '<f8' }, { 'b', '<i4' }, { 'f2', '|u1', { 2, 3 } }, { 'f3', '|S5' } } },
    { 'i1,f8', 'a,b', nil, true, nil,
      { 'a', 'b' }, { 0, 8 }, 16, "{'names': ['a', 'b'], 'formats': ['i1', '<f8'], 'offsets': [0, 8], 'itemsize': 16}",
      { { 'a', '|i1' }, { '', '|V7' }, { 'b', '<f8' } } },
    { 'u1,c16,U3,f2', nil, nil, true, nil,
      { 'f0', 'f1', 'f2', 'f3' }, { 0, 8, 24, 36 }, 38,
      "{'names': ['f0', 'f1', 'f2', 'f3'], 'formats': ['u1', '<c16', '<U3', '<f2'], 'offsets': [0, 8, 24, 36], "
        .. "'itemsize': 38}",
      { { 'f0', '|u1' }, { '', '|V7' }, { 'f1', '<c16' }, { 'f2', '<U3' }, { 'f3', '<f2' } } },
    { '2i4,b1,?', 'x, y ,z, w', nil, true, nil,
      { 'x', 'y', 'z' }, { 0, 8, 9 }, 10, "[('x', '<i4', (2,)), ('y', '?'), ('z', '?')]",
      { { 'x', '<i4', { 2 } }, { 'y', '|b1' }, { 'z', '|b1' } } },
    { 'float64,int32', { 'p' }, nil, false, nil,
      { 'p', 'f1' }, { 0, 8 }, 12, "[('p', '<f8'), ('f1', '<i4')]",
      { { 'p', '<f8' }, { 'f1', '<i4' } } },
    { 'i4,(2,)f4,V3', nil, nil, true, nil,
      { 'f0', 'f1', 'f2' }, { 0, 4, 12 }, 15, "[('f0', '<i4'), ('f1', '<f4', (2,)), ('f2', 'V3')]",
      { { 'f0', '<i4' }, { 'f1', '<f4', { 2 } }, { 'f2', '|V3' } } },
    { 'c8,i1', nil, { 'T1' }, false, nil,
      { 'f0', 'f1' }, { 0, 8 }, 9, "[(('T1', 'f0'), '<c8'), ('f1', 'i1')]",
      { { 'f0', '<c8' }, { 'f1', '|i1' } } },
    { { 'f8', '2i4', 'S3' }, 'p,q', nil, true, nil,
      { 'p', 'q', 'f2' }, { 0, 8, 16 }, 19, "[('p', '<f8'), ('q', '<i4', (2,)), ('f2', 'S3')]",
      { { 'p', '<f8' }, { 'q', '<i4', { 2 } }, { 'f2', '|S3' } } },
    { 'f8,i2,u1', 'x,y', nil, false, '>',
      { 'x', 'y', 'f2' }, { 0, 8, 10 }, 11, "[('x', '>f8'), ('y', '>i2'), ('f2', 'u1')]",
      { { 'x', '>f8' }, { 'y', '>i2' }, { 'f2', '|u1' } } },
    { '>f8,<i2,u1', nil, nil, false, 'swap',
      { 'f0', 'f1', 'f2' }, { 0, 8, 10 }, 11, "[('f0', '<f8'), ('f1', '>i2'), ('f2', 'u1')]",
      { { 'f0', '<f8' }, { 'f1', '>i2' }, { 'f2', '|u1' } } },
    { 'f8', 'x', nil, false, nil,
      { 'x' }, { 0 }, 8, "[('x', '<f8')]",
      { { 'x', '<f8' } } },
    { '(2,3)u1', nil, nil, false, nil,
      { 'f0' }, { 0 }, 6, "[('f0', 'u1', (2, 3))]",
      { { 'f0', '|u1', { 2, 3 } } } },
    { 'i2,f4,c16,f2', nil, nil, true, nil,
      { 'f0', 'f1', 'f2', 'f3' }, { 0, 4, 8, 24 }, 26,
      "{'names': ['f0', 'f1', 'f2', 'f3'], 'formats': ['<i2', '<f4', '<c16', '<f2'], 'offsets': [0, 4, 8, 24], "
        .. "'itemsize': 26}",
      { { 'f0', '<i2' }, { '', '|V2' }, { 'f1', '<f4' }, { 'f2', '<c16' }, { 'f3', '<f2' } } },
  }

  it("computes NumPy's names, offsets, itemsize, str and descr", function()
    for i, c in ipairs(CASES) do
      local p = ga.format_parser(c[1], c[2], c[3], c[4], c[5])
      local what = ("case %d (%s)"):format(i, type(c[1]) == "table" and table.concat(c[1], ",") or c[1])
      assert.are.same(c[6], p.names, what)
      assert.are.same(c[7], p.offsets, what)
      assert.are.equal(#c[6], p.nfields, what)
      assert.are.equal(c[8], p.dtype.itemsize, what)
      assert.are.equal(c[9], tostring(p.dtype), what)
      assert.are.same(c[10], p.dtype:descr(), what)
      -- NumPy's rebuilt dtype: no aligned flag, alignment 1
      assert.is_false(p.dtype.isalignedstruct, what)
      assert.are.equal(1, p.dtype.alignment, what)
      for j, nm in ipairs(p.names) do
        assert.are.equal(p.offsets[j], p.dtype.fields[nm].offset, what)
        assert.are.equal(p.formats[j], p.dtype.fields[nm].format, what)
      end
    end
  end)

  it("gives the formats back in NumPy's spellings, with titles as field aliases", function()
    local p = ga.format_parser('f8,i4,(2,3)u1,S5,U2,?', nil, { 'A', 'B' })
    assert.are.same({ '<f8', '<i4', '(2,3)u1', 'S5', '<U2', '?' }, p.formats)
    assert.are.same({ 'A', 'B' }, p.titles)
    assert.are.equal(p.dtype.fields.f0, p.dtype.fields.A)
    assert.are.equal('A', p.dtype.fields.f0.title)
    assert.is_nil(p.dtype.fields.f2.title)
    -- formats feed back: the same layout
    local q = ga.format_parser(p.formats, p.names, nil)
    assert.are.equal(tostring(ga.format_parser(p.formats, p.names, nil).dtype), tostring(q.dtype))
    assert.are.same(p.offsets, q.offsets)
    assert.are.equal("format_parser(" .. tostring(q.dtype) .. ")", tostring(q))
  end)

  it("refuses bad formats, names and titles, naming the function", function()
    helper.assert_gaerror(function() ga.format_parser('f8,x7', 'a', nil) end,
                          "format_parser: data type 'x7' not understood")
    helper.assert_gaerror(function() ga.format_parser('f8,i4', 'a,a', nil) end,
                          "format_parser: duplicate field names: a")
    helper.assert_gaerror(function() ga.format_parser('f8,i4', { 'f1' }, nil) end, "duplicate field names: f1")
    -- a scalar has no dtype name: 'attempt to index a nil value' (fuzz decl seed 20261127)
    helper.assert_gaerror(function() ga.format_parser({ ga.float64(-2.2084621151203105), 0 }, {}) end,
                          "format_parser: data type float64(-2.2084621151203105) not understood")
    helper.assert_gaerror(function() ga.format_parser({ io.stdout }) end, "format_parser: data type file")
    helper.assert_gaerror(function() ga.format_parser({}, nil, nil) end, "formats must not be empty")
    helper.assert_gaerror(function() ga.format_parser('f8,i4', 'a,b', { 'b' }) end,
                          "title 'b' is already a field name")
    helper.assert_gaerror(function() ga.format_parser('f8', nil, nil, false, 'q') end, "not a valid byte order")
    helper.assert_gaerror(function() ga.format_parser(5, nil, nil) end, "format_parser: formats must be")
    helper.assert_gaerror(function() ga.format_parser('f8', nil, nil, { alined = true }) end, "did you mean")
    -- NumPy's sizes are C ints
    helper.assert_gaerror(function() ga.format_parser('S99999999999', nil, nil) end, "99999999999 is too large")
    helper.assert_gaerror(function() ga.format_parser('(65536,65536)f8', nil, nil) end,
                          "format_parser: '(65536,65536)f8' is too large (itemsize over 2^31 - 1)")
  end)

  it("a record cannot make an ndarray: the binder refuses it, naming the function", function()
    local rec = ga.format_parser('f8,i4', nil, nil).dtype
    helper.assert_gaerror(function() ga.empty(3, rec) end, "empty: dtype must be a dtype")
    helper.assert_gaerror(function() ga.empty(3, rec) end, "host-side record description")
    helper.assert_gaerror(function() ga.zeros({ 2, 2 }, rec) end, "zeros: dtype must be a dtype")
  end)
end)

describe("make_aligned_dtype", function()
  it("lays records out as CUDA structs (NumPy's align=True where they agree)", function()
    -- {x f4, y i1}: CuPy's docs example, itemsize 5 -> 8; NumPy align=True:
    -- {'names': ['x', 'y'], 'formats': ['<f4', 'i1'], 'offsets': [0, 4], 'itemsize': 8, 'aligned': True}
    local a = ga.make_aligned_dtype({ { "x", "f4" }, { "y", "i1" } })
    assert.are.equal("{'names': ['x', 'y'], 'formats': ['<f4', 'i1'], 'offsets': [0, 4], 'itemsize': 8, "
                     .. "'aligned': True}", tostring(a))
    assert.are.same({ 0, 4 }, a.offsets)
    assert.are.equal(8, a.itemsize)
    assert.are.equal(4, a.alignment)
    assert.is_true(a.isalignedstruct)
    assert.is_nil(a.metadata)
    -- the same from a comma string and from a format_parser's dtype
    assert.are.equal(8, ga.make_aligned_dtype("f4,i1").itemsize)
    assert.are.same({ 0, 4 }, ga.make_aligned_dtype(ga.format_parser("f4,i1", "x,y", nil).dtype).offsets)
    -- a larger alignment pads and is kept as metadata (CuPy's docs: 16)
    local a16 = ga.make_aligned_dtype({ { "x", "f4" }, { "y", "i1" } }, { alignment = 16 })
    assert.are.equal(16, a16.itemsize)
    assert.are.same({ __cuda_alignment__ = 16 }, a16.metadata)
    -- nested records are realigned (recurse); NumPy align=True:
    -- {'names': ['a', 'b'], 'formats': ['i1', [('x', '<f8'), ('y', 'i1')]], 'offsets': [0, 8], 'itemsize': 24,
    --  'aligned': True}
    local n = ga.make_aligned_dtype({ { "a", "i1" }, { "b", { { "x", "f8" }, { "y", "i1" } } } })
    assert.are.equal("{'names': ['a', 'b'], 'formats': ['i1', [('x', '<f8'), ('y', 'i1')]], 'offsets': [0, 8], "
                     .. "'itemsize': 24, 'aligned': True}", tostring(n))
    assert.are.equal(16, n.fields.b.format.itemsize)
    -- subarrays align as their element; NumPy align=True: offsets [0, 8, 16, 18], itemsize 24, alignment 8
    local s = ga.make_aligned_dtype({ { "a", "i1" }, { "b", "f8" }, { "c", "i2" }, { "d", "u1", 3 } })
    assert.are.same({ 0, 8, 16, 18 }, s.offsets)
    assert.are.equal(24, s.itemsize)
    assert.are.equal(8, s.alignment)
    assert.are.equal("(3,)u1", s.formats[4])
    -- strings: U 4, S 1, f2 2; NumPy align=True: offsets [0, 8, 12], itemsize 16, alignment 4
    local u = ga.make_aligned_dtype({ { "u", "U2" }, { "s", "S3" }, { "h", "f2" } })
    assert.are.same({ 0, 8, 12 }, u.offsets)
    assert.are.equal(16, u.itemsize)
    -- gaps in given offsets: NumPy's align=True keeps [0, 16] (itemsize 24);
    -- the CUDA layout (i1 at 0, f8 at 8) needs 16, and a smaller record than
    -- the input is refused (as CuPy's); an explicit itemsize that fits is kept
    helper.assert_gaerror(function()
      ga.make_aligned_dtype({ names = { "a", "b" }, formats = { "i1", "f8" }, offsets = { 0, 16 } })
    end, "make_aligned_dtype: the input's itemsize is larger than the inferred one")
    local g = ga.make_aligned_dtype({ names = { "a", "b" }, formats = { "i1", "f8" }, offsets = { 0, 8 },
                                      itemsize = 16 })
    assert.are.same({ 0, 8 }, g.offsets)
    assert.are.equal(16, g.itemsize)
  end)

  it("aligns complex numbers as CUDA does (cuDoubleComplex: 16), where NumPy says 8", function()
    -- i1 at 0; c16 aligned to 16 -> 16; end 32, a multiple of 16. NumPy
    -- align=True would put it at 8 (itemsize 24); .alignment stays NumPy's 8
    local z = ga.make_aligned_dtype({ { "a", "i1" }, { "z", "c16" } })
    assert.are.same({ 0, 16 }, z.offsets)
    assert.are.equal(32, z.itemsize)
    assert.are.equal(8, z.alignment)
    -- c8 (cuComplex, 8): i1 at 0, c8 at 8, itemsize 16
    local c = ga.make_aligned_dtype("i1,c8")
    assert.are.same({ 0, 8 }, c.offsets)
    assert.are.equal(16, c.itemsize)
  end)

  it("returns numeric dtypes as they are", function()
    assert.are.equal("float32", ga.make_aligned_dtype("float32").name)
    assert.are.equal("float64", ga.make_aligned_dtype("f8").name)
    assert.are.equal("int16", ga.make_aligned_dtype(ga.int16).name)
    -- complex128: NumPy alignment 8, itemsize 16: alignment 16 fits
    assert.are.equal("complex128", ga.make_aligned_dtype("c16", { alignment = 16 }).name)
  end)

  it("refuses bad alignments and layouts, naming the function", function()
    helper.assert_gaerror(function() ga.make_aligned_dtype("f4,i1", { alignment = 3 }) end,
                          "make_aligned_dtype: alignment must be a positive power of 2, got 3")
    helper.assert_gaerror(function() ga.make_aligned_dtype("f4,i1", { alignment = 0 }) end, "power of 2")
    helper.assert_gaerror(function() ga.make_aligned_dtype("f4,i1", { alignment = 2 }) end,
                          "alignment=2 is smaller than the minimum alignment 4")
    helper.assert_gaerror(function() ga.make_aligned_dtype("float64", { alignment = 16 }) end,
                          "alignment 16 is larger than the itemsize 8")
    helper.assert_gaerror(function() ga.make_aligned_dtype("float64", { alignment = 4 }) end,
                          "smaller than the minimum alignment 8")
    helper.assert_gaerror(function()
      ga.make_aligned_dtype({ names = { "a", "b" }, formats = { "i1", "f8" }, offsets = { 8, 0 } })
    end, "make_aligned_dtype: only well-behaved in-order fields")
    helper.assert_gaerror(function()
      ga.make_aligned_dtype({ names = { "a", "b" }, formats = { "i1", "f8" }, offsets = { 0, 12 } })
    end, "offset 12 of field 'b' is not a multiple of its alignment 8")
    helper.assert_gaerror(function() ga.make_aligned_dtype("S5") end, "S5 is neither a record nor a numeric dtype")
    helper.assert_gaerror(function() ga.make_aligned_dtype("f8,q9") end, "data type 'q9' not understood")
    helper.assert_gaerror(function() ga.make_aligned_dtype({ { "a" } }) end, "field 1 must be {name, format")
    helper.assert_gaerror(function() ga.make_aligned_dtype({ { "a", "f4" }, { "a", "i1" } }) end,
                          "duplicate field name 'a'")
    helper.assert_gaerror(function() ga.make_aligned_dtype(5) end, "make_aligned_dtype: dtype must be")
    helper.assert_gaerror(function() ga.make_aligned_dtype({ names = { "a", 2 }, formats = { "f8", "i1" } }) end,
                          "make_aligned_dtype: names[2] must be a string")
    helper.assert_gaerror(function()
      ga.make_aligned_dtype({ names = { "a" }, formats = { "f8" }, offsets = { -8 } })
    end, "offsets[1] must be an integer >= 0")
    helper.assert_gaerror(function() ga.make_aligned_dtype({ names = { "a" }, formats = { "f8", "i1" } }) end,
                          "names and formats lists of the same length")
    helper.assert_gaerror(function() ga.empty(2, ga.make_aligned_dtype("f4,i1")) end, "empty: dtype must be a dtype")
  end)
end)
