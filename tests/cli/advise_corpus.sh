#!/usr/bin/env bash
# advise_corpus.sh — the advisor on the realistic-kernel corpus
# (tests/model-pairs: 30 launches of pairs.cu, pregenerated -lineinfo PTX)
# on the A100, from `warpsight predict --advise --json` (docs/advisor.md):
#   1. the first suggestion addresses the named bottleneck: a change that
#      lowers the warpsight model's limiting term, or the bottleneck itself
#      (no change lowers it, or the best one does not) with an action that
#      does not repeat the limiter's words;
#   2. the saving of every launch's first change equals a recomputation
#      here: this script applies the change to the profile's JSON itself
#      (the field rules of docs/advisor.md, written again in Python) and
#      runs `warpsight model` on it; the saving is the difference of the two
#      predictions;
#   3. no line contradicts another: each change at most once, every listed
#      saving at least 1 % of the run time, ranked largest first, distinct
#      actions; a view contradicts the primary at most once;
#   4. the changes name a line of pairs.cu (not a CUDA header the compiler
#      inlined atomicAdd or __shfl_down_sync from), and the atomics kernels'
#      first change is one of the atomics changes;
#   5. the disagreement flag fires on fewer than half the launches.
# Uses python3 with its standard library only.
source "$WS_SRC/tests/cli/lib.sh"

need_python3

cat >"$TMP/check.py" <<'PY'
import copy, json, math, os, re, subprocess, sys

ws, src, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
ptx = os.path.join(src, "tests/model-pairs/pairs.sm_75.ptx")
sys.path.insert(0, os.path.join(src, "tests/model-pairs"))
from launches import launches

GPU = "a100"
UNIT = 32       # the A100's transaction unit (32-byte sectors)
MLP = 4.0       # WS_ADVICE_MLP_FACTOR
AGG = 10.0      # WS_ADVICE_WARP_AGG_INSTS
fails = []

def run(args):
    r = subprocess.run([ws] + args, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s: %d %s" % (" ".join(args), r.returncode, r.stderr[-400:]))
    return r.stdout

def has(sec, key, p):
    return key in p.get(sec, {})

def g(p, sec, key, default=0.0):
    return p.get(sec, {}).get(key, default)

def apply(change, prof):
    """The change's field rules (docs/advisor.md), on a profile's JSON."""
    p = copy.deepcopy(prof)
    pw, mem, dep = p.setdefault("per_warp", {}), p.setdefault("memory", {}), p.get("dependencies", {})
    if change == "perfect coalescing":
        pw["coal_mem_insts"] = pw.get("coal_mem_insts", 0) + pw.get("uncoal_mem_insts", 0)
        pw["uncoal_mem_insts"] = 0
        need = max(1.0, math.ceil(mem["load_bytes_per_warp"] / UNIT))
        if mem["avg_trans_warp"] > need:
            if "l2_sectors_per_warp" in mem:
                mem["l2_sectors_per_warp"] *= need / mem["avg_trans_warp"]
            mem["avg_trans_warp"] = need
    elif change == "no bank conflicts":
        pw["bank_conflict_replays"] = 0
    elif change == "no divergence":
        pw["comp_insts"] = max(0.0, pw["comp_insts"] - pw["divergent_extra_insts"])
        pw["divergent_extra_insts"] = 0
        p.setdefault("divergence", {})["divergent_branch_fraction"] = 0
    elif change == "no barriers":
        pw["synch_insts"] = 0
    elif change == "maximum ILP":
        insts = pw["comp_insts"] + pw["coal_mem_insts"] + pw["uncoal_mem_insts"]
        slots = insts + pw.get("bank_conflict_replays", 0) + max(
            0.0, pw.get("shared_atomic_serial", 0) - pw.get("shared_atomic_insts", 0))
        par = p.setdefault("parallelism", {})
        par["ilp"] = max(par.get("ilp", 0), insts)
        dep["path_cycles"] = min(dep["path_cycles"], slots)
        dep["path_mem_loads"] = min(dep["path_mem_loads"], 1)
    elif change == "more loads in flight":
        rows = p["lines"]["rows"]
        before = sum(r["path_mem_loads"] for r in rows)
        def unroll(r):  # docs/advisor.md, "Unrolling": nothing left for an unrolled loop
            k, t = r.get("loop_loads_per_trip", 0), r.get("loop_trips_per_entry", 0)
            if not r["path_mem_loads"] > 1 or k >= MLP:
                return 0
            u = math.ceil(MLP / (k if k >= 1 else 1))
            return 0 if 0 < t < u else u
        after = sum(max(1.0, r["path_mem_loads"] / MLP) if unroll(r) else r["path_mem_loads"]
                    for r in rows)
        dep["path_mem_loads"] *= after / before
        if "mlp" in p.get("parallelism", {}):
            p["parallelism"]["mlp"] *= MLP
    elif change == "maximum occupancy":
        t = 1
        for x in p["launch"]["block"]:
            t *= x
        out = run(["occupancy", "--gpu", GPU, "--threads", str(t), "--regs", "0", "--shared", "0"])
        most = int(re.search(r"active blocks per SM: (\d+)", out).group(1))
        blocks = p["launch"]["grid"][0] * p["launch"]["grid"][1] * p["launch"]["grid"][2]
        sms = 108  # the A100's SMs: min(SMs, blocks) active
        p.setdefault("occupancy", {})["active_blocks_per_sm"] = min(most, math.ceil(blocks / min(sms, blocks)))
    elif change in ("distinct atomic addresses", "warp-aggregated atomics"):
        for k in ("global", "shared"):
            n, s = pw.get(k + "_atomic_insts", 0), pw.get(k + "_atomic_serial", 0)
            if s > n:
                if change == "warp-aggregated atomics":
                    pw["comp_insts"] += AGG * n
                if k == "global" and "global_atomic_max_address_ops" in mem and s > 0:
                    mem["global_atomic_max_address_ops"] = max(1.0, mem["global_atomic_max_address_ops"] * n / s)
                pw[k + "_atomic_serial"] = n
    elif change == "atomics privatised per block":
        gi, gs = pw["global_atomic_insts"], pw["global_atomic_serial"]
        t = 1
        for x in p["launch"]["block"]:
            t *= x
        merge = min(gi, math.ceil(mem["atomic_addresses_per_block"] / 32) / math.ceil(t / 32))
        pw["shared_atomic_insts"] = pw.get("shared_atomic_insts", 0) + gi
        pw["shared_atomic_serial"] = pw.get("shared_atomic_serial", 0) + gs
        if "global_atomic_max_address_ops" in mem and gs > 0 and merge < gs:
            mem["global_atomic_max_address_ops"] = max(1.0, mem["global_atomic_max_address_ops"] * merge / gs)
        pw["global_atomic_insts"] = pw["global_atomic_serial"] = merge
        pw["synch_insts"] = pw.get("synch_insts", 0) + 2
    else:
        raise ValueError("no rule for " + change)
    return p

def warpsight_ms(prof, name):
    path = os.path.join(tmp, name)
    json.dump(prof, open(path, "w"))
    doc = json.loads(run(["model", "--profile", path, "--gpu", GPU, "--model", "warpsight", "--json"]))
    return doc["results"][0]["time_ms"]

ATOMICS = {"distinct atomic addresses", "warp-aggregated atomics", "atomics privatised per block"}
flagged = 0
for name, spec in launches.items():
    lp = os.path.join(tmp, name + ".json")
    json.dump(spec, open(lp, "w"))
    try:
        doc = json.loads(run(["predict", ptx, "--launch", lp, "--gpu", GPU, "--advise", "--json", "-j", "2"]))
    except RuntimeError as e:
        fails.append("%s: %s" % (name, e))
        continue
    ws_res = [r for r in doc["results"] if r["model"] == "warpsight"][0]
    adv = doc["advice"]
    ch = adv["changes"]
    if not ch:
        fails.append("%s: no suggestion at all" % name)
        continue
    first = ch[0]
    # 1. the first suggestion addresses the bottleneck
    if first["kind"] == "change":
        if not first["addresses_bottleneck"]:
            fails.append("%s: first change %s does not lower the limiting term" % (name, first["topic"]))
    else:
        if first["topic"] != ws_res["limiter"] or adv["bottleneck"] not in first["finding"]:
            fails.append("%s: the bound item is not the bottleneck: %s" % (name, first))
        if ws_res["limiter"] in first["action"]:
            fails.append("%s: try repeats the limiter: %s" % (name, first["action"]))
        if len(ch) > 1 and ch[1]["addresses_bottleneck"]:
            fails.append("%s: a bound first although the best change lowers the term" % name)
    # 2. the first change's saving, recomputed
    changes = [c for c in ch if c["kind"] == "change"]
    if changes:
        c = changes[0]
        base = ws_res["time_ms"]
        got = base - warpsight_ms(apply(c["topic"], doc["profile"]), name + ".cf.json")
        if abs(got - c["saving_ms"]) > 1e-9 * base + 1e-12:
            fails.append("%s: %s saves %.9g ms, recomputed %.9g ms" % (name, c["topic"], c["saving_ms"], got))
        if abs(c["share"] - c["saving_ms"] / base) > 1e-12:
            fails.append("%s: share %g is not saving / time" % (name, c["share"]))
    # 3. no line contradicts another
    topics = [c["topic"] for c in changes]
    if len(set(topics)) != len(topics):
        fails.append("%s: a change twice: %s" % (name, topics))
    if len(set(c["action"] for c in ch)) != len(ch):
        fails.append("%s: two items say the same" % name)
    for a, b in zip(changes, changes[1:]):
        if b["saving_ms"] > a["saving_ms"]:
            fails.append("%s: %s listed after %s but saves more" % (name, b["topic"], a["topic"]))
    for c in changes:
        if not c["share"] >= 0.01:
            fails.append("%s: %s listed with %.3g %%" % (name, c["topic"], 100 * c["share"]))
        if c["line"] is not None and not c["line"].startswith("pairs.cu:"):
            fails.append("%s: %s names %s, not a line of pairs.cu" % (name, c["topic"], c["line"]))
        flagged += c["flag"] is not None
    for v in adv["views"]:
        if not (v["contradiction"] is None or v["contradiction"].count("contradicts") == 1):
            fails.append("%s: view %s contradicts more than once" % (name, v["topic"]))
    # 4. the atomics kernels start with an atomics change, unless no change
    # lowers the chain (one update per block on one counter: the updates of
    # the blocks are the chain; then the first item is the bound, rule 1)
    if ws_res["limiter"] == "same-address atomics" and first["kind"] == "change" and \
            first["topic"] not in ATOMICS:
        fails.append("%s: atomic-bound, but the first change is %s" % (name, first["topic"]))
    print("%-26s %-62s | %s%s" % (name, adv["bottleneck"][:62], first["topic"],
                                   " (%.0f %%)" % (100 * first["share"]) if first["kind"] == "change" else ""))
# 5. the flag carries information: it does not fire everywhere
print("flagged changes: %d over %d launches" % (flagged, len(launches)))
if not flagged < len(launches) / 2:
    fails.append("the flag fired %d times on %d launches" % (flagged, len(launches)))
for f in fails:
    print("FAIL: " + f, file=sys.stderr)
sys.exit(1 if fails else 0)
PY

run python3 "$TMP/check.py" "$WS" "$WS_SRC" "$TMP"
echo "$OUT"
expect_rc 0 "advice on the corpus"
finish
