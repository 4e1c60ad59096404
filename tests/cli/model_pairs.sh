#!/usr/bin/env bash
# model_pairs.sh — the warpsight model on 22 realistic kernels
# (tests/model-pairs/pairs.cu, pregenerated PTX) on three GPUs (gtx680,
# k20, gtx970), profiled and predicted with `warpsight predict --json`:
#   1. no warpsight prediction is below the launch's DRAM floor (DRAM bytes /
#      peak bandwidth) or issue floor (warp instructions / (SMs x peak
#      dispatch x clock)), recomputed here from the profile and the GPU file;
#   2. every model's prediction below a floor carries the `below_floor`
#      mark, and none above both does;
#   3. warpsight orders the known pairs: padded transpose faster than the
#      unpadded tiled one, coalesced copy faster than uncoalesced, one atomic
#      per block faster than one per element on the same address, vector
#      SpMV faster than scalar for long rows (256 nonzeros), a uniform
#      histogram faster than a skewed one (all to one bin).
# Uses python3 with its standard library only.
source "$WS_SRC/tests/cli/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
  echo "skipped: python3 not found"
  exit 77
fi

cat >"$TMP/check.py" <<'PY'
import json, math, os, subprocess, sys

ws, src, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
ptx = os.path.join(src, "tests/model-pairs/pairs.sm_75.ptx")
N = 1 << 18

def buf(name, typ, count, init):
    return {"buffer": name, "type": typ, "count": count, "init": init}
def rnd(seed, lo, hi):
    return {"random": {"seed": seed, "min": lo, "max": hi}}
def sc(name, typ, v):
    return {"scalar": name, "type": typ, "value": v}
def f32(name, count=N, seed=1):
    return buf(name, "f32", count, rnd(seed, 0, 1))
def out(name, count=N, typ="f32"):
    return buf(name, typ, count, "zero")
def lin(kernel, args, n=N, threads=256):
    return {"kernel": kernel, "grid": [(n + threads - 1) // threads, 1, 1],
            "block": [threads, 1, 1], "args": args}

ROWS, RLEN, T = 1024, 256, 512
spmv_args = [buf("rowptr", "s32", ROWS + 1, {"iota": {"start": 0, "step": RLEN}}),
             buf("col", "s32", ROWS * RLEN, rnd(3, 0, ROWS - 1)),
             f32("val", ROWS * RLEN, 4), f32("x", ROWS, 5), out("y", ROWS), sc("rows", "s32", ROWS)]
tr = lambda k: {"kernel": k, "grid": [T // 32, T // 32, 1], "block": [32, 8, 1],
                "args": [f32("in", T * T), out("out", T * T), sc("n", "s32", T)]}
MM = 128
mm = lambda k: {"kernel": k, "grid": [MM // 16, MM // 16, 1], "block": [16, 16, 1],
                "args": [f32("a", MM * MM), f32("b", MM * MM, 2), out("c", MM * MM), sc("n", "s32", MM)]}
hist = lambda init: {"kernel": "histogram", "grid": [64, 1, 1], "block": [256, 1, 1],
                     "args": [buf("in", "u32", N, init), out("bins", 256, "u32"), sc("n", "s32", N)]}
launches = {
    "copy_coalesced": lin("copy_coalesced", [f32("in"), out("out"), sc("n", "s32", N)]),
    "copy_uncoalesced": lin("copy_uncoalesced", [f32("in"), out("out"), sc("n", "s32", N)]),
    "vector_add": lin("vector_add", [f32("a"), f32("b", seed=2), out("c"), sc("n", "s32", N)]),
    "saxpy": lin("saxpy", [sc("a", "f32", 2.5), f32("x"), f32("y", seed=2), sc("n", "s32", N)]),
    "gather": lin("gather", [f32("in"), buf("idx", "s32", N, rnd(7, 0, N - 1)), out("out"), sc("n", "s32", N)]),
    "stencil_1d": lin("stencil_1d", [f32("in"), out("out"), sc("n", "s32", N)]),
    "stencil_2d": {"kernel": "stencil_2d", "grid": [16, 64, 1], "block": [32, 8, 1],
                   "args": [f32("in", T * T), out("out", T * T), sc("w", "s32", T), sc("h", "s32", T)]},
    "spmv_scalar": lin("spmv_scalar", spmv_args, ROWS),
    "spmv_vector": lin("spmv_vector", spmv_args, ROWS * 32),
    "transpose_naive": tr("transpose_naive"),
    "transpose_tiled": tr("transpose_tiled"),
    "transpose_padded": tr("transpose_padded"),
    "histogram_uniform": hist(rnd(8, 0, 255)),
    "histogram_skewed": hist({"constant": 7}),
    "reduce_tree": lin("reduce_tree", [f32("in"), out("out", N // 256), sc("n", "s32", N)]),
    "reduce_shuffle": lin("reduce_shuffle", [f32("in"), out("out", N // 256), sc("n", "s32", N)]),
    "atomic_per_block": lin("atomic_per_block", [f32("in"), out("sum", 1), sc("n", "s32", N)]),
    "atomic_per_element": lin("atomic_per_element", [f32("in"), out("sum", 1), sc("n", "s32", N)]),
    "matmul_naive": mm("matmul_naive"),
    "matmul_tiled": mm("matmul_tiled"),
    "sfu_heavy": lin("sfu_heavy", [f32("in"), out("out"), sc("n", "s32", N)]),
    "fp64_poly": lin("fp64_poly", [buf("in", "f64", N // 4, rnd(9, 0, 1)), out("out", N // 4, "f64"),
                                   sc("n", "s32", N // 4)], N // 4),
    "divergent": lin("divergent", [f32("in"), out("out"), sc("n", "s32", N)]),
}
PAIRS = [("transpose_padded", "transpose_tiled"), ("copy_coalesced", "copy_uncoalesced"),
         ("atomic_per_block", "atomic_per_element"), ("spmv_vector", "spmv_scalar"),
         ("histogram_uniform", "histogram_skewed")]
# issue peaks by compute capability (docs/models/floors.md)
def peak_issue(cc):
    major, minor = (int(x) for x in cc.split("."))
    if major <= 1: return 0.5
    if major == 2: return 4 if minor >= 1 else 2
    return 8 if major <= 6 else 4
def val(x):
    return x["value"] if isinstance(x, dict) else x

fails = []
for gpu in ("gtx680", "k20", "gtx970"):
    g = json.load(open(os.path.join(src, "data/gpus/%s.json" % gpu)))
    bw, sms, clk = val(g["mem_bandwidth_gbs"]), val(g["sms"]), val(g["clock_ghz"])
    issue = peak_issue(val(g["compute_capability"]))
    times = {}
    for name, spec in launches.items():
        path = os.path.join(tmp, name + ".json")
        json.dump(spec, open(path, "w"))
        r = subprocess.run([ws, "predict", ptx, "--launch", path, "--gpu", gpu, "--json",
                            "-j", "2"], capture_output=True, text=True)
        if r.returncode != 0:
            fails.append("%s on %s: predict failed (%d): %s" % (name, gpu, r.returncode, r.stderr[-400:]))
            continue
        doc = json.loads(r.stdout)
        p = doc["profile"]
        mem = p.get("memory", {})
        dram = mem.get("dram_read_bytes", 0) + mem.get("dram_write_bytes", 0)
        pw = p["per_warp"]
        warps = 1
        for d in range(3):
            warps *= p["launch"]["grid"][d]
        threads = p["launch"]["block"][0] * p["launch"]["block"][1] * p["launch"]["block"][2]
        warps *= (threads + 31) // 32
        insts = (pw["comp_insts"] + pw["coal_mem_insts"] + pw["uncoal_mem_insts"]) * warps
        dram_ms = dram / (bw * 1e9) * 1e3
        issue_ms = insts / (sms * issue * clk * 1e9) * 1e3
        floor = max(dram_ms, issue_ms)
        for res in doc["results"]:
            if res.get("status") != "ok":
                continue
            t = res["time_ms"]
            below = t < floor * (1 - 1e-6)
            marked = res.get("below_floor") is not None
            if res["model"] == "warpsight":
                times[name] = t
                if below:
                    fails.append("%s on %s: warpsight %.4g ms below the floor %.4g ms (DRAM %.4g, issue %.4g)"
                                 % (name, gpu, t, floor, dram_ms, issue_ms))
            if below and not marked and t < floor * (1 - 1e-3):
                fails.append("%s on %s: %s %.4g ms is below the floor %.4g ms but not marked"
                             % (name, gpu, res["model"], t, floor))
            if marked and not t < floor * (1 + 1e-3):
                fails.append("%s on %s: %s %.4g ms is marked below a floor but is above %.4g ms"
                             % (name, gpu, res["model"], t, floor))
    for fast, slow in PAIRS:
        if fast in times and slow in times:
            print("%-7s %-18s %10.4g ms < %-18s %10.4g ms" % (gpu, fast, times[fast], slow, times[slow]))
            if not times[fast] < times[slow]:
                fails.append("%s: warpsight orders %s (%.4g ms) not faster than %s (%.4g ms)"
                             % (gpu, fast, times[fast], slow, times[slow]))
for f in fails:
    print("FAIL: " + f, file=sys.stderr)
sys.exit(1 if fails else 0)
PY

run python3 "$TMP/check.py" "$WS" "$WS_SRC" "$TMP"
echo "$OUT"
expect_rc 0 "model pairs"
finish
