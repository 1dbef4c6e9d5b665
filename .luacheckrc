std = "lua54"
max_line_length = 120
files["spec/"] = { std = "+busted", ignore = { "311" } }
-- generated data: NumPy's text (spec/io/print_cases.lua) and tables of
-- reference values (tools/special/gen_refs.py, tools/fft/gen_refs.py,
-- spec/scipy/ndimage/ref.py)
exclude_files = { "build/", "build-lint/", ".device/", ".base/", "spec/io/print_cases.lua",
                  "spec/scipy/special/refs.lua", "spec/scipy/fft/refs.lua", "spec/scipy/ndimage/ref.lua" }
-- scipy.signal's tables of SciPy's values (spec/scipy/signal/ref_*.py)
for _, name in ipairs({ "conv", "design", "fir", "iir", "misc", "spectral", "windows" }) do
  files["spec/scipy/signal/ref_" .. name .. ".lua"] = { std = "+busted", ignore = { "311" }, max_line_length = false }
end
