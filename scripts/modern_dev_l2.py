#!/usr/bin/env python3
"""modern_dev_l2.py SRC DST -- a copy of the modern development set's data.csv
with the measurement condition in an `l2` column (docs/validation.md, "Today's
boards").

SRC is the data set's folder (data.csv, meta.csv, k/, l/); DST is created and
gets data.csv (every column of SRC's, then `l2`) and symbolic links to SRC's
k/ and l/, so the rows' relative paths resolve.  The condition of each row is
read from its line in meta.csv, which says how it was measured: NVBench
flushes the L2 before every launch ("cold"), Kernel Tuner runs each
configuration back to back ("warm").  A row whose note says neither is an
error: nothing is guessed.  SRC is never written.
"""
import csv
import os
import sys


def condition(note):
    n = note.lower()
    if "cold" in n and "flushed" in n:
        return "cold"
    if "back-to-back" in n:
        return "warm"
    return None


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: modern_dev_l2.py SRC DST\n")
        return 2
    src, dst = os.path.abspath(argv[1]), argv[2]
    with open(os.path.join(src, "meta.csv"), newline="") as f:
        meta = {int(r["line"]): r for r in csv.DictReader(f)}
    os.makedirs(dst, exist_ok=True)
    with open(os.path.join(src, "data.csv"), newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    if "l2" in header:
        sys.stderr.write("modern_dev_l2.py: %s/data.csv has an l2 column already\n" % src)
        return 1
    out = [header + ["l2"]]
    for k, r in enumerate(body):
        line = k + 2
        m = meta.get(line)
        c = condition(m["note"]) if m else None
        if c is None:
            sys.stderr.write("modern_dev_l2.py: %s/meta.csv line %d: no measurement condition "
                             "(note %r)\n" % (src, line, m["note"] if m else None))
            return 1
        out.append(r + [c])
    with open(os.path.join(dst, "data.csv"), "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(out)
    for sub in ("k", "l"):
        link = os.path.join(dst, sub)
        if not os.path.lexists(link):
            os.symlink(os.path.join(src, sub), link)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
