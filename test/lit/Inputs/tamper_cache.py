"""Damages every triangulation cache entry in DIR: `flip` inverts one byte in
the middle of each file, `truncate` cuts each file in half. Prints how many
entries it damaged."""
import glob
import os
import sys

directory, how = sys.argv[1], sys.argv[2]
entries = sorted(glob.glob(os.path.join(directory, "tri-*.bin")))
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
