"""Checks what latency-profile's fusion modes write, beyond FileCheck.

  check_fusion.py rules FUSION_CSV
      every measured row's decision follows from its numbers (yes exactly
      when gain_pct > noise_pct), gain_pct is (op1 + op2 - fused) / (op1 +
      op2) within the noise (the gain is paired, the times are medians);
  check_fusion.py priced FUSION_CSV REPORT_JSON
      every edge of the pass's report between two single-op kernels of a
      measured pair is priced at the measured ratio, 1 - gain_pct / 100;
  check_fusion.py agreement VALIDATE_JSON EDGES
      --validate-fusion's JSON: EDGES edges in all (measured + failed),
      `edges` = len(pairs), percentages in [0, 100] and recomputed from the
      pairs, each `agree` the comparison of the two signs.

Prints "ok" or the first failure (exit 1).
"""
import csv
import json
import math
import sys


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def rules(path):
    rows = list(csv.DictReader(open(path)))
    if not rows:
        fail("no rows")
    for r in rows:
        if r["decision"] not in ("yes", "no"):
            fail(f"{r['producer']},{r['consumer']}: not measured: {r['note']}")
        op1, op2, fused = (float(r[k]) for k in ("op1_us", "op2_us", "fused_us"))
        gain, noise = float(r["gain_pct"]), float(r["noise_pct"])
        if (r["decision"] == "yes") != (gain > noise):
            fail(f"{r['producer']},{r['consumer']}: decision {r['decision']} "
                 f"for gain {gain}% and noise {noise}%")
        if min(op1, op2, fused) <= 0 or noise <= 0:
            fail(f"{r['producer']},{r['consumer']}: a time or noise <= 0")


def priced(csv_path, report_path):
    ratio = {(r["producer"], r["consumer"]): 1 - float(r["gain_pct"]) / 100
             for r in csv.DictReader(open(csv_path)) if r["gain_pct"]}
    checked = 0
    for f in json.load(open(report_path))["functions"]:
        types = {k["id"]: k["type"] for k in f["kernels"]}
        for e in f["fusion"]:
            pair = (types[e["producer"]], types[e["consumer"]])
            if e["why"] == "fused" or pair not in ratio:
                continue
            want = e["unfused_us"] * ratio[pair]
            if not math.isclose(e["fused_us"], want, rel_tol=1e-9):
                fail(f"{pair}: fused_us {e['fused_us']}, measured ratio gives {want}")
            checked += 1
    if checked == 0:
        fail("no edge of a measured pair in the report")


def agreement(path, edges):
    d = json.load(open(path))
    pairs, failed = d["pairs"], d["failed"]
    if d["edges"] != len(pairs) or len(pairs) + len(failed) != edges:
        fail(f"edges {d['edges']}, {len(pairs)} pairs, {len(failed)} failed")
    for key in ("agreement_pct", "weighted_agreement_pct", "resolved_agreement_pct"):
        if not 0 <= d[key] <= 100:
            fail(f"{key} {d[key]}")
    for p in pairs:
        if p["agree"] != ((p["predicted_gain_us"] > 0) == (p["measured_gain_us"] > 0)):
            fail(f"agree {p['agree']} for {p['predicted_gain_us']} vs {p['measured_gain_us']}")
    agreeing = sum(p["agree"] for p in pairs)
    weight = sum(abs(p["measured_gain_us"]) for p in pairs)
    weighted = sum(abs(p["measured_gain_us"]) for p in pairs if p["agree"])
    if d["agreeing"] != agreeing or (pairs and not math.isclose(
            d["agreement_pct"], 100 * agreeing / len(pairs), rel_tol=1e-3)):
        fail(f"agreement {d['agreement_pct']}% for {agreeing} of {len(pairs)}")
    if weight > 0 and not math.isclose(d["weighted_agreement_pct"],
                                       100 * weighted / weight, rel_tol=1e-3, abs_tol=1e-9):
        fail(f"weighted agreement {d['weighted_agreement_pct']}%")
    for e in failed:
        if not e.get("error"):
            fail("a failed edge without its reason")


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "rules":
        rules(sys.argv[2])
    elif mode == "priced":
        priced(sys.argv[2], sys.argv[3])
    elif mode == "agreement":
        agreement(sys.argv[2], int(sys.argv[3]))
    else:
        fail(f"unknown mode {mode}")
    print("ok")
