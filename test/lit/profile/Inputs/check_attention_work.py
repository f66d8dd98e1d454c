"""check_attention_work.py TABLE_CSV QUERY_JSON SEQ

The host profile's one attention row (at the model's seq) and latency-query's
roofline answer at SEQ from that profile: the efficiency latency-profile fits
must divide the work the cost model prices with, so the answer's compute
time is the row's time scaled by the work, (SEQ / seq)^2. Prints OK, or what
differs."""
import csv
import json
import sys

table, query, seq = sys.argv[1], sys.argv[2], float(sys.argv[3])
rows = list(csv.DictReader(open(table)))
if len(rows) != 1:
    sys.exit("expected one attention row, got %d" % len(rows))
row = rows[0]
answer = json.load(open(query))
if answer["source"] != "roofline" or answer["bound"] != "compute":
    sys.exit("expected a compute-bound roofline answer: %s" % answer["reason"])
expected = float(row["latency_us"]) * (seq / float(row["seq"])) ** 2
ratio = answer["compute_us"] / expected
print("OK" if abs(ratio - 1) < 0.05 else "compute_us %.4g, expected %.4g (x%.3g)"
      % (answer["compute_us"], expected, ratio))
