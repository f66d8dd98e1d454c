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


def write_profile(name, axes, points, values):
    """Writes a one-table profile (kernel f, the given axes) and returns it."""
    profile = os.path.join(scratch, name)
    os.makedirs(os.path.join(profile, "tables"), exist_ok=True)
    with open(os.path.join(profile, "device.csv"), "w") as f:
        f.write(f"key,value\nname,{name}\n")
    with open(os.path.join(profile, "fusion.csv"), "w") as f:
        f.write("producer,consumer\n")
    with open(os.path.join(profile, "policy.csv"), "w") as f:
        f.write(f"kernel,axes,regime,transform\nf,{' '.join(axes)},,\n")
    with open(os.path.join(profile, "tables", "f.csv"), "w") as f:
        f.write("kernel," + ",".join(axes) + ",latency_us\n")
        for p, v in zip(points, values):
            f.write("f," + ",".join(repr(float(c)) for c in p) + f",{float(v)!r}\n")
    return profile


def ask_batch(profile, axes, targets):
    """Answers of latency-query --batch for the targets, as dict rows."""
    queries = "kernel," + ",".join(axes) + "\n" + "".join(
        "f," + ",".join(repr(float(c)) for c in t) + "\n" for t in targets)
    out = subprocess.run([query_tool, "--profile", profile, "--batch"],
                         input=queries, capture_output=True, text=True)
    return list(csv.DictReader(io.StringIO(out.stdout))), out.stderr


def run_case(dim, seed, npoints, ntargets):
    rng = np.random.default_rng(seed)
    axes = ["x", "y", "z"][:dim]
    points = rng.uniform(0, 100, size=(npoints, dim))
    values = 1 + rng.uniform(0, 50, size=npoints) + points.sum(axis=1)
    # Targets partly outside the hull of the points.
    targets = rng.uniform(-10, 110, size=(ntargets, dim))
    profile = write_profile(f"scipy-{dim}d-{seed}", axes, points, values)
    rows, stderr = ask_batch(profile, axes, targets)
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
        bad.append(f"{len(rows)} answers for {ntargets} targets: {stderr}")
    inside = int(np.sum(~np.isnan(expected)))
    name = f"{dim}d seed {seed}: {inside} inside, {ntargets - inside} outside"
    print(("ok   " if not bad else "FAIL ") + name)
    for b in bad[:5]:
        print("    " + b)
    return not bad


def run_grid_case(dim, seed):
    """Targets on cell boundaries of a cospherical integer grid: any Delaunay
    triangulation reproduces a linear function exactly, so every target
    inside the box must come back equal to it (on a grid point: measured),
    and every target outside must not be interpolated."""
    rng = np.random.default_rng(seed)
    axes = ["x", "y", "z"][:dim]
    coeff = np.arange(1, dim + 1, dtype=float)
    grid = np.stack(np.meshgrid(*[np.arange(6.0)] * dim), -1).reshape(-1, dim)
    targets = rng.integers(-2, 14, size=(300, dim)) / 2.0  # halves: boundaries
    profile = write_profile(f"grid-{dim}d-{seed}", axes, grid,
                            [1 + float(coeff @ p) for p in grid])
    rows, stderr = ask_batch(profile, axes, targets)
    bad = []
    for i, (row, t) in enumerate(zip(rows, targets)):
        inside = bool(np.all((t >= 0) & (t <= 5)))
        if not inside and row["source"] == "interpolated":
            bad.append(f"target {t} outside the box was interpolated")
        if inside and (row["source"] not in ("interpolated", "measured") or
                       abs(float(row["latency_us"]) - (1 + coeff @ t)) > 1e-9 * (1 + coeff @ t)):
            bad.append(f"target {t}: {row['source']} {row['latency_us']}")
    if len(rows) != len(targets):
        bad.append(f"{len(rows)} answers: {stderr}")
    print(("ok   " if not bad else "FAIL ") + f"{dim}d grid seed {seed}: boundary targets")
    for b in bad[:5]:
        print("    " + b)
    return not bad


results = [run_case(dim, seed, n, 400)
           for dim, n in ((2, 60), (3, 80))
           for seed in (1, 2, 3)]
results += [run_grid_case(dim, seed) for dim in (2, 3) for seed in (1, 2)]
print(f"{sum(results)} passed, {len(results) - sum(results)} failed")
sys.exit(0 if all(results) else 1)
