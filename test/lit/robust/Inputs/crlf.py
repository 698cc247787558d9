#!/usr/bin/env python3
"""usage: crlf.py SRC DEST: copies SRC to DEST with CRLF line ends."""
import sys

with open(sys.argv[1], "rb") as f:
    data = f.read()
with open(sys.argv[2], "wb") as f:
    f.write(data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
