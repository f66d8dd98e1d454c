#!/usr/bin/env python3
"""Graph fuzzer, part 3: shrink a failing mutant.

    reduce.py MUTANT.mlir --plugin build/lib/LatencyPlugin.so --pattern TEXT
              [--mlir-opt PATH] [--preload LIBASAN] [-- PLUGIN-ARGS...]

Deletes the results the function returns and then its ops one at a time (an
op's results become new function arguments, unused arguments go), keeping
each step that stock mlir-opt still verifies and after which TEXT still
appears in the plugin run's stderr or stdout (e.g. "fusion_gain.c:179",
"heap-buffer-overflow", "total_us = -"). Repeats until nothing more goes,
then prints the function in custom form. PLUGIN-ARGS default to
--annotate-latency. Works on the mutants run_fuzz.py saves (generic form,
first function with a body).
"""

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("mutant")
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--pattern", required=True)
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--preload", default="")
    argv = sys.argv[1:] if argv is None else argv
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    extra = extra or ["--annotate-latency"]
    env = dict(os.environ)
    if args.preload:
        env.update(LD_PRELOAD=args.preload, ASAN_OPTIONS="detect_leaks=0",
                   UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    with open(args.mutant, encoding="utf-8") as fh:
        text = "\n".join(l for l in fh.read().split("\n") if not l.startswith("//"))
    f = mutate.parse_generic_model(text, args.mutant)

    def holds(g):
        t = mutate.Module(g).render()
        v = subprocess.run([args.mlir_opt, "--allow-unregistered-dialect", "-", "-o",
                            os.devnull], input=t, capture_output=True, text=True)
        if v.returncode:
            return False
        p = subprocess.run([args.mlir_opt, "--allow-unregistered-dialect",
                            "--load-pass-plugin=" + args.plugin] + extra + ["-"],
                           input=t, capture_output=True, encoding="utf-8",
                           errors="replace", env=env)
        return args.pattern in p.stderr or args.pattern in p.stdout

    def without_unused_args(g):
        used = set(u for it in g.items for u in it.uses()) | set(r for r, _ in g.rets)
        return mutate.Func(g.name, [a for a in g.args if a[0] in used], g.items, g.rets)

    if not holds(f):
        sys.exit("the mutant does not show %r" % args.pattern)
    changed = True
    while changed:
        changed = False
        for i in range(len(f.rets) - 1, -1, -1):
            g = mutate.Func(f.name, f.args, f.items, f.rets[:i] + f.rets[i + 1:])
            if holds(g):
                f, changed = g, True
        for p in range(len(f.items) - 1, -1, -1):
            if p >= len(f.items) or not isinstance(f.items[p], mutate.Op):
                continue
            g = mutate.Func(f.name, list(f.args), list(f.items), list(f.rets))
            op = g.items.pop(p)
            mapping = {}
            for r, t in zip(op.results, op.out_types):
                mapping[r] = "%%r%d_%d" % (p, len(g.args))
                g.args.append((mapping[r], t))
            mutate.replace_uses(g, p, mapping)
            g = without_unused_args(g)
            if holds(g):
                f, changed = g, True
    g = without_unused_args(f)
    if holds(g):
        f = g
    out = subprocess.run([args.mlir_opt, "--allow-unregistered-dialect", "-"],
                         input=mutate.Module(f).render(), capture_output=True, text=True)
    sys.stdout.write(out.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
