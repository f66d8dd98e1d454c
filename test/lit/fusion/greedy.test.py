"""Runs each model with fusion=false and fusion=greedy and checks that the
greedy total is never above the single-op total. usage: mlir-opt plugin
model..."""
import json
import os
import subprocess
import sys
import tempfile

mlir_opt, plugin = sys.argv[1].split(), sys.argv[2]
for model in sys.argv[3:]:
    totals = {}
    for mode in ("false", "greedy"):
        with tempfile.NamedTemporaryFile(suffix=".json") as report:
            pipeline = "builtin.module(annotate-latency{fusion=%s report=%s})" % (
                mode, report.name)
            subprocess.run(mlir_opt + ["--load-pass-plugin=" + plugin,
                                       "--pass-pipeline=" + pipeline, model,
                                       "-o", os.devnull],
                           check=True, stderr=subprocess.DEVNULL)
            fns = json.load(open(report.name))["functions"]
            totals[mode] = sum(f["total_us"] for f in fns)
    assert totals["greedy"] <= totals["false"] * (1 + 1e-12), (model, totals)
    print("%s: greedy <= single-op (%.3f <= %.3f us)" % (
        os.path.basename(model), totals["greedy"], totals["false"]))
