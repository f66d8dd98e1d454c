#!/usr/bin/python3
"""Cross-checks 2D/3D interpolation against SciPy's griddata (linear).

For random point sets (fixed seeds) in 2D and 3D: writes a profile with one
measured table, asks latency-query --batch for random targets, and compares
with scipy.interpolate.griddata(points, values, targets, method="linear"):
every target inside the hull must agree to 1e-9 relative; every target
outside must not be interpolated. Prints "N passed, N failed".

usage: scipy_crosscheck.py LATENCY_QUERY SCRATCH_DIR
"""
import csv
import io
import os
import subprocess
import sys

import numpy as np
from scipy.interpolate import griddata

query_tool, scratch = sys.argv[1], sys.argv[2]


def run_case(dim, seed, npoints, ntargets):
    rng = np.random.default_rng(seed)
    axes = ["x", "y", "z"][:dim]
    points = rng.uniform(0, 100, size=(npoints, dim))
    values = 1 + rng.uniform(0, 50, size=npoints) + points.sum(axis=1)
    # Targets partly outside the hull of the points.
    targets = rng.uniform(-10, 110, size=(ntargets, dim))
    profile = os.path.join(scratch, f"scipy-{dim}d-{seed}")
    os.makedirs(os.path.join(profile, "tables"), exist_ok=True)
    with open(os.path.join(profile, "device.csv"), "w") as f:
        f.write("key,value\nname,scipy-crosscheck\n")
    with open(os.path.join(profile, "fusion.csv"), "w") as f:
        f.write("producer,consumer\n")
    with open(os.path.join(profile, "policy.csv"), "w") as f:
        f.write(f"kernel,axes,regime,transform\nf,{' '.join(axes)},,\n")
    with open(os.path.join(profile, "tables", "f.csv"), "w") as f:
        f.write("kernel," + ",".join(axes) + ",latency_us\n")
        for p, v in zip(points, values):
            f.write("f," + ",".join(repr(float(c)) for c in p) + f",{float(v)!r}\n")
    queries = "kernel," + ",".join(axes) + "\n" + "".join(
        "f," + ",".join(repr(float(c)) for c in t) + "\n" for t in targets)
    out = subprocess.run([query_tool, "--profile", profile, "--batch"],
                         input=queries, capture_output=True, text=True)
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    expected = griddata(points, values, targets, method="linear")
    bad = []
    for i, (row, want) in enumerate(zip(rows, expected)):
        if np.isnan(want):
            if row["source"] == "interpolated":
                bad.append(f"target {i} outside the hull was interpolated")
        elif row["source"] != "interpolated":
            bad.append(f"target {i} inside the hull: {row['source']}")
        elif abs(float(row["latency_us"]) - want) > 1e-9 * abs(want):
            bad.append(f"target {i}: {row['latency_us']} vs scipy {want!r}")
    if len(rows) != ntargets:
        bad.append(f"{len(rows)} answers for {ntargets} targets: {out.stderr}")
    inside = int(np.sum(~np.isnan(expected)))
    name = f"{dim}d seed {seed}: {inside} inside, {ntargets - inside} outside"
    print(("ok   " if not bad else "FAIL ") + name)
    for b in bad[:5]:
        print("    " + b)
    return not bad


results = [run_case(dim, seed, n, 400)
           for dim, n in ((2, 60), (3, 80))
           for seed in (1, 2, 3)]
print(f"{sum(results)} passed, {len(results) - sum(results)} failed")
sys.exit(0 if all(results) else 1)
