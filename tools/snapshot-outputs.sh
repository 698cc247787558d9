#!/usr/bin/env bash
# Writes what every front-end says about every bundled kernel into DIR, so a
# refactoring can be shown to change no output: run it before and after, then
# `diff -r BEFORE AFTER`. Covers the CLI's six formats without and with sizes,
# clang-tidy with the module and clang++ with the plugin.
#   tools/snapshot-outputs.sh BUILD_DIR OUT_DIR
set -uo pipefail
build="$(cd "$1" && pwd)"
out="$2"
src="$(cd "$(dirname "$0")/.." && pwd)"
llvm=/usr/lib/llvm-22/bin
cuda="${ROOFLINE_CUDA_PATH:-/usr/local/cuda}"
sizes=(--param n=16777216 --param M=4096 --param N=4096 --param K=4096)
mkdir -p "$out"
cd "$src"
find kernels -name '*.cu' | LC_ALL=C sort | while read -r f; do
  base="$out/$(echo "$f" | tr / _)"
  for fmt in text json sarif github rdjsonl markdown; do
    "$build/bin/cuda-roofline" --format=$fmt "$f" >"$base.$fmt" 2>&1
    echo "exit $?" >>"$base.$fmt"
    "$build/bin/cuda-roofline" --format=$fmt "${sizes[@]}" "$f" >"$base.sized.$fmt" 2>&1
    echo "exit $?" >>"$base.sized.$fmt"
  done
  "$llvm/clang-tidy" --load="$build/lib/cuda-roofline-tidy.so" \
    --checks='-*,roofline-*' "$f" -- --cuda-path="$cuda" \
    --cuda-gpu-arch=sm_90 -x cuda >"$base.tidy" 2>&1
  echo "exit $?" >>"$base.tidy"
  "$llvm/clang++" -fsyntax-only -fplugin="$build/lib/cuda-roofline-plugin.so" \
    --cuda-path="$cuda" --cuda-gpu-arch=sm_90 -x cuda "$f" >"$base.plugin" 2>&1
  echo "exit $?" >>"$base.plugin"
done
