#!/usr/bin/env bash
# Usage: check-regressions.sh CUDA-ROOFLINE DIR
#
# Runs each saved fuzzer input in DIR (test/fuzz/regressions/; every file
# but README.md) through the
# command-line tool the way tools/fuzz/fuzz_analyzer.cpp runs it: the text
# after a "//--- .cuda-roofline.yaml" line becomes the file's config, the
# same --param sizes, and every output format. Each run must end as the tool
# promises: exit 0 or 1, or exit 2 with a "cuda-roofline:" message; never a
# signal, a sanitizer report, an LLVM fatal error or a hang (120 s).
# Prints "PASS <input>" or "FAIL <input>: <why>" per input and
# "N passed, N failed"; exits 1 if any failed.
set -uo pipefail
tool=$1 inputs=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
marker='//--- .cuda-roofline.yaml'
pass=0 fail=0
for input in "$inputs"/*; do
  [ -f "$input" ] || continue
  [ "$(basename "$input")" = README.md ] && continue
  name=$(basename "$input")
  dir="$work/$name.d"
  mkdir -p "$dir"
  # Split like the fuzz target: source before the marker line, config after.
  python3 - "$input" "$dir" "$marker" <<'PY'
import sys, pathlib
data = pathlib.Path(sys.argv[1]).read_bytes()
marker = (sys.argv[3] + "\n").encode()
src, sep, cfg = data.partition(marker)
pathlib.Path(sys.argv[2], "input.cu").write_bytes(src)
if sep:
    pathlib.Path(sys.argv[2], ".cuda-roofline.yaml").write_bytes(cfg)
PY
  why=""
  for fmt in text findings json sarif github rdjsonl markdown; do
    args=(--format="$fmt")
    [ "$fmt" = findings ] && args=(--findings-only)
    (cd "$dir" && timeout 120 "$tool" input.cu "${args[@]}" \
        --param n=4096 --param N=256 --param M=256 --param K=256) \
        >"$dir/out" 2>"$dir/err"
    rc=$?
    if grep -qE 'Sanitizer|runtime error:|LLVM ERROR|PLEASE submit a bug report|Stack dump:' "$dir/err"; then
      why="$fmt: crash report: $(grep -m1 -E 'Sanitizer|runtime error:|LLVM ERROR|Stack dump:' "$dir/err")"
    elif [ "$rc" -eq 124 ]; then
      why="$fmt: still running after 120 s"
    elif [ "$rc" -ge 128 ]; then
      why="$fmt: killed by signal $((rc - 128))"
    elif [ "$rc" -eq 2 ] && ! grep -q '^cuda-roofline: ' "$dir/err"; then
      why="$fmt: exit 2 without a cuda-roofline message"
    elif [ "$rc" -gt 2 ]; then
      why="$fmt: exit $rc"
    fi
    if [ -n "$why" ]; then
      tail -n 40 "$dir/err" | sed "s|^|  $name: |" >&2
      break
    fi
  done
  if [ -z "$why" ]; then
    echo "PASS $name"; pass=$((pass + 1))
  else
    echo "FAIL $name: $why"; fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
