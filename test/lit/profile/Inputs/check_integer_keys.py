"""Checks that device.csv holds the integer rates latency-profile's device
probes write with a budget of 30 s or more (integer_mac_probe.c): every
point of the int8 conv grid (windows 1, 9 and 49; input channels 1, 2 ...
512, up to 64 at window 49), the depthwise rate and the pad copy's.

Usage: check_integer_keys.py DEVICE_CSV

Prints "27 grid points, a depthwise rate and a pad copy, all positive; 512
channels at 1 x 1 faster a multiply-add than one", or what differs.
"""
import csv
import sys

device = {row[0]: row[1] for row in csv.reader(open(sys.argv[1])) if row}
expected = ["integer_mac_ns.i8.w%d.c%d" % (w, 1 << c)
            for w in (1, 9, 49) for c in range(10)
            if not (w == 49 and (1 << c) > 64)]
expected += ["integer_mac_ns.i8.depthwise", "pad_copy_ns_per_element"]
missing = [k for k in expected if k not in device]
bad = [k for k in expected if k in device and not float(device[k]) > 0]
extra = [k for k in device if k.startswith("integer_mac_ns.")
         and k not in expected]
if missing or bad or extra:
    print("missing %s, not positive %s, unexpected %s" % (missing, bad, extra))
elif not (float(device["integer_mac_ns.i8.w1.c512"])
          < float(device["integer_mac_ns.i8.w1.c1"])):
    print("512 channels at 1 x 1: %s ns, one: %s ns" % (
        device["integer_mac_ns.i8.w1.c512"], device["integer_mac_ns.i8.w1.c1"]))
else:
    print("%d grid points, a depthwise rate and a pad copy, all positive; 512 "
          "channels at 1 x 1 faster a multiply-add than one"
          % (len(expected) - 2))
