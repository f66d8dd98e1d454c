#!/usr/bin/python3
"""The same queries through latency-query --batch and through SciPy.

Reads the query sets bench_costmodel wrote (queries_{exact,1d,2d,3d}.csv)
and the profile's matmul table, then measures on one core:
  - latency-query --batch over each whole set (process start included);
  - SciPy the way a Python autotuner calls it, one query at a time:
    griddata(points, values, q, method="linear") per query (it triangulates
    every time), and a LinearNDInterpolator built once, called per query;
and prints queries per second and the ratios to the C API figures given
on the command line (prepared q/s of the 3d set from bench_costmodel).

usage: bench_scipy.py LATENCY_QUERY PROFILE_DIR QUERY_DIR C_API_3D_QPS
"""
import csv
import subprocess
import sys
import time

import numpy as np
from scipy.interpolate import LinearNDInterpolator, griddata

tool, profile, qdir, capi3d = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])

pts, vals = [], []
with open(f"{profile}/tables/matmul_bf16.csv") as f:
    for r in csv.DictReader(f):
        pts.append((float(r["m"]), float(r["n"]), float(r["k"])))
        vals.append(float(r["latency_us"]))
pts, vals = np.array(pts), np.array(vals)

print(f"{'set':6} {'latency-query --batch q/s':>26}")
batch = {}
for name in ("exact", "1d", "2d", "3d"):
    path = f"{qdir}/queries_{name}.csv"
    rows = sum(1 for _ in open(path)) - 1
    with open(path) as fin:
        t = time.perf_counter()
        subprocess.run([tool, "--profile", profile, "--batch"], stdin=fin,
                       stdout=subprocess.DEVNULL, check=True)
        batch[name] = rows / (time.perf_counter() - t)
    print(f"{name:6} {batch[name]:26.0f}")

queries = np.loadtxt(f"{qdir}/queries_3d.csv", delimiter=",", skiprows=1,
                     usecols=(2, 3, 4))
t = time.perf_counter()
n = 3
for q in queries[:n]:
    griddata(pts, vals, q[None, :], method="linear")
per_query_griddata = n / (time.perf_counter() - t)

t = time.perf_counter()
interp = LinearNDInterpolator(pts, vals)
build_s = time.perf_counter() - t
n = 2000
t = time.perf_counter()
for q in queries[:n]:
    interp(q[None, :])
prebuilt = n / (time.perf_counter() - t)

print(f"\nSciPy, 3d set, one call per query:")
print(f"  griddata per query           {per_query_griddata:12.2f} q/s")
print(f"  LinearNDInterpolator         {prebuilt:12.0f} q/s (built once in {build_s:.2f} s)")
print(f"\nratios (3d set): C API / griddata = {capi3d / per_query_griddata:,.0f}x, "
      f"C API / LinearNDInterpolator = {capi3d / prebuilt:,.0f}x, "
      f"latency-query --batch / griddata = {batch['3d'] / per_query_griddata:,.0f}x")
