#!/usr/bin/env python3
"""Measure, with Nsight Compute, the FP instructions one division, square root
or library-math call executes on this GPU (issue 19's flops_executed table).

    python3 tools/validate/mathbench.py --out test/validation/records

builds tools/validate/mathbench/mathbench.cu twice (nvcc defaults: IEEE
division and square root; and -use_fast_math), checks both builds' results
against the host, profiles every kernel once under ncu, and writes
<out>/<gpu-id>/mathbench.json: per build and kernel, the raw metric sums and
the per-thread counts with the copy kernel's subtracted (the loads, stores and
indexing are the same in every kernel of one precision). One thread computes
one element, so a per-thread count is the operation's cost as a profiler
counts it: FLOPs = fadd + fmul + 2 * ffma (d* for fp64).
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as validate  # noqa: E402  (the orchestrator's ncu and nvcc helpers)

SRC = validate.REPO / "tools" / "validate" / "mathbench" / "mathbench.cu"
SCHEMA = "cuda-roofline-mathbench/1"
BUILDS = {"ieee": [], "fast": ["-use_fast_math"]}
METRICS = [
    "sm__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "sm__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "sm__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "sm__sass_thread_inst_executed_op_dmul_pred_on.sum",
    "sm__sass_thread_inst_executed_op_dfma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fp32_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fp64_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_integer_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_conversion_pred_on.sum",
    "smsp__sass_thread_inst_executed.sum",
    "smsp__inst_executed.sum",
    "smsp__inst_executed_pipe_xu.sum",
    "smsp__inst_executed_pipe_fma.sum",
    "smsp__inst_executed_pipe_fmaheavy.sum",
    "smsp__inst_executed_pipe_alu.sum",
    "smsp__inst_executed_pipe_fp64.sum",
    # What a global load's bytes are, as each counter sees them (the float4
    # idiom; docs/validation.md, "Byte counters").
    "smsp__sass_thread_inst_executed_op_global_ld_pred_on.sum",
    "smsp__sass_inst_executed_op_global_ld.sum",
    "sm__sass_data_bytes_mem_global_op_ld.sum",
    "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "sm__sass_inst_executed_op_shared_atom.sum",
    "smsp__sass_inst_executed_op_shared_atom.sum",
]
# Warp-level metrics are per 32 threads; the others are per thread.
WARP_LEVEL = (
    "smsp__inst_executed",
    "smsp__sass_inst_executed",
    "sm__sass_inst_executed",
    "l1tex__t_requests",
)


def per_thread(metrics, base, threads):
    out = {}
    for k, v in metrics.items():
        if not isinstance(v, (int, float)):
            continue
        b = base.get(k, 0) if isinstance(base.get(k), (int, float)) else 0
        scale = 32 if k.startswith(WARP_LEVEL) else 1
        out[k] = round((v - b) * scale / threads, 4)
    return out


def flops(pt, p):
    a, m, f = (
        pt.get(f"sm__sass_thread_inst_executed_op_{p}{o}_pred_on.sum")
        for o in ("add", "mul", "fma")
    )
    if a is None and m is None and f is None:
        return None
    return round((a or 0) + (m or 0) + 2 * (f or 0), 4)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(validate.REPO / "test/validation/records"))
    ap.add_argument("--gpu-id", help="records folder (default: from the GPU name)")
    ap.add_argument("--arch", help="sm_XX (default: the GPU's)")
    ap.add_argument("--build-dir", default=str(validate.REPO / "build" / "validate"))
    ap.add_argument("--n", type=int, default=1 << 20, help="threads per kernel")
    ap.add_argument("--ncu", help="ncu executable")
    ap.add_argument("--build-only", action="store_true")
    args = ap.parse_args()

    smi = validate.nvidia_smi() or {}
    arch = args.arch or (
        "sm_" + smi["compute_cap"].replace(".", "")
        if smi.get("compute_cap")
        else "sm_90"
    )
    nvcc = validate.find_nvcc(None)
    if not nvcc:
        print("mathbench: nvcc not found")
        return 2
    nv = validate.run([nvcc, "--version"], timeout=60).stdout.strip().splitlines()
    exes, build_cmds = {}, {}
    for name, flags in BUILDS.items():
        exe = Path(args.build_dir) / f"mathbench-{name}"
        exe.parent.mkdir(parents=True, exist_ok=True)
        cmd = [
            nvcc,
            "-O3",
            f"-arch={arch}",
            "-lineinfo",
            *flags,
            str(SRC),
            "-o",
            str(exe),
        ]
        r = validate.run(cmd, timeout=600)
        if r.returncode != 0:
            print("mathbench: build failed:", validate.qjoin(cmd), r.stderr[-2000:])
            return 1
        exes[name], build_cmds[name] = exe, validate.qjoin(cmd)
        print("mathbench: built", exe, flush=True)
    if args.build_only:
        return 0
    if not smi.get("name"):
        print("mathbench: no GPU (nvidia-smi reports none)")
        return 2
    gpu_id = args.gpu_id or validate.gpu_id_for(smi["name"], set()) or "unknown"
    ncu = validate.find_ncu(args.ncu)
    rec = {
        "schema": SCHEMA,
        "synthetic": False,
        "provenance": {
            "gpu_name": smi.get("name"),
            "gpu_id": gpu_id,
            "driver_version": smi.get("driver_version"),
            "nvcc_version": nv[-1] if nv else None,
            "ncu_version": validate.ncu_version(ncu) if ncu else None,
            "date": validate.utc_now(),
            "threads_per_kernel": args.n,
            "operands": "a in [1, 2), b in [0.5, 4) (mathbench.cu operandA/operandB)",
            "clocks_before": validate.smi_clocks(),
        },
        "builds": {},
    }
    known = validate.ncu_known_metrics(ncu) if ncu else set()
    use = [m for m in METRICS if not known or m.split(".")[0] in known]
    rec["provenance"]["metrics_not_available"] = sorted(set(METRICS) - set(use))
    for name, exe in exes.items():
        chk = validate.run([exe, "--check", "--n", str(args.n)], timeout=300)
        print(chk.stdout + chk.stderr, flush=True)
        b = {
            "build_command": build_cmds[name],
            "check_exit": chk.returncode,
            "check_output": chk.stdout.splitlines(),
        }
        if not ncu:
            b["ncu_error"] = "ncu not found"
            rec["builds"][name] = b
            continue
        cmd = [
            ncu,
            "--clock-control",
            "none",
            "--metrics",
            ",".join(use),
            "--csv",
            "--page",
            "details",
            "--print-units",
            "base",
            exe,
            "--n",
            str(args.n),
        ]
        t = time.time()
        r = validate.run(cmd, timeout=300)
        launches = validate.parse_ncu_csv(r.stdout)
        b["ncu_command"] = validate.qjoin(cmd)
        print(
            f"mathbench: {name}: ncu exit {r.returncode}, {len(launches)} launches, "
            f"{time.time() - t:.0f} s",
            flush=True,
        )
        names = validate.run([exe, "--list"], timeout=60).stdout.split()
        if r.returncode != 0 or len(launches) != len(names):
            b["ncu_error"] = (
                f"ncu exit {r.returncode}: " + (r.stdout + r.stderr)[-1500:]
            )
            rec["builds"][name] = b
            continue
        raw = dict(zip(names, (l["metrics"] for l in launches)))
        kernels = {}
        for k, m in raw.items():
            base = raw["f64_copy" if k.startswith("f64") else "f32_copy"]
            pt = per_thread(
                m, base if k not in ("f32_copy", "f64_copy") else {}, args.n
            )
            kernels[k] = {
                "raw": m,
                "per_thread_minus_copy": pt,
                "flops_fp32_per_call": flops(pt, "f"),
                "flops_fp64_per_call": flops(pt, "d"),
                "mufu_per_call": pt.get("smsp__inst_executed_pipe_xu.sum"),
            }
        b["kernels"] = kernels
        rec["builds"][name] = b
    path = Path(args.out) / gpu_id / "mathbench.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rec, indent=2) + "\n")
    print("mathbench: wrote", path)
    for name, b in rec["builds"].items():
        for k, v in (b.get("kernels") or {}).items():
            print(
                f"{name:5} {k:20} fp32 {v['flops_fp32_per_call']}  "
                f"fp64 {v['flops_fp64_per_call']}  mufu {v['mufu_per_call']}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
