#!/usr/bin/env python3
"""usage: run_decoded.py CMD ARG...: runs CMD with its arguments decoded
(escapes as in names.py) and exits with its status."""
import subprocess
import sys

sys.dont_write_bytecode = True  # No __pycache__ in the source tree.
from names import decode

sys.exit(subprocess.run([decode(a) for a in sys.argv[1:]]).returncode)
