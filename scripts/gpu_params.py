#!/usr/bin/env python3
"""gpu_params.py — reproduce the model parameters warpsight derives from a
GPU's base numbers (docs/gpu-parameters.md), independently of the C code in
src/gpu/derive.c.

    scripts/gpu_params.py constants
        prints Transit's efficiency constants, computed from the paper's
        measured points (Li et al. HPDC'15 §4) and the two GPUs' peaks.
    scripts/gpu_params.py derive FILE.json [FILE.json ...]
        prints every derived parameter of each GPU file, with its formula.
    scripts/gpu_params.py check WARPSIGHT FILE.json [...]
        compares those values with `WARPSIGHT gpu FILE --json`; exits 1 on
        any difference larger than 1e-9 relative, or a parameter derived by
        one side only.

Standard library only.  Reads the per-CC table src/gpu/cc_arch.def and the
occupancy limits src/gpu/cc_limits.def (the same facts the C code reads;
the formulas here are written out again from the documentation).
"""
import json
import math
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Transit's measured points (Li et al. HPDC'15 §4), per SM, and the GPUs'
# facts from data/gpus: (sms, cores, clock GHz, bandwidth GB/s, FP64/clock).
TRANSIT_POINTS = {
    "c2075": dict(sms=14, cores=32, clock=1.147, bw=150.336, fp64=16,
                  delta_sp=8.93, delta_dp=9.29, pi_sp=24.8, pi_dp=14),
    "gtx690": dict(sms=8, cores=192, clock=1.019, bw=192.256, fp64=8,
                   delta_sp=16.25, delta_dp=18.86, pi_sp=80, pi_dp=8),
}
GT200_FP32_LAT = 24.0  # Wong et al. ISPASS'10
GT200_MEM_LD = 450.0   # Hong & Kim Table 6, GTX280
LUO_TABLE1 = {  # Luo & Suda Table 1 (GTX 260): int_const int_reg float_const float_reg
    "add": (22, 65, 22, 65), "sub": (22, 65, 22, 65), "mul": (44, 136, 22, 65),
    "div": (728, 753, 748, 783), "neg": (22, 22, 17, 17), "min": (62, 62, 62, 62),
    "max": (62, 62, 62, 62), "and": (64, 64, 64, 64), "or": (62, 62, 62, 62),
    "xor": (62, 62, 62, 62), "not": (22, 22, 22, 22),
}
LUO_CELLS = ("int_const", "int_reg", "float_const", "float_reg")


# warpsight's architecture constants, in this order (docs/gpu-parameters.md).
WARPSIGHT_KEYS = ("issue_rate", "lsu_rate", "l2_bytes_per_slice", "dram_efficiency",
                  "alu_latency_scale", "mem_latency_scale", "overlap_p", "launch_us",
                  "block_cycles", "divergence_penalty", "partition_camping", "atomic_cycles",
                  "atomic_lane_cycles")
WARPSIGHT_ARCH = {
    "kepler": (2.9344124033067436, 0.927587457121581, 94.18431415472957, 1.0,
               0.8786668368646868, 0.5579704627284476, 1.427062690053602,
               0.054814699069300185, 149.7065697313214, 1.69335973728015, 1e-6, 1e-6, 1),
    "maxwell": (2.40738895283112, 1.410735283220079, 54.79732463513752, 0.8595587368566026, 0.642658143768595, 0.08910955018255873, 1.56108820948243, 1e-06, 1e-06, 3.273992055586798, 1e-06, 1e-6, 1),
    "turing": (4.491325434413558, 0.5501414660239088, 42.02415838111533, 0.6181659075868136, 0.377512981609382, 1.1001604501231177, 1.7948332690048512, 7.445425720427016, 1e-6, 0.227069546012065, 1e-6, 10.860257174481166, 0.598184046249162),
    "ampere": (4.416880372699604, 0.6487163405032286, 65.83831595908123, 1.0577794315375664, 0.3980463310614662, 1.2799533601023882, 1.85140969328401, 4.764761358219862, 1e-6, 0.7049082744720494, 1e-6, 12.431435675553958, 0.582333844123174),
}


# Constants an architecture measured on its own while borrowing the others:
# Volta's dram_efficiency from the V100 PCIe's public stream rows (Turing's
# 0.6182 x 1.5810, docs/gpu-parameters.md, "Volta's dram_efficiency").
WARPSIGHT_OWN = {(7, 0): {"dram_efficiency": 0.9773372165766246}}


def warpsight_arch(ma, mi):
    """The constants CC ma.mi takes: its own or the nearest measured one's."""
    if ma == 3:
        name = "kepler"
    elif ma in (5, 6):
        name = "maxwell"
    elif ma == 7:
        name = "turing"
    elif ma >= 8:
        name = "ampere"
    else:
        return None
    fit = dict(zip(WARPSIGHT_KEYS, WARPSIGHT_ARCH[name]))
    fit.update(WARPSIGHT_OWN.get((ma, mi), {}))
    return fit


def transit_constants():
    """The four efficiencies: mean over the two GPUs of measured / peak."""
    r_sp, r_dp, p_sp, p_dp = [], [], [], []
    for g in TRANSIT_POINTS.values():
        bw_sm = g["bw"] / g["sms"]
        r_sp.append(g["delta_sp"] / bw_sm)
        r_dp.append(g["delta_dp"] / bw_sm)
        p_sp.append(g["pi_sp"] / (g["cores"] * g["clock"]))
        p_dp.append(g["pi_dp"] / (g["fp64"] * g["clock"]))
    mean = lambda xs: sum(xs) / len(xs)
    return dict(eta_r_sp=round(mean(r_sp), 4), eta_r_dp=round(mean(r_dp), 4),
                eta_p_sp=round(mean(p_sp), 4), eta_p_dp=round(mean(p_dp), 4))


def read_def(name, macro):
    rows = {}
    with open(os.path.join(ROOT, "src", "gpu", name)) as f:
        for line in f:
            m = re.match(macro + r"\(([^)]*)\)", line)
            if m:
                v = [float(x) for x in m.group(1).split(",")]
                rows[(int(v[0]), int(v[1]))] = v[2:]
    return rows


ARCH = None
LIMITS = None


def val(x):
    return x.get("value") if isinstance(x, dict) else x


def derive(doc):
    """{(model, key): value} of every parameter the file does not give."""
    global ARCH, LIMITS
    if ARCH is None:
        ARCH = read_def("cc_arch.def", "CCA")
        LIMITS = read_def("cc_limits.def", "CCL")
    if doc.get("derive") is False:
        return {}
    cc = tuple(int(x) for x in str(val(doc["compute_capability"])).split("."))
    fp32, fp64, sfu, iadd, imul, simd, lat32, tbytes = ARCH[cc]
    lim = LIMITS[cc]
    max_threads = val(doc.get("limits", {}).get("max_threads_per_sm")) or lim[0]
    max_warps = val(doc.get("limits", {}).get("max_warps_per_sm")) or lim[1]
    sms, clk, bw = val(doc["sms"]), val(doc["clock_ghz"]), val(doc["mem_bandwidth_gbs"])
    cores, ws = val(doc["cores_per_sm"]), val(doc.get("warp_size", 32))
    sfu_sm = val(doc.get("sfu_per_sm", 0)) or 0
    lat = {k: val(v) for k, v in doc.get("latencies", {}).items()}
    models = doc.get("models", {})
    out = {}

    def have(model, key, table=None):
        t = models.get(model, {})
        if table:
            t = t.get(table, {})
        return key in t

    def get(model, key, table=None):
        if (model, key if not table else table + "." + key) in out:
            return out[(model, key if not table else table + "." + key)]
        t = models.get(model, {})
        if table:
            t = t.get(table, {})
        return val(t[key]) if key in t else None

    def put(model, key, v, table=None):
        if v is None or not (v > 0) or not math.isfinite(v):
            return
        if not have(model, key, table):
            out[(model, key if not table else table + "." + key)] = v

    fp32_lat = lat.get("fp32", lat32)
    put("hong-kim", "mem_ld", lat.get("dram"))
    put("hong-kim", "departure_del_uncoal", 32 * sms * clk / bw)
    put("hong-kim", "departure_del_coal", 128 * sms * clk / bw)
    simd_w = get("gpuperf", "simd_width") or simd
    put("hong-kim", "issue_cycles", ws / simd_w)
    put("gpuperf", "dram_lat", lat.get("dram", get("hong-kim", "mem_ld")))
    put("gpuperf", "transaction_bytes", tbytes)
    put("gpuperf", "delta", get("hong-kim", "departure_del_uncoal"))
    put("gpuperf", "fp_lat", fp32_lat)
    put("gpuperf", "l1_lat", lat.get("l1"))
    put("gpuperf", "l2_lat", lat.get("l2"))
    put("gpuperf", "gamma", 64)
    put("gpuperf", "simd_width", simd)
    put("gpuperf", "sfu_width", sfu_sm if sfu_sm > 0 else sfu)
    put("kothapalli", "global_cycles", lat.get("dram", get("hong-kim", "mem_ld")))
    for key, thr, mult in (("int_simple", iadd, 1), ("fp_simple", fp32, 1), ("int_mul32", imul, 1),
                           ("int_div", iadd, 12), ("int_rem", iadd, 12), ("fp_div", fp32, 9),
                           ("sfu", sfu, 1), ("fp64", fp64, 1)):
        if thr > 0:
            put("kothapalli", key, mult * ws / thr, "op_cycles")
    put("kothapalli", "shared_cycles", get("kothapalli", "int_simple", "op_cycles"))
    put("kothapalli", "pipeline_depth", 4)
    for op, costs in LUO_TABLE1.items():
        for cell, c in zip(LUO_CELLS, costs):
            put("luo-suda", op + "." + cell, c * fp32_lat / GT200_FP32_LAT, "inst_costs")
    mem_ld = get("hong-kim", "mem_ld") or lat.get("dram")
    if mem_ld:
        put("luo-suda", "ld_st", 200 * mem_ld / GT200_MEM_LD, "inst_costs")
        put("luo-suda", "t_mem", 200 * mem_ld / GT200_MEM_LD)
    for key, v in (("a", 3), ("b", 11), ("c", 0.5), ("d", 80), ("m", max_warps)):
        put("luo-suda", key, v)
    k = transit_constants()
    put("transit", "delta_sp_threads", max_threads)
    put("transit", "delta_sp_gbs", k["eta_r_sp"] * bw / sms)
    put("transit", "pi_sp_threads", min(cores * fp32_lat, max_threads))
    put("transit", "pi_sp_value", k["eta_p_sp"] * fp32 * clk)
    put("transit", "delta_dp_threads", max_threads // 2)
    put("transit", "delta_dp_gbs", k["eta_r_dp"] * bw / sms)
    put("transit", "pi_dp_threads", min(384, max_threads))
    if fp64 > 0:
        put("transit", "pi_dp_value", k["eta_p_dp"] * fp64 * clk)
    # warpsight's per-architecture constants (docs/gpu-parameters.md,
    # "warpsight"): fitted where measured data exists, the nearest measured
    # architecture's elsewhere, the defaults before calibration on Tesla/Fermi.
    ma, mi = cc
    fit = warpsight_arch(ma, mi)
    if fit is None:
        launch = val(doc.get("launch_overhead_us", 0)) or 5  # the CC's floor: 5 us to Volta
        fit = dict(zip(WARPSIGHT_KEYS, (0.5 if ma <= 1 else 2, 0.25 if ma <= 1 else 0.5, 32,
                                        0.8, lat32 / 6, 1, 4, launch, 100, 1, 1, 1e-6, 1)))
    for key in WARPSIGHT_KEYS:
        put("warpsight", key, fit[key])
    put("warpsight", "fp64_lanes_per_sm", fp64)
    put("warpsight", "l2_request_bytes", 128 if ma == 3 else 32)
    put("warpsight", "barrier_cycles", 20)
    # The memory facts derived at load (src/gpu/facts.c, docs/gpu-parameters.md
    # "GPU facts"): reported as model "memory", i.e. the file's memory.KEY.
    mem = doc.get("memory", {})
    parts = val(mem["dram_partitions"]) if "dram_partitions" in mem else None
    bus = val(mem.get("bus_bits", 0)) or 0
    clock = val(mem["clock_mhz"]) if "clock_mhz" in mem else None
    if not bus and clock:
        bus = round(bw * 8000 / (2 * clock))
        out[("memory", "bus_bits")] = bus
    if clock is None and bus:
        out[("memory", "clock_mhz")] = bw * 1000 / (2 * bus / 8)
    if parts is None and bus >= 64:
        parts = bus // 64
        out[("memory", "dram_partitions")] = parts
    if "interleave_bytes" not in mem and parts:
        out[("memory", "interleave_bytes")] = 256
    return out


def tool_derived(warpsight, path):
    doc = json.loads(subprocess.run([warpsight, "gpu", path, "--json"], check=True,
                                    capture_output=True, text=True).stdout)
    out = {}

    def walk(model, prefix, node):
        for k, v in node.items():
            if isinstance(v, dict) and "value" not in v:
                walk(model, prefix + k + ".", v)
            elif isinstance(v, dict) and v.get("derived"):
                out[(model, prefix + k)] = v["value"]
    for model, table in doc.get("models", {}).items():
        if isinstance(table, dict):
            walk(model, "", table)
    walk("memory", "", doc.get("memory", {}))
    return out


def main(argv):
    if len(argv) >= 2 and argv[1] == "constants":
        for k, v in transit_constants().items():
            print("%s %.4f" % (k, v))
        return 0
    if len(argv) >= 3 and argv[1] == "derive":
        for path in argv[2:]:
            with open(path) as f:
                for (model, key), v in sorted(derive(json.load(f)).items()):
                    print("%s models.%s.%s %.10g" % (os.path.basename(path), model, key, v))
        return 0
    if len(argv) >= 4 and argv[1] == "check":
        bad = 0
        for path in argv[3:]:
            with open(path) as f:
                mine = derive(json.load(f))
            theirs = tool_derived(argv[2], path)
            for key in sorted(set(mine) | set(theirs)):
                a, b = mine.get(key), theirs.get(key)
                if a is None or b is None or abs(a - b) > 1e-9 * max(1.0, abs(a)):
                    print("%s: models.%s.%s: script %s, warpsight %s" % (path, key[0], key[1], a, b))
                    bad = 1
        return bad
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
