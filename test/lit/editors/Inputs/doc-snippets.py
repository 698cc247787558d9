#!/usr/bin/env python3
"""Checks the editor set-ups docs/editors.md shows, as far as they can be
checked without the editor: each parses in its own syntax, names the server
program and the settings the server and the VS Code extension read, and
names a GPU the tool knows.

Usage: doc-snippets.py EDITORS_MD PACKAGE_JSON GPU_LIST
(GPU_LIST: the output of `cuda-roofline --list-gpus`.)
"""

import json
import re
import sys
import tomllib


def blocks(text, heading, lang):
    """The fenced `lang` blocks of the section whose heading starts `heading`."""
    section = text.split("\n" + heading, 1)
    if len(section) < 2:
        sys.exit(f"doc-snippets: no section '{heading}'")
    body = re.split(r"\n#{2,3} ", section[1], maxsplit=1)[0]
    found = re.findall(r"```" + lang + r"\n(.*?)```", body, re.S)
    if not found:
        sys.exit(f"doc-snippets: no {lang} block under '{heading}'")
    return found


def main():
    doc = open(sys.argv[1]).read()
    settings = json.load(open(sys.argv[2]))["contributes"]["configuration"]
    known_settings = set(settings["properties"])
    gpus = {l.split()[0] for l in open(sys.argv[3]).read().splitlines()[1:] if l}
    problems = []

    def gpu(editor, name):
        if name not in gpus:
            problems.append(f"{editor}: GPU '{name}' is not in --list-gpus")
        return name

    def server(editor, path):
        if not path.endswith("cuda-roofline-lsp"):
            problems.append(f"{editor}: the program '{path}' is not cuda-roofline-lsp")

    lua = blocks(doc, "### Neovim", "lua")[0]
    server("neovim", re.search(r"cmd = \{ '([^']+)' \}", lua).group(1))
    g = gpu("neovim", re.search(r"Gpu = '([^']+)'", lua).group(1))
    print(f"doc-snippets: neovim: start_client on cuda-roofline-lsp, Gpu {g}")

    lisp = blocks(doc, "### Emacs", "elisp")[0]
    if lisp.count("(") != lisp.count(")"):
        problems.append("emacs: unbalanced parentheses")
    server("emacs", re.search(r'\. \("([^"]+)"', lisp).group(1))
    g = gpu("emacs", re.search(r':Gpu "([^"]+)"', lisp).group(1))
    print(f"doc-snippets: emacs: eglot-server-programs entry, Gpu {g}")

    helix = tomllib.loads(blocks(doc, "### Helix", "toml")[0])
    ls = helix["language-server"]["cuda-roofline"]
    server("helix", ls["command"])
    g = gpu("helix", ls["config"]["cudaRoofline"]["Gpu"])
    langs = [l for l in helix["language"] if "cuda-roofline" in l["language-servers"]]
    print(f"doc-snippets: helix: language-server for {langs[0]['name']}, Gpu {g}")

    zed = json.loads(blocks(doc, "### Zed", "json")[0])["lsp"]["cuda-roofline"]
    server("zed", zed["binary"]["path"])
    g = gpu("zed", zed["initialization_options"]["cudaRoofline"]["Gpu"])
    print(f"doc-snippets: zed: lsp.cuda-roofline, Gpu {g}")

    vscode = json.loads(blocks(doc, "### VS Code", "json")[0])
    for key in vscode:
        if key not in known_settings:
            problems.append(f"vscode: '{key}' is not a setting of the extension")
    server("vscode", vscode["cudaRoofline.serverPath"])
    g = gpu("vscode", vscode["cudaRoofline.gpu"])
    print(f"doc-snippets: vscode: {len(vscode)} settings of the extension, Gpu {g}")

    for p in problems:
        print(f"doc-snippets: FAILED: {p}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
