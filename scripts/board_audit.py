#!/usr/bin/env python3
"""Every database board, side by side (docs/gpu-parameters.md).

Runs `warpsight predict ... --gpu all --model all --json` on a set of
kernels that cover the bottlenecks (DRAM streaming, FP32 and FP64 multiply-
add, tensor cores, SFU, a gather, global atomics, a transpose, a tiled
matmul), at a small (~10 us) and a large (~ms) size, and checks every
(board, kernel) with arithmetic of its own from the board files
(data/gpus/*.json) and the CUDA Programming Guide's per-CC throughputs
(written out below, not read from the tool):

  * every model runs or says what it misses; no NaN, inf, zero or negative;
  * DRAM-bound kernel: warpsight time / (bytes / data-sheet bandwidth);
  * FP32 / FP64 / tensor multiply-add: time / (flops / peak), the peak from
    SMs x lanes x 2 x clock (tensor: the file's tensor.fp16_f32acc);
  * within one compute capability, time x bandwidth (streaming) and
    time x SMs x clock (FP32) are the same on every board;
  * FP64 slow on boards with few FP64 units, fast where they are many;
  * Hopper and Blackwell data-centre boards no slower than the A100.

Usage: scripts/board_audit.py [--warpsight build-rel/warpsight] [--work DIR]
       [--table OUT.md] [--only NAME,...]
Exit status 1 when an outlier is flagged.  Needs only python3.
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# CUDA C++ Programming Guide, "Throughput of Native Arithmetic Instructions":
# 64-bit FP results per clock per SM, by compute capability (GeForce and
# data-centre parts of one CC share a row; 10.x/12.x from the B200 (1:2) and
# RTX 5090 (1:64) data sheets' FP64:FP32 ratios).
FP64_PER_SM = {
    (1, 0): 0, (1, 1): 0, (1, 2): 0, (1, 3): 1, (2, 0): 16, (2, 1): 4,
    (3, 0): 8, (3, 2): 8, (3, 5): 64, (3, 7): 64, (5, 0): 4, (5, 2): 4, (5, 3): 4,
    (6, 0): 32, (6, 1): 4, (6, 2): 4, (7, 0): 32, (7, 2): 2, (7, 5): 2,
    (8, 0): 32, (8, 6): 2, (8, 7): 2, (8, 9): 2, (9, 0): 64,
    (10, 0): 64, (10, 3): 64, (12, 0): 2, (12, 1): 2,
}


def val(d, *ks):
    for k in ks:
        if not isinstance(d, dict) or k not in d:
            return None
        d = d[k]
    return d["value"] if isinstance(d, dict) and "value" in d else d


def boards():
    out = {}
    for f in sorted(glob.glob(os.path.join(ROOT, "data", "gpus", "*.json"))):
        g = json.load(open(f))
        cc = tuple(int(x) for x in val(g, "compute_capability").split("."))
        clk = val(g, "clock_ghz")
        fp64 = val(g, "models", "warpsight", "fp64_lanes_per_sm")
        out[g["name"]] = {
            "arch": g.get("architecture", ""), "cc": cc, "sms": val(g, "sms"),
            "cores": val(g, "cores_per_sm"), "clock": clk,
            "sclock": val(g, "sustained_clock_ghz") or clk,
            "bw": val(g, "mem_bandwidth_gbs"),
            "fp64": fp64 if fp64 is not None else FP64_PER_SM.get(cc),
            "tensor": val(g, "tensor", "fp16_f32acc"),
        }
    return out


# (name, PTX, kernel, {size: (spec, work)}); work: bytes / flops the checks use
def cases():
    ex = os.path.join(ROOT, "examples", "kernels")
    cor = os.path.join(ROOT, "tests", "corpus", "ptx", "sm_80")
    aud = os.path.join(ROOT, "scripts", "board-audit", "audit_kernels.sm_80.ptx")

    def rnd(name, t, n, seed, lo=0, hi=1):
        return {"buffer": name, "type": t, "count": n, "init": {"random": {"seed": seed, "min": lo, "max": hi}}}

    def zero(name, t, n):
        return {"buffer": name, "type": t, "count": n, "init": "zero"}

    def sc(name, t, v):
        return {"scalar": name, "type": t, "value": v}

    def vecadd(n):
        return ({"kernel": "vecadd", "grid": [n // 256], "block": [256],
                 "args": [rnd("a", "f32", n, 1), rnd("b", "f32", n, 2), zero("c", "f32", n), sc("n", "s32", n)]},
                {"bytes": 12 * n})

    def transpose(n):
        return ({"kernel": "transpose", "grid": [n // 32, n // 8], "block": [32, 8],
                 "args": [rnd("in", "f32", n * n, 1), zero("out", "f32", n * n), sc("n", "s32", n)]},
                {"bytes": 8 * n * n})

    def matmul(n):
        return ({"kernel": "matmul_tiled", "grid": [n // 16, n // 8], "block": [16, 8],
                 "args": [rnd("M", "f32", n * n, 1, -1), rnd("N", "f32", n * n, 2, -1), zero("P", "f32", n * n),
                          sc("wM", "s32", n), sc("wN", "s32", n)]},
                {"flops": 2 * n ** 3})

    def fma(kern, t, blocks, iters):
        return ({"kernel": kern, "grid": [blocks], "block": [256],
                 "args": [zero("out", t, blocks * 256), sc("iters", "s32", iters)]},
                {"flops": blocks * 256 * iters * 16})

    def mma(blocks, iters):
        return ({"kernel": "mma16", "grid": [blocks], "block": [128],
                 "args": [zero("out", "f32", blocks * 128), sc("iters", "s32", iters)]},
                {"flops": blocks * 4 * iters * 4096})

    def sfu(n, iters):
        return ({"kernel": "sfu_mix", "grid": [n // 256], "block": [256],
                 "args": [rnd("in", "f32", n, 18, -3, 3), zero("out", "f32", n), sc("n", "s32", n),
                          sc("iters", "s32", iters)]}, {"sfu": n * iters * 2})

    def histo(n):
        return ({"kernel": "histo_atomic", "grid": [n // 256], "block": [256],
                 "args": [rnd("data", "u32", n, 22, 0, 99999), zero("bins", "u32", 100), sc("n", "s32", n),
                          sc("nbins", "u32", 100)]}, {"atomics": n})

    def spmv(rows):
        nnz = 7 * rows
        return ({"kernel": "spmv_csr", "grid": [rows // 256], "block": [256],
                 "args": [{"buffer": "row_ptr", "type": "s32", "count": rows + 1,
                           "init": {"iota": {"start": 0, "step": 7}}},
                          rnd("col", "s32", nnz, 26, 0, rows - 1), rnd("val", "f32", nnz, 27, -1),
                          rnd("x", "f32", rows, 28, -1), zero("y", "f32", rows), sc("nrows", "s32", rows)]},
                {"bytes": 4 * (rows + 1) + 8 * nnz + 4 * rows})

    def daxpy(n):
        return ({"kernel": "daxpy_dot", "grid": [n // 256], "block": [256],
                 "args": [rnd("x", "f64", n, 30, -1), rnd("y", "f64", n, 31, -1), sc("a", "f64", 2.5),
                          zero("partial", "f64", n // 256), sc("n", "s32", n)]}, {"bytes": 24 * n})

    return [
        ("vecadd", os.path.join(ex, "vecadd.sm_80.ptx"), {"S": vecadd(1 << 18), "L": vecadd(1 << 24)}),
        ("transpose", os.path.join(ex, "transpose.sm_80.ptx"), {"S": transpose(1024), "L": transpose(4096)}),
        ("matmul_tiled", os.path.join(ex, "matmul_tiled.sm_80.ptx"), {"S": matmul(256), "L": matmul(2048)}),
        ("fma32", aud, {"S": fma("fma32", "f32", 256, 64), "L": fma("fma32", "f32", 16384, 256)}),
        ("fma64", aud, {"S": fma("fma64", "f64", 256, 16), "L": fma("fma64", "f64", 16384, 64)}),
        ("mma16", aud, {"S": mma(256, 64), "L": mma(131072, 64)}),
        ("sfu_mix", os.path.join(cor, "sfu_mix.ptx"), {"S": sfu(1 << 16, 32), "L": sfu(1 << 22, 64)}),
        ("histo_atomic", os.path.join(cor, "histo_atomic.ptx"), {"S": histo(1 << 18), "L": histo(1 << 24)}),
        ("spmv_csr", os.path.join(cor, "spmv_csr.ptx"), {"S": spmv(1 << 14), "L": spmv(1 << 21)}),
        ("daxpy_dot", os.path.join(cor, "daxpy_dot.ptx"), {"S": daxpy(1 << 18), "L": daxpy(1 << 23)}),
    ]


# kernels whose blocks all do the same work: fewer sampled blocks suffice
FEW_SAMPLES = {"fma32": 4, "fma64": 4, "mma16": 4, "sfu_mix": 8}


def run_case(ws, work, name, ptx, size, spec, samples):
    samples = min(samples, FEW_SAMPLES.get(name, samples))
    out = os.path.join(work, f"{name}.{size}.json")
    if os.path.exists(out):
        return json.load(open(out))
    sp = os.path.join(work, f"{name}.{size}.launch.json")
    json.dump(spec, open(sp, "w"))
    cmd = [ws, "predict", ptx, "--launch", sp, "--gpu", "all", "--model", "all", "--json",
           "--sample-blocks", str(samples), "-j", "2"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: status {r.returncode}\n{r.stderr[-2000:]}")
    doc = json.loads(r.stdout)
    slim = {}
    for d in doc["gpus"]:
        slim[d["gpu"]] = {"results": [{k: x.get(k) for k in ("model", "status", "time_ms", "missing", "limiter", "case")}
                                      for x in d["results"]],
                          "dram_bytes": (d.get("floors") or {}).get("dram_bytes")}
    json.dump(slim, open(out, "w"))
    return slim


def ws_time(res):
    for x in res["results"]:
        if x["model"] == "warpsight":
            return x.get("time_ms") if x["status"] == "ok" else None
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--warpsight", default=os.path.join(ROOT, "build-rel", "warpsight"))
    ap.add_argument("--work", help="folder for the launch specs and results (kept: a rerun reuses them)")
    ap.add_argument("--table", help="write the side-by-side table (markdown) here")
    ap.add_argument("--only", help="kernels to run, comma-separated")
    ap.add_argument("--sample-blocks", type=int, default=32)
    a = ap.parse_args()
    work = a.work or tempfile.mkdtemp(prefix="board-audit.")
    os.makedirs(work, exist_ok=True)
    B = boards()
    only = set(a.only.split(",")) if a.only else None
    R = {}  # (kernel, size) -> {gpu: slim}
    work_of = {}
    for name, ptx, sizes in cases():
        if only and name not in only:
            continue
        for size, (spec, wk) in sizes.items():
            R[(name, size)] = run_case(a.warpsight, work, name, ptx, size, spec, a.sample_blocks)
            work_of[(name, size)] = wk
    flags = []

    def flag(gpu, kern, msg):
        flags.append(f"{gpu:16s} {kern:16s} {msg}")

    # 1. every model runs or says why; sane numbers
    for (kern, size), per in R.items():
        for gpu, res in per.items():
            for x in res["results"]:
                if x["status"] == "ok":
                    t = x["time_ms"]
                    if not (isinstance(t, (int, float)) and math.isfinite(t) and t > 0):
                        flag(gpu, f"{kern}.{size}", f"{x['model']}: time {t}")
                elif not x.get("missing"):
                    flag(gpu, f"{kern}.{size}", f"{x['model']}: status {x['status']} without a reason")

    ratios = {g: {} for g in B}
    for gpu, b in B.items():
        if gpu not in R.get(("vecadd", "L"), {}):
            continue

        def t(k, s="L"):
            return ws_time(R[(k, s)][gpu]) if (k, s) in R else None

        if ("vecadd", "L") in R:
            x = t("vecadd")
            if x:
                ratios[gpu]["stream"] = r = x / (work_of[("vecadd", "L")]["bytes"] / (b["bw"] * 1e9) * 1e3)
                if not 1.0 <= r <= 2.0:
                    flag(gpu, "vecadd.L", f"time / (bytes / bandwidth) = {r:.2f}, outside [1, 2]")
        peak32 = b["sms"] * b["cores"] * 2 * b["sclock"] * 1e9
        if ("fma32", "L") in R and (x := t("fma32")):
            ratios[gpu]["fp32"] = r = x / (work_of[("fma32", "L")]["flops"] / peak32 * 1e3)
            if not 1.0 <= r <= 2.5:
                flag(gpu, "fma32.L", f"time / (flops / FP32 peak) = {r:.2f}, outside [1, 2.5]")
        if ("fma64", "L") in R and (x := t("fma64")) and b["fp64"]:
            peak64 = b["sms"] * b["fp64"] * 2 * b["sclock"] * 1e9
            ratios[gpu]["fp64"] = r = x / (work_of[("fma64", "L")]["flops"] / peak64 * 1e3)
            if not 1.0 <= r <= 2.5:
                flag(gpu, "fma64.L", f"time / (flops / FP64 peak) = {r:.2f}, outside [1, 2.5]")
        if ("mma16", "L") in R and (x := t("mma16")):
            if b["tensor"]:
                peakt = b["sms"] * b["tensor"] * b["clock"] * 1e9
                ratios[gpu]["tensor"] = r = x / (work_of[("mma16", "L")]["flops"] / peakt * 1e3)
                if not 1.0 <= r <= 2.5:
                    flag(gpu, "mma16.L", f"time / (flops / tensor peak) = {r:.2f}, outside [1, 2.5]")
            elif b["cc"] >= (7, 0) and t("mma16") and ws_time(R[("mma16", "L")]["a100"]):
                flag(gpu, "mma16.L", f"no tensor.fp16_f32acc: its tensor operations add nothing "
                                     f"({x / ws_time(R[('mma16', 'L')]['a100']):.2f}x the A100's time)")
        if ("fma32", "L") in R and ("fma64", "L") in R and t("fma32") and t("fma64"):
            # the kernels do the same steps, fma64 a quarter as many
            r = t("fma64") * 4 / t("fma32")
            ratios[gpu]["fp64/fp32"] = r
            want = b["cores"] / b["fp64"] if b["fp64"] else None
            if want and not (0.5 * want <= r <= 2 * want):
                flag(gpu, "fma64/fma32", f"FP64 / FP32 time per step {r:.1f}, the lanes' ratio is {want:.0f}")
        for k in [k for (k, s) in R if s == "S"]:
            xs, xl = t(k, "S"), t(k, "L")
            if xs and xl and xs > xl:
                flag(gpu, k, f"small launch {xs:.4g} ms slower than the large {xl:.4g} ms")

    # 2. within one compute capability the boards scale with their facts
    by_cc = {}
    for gpu, b in B.items():
        by_cc.setdefault(b["cc"], []).append(gpu)
    for cc, gs in sorted(by_cc.items()):
        for k, norm in (("vecadd", lambda b: b["bw"]), ("fma32", lambda b: b["sms"] * b["sclock"])):
            if (k, "L") not in R:
                continue
            v = {g: ws_time(R[(k, "L")][g]) * norm(B[g]) for g in gs if g in R[(k, "L")] and ws_time(R[(k, "L")][g])}
            if len(v) < 2:
                continue
            med = sorted(v.values())[len(v) // 2]
            for g, x in v.items():
                if not 0.8 <= x / med <= 1.25:
                    flag(g, f"{k}.L", f"time x {'bandwidth' if k == 'vecadd' else 'SMs x clock'} is "
                                      f"{x / med:.2f}x the CC {cc[0]}.{cc[1]} median")

    # 3. Hopper and Blackwell data-centre boards no slower than the A100
    for g in ("h100-pcie", "h100-sxm", "h200", "b200"):
        for (k, s), per in R.items():
            if g in per and "a100" in per and ws_time(per[g]) and ws_time(per["a100"]):
                if ws_time(per[g]) > 1.05 * ws_time(per["a100"]):
                    flag(g, f"{k}.{s}", f"{ws_time(per[g]):.4g} ms, slower than the A100's {ws_time(per['a100']):.4g}")

    # the table
    keys = sorted(R, key=lambda ks: ([c[0] for c in cases()].index(ks[0]), ks[1] != "S"))
    lines = ["| board | CC | " + " | ".join(f"{k} {s}" for k, s in keys) +
             " | stream / floor | FP32 / peak | FP64 / peak | tensor / peak |",
             "|---" * (len(keys) + 6) + "|"]
    for gpu, b in B.items():
        if gpu not in R.get(keys[0], {}):
            continue
        cells = []
        for ks in keys:
            x = ws_time(R[ks][gpu])
            cells.append(f"{x:.4g}" if x else "-")
        rr = ratios[gpu]
        cells += [f"{rr[k]:.2f}" if k in rr else "-" for k in ("stream", "fp32", "fp64", "tensor")]
        lines.append(f"| {gpu} | {b['cc'][0]}.{b['cc'][1]} | " + " | ".join(cells) + " |")
    table = "\n".join(lines) + "\n"
    if a.table:
        open(a.table, "w").write(table)
    else:
        print(table)
    print(f"{len(flags)} outliers (work folder {work}):")
    for f in flags:
        print("  " + f)
    return 1 if flags else 0


if __name__ == "__main__":
    sys.exit(main())
