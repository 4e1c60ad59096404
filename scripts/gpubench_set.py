#!/usr/bin/env python3
"""gpubench_set.py -- write the public-microbenchmark check set
(data/validation/gpubench/gpubench.csv and its launch specs l/*.json) from
the published bandwidths transcribed in data/validation/gpubench/published.csv.

A row's measured time is the bytes the benchmark counts divided by the GB/s it
printed (docs/validation.md, "Public microbenchmarks"):

  cuda-stream:  streams x n x 8 bytes, n = 128 Mi + 2 doubles per buffer,
                streams = 1 (init: store; read: load), 2 (scale, both
                stencils: one load and one store stream), 3 (triad);
                grid n / block + 1, blocks of `block` threads, 2 blocks per SM.
  gpu-l2-cache: data_set x 1024 bytes per block x 100,000 blocks of 1024
                threads; the whole grid's footprint is the printed data set.
  cuda-stream-gridstride (the README's V100 table): streams x n x 8 bytes,
                n = 10 x 2^24 doubles per buffer (the table does not print
                it; any DRAM-sized n gives the same GB/s), `grid` blocks of
                128 threads looping with the grid's stride; streams = 1
                (init, sum1), 2 (dot, scale), 3 (tdot, triad), 4 (sch_triad).

Usage: scripts/gpubench_set.py [DIR]   (default: data/validation/gpubench)
"""
import csv
import json
import os
import sys

N_STREAM = 128 * 1024 * 1024 + 2
STREAMS = {"stream_init": 1, "stream_read": 1, "stream_scale": 2, "stream_triad": 3,
           "stream_stencil3": 2, "stream_stencil5": 2}
# Buffers each stream kernel takes after its output a (a, b, c ...).
INPUTS = {"stream_init": 0, "stream_read": 1, "stream_scale": 1, "stream_triad": 2,
          "stream_stencil3": 1, "stream_stencil5": 1}
# Registers per thread: `ptxas -v -arch=sm_80` on our PTX (the measured builds'
# counts are not published; the PTX's own declarations, ~200 virtual
# registers for l2_sum, would leave no 1024-thread block on an SM).
REGISTERS = {"stream_init": 8, "stream_read": 8, "stream_scale": 10, "stream_triad": 12,
             "stream_stencil3": 13, "stream_stencil5": 17, "l2_sum": 32,
             "gs_init": 10, "gs_sum1": 12, "gs_dot": 14, "gs_tdot": 18, "gs_scale": 12,
             "gs_triad": 14, "gs_schtriad": 16}
GS_N = 10 * 2 ** 24
GS_STREAMS = {"gs_init": 1, "gs_sum1": 1, "gs_dot": 2, "gs_tdot": 3, "gs_scale": 2,
              "gs_triad": 3, "gs_schtriad": 4}
GS_INPUTS = {"gs_init": 0, "gs_sum1": 1, "gs_dot": 2, "gs_tdot": 3, "gs_scale": 1,
             "gs_triad": 2, "gs_schtriad": 3}
L2_BLOCKS = 100000
L2_BLOCK = 1024
# cuda-stream keeps 2 blocks on an SM (a 9 % shared-memory carve-out against
# 6 KiB of static shared memory; the benchmark prints '!' when the occupancy
# calculator says otherwise, and the published tables have none).  The rows
# give the shared bytes per block that leave 2 blocks on the board's whole
# shared array: shared_per_sm / 2 - the 1 KiB reserved per block
# (`warpsight gpu NAME`, limits).
TWO_BLOCKS_SHARED = {"h100-pcie": 233472 // 2 - 1024, "a100-sxm-80gb": 167936 // 2 - 1024}


def zero(name, count):
    return {"buffer": name, "type": "f64", "count": count, "init": "zero"}


def stream_spec(kernel, block):
    args = [zero("a", N_STREAM)] + [zero("bcd"[i], N_STREAM) for i in range(INPUTS[kernel])]
    args.append({"scalar": "n", "type": "u64", "value": N_STREAM})
    return {"kernel": kernel, "grid": [N_STREAM // block + 1, 1, 1], "block": [block, 1, 1],
            "dynamic_shared_bytes": 0, "args": args, "l2": "cold"}


def gs_spec(kernel, grid, block):
    args = [zero("a", GS_N)] + [zero("bcd"[i], GS_N) for i in range(GS_INPUTS[kernel])]
    args.append({"scalar": "n", "type": "u64", "value": GS_N})
    return {"kernel": kernel, "grid": [grid, 1, 1], "block": [block, 1, 1],
            "dynamic_shared_bytes": 0, "args": args, "l2": "cold"}


def l2_spec(run, iters):
    return {"kernel": "l2_sum", "grid": [L2_BLOCKS, 1, 1], "block": [L2_BLOCK, 1, 1],
            "dynamic_shared_bytes": 0,
            "args": [zero("out", L2_BLOCK), zero("b", run * iters * 2 * L2_BLOCK),
                     {"scalar": "run", "type": "s32", "value": run},
                     {"scalar": "iters", "type": "s32", "value": iters}],
            "l2": "warm"}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "data", "validation",
                                                            "gpubench")
    os.makedirs(os.path.join(out, "l"), exist_ok=True)
    rows = []
    with open(os.path.join(out, "published.csv"), newline="") as f:
        for p in csv.DictReader(f):
            gbs = float(p["gbs"])
            if p["bench"] == "cuda-stream":
                k, block = p["kernel"], int(p["block"])
                spec, name = stream_spec(k, block), "l/%s-%d.json" % (k, block)
                nbytes = STREAMS[k] * N_STREAM * 8
                row = ["k/stream.sm_80.ptx", k, name, p["board"], nbytes / (gbs * 1e9), block,
                       REGISTERS[k], TWO_BLOCKS_SHARED[p["board"]], "cold"]
            elif p["bench"] == "cuda-stream-gridstride":
                k, block, grid = p["kernel"], int(p["block"]), int(p["grid"])
                spec, name = gs_spec(k, grid, block), "l/%s-%dx%d.json" % (k, grid, block)
                nbytes = GS_STREAMS[k] * GS_N * 8
                row = ["k/gridstride.sm_80.ptx", k, name, p["board"], nbytes / (gbs * 1e9), grid,
                       REGISTERS[k], "", "cold"]
            else:
                block_kb, ds_kb = int(p["block_kB"]), int(p["data_set_kB"])
                run, iters = ds_kb // block_kb, block_kb * 1024 // (2 * L2_BLOCK * 8)
                spec, name = l2_spec(run, iters), "l/l2_sum-%dx%d.json" % (run, iters)
                nbytes = block_kb * 1024 * L2_BLOCKS
                row = ["k/l2sum.sm_80.ptx", "l2_sum", name, p["board"], nbytes / (gbs * 1e9),
                       ds_kb, REGISTERS["l2_sum"], "", "warm"]
            with open(os.path.join(out, name), "w") as s:
                json.dump(spec, s)
                s.write("\n")
            row[4] = "%.6e" % row[4]
            rows.append(row)
    with open(os.path.join(out, "gpubench.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["kernel_file", "kernel", "launch", "gpu", "seconds", "size", "registers",
                    "shared_bytes", "l2"])
        w.writerows(rows)
    print("%d rows" % len(rows))


if __name__ == "__main__":
    main()
