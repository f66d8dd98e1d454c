"""Checks that a channels-last conv the profile did not measure is priced on
the channels-last curve: roofline in both reports (argv[1] with the curve,
argv[2] without its keys), and at a different latency."""
import json
import sys


def conv(path):
    kernels = [k for f in json.load(open(path))["functions"] for k in f["kernels"]]
    convs = [k for k in kernels if k["type"].startswith("conv2d")]
    if len(convs) != 1:
        sys.exit(f"{path}: expected one conv kernel, got {len(convs)}")
    return convs[0]


curve, median = conv(sys.argv[1]), conv(sys.argv[2])
for name, k in (("curve", curve), ("median", median)):
    if k["source"] != "roofline":
        sys.exit(f"{name}: expected a roofline answer, got {k['source']}")
ratio = curve["latency_us"] / median["latency_us"]
if abs(ratio - 1) < 0.01:
    sys.exit(f"the curve did not move the answer: {curve['latency_us']} vs {median['latency_us']} us")
print(f"curve {curve['latency_us']:.3f} us, median {median['latency_us']:.3f} us")
