"""Checks integer-convs.test's answers: quantized_cnn_block.tosa.mlir's
kernels priced with the hand-written integer rates (integer-convs.test),
against the same profile without them.

Usage: check_integer_convs.py WITH.json WITHOUT.json

Prints one line per kernel:
- "<type> i8: <ns> ns a multiply-add, no pad" for a conv priced at its
  multiply-adds at that rate (the grid's, interpolated: 12.5 ns at 32
  channels), plus at most 2% (launch, epilogue and scratch pages on top),
  where the answer without the rates is not;
- "<type> i8: <ns> ns a multiply-add, <n> pad elements at <r> ns" for one
  priced so with its pad copy added;
- "<type> i8: unchanged" for a kernel the rates leave alone.
"""
import json
import re
import sys


def kernels(path):
    with open(path) as f:
        return [k for fn in json.load(f)["functions"] for k in fn["kernels"]]


# the rate each kernel should take, in source order (None: unchanged)
RATES = [12.5, 10, None]
PAD_NS = 100
for k, k0, ns in zip(kernels(sys.argv[1]), kernels(sys.argv[2]), RATES):
    if ns is None:
        same = abs(k["latency_us"] - k0["latency_us"]) <= 1e-9 * k0["latency_us"]
        print("%s %s: %s" % (k["type"], k["dtype"],
                             "unchanged" if same else "changed: %g us, %g us"
                             % (k["latency_us"], k0["latency_us"])))
        continue
    axes = dict(re.findall(r"(\w+)=(\d+)", k["axes"]))
    side = [int(v) for v in re.search(r"hw=(\d+)x(\d+)", k["axes"]).groups()]
    depthwise = k["type"].startswith("depthwise")
    macs = side[0] * side[1] * int(axes["cout"]) * int(axes["window"]) * (
        1 if depthwise else int(axes["cin"]))
    pad = k.get("pad_elements", 0)
    expected = (macs * ns + pad * PAD_NS) * 1e-3
    if (expected <= k["latency_us"] <= 1.02 * expected
            and not expected <= k0["latency_us"] <= 1.02 * expected):
        print("%s %s: %g ns a multiply-add, %s" % (
            k["type"], k["dtype"], ns,
            "%d pad elements at %g ns" % (pad, PAD_NS) if pad else "no pad"))
    else:
        print("%s %s: %g us, not the rates' %g (%g us without them)"
              % (k["type"], k["dtype"], k["latency_us"], expected,
                 k0["latency_us"]))
