#!/usr/bin/python3
"""Baseline for docs/accuracy.md: SciPy griddata (linear, 3D) on the golden
hold-out of the H100 bf16 GEMM table (profile = table minus those points).

usage: baseline_griddata.py TABLE.csv GOLDEN.csv
"""
import csv
import sys

import numpy as np
from scipy.interpolate import griddata

table, golden = sys.argv[1], sys.argv[2]
held = {(float(r["m"]), float(r["n"]), float(r["k"])): float(r["latency_us"])
        for r in csv.DictReader(open(golden))}
pts, vals = [], []
for r in csv.DictReader(open(table)):
    key = (float(r["m"]), float(r["n"]), float(r["k"]))
    if key not in held:
        pts.append(key)
        vals.append(float(r["latency_us"]))
targets = np.array(list(held))
measured = np.array(list(held.values()))
pred = griddata(np.array(pts), np.array(vals), targets, method="linear")
ok = ~np.isnan(pred)
err = np.abs(pred[ok] - measured[ok]) / measured[ok] * 100
print(f"griddata linear 3D: {ok.sum()} of {len(targets)} inside the hull, "
      f"MAPE {err.mean():.2f}%, within 10% {np.mean(err <= 10) * 100:.1f}%")
