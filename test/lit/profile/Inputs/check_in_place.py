"""Checks scripts/time-kernels-in-place's output (in-place.test): every
kernel of two_kernels.mlir has a positive time in place, no kernel takes
longer than the whole call, and the sum of their medians is within half
again of the whole call's median (medians taken apart do not add up
exactly).

usage: check_in_place.py STDOUT.txt KERNELS.csv"""
import csv
import re
import sys

text = open(sys.argv[1]).read()
m = re.search(r"whole call ([0-9.]+) us .*kernels in place ([0-9.]+)", text)
rows = list(csv.DictReader(open(sys.argv[2])))
ids = sorted(int(r["id"]) for r in rows)
times = [float(r["in_place_us"]) for r in rows]
if not m:
    print("no whole-call line:", text[:200])
elif ids != [0, 1]:
    print("kernels timed:", ids)
elif not all(t > 0 for t in times):
    print("a kernel without a time:", rows)
elif max(times) > float(m.group(1)) or float(m.group(2)) > 1.5 * float(m.group(1)):
    print("kernels beyond the whole call:", m.group(0), rows)
else:
    print("kernels 0 and 1 timed in place, within the whole call")
