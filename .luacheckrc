std = "lua54"
max_line_length = 120
files["spec/"] = { std = "+busted", ignore = { "311" } }
-- generated data: NumPy's text (spec/io/print_cases.lua) and tables of
-- reference values (tools/special/gen_refs.py, tools/fft/gen_refs.py)
exclude_files = { "build/", ".device/", ".base/", "spec/io/print_cases.lua", "spec/scipy/special/refs.lua",
                  "spec/scipy/fft/refs.lua" }
