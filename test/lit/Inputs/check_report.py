"""Checks an annotated MLIR file against its JSON report.

- the report is valid JSON in the documented shape;
- each function's total_us equals the sum of its kernels (each times its
  count: loop trips, 0 for an scf.if branch not counted) and the function's
  latency.total_us attribute, and latency.kernels equals the kernel count;
- every conv / matmul op carries a latency.kernel id whose kernel has a
  positive latency;
- every fusion edge has gain = unfused - fused; a fused edge's fused_us is its
  kernel's estimate, another edge's unfused_us the two kernels' estimates.

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
    assert math.isclose(cov["measured_us"] + cov["interpolated_us"] +
                        cov.get("transferred_us", 0) + cov["roofline_us"],
                        total, rel_tol=1e-9), cov
    assert math.isclose(float(attrs[fn["name"]]), total, rel_tol=1e-12)
    assert int(counts[fn["name"]]) == len(ks)
    for k in ks:
        for key in ("id", "type", "ops", "loc", "latency_us", "source", "confidence",
                    "method", "axes", "flops", "bytes", "bound"):
            assert key in k, key
    # fusion edges agree with the kernels' own estimates
    byId = {k["id"]: k for k in ks}
    for e in fn.get("fusion", []):
        assert math.isclose(e["gain_us"], e["unfused_us"] - e["fused_us"],
                            rel_tol=1e-9, abs_tol=1e-9), e
        c, p = byId[e["consumer"]], byId[e["producer"]]
        if e["why"] == "fused":
            assert c is p and math.isclose(e["fused_us"], c["latency_us"], rel_tol=1e-12), e
        else:
            assert e["why"] in ("rule", "second user", "no rule"), e
            assert math.isclose(e["unfused_us"], c["latency_us"] + p["latency_us"],
                                rel_tol=1e-12), e
    gains = [e["gain_us"] for e in fn.get("fusion", [])]
    assert gains == sorted(gains, reverse=True), "fusion not sorted by gain"
    costly = [k for k in ks if any(("conv" in o or "matmul" in o) for o in k["ops"])]
    assert all(k["latency_us"] > 0 for k in costly), "a conv/matmul kernel has no latency"
for line in mlir.splitlines():
    if re.search(r"= (linalg\.(conv|depthwise_conv|matmul|batch_matmul)|tosa\.(conv2d|depthwise_conv2d|matmul))", line):
        assert "latency.kernel = " in line, "conv/matmul without a kernel: " + line[:120]
print("report consistent:", sum(len(f["kernels"]) for f in report["functions"]), "kernels")
