#!/usr/bin/env bash
# Compiles every bundled kernel (kernels/**/*.cu) with nvcc, for sm_90 unless
# the file names its own architecture with a line `// compile-arch: sm_XX`
# (sm_80, sm_89, sm_90a, ...): such a file is compiled for exactly that target
# (-gencode arch=compute_XX,code=sm_XX: no PTX of another architecture, which
# CUDA 13's -arch=sm_90a would add and which cannot hold sm_90a-only
# instructions such as wgmma).
# Prints each file before compiling it and stops with a non-zero status at the
# first failure. nvcc is taken from $NVCC, else /usr/local/cuda/bin/nvcc.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"

if [[ ! -x "$nvcc" ]] && ! command -v "$nvcc" >/dev/null 2>&1; then
  echo "compile-all.sh: nvcc not found at '$nvcc' (set NVCC)" >&2
  exit 2
fi

count=0
while IFS= read -r -d '' file; do
  arch="$(sed -n 's|^// compile-arch: *\(sm_[0-9]*[a-z]*\) *$|\1|p' "$file" | head -n 1)"
  if [[ -n "$arch" ]]; then
    echo "$file ($arch)"
    flags=(-gencode "arch=compute_${arch#sm_},code=$arch")
  else
    echo "$file"
    flags=(-arch=sm_90)
  fi
  if ! "$nvcc" "${flags[@]}" -c -o /dev/null "$file"; then
    echo "compile-all.sh: FAILED: $file" >&2
    exit 1
  fi
  count=$((count + 1))
done < <(find "$here" -type f -name '*.cu' -print0 | LC_ALL=C sort -z)

if [[ $count -eq 0 ]]; then
  echo "compile-all.sh: no .cu files under $here" >&2
  exit 1
fi
echo "compile-all.sh: $count file(s) compiled"
