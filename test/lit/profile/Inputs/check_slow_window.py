"""Checks what latency-profile made of a slow spell (slow-window.test):
children 10-19 reported 3x their time, i.e. shapes 9-16 (m = 72..128)
and the canary reading before shape 17. Each of those shapes must have
been drawn again, come out apart, and kept a time well under its slow
first draw (draws = 3 in its row); the shapes after the slow reading are
drawn again too (draws 2 or 3), the ones before it not at all (draws 1).

usage: check_slow_window.py STDOUT.txt matmul.csv"""
import csv
import re
import sys

text = open(sys.argv[1]).read()
apart = {}
for m in re.finditer(r"\[\s*(\d+)\] matmul .*? ([0-9.]+) and ([0-9.]+) us "
                     r"apart, third ([0-9.]+): ([0-9.]+) kept", text):
    apart[int(m.group(1))] = (float(m.group(2)), float(m.group(5)))
draws = {int(r["m"]) // 8: int(r["draws"]) for r in csv.DictReader(open(sys.argv[2]))}
slow = range(9, 17)
problems = []
for i in slow:
    if i not in apart:
        problems.append(f"shape {i} was not drawn apart")
    elif not apart[i][1] < 0.75 * apart[i][0]:
        problems.append(f"shape {i} kept {apart[i][1]} of a slow {apart[i][0]}")
    if draws.get(i) != 3:
        problems.append(f"shape {i} has draws {draws.get(i)}, not 3")
for i in range(1, 9):
    if draws.get(i) != 1:
        problems.append(f"shape {i} (before the spell) has draws {draws.get(i)}")
for i in range(17, 21):
    if draws.get(i) not in (2, 3):
        problems.append(f"shape {i} (after the slow reading) has draws {draws.get(i)}")
print("\n".join(problems) if problems else
      "shapes 9-16 drawn again and priced off their slow draw; 17-20 drawn again; 1-8 once")
