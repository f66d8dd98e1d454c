"""Damages every cache entry of one kind in DIR: `flip` inverts one byte in
the middle of each file, `truncate` cuts each file in half. KIND is `tri`
(triangulations, the default), `tab` (table snapshots), `stat` (stat
links), `idx` (sealed groups and their indexes) or `scan` (scan verdicts).
`forge` (idx only) points the first filled hash slot of each entry past the
last point and recomputes the checksum, as a file that passes every check
but its structure's would. `fifo` puts a named pipe in each entry's place
(a reader that opened it blocking would wait forever). Prints how many
entries it damaged.

    tamper_cache.py DIR flip|truncate|forge|fifo [tri|tab|stat|idx|scan]"""
import glob
import os
import struct
import sys

M64 = (1 << 64) - 1


def mix_word(h, w):
    h = ((h ^ w) * 0x100000001b3) & M64
    return h ^ (h >> 29)


def cache_hash(data, h):
    """costmodel/cache_file.c's cmCacheHash."""
    p, size = 0, len(data)
    if size >= 32:
        lane = [h, h ^ 0x9e3779b97f4a7c15, (h + 0x632be59bd9b4e019) & M64,
                ~h & M64]
        while size - p >= 32:
            for i in range(4):
                lane[i] = mix_word(lane[i], struct.unpack_from("<Q", data, p + 8 * i)[0])
            p += 32
        for i in range(4):
            h = ((h ^ lane[i]) * 0xff51afd7ed558ccd) & M64
            h ^= h >> 32
    while size - p >= 8:
        h = mix_word(h, struct.unpack_from("<Q", data, p)[0])
        p += 8
    while p < size:
        h = ((h ^ data[p]) * 0x100000001b3) & M64
        p += 1
    h ^= h >> 33
    h = (h * 0xff51afd7ed558ccd) & M64
    return h ^ (h >> 33)


def forge_index(path):
    """An idx entry (costmodel/index_cache.c): header of 48 bytes, section
    table, sections padded to 8; the last section holds the hash slots."""
    data = bytearray(open(path, "rb").read())
    version, num_sections = struct.unpack_from("<I", data, 8)[0], struct.unpack_from("<I", data, 20)[0]
    table = data[48:48 + 16 * num_sections]
    sections, at = [], 48 + len(table)
    for i in range(num_sections):
        count, elem = struct.unpack_from("<QQ", table, 16 * i)
        sections.append((at, count * elem))
        at += (count * elem + 7) & ~7
    slots_at, slots_size = sections[-1]
    for s in range(slots_at, slots_at + slots_size, 4):
        if struct.unpack_from("<I", data, s)[0]:
            struct.pack_into("<I", data, s, 0x7FFFFFFF)
            break
    h = cache_hash(bytes(table), version)
    for at, size in sections:
        h = cache_hash(bytes(data[at:at + size]), h)
    struct.pack_into("<Q", data, 40, h)
    open(path, "wb").write(data)


directory, how = sys.argv[1], sys.argv[2]
kind = sys.argv[3] if len(sys.argv) > 3 else "tri"
entries = sorted(glob.glob(os.path.join(directory, kind + "-*.bin")))
for path in entries:
    size = os.path.getsize(path)
    if how == "forge":
        forge_index(path)
        continue
    if how == "fifo":
        os.remove(path)
        os.mkfifo(path)
        continue
    with open(path, "r+b") as f:
        if how == "flip":
            f.seek(size // 2)
            byte = f.read(1)
            f.seek(size // 2)
            f.write(bytes([byte[0] ^ 0xFF]))
        else:
            f.truncate(size // 2)
print(f"damaged {len(entries)}")
