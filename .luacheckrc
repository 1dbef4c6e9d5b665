std = "lua54"
max_line_length = 120
files["spec/"] = { std = "+busted", ignore = { "311" } }
-- generated data: NumPy's text (spec/io/print_cases.lua) and tables of
-- reference values (tools/special/gen_refs.py, tools/fft/gen_refs.py,
-- spec/scipy/ndimage/ref.py)
exclude_files = { "build/", "build-lint/", ".device/", ".base/", "spec/io/print_cases.lua",
                  "spec/scipy/special/refs.lua", "spec/scipy/fft/refs.lua", "spec/scipy/ndimage/ref.lua" }
-- the scipy ndimage/interpolate rooms: declaration docs and generated CUDA
-- lines run long (to be rewrapped)
files["lua/gpuarray/scipy/ndimage/"] = { max_line_length = false }
files["lua/gpuarray/scipy/interpolate/"] = { max_line_length = false }
files["spec/scipy/"] = { std = "+busted", ignore = { "311" }, max_line_length = false }
