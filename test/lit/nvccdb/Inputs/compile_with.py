#!/usr/bin/env python3
"""Input of nvccdb/cmake-project.test: compiles FILE as a build would from
an exported compile_commands.json, with its compiler replaced by CLANGXX
(the test's, which may be a sanitizer wrapper) and EXTRA arguments added
(the plugin), writing no object file (-c and -o dropped, -fsyntax-only).

  compile_with.py DB_DIR FILE CLANGXX [EXTRA...]

Exits with the compiler's status; its output passes through."""
import json
import os
import subprocess
import sys


def main():
    db_dir, file, clangxx, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    with open(os.path.join(db_dir, "compile_commands.json")) as f:
        entries = json.load(f)
    entry = next((e for e in entries if e["file"] == file), None)
    if entry is None:
        sys.exit("compile_with.py: no entry for " + file)
    args = [clangxx]
    rest = entry["arguments"][1:]
    i = 0
    while i < len(rest):
        if rest[i] == "-o":
            i += 2
            continue
        if rest[i] != "-c":
            args.append(rest[i])
        i += 1
    args += ["-fsyntax-only"] + extra
    sys.exit(subprocess.run(args, cwd=entry["directory"]).returncode)


if __name__ == "__main__":
    main()
