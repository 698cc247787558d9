#!/usr/bin/env python3
"""Runs cuda-roofline on one input in every format and checks that each
format carries the source's text exactly, escaped by its own rules.

usage: check_formats.py [--cwd DIR] [--exit N] [--copy SRC=NAME]...
                        [--accesses] [--save PREFIX] -- TOOL ARG...

NAME and the ARGs may hold the escapes of names.py (lit's shell cannot
write a newline into an argument); --copy creates DIR/NAME as a copy of SRC
(making its directories). TOOL runs in DIR with ARG... and --format=F for
each format; every run must exit with N (default 0). --save writes each
format's output to PREFIX.FORMAT as well.

The JSON report is the reference; it must be valid UTF-8 and parse with
Python's strict parser (no raw control characters in strings). Then:
  sarif     parses; results the most costly first (cost_seconds, then
            report order); per result: ruleId, level, the URI percent-decoded back
            to the path (bytes), startLine, startColumn in UTF-16 code units
            of the source line, message.text (the message and the notes as
            sentences), the relatedLocations' messages;
  rdjsonl   each line parses; message (notes on "note: " lines), path, byte
            line/column, severity, code;
  github    each line is a workflow command that the Actions runner parses
            (ActionCommand.TryParseV2: the first "::" after the name ends
            the properties, ',' splits them, '=' splits key and value) into
            the level, file, line, col, title and message once unescaped;
            no raw CR or LF inside a command;
  markdown  each table's heading unescapes to "Kernels on" the report's GPU;
            each table row has 6 cells (split at unescaped '|') whose name
            and location unescape to the kernel's; each finding item (the most
            costly first) is two CommonMark code spans and text that
            unescapes to the message (then "(costs T)" when it has a cost),
            with no unescaped '`', '|', '*', '_', '[', ']', '<', '&', '~';
            no other line.
Prints, with control characters shown as <LF>, <CR>, <TAB> or <U+XXXX>:
  kernel NAME PATH:LINE
  finding CHECK LEVEL PATH:LINE:COLUMN utf16=COLUMN MESSAGE
    note LINE:COLUMN MESSAGE
  access LINE:COLUMN KIND EXPR            (with --accesses)
then one "FORMAT-ERROR FORMAT: ..." line per discrepancy and
"ok: N kernels, M findings" or "failed: K errors".
"""
import json
import os
import re
import shutil
import sys
import urllib.parse

sys.dont_write_bytecode = True  # No __pycache__ in the source tree.
sys.path.insert(
    0,
    os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "tools"
    ),
)
import roofline_tools  # noqa: E402
from names import decode as unescape_arg  # noqa: E402

FORMATS = ("json", "sarif", "github", "rdjsonl", "markdown")
errors = []


def err(fmt, msg):
    errors.append(f"FORMAT-ERROR {fmt}: {msg}")


def vis(s):
    out = []
    for c in s:
        if c == "\n":
            out.append("<LF>")
        elif c == "\r":
            out.append("<CR>")
        elif c == "\t":
            out.append("<TAB>")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"<U+{ord(c):04X}>")
        else:
            out.append(c)
    return "".join(out)


# --- the reference ------------------------------------------------------------


def review_path(cwd, file):
    a = os.path.normpath(os.path.join(cwd, file))
    if a.startswith(cwd.rstrip("/") + "/"):
        return os.path.relpath(a, cwd)
    return a


def utf16_column(cwd, file, line, col):
    try:
        with open(os.path.join(cwd, file), "rb") as f:
            lines = f.read().split(b"\n")
    except OSError:
        return None
    if not (1 <= line <= len(lines)):
        return None
    prefix = lines[line - 1][: col - 1].decode("utf-8", "replace")
    return len(prefix.encode("utf-16-le")) // 2 + 1


def sentence(s):
    s = s.strip(" \t\n\v\f\r")
    if not s:
        return s
    if "a" <= s[0] <= "z":
        s = s[0].upper() + s[1:]
    if s[-1] not in ".!?":
        s += "."
    return s


def other_file(f, n):
    return n["file"] != f["file"]


def elsewhere(f, n):
    return bool(n.get("line")) and (other_file(f, n) or n["line"] != f["line"])


def note_place(f, n):
    """How a message names a note's place: its line, and its file when that
    is another one than the finding's."""
    if other_file(f, n):
        return f"{n['review_path']}:{n['line']}"
    return f"line {n['line']}"


def with_notes_lines(f):
    out = f["message"]
    for n in f["notes"]:
        out += "\nnote"
        if elsewhere(f, n):
            out += f" ({note_place(f, n)})"
        out += ": " + n["message"]
    return out


def with_notes_sentences(f):
    out = sentence(f["message"])
    for n in f["notes"]:
        out += " " + sentence(
            f"At {note_place(f, n)}: {n['message']}"
            if elsewhere(f, n)
            else n["message"]
        )
    return out


def by_cost(findings):
    """SARIF and Markdown list findings the most costly first (cost_seconds),
    those without a cost after them in report order."""
    return sorted(
        findings,
        key=lambda f: (0, -f["cost_seconds"]) if "cost_seconds" in f else (1, 0),
    )


def level(f, names):
    return names[{"error": 0, "warning": 1, "note": 2}[f["level"]]]


# --- sarif --------------------------------------------------------------------


def sarif_uri(where, art, review_path, file, cwd):
    uri = art["uri"]
    if art.get("uriBaseId") == "%SRCROOT%":
        got = urllib.parse.unquote_to_bytes(uri)
    else:
        got = urllib.parse.unquote_to_bytes(urllib.parse.urlsplit(uri).path)
    want = os.fsencode(
        review_path
        if art.get("uriBaseId")
        else os.path.normpath(os.path.join(cwd, file))
    )
    if got != want:
        err("sarif", f"{where}: uri {uri!r} decodes to {got!r}, not {want!r}")
    if re.search(r"[^A-Za-z0-9\-._~/%:]", uri):
        err("sarif", f"{where}: uri {uri!r} is not percent-encoded")


def check_sarif(out, findings, cwd):
    try:
        log = json.loads(out.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        return err("sarif", f"does not parse: {e}")
    results = log["runs"][0]["results"]
    if len(results) != len(findings):
        return err("sarif", f"{len(results)} results for {len(findings)} findings")
    for i, (r, f) in enumerate(zip(results, findings)):
        where = f"results[{i}]"
        if r.get("ruleId") != f["check"]:
            err("sarif", f"{where}: ruleId {r.get('ruleId')!r}")
        if r.get("level") != level(f, ("error", "warning", "note")):
            err("sarif", f"{where}: level {r.get('level')!r}")
        phys = r["locations"][0]["physicalLocation"]
        sarif_uri(where, phys["artifactLocation"], f["review_path"], f["file"], cwd)
        region = phys.get("region", {})
        if region.get("startLine") != f["line"]:
            err("sarif", f"{where}: startLine {region.get('startLine')}")
        if region.get("startColumn") != f["utf16"]:
            err(
                "sarif",
                f"{where}: startColumn {region.get('startColumn')}, "
                f"expected {f['utf16']} (UTF-16)",
            )
        if r["message"]["text"] != with_notes_sentences(f):
            err("sarif", f"{where}: message {vis(r['message']['text'])!r}")
        rel = [x["message"]["text"] for x in r.get("relatedLocations", [])]
        if rel != [n["message"] for n in f["notes"]]:
            err("sarif", f"{where}: related messages {rel!r}")
            continue
        # Each note in its own file.
        for j, (x, n) in enumerate(zip(r.get("relatedLocations", []), f["notes"])):
            sarif_uri(
                f"{where}.relatedLocations[{j}]",
                x["physicalLocation"]["artifactLocation"],
                n["review_path"],
                n["file"],
                cwd,
            )


# --- rdjsonl ------------------------------------------------------------------


def check_rdjsonl(out, findings):
    lines = out.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if len(lines) != len(findings):
        return err("rdjsonl", f"{len(lines)} lines for {len(findings)} findings")
    for i, (raw, f) in enumerate(zip(lines, findings)):
        try:
            d = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            err("rdjsonl", f"line {i + 1} does not parse: {e}")
            continue
        loc = d["location"]
        start = loc.get("range", {}).get("start", {})
        got = (
            d["message"],
            loc["path"],
            start.get("line"),
            start.get("column"),
            d["severity"],
            d["code"]["value"],
        )
        want = (
            with_notes_lines(f),
            f["review_path"],
            f["line"],
            f["column"],
            level(f, ("ERROR", "WARNING", "INFO")),
            f["check"],
        )
        if got != want:
            err("rdjsonl", f"line {i + 1}: {vis(repr(got))} != {vis(repr(want))}")


# --- github -------------------------------------------------------------------


def gh_unescape(s, prop):
    pairs = [("%0D", "\r"), ("%0A", "\n")]
    if prop:
        pairs += [("%3A", ":"), ("%2C", ",")]
    pairs += [("%25", "%")]
    for esc, tok in pairs:
        s = s.replace(esc, tok)
    return s


def gh_parse(line):
    """The runner's ActionCommand.TryParseV2."""
    line = line.lstrip()
    if not line.startswith("::"):
        return None
    end = line.find("::", 2)
    if end < 0:
        return None
    info = line[2:end]
    sp = info.find(" ")
    cmd, props = (info, "") if sp < 0 else (info[:sp], info[sp + 1 :])
    p = {}
    for item in props.split(","):
        if not item:
            continue
        kv = item.split("=", 1)
        if len(kv) == 2:
            p[kv[0]] = gh_unescape(kv[1], True)
    return cmd, p, gh_unescape(line[end + 2 :], False)


def check_github(out, findings):
    text = out.decode("utf-8", "surrogateescape")
    if "\r" in text:
        err(
            "github",
            "a raw CR ends a command early (the runner reads lines " "split at CR too)",
        )
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) != len(findings):
        return err("github", f"{len(lines)} lines for {len(findings)} findings")
    for i, (line, f) in enumerate(zip(lines, findings)):
        cmd = gh_parse(line)
        if not cmd:
            err("github", f"line {i + 1} is not a command: {vis(line)!r}")
            continue
        name, p, data = cmd
        raw_props = line[2 : line.find("::", 2)].partition(" ")[2]
        if ":" in raw_props:
            err("github", f"line {i + 1}: unescaped ':' in the properties")
        got = (name, p.get("file"), p.get("line"), p.get("col"), p.get("title"), data)
        want = (
            level(f, ("error", "warning", "notice")),
            f["review_path"],
            str(f["line"]),
            str(f["column"]),
            f["check"],
            with_notes_lines(f),
        )
        if got != want or set(p) != {"file", "line", "col", "title"}:
            err("github", f"line {i + 1}: {vis(repr(got))} != {vis(repr(want))}")


# --- markdown -----------------------------------------------------------------

ASCII_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
MUST_ESCAPE = set("`|*_[]<&~$")
# GitHub finds mentions ("@name") and emoji shortcodes (":name:") in the
# rendered text, where a backslash no longer is: the emitter breaks them
# with a zero-width space, written as an entity.
ZWSP = "&#8203;"
MENTION = re.compile(r"@[A-Za-z0-9]")
EMOJI = re.compile(r":[A-Za-z0-9_+-]+:")


TABLE_HEADING = "### Kernels on "


def md_text(s, where):
    """Unescapes inline text; flags characters left unescaped and text that
    GitHub would render as a mention or an emoji."""
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if s.startswith(ZWSP, i):
            out.append("\u200b")
            i += len(ZWSP)
            continue
        if c == "\\" and i + 1 < len(s) and s[i + 1] in ASCII_PUNCT:
            c = s[i + 1]
            i += 1
        elif c in MUST_ESCAPE:
            err("markdown", f"{where}: unescaped {c!r} in {vis(s)!r}")
        out.append(c)
        i += 1
    rendered = "".join(out)
    for pattern, what in ((MENTION, "a mention"), (EMOJI, "an emoji")):
        m = pattern.search(rendered)
        if m:
            err(
                "markdown",
                f"{where}: {vis(m.group(0))!r} renders as {what} in {vis(s)!r}",
            )
    return rendered.replace("\u200b", "")


def md_code_span(s, i, where):
    """CommonMark 6.1: returns (content, index after the span)."""
    n = 0
    while i + n < len(s) and s[i + n] == "`":
        n += 1
    if n == 0:
        err("markdown", f"{where}: no code span at {vis(s[i:])!r}")
        return None, i
    j = i + n
    while True:
        k = s.find("`", j)
        if k < 0:
            err("markdown", f"{where}: unclosed code span in {vis(s)!r}")
            return None, len(s)
        m = 0
        while k + m < len(s) and s[k + m] == "`":
            m += 1
        if m == n:
            body = s[i + n : k]
            if (
                len(body) >= 2
                and body[0] == " "
                and body[-1] == " "
                and body.strip(" ")
            ):
                body = body[1:-1]
            return body, k + m
        j = k + m


def md_cells(row):
    cells, cur, i = [], "", 0
    while i < len(row):
        if row[i] == "\\" and i + 1 < len(row):
            cur += row[i : i + 2]
            i += 2
            continue
        if row[i] == "|":
            cells.append(cur)
            cur = ""
        else:
            cur += row[i]
        i += 1
    cells.append(cur)
    return cells[1:-1]  # The row starts and ends with '|'.


def one_line(s):
    return s.replace("\r", " ").replace("\n", " ")


def check_markdown(out, kernels, findings, gpus):
    lines = out.decode("utf-8", "surrogateescape").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    it = iter(enumerate(lines, 1))
    rows = [
        (n, l)
        for n, l in enumerate(lines, 1)
        if l.startswith("| ") and not l.startswith("| Kernel |")
    ]
    if len(rows) != len(kernels):
        err("markdown", f"{len(rows)} table rows for {len(kernels)} kernels")
    for (n, row), k in zip(rows, kernels):
        cells = md_cells(row)
        if len(cells) != 6:
            err("markdown", f"line {n}: {len(cells)} cells, not 6: {vis(row)!r}")
            continue
        name = md_text(cells[0].strip(), f"line {n} name")
        loc = md_text(cells[1].strip(), f"line {n} location")
        if name != one_line(k["name"]):
            err("markdown", f"line {n}: name {vis(name)!r}")
        if loc != f"{one_line(k['review_path'])}:{k['line']}":
            err("markdown", f"line {n}: location {vis(loc)!r}")
    # Everything else: known lines, then the findings in order.
    expected, per_file = [], {}
    for f in findings:
        if f["level"] == "note":
            continue
        per_file[f["review_path"]] = per_file.get(f["review_path"], 0) + 1
        if per_file[f["review_path"]] <= 10:
            expected.append(f)
    fixed = re.compile(
        r"^(## cuda-roofline|### Top findings|No findings\.|"
        r"\d+ kernels? in \d+ files?, \d+ findings?\.|"
        r"\| Kernel \| Location \|.*|\|---(\|---)*\||"
        r"- \.\.\. and \d+ more in .*|.*: no kernels found\.|"
        r".*has no instantiation to analyze\.|)$"
    )
    pending = list(expected)
    cur = None
    for n, l in enumerate(lines, 1):
        if l.startswith("| ") or (fixed.match(l) and not l.startswith("- ")):
            continue
        where = f"line {n}"
        if l.startswith(TABLE_HEADING):
            gpu = md_text(l[len(TABLE_HEADING) :], where)
            if gpu not in gpus:
                err("markdown", f"{where}: GPU {vis(gpu)!r}, not one of {gpus!r}")
            continue
        if l.startswith("  - ") and cur is not None:
            if not cur["notes_left"]:
                err("markdown", f"{where}: unexpected note {vis(l)!r}")
                continue
            note = cur["notes_left"].pop(0)
            body = l[4:]
            if other_file(cur["f"], note) and note.get("line"):
                span, i = md_code_span(body, 0, where)
                want = f"{one_line(note['review_path'])}:{note['line']}"
                if span != want or body[i : i + 2] != ": ":
                    err("markdown", f"{where}: note without `{vis(want)}`: ")
                body = body[i + 2 :]
            elif elsewhere(cur["f"], note):
                prefix = f"line {note['line']}: "
                if not body.startswith(prefix):
                    err("markdown", f"{where}: note without {prefix!r}")
                body = body[len(prefix) :]
            if md_text(body, where) != one_line(note["message"]):
                err("markdown", f"{where}: note {vis(body)!r}")
            continue
        if l.startswith("- ") and pending:
            f = pending.pop(0)
            span1, i = md_code_span(l, 2, where)
            if i >= len(l) or l[i] != " ":
                err(
                    "markdown", f"{where}: no space after the location span: {vis(l)!r}"
                )
                continue
            span2, i = md_code_span(l, i + 1, where)
            want1 = f"{one_line(f['review_path'])}:{f['line']}:{f['column']}"
            if span1 != want1:
                err(
                    "markdown",
                    f"{where}: location span {vis(str(span1))!r}, not {vis(want1)!r}",
                )
            if span2 != f["check"]:
                err("markdown", f"{where}: check span {vis(str(span2))!r}")
            rest = l[i:]
            head = " (error): " if f["level"] == "error" else ": "
            if not rest.startswith(head):
                err("markdown", f"{where}: {vis(rest)!r} does not start with {head!r}")
                continue
            text = rest[len(head) :]
            if "cost_seconds" in f:
                m = re.search(r" \(costs [0-9.]+ (s|ms|us|ns)\)$", text)
                if not m:
                    err("markdown", f"{where}: no cost in {vis(rest)!r}")
                    continue
                text = text[: m.start()]
            if md_text(text, where) != one_line(f["message"]):
                err("markdown", f"{where}: message {vis(rest)!r}")
            cur = {"f": f, "notes_left": list(f["notes"])}
            continue
        err("markdown", f"{where}: unexpected line {vis(l)!r}")
    if pending:
        err("markdown", f"{len(pending)} findings missing")


# --- main ---------------------------------------------------------------------


def main(argv):
    cwd, want_exit, accesses, save = os.getcwd(), 0, False, None
    copies = []
    while argv and argv[0] != "--":
        a = argv.pop(0)
        if a == "--cwd":
            cwd = argv.pop(0)
        elif a == "--exit":
            want_exit = int(argv.pop(0))
        elif a == "--copy":
            src, _, name = argv.pop(0).partition("=")
            copies.append((src, unescape_arg(name)))
        elif a == "--accesses":
            accesses = True
        elif a == "--save":
            save = argv.pop(0)
        else:
            sys.exit(f"unknown option {a}")
    cmd = [unescape_arg(a) for a in argv[1:]]
    cwd = os.path.abspath(cwd)
    for src, name in copies:
        dest = os.path.join(cwd, name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(src, dest)

    outs = {}
    for fmt in FORMATS:
        p = roofline_tools.run(cmd + [f"--format={fmt}"], cwd=cwd, text=False)
        if p.returncode != want_exit:
            err(
                fmt,
                f"exit {p.returncode}, expected {want_exit}; stderr: "
                f"{vis(p.stderr.decode('utf-8', 'replace'))[:2000]}",
            )
        outs[fmt] = p.stdout
        if save:
            with open(f"{save}.{fmt}", "wb") as f:
                f.write(p.stdout)

    try:
        report = json.loads(outs["json"].decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        err("json", f"does not parse: {e}")
        report = {"kernels": []}
    kernels, findings = report["kernels"], []
    for k in kernels:
        k["review_path"] = review_path(cwd, k["file"])
        print(f"kernel {vis(k['name'])} {vis(k['review_path'])}:{k['line']}")
        for f in k["findings"]:
            f["review_path"] = review_path(cwd, f["file"])
            f["utf16"] = utf16_column(cwd, f["file"], f["line"], f["column"])
            findings.append(f)
            print(
                f"finding {f['check']} {f['level']} {vis(f['review_path'])}:"
                f"{f['line']}:{f['column']} utf16={f['utf16']} {vis(f['message'])}"
            )
            for n in f["notes"]:
                n["review_path"] = review_path(cwd, n["file"])
                print(f"  note {n.get('line')}:{n.get('column')} {vis(n['message'])}")
        if accesses:
            for a in k["accesses"]:
                print(f"access {a['line']}:{a['column']} {a['kind']} {vis(a['expr'])}")

    check_sarif(outs["sarif"], by_cost(findings), cwd)
    check_rdjsonl(outs["rdjsonl"], findings)
    check_github(outs["github"], findings)
    gpus = [one_line(report["gpu"]["name"])] if "gpu" in report else []
    check_markdown(outs["markdown"], kernels, by_cost(findings), gpus)
    for e in errors:
        print(e)
    if errors:
        print(f"failed: {len(errors)} errors")
        return 1
    print(f"ok: {len(kernels)} kernels, {len(findings)} findings")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
