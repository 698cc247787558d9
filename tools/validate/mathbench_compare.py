#!/usr/bin/env python3
"""Compares cuda-roofline's flops_executed with what the hardware executed
for one division, square root or library call (test/validation/mathbench/).

The tool analyzes tools/validate/mathbench/mathbench.cu twice, as nvcc
builds it for the record: with nvcc's defaults (IEEE) and with
-use_fast_math (a compile database with the nvcc command). For each
operation its flops_executed per thread, less the copy kernel's, is set
beside the measured FLOPs per call.

  mathbench_compare.py [--tool PATH] [RECORD.json]   print the table
  mathbench_compare.py --instructions ...            thread instructions
                                                     per call instead
  mathbench_compare.py --check ...                   exit 1 on a miss

The instructions are the tool's predicted.instructions.issue over the
threads (every kernel launched as mathbench does, 4096 blocks of 256),
less the copy kernel's, beside smsp__sass_thread_inst_executed per call.

A miss is a difference the KNOWN table does not list; a listed difference
that is gone is a miss too (the table can only shrink), like compare.py's
KNOWN_MISSES.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SOURCE = os.path.join(HERE, "mathbench", "mathbench.cu")
DEFAULT_RECORD = os.path.join(ROOT, "test", "validation", "mathbench", "h200.json")
DEFAULT_TOOL = os.path.join(ROOT, "build", "bin", "cuda-roofline")

# Operations whose count is not the hardware's, with the reason
# (docs/counting.md, "Executed FLOPs"): (build, kernel) -> why.
KNOWN = {
    ("ieee", "f32_sincos"): "26 counted, 25 executed: cause not found yet",
    (
        "fast",
        "f32_sincos",
    ): "__sincosf: ptxas computes the multiply by 1/(2 pi) once for "
    "sin.approx and cos.approx, the table counts it for each",
    (
        "ieee",
        "f32_atan2",
    ): "the path depends on the arguments (29.6 on the measured mix)",
    (
        "fast",
        "f32_atan2",
    ): "the path depends on the arguments (31.6 on the measured mix)",
    ("ieee", "f32_pow"): "ptxas computes code for a select's other arm, as for tanhf",
    (
        "ieee",
        "f32_tanh",
    ): "ptxas computes the small-argument polynomial, which the select "
    "does not take for the ordinary argument",
    ("ieee", "f32_erf"): "ptxas computes code for a select's other arm, as for tanhf",
    ("fast", "f32_erf"): "ptxas computes code for a select's other arm, as for tanhf",
    ("fast", "f32_tan"): "__tanf: 3 counted, 2 executed: cause not found yet",
    ("ieee", "f64_exp"): "31 counted, 29 executed: cause not found yet",
    ("fast", "f64_exp"): "31 counted, 29 executed: cause not found yet",
    ("ieee", "f64_sin"): "22 counted, 24 executed: cause not found yet",
    ("fast", "f64_sin"): "22 counted, 24 executed: cause not found yet",
    ("ieee", "f64_pow"): "123 counted, 122 executed: cause not found yet",
    ("fast", "f64_pow"): "123 counted, 122 executed: cause not found yet",
}

# Operations whose thread instructions per call are not within one
# instruction or 10% of the hardware's (smsp__sass_thread_inst_executed),
# with the reason (docs/counting.md, "Instructions"): (build, kernel) -> why.
INSTRUCTIONS_METRIC = "smsp__sass_thread_inst_executed.sum"
EXPANDED = (
    "ptxas expands the instruction: the expansion table gives the FP and "
    "MUFU instructions it executes, not its integer, compare and branch ones"
)
FP64_LIBRARY = (
    "fp64 library code: the machine code executes more instructions than "
    "its PTX, cause not found yet"
)
KNOWN_INSTRUCTIONS = {
    ("ieee", "f32_div"): EXPANDED,
    ("ieee", "f32_rcp"): EXPANDED,
    ("ieee", "f32_fdividef"): EXPANDED,
    ("ieee", "f32_sqrt"): EXPANDED,
    ("ieee", "f32_rsqrt"): EXPANDED,
    ("ieee", "f32_one_over_sqrt"): EXPANDED,
    ("ieee", "f32_exp2"): EXPANDED,
    ("ieee", "f32_fast_exp"): EXPANDED,
    ("ieee", "f32_sigmoid"): EXPANDED + " (its division)",
    ("ieee", "f64_div"): EXPANDED,
    ("ieee", "f64_rcp"): EXPANDED,
    ("ieee", "f64_sqrt"): EXPANDED,
    ("ieee", "f64_rsqrt"): EXPANDED,
    ("fast", "f64_div"): EXPANDED,
    ("fast", "f64_rcp"): EXPANDED,
    ("fast", "f64_sqrt"): EXPANDED,
    ("fast", "f64_rsqrt"): EXPANDED,
    ("ieee", "f64_exp"): FP64_LIBRARY,
    ("ieee", "f64_log"): FP64_LIBRARY,
    ("ieee", "f64_sin"): FP64_LIBRARY,
    ("ieee", "f64_pow"): FP64_LIBRARY,
    ("fast", "f64_exp"): FP64_LIBRARY,
    ("fast", "f64_log"): FP64_LIBRARY,
    ("fast", "f64_sin"): FP64_LIBRARY,
    ("fast", "f64_pow"): FP64_LIBRARY,
    ("ieee", "f32_atan2"): "the path depends on the arguments",
    ("fast", "f32_atan2"): "the path depends on the arguments",
    ("ieee", "f32_tan"): "28 counted, 25 executed: cause not found yet",
    ("ieee", "f32_erf"): "24 counted, 30 executed: cause not found yet",
    ("fast", "f32_erf"): "24 counted, 32 executed: cause not found yet",
    ("ieee", "f32_sincos"): "46 counted, 33 executed: cause not found yet",
    ("fast", "f32_sincos"): "17 counted, 4 executed: cause not found yet",
}

# Kernels that are not one operation per thread (atomics, a float4 idiom).
SKIP = {"f32_shared_atomic_one", "f32_shared_atomic_lane", "f32_float4_three_lanes"}


THREADS = 1048576  # mathbench's default N: 4096 blocks of 256 threads


def launches(record):
    """--launch and --param options sizing every kernel as mathbench runs it:
    a launch through a table of function pointers is not one the tool can
    read."""
    data = json.load(open(record, encoding="utf-8"))
    names = set()
    for b in data["builds"].values():
        names.update(b["kernels"])
    opts = ["--param", "n=%d" % THREADS]
    for name in sorted(names - SKIP):
        opts.append("--launch=k_%s=%d/256" % (name, THREADS // 256))
    return opts


def analyze(tool, args, cwd=None):
    out = subprocess.run(
        [tool, "--format=json", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        sys.exit("mathbench_compare: %s failed: %s" % (tool, out.stderr[-2000:]))
    per_kernel = {}
    for k in json.loads(out.stdout)["kernels"]:
        fe = k["per_thread"].get("flops_executed", {})
        counts = {p: q.get("value") for p, q in fe.items()}
        issue = k.get("predicted", {}).get("instructions", {}).get("issue")
        counts["instructions"] = None if issue is None else issue / THREADS
        per_kernel[k["name"].removeprefix("k_")] = counts
    return per_kernel


def tool_counts(tool, record):
    """(build -> kernel -> precision -> FLOPs per thread, and "instructions"
    -> thread instructions per thread) for both builds."""
    sizes = launches(record)
    ieee = analyze(tool, [SOURCE, *sizes])
    with tempfile.TemporaryDirectory() as d:
        cmd = [
            "/usr/local/cuda/bin/nvcc",
            "-O3",
            "-arch=sm_90",
            "-use_fast_math",
            "-c",
            SOURCE,
            "-o",
            os.path.join(d, "mathbench.o"),
        ]
        with open(os.path.join(d, "compile_commands.json"), "w") as f:
            json.dump([{"directory": d, "file": SOURCE, "arguments": cmd}], f)
        fast = analyze(tool, ["-p", d, SOURCE, *sizes])
    return {"ieee": ieee, "fast": fast}


def rows(tool, record, instructions=False):
    """(build, kernel, measured, tool, known reason or None): FLOPs per call,
    or with instructions thread instructions per call."""
    data = json.load(open(record, encoding="utf-8"))
    counts = tool_counts(tool, record)
    known = KNOWN_INSTRUCTIONS if instructions else KNOWN
    out = []
    for build, b in data["builds"].items():
        base = counts[build].get("f32_copy", {})
        for name, k in b["kernels"].items():
            if name in SKIP or name.endswith("_copy"):
                continue
            prec = "fp64" if name.startswith("f64") else "fp32"
            if instructions:
                prec = "instructions"
                measured = k["per_thread_minus_copy"][INSTRUCTIONS_METRIC]
            else:
                measured = k[
                    "flops_fp64_per_call" if prec == "fp64" else "flops_fp32_per_call"
                ]
            mine = counts[build].get(name, {}).get(prec, 0)
            if mine is not None:
                mine -= base.get(prec, 0) or 0
            out.append((build, name, measured, mine, known.get((build, name))))
    return out


def same(measured, mine, instructions=False):
    if mine is None or measured is None:
        return False
    if instructions:
        # PTX is not SASS: within one instruction or a tenth of the count.
        return abs(measured - mine) <= max(1.0, 0.1 * measured) + 1e-9
    return abs(measured - mine) < 0.5


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("record", nargs="?", default=DEFAULT_RECORD)
    ap.add_argument("--tool", default=DEFAULT_TOOL)
    ap.add_argument("--check", action="store_true")
    ap.add_argument(
        "--instructions",
        action="store_true",
        help="compare thread instructions per call instead of FLOPs",
    )
    args = ap.parse_args(argv)
    misses = 0
    for build, name, measured, mine, known in rows(
        args.tool, args.record, args.instructions
    ):
        ok = same(measured, mine, args.instructions)
        status = "match" if ok else ("known: " + known if known else "MISS")
        if ok and known:
            status = "MISS: listed as known but matches (%s)" % known
        if status.startswith("MISS"):
            misses += 1
        print(
            "%-5s %-24s measured %-8g tool %-6s %s"
            % (
                build,
                name,
                measured,
                "unknown" if mine is None else "%g" % mine,
                status,
            )
        )
    print("mathbench_compare: %d miss(es)" % misses)
    return 1 if args.check and misses else 0


if __name__ == "__main__":
    sys.exit(main())
