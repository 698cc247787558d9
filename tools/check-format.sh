#!/usr/bin/env bash
# Checks that the project's own code is formatted: C++ under analysis/,
# plugin/, tools/ and test/unit/ with clang-format-22 (.clang-format, LLVM
# style), Python under tools/ and test/ with black. Kernels and lit inputs
# are left as written (their tests name line numbers).
#   tools/check-format.sh        report unformatted files, exit 1 if any
#   tools/check-format.sh --fix  format them in place
set -uo pipefail
cd "$(dirname "$0")/.."
clang_format="${CLANG_FORMAT:-clang-format-22}"
fix=0
[[ "${1:-}" == "--fix" ]] && fix=1

mapfile -t cxx < <(git ls-files 'analysis/*.h' 'analysis/*.cpp' \
  'plugin/*.h' 'plugin/*.cpp' 'tools/*.h' 'tools/*.cpp' \
  'test/unit/*.h' 'test/unit/*.cpp')
mapfile -t py < <(git ls-files 'tools/*.py' 'test/*.py')

status=0
if ((fix)); then
  "$clang_format" -i "${cxx[@]}" || status=1
  black -q "${py[@]}" || status=1
  exit $status
fi
if ! "$clang_format" --dry-run --Werror "${cxx[@]}" 2>/tmp/check-format.$$; then
  grep -o '^[^:]*\.\(h\|cpp\)' /tmp/check-format.$$ | sort -u |
    sed 's/^/check-format: not formatted (clang-format): /'
  status=1
fi
rm -f /tmp/check-format.$$
if ! black -q --check "${py[@]}" 2>/dev/null; then
  black --check "${py[@]}" 2>&1 | grep '^would reformat' |
    sed 's/^would reformat /check-format: not formatted (black): /'
  status=1
fi
((status == 0)) && echo "check-format: ${#cxx[@]} C++ and ${#py[@]} Python files formatted"
exit $status
