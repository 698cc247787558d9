"""Runs cuda-roofline on one file for every GPU that --list-gpus names and
prints, per GPU, the id, the speed of light (seconds), its bound and the
precision and unit it was figured for, or the note saying why there is none.

  every_gpu.py TOOL FILE [ARGS...]
"""
import json
import subprocess
import sys

tool, source, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
listing = subprocess.run(
    [tool, "--list-gpus"], check=True, capture_output=True, text=True
).stdout.splitlines()
ids = [line.split()[0] for line in listing[1:] if line.strip()]
print("gpus", len(ids))
for gpu in ids:
    out = subprocess.run(
        [tool, source, "--gpu", gpu, "--format=json"] + extra,
        capture_output=True,
        text=True,
    )
    for k in json.loads(out.stdout)["kernels"]:
        sol = k["speed_of_light"]
        if sol["seconds"] is None:
            print(gpu, k["name"], "none:", sol.get("note"))
        else:
            print(
                gpu,
                k["name"],
                "%.5g" % sol["seconds"],
                sol["bound"],
                sol["precision"],
                sol["unit"],
            )
