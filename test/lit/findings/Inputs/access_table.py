#!/usr/bin/env python3
"""Reads cuda-roofline --format=json on stdin and prints one line per access:

  <kernel name> <line>:<col> global <kind> <expr> sectors=<n>
  <kernel name> <line>:<col> shared <kind> <expr> ways=<w> wavefronts=<v>

in the order of the JSON (kernels, then their accesses in source order). An
empty expr prints as "", a missing number as "null". Used by sectors.test.
"""
import json
import sys


def num(v):
    return "null" if v is None else str(v)


def main():
    doc = json.load(sys.stdin)
    for kernel in doc.get("kernels", []):
        name = kernel.get("name", "?")
        for a in kernel.get("accesses", []):
            expr = a.get("expr") or '""'
            head = f"{name} {a['line']}:{a['column']} {a['space']} {a['kind']} {expr}"
            if a["space"] == "global":
                tail = f"sectors={num(a.get('sectors_per_request'))}"
            else:
                tail = (
                    f"ways={num(a.get('bank_conflict_ways'))} "
                    f"wavefronts={num(a.get('wavefronts_per_request'))}"
                )
            if "unknown" in a:
                tail += f" unknown={a['unknown']}"
            print(f"{head} {tail}")


if __name__ == "__main__":
    main()
