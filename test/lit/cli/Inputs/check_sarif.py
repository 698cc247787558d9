#!/usr/bin/env python3
"""Checks a SARIF log against what GitHub code scanning requires.

Reads the log from the file named on the command line (or stdin), asserts
the requirements of docs/integrations.md (from GitHub's "SARIF support for
code scanning"), and prints one line per rule and per result so that a lit
test can FileCheck the exact ids and locations:

  rule ID LEVEL
  result RULEID LEVEL URI:LINE:COLUMN
  related URI:LINE:COLUMN MESSAGE
"""
import json
import sys

MAX_RESULTS = 25000  # per run
MAX_LOCATIONS = 1000  # per result


def fail(msg):
    print("SARIF-ERROR: " + msg)
    sys.exit(1)


def require(cond, msg):
    if not cond:
        fail(msg)


def text(obj, key, where):
    require(isinstance(obj.get(key), dict), f"{where}: no {key}")
    t = obj[key].get("text")
    require(isinstance(t, str) and t.strip(), f"{where}: empty {key}.text")
    return t


def location(loc, bases, where):
    phys = loc.get("physicalLocation")
    require(isinstance(phys, dict), f"{where}: no physicalLocation")
    art = phys.get("artifactLocation")
    require(isinstance(art, dict), f"{where}: no artifactLocation")
    uri = art.get("uri")
    require(isinstance(uri, str) and uri, f"{where}: no uri")
    require(
        not uri.startswith("/") and not uri.startswith("file:"),
        f"{where}: uri {uri!r} is not repository-relative",
    )
    require(
        " " not in uri and "\\" not in uri,
        f"{where}: uri {uri!r} is not percent-encoded",
    )
    base = art.get("uriBaseId")
    require(base in bases, f"{where}: uriBaseId {base!r} not in originalUriBaseIds")
    region = phys.get("region")
    require(isinstance(region, dict), f"{where}: no region")
    line, col = region.get("startLine"), region.get("startColumn")
    require(isinstance(line, int) and line >= 1, f"{where}: startLine {line!r}")
    require(isinstance(col, int) and col >= 1, f"{where}: startColumn {col!r}")
    return f"{uri}:{line}:{col}"


def main():
    src = open(sys.argv[1], encoding="utf-8") if len(sys.argv) > 1 else sys.stdin
    log = json.load(src)
    require(
        log.get("$schema") == "https://json.schemastore.org/sarif-2.1.0.json",
        f"$schema is {log.get('$schema')!r}",
    )
    require(log.get("version") == "2.1.0", f"version is {log.get('version')!r}")
    runs = log.get("runs")
    require(isinstance(runs, list) and len(runs) == 1, "expected one run")
    run = runs[0]
    driver = run.get("tool", {}).get("driver", {})
    require(driver.get("name") == "cuda-roofline", "driver.name")
    require(
        isinstance(driver.get("version"), str) and driver["version"], "driver.version"
    )

    bases = run.get("originalUriBaseIds", {})
    for name, base in bases.items():
        uri = base.get("uri", "")
        require(
            uri.startswith("file:///") and uri.endswith("/"),
            f"originalUriBaseIds.{name}: {uri!r} is not an absolute directory URI",
        )

    rules = driver.get("rules")
    require(isinstance(rules, list) and rules, "no rules")
    ids = []
    for i, rule in enumerate(rules):
        rid = rule.get("id")
        require(isinstance(rid, str) and rid, f"rules[{i}]: no id")
        require(rid not in ids, f"rules[{i}]: duplicate id {rid}")
        for key in ("shortDescription", "fullDescription", "help"):
            text(rule, key, f"rule {rid}")
        level = rule.get("defaultConfiguration", {}).get("level")
        require(level in ("note", "warning", "error"), f"rule {rid}: level {level!r}")
        ids.append(rid)
        print(f"rule {rid} {level}")

    results = run.get("results")
    require(isinstance(results, list), "no results array")
    require(len(results) <= MAX_RESULTS, f"{len(results)} results")
    for i, res in enumerate(results):
        where = f"results[{i}]"
        rid = res.get("ruleId")
        require(rid in ids, f"{where}: ruleId {rid!r} has no rule")
        require(
            res.get("ruleIndex") == ids.index(rid),
            f"{where}: ruleIndex {res.get('ruleIndex')!r} is not that of {rid}",
        )
        level = res.get("level")
        require(level in ("note", "warning", "error"), f"{where}: level {level!r}")
        text(res, "message", where)
        locs = res.get("locations")
        require(isinstance(locs, list) and locs, f"{where}: no locations")
        related = res.get("relatedLocations", [])
        require(
            len(locs) + len(related) <= MAX_LOCATIONS, f"{where}: too many locations"
        )
        print(f"result {rid} {level} {location(locs[0], bases, where)}")
        for j, rel in enumerate(related):
            loc = location(rel, bases, f"{where}.relatedLocations[{j}]")
            print(f"related {loc} {text(rel, 'message', where)}")
    print(f"ok: {len(rules)} rules, {len(results)} results")


main()
