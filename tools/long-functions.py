#!/usr/bin/env python3
"""Lists the functions of the given C++ files longer than a limit.

    tools/long-functions.py [--max N] FILE_OR_DIR...

A directory stands for the .cpp and .h files under it.

A function is a body that opens with a '{' ending a line and closes at the
first line that is the same indentation's '}' (LLVM style, as
clang-format writes it); lambdas and class bodies inside count towards
their function. Prints 'FILE:LINE: NAME is N lines' for each over N
(default 120) and exits 1 if there is any.
"""
import os
import re
import sys

OPEN = re.compile(
    r"^(\s*)(?!(?:namespace|struct|class|enum|union|extern)\b)"
    r"([^;{}#/][^;{}]*\))\s*(?:const\s*)?(?:override\s*)?"
    r"(?:->\s*[^{]+)?\{\s*$"
)


def functions(path):
    lines = open(path, errors="replace").read().split("\n")
    i = 0
    while i < len(lines):
        m = OPEN.match(lines[i])
        # The signature may start on earlier lines: take the name from the
        # line that holds the '('.
        if m and not re.match(r"^\s*(if|for|while|switch|catch|else)\b", lines[i]):
            # The signature may span lines: walk back to the line where its
            # parentheses open, before a constructor's initializers.
            head = lines[i]
            j = i
            while (
                head.count("(") < head.count(")")
                or lines[j].strip().startswith((":", ","))
                or lines[j - 1].rstrip().endswith(",")
            ) and j > 0:
                j -= 1
                head = lines[j] + head
            indent = re.match(r"\s*", lines[j]).group(0)
            start = j
            name = re.findall(r"([~\w:]+)\s*\(", head)
            end = i + 1
            while (
                end < len(lines)
                and lines[end] != indent + "}"
                and not lines[end].startswith(indent + "};")
            ):
                end += 1
            yield (name[0] if name else "?"), start + 1, end - start + 1
            i = end + 1
            continue
        i += 1


def main(argv):
    limit = 120
    if len(argv) > 1 and argv[0] == "--max":
        limit = int(argv[1])
        argv = argv[2:]
    paths = []
    for arg in argv:
        if os.path.isdir(arg):
            for root, _, files in sorted(os.walk(arg)):
                paths += [
                    os.path.join(root, f)
                    for f in sorted(files)
                    if f.endswith((".cpp", ".h"))
                ]
        else:
            paths.append(arg)
    bad = 0
    for path in paths:
        for name, line, length in functions(path):
            if length > limit:
                print("%s:%d: %s is %d lines" % (path, line, name, length))
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
