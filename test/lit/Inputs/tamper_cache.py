"""Damages every cache entry of one kind in DIR: `flip` inverts one byte in
the middle of each file, `truncate` cuts each file in half. KIND is `tri`
(triangulations, the default), `tab` (table snapshots) or `stat` (stat
links). Prints how many entries it damaged.

    tamper_cache.py DIR flip|truncate [tri|tab|stat]"""
import glob
import os
import sys

directory, how = sys.argv[1], sys.argv[2]
kind = sys.argv[3] if len(sys.argv) > 3 else "tri"
entries = sorted(glob.glob(os.path.join(directory, kind + "-*.bin")))
for path in entries:
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        if how == "flip":
            f.seek(size // 2)
            byte = f.read(1)
            f.seek(size // 2)
            f.write(bytes([byte[0] ^ 0xFF]))
        else:
            f.truncate(size // 2)
print(f"damaged {len(entries)}")
