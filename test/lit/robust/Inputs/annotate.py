#!/usr/bin/env python3
"""usage: annotate.py SRC DEST LINE: writes LINE, a newline, then SRC to DEST."""
import sys

src, dest, line = sys.argv[1:]
with open(src) as f:
    text = f.read()
with open(dest, "w") as f:
    f.write(line + "\n" + text)
