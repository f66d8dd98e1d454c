#!/usr/bin/env python3
"""Draws `latency-profile --validate --json` output as an SVG: the ratio
predicted / measured against the measured time (log-log), whole models as
large rings (one colour per input file, e.g. in-sample and held out), kernels
measured in isolation as small dots coloured by the prediction's source, the
band of +-10% shaded. Standard library only.

usage: scripts/plot-validation.py LABEL=validate.json [LABEL=more.json ...] > plot.svg
"""
import json
import math
import sys

W, H, M = 720, 480, 70            # canvas and margin, px
RATIO = (1 / 8, 8)                # y range, clipped
SOURCES = {"measured": "#1f77b4", "interpolated": "#2ca02c",
           "roofline": "#d62728"}
FILES = ["#000000", "#ff7f0e", "#9467bd", "#8c564b"]


def load(args):
    runs = []
    for arg in args:
        label, _, path = arg.rpartition("=")
        with open(path) as f:
            runs.append((label or path, json.load(f)["models"]))
    return runs


def main():
    runs = load(sys.argv[1:])
    xs = [m["measured_us"] for _, ms in runs for m in ms if "error" not in m]
    xs += [k["isolated_us"] for _, ms in runs for m in ms if "error" not in m
           for k in m["kernels"] if "isolated_us" in k]
    lo = 10 ** math.floor(math.log10(max(min(xs), 1e-3)))
    hi = 10 ** math.ceil(math.log10(max(xs)))

    def x(v):
        v = min(max(v, lo), hi)
        return M + (W - 2 * M) * math.log(v / lo) / math.log(hi / lo)

    def y(r):
        r = min(max(r, RATIO[0]), RATIO[1])
        return H - M - (H - 2 * M) * math.log(r / RATIO[0]) / math.log(
            RATIO[1] / RATIO[0])

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           'font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<rect x="{M}" y="{y(1.1):.1f}" width="{W - 2 * M}" '
           f'height="{y(1 / 1.1) - y(1.1):.1f}" fill="#e4efe4"/>']
    for r in (0.125, 0.25, 0.5, 1, 2, 4, 8):
        out.append(f'<line x1="{M}" x2="{W - M}" y1="{y(r):.1f}" y2="{y(r):.1f}" '
                   f'stroke="{"#888" if r == 1 else "#eee"}"/>')
        out.append(f'<text x="{M - 6}" y="{y(r) + 4:.1f}" text-anchor="end">'
                   f'{r:g}</text>')
    decade = lo
    while decade <= hi * 1.0001:
        out.append(f'<text x="{x(decade):.1f}" y="{H - M + 18}" '
                   f'text-anchor="middle">{decade:g}</text>')
        decade *= 10
    for _, models in runs:
        for m in models:
            for k in m.get("kernels", []):
                if "isolated_us" in k and k["isolated_us"] > 0:
                    ratio = k["predicted_us"] / k["isolated_us"]
                    out.append(f'<circle cx="{x(k["isolated_us"]):.1f}" '
                               f'cy="{y(ratio):.1f}" r="2.5" fill-opacity="0.5" '
                               f'fill="{SOURCES.get(k["source"], "#999")}"/>')
    for i, (label, models) in enumerate(runs):
        for m in models:
            if "error" in m or m["measured_us"] <= 0:
                continue
            ratio = m["predicted_us"] / m["measured_us"]
            out.append(f'<circle cx="{x(m["measured_us"]):.1f}" '
                       f'cy="{y(ratio):.1f}" r="7" fill="none" stroke-width="2" '
                       f'stroke="{FILES[i % len(FILES)]}"><title>{label}: '
                       f'{m["model"]} {100 * (ratio - 1):+.1f}%</title></circle>')
    out.append(f'<text x="{W / 2}" y="{H - 25}" text-anchor="middle">'
               'measured time (us): whole model, or kernel in isolation</text>')
    out.append(f'<text x="20" y="{H / 2}" text-anchor="middle" '
               f'transform="rotate(-90 20 {H / 2})">predicted / measured</text>')
    legend = [(f"model, {label}", FILES[i % len(FILES)], 7)
              for i, (label, _) in enumerate(runs)]
    legend += [(f"kernel, {s}", c, 3) for s, c in SOURCES.items()]
    for i, (label, color, r) in enumerate(legend):
        lx, ly = M + 10 + 190 * (i % 3), 20 + 16 * (i // 3)
        fill = "none" if r > 3 else color
        out.append(f'<circle cx="{lx}" cy="{ly}" r="{min(r, 5)}" fill="{fill}" '
                   f'stroke="{color}" stroke-width="2"/>')
        out.append(f'<text x="{lx + 10}" y="{ly + 4}">{label}</text>')
    out.append(f'<text x="{W - M}" y="{y(1.1) - 4:.1f}" text-anchor="end" '
               'fill="#4a7a4a">within 10%</text>')
    out.append("</svg>")
    print("\n".join(out))


if __name__ == "__main__":
    main()
