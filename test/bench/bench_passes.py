#!/usr/bin/python3
"""Time of --annotate-latency against mlir-opt parse + print alone (one thread).

For each input: best of R runs of `mlir-opt FILE -o /dev/null` (parse,
verify, print) and of the same with the plugin and --annotate-latency; prints
both, the pass's own time, and the overhead ratio (pass / parse+print).
Inputs: the largest bundled model and generated graphs of 10k, 30k and 100k
ops (gen_graph.py), to show growth with size.

usage: bench_passes.py MLIR_OPT PLUGIN MODEL [RUNS]
"""
import os
import subprocess
import sys
import tempfile
import time

mlir_opt, plugin, model = sys.argv[1], sys.argv[2], sys.argv[3]
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
here = os.path.dirname(os.path.abspath(__file__))


def best(cmd):
    # One thread: MLIR's thread pool makes runs on a small VM vary by +-25%.
    cmd = cmd[:1] + ["--mlir-disable-threading"] + cmd[1:]
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return min(times)


tmp = tempfile.mkdtemp()
inputs = [("model " + os.path.basename(model), model, None)]
for n in (10000, 30000, 100000):
    path = os.path.join(tmp, f"chain{n}.mlir")
    with open(path, "w") as f:
        subprocess.run([sys.executable, os.path.join(here, "gen_graph.py"), str(n)],
                       stdout=f, check=True)
    inputs.append((f"generated {n} ops", path, n))

print("added = (time with the pass - parse+print) / parse+print; 'cse' is an")
print("upstream pass that changes nothing here: the pass manager's own cost")
print("(it verifies the module again after any pass). no-verify: --verify-each=false.")
print(f"{'input':28} {'parse+print':>11} {'+cse':>7} {'+annotate':>10} {'no-verify':>10} {'us/op':>7}")
for name, path, n in inputs:
    base = best([mlir_opt, path, "-o", "/dev/null"])
    cse = best([mlir_opt, "--pass-pipeline=builtin.module(func.func(cse))", path,
                "-o", "/dev/null"])
    plug = [mlir_opt, f"--load-pass-plugin={plugin}", "--annotate-latency"]
    full = best(plug + [path, "-o", "/dev/null"])
    fast = best(plug + ["--verify-each=false", path, "-o", "/dev/null"])
    ops = n or sum(1 for line in open(path) if " = " in line)
    print(f"{name:28} {base:10.3f}s {(cse - base) / base:7.0%} {(full - base) / base:10.0%} "
          f"{(fast - base) / base:10.0%} {(fast - base) / ops * 1e6:7.2f}")
