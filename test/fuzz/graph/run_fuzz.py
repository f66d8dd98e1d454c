#!/usr/bin/env python3
"""Graph fuzzer, part 2: run the plugin on mutants of the bundled models.

    run_fuzz.py MLIR_OPT PLUGIN MODELS_DIR [--count 500] [--seed S ...]
                [--fresh N] [--index I] [--preload LIBASAN] [--work-dir DIR]

Mutants come from mutate.py; only those stock mlir-opt verifies are run. Each
runs `--annotate-latency`, and sometimes a second configuration (fusion=false,
profile=epyc-9654, profile=b200, or --detect-fusion-kernels). Outcomes:

  ok     exit 0, and the output verifies again with stock mlir-opt
  error  non-zero exit with an `error:` diagnostic (the pass failed cleanly)
  FAIL   a signal or crash, a sanitizer report, a non-zero exit without an
         error diagnostic, output that does not verify, or a timeout

Seeds: the fixed list below plus --fresh seeds taken from the clock (or only
the --seed values given); --count mutants are split evenly over them. Mutant I
of seed S depends on (S, I) alone: `--seed S --index I` replays one. Every
FAIL is saved under the work dir with its stderr. Exit status 1 on any FAIL.
"""

import argparse
import collections
import concurrent.futures
import csv
import json
import math
import os
import random
import re
import shlex
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402

FIXED_SEEDS = [1, 2, 3]
BLOCK = 600  # mutants generated, verified and run at a time
SANITIZER_RE = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|"
                          r"runtime error:|ERROR: UndefinedBehaviorSanitizer")
CRASH_RE = re.compile(r"Stack dump:|PLEASE submit a bug report|Segmentation fault|"
                      r"Assertion .* failed|LLVM ERROR:")
ERROR_RE = re.compile(r"(?:^|\n)[^\n]*error: ")
SOURCE_FRAME_RE = re.compile(
    r"#\d+ 0x[0-9a-f]+ (?:in )?(\S+) \S*?((?:passes|plugin|costmodel)/[\w.-]+:\d+)")


def plugin_env(preload):
    env = dict(os.environ)
    env.pop("MLIR_LATENCY_PROFILE", None)
    if preload:
        # As test/lit/lit.cfg.py: the plugin is built with ASan, Debian's
        # mlir-opt is not, so the runtime is loaded first; LLVM's own
        # allocations at exit are not our leaks.
        env["LD_PRELOAD"] = preload
        env["ASAN_OPTIONS"] = "detect_leaks=0"
        env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    return env


SURROGATE_RE = re.compile("[\udc80-\udcff]")


def crash_site(stderr):
    """Where it crashed: the first stack frame in our sources, for grouping."""
    # the stack dump of LLVM's handler, else the sanitizer's report
    part = stderr.split("Stack dump:")[-1].split("=====")[0] or stderr
    frames = SOURCE_FRAME_RE.findall(part) or SOURCE_FRAME_RE.findall(stderr)
    if frames:
        return " < ".join("%s %s" % f for f in frames[:2])
    m = re.search(r"SUMMARY: \w+Sanitizer: (.*)", stderr)
    if m:
        return m.group(1).strip()
    m = re.search(r"#\d+ 0x[0-9a-f]+ (?:in )?(.*LatencyPlugin.*)", stderr)
    return m.group(1).strip() if m else ""


def strict_json(path):
    def no_constant(c):
        raise ValueError("%s is not JSON" % c)
    with open(path, encoding="utf-8") as fh:
        return json.load(fh, parse_constant=no_constant)


def f64_attr(text):
    """An f64 attribute's value: decimal, or hex bits (0x7FF0000000000000)."""
    if text.lower().startswith("0x"):
        return struct.unpack(">d", bytes.fromhex(text[2:].rjust(16, "0")))[0]
    return float(text)


NUMBER_ATTR_RE = re.compile(r"\b(latency\.total_us|us|count) = ([^ ,}]+) : f64")


def bad_numbers(module_text):
    """The first latency.total_us, estimate us or count that is negative,
    NaN or infinite (attributes.md: times and counts are >= 0)."""
    for m in NUMBER_ATTR_RE.finditer(module_text):
        v = f64_attr(m.group(2))
        if not (v >= 0 and not math.isinf(v)):
            return "%s = %s" % (m.group(1), m.group(2))
    return ""


def check_report(report, module_text):
    """The documented invariants of a JSON report (docs/attributes.md): each
    function's total_us is the sum of its kernels (each times its count) and
    of its coverage, equals the function's latency.total_us attribute, and
    latency.kernels is the kernel count; latencies are finite and >= 0."""
    problems = []
    # generic form: a function's attributes close its region, `}) {...} :`
    attrs, name = {}, None
    for line in module_text.splitlines():
        if line.startswith('  "func.func"()'):
            m = re.search(r'sym_name = "([^"]+)"', line)
            name = m.group(1) if m else None
        elif line.startswith("  })") and name:
            t = re.search(r"latency\.total_us = ([^ ,}]+) : f64", line)
            k = re.search(r"latency\.kernels = (\d+) : i64", line)
            attrs[name] = (f64_attr(t.group(1)) if t else None,
                           int(k.group(1)) if k else None)
            name = None
    for fn in report.get("functions", []):
        name, ks = fn.get("name"), fn.get("kernels", [])
        for k in ks:
            for key in ("latency_us", "count"):
                v = k.get(key, 1)
                if not isinstance(v, (int, float)) or not v >= 0:
                    problems.append("@%s kernel %s %s %r" % (name, k.get("id"), key, v))
        total = sum(k.get("latency_us", 0) * k.get("count", 1) for k in ks)
        if not math.isclose(total, fn.get("total_us", -1), rel_tol=1e-9, abs_tol=1e-9):
            problems.append("@%s total_us %r != sum of kernels %r" % (
                name, fn.get("total_us"), total))
        cov = fn.get("coverage", {})
        csum = sum(cov.get(x, 0) for x in ("measured_us", "interpolated_us", "roofline_us"))
        if not math.isclose(csum, total, rel_tol=1e-9, abs_tol=1e-9):
            problems.append("@%s coverage %r != total %r" % (name, csum, total))
        if name in attrs:
            a_total, a_kernels = attrs[name]
            if a_total is None or not math.isclose(a_total, total, rel_tol=1e-9, abs_tol=1e-9):
                problems.append("@%s latency.total_us %r != report %r" % (name, a_total, total))
            if a_kernels != len(ks):
                problems.append("@%s latency.kernels %r != %d kernels" % (name, a_kernels, len(ks)))
    return problems


def check_outputs(base, module_text):
    """Problems with the report / trace files a run wrote under base."""
    problems, seen = [], 0
    d, stem = os.path.split(base)
    for fn in sorted(os.listdir(d)):
        if not fn.startswith(stem + "."):
            continue
        seen += 1
        path = os.path.join(d, fn)
        fn = "report " + fn[len(stem):]     # the same message for every mutant
        if fn.endswith(".json"):
            try:
                data = strict_json(path)
            except (ValueError, UnicodeDecodeError) as e:
                problems.append("%s is not JSON (%s)" % (fn, e))
                data = None
            if data is not None and not fn.endswith(".trace.json"):
                problems += ["report: " + p for p in check_report(data, module_text)]
        elif fn.endswith(".csv"):
            try:
                with open(path, newline="", encoding="utf-8") as fh:
                    rows = list(csv.reader(fh))
                bad = [k for k, r in enumerate(rows) if len(r) != len(rows[0])]
                if bad:
                    problems.append("%s: row %d has %d fields, the header %d" % (
                        fn, bad[0], len(rows[bad[0]]), len(rows[0])))
            except (csv.Error, UnicodeDecodeError) as e:
                problems.append("%s is not CSV (%s)" % (fn, e))
        elif fn.endswith(".md"):
            try:
                with open(path, encoding="utf-8") as fh:
                    lines = fh.read().splitlines()
            except UnicodeDecodeError as e:
                problems.append("%s is not UTF-8 (%s)" % (fn, e))
                lines = []
            cells = None
            for k, line in enumerate(lines):
                if not line.startswith("|"):
                    cells = None
                    continue
                n = len(re.findall(r"(?<!\\)\|", line))
                if cells is None:
                    cells = n
                elif n != cells:
                    problems.append("%s: table row %d has %d cells, the header %d" % (
                        fn, k + 1, n - 1, cells - 1))
                    break
        os.unlink(path)
    if not seen:
        problems.append("no report written")
    return problems


def run_plugin(mlir_opt, plugin, env, mutant, run, timeout, workdir):
    name, extra = run
    base = os.path.join(workdir, "out", "s%d-i%d-%s" % (mutant.seed, mutant.index, name))
    wants = [a for a in extra if "{out}" in a]
    extra = [a.replace("{out}", base) for a in extra]
    # Generic output: upstream custom printers do not all round-trip (a
    # tosa.yield of nothing prints as `tosa.yield  :`), and the output check
    # is about what the plugin wrote.
    cmd = [mlir_opt, "--allow-unregistered-dialect", "--mlir-print-op-generic",
           "--load-pass-plugin=" + plugin] + extra + ["-"]
    t0 = time.time()
    try:
        p = subprocess.run(cmd, input=mutant.text, capture_output=True,
                           encoding="utf-8", errors="surrogateescape", env=env,
                           timeout=timeout)
    except subprocess.TimeoutExpired as e:
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        return dict(mutant=mutant, run=name, cmd=cmd, outcome="FAIL",
                    why="timeout after %ds" % timeout, stderr=err, stdout="",
                    secs=time.time() - t0)
    res = dict(mutant=mutant, run=name, cmd=cmd, stderr=p.stderr, stdout=p.stdout,
               rc=p.returncode, secs=time.time() - t0)
    if SANITIZER_RE.search(p.stderr):
        res.update(outcome="FAIL", why="sanitizer report")
    elif p.returncode < 0:
        res.update(outcome="FAIL", why="signal %d" % -p.returncode)
    elif CRASH_RE.search(p.stderr):
        res.update(outcome="FAIL", why="crash (exit %d)" % p.returncode)
    elif p.returncode != 0:
        if ERROR_RE.search(p.stderr):
            res.update(outcome="error", why="")
        else:
            res.update(outcome="FAIL", why="exit %d without an error diagnostic"
                       % p.returncode)
    else:
        res.update(outcome="ok", why="")
    if res["outcome"] == "ok":
        bad = bad_numbers(p.stdout)
        if bad:
            res.update(outcome="FAIL", why="annotation " + bad)
    bad_utf8 = [n for n, t in (("output", p.stdout), ("diagnostics", p.stderr))
                if SURROGATE_RE.search(t)]
    if res["outcome"] != "FAIL" and bad_utf8:
        res.update(outcome="FAIL", why="invalid UTF-8 in the " + " and ".join(bad_utf8))
    if wants:
        problems = check_outputs(base, p.stdout)
        if res["outcome"] == "ok" and problems:
            res.update(outcome="FAIL", why="; ".join(problems))
    if res["outcome"] == "FAIL":
        res["site"] = printable(crash_site(p.stderr))
        res["why"] = printable(res["why"])
    return res


def printable(text):
    """text with bytes that were not UTF-8 shown as U+FFFD."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def first_error(stderr):
    for line in stderr.splitlines():
        if "error: " in line:
            line = re.sub(r"[^\s']*/out/s\d+-i\d+-[\w-]+", "{out}", line)
            return printable(re.sub(r"^.*?error: ", "", line))
    return ""


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Graph fuzzer for the latency plugin",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("mlir_opt")
    ap.add_argument("plugin")
    ap.add_argument("models")
    ap.add_argument("--count", type=int, default=500,
                    help="mutants in all, split over the seeds (default 500)")
    ap.add_argument("--seed", type=int, action="append",
                    help="run these seeds only (repeatable)")
    ap.add_argument("--fresh", type=int, default=1,
                    help="fresh seeds from the clock besides the fixed ones")
    ap.add_argument("--index", type=int, action="append",
                    help="only these mutant indices of each seed (replay)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--preload", default="",
                    help="LD_PRELOAD for mlir-opt with the plugin (ASan runtime)")
    ap.add_argument("--work-dir", default=os.path.join(os.getcwd(), "graph-fuzz"))
    ap.add_argument("--timeout", type=float, default=60,
                    help="seconds per plugin run before it counts as a FAIL")
    ap.add_argument("--also", action="append", default=[], choices=mutate.RUN_NAMES[1:],
                    metavar="RUN", help="also run every mutant in this configuration "
                    "(repeatable; one of %s)" % ", ".join(mutate.RUN_NAMES[1:]))
    ap.add_argument("--save-all", action="store_true",
                    help="save every kept mutant, not only the failing ones")
    args = ap.parse_args(argv)

    start = time.time()
    os.makedirs(os.path.join(args.work_dir, "out"), exist_ok=True)
    fail_dir = os.path.join(args.work_dir, "failures")
    env = plugin_env(args.preload)
    plain_env = plugin_env("")
    if args.seed:
        seeds = list(args.seed)
    else:
        base = int(time.time() * 1000) % 1000000007
        seeds = FIXED_SEEDS + [base + k for k in range(args.fresh)]
    per_seed = max(1, math.ceil(args.count / len(seeds)))
    for s in seeds:
        if args.index:
            print("replay: --seed %d %s" % (s, " ".join("--index %d" % i for i in args.index)))
        else:
            print("replay: --seed %d --count %d" % (s, per_seed))
    sys.stdout.flush()

    models = mutate.generic_models(args.mlir_opt, args.models, env=plain_env)
    ids = [(s, i) for s in seeds for i in (args.index if args.index else range(per_seed))]
    # Blocks of mutants: generate, verify, run, re-verify, keep only figures
    # and failures (bounded memory for --count 20000).
    rank = {"ok": 0, "error": 1, "FAIL": 2}
    generated, kept_all, records, fails = [], [], [], []
    secs = collections.Counter()
    for b0 in range(0, len(ids), BLOCK):
        t0 = time.time()
        mutants = [mutate.make_mutant(models, s, i) for s, i in ids[b0:b0 + BLOCK]]
        t1 = time.time()
        kept = mutate.verify_mutants(args.mlir_opt, mutants, args.work_dir, jobs=args.jobs)
        t2 = time.time()
        for m in kept:
            for name in args.also:
                if name not in [r[0] for r in m.runs]:
                    m.runs.append(mutate.extra_run(
                        random.Random("%d/%d/%s" % (m.seed, m.index, name)),
                        m.nargs, name))
        jobs = [(m, r) for m in kept for r in m.runs]
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
            results = list(ex.map(lambda mr: run_plugin(
                args.mlir_opt, args.plugin, env, mr[0], mr[1], args.timeout,
                args.work_dir), jobs))
        t3 = time.time()
        # The annotated output must still verify (stock mlir-opt, batched).
        oks = [r for r in results if r["outcome"] == "ok"]
        batches = [oks[i:i + 60] for i in range(0, len(oks), 60)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
            verdicts = ex.map(lambda kb: mutate.check_batch(
                args.mlir_opt, [r["stdout"] for r in kb[1]], args.work_dir,
                "reverify%d" % kb[0], env=plain_env), enumerate(batches))
            for b, vs in zip(batches, verdicts):
                for r, v in zip(b, vs):
                    if v is not None:
                        r.update(outcome="FAIL", why="output does not verify: " + v,
                                 site="")
        t4 = time.time()
        secs.update(generate=t1 - t0, verify=t2 - t1, run=t3 - t2, reverify=t4 - t3,
                    cpu=sum(r["secs"] for r in results))
        for r in results:
            r["stdout"] = None
            records.append((r["mutant"].seed, r["mutant"].index, tuple(r["mutant"].kinds),
                            r["run"], r["outcome"], r["stderr"] if r["outcome"] == "error"
                            else ""))
            if r["outcome"] == "FAIL":
                fails.append(r)
        for m in mutants:
            generated.append(mutate.Mutant(m.seed, m.index, m.model, m.kinds,
                                           m.variants, None, m.runs))
        kept_ids = set(id(m) for m in kept)
        kept_all += [g for g, m in zip(generated[-len(mutants):], mutants)
                     if id(m) in kept_ids]
        if args.save_all:
            for m in kept:
                with open(os.path.join(args.work_dir, "s%d-i%d.mlir" % (m.seed, m.index)),
                          "w", encoding="utf-8") as fh:
                    fh.write(m.text)
        if fails:
            os.makedirs(fail_dir, exist_ok=True)
        for r in results:
            if r["outcome"] == "FAIL":
                m = r["mutant"]
                r["base"] = os.path.join(fail_dir, "s%d-i%d-%s" % (m.seed, m.index, r["run"]))
                with open(r["base"] + ".mlir", "w", encoding="utf-8") as fh:
                    fh.write(m.text)
                with open(r["base"] + ".stderr", "w", encoding="utf-8",
                          errors="surrogateescape") as fh:
                    fh.write(r["stderr"])
        if len(ids) > BLOCK:
            print("  ... %d/%d mutants, %d FAIL so far" % (
                min(b0 + BLOCK, len(ids)), len(ids), len(fails)))
            sys.stdout.flush()

    # Figures
    print("mutants: %d generated, %d kept (verified by stock mlir-opt) "
          "[%.1fs generate, %.1fs verify]" % (len(generated), len(kept_all),
                                               secs["generate"], secs["verify"]))
    print(mutate.kind_table(generated, kept_all))
    worst, kinds_of = {}, {}
    for seed, index, kinds, run, outcome, _ in records:
        key = (seed, index)
        kinds_of[key] = kinds
        if key not in worst or rank[outcome] > rank[worst[key]]:
            worst[key] = outcome
    print("\nplugin runs: %d on %d mutants [%.1fs run, %.1fs re-verify; %.0f ms per run]" % (
        len(records), len(kept_all), secs["run"], secs["reverify"],
        1000.0 * secs["cpu"] / max(1, len(records))))
    by_out = collections.Counter(worst.values())
    print("mutants by outcome: " + ", ".join(
        "%s %d" % (k, by_out[k]) for k in ("ok", "error", "FAIL")))
    run_out = collections.Counter((r[3], r[4]) for r in records)
    print("runs by configuration:")
    for name in mutate.RUN_NAMES:
        n = sum(v for (rn, _), v in run_out.items() if rn == name)
        if n:
            print("  %-18s %5d: ok %d, error %d, FAIL %d" % (
                name, n, run_out[(name, "ok")], run_out[(name, "error")],
                run_out[(name, "FAIL")]))
    print("mutants by kind:")
    print("  %-16s %6s %6s %6s %6s" % ("kind", "run", "ok", "error", "FAIL"))
    for k in mutate.KIND_NAMES:
        ms = [key for key in worst if k in kinds_of[key]]
        if ms:
            c = collections.Counter(worst[key] for key in ms)
            print("  %-16s %6d %6d %6d %6d" % (k, len(ms), c["ok"], c["error"], c["FAIL"]))
    errs, example = collections.Counter(), {}
    for r in records:
        if r[4] == "error":
            e = first_error(r[5])
            errs[e] += 1
            example.setdefault(e, "--seed %d --index %d (%s)" % (r[0], r[1], r[3]))
    if errs:
        print("most frequent error diagnostics (and one mutant showing each):")
        for e, n in errs.most_common(10):
            print("  %5d  %s\n         %s" % (n, e[:150], example[e]))
    if fails:
        print("\nFAIL: %d runs on %d mutants" % (len(fails), by_out["FAIL"]))
        sites = collections.Counter(r.get("site") or r["why"] for r in fails)
        print("by site:")
        for s, n in sites.most_common():
            print("  %5d  %s" % (n, s))
        for r in fails:
            m = r["mutant"]
            print("FAIL %s (%s): %s; %s\n  saved %s.mlir\n  replay: %s --seed %d --index %d"
                  "\n  or: %s%s %s.mlir" % (
                      m.describe(), r["run"], r["why"], r.get("site", ""), r["base"],
                      os.path.basename(__file__), m.seed, m.index,
                      ("LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0 " % args.preload
                       if args.preload else ""),
                      " ".join(shlex.quote(a) for a in r["cmd"][:-1]), r["base"]))
    print("\ngraph fuzz: %d mutants generated, %d kept and run: ok %d, error %d, "
          "FAIL %d; %.1fs" % (len(generated), len(worst), by_out["ok"], by_out["error"],
                              by_out["FAIL"], time.time() - start))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
