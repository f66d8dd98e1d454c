"""Checks the column-walk grid of a host profile (column-walk-grid.test).

usage: check_column_walk_grid.py DIR          the grids in DIR/device.csv
       check_column_walk_grid.py DIR query    latency-query prices a spilled
                                              column at the grid's rate
       check_column_walk_grid.py DIR cold     the cold written column's
                                              rate at each share of the LLC

Two grids: a matmul reading its weight's column and a transpose writing its
output's. Each has a row per set count whose row width the host's L1 can
place (a way / sets of at least a line) and a point per k in each; a host
whose C library reports no L1 gets no grid and no walk."""
import csv
import json
import subprocess
import sys

SETS = [1, 4, 16, 64]
KS = [32, 40, 64, 128, 256, 512, 1024, 2048, 4096, 8192]

profile = sys.argv[1]
device = {r[0]: r[1] for r in csv.reader(open(profile + "/device.csv")) if len(r) == 2}
grid = {k: float(v) for k, v in device.items() if k.startswith("column_walk_grid_ns.")}
writes = {k: float(v) for k, v in device.items()
          if k.startswith("column_write_walk_grid_ns.")}


def key(sets, k, side="column_walk_grid_ns"):
    return f"{side}.f32.s{sets}.k{k}"


def query(*fields):
    return json.loads(subprocess.run(
        ["latency-query", "--profile", profile, *fields],
        check=True, capture_output=True, text=True).stdout)


l1, ways, line = (float(device.get(k, 0)) for k in ("l1d_bytes", "l1d_ways", "cache_line_bytes"))
way = l1 / ways if l1 > 0 and ways > 0 else 0
if len(sys.argv) == 2:
    if not way:
        print("no L1 geometry, no grid" if not grid and not writes
              else f"a grid without a geometry: {grid} {writes}")
        sys.exit(0)
    rows = [s for s in SETS if way / s >= line]
    expected = {key(s, k) for s in rows for k in KS}
    expected_writes = {key(s, k, "column_write_walk_grid_ns") for s in rows for k in KS}
    if set(grid) != expected or not all(v > 0 for v in grid.values()):
        print("grid keys differ:", sorted(set(grid) ^ expected), grid)
    elif set(writes) != expected_writes or not all(v > 0 for v in writes.values()):
        print("write grid keys differ:", sorted(set(writes) ^ expected_writes), writes)
    elif not grid[key(1, 8192)] > grid[key(64 if 64 in rows else rows[-1], 256)]:
        print("one set at k = 8192 is not slower than the most sets at 256:", grid)
    else:
        print(f"{len(expected)} grid points, all positive, and {len(expected_writes)} "
              "written; one set at k = 8192 walks slower than the most sets at k = 256")
    sys.exit(0)

if sys.argv[2:] == ["cold"]:
    shares = ["0.25", "0.5", "1", "2", "4"]
    cold = {k: float(v) for k, v in device.items()
            if k.startswith("cold_column_write_ns_per_byte.")}
    expected = {f"cold_column_write_ns_per_byte.llc{s}" for s in shares}
    if not float(device.get("llc_bytes", 0)) > 0:
        print("no last-level cache size, no cold writes" if not cold else cold)
    present = [s for s in shares if f"cold_column_write_ns_per_byte.llc{s}" in cold]
    if not set(cold) <= expected or shares[-1] not in present or \
            not all(0 <= v < float("inf") for v in cold.values()):
        print("cold write keys differ:", sorted(set(cold) ^ expected), cold)
    elif cold[f"cold_column_write_ns_per_byte.llc{present[-1]}"] < \
            cold[f"cold_column_write_ns_per_byte.llc{present[0]}"]:
        print("moving four LLCs costs a written column less than the fewest bytes:", cold)
    else:
        print("the shares of the LLC up to four, none negative; four LLCs cost a "
              "written column no less than the fewest bytes")
    sys.exit(0)

# a row one way wide: its column steps through one L1 set
n = int(way / 4) if way else 1024
answer = query("kernel=matmul+tanh", "dtype=f32", "m=8", f"n={n}", "k=4096",
               "weight_transposed=0")
# a transpose writing a column of 4096 elements a row of n apart
written = query("kernel=transpose", "dtype=f32", f"elements={n * 4096}", "walk_k=4096",
                f"walk_stride={n}", "walk_writes=1")
if not way:
    print("no geometry, no walk" if "column" not in answer["reason"] + written["reason"]
          else [answer, written])
    sys.exit(0)
expected = 8 * n * 4096 * grid[key(1, 4096)] * 1e-3
expected_written = n * 4096 * writes[key(1, 4096, "column_write_walk_grid_ns")] * 1e-3
if not (answer["source"] == "roofline" and "weight column" in answer["reason"]
        and abs(answer["memory_us"] - expected) <= 1e-9 * expected):
    print("memory_us", answer["memory_us"], "expected", expected, answer["reason"])
elif not (written["source"] == "roofline" and "output column" in written["reason"]
          and abs(written["memory_us"] - expected_written) <= 1e-9 * expected_written):
    print("transpose memory_us", written["memory_us"], "expected", expected_written,
          written["reason"])
else:
    print("memory side at the grid's s1.k4096 rate, a written column at its own grid's")
