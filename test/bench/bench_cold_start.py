#!/usr/bin/env python3
"""Cold start of latency-query: one process per query, as a script or a
shell user would run it. Prints wall time and peak RSS per tier (exact, 1D,
2D, 3D) on the shipped h100-sxm profile with the on-disk cache (table
snapshots, triangulations) off, cold (a fresh cache directory: the first
run ever) and warm (a new process with the directory the cold run filled:
"built once and reused across processes"). Each figure is the least of
--rounds runs; "cold" empties the directory before every round. Peak RSS is
the child's ru_maxrss, which counts Python's pages until the exec (~14 MB
here, so the smallest figures are the floor, not latency-query's own).
Also checks that every mode prints the same JSON text. Not a timed test: it
only prints.

    /usr/bin/python3 test/bench/bench_cold_start.py build/bin/latency-query
"""
import argparse
import os
import shutil
import subprocess
import tempfile
import time

QUERIES = [
    ("exact", "m=4096 n=4096 k=4096"),
    ("1D", "m=3000 n=4096 k=4096"),
    ("2D", "m=3000 n=5000 k=4096"),
    ("3D", "m=3000 n=5000 k=7000"),
]


def run_once(tool, axes, cache):
    """Runs one query; returns (seconds, peak RSS in MB, stdout)."""
    env = dict(os.environ, MLIR_LATENCY_CACHE=cache)
    args = [tool, "kernel=matmul", "dtype=bf16"] + axes.split()
    start = time.perf_counter()
    proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"latency-query {axes} failed")
    return seconds, usage.ru_maxrss / 1024.0, out


def measure(tool, axes, mode, rounds, cache_dir):
    """Least time and RSS of `rounds` runs in `mode` (off, cold, warm)."""
    best, outputs = None, set()
    for _ in range(rounds):
        if mode == "cold":
            shutil.rmtree(cache_dir, ignore_errors=True)
        cache = "off" if mode == "off" else cache_dir
        seconds, rss, out = run_once(tool, axes, cache)
        outputs.add(out)
        best = (seconds, rss) if best is None else (
            min(best[0], seconds), min(best[1], rss))
    return best, outputs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tool", help="path to latency-query")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"{'tier':6} {'mode':5} {'time ms':>9} {'RSS MB':>8}")
    with tempfile.TemporaryDirectory() as scratch:
        cache_dir = os.path.join(scratch, "cache")
        for tier, axes in QUERIES:
            answers = set()
            for mode in ("off", "cold", "warm"):
                rounds = 1 if tier == "3D" and mode != "warm" else args.rounds
                (seconds, rss), outs = measure(args.tool, axes, mode, rounds,
                                               cache_dir)
                answers |= outs
                print(f"{tier:6} {mode:5} {seconds * 1e3:9.1f} {rss:8.1f}")
            print(f"{tier:6} answers identical in all modes: "
                  f"{'yes' if len(answers) == 1 else 'NO'}")


if __name__ == "__main__":
    main()
