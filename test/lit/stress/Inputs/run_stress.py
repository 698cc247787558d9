#!/usr/bin/env python3
"""Stress driver for cuda-roofline (test/lit/stress).

Usage: run_stress.py [--timeout S] [--expect-exit N] [--text] TOOL FILE [TOOL-ARGS...]

Runs `TOOL FILE --format=json TOOL-ARGS` under a wall-clock bound and prints, for
FileCheck:

  run: exit 0, elapsed 0.42 s (limit 60 s): within bound
  kernels: N
  kernel NAME: grid GXxGYxGZ block BXxBYxBZ smem S active T unknowns K
    launch unresolved: WHY                        (only when the launch has no sizes)
    thread: flops F {fp32:F,...} div D load_bytes L store_bytes S atomics A/BB
            shared_bytes H shared_atomics X shuffles W          (one line)
    block:  (the same for block (0,0,0))
    grid:   (the same for the grid totals)
    unknown FILE:LINE:COL: REASON                 (one per unknowns[] entry)
  uninstantiated NAME line L                      (kernel templates never instantiated)
  stress: OK | stress: FAIL (one 'error:' line per broken invariant above it)

thread = per_thread, block = per_block (block (0,0,0)), grid = totals.
active = totals.threads.active (threads reaching a global store or atomic).
"?" stands for null (unknown), "-" for a key the report leaves out (zero, per
the schema). Bytes are requested global bytes; shared_bytes = loads + stores;
div = divisions (also counted in flops).
Invariants checked (each failure prints 'error: ...' and makes the exit status 1):
  - the tool ends within the bound and is not killed by a signal;
  - its exit status is 0 or 2 (or exactly --expect-exit);
  - on exit 0, stdout is one JSON document with a "kernels" list;
  - every unknowns[] entry has a reason, a file and a line > 0;
  - a kernel with a null total names at least one unknown (no silent null);
  - per-block counts never exceed the grid totals.
--text runs the text format instead and prints its stdout and stderr, each
line prefixed, after the run line (for the "no kernels" and error messages).
On a non-zero exit (JSON mode) the tail of stderr is printed instead of kernels.
"""
import json
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # No __pycache__ in the source tree.
sys.path.insert(
    0,
    os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "tools"
    ),
)
import roofline_tools  # noqa: E402

COUNTERS = [
    "flops_total",
    "global_load_bytes",
    "global_store_bytes",
    "atomics",
    "atomic_bytes",
    "shared_bytes",
    "shared_atomics",
    "shuffles",
]


def fmt(v):
    if v == "-":
        return v
    if v is None:
        return "?"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def main(argv):
    timeout = 60.0
    expect = None
    text = False
    while argv and argv[0].startswith("--"):
        opt = argv.pop(0)
        if opt == "--timeout":
            timeout = float(argv.pop(0))
        elif opt == "--expect-exit":
            expect = int(argv.pop(0))
        elif opt == "--text":
            text = True
        else:
            print("usage error: unknown option " + opt)
            return 2
    if len(argv) < 2:
        print(__doc__)
        return 2
    tool, path, extra = argv[0], argv[1], argv[2:]
    cmd = [tool, path] + ([] if text else ["--format=json"]) + extra
    errors = []
    start = time.monotonic()
    try:
        proc = roofline_tools.run(cmd, text=False, timeout=timeout)
    except subprocess.TimeoutExpired:
        elapsed = time.monotonic() - start
        print(
            "run: TIMEOUT after %.2f s (limit %g s): %s"
            % (elapsed, timeout, " ".join(cmd))
        )
        print("error: the tool did not finish within %g s" % timeout)
        print("stress: FAIL")
        return 1
    elapsed = time.monotonic() - start
    rc = proc.returncode
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    bound = "within bound" if elapsed <= timeout else "OVER BOUND"
    print(
        "run: exit %d, elapsed %.2f s (limit %g s): %s" % (rc, elapsed, timeout, bound)
    )
    if rc < 0:
        errors.append("killed by signal %d" % -rc)
    elif expect is not None and rc != expect:
        errors.append("exit status %d, expected %d" % (rc, expect))
    elif expect is None and rc not in (0, 2):
        errors.append("exit status %d, expected 0 or 2" % rc)
    if text:
        for line in out.splitlines():
            print("stdout: " + line)
        for line in err.splitlines():
            print("stderr: " + line)
    elif rc == 0:
        doc = {}
        try:
            doc = json.loads(out)
            kernels = doc["kernels"]
        except (ValueError, KeyError, TypeError) as e:
            errors.append("stdout is not a JSON report: %s" % e)
            kernels = []
        print("kernels: %d" % len(kernels))
        for k in kernels:
            report(k, errors)
        for t in doc.get("uninstantiated_templates") or []:
            print("uninstantiated %s line %s" % (t.get("name"), t.get("line")))
    elif rc < 0:
        for line in err[-6000:].splitlines():
            print("stderr: " + line)
    else:
        for line in err.splitlines()[-5:]:
            print("stderr: " + line)
    for e in errors:
        print("error: " + e)
    print("stress: " + ("FAIL" if errors else "OK"))
    return 1 if errors else 0


def level(counters, plain):
    """One line of counts: plain values (totals) or {expr, value} (per thread/block)."""

    def get(c):
        if c not in counters:
            return "-"
        v = counters[c]
        if not plain:
            v = v.get("value") if isinstance(v, dict) else v
        return v

    flops = counters.get("flops") or {}
    prec = ",".join(
        "%s:%s" % (p, fmt(v if plain else (v or {}).get("value")))
        for p, v in sorted(flops.items())
    )
    return (
        "flops %s {%s} div %s load_bytes %s store_bytes %s atomics %s/%sB shared_bytes %s "
        "shared_atomics %s shuffles %s"
        % (
            fmt(get("flops_total")),
            prec,
            fmt(get("divisions")),
            fmt(get("global_load_bytes")),
            fmt(get("global_store_bytes")),
            fmt(get("atomics")),
            fmt(get("atomic_bytes")),
            fmt(get("shared_bytes")),
            fmt(get("shared_atomics")),
            fmt(get("shuffles")),
        )
    )


def report(k, errors):
    name = k.get("name")
    tot = k.get("totals") or {}
    pt = k.get("per_thread") or {}
    pb = k.get("per_block") or {}
    launch = k.get("launch") or {}
    unknowns = k.get("unknowns") or []
    threads = tot.get("threads") or {}
    print(
        "kernel %s: grid %s block %s smem %s active %s unknowns %d"
        % (
            name,
            fmt_dim(launch.get("grid")),
            fmt_dim(launch.get("block")),
            fmt(launch.get("smem")),
            fmt(threads.get("active")),
            len(unknowns),
        )
    )
    if launch.get("unresolved"):
        print("  launch unresolved: %s" % launch.get("unresolved"))
    print("  thread: " + level(pt, False))
    print("  block:  " + level(pb, False))
    print("  grid:   " + level(tot, True))
    for u in unknowns:
        f = u.get("file")
        line = u.get("line")
        reason = u.get("reason")
        print(
            "  unknown %s:%s:%s: %s"
            % (os.path.basename(f) if f else "<no file>", line, u.get("column"), reason)
        )
        if not reason:
            errors.append("kernel %s: unknown without a reason" % name)
        if not f or not isinstance(line, int) or line <= 0:
            errors.append(
                "kernel %s: unknown without a source location: %r" % (name, u)
            )
    has_launch = launch.get("grid") is not None and launch.get("block") is not None
    if has_launch and not unknowns:
        for c in COUNTERS + ["global_loads", "global_stores", "divisions"]:
            if c in tot and tot[c] is None:
                errors.append(
                    "kernel %s: totals.%s is null but unknowns[] is empty" % (name, c)
                )
    for c in COUNTERS:
        b = (pb.get(c) or {}).get("value") if isinstance(pb.get(c), dict) else None
        t = tot.get(c)
        if isinstance(b, (int, float)) and isinstance(t, (int, float)) and b > t:
            errors.append(
                "kernel %s: per_block.%s = %s exceeds totals %s" % (name, c, b, t)
            )


def fmt_dim(d):
    if d is None:
        return "none"
    return "x".join(str(x) for x in d)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
