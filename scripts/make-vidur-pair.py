#!/usr/bin/env python3
"""Writes the development pair for transfer: the same Vidur LLaMA-2-7B
operators measured on an H100 and an A100, as profile tables and as a
reference profile for the A100 -> H100 direction (docs/accuracy.md,
"Transfer"). The H100 -> A100 direction uses profiles/h100-sxm itself.

  OUT/a100_vidur.csv, OUT/h100_vidur.csv   target tables (matmul f16, add)
  OUT/a100-vidur/   a profile: a100-sxm-80gb's device.csv and fusion.csv,
                    h100-sxm's policy.csv, tables/vidur.csv (the A100 table)

With SHARED_DATA_DIR, the tables are converted from the raw Vidur files
(shared/data/SOURCES.md) exactly as scripts/make-h100-profile.py converts
the H100 file; without it, the converted copies in the repository are used
(test/unit/data/a100_vidur_llama2_7b.csv,
profiles/h100-sxm/tables/vidur_llama2_7b.csv): the same bytes.

usage: scripts/make-vidur-pair.py OUT_DIR [SHARED_DATA_DIR]
"""
import importlib.util
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
COPIES = {"a100": os.path.join(ROOT, "test", "unit", "data",
                               "a100_vidur_llama2_7b.csv"),
          "h100": os.path.join(ROOT, "profiles", "h100-sxm", "tables",
                               "vidur_llama2_7b.csv")}


def converter():
    spec = importlib.util.spec_from_file_location(
        "make_h100_profile", os.path.join(HERE, "make-h100-profile.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.convert_vidur


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out = sys.argv[1]
    data = sys.argv[2] if len(sys.argv) == 3 else None
    os.makedirs(out, exist_ok=True)
    for gpu in ("a100", "h100"):
        table = os.path.join(out, f"{gpu}_vidur.csv")
        if data:
            converter()(os.path.join(data, f"{gpu}_vidur_llama2_7b_ops.csv"),
                        table)
        else:
            shutil.copy(COPIES[gpu], table)
    profile = os.path.join(out, "a100-vidur")
    os.makedirs(os.path.join(profile, "tables"), exist_ok=True)
    for name in ("device.csv", "fusion.csv"):
        shutil.copy(os.path.join(ROOT, "profiles", "a100-sxm-80gb", name),
                    os.path.join(profile, name))
    # The a100-sxm-80gb device.csv is a transferred profile's now: its
    # transfer keys would mark the reference's own measurements transferred.
    with open(os.path.join(profile, "device.csv")) as f:
        lines = [line for line in f
                 if not line.startswith(("transferred_from,", "transfer_"))]
    with open(os.path.join(profile, "device.csv"), "w") as f:
        f.writelines(lines)
    shutil.copy(os.path.join(ROOT, "profiles", "h100-sxm", "policy.csv"),
                os.path.join(profile, "policy.csv"))
    shutil.copy(os.path.join(out, "a100_vidur.csv"),
                os.path.join(profile, "tables", "vidur.csv"))


if __name__ == "__main__":
    main()
