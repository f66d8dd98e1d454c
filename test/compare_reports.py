#!/usr/bin/python3
"""Byte-identity check for refactorings (issue 12): capture everything the tool
prints on the bundled models and generated graphs, then compare two captures.

  compare_reports.py capture OUT_DIR BUILD_DIR   # run and store every output
  compare_reports.py compare BEFORE_DIR AFTER_DIR # list what differs

A capture holds, per model and per option set, the annotated IR (stdout), the
JSON, Markdown and CSV reports, the Chrome trace and stderr (diagnostics), and
detect-fusion-kernels' listing; plus latency-query answers for a fixed batch.
A refactoring that changes behaviour only where it means to shows exactly
those files in `compare`; the exit status is the number of differing files
(capped at 100), 0 when the two captures are identical.
"""
import difflib
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"
OPTION_SETS = {
    "default": "",
    "nofusion": "fusion=false",
    "greedy-bf16": "fusion=greedy precision=bf16",
    "cpu": "profile=epyc-9654",
}
QUERIES = [  # one process per query: what a shell user or an autotuner sees
    "kernel=matmul dtype=bf16 m=4096 n=4096 k=4096",
    "kernel=matmul dtype=bf16 m=3000 n=4096 k=4096",
    "kernel=matmul dtype=bf16 m=3000 n=5000 k=4096",
    "kernel=matmul dtype=bf16 m=3000 n=5000 k=7000",
    "kernel=matmul dtype=f32 m=512 n=512 k=512 precision=bf16",
    "kernel=attention dtype=bf16 batch=1 heads=32 seq=1000 head_dim=128",
    "kernel=add dtype=f16 elements=1000000",
    "kernel=conv2d dtype=f32 flops=1e9 bytes=1e7",
]


def inputs():
    # Relative to ROOT (the commands run there): captures of two checkouts
    # compare equal when the tool prints the same.
    models = sorted(os.path.join("test/models", f)
                    for f in os.listdir(os.path.join(ROOT, "test/models"))
                    if f.endswith(".mlir"))
    return models


def generated():
    # A fixed path: diagnostics print it, and captures must compare equal.
    path = "/tmp/compare_reports_generated_2000.mlir"
    with open(path, "w") as f:
        subprocess.run([sys.executable, os.path.join(HERE, "bench/gen_graph.py"),
                        "2000"], stdout=f, check=True)
    return path


def run(cmd, stdout_path, stderr_path):
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        subprocess.run(cmd, stdout=out, stderr=err, cwd=ROOT)


def capture_model(model, build, out_dir):
    plugin = os.path.join(build, "lib/LatencyPlugin.so")
    base = os.path.basename(model).replace(".mlir", "")
    for name, options in OPTION_SETS.items():
        # one report per run (the option takes one path): JSON and the trace
        # for every option set, Markdown and CSV for the default one
        for ext in ("json", "md", "csv") if name == "default" else ("json",):
            stem = os.path.join(out_dir, f"{base}.{name}")
            out = f"{stem}.{ext}" if ext == "json" else f"{stem}.{ext}-run"
            opts = f"{options} report={stem}.{ext}"
            if ext == "json":
                opts += f" trace={stem}.trace.json"
            pipeline = f"builtin.module(annotate-latency{{{opts.strip()}}})"
            run([MLIR_OPT, f"--load-pass-plugin={plugin}",
                 "--mlir-disable-threading", f"--pass-pipeline={pipeline}",
                 model], out + ".ir", out + ".err")
    stem = os.path.join(out_dir, f"{base}.detect")
    run([MLIR_OPT, f"--load-pass-plugin={plugin}", "--detect-fusion-kernels",
         model], stem + ".ir", stem + ".err")


def capture(out_dir, build):
    os.makedirs(out_dir, exist_ok=True)
    for model in inputs() + [generated()]:
        capture_model(model, build, out_dir)
    query = os.path.join(build, "bin/latency-query")
    for i, q in enumerate(QUERIES):
        stem = os.path.join(out_dir, f"latency-query.{i}")
        run([query] + q.split(), stem + ".out", stem + ".err")
    normalise(out_dir)
    print(f"captured {len(os.listdir(out_dir))} files in {out_dir}")


def normalise(out_dir):
    """Replaces this checkout's path (reports name the default profile by
    it) with <ROOT>, so captures of two checkouts compare equal when the
    tool prints the same."""
    root = ROOT.encode()
    for name in os.listdir(out_dir):
        path = os.path.join(out_dir, name)
        with open(path, "rb") as f:
            data = f.read()
        if root in data:
            with open(path, "wb") as f:
                f.write(data.replace(root, b"<ROOT>"))


def compare(before, after):
    names = sorted(set(os.listdir(before)) | set(os.listdir(after)))
    differing = 0
    for name in names:
        a, b = os.path.join(before, name), os.path.join(after, name)
        if not (os.path.exists(a) and os.path.exists(b)):
            print(f"only in one capture: {name}")
            differing += 1
            continue
        with open(a, "rb") as fa, open(b, "rb") as fb:
            da, db = fa.read(), fb.read()
        if da == db:
            continue
        differing += 1
        print(f"differs: {name}")
        diff = difflib.unified_diff(da.decode(errors="replace").splitlines(),
                                    db.decode(errors="replace").splitlines(),
                                    lineterm="", n=0)
        for line in list(diff)[2:8]:
            print("    " + line[:160])
    print(f"{differing} of {len(names)} files differ")
    return min(differing, 100)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "capture":
        capture(os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        return compare(sys.argv[2], sys.argv[3])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
