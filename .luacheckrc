std = "lua54"
max_line_length = 120
files["spec/"] = { std = "+busted", ignore = { "311" } }
-- spec/io/print_cases.lua: generated data (NumPy's text, long lines)
exclude_files = { "build/", ".device/", "spec/io/print_cases.lua" }
