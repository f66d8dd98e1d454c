#!/usr/bin/env python3
"""Builds profiles/h100-sxm/tables from the third-party measurements.

Tables: matmul_bf16.csv (GEMM), attention_prefill.csv (kernel attention),
attention_decode.csv (kernel attention_decode), vidur_llama2_7b.csv (f16
matmul and add rows of Vidur's Llama-2-7B profile).

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


def convert_attention(src, dst, kernel, length_column, length_axis):
    meta = ["framework", "version", "kernel_source", "device_name"]
    with open(src, newline="") as fin, open(dst, "w", newline="") as fout:
        out = csv.writer(fout, lineterminator="\n")
        out.writerow(["kernel", "dtype", "kv_dtype", "kv_heads", "head_dim",
                      "window", length_axis, "batch", "heads", "latency_us"]
                     + meta)
        for r in csv.DictReader(fin):
            out.writerow([kernel, DTYPES[r["attn_dtype"]],
                          DTYPES[r["kv_cache_dtype"]], r["num_kv_heads"],
                          r["head_dim"], r["window_size"], r[length_column],
                          r["batch"], r["num_heads"], r["latency_us"]]
                         + [r[c] for c in meta])


# Vidur's Llama-2-7B linear layers are GEMMs (m = tokens); the residual add is
# elementwise over tokens x hidden. Other Vidur ops (embedding, RMSNorm,
# RoPE, SiLU-gate) have no kernel the passes produce yet and are left out.
VIDUR_LINEAR = ("attn_pre_proj", "attn_post_proj", "mlp_up_proj",
                "mlp_down_proj")


def convert_vidur(src, dst):
    meta = ["op", "num_tokens", "tp", "min_us", "max_us", "mean_us", "std_us"]
    with open(src, newline="") as fin, open(dst, "w", newline="") as fout:
        out = csv.writer(fout, lineterminator="\n")
        out.writerow(["kernel", "dtype", "m", "n", "k", "elements",
                      "latency_us"] + meta)
        for r in csv.DictReader(fin):
            dtype = DTYPES[r["dtype"]]
            tail = [r["latency_us"]] + [r[c] for c in meta]
            if r["op"] in VIDUR_LINEAR:
                out.writerow(["matmul", dtype, r["m"], r["n"], r["k"], ""] + tail)
            elif r["op"] == "add":
                elements = int(r["num_tokens"]) * int(r["n_embd"])
                out.writerow(["add", dtype, "", "", "", elements] + tail)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data, profile = sys.argv[1], sys.argv[2]
    tables = os.path.join(profile, "tables")
    os.makedirs(tables, exist_ok=True)
    convert_gemm(os.path.join(data, "h100_gemm_bf16.csv"),
                 os.path.join(tables, "matmul_bf16.csv"))
    convert_attention(os.path.join(data, "h100_attn_prefill.csv"),
                      os.path.join(tables, "attention_prefill.csv"),
                      "attention", "seq_len", "seq")
    convert_attention(os.path.join(data, "h100_attn_decode.csv"),
                      os.path.join(tables, "attention_decode.csv"),
                      "attention_decode", "kv_len", "kv_len")
    convert_vidur(os.path.join(data, "h100_vidur_llama2_7b_ops.csv"),
                  os.path.join(tables, "vidur_llama2_7b.csv"))


if __name__ == "__main__":
    main()
