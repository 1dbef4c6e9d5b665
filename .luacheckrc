std = "lua54"
max_line_length = 120
files["spec/"] = { std = "+busted", ignore = { "311" } }
-- generated tables of reference values (tools/special/gen_refs.py, tools/fft/gen_refs.py)
exclude_files = { "build/", ".device/", "spec/scipy/special/refs.lua", "spec/scipy/fft/refs.lua" }
