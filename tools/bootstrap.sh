#!/usr/bin/env bash
# Quick start, step 1: install what is missing (Debian 12 packages), build,
# and analyze a bundled kernel. Safe to re-run; it only installs what is
# absent and rebuilds incrementally.
set -euo pipefail
cd "$(dirname "$0")/.."

PKGS=(clang-22 libclang-22-dev llvm-22-dev llvm-22-tools clang-tidy-22
      libclang-rt-22-dev cmake ninja-build libgtest-dev python3 git pre-commit
      clang-format-22 black neovim emacs-nox elpa-eglot nodejs)
missing=()
for p in "${PKGS[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
if [ ! -x /usr/local/cuda/bin/nvcc ] && [ -z "${ROOFLINE_CUDA_PATH:-}" ]; then
  echo "bootstrap: warning: no CUDA toolkit at /usr/local/cuda" >&2
fi

cmake -S . -B build -G Ninja ${ROOFLINE_CUDA_PATH:+-DROOFLINE_CUDA_PATH=$ROOFLINE_CUDA_PATH}
cmake --build build
echo
build/bin/cuda-roofline kernels/elementwise/saxpy.cu --param n=16777216
