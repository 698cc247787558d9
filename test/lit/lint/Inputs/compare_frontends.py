#!/usr/bin/env python3
"""Runs the three cuda-roofline front-ends on CUDA files and compares their
findings.

  compare_frontends.py --cli CLI --clang-tidy TIDY --tidy-module SO
      --clangxx CLANGXX --plugin SO --cuda-path DIR [--plugin-arch sm_NN ...]
      [--label-root DIR] [--summaries] [--tidy-arch sm_NN]
      FILE PARAMS [FILE PARAMS ...]

PARAMS is "M=4096;N=4096" (empty for none). For each FILE it runs

  CLI     cuda-roofline FILE --param M=4096 --param N=4096
  tidy    clang-tidy --load=SO --checks='-*,roofline-*'
              --config="{CheckOptions: {roofline.Params: 'PARAMS'}}" FILE
              -- --cuda-gpu-arch=TIDY_ARCH --cuda-path=DIR -Wno-unknown-cuda-version
  plugin  clang++ -x cuda --cuda-gpu-arch=ARCH... --cuda-path=DIR
              -Wno-unknown-cuda-version -fplugin=SO
              -fplugin-arg-roofline-params=PARAMS -c FILE -o TMP.o

and extracts every warning as (file, line, column, check, message, notes)
(file made absolute; the plugin's " [-Wbackend-plugin]" dropped; notes are
the "note:" lines that follow the warning). It prints

  SAME <label> <n> findings

when the three sets are identical and every finding appears exactly once in
each output (the plugin compiles one device job per --plugin-arch, and must
still report once), and otherwise a "DIFFER" / "DUPLICATE" report with the
differences, exiting 1. A front-end that fails (non-zero exit, crash) is
reported as "FAILED" and also exits 1.

With --summaries the lint front-ends print the kernel summary too
(roofline.KernelSummary: true, -fplugin-arg-roofline-kernel-summary=true),
and the kernel summaries -- (file, line, column, message): each launch's
speed of light, bound and intensity range, or the swept verdict -- must be
the same set as well: "SAME <label> <n> findings, <m> summaries". Sets,
not counts: clang-tidy prints a diagnostic repeated at one place once, so
launches whose summaries read alike (the block sizes of a benchmark loop)
are one summary there.
"""

import argparse
import collections
import os
import re
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # No __pycache__ in the source tree.
sys.path.insert(
    0,
    os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "tools"
    ),
)
import roofline_tools  # noqa: E402

WARNING = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): warning: (?P<msg>.*) "
    r"\[(?P<check>roofline-[A-Za-z0-9_.-]+)\]$"
)
NOTE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): note: (?P<msg>.*)$")
PLUGIN_SUFFIX = " [-Wbackend-plugin]"
DIAGNOSTIC = re.compile(r"^.+?:\d+:\d+: [a-z]+: ")
GENERATED = re.compile(r"^\d+ (warning|error)s? generated")
SUMMARY = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (note|remark): "
    r"(?P<msg>kernel .*) \[roofline-kernel-summary\]$"
)
REMARK_SUFFIX = " [-Rbackend-plugin]"


def summaries(text, cwd):
    """The kernel summaries of a diagnostic stream, as a set."""
    found = set()
    for raw in text.splitlines():
        line = raw.rstrip("\n")
        if line.endswith(REMARK_SUFFIX):
            line = line[: -len(REMARK_SUFFIX)]
        m = SUMMARY.match(line)
        if m:
            found.add(
                (
                    os.path.normpath(os.path.join(cwd, m.group("file"))),
                    int(m.group("line")),
                    int(m.group("col")),
                    m.group("msg"),
                )
            )
    return found


def parse(text, cwd):
    """The findings of a diagnostic stream, in order (duplicates kept)."""
    findings = []
    current = None

    def flush():
        if current is not None:
            findings.append(
                (
                    current[0],
                    current[1],
                    current[2],
                    current[3],
                    current[4],
                    tuple(current[5]),
                )
            )

    for raw in text.splitlines():
        line = raw.rstrip("\n")
        if line.endswith(PLUGIN_SUFFIX):
            line = line[: -len(PLUGIN_SUFFIX)]
        m = WARNING.match(line)
        if m:
            flush()
            path = os.path.normpath(os.path.join(cwd, m.group("file")))
            current = [
                path,
                int(m.group("line")),
                int(m.group("col")),
                m.group("check"),
                m.group("msg"),
                [],
            ]
            continue
        n = NOTE.match(line)
        if n:
            if n.group("msg").endswith("[roofline-kernel-summary]"):
                # The CLI's kernel summary: not a warning's note.
                flush()
                current = None
                continue
            if current is not None:
                current[5].append(
                    (int(n.group("line")), int(n.group("col")), n.group("msg"))
                )
            continue
        if not DIAGNOSTIC.match(line) and not GENERATED.match(line):
            # Source snippet (a kernel's own line is not indented), caret,
            # summary table.
            continue
        # Another diagnostic, or "N warnings generated", ends the finding.
        flush()
        current = None
    flush()
    return findings


def run(cmd, cwd):
    p = roofline_tools.run(cmd, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--clang-tidy", required=True)
    ap.add_argument("--tidy-module", required=True)
    ap.add_argument("--clangxx", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--cuda-path", required=True)
    ap.add_argument("--plugin-arch", action="append", default=[])
    ap.add_argument(
        "--label-root", default=None, help="labels are FILE relative to this directory"
    )
    ap.add_argument(
        "--summaries", action="store_true", help="also compare the kernel summaries"
    )
    ap.add_argument(
        "--tidy-arch",
        default="sm_90",
        help="the --cuda-gpu-arch of clang-tidy's compile command (default sm_90)",
    )
    ap.add_argument("cases", nargs="+")
    a = ap.parse_args()
    if len(a.cases) % 2:
        ap.error("expected FILE PARAMS pairs")
    archs = a.plugin_arch or ["sm_90"]

    ok = True
    scratch = tempfile.mkdtemp(prefix="compare_frontends.")
    cwd = os.getcwd()
    for i in range(0, len(a.cases), 2):
        path, params = os.path.abspath(a.cases[i]), a.cases[i + 1]
        label = os.path.basename(path)
        if a.label_root:
            rel = os.path.relpath(path, a.label_root)
            if not rel.startswith(".."):
                label = rel
        plist = [p for p in params.split(";") if p]

        cli = [a.cli, path] + [x for p in plist for x in ("--param", p)]
        tidy = [
            a.clang_tidy,
            "--load=" + a.tidy_module,
            "--checks=-*,roofline-*",
            "--config={CheckOptions: {roofline.Params: '%s'%s}}"
            % (params, ", roofline.KernelSummary: true" if a.summaries else ""),
            path,
            "--",
            "--cuda-gpu-arch=" + a.tidy_arch,
            "--cuda-path=" + a.cuda_path,
            "-Wno-unknown-cuda-version",
        ]
        plugin = (
            [a.clangxx, "-x", "cuda"]
            + ["--cuda-gpu-arch=" + x for x in archs]
            + [
                "--cuda-path=" + a.cuda_path,
                "-Wno-unknown-cuda-version",
                "-fplugin=" + a.plugin,
            ]
            + (["-fplugin-arg-roofline-params=" + params] if params else [])
            + (["-fplugin-arg-roofline-kernel-summary=true"] if a.summaries else [])
            + ["-c", path, "-o", os.path.join(scratch, "out%d.o" % i)]
        )

        outputs, kernels = {}, {}
        for name, cmd, stream in (
            ("cli", cli, "out"),
            ("tidy", tidy, "out"),
            ("plugin", plugin, "err"),
        ):
            rc, out, err = run(cmd, cwd)
            if rc != 0:
                ok = False
                print(
                    "FAILED %s %s: exit %d\n  command: %s\n%s%s"
                    % (label, name, rc, " ".join(cmd), out, err)
                )
                outputs[name] = None
                continue
            outputs[name] = parse(out if stream == "out" else err, cwd)
            kernels[name] = summaries(out if stream == "out" else err, cwd)
        if any(v is None for v in outputs.values()):
            continue

        same = True
        for name, found in outputs.items():
            counts = collections.Counter(found)
            for f, c in sorted(counts.items()):
                if c != 1:
                    same = False
                    print(
                        "DUPLICATE %s %s: %d times: %s:%d:%d: %s [%s]"
                        % (label, name, c, f[0], f[1], f[2], f[4], f[3])
                    )
        sets = {name: set(found) for name, found in outputs.items()}
        for name in ("tidy", "plugin"):
            if sets[name] != sets["cli"]:
                same = False
                print("DIFFER %s: %s vs cli" % (label, name))
                for f in sorted(sets["cli"] - sets[name]):
                    print(
                        "  only in cli:    %s:%d:%d: %s [%s] notes=%r"
                        % (f[0], f[1], f[2], f[4], f[3], f[5])
                    )
                for f in sorted(sets[name] - sets["cli"]):
                    print(
                        "  only in %-7s %s:%d:%d: %s [%s] notes=%r"
                        % (name + ":", f[0], f[1], f[2], f[4], f[3], f[5])
                    )
        if a.summaries:
            for name in ("tidy", "plugin"):
                if kernels[name] != kernels["cli"]:
                    same = False
                    print("DIFFER %s: %s summaries vs cli" % (label, name))
                    for k in sorted(kernels["cli"] - kernels[name]):
                        print("  only in cli:    %s:%d:%d: %s" % k)
                    for k in sorted(kernels[name] - kernels["cli"]):
                        print("  only in %-7s %s:%d:%d: %s" % ((name + ":",) + k))
        if same and a.summaries:
            print(
                "SAME %s %d findings, %d summaries"
                % (label, len(sets["cli"]), len(kernels["cli"]))
            )
        elif same:
            print("SAME %s %d findings" % (label, len(sets["cli"])))
        else:
            ok = False
    shutil.rmtree(scratch, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
