#!/usr/bin/env python3
"""Every kernel the lit tests analyze whose counts are exact must have a DRAM
estimate between its bounds (issue 19). Not a unit test: it reruns the
`%cuda-roofline ...` command of every RUN line (JSON output, the test's own
inputs and sizes) and reports each kernel with exact counts -- global bytes
and FLOPs known, no unknowns -- that has no `dram_bytes.estimate`, or one
outside [lower, upper]. Exits 1 if it finds one.

  tools/check-estimates.py [--build build] [-j 2]

On the 2-core development machine it takes about seven minutes (273 RUN
lines, 503 kernel analyses with exact counts on 2026-11-28, none missing).
"""
import argparse
import json
import os
import re
import shlex
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from glob import glob

sys.dont_write_bytecode = True  # No __pycache__ in the source tree.
import roofline_tools  # noqa: E402

ROOT = roofline_tools.ROOT


def commands(tool):
    """(test, argv) for each RUN line that starts with %cuda-roofline, up to
    its first pipe or redirection, with --format=json."""
    out = []
    for test in sorted(
        glob(os.path.join(ROOT, "test", "lit", "**", "*.test"), recursive=True)
    ):
        here = os.path.dirname(test)
        for line in open(test, encoding="utf-8"):
            m = re.match(r"#\s*RUN:\s*(%cuda-roofline\s.*)", line)
            if not m:
                continue
            run = re.split(r"\s(?:\||>|2>|&&|;)\s", m.group(1))[0]
            for sub, val in (
                ("%cuda-roofline", tool),
                ("%S", here),
                ("%kernels", os.path.join(ROOT, "kernels")),
                ("%src", ROOT),
                ("%s", test),
            ):
                run = run.replace(sub, val)
            if "%" in run:
                continue  # %t and other per-run substitutions
            try:
                argv = shlex.split(run)
            except ValueError:
                continue
            if any(
                a.startswith("--export") or a in ("--list-gpus", "--help") for a in argv
            ):
                continue
            argv = [a for a in argv if not a.startswith("--format")]
            out.append((test, argv + ["--format=json"]))
    return out


def check(item):
    """Findings and tallies for one command."""
    test, argv = item
    # Exit status 1 with a report is a lint verdict (--warnings-as-errors,
    # a file that fails to parse next to good ones): the JSON still counts.
    try:
        proc = roofline_tools.run(argv, cwd=os.path.dirname(test), timeout=300)
        doc = json.loads(proc.stdout)
    except Exception:  # noqa: BLE001 -- a crash is another test's business
        doc = None
    if not doc:
        return ["not-json"], []
    tally, bad = ["ran"], []
    where = os.path.relpath(test, ROOT)
    for k in doc.get("kernels", []):
        t = k.get("totals") or {}
        dram = t.get("dram_bytes") or {}
        known = all(
            t.get(c) is not None
            for c in ("global_load_bytes", "global_store_bytes", "flops_total")
        )
        if dram.get("lower") is None or not known or k.get("unknowns"):
            continue
        tally.append("exact")
        est = dram.get("estimate")
        if est is None:
            bad.append("NO-ESTIMATE %s %s" % (where, k["name"]))
        elif not dram["lower"] <= est <= dram["upper"]:
            bad.append("VIOLATION %s %s %s" % (where, k["name"], dram))
    return tally, bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("-j", type=int, default=2)
    args = ap.parse_args()
    tool = os.path.join(args.build, "bin", "cuda-roofline")
    counts, failures = Counter(), []
    with ThreadPoolExecutor(args.j) as ex:
        for tally, bad in ex.map(check, commands(tool)):
            counts.update(tally)
            failures += bad
    for f in failures:
        print(f)
    print(
        "check-estimates: %d command(s) ran, %d printed no JSON (errors the "
        "tests expect), %d kernel analyses with exact counts, %d without an "
        "estimate between their bounds"
        % (counts["ran"], counts["not-json"], counts["exact"], len(failures))
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
