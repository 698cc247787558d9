#!/usr/bin/env bash
# Everything the hardware validation needs from one call on a lent GPU machine
# (docs/validation.md, "Measuring"): the records of every bundled kernel
# (tools/validate/run.py), the math-expansion counts (tools/validate/mathbench.py)
# and the SASS of the measured binaries, packed under $OUT for the trip back:
#
#   $OUT/env.txt        nvidia-smi, tool versions, the machine
#   $OUT/run.log        the orchestrator's log
#   $OUT/mathbench.log  the math benchmark's log
#   $OUT/records.tgz    records/<gpu-id>/*.json (unpack into test/validation/)
#   $OUT/sass.tgz       cuobjdump --dump-sass of the runner and the math benchmark
#   $OUT/metrics.txt    ncu --query-metrics: every metric this ncu knows on this GPU
#
# A runner built elsewhere (build/validate/runner, carried) is used when it
# starts here; otherwise run.py builds one. BUDGET (seconds, default 330)
# bounds run.py; the math benchmark follows it.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/roofline-device-out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
REC="$OUT/records"
T0=$SECONDS

{
  date -u
  uname -a
  nvidia-smi
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.limit --format=csv
  for t in nvcc ncu cuobjdump python3; do echo "$t: $(command -v $t)"; done
  nvcc --version
  ncu --version
} >"$OUT/env.txt" 2>&1
head -30 "$OUT/env.txt"
ncu --query-metrics >"$OUT/metrics.txt" 2>&1

RUNNER=()
if [ -x build/validate/runner ] && build/validate/runner --device >"$OUT/device.json" 2>&1; then
  RUNNER=(--runner build/validate/runner)
  echo "device-session: using the carried runner"
else
  echo "device-session: the carried runner does not start here; run.py builds one"
  cat "$OUT/device.json" 2>/dev/null | tail -5
fi

python3 tools/validate/run.py --out "$REC" "${RUNNER[@]}" --time-budget "${BUDGET:-330}" 2>&1 |
  tee "$OUT/run.log"
echo "device-session: run.py done at $((SECONDS - T0)) s"

timeout "${MATH_TIMEOUT:-150}" python3 tools/validate/mathbench.py --out "$REC" \
  >"$OUT/mathbench.log" 2>&1
echo "device-session: mathbench exit $? at $((SECONDS - T0)) s"
tail -80 "$OUT/mathbench.log"

mkdir -p "$OUT/sass"
for b in build/validate/runner build/validate/mathbench-ieee build/validate/mathbench-fast; do
  [ -f "$b" ] && cuobjdump --dump-sass "$b" >"$OUT/sass/$(basename "$b").sass" 2>&1
done
tar czf "$OUT/sass.tgz" -C "$OUT" sass && rm -rf "$OUT/sass"
tar czf "$OUT/records.tgz" -C "$OUT" records && rm -rf "$REC"
rm -f "$OUT/device.json"
ls -la "$OUT"
echo "device-session: done in $((SECONDS - T0)) s"
