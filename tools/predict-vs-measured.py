#!/usr/bin/env python3
"""Compares cuda-roofline's predicted times with the recorded measurements.

Every record in test/validation/records/GPU/ holds a kernel's analyzer
arguments, its median time over many runs (L2 flushed between them) and the
Nsight Compute counters of one run. This reruns the analysis with --gpu GPU
and prints, as a Markdown table, the measured and predicted times, their
ratio, the predicted limiter, and the warp instructions issued as
`smsp__inst_executed.sum` counts them, those of the LSU pipe
(`smsp__inst_executed_pipe_lsu.sum`), and the bytes L1 moves to and from
L2 (`lts__t_sectors_srcunit_tex_op_read.sum` + `_op_write.sum`, 32 bytes a
sector), against the tool's counts. No GPU is needed.

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
    l2_sectors = [
        metrics.get("lts__t_sectors_srcunit_tex_op_%s.sum" % op)
        for op in ("read", "write")
    ]
    l2 = 32 * sum(l2_sectors) if None not in l2_sectors else None
    cmd = [tool] + rec["analyzer_args"] + ["--gpu", gpu, "--format=json"]
    proc, doc = roofline_tools.run_json(cmd, cwd=ROOT)
    if not doc or not doc["kernels"]:
        return "| %s | %s | no report |%s" % (rec["kernel"]["id"], measured, " |" * 8)
    p = doc["kernels"][0]["predicted"]
    s = p["seconds"]
    tool_issued = p["instructions"].get("issue")
    tool_lsu = p["instructions"].get("memory")
    tool_l2 = next((r["work"] for r in p["resources"] if r["name"] == "l2"), None)
    return "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        rec["kernel"]["id"],
        roofline_tools.seconds(measured),
        roofline_tools.seconds(s) if s else "-",
        "%.2f" % (s / measured) if s else "-",
        p["limiter"] or p.get("unknown", ""),
        "%.3g" % issued if issued else "-",
        "%.3g" % (tool_issued / 32) if tool_issued else "-",
        "%.3g" % lsu if lsu else "-",
        "%.3g" % (tool_lsu / 32) if tool_lsu else "-",
        "%.3g" % l2 if l2 else "-",
        "%.3g" % tool_l2 if tool_l2 else "-",
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
        "| LSU instructions (ncu) | LSU instructions (tool) "
        "| L2 bytes (ncu) | L2 bytes (tool) |"
    )
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    for path in records:
        print(row(a.tool, a.gpu, path))


if __name__ == "__main__":
    main()
