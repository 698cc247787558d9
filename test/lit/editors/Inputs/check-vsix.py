#!/usr/bin/env python3
"""Checks a built .vsix and unpacks it.

The package must be one VS Code installs: every member's extension has a
content type, the manifest's identity, engine and assets agree with the
packaged package.json, and the manifest says what `vsce package` (4.1.0, run
on editors/vscode where npm was reachable) says for the same package.json,
element for element. After a change to package.json, record vsce's manifest
again: `npx @vscode/vsce package --skip-license --allow-missing-repository`
in editors/vscode, then `unzip -p *.vsix extension.vsixmanifest`.

Usage: check-vsix.py VSIX VSCE_MANIFEST OUT_DIR
"""

import json
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

NS = "{http://schemas.microsoft.com/developer/vsx-schema/2011}"


def elements(root):
    """The manifest as a sorted list of (tag, attributes, text)."""
    return sorted(
        (e.tag, tuple(sorted(e.attrib.items())), (e.text or "").strip())
        for e in root.iter()
    )


def main():
    vsix, vsce_manifest, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    z = zipfile.ZipFile(vsix)
    names = z.namelist()
    problems = []

    types = ET.fromstring(z.read("[Content_Types].xml"))
    known = {d.get("Extension") for d in types}
    for n in names:
        if n != "[Content_Types].xml" and Path(n).suffix not in known:
            problems.append(f"{n}: no content type for '{Path(n).suffix}'")

    manifest = ET.fromstring(z.read("extension.vsixmanifest"))
    pkg = json.loads(z.read("extension/package.json"))
    ident = manifest.find(f"{NS}Metadata/{NS}Identity")
    for attr, key in (
        ("Id", "name"),
        ("Version", "version"),
        ("Publisher", "publisher"),
    ):
        if ident.get(attr) != pkg[key]:
            problems.append(
                f"Identity {attr}={ident.get(attr)} but package.json {key}={pkg[key]}"
            )
    props = {p.get("Id"): p.get("Value") for p in manifest.iter(f"{NS}Property")}
    if props.get("Microsoft.VisualStudio.Code.Engine") != pkg["engines"]["vscode"]:
        problems.append("the manifest's engine is not package.json's")
    for asset in manifest.iter(f"{NS}Asset"):
        if asset.get("Path") not in names:
            problems.append(f"asset {asset.get('Path')} is not in the package")
    main_file = "extension/" + pkg["main"].removeprefix("./")
    if main_file not in names:
        problems.append(f"main {main_file} is not in the package")

    if elements(manifest) != elements(ET.parse(vsce_manifest).getroot()):
        problems.append(
            f"the manifest differs from vsce's ({vsce_manifest.name}); "
            "record vsce's again if package.json changed"
        )

    for p in problems:
        print(f"check-vsix: FAILED: {p}")
    if problems:
        sys.exit(1)
    z.extractall(out)
    print(
        f"check-vsix: {pkg['publisher']}.{pkg['name']} {pkg['version']}, "
        f"{len(names)} members: {', '.join(sorted(names))}"
    )


if __name__ == "__main__":
    main()
