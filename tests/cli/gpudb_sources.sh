#!/usr/bin/env bash
# gpudb_sources.sh — every GPU file in data/gpus parses, follows the
# warpsight-gpu/1 schema's required keys, is named after its "name", and gives
# every number a source: each number sits in {"value": N, "source": "..."}
# with a non-empty source (docs/gpu-schema.md, "Sources and estimates").
# Then the same checker is run on broken copies to show that it fails.
# Uses python3 with its standard library only.
source "$WS_SRC/tests/cli/lib.sh"

need_python3

# The checker: python3 CHECKER DIR; prints "FILE: PATH: problem" lines and
# exits 1 if there is any, 0 otherwise.
CHECKER="$TMP/check_gpudb.py"
cat >"$CHECKER" <<'PY'
import json, math, os, re, sys

REQUIRED_FACTS = ("compute_capability", "sms", "cores_per_sm", "warp_size",
                  "clock_ghz", "mem_bandwidth_gbs")
VALUE_KEYS = {"value", "source", "estimate", "note"}
errors = []

def err(fname, path, msg):
    errors.append("%s: %s: %s" % (fname, path or "$", msg))

def no_dups(pairs):
    keys = [k for k, _ in pairs]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise ValueError("duplicate key %r" % dup[0])
    return dict(pairs)

def bad_constant(name):
    raise ValueError("non-JSON number %s" % name)

def is_num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)

def check_value(fname, path, obj):
    extra = sorted(set(obj) - VALUE_KEYS)
    if extra:
        err(fname, path, "unexpected key %r in a value object" % extra[0])
    src = obj.get("source")
    if not isinstance(src, str) or not src.strip():
        err(fname, path, "number without a non-empty \"source\"")
    v = obj["value"]
    if is_num(v):
        if not math.isfinite(v):
            err(fname, path, "value is not finite")
    elif not isinstance(v, str):
        err(fname, path, "\"value\" must be a number or a string")
    if "estimate" in obj:
        if not isinstance(obj["estimate"], bool):
            err(fname, path, "\"estimate\" must be a boolean")
        elif obj["estimate"]:
            note = obj.get("note")
            if not isinstance(note, str) or not note.strip():
                err(fname, path, "estimate without a \"note\" giving the reasoning")
    if "note" in obj and not isinstance(obj["note"], str):
        err(fname, path, "\"note\" must be a string")

def walk(fname, path, node):
    if isinstance(node, dict):
        if "value" in node:
            check_value(fname, path, node)
            return
        for k, v in node.items():
            walk(fname, path + "." + k if path else k, v)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            walk(fname, "%s[%d]" % (path, i), v)
    elif is_num(node):
        err(fname, path, "bare number %r: numbers must be {\"value\": N, \"source\": ...}" % node)
    # strings and booleans need no source

def check_file(path):
    fname = os.path.basename(path)
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f, object_pairs_hook=no_dups, parse_constant=bad_constant)
    except (ValueError, UnicodeDecodeError) as e:
        err(fname, "", "does not parse: %s" % e)
        return
    if not isinstance(doc, dict):
        err(fname, "", "top level is not an object")
        return
    if doc.get("schema") != "warpsight-gpu/1":
        err(fname, "schema", "must be \"warpsight-gpu/1\"")
    if doc.get("name") != fname[:-len(".json")]:
        err(fname, "name", "%r does not match the file name" % doc.get("name"))
    for key in ("full_name", "architecture"):
        if not isinstance(doc.get(key), str) or not doc[key].strip():
            err(fname, key, "missing or empty string")
    if not isinstance(doc.get("hypothetical"), bool):
        err(fname, "hypothetical", "missing or not a boolean")
    for key in REQUIRED_FACTS:
        v = doc.get(key)
        if not isinstance(v, dict) or "value" not in v:
            err(fname, key, "missing (needs {\"value\": ..., \"source\": ...})")
        elif key == "compute_capability":
            if not isinstance(v["value"], str) or not re.fullmatch(r"[0-9]+\.[0-9]+", v["value"]):
                err(fname, key, "value must be a string \"major.minor\"")
        elif not is_num(v["value"]) or not v["value"] > 0:
            err(fname, key, "value must be a positive number")
    if not isinstance(doc.get("models"), dict):
        err(fname, "models", "missing or not an object")
    for key in ("limits", "cache", "latencies"):
        if key in doc and not isinstance(doc[key], dict):
            err(fname, key, "must be an object")
    walk(fname, "", doc)
    check_derived(fname, doc)
    check_memory(fname, doc)
    check_tensor(fname, doc)
    check_sustained(fname, doc)

def val(doc, *path):
    for k in path:
        if not isinstance(doc, dict) or k not in doc:
            return None
        doc = doc[k]
    return doc.get("value") if isinstance(doc, dict) else None

def check_derived(fname, doc):
    """Values whose source says "derived: FORMULA" must still equal the
    formula applied to the file's own facts (docs/gpu-schema.md), so that
    editing a clock or a bandwidth cannot leave a stale derivation behind."""
    sms, clk, bw = val(doc, "sms"), val(doc, "clock_ghz"), val(doc, "mem_bandwidth_gbs")
    models = doc.get("models") if isinstance(doc.get("models"), dict) else {}
    for model, table in models.items():
        if not isinstance(table, dict):
            continue
        for key, obj in table.items():
            if not isinstance(obj, dict) or not is_num(obj.get("value")):
                continue
            src, path = str(obj.get("source", "")), "models.%s.%s" % (model, key)
            m = re.match(r"derived: (\d+) x sms x clock_ghz / mem_bandwidth_gbs", src)
            if m and all(is_num(x) for x in (sms, clk, bw)):
                want = int(m.group(1)) * sms * clk / bw
                if abs(obj["value"] - want) > 0.006:
                    err(fname, path, "%g != %s x %g x %g / %g = %.3f"
                        % (obj["value"], m.group(1), sms, clk, bw, want))
            if src.startswith("derived: warp_size / simd_width"):
                simd = val(models, "gpuperf", "simd_width")
                if is_num(simd) and abs(obj["value"] - val(doc, "warp_size") / simd) > 1e-3:
                    err(fname, path, "%g != warp_size / gpuperf.simd_width" % obj["value"])
    src = str((doc.get("sms") or {}).get("source", ""))
    m = re.match(r"derived: (\d+) cores.*?/ (?:(\d+) GPUs / )?(\d+) per", src)
    if m and is_num(sms):
        gpus = int(m.group(2) or 1)
        if sms * gpus * int(m.group(3)) != int(m.group(1)):
            err(fname, "sms", "%g != %s / %d / %s" % (sms, m.group(1), gpus, m.group(3)))

def check_memory(fname, doc):
    """2 x memory.clock_mhz x memory.bus_bits / 8 is the bandwidth, as CUDA
    reports the clock (docs/gpu-schema.md, "memory")."""
    clk, bus, bw = val(doc, "memory", "clock_mhz"), val(doc, "memory", "bus_bits"), val(doc, "mem_bandwidth_gbs")
    if all(is_num(x) for x in (clk, bus, bw)):
        calc = 2 * clk * bus / 8 / 1000
        if abs(calc / bw - 1) > 0.005:
            err(fname, "memory.clock_mhz", "2 x %g MHz x %g bits / 8 = %.1f GB/s, not mem_bandwidth_gbs %g"
                % (clk, bus, calc, bw))

def check_tensor(fname, doc):
    """A tensor throughput derived from a data sheet's TFLOPS: the SMs and
    clock of the formula are the file's, and the value is its quotient."""
    t = doc.get("tensor") if isinstance(doc.get("tensor"), dict) else {}
    for key, obj in t.items():
        if not isinstance(obj, dict):
            continue
        m = re.match(r"derived: ([0-9.]+) T(?:FLOPS|OPS) / \((\d+) SMs x ([0-9.]+) GHz\)", str(obj.get("source", "")))
        if not m:
            continue
        tf, sms, ghz = float(m.group(1)), int(m.group(2)), float(m.group(3))
        if sms != val(doc, "sms") or ghz != val(doc, "clock_ghz"):
            err(fname, "tensor." + key, "%d SMs x %g GHz are not the file's sms and clock_ghz" % (sms, ghz))
        elif obj.get("value") != round(tf * 1e3 / (sms * ghz)):
            err(fname, "tensor." + key, "%r != round(%g TFLOPS / (%d x %g GHz)) = %d"
                % (obj.get("value"), tf, sms, ghz, round(tf * 1e3 / (sms * ghz))))

DEV_CSV = sys.argv[2] if len(sys.argv) > 2 else None

def dev_clocks():
    """Median elapsed_cycles_sm / Duration / SMs (MHz) and count, per database
    GPU, over the launches of data/validation/amaris-measured-dev.csv longer
    than 1 ms (the Amaris et al. counters)."""
    import csv, statistics
    names = {}
    with open(os.path.join(os.path.dirname(DEV_CSV), "gpu-names.csv"), newline="") as f:
        for r in csv.DictReader(f):
            names[r["csv_name"]] = r["gpu"]
    by = {}
    with open(DEV_CSV, newline="") as f:
        for r in csv.DictReader(f):
            try:
                dur, cyc = float(r["Duration"]), float(r["elapsed_cycles_sm"])
            except (ValueError, KeyError):
                continue
            if dur > 1e-3:
                by.setdefault(names.get(r["gpu_name"], r["gpu_name"]), []).append(cyc / dur / 1e6)
    return {g: (statistics.median(v), len(v)) for g, v in by.items()}

_dev = None

def check_sustained(fname, doc):
    global _dev
    obj = doc.get("sustained_clock_ghz")
    if not isinstance(obj, dict) or not DEV_CSV:
        return
    m = re.match(r"data/validation/amaris-measured-dev.csv: median of elapsed_cycles_sm / Duration / (\d+) SMs "
                 r"over the (\d+) launches longer than 1 ms \(([0-9.]+) MHz\)", str(obj.get("source", "")))
    if not m:
        return
    if _dev is None:
        _dev = dev_clocks()
    name = fname[:-len(".json")]
    if name not in _dev:
        err(fname, "sustained_clock_ghz", "no launches of %s in %s" % (name, DEV_CSV))
        return
    med, n = _dev[name]
    sms = int(m.group(1))
    mhz = med / sms
    if sms != val(doc, "sms") or int(m.group(2)) != n or abs(float(m.group(3)) - mhz) > 0.05 \
            or abs(obj.get("value", 0) * 1000 - mhz) > 1:
        err(fname, "sustained_clock_ghz", "the counters give %.1f MHz over %d launches on %d SMs, not %s"
            % (mhz, n, val(doc, "sms"), obj.get("value")))

d = sys.argv[1]
files = sorted(f for f in os.listdir(d) if f.endswith(".json"))
if not files:
    errors.append("%s: no .json files" % d)
for f in files:
    check_file(os.path.join(d, f))
for e in errors:
    print(e)
sys.exit(1 if errors else 0)
PY

DB="$WS_SRC/data/gpus"

# 1. The database itself passes.
DEV="$WS_SRC/data/validation/amaris-measured-dev.csv"
run python3 "$CHECKER" "$DB" "$DEV"
[ "$RC" -eq 0 ] || fail "data/gpus fails the source check (status $RC):
$OUT$ERR"

# 2. It holds exactly the GPUs of docs/gpu-schema.md (42 since issue 13, 53
# with issue 20's boards people own, 68 with the Pascal, Volta, Turing, Maxwell
# and Kepler boards of issue 20's reference table).
expected="8800gt 8800gtx a10 a100 a100-pcie-40gb a100-pcie-80gb a100-sxm-80gb a2 a30 a40 b200 c2050 c2075 fx5600 gtx1060-6gb gtx1070 gtx1080 gtx1080ti gtx1650 gtx1650-gddr6 gtx260 gtx280 gtx680 gtx690 gtx970 gtx980 h100-pcie h100-sxm h200 hk09-example k20 k40 k80 l4 l40 l40s m60 p100-pcie p100-sxm2 p4 p40 quadro-k5200 rtx-a4000 rtx-a6000 rtx2060 rtx2070 rtx2080 rtx2080ti rtx3060 rtx3060-laptop rtx3060ti rtx3070ti rtx3080 rtx3090 rtx4060 rtx4070 rtx4080 rtx4090 rtx5090 t4 titan titan-black titan-rtx titan-v titan-x-maxwell titan-xp v100 v100-pcie"
actual=$(cd "$DB" && ls *.json | sed 's/\.json$//' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
[ "$actual" = "$expected" ] || fail "GPU list: got '$actual', expected '$expected'"

# 3. The checker fails on broken copies.  mutate NAME PYTHON-STATEMENT makes a
# fresh copy of the database and edits data/gpus/NAME.json with the statement,
# which sees the parsed document as `d`.
mutate() {
  rm -rf "$TMP/db" && cp -r "$DB" "$TMP/db"
  python3 - "$TMP/db/$1.json" "$2" <<'PY'
import json, sys
path, stmt = sys.argv[1], sys.argv[2]
with open(path) as f:
    d = json.load(f)
exec(stmt)
with open(path, "w") as f:
    json.dump(d, f, indent=2)
PY
}

# A number deep in a model table loses its source.
mutate gtx280 'del d["models"]["kothapalli"]["op_cycles"]["int_mul32"]["source"]'
run python3 "$CHECKER" "$TMP/db" "$DEV"
expect_rc 1 "source removed"
expect_out 'gtx280.json: models.kothapalli.op_cycles.int_mul32: number without a non-empty "source"' "source removed"

# An empty source.
mutate c2050 'd["models"]["gpuperf"]["delta"]["source"] = "  "'
run python3 "$CHECKER" "$TMP/db" "$DEV"
expect_rc 1 "empty source"
expect_out 'c2050.json: models.gpuperf.delta: number without a non-empty "source"' "empty source"

# A bare number instead of a value object.
mutate gtx260 'd["models"]["luo-suda"]["inst_costs"]["add.int_const"] = 22'
run python3 "$CHECKER" "$TMP/db" "$DEV"
expect_rc 1 "bare number"
expect_out 'gtx260.json: models.luo-suda.inst_costs.add.int_const: bare number 22' "bare number"

# An estimate without its reasoning.
mutate k20 'del d["cache"]["l2_bytes"]["note"]'
run python3 "$CHECKER" "$TMP/db" "$DEV"
expect_rc 1 "estimate without note"
expect_out 'k20.json: cache.l2_bytes: estimate without a "note"' "estimate without note"

# "name" differs from the file name.
mutate v100 'd["name"] = "v100-sxm2"'
run python3 "$CHECKER" "$TMP/db" "$DEV"
expect_rc 1 "name mismatch"
expect_out "v100.json: name: 'v100-sxm2' does not match the file name" "name mismatch"

# A required key is missing.
mutate a100 'del d["sms"]'
run python3 "$CHECKER" "$TMP/db" "$DEV"
expect_rc 1 "missing sms"
expect_out 'a100.json: sms: missing' "missing sms"

# A derived value written into a file (the loader derives it; a copy in
# the file goes stale when a base number is edited): 32 x 8 x 1.2 / 192.256
# = 1.598, no longer the stored 1.41.
mutate gtx680 'd["clock_ghz"]["value"] = 1.2; d["models"]["hong-kim"]["departure_del_uncoal"] = {"value": 1.41, "source": "derived: 32 x sms x clock_ghz / mem_bandwidth_gbs"}'
run python3 "$CHECKER" "$TMP/db" "$DEV"
expect_rc 1 "stale derivation"
expect_out 'gtx680.json: models.hong-kim.departure_del_uncoal: 1.41 != 32 x 8 x 1.2 / 192.256 = 1.598' "stale derivation"

# An SM count that no longer matches its core count (1536 / 192 = 8).
mutate gtx680 'd["sms"]["value"] = 9'
run python3 "$CHECKER" "$TMP/db" "$DEV"
expect_rc 1 "sms vs cores"
expect_out 'gtx680.json: sms: 9 != 1536 / 1 / 192' "sms vs cores"

# A memory clock that no longer gives the bandwidth (2 x 9000 x 320 / 8 = 720 GB/s).
mutate rtx3080 'd["memory"]["clock_mhz"]["value"] = 9000'
run python3 "$CHECKER" "$TMP/db" "$DEV"
expect_rc 1 "memory clock vs bandwidth"
expect_out 'rtx3080.json: memory.clock_mhz: 2 x 9000 MHz x 320 bits / 8 = 720.0 GB/s, not mem_bandwidth_gbs 760' "memory clock"

# A tensor throughput that is not its data sheet's quotient (155.94 TFLOPS
# / (108 SMs x 1.41 GHz) = 1024, not 2000).
mutate a100 'd["tensor"]["tf32"]["value"] = 2000'
run python3 "$CHECKER" "$TMP/db" "$DEV"
expect_rc 1 "tensor quotient"
expect_out 'a100.json: tensor.tf32: 2000 != round(155.94 TFLOPS / (108 x 1.41 GHz)) = 1024' "tensor"

# A sustained clock the Amaris counters do not give (they give 1070.7 MHz).
mutate gtx680 'd["sustained_clock_ghz"]["value"] = 1.2'
run python3 "$CHECKER" "$TMP/db" "$DEV"
expect_rc 1 "sustained clock"
expect_out 'gtx680.json: sustained_clock_ghz: the counters give 1070.7 MHz over 729 launches on 8 SMs, not 1.2' "sustained"

# Text that is not JSON.
rm -rf "$TMP/db" && cp -r "$DB" "$TMP/db"
printf '{"schema": "warpsight-gpu/1", "name": ' >"$TMP/db/fx5600.json"
run python3 "$CHECKER" "$TMP/db" "$DEV"
expect_rc 1 "truncated file"
expect_out 'fx5600.json: $: does not parse' "truncated file"

finish
