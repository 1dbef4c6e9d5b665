std = "lua54"
max_line_length = 110
files["spec/"] = { std = "+busted" }
exclude_files = { "build/", ".device/" }
