"""Checks that two JSON reports of the same network agree: the first
function's total_us of each within a relative tolerance.

usage: compare_totals.py a.json b.json [percent=10]
"""
import json
import sys

a, b = (json.load(open(p))["functions"][0]["total_us"] for p in sys.argv[1:3])
limit = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0
diff = abs(a - b) / max(a, b) * 100
print("totals %.3f and %.3f us: %.1f%% apart" % (a, b, diff))
assert a > 0 and b > 0 and diff <= limit, "more than %g%% apart" % limit
