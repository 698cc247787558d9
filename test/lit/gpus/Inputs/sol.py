"""Reads cuda-roofline's JSON on stdin and prints, per kernel, its name, the
speed of light (seconds), its bound, the precision and unit it was figured
for, the peak used (FLOP/s) and the tensor FLOPs by precision.
"""
import json
import sys

for k in json.load(sys.stdin)["kernels"]:
    sol = k["speed_of_light"]
    flops = {
        p: v for p, v in k["totals"]["flops"].items() if p.startswith("tensor_") and v
    }
    print(
        k["name"],
        "%.5g" % sol["seconds"],
        sol["bound"],
        sol["precision"],
        sol["unit"],
        "%.5g" % sol["peak_flops"],
        " ".join("%s=%d" % kv for kv in sorted(flops.items())),
    )
