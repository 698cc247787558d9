"""Odd file names for the robust/ tests.

lit's shell cannot put a newline (or a CR) into an argument, so the helpers
take names with the escapes \\n, \\r, \\t, \\\\ and \\xHH (a raw byte) and
decode them here.
"""
import os
import re


def decode(s):
    def sub(m):
        e = m.group(1)
        if e == b"n":
            return b"\n"
        if e == b"r":
            return b"\r"
        if e == b"t":
            return b"\t"
        if e == b"\\":
            return b"\\"
        return bytes([int(e[1:], 16)])

    return os.fsdecode(re.sub(rb"\\(n|r|t|\\|x[0-9a-fA-F]{2})", sub, os.fsencode(s)))
