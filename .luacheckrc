std = "lua54"
max_line_length = 120
files["spec/"] = { std = "+busted", ignore = { "311" } }
exclude_files = { "build/", ".device/" }
