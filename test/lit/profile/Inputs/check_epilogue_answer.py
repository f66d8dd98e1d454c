"""Checks that a channels-last conv priced by the roofline pays for its
epilogue passes at the profile's probed rate: argv[1] is the profile's
device.csv, argv[2] latency-query's answer for the conv with
epilogue_elements and epilogue_passes, argv[3] its answer without them.
The two may differ by exactly elements x the rate at the bytes of a pass
(here under 16 KiB: the curve's first point), all of it in launch_us,
where the roofline puts fixed costs."""
import json
import sys

ELEMENTS = 2048  # over 2 passes: 4 KiB of f32 each

device = dict(line.strip().split(",", 1) for line in open(sys.argv[1]) if "," in line)
rate = float(device["epilogue_ns_per_element.b16384"])
with_passes, without = (json.load(open(p)) for p in sys.argv[2:4])
for answer in (with_passes, without):
    if answer["source"] != "roofline":
        sys.exit(f"expected a roofline answer, got {answer['source']}")
added = with_passes["latency_us"] - without["latency_us"]
expected = ELEMENTS * rate * 1e-3
if abs(added - expected) > 1e-9 * with_passes["latency_us"] + 1e-12:
    sys.exit(f"epilogue added {added} us, expected {expected} us at {rate} ns an element")
launch = with_passes["launch_us"] - without["launch_us"]
if abs(launch - expected) > 1e-9 * with_passes["latency_us"] + 1e-12:
    sys.exit(f"the epilogue is not in launch_us: {launch} us of {expected}")
print(f"epilogue {added:.4f} us at {rate} ns an element")
