#!/usr/bin/env python3
"""Lint throughput benchmark (not a unit test).

1. Batch mode: files per second of `cuda-roofline -p DB -j 1` and `-j 2
   --findings-only` over every bundled kernel (kernels/**/*.cu), DB being a
   compile_commands.json written to a temporary directory, with the sizes
   the bundled tests use (--param n=16777216 M=4096 N=4096 K=4096; a file
   ignores the names it does not have).
2. Clang plugin: the compile time it adds to
   `clang++ -x cuda --cuda-gpu-arch=sm_90 --cuda-path=CUDA
    -Wno-unknown-cuda-version -O2 -c FILE`, per file and in total, as the
   ratio (with plugin) / (without): median of REPEAT runs of each, the two
   runs of a repetition back to back. Wall time, and CPU time (user + system
   of the child processes), which other load on the machine disturbs less.

Prints a table and writes it to docs/benchmarks-lint.md (--output; `-` for
none), with the machine (nproc, CPU model, load average).

  tools/bench-lint.py [--build build] [--repeat 3] [--output FILE|-]
"""
import argparse
import glob
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import roofline_tools  # noqa: E402

ROOT = roofline_tools.ROOT
SIZES = roofline_tools.BENCH_SIZES


def run_timed(cmd, ok_codes=(0,)):
    """(wall seconds, CPU seconds of the process and its children)."""
    proc, elapsed, cpu = roofline_tools.run_timed(cmd)
    if proc.returncode not in ok_codes:
        sys.exit(
            "failed (exit %d): %s\n%s"
            % (proc.returncode, " ".join(cmd), proc.stderr.decode(errors="replace"))
        )
    return elapsed, cpu


def median_pair(samples):
    return (
        statistics.median(s[0] for s in samples),
        statistics.median(s[1] for s in samples),
    )


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument(
        "--output",
        default=os.path.join(ROOT, "docs", "benchmarks-lint.md"),
        help="Markdown file to write ('-': none)",
    )
    args = ap.parse_args()

    tool = os.path.join(args.build, "bin", "cuda-roofline")
    plugin = os.path.join(args.build, "lib", "cuda-roofline-plugin.so")
    for path in (tool, plugin, args.clang):
        if not os.path.exists(path):
            sys.exit("not found: %s" % path)
    files = sorted(
        glob.glob(os.path.join(ROOT, "kernels", "**", "*.cu"), recursive=True)
    )
    params = ["--param=%s=%d" % kv for kv in SIZES.items()]
    plugin_args = [
        "-fplugin=" + plugin,
        "-fplugin-arg-roofline-params="
        + ";".join("%s=%d" % kv for kv in SIZES.items()),
    ]
    load = os.getloadavg()

    tmp = tempfile.mkdtemp(prefix="bench-lint-")
    try:
        obj = os.path.join(tmp, "out.o")

        def compile_cmd(f):
            return [
                args.clang,
                "-x",
                "cuda",
                "--cuda-gpu-arch=sm_90",
                "--cuda-path=" + args.cuda_path,
                "-Wno-unknown-cuda-version",
                "-O2",
                "-c",
                f,
                "-o",
                obj,
            ]

        with open(os.path.join(tmp, "compile_commands.json"), "w") as db:
            json.dump(
                [
                    {"directory": ROOT, "file": f, "arguments": compile_cmd(f)}
                    for f in files
                ],
                db,
                indent=1,
            )

        # 1. Batch mode.
        batch = {}
        for jobs in (1, 2):
            cmd = [tool, "-p", tmp, "-j", str(jobs), "--findings-only"] + params
            wall, cpu = median_pair([run_timed(cmd) for _ in range(args.repeat)])
            batch[jobs] = (wall, cpu)
            print(
                "cuda-roofline -p DB -j %d: %d files in %.2f s, CPU %.2f s (medians of %d),"
                " %.2f files/s"
                % (jobs, len(files), wall, cpu, args.repeat, len(files) / wall),
                flush=True,
            )

        # 2. Plugin overhead.
        rows = []
        print(
            "%-36s %8s %9s %6s %9s"
            % ("file", "clang s", "+plugin s", "ratio", "CPU ratio")
        )
        for f in files:
            base, with_plugin = [], []
            for _ in range(args.repeat):
                base.append(run_timed(compile_cmd(f)))
                with_plugin.append(run_timed(compile_cmd(f) + plugin_args))
            (b, bc), (p, pc) = median_pair(base), median_pair(with_plugin)
            rows.append((os.path.relpath(f, ROOT), b, p, bc, pc))
            print(
                "%-36s %8.3f %9.3f %6.2f %9.2f" % (rows[-1][0], b, p, p / b, pc / bc),
                flush=True,
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    load_end = os.getloadavg()
    total_b = sum(r[1] for r in rows)
    total_p = sum(r[2] for r in rows)
    cpu_b = sum(r[3] for r in rows)
    cpu_p = sum(r[4] for r in rows)
    print(
        "%-36s %8.3f %9.3f %6.2f %9.2f"
        % ("total", total_b, total_p, total_p / total_b, cpu_p / cpu_b)
    )

    if args.output == "-":
        return
    n = len(files)
    lines = [
        "# Lint benchmarks",
        "",
        "Generated by `tools/bench-lint.py` on %s; do not edit by hand, run the"
        % time.strftime("%Y-%m-%d"),
        "script again. Timings depend on the machine and on what else runs on it.",
        "",
        "Machine: %d CPUs (`nproc`), %s; load average (1, 5, 15 min) %.2f %.2f %.2f"
        % (
            os.cpu_count()
            if not hasattr(os, "sched_getaffinity")
            else len(os.sched_getaffinity(0)),
            cpu_model(),
            *load,
        ),
        "when the run started, %.2f %.2f %.2f when it ended. Other processes on the machine"
        % load_end,
        "slow both sides of a comparison, not always equally: rerun on an idle machine",
        "for numbers to quote.",
        "",
        "## Batch mode",
        "",
        "`cuda-roofline -p DB -j N --findings-only %s` over the %d bundled kernel"
        % (" ".join(params), n),
        "files (`kernels/**/*.cu`), DB a `compile_commands.json` with one clang entry per",
        "file; wall time and CPU time (user + system), medians of %d runs."
        % args.repeat,
        "",
        "| -j | wall s | files/s | speed-up | CPU s |",
        "|---|---|---|---|---|",
    ]
    for jobs in (1, 2):
        lines.append(
            "| %d | %.2f | %.2f | %.2fx | %.2f |"
            % (
                jobs,
                batch[jobs][0],
                n / batch[jobs][0],
                batch[1][0] / batch[jobs][0],
                batch[jobs][1],
            )
        )
    lines += [
        "",
        "## Clang plugin",
        "",
        "Compile time of `clang++ -x cuda --cuda-gpu-arch=sm_90 --cuda-path=%s"
        % args.cuda_path,
        "-Wno-unknown-cuda-version -O2 -c FILE` without and with",
        "`-fplugin=build/lib/cuda-roofline-plugin.so -fplugin-arg-roofline-params='%s'`"
        % ";".join("%s=%d" % kv for kv in SIZES.items()),
        "(host and device compile, ptxas and fatbinary included): wall time, median of %d"
        % args.repeat,
        "runs per file, totals summed over the files; the ratio is with / without. The",
        "CPU ratio (user + system time of clang and the tools it runs) is the steadier",
        "figure on a busy machine.",
        "",
        "| file | clang s | with plugin s | ratio | CPU ratio |",
        "|---|---|---|---|---|",
    ]
    for name, b, p, bc, pc in rows:
        lines.append(
            "| %s | %.3f | %.3f | %.2f | %.2f |" % (name, b, p, p / b, pc / bc)
        )
    lines.append(
        "| **total** | **%.3f** | **%.3f** | **%.2f** | **%.2f** |"
        % (total_b, total_p, total_p / total_b, cpu_p / cpu_b)
    )
    lines.append("")
    with open(args.output, "w") as out:
        out.write("\n".join(lines))
    print("wrote " + os.path.relpath(args.output, os.getcwd()))


if __name__ == "__main__":
    main()
