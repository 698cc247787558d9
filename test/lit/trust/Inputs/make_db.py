"""make_db.py DIR FLAG...: DIR/k.cu (a copy of Inputs/k.cu) and
DIR/compile_commands.json whose one command compiles it with FLAGs."""
import json
import os
import shutil
import sys

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
shutil.copy(os.path.join(os.path.dirname(__file__), "k.cu"), os.path.join(d, "k.cu"))
cmd = ["clang++", "-x", "cuda", *sys.argv[2:], "-c", "k.cu", "-o", "k.o"]
with open(os.path.join(d, "compile_commands.json"), "w") as f:
    json.dump([{"directory": d, "file": "k.cu", "arguments": cmd}], f)
