#!/usr/bin/env python3
"""Checks reviewdog rdjsonl: every line one rdjson Diagnostic.

Asserts the fields reviewdog reads (message, location.path relative,
range.start line/column >= 1, severity, source.name, code.value) and prints
each diagnostic as

  SEVERITY PATH:LINE:COLUMN CODE
    MESSAGE LINE...

or, for a file that could not be analyzed (an ERROR without location or
code), "ERROR (no location) MESSAGE".
"""
import json
import sys

SEVERITIES = ("ERROR", "WARNING", "INFO")

n = 0
for number, raw in enumerate(sys.stdin, 1):
    d = json.loads(raw)  # One complete object per line, or this raises.
    where = f"line {number}"
    assert set(d) <= {"message", "location", "severity", "source", "code"}, where
    assert isinstance(d["message"], str) and d["message"], where
    if "location" not in d:
        # A file that could not be analyzed: an error with no place in it.
        assert d["severity"] == "ERROR" and "code" not in d, where
        assert d["source"] == {"name": "cuda-roofline"}, where
        print(f"ERROR (no location) {d['message']}")
        n += 1
        continue
    path = d["location"]["path"]
    assert path and not path.startswith("/"), f"{where}: path {path!r}"
    start = d["location"]["range"]["start"]
    assert start["line"] >= 1 and start["column"] >= 1, where
    assert d["severity"] in SEVERITIES, f"{where}: {d['severity']!r}"
    assert d["source"] == {"name": "cuda-roofline"}, where
    assert d["code"]["value"].startswith("roofline-"), where
    print(
        f"{d['severity']} {path}:{start['line']}:{start['column']} {d['code']['value']}"
    )
    for text in d["message"].split("\n"):
        print("  " + text)
    n += 1
print(f"ok: {n} diagnostics")
