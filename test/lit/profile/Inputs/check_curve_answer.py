"""Checks that a channels-last conv at reduction 32, which the profile did
not measure, is priced on the channels-last curve's k32 point: argv[1] is
the profile's device.csv, argv[2] the report with the curve, argv[3] the
report of the same profile without the curve's keys. Both answers must be
compute-bound rooflines whose fixed part (the latency less flops over peak
times the efficiency) agrees when the first is taken at the k32 point and
the second at the median: the one identity that holds only if each run
used the efficiency it should."""
import json
import sys


def conv(path):
    kernels = [k for f in json.load(open(path))["functions"] for k in f["kernels"]]
    convs = [k for k in kernels if k["type"].startswith("conv2d")]
    if len(convs) != 1:
        sys.exit(f"{path}: expected one conv kernel, got {len(convs)}")
    k = convs[0]
    if k["source"] != "roofline" or k.get("bound") != "compute":
        sys.exit(f"{path}: expected a compute-bound roofline, got {k['source']}, {k.get('bound')}")
    return k


device = dict(line.strip().split(",", 1) for line in open(sys.argv[1]) if "," in line)
peak = float(device["peak_flops.f32"])
at_k32 = float(device["channels_last_efficiency.conv2d.k32"])
median = float(device["channels_last_efficiency.conv2d"])
curve, flat = conv(sys.argv[2]), conv(sys.argv[3])
fixed_curve = curve["latency_us"] - curve["flops"] / (peak * at_k32) * 1e6
fixed_flat = flat["latency_us"] - flat["flops"] / (peak * median) * 1e6
if abs(fixed_curve - fixed_flat) > 1e-6 * max(curve["latency_us"], flat["latency_us"]):
    sys.exit(f"not priced at k32 ({at_k32}) and the median ({median}): "
             f"fixed parts {fixed_curve} and {fixed_flat} us")
print(f"k32 efficiency {at_k32}: {curve['latency_us']:.3f} us; median {median}: {flat['latency_us']:.3f} us")
