"""Checks converted-chain.test's answers: each half-precision product of
half_products.mlir priced with the profile's converted_mac_ns keys, against
the same profile without them.

Usage: check_converted_chain.py DEVICE_CSV WITH.json WITHOUT.json

Prints one line per kernel:
- "<type> k=<reduction> acc<bits>: chain" when its answer is its
  multiply-adds at the key's rate, plus at most 2% (its launch and epilogue
  come on top of the compute side), and the answer without the keys is not;
- "<type> k=<reduction>: off the chain" when its answer is under half of
  that.
"""
import csv
import json
import re
import sys

device = {row[0]: row[1] for row in csv.reader(open(sys.argv[1])) if row}


def kernels(path):
    with open(path) as f:
        return [k for fn in json.load(f)["functions"] for k in fn["kernels"]]


# the kernels in source order, and which accumulator each has
ACC = [16, 32, 16, 32]
for k, k0, acc in zip(kernels(sys.argv[2]), kernels(sys.argv[3]), ACC):
    axes = dict(re.findall(r"(\w+)=(\d+)", k["axes"]))
    if "cin" in axes:
        side = [int(v) for v in re.search(r"hw=(\d+)x(\d+)", k["axes"]).groups()]
        reduction = int(axes["cin"]) * int(axes["window"])
        macs = side[0] * side[1] * int(axes["cout"]) * reduction
    else:
        reduction = int(axes["k"])
        macs = int(axes["m"]) * int(axes["n"]) * reduction
    rate = float(device["converted_mac_ns.%s.acc%d" % (k["dtype"], acc)])
    chain = macs * rate * 1e-3
    if (chain <= k["latency_us"] <= 1.02 * chain
            and not chain <= k0["latency_us"] <= 1.02 * chain):
        print("%s k=%d acc%d: chain" % (k["type"], reduction, acc))
    elif k["latency_us"] < 0.5 * chain:
        print("%s k=%d: off the chain" % (k["type"], reduction))
    else:
        print("%s k=%d: %g us, neither the chain's %g nor %g without it"
              % (k["type"], reduction, k["latency_us"], chain, k0["latency_us"]))
