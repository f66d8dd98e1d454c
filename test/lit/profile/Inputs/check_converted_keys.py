"""Checks that device.csv holds a converted_mac_ns key for exactly the half
chains latency-profile's log says it kept (converted_chain_probe.c).

Usage: check_converted_keys.py LOG DEVICE_CSV

The log has one line per probed half chain:
  probe chain f16 with f32: 2.6 ns a multiply-add, 4.37x f32's: converted
Prints "N half chains probed against f32's; device.csv has the K kept and no
other", or what differs.
"""
import csv
import re
import sys

kept, probed = set(), 0
for line in open(sys.argv[1]):
    m = re.search(r"probe chain (\w+) with (\w+): .*: (converted|not kept)$",
                  line.rstrip())
    if not m:
        continue
    probed += 1
    dtype, acc, verdict = m.groups()
    bits = 32 if acc == "f32" else 16
    if verdict == "converted":
        kept.add("converted_mac_ns.%s.acc%d" % (dtype, bits))
keys = {row[0] for row in csv.reader(open(sys.argv[2]))
        if row and row[0].startswith("converted_mac_ns.")}
if keys == kept:
    print("%d half chains probed against f32's; device.csv has the %d kept "
          "and no other" % (probed, len(kept)))
else:
    print("kept %s, device.csv has %s" % (sorted(kept), sorted(keys)))
