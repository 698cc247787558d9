"""check_bounds.py TOOL FILE...: runs cuda-roofline on each file at
realistic sizes; for every kernel, checks dram_bytes.lower <= estimate <=
upper and prints one line per kernel. Exits 1 on a violation or a kernel
without an estimate."""
import os
import sys

sys.dont_write_bytecode = True  # No __pycache__ in the source tree.
sys.path.insert(
    0,
    os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "tools"
    ),
)
import roofline_tools  # noqa: E402

SIZES = roofline_tools.BENCH_PARAMS
bad = 0
for path in sys.argv[2:]:
    _, doc = roofline_tools.run_json(
        [sys.argv[1], path, "--format=json"] + SIZES, stderr=None, check=True
    )
    for k in doc["kernels"]:
        d = k["totals"]["dram_bytes"]
        lo, est, up = d["lower"], d.get("estimate"), d["upper"]
        if est is None:
            print(
                "NO-ESTIMATE %s: %s" % (k["name"], d["cache_model"].get("unknown", ""))
            )
            bad += 1
            continue
        ok = lo <= est <= up
        bad += not ok
        print(
            "%s %s lower=%d estimate=%d upper=%d"
            % ("OK" if ok else "VIOLATION", k["name"], lo, est, up)
        )
sys.exit(1 if bad else 0)
