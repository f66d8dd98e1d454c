"""Checks an annotated MLIR file against its JSON report.

- the report is valid JSON in the documented shape;
- each function's total_us equals the sum of its kernels (each times its
  count: loop trips, 0 for an scf.if branch not counted) and the function's
  latency.total_us attribute, and latency.kernels equals the kernel count;
- every conv / matmul op carries a latency.kernel id whose kernel has a
  positive latency.

usage: check_report.py annotated.mlir report.json
"""
import json
import math
import re
import sys

mlir = open(sys.argv[1]).read()
report = json.load(open(sys.argv[2]))
assert set(report) == {"profile", "device", "functions"}, report.keys()
FUNC = r"func\.func (?:(?:private|public|nested) )?@([\w.]+)\("
attrs = dict(re.findall(FUNC + r".*latency\.total_us = ([-0-9.e+]+) : f64", mlir))
counts = dict(re.findall(FUNC + r".*latency\.kernels = (\d+) : i64", mlir))
for fn in report["functions"]:
    ks = fn["kernels"]
    total = sum(k["latency_us"] * k.get("count", 1) for k in ks)
    assert math.isclose(total, fn["total_us"], rel_tol=1e-12), (fn["name"], total)
    cov = fn["coverage"]
    assert math.isclose(cov["measured_us"] + cov["interpolated_us"] + cov["roofline_us"],
                        total, rel_tol=1e-9), cov
    assert math.isclose(float(attrs[fn["name"]]), total, rel_tol=1e-12)
    assert int(counts[fn["name"]]) == len(ks)
    for k in ks:
        for key in ("id", "type", "ops", "loc", "latency_us", "source", "confidence",
                    "method", "axes", "flops", "bytes", "bound"):
            assert key in k, key
    costly = [k for k in ks if any(("conv" in o or "matmul" in o) for o in k["ops"])]
    assert all(k["latency_us"] > 0 for k in costly), "a conv/matmul kernel has no latency"
for line in mlir.splitlines():
    if re.search(r"= (linalg\.(conv|depthwise_conv|matmul|batch_matmul)|tosa\.(conv2d|depthwise_conv2d|matmul))", line):
        assert "latency.kernel = " in line, "conv/matmul without a kernel: " + line[:120]
print("report consistent:", sum(len(f["kernels"]) for f in report["functions"]), "kernels")
