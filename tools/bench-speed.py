#!/usr/bin/env python3
"""Analysis speed benchmark (not a unit test).

For every bundled kernel file, times `cuda-roofline` (analysis at realistic
sizes) against `clang++ -x cuda --cuda-device-only -O3 -S -emit-llvm` on the
same file, and prints the ratio. The goal is a ratio of at most 1.5.

  tools/bench-speed.py [--build build] [--repeat 5] [FILE...]
"""
import argparse
import glob
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PARAMS = ["--param", "n=16777216", "--param", "M=4096", "--param", "N=4096",
          "--param", "K=4096"]


def timed(cmd, repeat):
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
        samples.append(time.perf_counter() - start)
        if proc.returncode != 0:
            sys.exit("failed: %s\n%s" % (" ".join(cmd), proc.stderr.decode()))
    return statistics.median(samples)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    files = args.files or sorted(glob.glob(os.path.join(ROOT, "kernels", "**", "*.cu"),
                                           recursive=True))
    tool = os.path.join(args.build, "bin", "cuda-roofline")
    print("%-40s %10s %10s %7s" % ("file", "analyze s", "clang s", "ratio"))
    worst = 0.0
    for f in files:
        ours = timed([tool, f] + PARAMS, args.repeat)
        ref = timed([args.clang, "-x", "cuda", "--cuda-gpu-arch=sm_90",
                     "--cuda-path=" + args.cuda_path, "-Wno-unknown-cuda-version",
                     "--cuda-device-only", "-O3", "-S", "-emit-llvm", "-o", os.devnull, f],
                    args.repeat)
        ratio = ours / ref
        worst = max(worst, ratio)
        print("%-40s %10.3f %10.3f %7.2f" % (os.path.relpath(f, ROOT), ours, ref, ratio))
    print("worst ratio %.2f (goal <= 1.5)" % worst)


if __name__ == "__main__":
    main()
