# ncu --csv output (gpu__time_duration.sum per kernel) summed by kernel name
import csv, sys, collections
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
h = rows[0]
k, v, m = h.index('Kernel Name'), h.index('Metric Value'), h.index('Metric Name')
tot, cnt = collections.Counter(), collections.Counter()
for r in rows[1:]:
    if r[m] == 'gpu__time_duration.sum':
        t = float(r[v].replace(',', ''))
        tot[r[k][:50]] += t; cnt[r[k][:50]] += 1
for name, t in tot.most_common():
    print(f"{t/1e3:10.1f} us  {cnt[name]:4d}x  {name}")
print(f"{sum(tot.values())/1e3:10.1f} us total, {sum(cnt.values())} kernels")
