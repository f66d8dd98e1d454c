#!/usr/bin/env python3
"""Leave one model out, at the kernel level, without measuring anything again.

A host profile (`latency-profile --out DIR --sweep MODEL...`) holds every
kernel of its models measured alone (`model` column: the model a shape was
first seen in, or `sweep`). For each model X this script writes a copy of the
profile without what only X contributed -- X's rows that no other model has,
and the sweep rows on a line through one of them (a sweep point moves one
axis of a measured shape, so those were seeded by X) -- runs the pass on X
with that copy, and compares each kernel's prediction with its measured row
in the full profile. It is what a model the profile never saw would get,
except that device.csv's fitted efficiencies still saw X (a median over
every shape of a kernel type; a small leak, said in the output).

Prints per model the sum of its measured kernels against the sum predicted
without it, and per kernel class (type and source) the share within 10% and
the median / worst error; --kernels lists every kernel.

usage: scripts/bench-holdout-kernels.py PROFILE BUILD MODEL... [--kernels]
       [--keep-sweep]
"""
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"


def report(build, profile, model, out):
    subprocess.run(
        [MLIR_OPT, f"--load-pass-plugin={build}/lib/LatencyPlugin.so",
         f"--annotate-latency=profile={profile} report={out}", model,
         "-o", os.devnull],
        check=True, stderr=subprocess.DEVNULL)
    with open(out) as f:
        return [k for fn in json.load(f)["functions"] for k in fn["kernels"]]


def number(text):
    """A field's value as the tables hold it: `hw=16x16` is 256 there."""
    try:
        if "x" in text:
            product = 1.0
            for part in text.split("x"):
                product *= float(part)
            return product
        return float(text)
    except ValueError:
        return text


def kernel_key(k):
    """(type, frozenset of field=value) as the tables spell a row."""
    fields = {}
    for pair in k["axes"].split():
        name, _, value = pair.partition("=")
        fields[name] = number(value)
    fields["dtype"] = k["costed_dtype"]
    return k["type"], fields


def row_matches(row, fields):
    return all(name in row and number(row[name]) == value
               for name, value in fields.items())


def on_line(row, fields):
    """True when row agrees with fields on every field but at most one."""
    differ = sum(1 for name, value in fields.items()
                 if name not in row or number(row[name]) != value)
    return differ <= 1


def write_without(full, out, model, own_only, keep_sweep):
    shutil.copytree(full, out, ignore=shutil.ignore_patterns("kernels"))
    base = os.path.basename(model)
    dropped = 0
    for name in os.listdir(os.path.join(out, "tables")):
        path = os.path.join(out, "tables", name)
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
            header = rows[0].keys() if rows else None
        if not header:
            continue
        keep = []
        for row in rows:
            mine = [fl for t, fl in own_only if t == row["kernel"]]
            seen_here = row.get("model") == base and any(
                row_matches(row, fl) for fl in mine)
            seeded_here = (not keep_sweep and row.get("model") == "sweep" and
                           any(on_line(row, fl) for fl in mine))
            if seen_here or seeded_here:
                dropped += 1
            else:
                keep.append(row)
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(header))
            w.writeheader()
            w.writerows(keep)
    return dropped


def error_pct(predicted, measured):
    return 100.0 * (predicted - measured) / measured


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    show_kernels = "--kernels" in sys.argv
    keep_sweep = "--keep-sweep" in sys.argv
    if len(args) < 3:
        sys.exit(__doc__)
    profile, build, models = args[0], args[1], args[2:]
    tmp = tempfile.mkdtemp(prefix="holdout-kernels-")
    full = {m: report(build, profile, m, os.path.join(tmp, "full.json"))
            for m in models}
    classes = {}
    print("model | kernels | measured sum us | predicted sum us | error | "
          "rows dropped")
    for model in models:
        others = [kernel_key(k) for m in models if m != model for k in full[m]]
        own_only = [kernel_key(k) for k in full[model]
                    if k["source"] == "measured" and kernel_key(k) not in others]
        held = os.path.join(tmp, "held")
        shutil.rmtree(held, ignore_errors=True)
        dropped = write_without(profile, held, model, own_only, keep_sweep)
        predicted = report(build, held, model, os.path.join(tmp, "held.json"))
        measured_sum = predicted_sum = 0.0
        for a, b in zip(full[model], predicted):
            if a["source"] != "measured":
                continue  # nothing measured to compare with
            count = a.get("count", 1)
            measured_sum += count * a["latency_us"]
            predicted_sum += count * b["latency_us"]
            e = error_pct(b["latency_us"], a["latency_us"])
            cls = (a["type"].split("+")[0], b["source"])
            classes.setdefault(cls, []).append(e)
            if show_kernels and b["source"] != "measured":
                print(f"  {os.path.basename(model)} {a['type']} {a['axes']} "
                      f"{a['latency_us']:.1f} -> {b['latency_us']:.1f} us "
                      f"{e:+.1f}% {b['source']} {b['method']}")
        print(f"{os.path.basename(model)} | {len(full[model])} | "
              f"{measured_sum:.1f} | {predicted_sum:.1f} | "
              f"{error_pct(predicted_sum, measured_sum):+.1f}% | {dropped}")
    print("\nclass | source when held out | kernels | within 10% | "
          "median |error| | worst")
    for (kind, source), errors in sorted(classes.items()):
        within = sum(abs(e) <= 10 for e in errors)
        worst = max(errors, key=abs)
        print(f"{kind} | {source} | {len(errors)} | {within} | "
              f"{statistics.median(abs(e) for e in errors):.1f}% | "
              f"{worst:+.1f}%")
    print("\n(device.csv's fitted efficiencies were fitted with every model)")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
