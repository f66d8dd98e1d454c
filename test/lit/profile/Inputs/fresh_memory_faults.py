"""Runs one latency-profile child (`--run`) on KERNEL with and without
`--fresh-memory` and prints whether the fresh one faulted in about PAGES new
pages on every call while the warm one did not: the mechanism
docs/profiling.md ("Memory as in a whole run") describes, checked by the
kernel's page-fault counts, not by its time."""
import resource
import subprocess
import sys


def run(binary, kernel, fresh):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
    # One call a repetition (any call outlasts 1 ns) and no time to spend
    # (three repetitions, the least the child takes): both children make the
    # same calls however loaded the machine is.
    argv = [binary, "--run", kernel, "--rep-seconds", "1e-9",
            "--max-seconds", "0", "--min-reps", "3"]
    if fresh:
        argv.append("--fresh-memory")
    out = subprocess.run(argv, capture_output=True, text=True).stdout.strip()
    faults = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt - before
    fields = dict(f.split("=", 1) for f in out.split()[1:] if "=" in f)
    if not out.startswith("ok "):
        sys.exit("child failed: " + out)
    return faults, int(fields["calls"]) * int(fields["reps"])


binary, kernel, pages = sys.argv[1], sys.argv[2], int(sys.argv[3])
warm_faults, warm_calls = run(binary, kernel, False)
fresh_faults, fresh_calls = run(binary, kernel, True)
extra = (fresh_faults - warm_faults) / fresh_calls
print("timed calls: warm %d, fresh %d; faults: warm %d, fresh %d"
      % (warm_calls, fresh_calls, warm_faults, fresh_faults))
# Both children fault in the JIT's pages and the first call's buffer alike;
# beyond those, the fresh one maps the buffer anew on every call. Had the
# warm one done so too, the two would differ by nothing: they make the same
# calls.
if warm_calls != fresh_calls:
    sys.exit("the children timed different numbers of calls")
print("fresh pages on every call, warm ones reused: %s"
      % ("yes" if extra >= pages / 2 else "no (%.1f per call)" % extra))
