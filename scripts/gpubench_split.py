#!/usr/bin/env python3
"""gpubench_split.py -- the public-microbenchmark set's figures by the
protocol's groups (docs/validation.md, "Public microbenchmarks"): rows that
set constants (full-occupancy stream rows of the H100 PCIe, A100 and V100, the
L2 plateau of the H100 PCIe and A100) and rows only checked (every other row),
per board and kernel.

Usage: scripts/gpubench_split.py ROWS.csv [MODEL ...]   (ROWS.csv: validate --report's rows.csv)
"""
import csv
import statistics
import sys

SET_BOARDS = ("h100-pcie", "a100-sxm-80gb")


def group(r):
    if r["gpu"] == "v100-pcie" and r["kernel"].startswith("gs_") and r["input_size"] == "1280":
        return "set-stream"
    if r["gpu"] in SET_BOARDS:
        if r["kernel"].startswith("stream_") and r["block"].startswith("1024x"):
            return "set-stream"
        if r["kernel"] == "l2_sum" and 4096 <= int(r["input_size"]) <= 24576:
            return "set-l2"
    return "checked"


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def spearman(m, p):
    if len(m) < 3:
        return "-"
    a, b = ranks(m), ranks(p)
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    sab = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    saa = sum((x - ma) ** 2 for x in a)
    sbb = sum((y - mb) ** 2 for y in b)
    return "-" if saa == 0 or sbb == 0 else "%.3f" % (sab / (saa * sbb) ** 0.5)


def line(label, rs, model):
    m = [float(r["measured_s"]) for r in rs]
    p = [float(r["predicted_s_" + model]) for r in rs]
    ape = [abs(100 * (y - x) / x) for x, y in zip(m, p)]
    sgn = [100 * (y - x) / x for x, y in zip(m, p)]
    print("  %-36s %4d %8.1f%% %8.1f%% %+8.1f%% %8s" % (
        label, len(rs), statistics.fmean(ape), statistics.median(ape), statistics.fmean(sgn),
        spearman(m, p)))


def main():
    rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["status"] != "failed"]
    models = sys.argv[2:] or ["warpsight"]
    for model in models:
        rs = [r for r in rows if r.get("predicted_s_" + model)]
        print("model %s  (rows, MAPE, median APE, mean signed error, Spearman)" % model)
        for g in ("set-stream", "set-l2", "checked"):
            gr = [r for r in rs if group(r) == g]
            for board in sorted({r["gpu"] for r in gr}):
                br = [r for r in gr if r["gpu"] == board]
                for k in sorted({r["kernel"] for r in br}):
                    line("%s %s %s" % (g, board, k), [r for r in br if r["kernel"] == k], model)
                line("%s %s (all)" % (g, board), br, model)
            if gr:
                line("%s (all)" % g, gr, model)


if __name__ == "__main__":
    main()
