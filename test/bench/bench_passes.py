#!/usr/bin/python3
"""Time of --annotate-latency against mlir-opt parse + print alone (one thread).

For each input, three commands are run in turn, RUNS rounds:
  parse+print  `mlir-opt FILE -o /dev/null` (parse, verify, print)
  +cse         the same with an upstream pass that changes nothing here
  +annotate    the same with the plugin and --annotate-latency
and the least CPU time (user + sys) of each is kept. Printed: the times, what
each adds to parse+print as a ratio, and the pass's cost per op. Inputs: the
largest bundled model, the bf16 LLaMA block (it makes the pass parse the bf16
GEMM table) and generated graphs of 10k, 30k and 100k ops (gen_graph.py), to
show growth with size.

usage: bench_passes.py MLIR_OPT PLUGIN MODEL [RUNS] [PASS_OPTIONS]
(PASS_OPTIONS, e.g. "gains=false" or "precision=bf16", go to --annotate-latency=;
GENERATED_SIZES="" in the environment skips the generated graphs, e.g. to time
only the bundled models with one option; BEFORE_PLUGIN=PATH adds a fourth
command, the same pass from another build of the plugin, in the same rounds, so
a change is timed against its base under the same load)
"""
import os
import subprocess
import sys
import tempfile

mlir_opt, plugin, model = sys.argv[1], sys.argv[2], sys.argv[3]
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 7
annotate_flag = "--annotate-latency" + ("=" + sys.argv[5] if len(sys.argv) > 5 else "")
here = os.path.dirname(os.path.abspath(__file__))


def cpu_seconds(cmd):
    """CPU time (user + sys) of one run of cmd. CPU time rather than wall
    time: with one thread they measure the same work, but CPU time leaves out
    the moments another process held the core, which on a small shared VM
    moved wall-time cells by +-15 points."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}")
    return usage.ru_utime + usage.ru_stime


def least_interleaved(cmds):
    """Least CPU time of each command over RUNS rounds that run every command
    once, so a noisy moment of the machine falls on all of them alike."""
    best = [float("inf")] * len(cmds)
    for _ in range(runs):
        for i, cmd in enumerate(cmds):
            best[i] = min(best[i], cpu_seconds(cmd))
    return best


tmp = tempfile.mkdtemp()
inputs = [("model " + os.path.basename(model), model, None)]
llama = os.path.join(os.path.dirname(model), "llama2_block_intelgc.linalg.mlir")
if os.path.exists(llama):
    inputs.append(("model " + os.path.basename(llama), llama, None))
for n in map(int, os.environ.get("GENERATED_SIZES", "10000 30000 100000").split()):
    path = os.path.join(tmp, f"chain{n}.mlir")
    with open(path, "w") as f:
        subprocess.run([sys.executable, os.path.join(here, "gen_graph.py"), str(n)],
                       stdout=f, check=True)
    inputs.append((f"generated {n} ops", path, n))

# One thread: MLIR's thread pool makes runs on a small VM vary by +-25%.
opt = [mlir_opt, "--mlir-disable-threading"]
print("CPU seconds (user + sys), least of", runs, "interleaved runs, one thread.")
print("+x = (time with x - parse+print) / parse+print. cse changes nothing here:")
print("it shows what any pass costs (the pass manager verifies the module after it).")
before_plugin = os.environ.get("BEFORE_PLUGIN")
print(f"{'input':40} {'parse+print':>11} {'+cse':>6} {'+annotate':>10} {'pass us/op':>10}"
      + (f" {'+before':>8}" if before_plugin else ""))
for name, path, n in inputs:
    io = [path, "-o", "/dev/null"]
    cmds = [
        opt + io,
        opt + ["--pass-pipeline=builtin.module(func.func(cse))"] + io,
        opt + [f"--load-pass-plugin={plugin}", annotate_flag] + io,
    ]
    if before_plugin:
        cmds.append(opt + [f"--load-pass-plugin={before_plugin}", annotate_flag] + io)
    times = least_interleaved(cmds)
    base, cse, annotate = times[:3]
    ops = n or sum(1 for line in open(path) if " = " in line)
    print(f"{name:40} {base:10.3f}s {(cse - base) / base:6.0%} "
          f"{(annotate - base) / base:10.0%} {(annotate - base) / ops * 1e6:10.2f}"
          + (f" {(times[3] - base) / base:8.0%}" if before_plugin else ""))
