"""make_db.py DIR FLAG...: DIR/physics.cu and DIR/mathops.cuh (copies) and
DIR/compile_commands.json whose one command is nvcc's, with FLAGs."""
import json
import os
import shutil
import sys

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
here = os.path.dirname(os.path.abspath(__file__))
for name in ("physics.cu", "mathops.cuh"):
    shutil.copy(os.path.join(here, name), os.path.join(d, name))
cmd = [
    "/usr/local/cuda/bin/nvcc",
    "-O3",
    "-arch=sm_90",
    *sys.argv[2:],
    "-c",
    "physics.cu",
    "-o",
    "physics.o",
]
with open(os.path.join(d, "compile_commands.json"), "w") as f:
    json.dump([{"directory": d, "file": "physics.cu", "arguments": cmd}], f)
