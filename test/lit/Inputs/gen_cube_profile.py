"""Writes a one-table profile DIR (kernel f, axes x y z) whose table is an
11 x 11 x 11 grid with a smooth latency: 1331 points, enough for its 3D
triangulation to go through the on-disk cache (latency-query-cache.test)."""
import os
import sys

profile = sys.argv[1]
os.makedirs(os.path.join(profile, "tables"), exist_ok=True)
with open(os.path.join(profile, "device.csv"), "w") as f:
    f.write("key,value\nname,cube\n")
with open(os.path.join(profile, "fusion.csv"), "w") as f:
    f.write("producer,consumer\n")
with open(os.path.join(profile, "policy.csv"), "w") as f:
    f.write("kernel,axes,regime,transform\nf,x y z,,\n")
with open(os.path.join(profile, "tables", "f.csv"), "w") as f:
    f.write("kernel,x,y,z,latency_us\n")
    for x in range(11):
        for y in range(11):
            for z in range(11):
                f.write(f"f,{x},{y},{z},{1 + x + 2 * y + 3 * z + x * y * z}\n")
