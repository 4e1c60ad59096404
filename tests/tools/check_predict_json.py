#!/usr/bin/env python3
"""check_predict_json.py — validate `warpsight predict --json` output against
the warpsight-predict/1 schema of docs/cli-profile-predict.md (stdlib only).

usage: check_predict_json.py PROFILE_FIELDS_DEF FILE.json...
Exit 0 when every file is valid, 1 with one line per problem otherwise.
"""
import json
import math
import re
import sys

FIELD_SECTIONS = {}


def load_fields(path):
    pat = re.compile(r'^PF\((\w+),\s*(\w+),\s*(WS_PF_\w+),')
    with open(path) as f:
        for line in f:
            m = pat.match(line)
            if m:
                FIELD_SECTIONS.setdefault(m.group(1), {})[m.group(2)] = m.group(3)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def check_field(v, check):
    if not is_num(v):
        return "not a finite number"
    if check == "WS_PF_COUNT" and v < 0:
        return "negative"
    if check == "WS_PF_POSITIVE" and v <= 0:
        return "not positive"
    if check == "WS_PF_RATIO" and not 0 <= v <= 1:
        return "outside [0, 1]"
    return None


def check(doc, name):
    errs = []

    def err(msg):
        errs.append(f"{name}: {msg}")

    if not isinstance(doc, dict):
        return [f"{name}: top level is not an object"]
    if doc.get("schema") != "warpsight-predict/1":
        err("schema is not warpsight-predict/1")
    for k in ("gpu", "kernel"):
        if not isinstance(doc.get(k), str) or not doc.get(k):
            err(f"{k}: expected a non-empty string")
    p = doc.get("profile")
    if not isinstance(p, dict):
        err("profile: expected an object")
    else:
        if p.get("schema") != "warpsight-profile/1":
            err("profile.schema is not warpsight-profile/1")
        if p.get("kernel") != doc.get("kernel"):
            err("profile.kernel differs from kernel")
        launch = p.get("launch", {})
        for k in ("grid", "block"):
            v = launch.get(k)
            if not (isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) and x > 0 for x in v)):
                err(f"profile.launch.{k}: expected three positive integers")
        for sec, fields in FIELD_SECTIONS.items():
            s = p.get(sec)
            if s is None:
                continue
            if not isinstance(s, dict):
                err(f"profile.{sec}: expected an object")
                continue
            for k, v in s.items():
                if k not in fields:
                    err(f"profile.{sec}.{k}: unknown field")
                    continue
                e = check_field(v, fields[k])
                if e:
                    err(f"profile.{sec}.{k}: {e}")
        # The profiler always measures these.
        for path in ("per_warp.comp_insts", "per_warp.coal_mem_insts", "per_warp.uncoal_mem_insts",
                     "per_warp.synch_insts", "memory.miss_ratio", "divergence.divergent_branch_fraction"):
            sec, key = path.split(".")
            if key not in p.get(sec, {}):
                err(f"profile.{path}: missing")
        for sec in ("instruction_mix", "sampling", "caches", "profiler", "warp_mix"):
            if not isinstance(p.get(sec), dict):
                err(f"profile.{sec}: expected an object")
        # The profiler writes no model's section (docs/profile.md).
        for sec in ("kothapalli", "luo_suda"):
            if sec in p:
                err(f"profile.{sec}: a model's section written by the profiler")
        wm = p.get("warp_mix", {})
        if not isinstance(wm.get("heaviest_warps"), list) or not wm.get("heaviest_warps"):
            err("profile.warp_mix.heaviest_warps: expected a non-empty array")
    if not isinstance(doc.get("floors"), dict):
        err("floors: expected an object (docs/models/floors.md)")
    res = doc.get("results")
    if not isinstance(res, list) or not res:
        err("results: expected a non-empty array")
        res = []
    for i, r in enumerate(res):
        where = f"results[{i}]"
        if not isinstance(r, dict):
            err(f"{where}: expected an object")
            continue
        if not isinstance(r.get("model"), str):
            err(f"{where}.model: expected a string")
        st = r.get("status")
        if st == "ok":
            for k in ("cycles", "time_ms"):
                if not is_num(r.get(k)) or r.get(k) < 0:
                    err(f"{where}.{k}: expected a non-negative number")
            for k in ("case", "limiter"):
                if not isinstance(r.get(k), str):
                    err(f"{where}.{k}: expected a string")
            fl = r.get("floors")
            if not isinstance(fl, dict) or not all(
                    fl.get(k) is None or is_num(fl.get(k)) for k in ("dram_ms", "issue_ms")):
                err(f"{where}.floors: expected an object with dram_ms and issue_ms (numbers or null)")
            if "below_floor" not in r or not (r["below_floor"] is None or isinstance(r["below_floor"], str)):
                err(f"{where}.below_floor: expected a string or null")
            t = r.get("terms")
            if not isinstance(t, dict):
                err(f"{where}.terms: expected an object")
            else:
                for k, v in t.items():
                    if v is not None and not is_num(v):
                        err(f"{where}.terms.{k}: expected a number or null")
        elif st in ("missing-inputs", "error"):
            m = r.get("missing")
            if not isinstance(m, list) or not all(isinstance(x, str) for x in m):
                err(f"{where}.missing: expected an array of strings")
            if st == "error" and not (isinstance(r.get("error"), str) and r["error"]):
                err(f"{where}.error: expected the reason, a non-empty string")
        else:
            err(f"{where}.status: expected ok, missing-inputs or error")
    if not any(isinstance(r, dict) and r.get("status") == "ok" for r in res):
        err("no model ran")
    b = doc.get("bottleneck", 0)
    if not (b is None or isinstance(b, str)):
        err("bottleneck: expected a string or null")
    return errs


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip())
        return 2
    load_fields(sys.argv[1])
    if not FIELD_SECTIONS:
        print("no PF( lines in", sys.argv[1])
        return 2
    errs = []
    for path in sys.argv[2:]:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            errs.append(f"{path}: {e}")
            continue
        errs.extend(check(doc, path))
    for e in errs:
        print(e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
