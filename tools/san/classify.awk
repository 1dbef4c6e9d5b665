# Classify compute-sanitizer logs (tools/san/gpu-sanitize). Prints one line
# per kind of finding ("N  hazard|api|expected-api  what @ where  [spec]")
# and last "hazards unexpected expected processes". `where` is the first
# host frame outside the CUDA libraries; an API error is expected when a
# line of the file `expected` (a substring, # comments) occurs in
# "<spec file>: <what> @ <where>".
BEGIN {
  n_exp = 0
  while ((getline line < expected) > 0) {
    sub(/#.*/, "", line); gsub(/^[ \t]+|[ \t]+$/, "", line)
    if (line != "") pat[++n_exp] = line
  }
  hazards = unexpected = ok = procs = 0
}
/^== spec\// { spec = $2 }
/ERROR SUMMARY: [0-9]+ error|RACECHECK SUMMARY:/ { procs++ }
/terminated before first instrumented API call/ { next }
/^========= (Invalid|Uninitialized|Leaked|Race|Barrier|Potential|Error|Warning)/ {
  what = $0; sub(/^========= /, "", what); what = substr(what, 1, 90)
  key = "hazard  " what "  [" spec "]"
  count[key]++; hazards++; pending = ""
  next
}
/^========= Program hit/ { pending = $0; sub(/^========= Program hit /, "", pending); next }
pending != "" && /Host Frame:/ {
  if ($0 ~ /libcuda|libcudart|libcublas|libcusolver|libcufft|libcusparse|libnvrtc/) next
  where = $0; sub(/.*Host Frame: */, "", where); gsub(/ \[0x[0-9a-f]+\]/, "", where)
  full = spec ": " pending " @ " where
  kind = "api"
  for (i = 1; i <= n_exp; i++) if (index(full, pat[i])) { kind = "expected-api"; break }
  if (kind == "api") unexpected++; else ok++
  count[kind "  " substr(pending, 1, 70) " @ " substr(where, 1, 60) "  [" spec "]"]++
  pending = ""
}
END {
  for (k in count) printf "%6d  %s\n", count[k], k
  print hazards, unexpected, ok, procs
}
