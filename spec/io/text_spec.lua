-- Text and raw files: Python's %-formats, number parsing, gzip and the
-- ndmin rule without a device (NumPy's strings written into the spec);
-- savetxt / loadtxt / genfromtxt / tofile / fromfile on the GPU against
-- the text NumPy writes and reads.
local helper = require "helper"
local ga = helper.ga
local internal = require "gpuarray.internal"
local T = internal.text

local function flat(x) return helper.flatten(x:totable()) end

local function tmpfile_with(text)
  local path = os.tmpname()
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  return path
end
local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

describe("text files without a device", function()
  it("formats with Python's %-formats", function()
    -- '%.18e|%d|%5.2f|%-6s|%s|%x|%o|%%|%+.3e|%10.3f' % (1.5, 2.7, 3.14159, 0.1, 1e20, 255, 8, 12345.678, nan)
    assert.equal("1.500000000000000000e+00|2| 3.14|0.1   |1e+20|ff|10|%|+1.235e+04|       nan",
      internal.py_format("%.18e|%d|%5.2f|%-6s|%s|%x|%o|%%|%+.3e|%10.3f",
        { 1.5, 2.7, 3.14159, 0.1, 1e20, 255, 8, 12345.678, 0 / 0 }, "float64", "t"))
    assert.equal("True -3", internal.py_format("%s %d", { true, -3.9 }, "float64", "t"))
    helper.assert_gaerror(function() internal.py_format("%d %d", { 1 }, "int64", "savetxt") end, "not enough values")
    helper.assert_gaerror(function() internal.py_format("%d", { 1, 2 }, "int64", "savetxt") end, "not all values")
  end)

  it("parses numbers as NumPy's loadtxt does", function()
    local f = T.parser_for("float64")
    assert.equal(1500.0, f(" 1.5e3 "))
    assert.is_true(f("nan") ~= f("nan"))
    assert.equal(-math.huge, f("-Inf"))
    assert.equal(1000.0, f("1_000"))
    assert.is_nil(f("0x10"))
    assert.is_nil(f("abc"))
    local i = T.parser_for("int8")
    assert.equal(-12, i("-12"))
    assert.is_nil(i("1.0"))
    assert.is_nil(i("200"))
    assert.equal(-1, T.parser_for("uint64")("18446744073709551615"))   -- 2^64 - 1, as Lua's integer
    assert.equal(math.mininteger, T.parser_for("int64")("-9223372036854775808"))
    assert.is_nil(T.parser_for("int64")("9223372036854775808"))
    local c = T.parser_for("complex128")("(1-2.5j)")
    assert.same({ 1.0, -2.5 }, c)
    assert.same({ 0.0, 3.0 }, T.parser_for("complex64")("3j"))
    assert.same({ -3.5e-2, 4.0 }, T.parser_for("complex128")("-3.5e-2+4j"))
    assert.is_true(T.parser_for("bool")("True"))
    assert.is_false(T.parser_for("bool")("0"))
    -- NumPy's _ensure_ndmin_ndarray
    assert.same({ 3 }, T.ensure_ndmin({ 1, 3 }, 0))
    assert.same({}, T.ensure_ndmin({ 1, 1 }, 0))
    assert.same({ 3, 1 }, T.ensure_ndmin({ 3 }, 2))
    assert.same({ 1, 3 }, T.ensure_ndmin({ 1, 3 }, 2))
    assert.same({ 1 }, T.ensure_ndmin({ 1, 1 }, 1))
    local q = T.splitter(",", '"')('1,"2,5",3')
    assert.same({ "1", "2,5", "3" }, q)
    assert.same({ "12", "34", "5" }, T.splitter(2)("12345"))
    assert.same({ "1", "234" }, T.splitter({ 1, 3 })("12345"))
  end)

  it("gzips as gzip does and reads it back", function()
    local g = internal.gzip
    local s = ("numbers 1 2 3\n"):rep(500)
    local z = g.gzip(s)
    assert.equal("\31\139", z:sub(1, 2))
    assert.equal(s, g.gunzip(z, "t"))
    assert.is_true(#z < #s / 10)
    local ok = os.execute("command -v gzip >/dev/null 2>&1")
    if ok == true or ok == 0 then
      local path = tmpfile_with(z)
      local p = io.popen("gzip -dc < " .. path)
      assert.equal(s, p:read("a"))
      p:close()
      os.remove(path)
    end
  end)

  it("declares the functions with NumPy's keywords", function()
    helper.assert_gaerror(function() ga.loadtxt("x", { skip_rows = 1 }) end, "did you mean 'skiprows'")
    helper.assert_gaerror(function() ga.genfromtxt({ "1 2" }, { names = true }) end, "structured arrays")
    helper.assert_gaerror(function() ga.genfromtxt({ "1 2" }, { usemask = true }) end, "masked arrays")
    helper.assert_gaerror(function() ga.loadtxt("/nonexistent/f.txt") end, "loadtxt: ")
    helper.assert_gaerror(function() ga.loadtxt({ "1 2", "3" }) end, "number of columns changed from 2 to 1")
    helper.assert_gaerror(function() ga.loadtxt({ "1 x" }) end, "could not convert string 'x' to float64")
    helper.assert_gaerror(function() ga.fromfile("/nonexistent/f.bin") end, "fromfile: ")
  end)
end)

describe("text files on the GPU", function()
  helper.gpu_it("savetxt writes NumPy's text", function()
    local path = os.tmpname()
    ga.savetxt(path, ga.array({ { 1.5, -2.0 }, { 3.25, 1e-20 } }))
    assert.equal("1.500000000000000000e+00 -2.000000000000000000e+00\n"
      .. "3.250000000000000000e+00 9.999999999999999452e-21\n", read(path))
    ga.savetxt(path, ga.array({ 1, 2, 3 }), "%d", { header = "a b\nc", footer = "end" })
    assert.equal("# a b\n# c\n1\n2\n3\n# end\n", read(path))
    ga.savetxt(path, ga.array({ { 1, 2 }, { 3, 4 } }, "int32"), { "%3d", "%-4x" }, ",")
    assert.equal("  1,2   \n  3,4   \n", read(path))
    ga.savetxt(path, ga.array({ { { 1, 2 }, { -1.5, -0.5 } } }, "complex128"), "%.2f")
    assert.equal(" (1.00+2.00j)  (-1.50-0.50j)\n", read(path))
    ga.savetxt(path, ga.array({ { 0.1, 2 } }, "float32"), "%s %r")
    assert.equal("0.1 2.0\n", read(path))
    ga.savetxt(path, ga.array({ { 0 / 0, 1 / 0, -1 / 0 } }), "%8.3f")
    assert.equal("     nan      inf     -inf\n", read(path))
    helper.assert_gaerror(function() ga.savetxt(path, ga.zeros({ 2, 2, 2 })) end, "Expected 1D or 2D array, got 3D")
    helper.assert_gaerror(function() ga.savetxt(path, ga.zeros({ 2, 3 }), "%d %d") end, "wrong number of % formats")
    os.remove(path)
  end)

  helper.gpu_it("loadtxt and genfromtxt read NumPy's tables; savetxt round-trips random data", function()
    local x = ga.loadtxt({ "# c", "1 2 3 # x", "", "4 5 6" }, { usecols = { 1, 3 } })
    helper.assert_same({ { 1, 3 }, { 4, 6 } }, x:totable())
    assert.equal("float64", x.dtype)
    local g = ga.genfromtxt({ "1,2,,4", "5,N/A,7,8", "9,x,1,2" }, { delimiter = ",", missing_values = "N/A",
                                                                   filling_values = 0 })
    helper.assert_same({ { 1, 2, 0, 4 }, { 5, 0, 7, 8 }, { 9, 0, 1, 2 } }, g:totable())
    local gn = ga.genfromtxt({ "1,,3" }, { delimiter = "," })
    local v = flat(gn)
    assert.is_true(v[2] ~= v[2])
    helper.assert_same({ 1, -1, 3 }, flat(ga.genfromtxt({ "1,,3" }, "int32", { delimiter = "," })))
    -- squeezing and ndmin, unpack
    assert.same({ 3 }, ga.loadtxt({ "1 2 3" }).shape)
    assert.same({ 1, 3 }, ga.loadtxt({ "1 2 3" }, { ndmin = 2 }).shape)
    assert.same({ 3, 1 }, ga.loadtxt({ "1", "2", "3" }, { ndmin = 2 }).shape)
    assert.same({}, ga.loadtxt({ "5" }).shape)
    assert.same({ 0 }, ga.loadtxt({}).shape)
    local a, b = ga.loadtxt({ "1 2", "3 4", "5 6" }, { unpack = true })
    helper.assert_same({ 1, 3, 5 }, flat(a))
    helper.assert_same({ 2, 4, 6 }, flat(b))
    -- dtypes, delimiters, converters, skiprows, max_rows, quotechar
    local i = ga.loadtxt({ "h", "1;-2", "3;4", "5;6" }, "int16", { delimiter = ";", skiprows = 1, max_rows = 2 })
    assert.equal("int16", i.dtype)
    helper.assert_same({ { 1, -2 }, { 3, 4 } }, i:totable())
    local cv = ga.loadtxt({ "a 1", "b 2" }, { converters = { [1] = function(s) return s:byte() end } })
    helper.assert_same({ { 97, 1 }, { 98, 2 } }, cv:totable())
    helper.assert_same({ 1, 2.5 }, flat(ga.loadtxt({ '"1","2.5"' }, { delimiter = ",", quotechar = '"' })))
    local big = ga.loadtxt({ "9007199254740993 -9223372036854775808" }, "int64")
    helper.assert_same({ 9007199254740993, math.mininteger }, flat(big))
    -- round trip of random values (float64 at %.18e is exact)
    for _, dt in ipairs({ "float64", "float32", "int32", "complex128" }) do
      local t = helper.random_table({ 5, 3 }, function()
        if dt == "int32" then return math.random(-100000, 100000) end
        if dt == "complex128" then return { math.random() * 100 - 50, math.random() } end
        return (math.random() - 0.5) * 10 ^ math.random(-5, 5)
      end)
      local y = ga.array(t, dt)
      local path = os.tmpname() .. (dt == "float32" and ".gz" or "")
      ga.savetxt(path, y, dt == "int32" and "%d" or "%.18e")
      local back = ga.loadtxt(path, dt)
      assert.is_true(ga.array_equal(y, back), dt)
      os.remove(path)
    end
  end)

  helper.gpu_it("tofile and fromfile: raw bytes and separated text", function()
    local x = ga.array(helper.random_table({ 4, 5 }, function() return math.random() end), "float32")
    local path = os.tmpname()
    x:tofile(path)
    assert.equal(x:tobytes(), read(path))
    local y = ga.fromfile(path, "float32")
    assert.same({ 20 }, y.shape)
    assert.is_true(ga.array_equal(x:reshape(20), y))
    local part = ga.fromfile(path, "float32", 3, "", 8)
    helper.assert_same(flat(x:reshape(20)[{ { 3, 5 } }]), flat(part))
    local n = ga.array({ 1, -2, 3 }, "int64")
    n:tofile(path, ", ", "%d")
    assert.equal("1, -2, 3", read(path))
    helper.assert_same({ 1, -2, 3 }, flat(ga.fromfile(path, "int64", -1, ",")))
    local f = ga.array({ 0.5, 1.25 })
    f:tofile(path, " ")
    assert.equal("0.5 1.25", read(path))
    helper.assert_same({ 0.5, 1.25 }, flat(ga.fromfile(path, "float64", -1, " ")))
    helper.assert_gaerror(function() ga.fromfile(path, "float64", 5, " ") end, "5 items requested")
    os.remove(path)
  end)
end)
