#!/usr/bin/env python3
"""Builds profiles/h100-sxm/tables from the third-party measurements.

Reproducible: the output depends only on the input files. Values are copied
as written (no rounding); dtype spellings become MLIR's (bfloat16 -> bf16) and
each row gets the kernel column the profile format needs.

usage: scripts/make-h100-profile.py SHARED_DATA_DIR PROFILE_DIR
"""
import csv
import os
import sys

DTYPES = {"bfloat16": "bf16", "float16": "f16", "float32": "f32",
          "fp8": "f8E4M3FN", "int8": "i8"}


def convert_gemm(src, dst):
    with open(src, newline="") as fin, open(dst, "w", newline="") as fout:
        rows = csv.DictReader(fin)
        out = csv.writer(fout, lineterminator="\n")
        meta = ["framework", "version", "kernel_source", "device_name"]
        out.writerow(["kernel", "dtype", "m", "n", "k", "latency_us"] + meta)
        for r in rows:
            out.writerow(["matmul", DTYPES[r["dtype"]], r["m"], r["n"], r["k"],
                          r["latency_us"]] + [r[c] for c in meta])


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data, profile = sys.argv[1], sys.argv[2]
    tables = os.path.join(profile, "tables")
    os.makedirs(tables, exist_ok=True)
    convert_gemm(os.path.join(data, "h100_gemm_bf16.csv"),
                 os.path.join(tables, "matmul_bf16.csv"))


if __name__ == "__main__":
    main()
