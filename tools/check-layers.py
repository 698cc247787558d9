#!/usr/bin/env python3
"""Checks the layering of the analysis library on its #include graph.

The layers are the folders of analysis/, lowest first in the order
analysis/CMakeLists.txt adds them (docs/design.md, "Layers"). A file may
include headers of its own layer and of lower ones, never of a higher one;
and each layer's CMakeLists.txt must list (DEPENDS Roofline<Layer>) exactly
the layers its files include. The build enforces the first (a layer's
include path holds only the layers below it); this names the offending
include and keeps the declared dependencies honest.

    tools/check-layers.py [REPO_ROOT]

Prints one line per violation and exits 1 if there is any.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_order(analysis):
    text = open(os.path.join(analysis, "CMakeLists.txt")).read()
    return re.findall(r"^add_subdirectory\((\w+)\)", text, re.M)


def declared_deps(analysis, layer, names):
    text = open(os.path.join(analysis, layer, "CMakeLists.txt")).read()
    deps = set()
    for m in re.finditer(r"DEPENDS([^)]*)\)", text):
        for word in m.group(1).split():
            for other in names:
                if word == "Roofline" + names[other]:
                    deps.add(other)
    return deps


def main():
    root = (
        sys.argv[1]
        if len(sys.argv) > 1
        else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    )
    analysis = os.path.join(root, "analysis")
    layers = layer_order(analysis)
    names = {l: l.capitalize() for l in layers}
    owner = {}
    for layer in layers:
        for f in os.listdir(os.path.join(analysis, layer)):
            if f.endswith(".h") or f.endswith(".h.in"):
                owner[f.replace(".h.in", ".h")] = layer
    problems = []
    for layer in layers:
        used = set()
        folder = os.path.join(analysis, layer)
        for f in sorted(os.listdir(folder)):
            if not f.endswith((".h", ".cpp", ".h.in")):
                continue
            text = open(os.path.join(folder, f)).read()
            for inc in INCLUDE.findall(text):
                other = owner.get(os.path.basename(inc))
                if other is None or other == layer:
                    continue
                used.add(other)
                if layers.index(other) > layers.index(layer):
                    problems.append(
                        "%s/%s includes %s of the higher layer %s"
                        % (layer, f, inc, other)
                    )
        declared = declared_deps(analysis, layer, names)
        for missing in sorted(used - declared):
            problems.append(
                "%s includes %s but its CMakeLists.txt does not "
                "list Roofline%s" % (layer, missing, names[missing])
            )
        for extra in sorted(declared - used):
            problems.append(
                "%s lists Roofline%s but includes none of its "
                "headers" % (layer, names[extra])
            )
    for p in problems:
        print("check-layers: " + p)
    if not problems:
        print(
            "check-layers: %d layers, no upward include, dependencies "
            "as declared" % len(layers)
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
