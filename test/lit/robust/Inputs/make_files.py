#!/usr/bin/env python3
"""usage: make_files.py DIR SRC NAME...: copies SRC to DIR/NAME for each NAME
(escapes as in names.py), making the directories NAME needs."""
import os
import shutil
import sys

sys.dont_write_bytecode = True  # No __pycache__ in the source tree.
from names import decode

d, src = sys.argv[1], sys.argv[2]
for name in sys.argv[3:]:
    dest = os.path.join(d, decode(name))
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    shutil.copyfile(src, dest)
