#!/usr/bin/env python3
"""Facts about a measured binary's machine code that its counters cannot tell
apart, read from `cuobjdump --dump-sass`.

ptxas materializes constants with `HFMA2.MMA Rd, -RZ, RZ, imm, imm` (a fused
multiply-add of zeros on the FMA pipe: a register move), and Nsight Compute
counts those as fp16 FMAs (`sm__sass_thread_inst_executed_op_hfma_pred_on`):
an fp32 SGEMM measures millions of "fp16 FLOPs". The facts below let
compare.py tell such moves from fp16 arithmetic (docs/validation.md).

    sass.py SASS_FILE                      the facts of every function, as JSON
    sass.py --annotate RECORDS SASS_FILE   add them to the records under RECORDS
                                           (record["sass"], by launched function)

run.py annotates the records it writes in the same way when cuobjdump is there.
"""

import argparse
import json
import re
import sys
from pathlib import Path

FUNCTION = re.compile(r"^\s*Function : (\S+)")
# One instruction: "/*0040*/  [@P0] OPCODE operands ;"
INSTRUCTION = re.compile(
    r"/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);"
)
FP16_OPS = ("HADD2", "HMUL2", "HFMA2")
# HFMA2[.MMA] Rd, -RZ, RZ, imm, imm: zero times zero plus a constant.
CONSTANT_MOVE = re.compile(r"^R\w+,\s*-?RZ,\s*-?RZ,")


def function_facts(text):
    """{function: {"instructions", "fp16_arithmetic", "fp16_constant_moves"}}:
    static counts of each function's SASS instructions."""
    facts, cur = {}, None
    for line in text.splitlines():
        m = FUNCTION.match(line)
        if m:
            cur = facts.setdefault(
                m.group(1),
                {"instructions": 0, "fp16_arithmetic": 0, "fp16_constant_moves": 0},
            )
            continue
        m = INSTRUCTION.search(line) if cur is not None else None
        if not m:
            continue
        op, operands = m.group(2), m.group(3).strip()
        cur["instructions"] += 1
        if op.split(".")[0] in FP16_OPS:
            if op.startswith("HFMA2") and CONSTANT_MOVE.match(operands):
                cur["fp16_constant_moves"] += 1
            else:
                cur["fp16_arithmetic"] += 1
    return facts


def record_facts(rec, facts):
    """The facts of the functions a record's launches ran, or None."""
    funcs = [
        l.get("function")
        for l in (rec.get("kernel", {}).get("launches") or [])
        if isinstance(l, dict)
    ]
    out = {f: facts[f] for f in funcs if f in facts}
    return out or None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sass", help="cuobjdump --dump-sass output")
    ap.add_argument("--annotate", metavar="RECORDS", help="records folder to annotate")
    args = ap.parse_args()
    facts = function_facts(Path(args.sass).read_text(errors="replace"))
    if not args.annotate:
        print(json.dumps(facts, indent=2))
        return 0
    n = 0
    for p in sorted(Path(args.annotate).rglob("*.json")):
        rec = json.loads(p.read_text())
        if rec.get("schema") != "cuda-roofline-validation-record/1":
            continue
        f = record_facts(rec, facts)
        if f is None:
            print(
                f"sass: {p}: no function of its launches in {args.sass}",
                file=sys.stderr,
            )
            continue
        rec["sass"] = f
        p.write_text(json.dumps(rec, indent=2) + "\n")
        n += 1
    print(f"sass: annotated {n} record(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
