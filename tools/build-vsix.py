#!/usr/bin/env python3
"""Package editors/vscode as a VS Code extension (.vsix) without network.

A .vsix is a zip in the Open Packaging Conventions layout that `vsce package`
writes: `[Content_Types].xml`, an `extension.vsixmanifest` (the gallery's
metadata, drawn from package.json) and the extension's files under
`extension/`. The extension has no npm dependencies, so these are all it
needs; `code --install-extension FILE.vsix` installs the result.

Usage: build-vsix.py [--source editors/vscode] --out FILE.vsix
"""

import argparse
import json
import sys
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

# The files of the extension, as `vsce ls` lists them for editors/vscode, and
# the names vsce gives them in the package (it lower-cases the readme's).
FILES = {
    "package.json": "package.json",
    "extension.js": "extension.js",
    "lsp-connection.js": "lsp-connection.js",
    "README.md": "readme.md",
}

CONTENT_TYPES = {
    ".js": "application/javascript",
    ".json": "application/json",
    ".md": "text/markdown",
    ".vsixmanifest": "text/xml",
}


def manifest(pkg):
    """extension.vsixmanifest for package.json `pkg`."""
    for key in ("name", "publisher", "version", "engines", "main"):
        if key not in pkg:
            sys.exit(f"build-vsix: package.json has no '{key}'")
    props = {
        "Microsoft.VisualStudio.Code.Engine": pkg["engines"]["vscode"],
        "Microsoft.VisualStudio.Code.ExtensionDependencies": "",
        "Microsoft.VisualStudio.Code.ExtensionPack": "",
        "Microsoft.VisualStudio.Code.ExtensionKind": "workspace",
        "Microsoft.VisualStudio.Code.LocalizedLanguages": "",
        "Microsoft.VisualStudio.Code.EnabledApiProposals": "",
        "Microsoft.VisualStudio.Code.ExecutesCode": "true",
        "Microsoft.VisualStudio.Services.GitHubFlavoredMarkdown": "true",
        "Microsoft.VisualStudio.Services.Content.Pricing": "Free",
    }
    # As vsce does: the languages the extension activates on are tags too.
    tags = list(pkg.get("keywords", []))
    tags += [
        e.split(":", 1)[1]
        for e in pkg.get("activationEvents", [])
        if e.startswith("onLanguage:")
    ]
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<PackageManifest Version="2.0.0" '
        'xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011" '
        'xmlns:d="http://schemas.microsoft.com/developer/vsx-schema-design/2011">',
        "  <Metadata>",
        f'    <Identity Language="en-US" Id={quoteattr(pkg["name"])} '
        f'Version={quoteattr(pkg["version"])} Publisher={quoteattr(pkg["publisher"])} />',
        f'    <DisplayName>{escape(pkg.get("displayName", pkg["name"]))}</DisplayName>',
        f'    <Description xml:space="preserve">{escape(pkg.get("description", ""))}</Description>',
        f'    <Tags>{escape(",".join(tags))}</Tags>',
        f'    <Categories>{escape(",".join(pkg.get("categories", [])))}</Categories>',
        "    <GalleryFlags>Public</GalleryFlags>",
        "    <Properties>",
    ]
    lines += [
        f"      <Property Id={quoteattr(k)} Value={quoteattr(v)} />"
        for k, v in props.items()
    ]
    lines += [
        "    </Properties>",
        "  </Metadata>",
        "  <Installation>",
        '    <InstallationTarget Id="Microsoft.VisualStudio.Code"/>',
        "  </Installation>",
        "  <Dependencies/>",
        "  <Assets>",
        '    <Asset Type="Microsoft.VisualStudio.Code.Manifest" '
        'Path="extension/package.json" Addressable="true" />',
        '    <Asset Type="Microsoft.VisualStudio.Services.Content.Details" '
        'Path="extension/readme.md" Addressable="true" />',
        "  </Assets>",
        "</PackageManifest>",
    ]
    return "\n".join(lines) + "\n"


def content_types():
    types = "".join(
        f"<Default Extension={quoteattr(ext)} ContentType={quoteattr(ct)}/>"
        for ext, ct in CONTENT_TYPES.items()
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        f"{types}</Types>\n"
    )


def main():
    here = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=here / "editors" / "vscode")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()

    try:
        pkg = json.loads((args.source / "package.json").read_text())
    except (OSError, ValueError) as e:
        sys.exit(f"build-vsix: {args.source / 'package.json'}: {e}")
    main_file = pkg.get("main", "").removeprefix("./")
    if main_file not in FILES:
        sys.exit(f"build-vsix: package.json's main '{main_file}' is not packaged")
    for name in FILES:
        if not (args.source / name).is_file():
            sys.exit(f"build-vsix: {args.source / name} is missing")

    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(".tmp")
    # Fixed timestamps: the same sources give the same bytes.
    stamp = (2026, 1, 1, 0, 0, 0)
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:

        def add(name, data):
            info = zipfile.ZipInfo(name, stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)

        add("extension.vsixmanifest", manifest(pkg))
        add("[Content_Types].xml", content_types())
        for name, packaged in FILES.items():
            add(f"extension/{packaged}", (args.source / name).read_bytes())
    tmp.replace(args.out)
    print(
        f"build-vsix: wrote {args.out} ({pkg['publisher']}.{pkg['name']} {pkg['version']})"
    )


if __name__ == "__main__":
    main()
