#!/usr/bin/env bash
# model_pairs.sh — the warpsight model on 30 launches of 27 realistic kernels
# (tests/model-pairs/pairs.cu, pregenerated PTX; the launches in
# tests/model-pairs/launches.py) on three GPUs (gtx680,
# k20, gtx970), profiled and predicted with `warpsight predict --json`:
#   1. no warpsight prediction is below the launch's DRAM floor (DRAM bytes /
#      peak bandwidth) or issue floor (warp instructions / (SMs x peak
#      dispatch x clock)), recomputed here from the profile and the GPU file;
#   2. every model's prediction below a floor carries the `below_floor`
#      mark, and none above both does;
#   3. warpsight orders the known pairs: padded transpose faster than the
#      unpadded tiled one, coalesced copy faster than uncoalesced, one atomic
#      per block faster than one per element on the same address, vector
#      SpMV faster than scalar for long rows (256 nonzeros) and slower for
#      short ones (4), a uniform histogram faster than a skewed one (all to
#      one bin) in shared and in global memory, a dot product's atomic
#      aggregated per warp or per block faster than one per element.
# Uses python3 with its standard library only.
source "$WS_SRC/tests/cli/lib.sh"

need_python3

cat >"$TMP/check.py" <<'PY'
import json, math, os, subprocess, sys

ws, src, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
ptx = os.path.join(src, "tests/model-pairs/pairs.sm_75.ptx")
sys.path.insert(0, os.path.join(src, "tests/model-pairs"))
from launches import launches

PAIRS = [("transpose_padded", "transpose_tiled"), ("copy_coalesced", "copy_uncoalesced"),
         ("atomic_per_block", "atomic_per_element"), ("spmv_vector", "spmv_scalar"),
         ("histogram_uniform", "histogram_skewed"), ("spmv_scalar_short", "spmv_vector_short"),
         ("histogram_global_uniform", "histogram_global_skewed"), ("dot_atomic_warp", "dot_atomic_naive"),
         ("dot_atomic_block", "dot_atomic_naive")]
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
