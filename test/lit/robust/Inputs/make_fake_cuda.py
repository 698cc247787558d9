#!/usr/bin/env python3
"""usage: make_fake_cuda.py KIND DIR CUDA: builds DIR, a stand-in for the
CUDA toolkit at CUDA, made of symbolic links into it:

  headers-only  DIR/include only (what a --cuda-path pointing at
                CUDA/targets/<arch>-linux holds): no bin/, no nvvm/;
  old-version   a whole toolkit whose include/cuda.h says CUDA_VERSION 7000
                (CUDA 7.0, too old for any architecture clang compiles for).
"""
import os
import re
import sys

kind, d, cuda = sys.argv[1], sys.argv[2], os.path.realpath(sys.argv[3])
os.makedirs(d)
if kind == "headers-only":
    os.symlink(os.path.join(cuda, "include"), os.path.join(d, "include"))
elif kind == "old-version":
    for entry in os.listdir(cuda):
        if entry != "include":
            os.symlink(os.path.join(cuda, entry), os.path.join(d, entry))
    inc = os.path.join(d, "include")
    os.mkdir(inc)
    for entry in os.listdir(os.path.join(cuda, "include")):
        if entry != "cuda.h":
            os.symlink(os.path.join(cuda, "include", entry), os.path.join(inc, entry))
    with open(os.path.join(cuda, "include", "cuda.h")) as f:
        text, n = re.subn(
            r"#define CUDA_VERSION \d+", "#define CUDA_VERSION 7000", f.read()
        )
    if n != 1:
        sys.exit(f"{cuda}/include/cuda.h: no '#define CUDA_VERSION'")
    with open(os.path.join(inc, "cuda.h"), "w") as f:
        f.write(text)
else:
    sys.exit(f"unknown kind {kind}")
