#!/usr/bin/env python3
"""Compares cuda-roofline's predicted times with the recorded measurements.

Every record in test/validation/records/GPU/ holds a kernel's analyzer
arguments, its median time over many runs (L2 flushed between them) and the
Nsight Compute counters of one run. This reruns the analysis with --gpu GPU
and prints, as a Markdown table, the measured and predicted times, their
ratio, the predicted limiter, and the warp instructions issued as
`smsp__inst_executed.sum` counts them, and those of the LSU pipe
(`smsp__inst_executed_pipe_lsu.sum`), against the tool's counts. No GPU is
needed.

  tools/predict-vs-measured.py [--gpu h200] [--tool build/bin/cuda-roofline]
"""
import argparse
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import roofline_tools  # noqa: E402

ROOT = roofline_tools.ROOT


def row(tool, gpu, path):
    rec = json.load(open(path))
    measured = rec["timing"]["median_s"]
    metrics = rec["counters"].get("metrics", {})
    issued = metrics.get("smsp__inst_executed.sum")
    lsu = metrics.get("smsp__inst_executed_pipe_lsu.sum")
    cmd = [tool] + rec["analyzer_args"] + ["--gpu", gpu, "--format=json"]
    proc, doc = roofline_tools.run_json(cmd, cwd=ROOT)
    if not doc or not doc["kernels"]:
        return "| %s | %s | no report | | | | | | |" % (rec["kernel"]["id"], measured)
    p = doc["kernels"][0]["predicted"]
    s = p["seconds"]
    tool_issued = p["instructions"].get("issue")
    tool_lsu = p["instructions"].get("memory")
    return "| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        rec["kernel"]["id"],
        roofline_tools.seconds(measured),
        roofline_tools.seconds(s) if s else "-",
        "%.2f" % (s / measured) if s else "-",
        p["limiter"] or p.get("unknown", ""),
        "%.3g" % issued if issued else "-",
        "%.3g" % (tool_issued / 32) if tool_issued else "-",
        "%.3g" % lsu if lsu else "-",
        "%.3g" % (tool_lsu / 32) if tool_lsu else "-",
    )


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--gpu", default="h200")
    ap.add_argument(
        "--tool", default=os.path.join(ROOT, "build", "bin", "cuda-roofline")
    )
    a = ap.parse_args()
    records = sorted(
        glob.glob(os.path.join(ROOT, "test", "validation", "records", a.gpu, "*.json"))
    )
    if not records:
        sys.exit("predict-vs-measured: no records for %s" % a.gpu)
    print(
        "| kernel | measured | predicted | predicted / measured | limiter "
        "| warp instructions (ncu) | warp instructions (tool) "
        "| LSU instructions (ncu) | LSU instructions (tool) |"
    )
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|")
    for path in records:
        print(row(a.tool, a.gpu, path))


if __name__ == "__main__":
    main()
