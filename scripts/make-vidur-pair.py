#!/usr/bin/env python3
"""Writes the development pair for transfer: the same Vidur LLaMA-2-7B
operators measured on an H100 and an A100 (shared/data/SOURCES.md), as
profile tables and as reference profiles for both directions.

  OUT/a100_vidur.csv, OUT/h100_vidur.csv   target tables (kernel matmul/add)
  OUT/a100-vidur/   a profile: a100-sxm-80gb's device.csv and fusion.csv,
                    h100-sxm's policy.csv, tables/vidur.csv (the A100 table)

The H100 reference is profiles/h100-sxm itself. Rows are converted exactly
as scripts/make-h100-profile.py converts the H100 file.

usage: scripts/make-vidur-pair.py SHARED_DATA_DIR OUT_DIR
"""
import importlib.util
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def converter():
    spec = importlib.util.spec_from_file_location(
        "make_h100_profile", os.path.join(HERE, "make-h100-profile.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.convert_vidur


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data, out = sys.argv[1], sys.argv[2]
    convert = converter()
    os.makedirs(out, exist_ok=True)
    for gpu in ("a100", "h100"):
        convert(os.path.join(data, f"{gpu}_vidur_llama2_7b_ops.csv"),
                os.path.join(out, f"{gpu}_vidur.csv"))
    profile = os.path.join(out, "a100-vidur")
    os.makedirs(os.path.join(profile, "tables"), exist_ok=True)
    for name in ("device.csv", "fusion.csv"):
        shutil.copy(os.path.join(ROOT, "profiles", "a100-sxm-80gb", name),
                    os.path.join(profile, name))
    shutil.copy(os.path.join(ROOT, "profiles", "h100-sxm", "policy.csv"),
                os.path.join(profile, "policy.csv"))
    shutil.copy(os.path.join(out, "a100_vidur.csv"),
                os.path.join(profile, "tables", "vidur.csv"))


if __name__ == "__main__":
    main()
