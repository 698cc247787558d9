"""What the repository's Python scripts share: running cuda-roofline (or
another command) and reading its JSON report, timing a command, and the
number formats of the generated documents.

A script imports it with this folder on its path, found from the script's
own location (tools/X.py: its folder; tools/validate/X.py: "..";
test/lit/DIR/Inputs/X.py: "../../../../tools"):

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import roofline_tools
"""
import json
import os
import resource
import subprocess
import time

# The repository.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# --------------------------------------------------------------------------
# Running commands
# --------------------------------------------------------------------------


# The sizes the benchmarks and the bundled-kernel checks analyze at (the
# lint benchmark's, the speed benchmark's, cache/bounds.test's).
BENCH_SIZES = {"n": 16777216, "M": 4096, "N": 4096, "K": 4096, "w": 4096, "h": 4096}
BENCH_PARAMS = [
    a for k, v in BENCH_SIZES.items() for a in ("--param", "%s=%d" % (k, v))
]


def run(cmd, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw):
    """Runs CMD with stdout and stderr captured, as text unless TEXT is false
    (stderr=subprocess.STDOUT folds it into stdout, None leaves it on the
    terminal). Other keywords (cwd, env, timeout, check, ...) go to
    subprocess.run, and so do its exceptions: OSError when CMD cannot start,
    subprocess.TimeoutExpired past the timeout."""
    return subprocess.run(
        cmd, stdout=stdout, stderr=stderr, universal_newlines=text, **kw
    )


def run_json(cmd, **kw):
    """run(CMD, **KW) with its stdout read as JSON, as `cuda-roofline
    --format=json` prints it: (the CompletedProcess, the document). The
    document is None when CMD exits non-zero; ValueError when a command that
    succeeded did not print JSON."""
    proc = run(cmd, **kw)
    return proc, (json.loads(proc.stdout) if proc.returncode == 0 else None)


def _children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_timed(cmd):
    """Runs CMD, its stdout discarded and its stderr kept (bytes): (the
    CompletedProcess, wall seconds, CPU seconds -- user + system -- of the
    child processes that ended meanwhile)."""
    cpu0, start = _children_cpu(), time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return proc, time.perf_counter() - start, _children_cpu() - cpu0


# --------------------------------------------------------------------------
# Number formats
# --------------------------------------------------------------------------

SI_PREFIXES = ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))


def si(x, unit="", digits=3, largest="P"):
    """X with the largest SI prefix (up to LARGEST) that it is at least 1
    of, to DIGITS significant digits, then UNIT: "1.23 G", "4.5 TB",
    "812 B"; "12.5" without a prefix or a unit."""
    names = [p for _, p in SI_PREFIXES]
    for div, prefix in SI_PREFIXES[names.index(largest) :]:
        if abs(x) >= div:
            return "%.*g %s%s" % (digits, x / div, prefix, unit)
    return "%.*g %s" % (digits, x, unit) if unit else "%.*g" % (digits, x)


def seconds(s, sec="%.4g s", ms="%.4g ms", us="%.4g µs"):
    """A duration in the largest of s, ms and µs that it is at least 1 of,
    each unit with its own format (sec=None: never in seconds)."""
    if sec is not None and s >= 1:
        return sec % s
    if s >= 1e-3:
        return ms % (s * 1e3)
    return us % (s * 1e6)
