"""One line for a zoo run: spec variant rc seconds, the warpsight model's time on the A100,
and every model/GPU result that is not a finite positive time (with its reason)."""
import json, math, sys
name, var, rc, secs, js, err = sys.argv[1:7]
line = "%-26s %-11s rc=%s %6.1fs" % (name, var, rc, float(secs))
try:
    doc = json.load(open(js))
except Exception as e:
    msg = open(err).read().strip().splitlines()
    print(line, "NO-JSON:", (msg[-1] if msg else str(e))[:200])
    sys.exit(0)
bad, a100 = [], None
def scan(obj, gpu=None):
    global a100
    if isinstance(obj, dict):
        g = obj.get("gpu", gpu)
        if isinstance(g, dict): g = g.get("name") or g.get("id")
        if "model" in obj and "status" in obj:
            t = obj.get("time_ms")
            miss = "; ".join(obj.get("missing") or [])
            if obj["status"] == "missing-inputs" and "no double-precision units" in miss:
                pass  # FP64 code on a board without FP64 units: refused on purpose
            elif obj["status"] != "ok" or not isinstance(t, (int, float)) or not math.isfinite(t) or t <= 0:
                bad.append("%s/%s:%s:%s" % (g, obj["model"], obj["status"], obj.get("error") or miss or t))
            elif obj["model"] == "warpsight" and g and "a100" in str(g):
                a100 = t
        for v in obj.values(): scan(v, g)
    elif isinstance(obj, list):
        for v in obj: scan(v, gpu)
scan(doc)
print(line, "ws-a100=%s ms" % a100, ("BAD " + "; ".join(bad[:4]) + (" (+%d)" % (len(bad) - 4) if len(bad) > 4 else "")) if bad else "")
