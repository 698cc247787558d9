#!/usr/bin/env bash
# Usage: tools/fuzz/run-fuzz.sh [SECONDS] [LIBFUZZER-FLAG...]
#
# Builds the libFuzzer target (if needed) and fuzzes the whole analysis for
# SECONDS (default 120) of wall time, seeded with the bundled kernels
# (kernels/**/*.cu) and the saved crash inputs (test/fuzz/regressions/).
# Exits 0 when the time ran out without a report; otherwise non-zero, with
# the input that crashed (or timed out, or ran out of memory) saved under
# the work directory's artifacts/. docs/robustness.md has the details.
#
# Environment:
#   ROOFLINE_FUZZ_BUILD_DIR  build directory (default build-asan; configured
#                            with ROOFLINE_SANITIZE and ROOFLINE_FUZZ if it
#                            does not have them)
#   ROOFLINE_FUZZ_WORK_DIR   corpus, seeds and artifacts (default
#                            BUILD_DIR/fuzz; the corpus grows across runs)
#   CXX                      the clang to configure with (default clang++-22)
set -euo pipefail
cd "$(dirname "$0")/../.."

SECS=${1:-120}
[ $# -gt 0 ] && shift
case "$SECS" in
  ''|*[!0-9]*) echo "run-fuzz: SECONDS must be a whole number, got '$SECS'" >&2; exit 2 ;;
esac
BUILD=${ROOFLINE_FUZZ_BUILD_DIR:-build-asan}
WORK=${ROOFLINE_FUZZ_WORK_DIR:-$BUILD/fuzz}

# Configure when the directory has no fuzz target yet; otherwise an
# incremental build.
if ! grep -qs '^ROOFLINE_FUZZ:BOOL=ON' "$BUILD/CMakeCache.txt"; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_CXX_COMPILER="${CXX:-clang++-22}" \
    -DROOFLINE_SANITIZE=ON -DROOFLINE_FUZZ=ON \
    ${ROOFLINE_CUDA_PATH:+-DROOFLINE_CUDA_PATH=$ROOFLINE_CUDA_PATH}
fi
cmake --build "$BUILD" --target fuzz_analyzer

# Seeds are copied afresh each run; the corpus directory keeps what the
# fuzzer found interesting before.
rm -rf "$WORK/seeds"
mkdir -p "$WORK/corpus" "$WORK/seeds" "$WORK/artifacts"
while IFS= read -r -d '' f; do
  rel=${f#kernels/}
  cp "$f" "$WORK/seeds/${rel//\//_}"
done < <(find kernels -name '*.cu' -print0)
if [ -d test/fuzz/regressions ]; then
  find test/fuzz/regressions -type f ! -name '*.md' -exec cp {} "$WORK/seeds/" \;
fi
# Reports only: libFuzzer also writes slow-unit-* files, which are none.
reports() { find "$WORK/artifacts" -type f \( -name 'crash-*' -o -name 'leak-*' \
  -o -name 'timeout-*' -o -name 'oom-*' \) "$@"; }
before=$(reports | wc -l)

# The sanitizer options of the tests (cmake/Sanitizers.cmake writes them to
# the build directory), where the environment does not set them.
. "$BUILD/sanitizer-env.sh"

echo "run-fuzz: fuzzing for ${SECS}s ($(ls "$WORK/seeds" | wc -l) seeds, $(ls "$WORK/corpus" | wc -l) corpus inputs; work dir $WORK)"
set +e
"$BUILD/bin/fuzz_analyzer" "$WORK/corpus" "$WORK/seeds" \
  -dict=tools/fuzz/cuda.dict \
  -max_total_time="$SECS" -timeout=30 -rss_limit_mb=4096 -max_len=16384 \
  -artifact_prefix="$WORK/artifacts/" -print_final_stats=1 "$@"
rc=$?
set -e

after=$(reports | wc -l)
if [ "$rc" -ne 0 ] || [ "$after" -gt "$before" ]; then
  echo "run-fuzz: FAILED (exit $rc): the fuzzer reported a crash, a sanitizer report, a timeout (>30 s) or an out-of-memory (>4096 MB)" >&2
  reports -newer "$WORK/seeds" -print | sed 's/^/run-fuzz: input saved: /' >&2
  echo "run-fuzz: reproduce with $BUILD/bin/fuzz_analyzer INPUT; add it to test/fuzz/regressions/ (docs/robustness.md)" >&2
  exit 1
fi
echo "run-fuzz: no crash in ${SECS}s"
