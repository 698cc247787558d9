#!/usr/bin/env python3
"""Measure the bundled kernels on this machine's GPU and write validation records.

One command on a GPU machine (from the repository root):

    python3 tools/validate/run.py --out test/validation/records

builds tools/validate/runner with nvcc for the GPU's architecture, measures the
ceilings (device-to-device copy, cuBLAS SGEMM and bf16 GEMM at 8192^3), times
and verifies every case, runs each case once more under Nsight Compute when
`ncu` is available (--no-ncu to skip), and writes one record per case to
<out>/<gpu-id>/<kernel-id>__<size-tag>.json in the format of
docs/validation-records.md. --dry-run prints the cases and the commands
without running anything on a GPU (it still builds the runner, unless
--runner names one, to read the case list from it).
"""

import argparse
import concurrent.futures
import csv
import datetime
import glob
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import roofline_tools  # noqa: E402
import sass as sass_facts  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
RUNNER_SRC = REPO / "tools" / "validate" / "runner"
SCHEMA = "cuda-roofline-validation-record/1"

# GPU name (as the driver reports it) -> cuda-roofline GPU id (--list-gpus).
# First match wins; None means "no entry in the database".
GPU_NAME_RULES = [
    (r"GH200", None),
    (r"H200 NVL", None),
    (r"H200", "h200"),
    (r"H100 NVL", None),
    (r"H100.*PCIe", "h100-pcie"),
    (r"H100.*(SXM|HBM3)", "h100-sxm"),
    (r"A100.*SXM4.*40GB", "a100-40gb-sxm"),
    (r"A100.*SXM4.*80GB", "a100-80gb-sxm"),
    (r"A100.*80GB.*PCIe", "a100-80gb-pcie"),
    (r"B200", "b200"),
    (r"L40S", "l40s"),
    (r"\bL4\b", "l4"),
    (r"\bA10\b", "a10"),
    (r"\bT4\b", "t4"),
    (r"V100.*SXM2", "v100-sxm2"),
    (r"RTX 6000 Ada", "rtx-6000-ada"),
    (r"RTX A6000", "rtx-a6000"),
    (r"RTX 3090", "rtx-3090"),
    (r"RTX 4090", "rtx-4090"),
    (r"RTX 5090", "rtx-5090"),
]

# Nsight Compute metrics (docs/validation-records.md says what each feeds).
# Those the installed ncu does not know are dropped before profiling.
NCU_CORE_METRICS = [
    "sm__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "sm__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
]
NCU_EXTRA_METRICS = [
    "sm__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "sm__sass_thread_inst_executed_op_dmul_pred_on.sum",
    "sm__sass_thread_inst_executed_op_dfma_pred_on.sum",
    "sm__sass_thread_inst_executed_op_hadd_pred_on.sum",
    "sm__sass_thread_inst_executed_op_hmul_pred_on.sum",
    "sm__sass_thread_inst_executed_op_hfma_pred_on.sum",
    "sm__inst_executed_pipe_tensor_op_hmma.sum",
    "sm__inst_executed_pipe_tensor.sum",
    "sm__sass_data_bytes_mem_global_op_ld.sum",
    "sm__sass_data_bytes_mem_global_op_st.sum",
    "smsp__inst_executed_op_global_ld.sum",
    "smsp__inst_executed_op_global_st.sum",
    # Thread-level load/store instructions: lanes x width is what
    # global_load_bytes predicts, which neither byte counter is in general.
    "smsp__sass_thread_inst_executed_op_global_ld_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_global_st_pred_on.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_write.sum",
    "gpu__time_duration.sum",
    "sm__cycles_elapsed.avg.per_second",
    "dram__cycles_elapsed.avg.per_second",
    # For the pipe-level model (issue 18): instructions issued, the pipes,
    # L2 traffic, occupancy and how busy the SMs and DRAM were.
    "smsp__inst_executed.sum",
    "smsp__inst_executed_pipe_lsu.sum",
    "smsp__inst_executed_pipe_xu.sum",
    "smsp__inst_executed_pipe_fma.sum",
    "smsp__inst_executed_pipe_alu.sum",
    "lts__t_sectors_op_read.sum",
    "lts__t_sectors_op_write.sum",
    "sm__cycles_elapsed.max",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "launch__registers_per_thread",
    "launch__occupancy_limit_registers",
    "launch__occupancy_limit_shared_mem",
]
# Measured tensor FLOPs. The reference (/work/shared/reference/
# counting-conventions.md, "FLOPs": "tensor pipe: sm__inst_executed_pipe_tensor*";
# pipe-throughputs.md section 2: "a tensor MMA of m x n x k counts 2*m*n*k
# FLOPs") measures tensor work as tensor-pipe warp instructions, so FLOPs =
# instructions x 2*m*n*k of the one MMA shape a kernel issues, read from its
# inline PTX (`mma.sync.aligned.mMnNkK...`): m16n8k16 bf16 or fp16 = 4096 per
# warp instruction, m16n8k32 e4m3 = 8192. A kernel without inline mma.sync
# (WMMA) issues m16n8k16 HMMAs: a 16x16x16 wmma::mma_sync is two of them.
HMMA_FLOPS = 2 * 16 * 8 * 16
# The reference names no metric, and no FLOPs per instruction, for Hopper's
# warp-group MMA (wgmma, SASS HGMMA): its tensor FLOPs are recorded as null.
WGMMA_UNMEASURED = (
    "wgmma (SASS HGMMA): the reference (counting-conventions.md, "
    "pipe-throughputs.md) documents no Nsight Compute metric or FLOPs per "
    "instruction for it, so the tensor-pipe instruction count cannot be "
    "turned into FLOPs"
)
# PTX input types -> the analyzer's precision names (docs/counting.md).
PTX_INPUT = {
    "bf16": "bf16",
    "f16": "fp16",
    "e4m3": "fp8",
    "e5m2": "fp8",
    "tf32": "tf32",
}
MMA_SYNC = re.compile(r"\bmma\.sync\.aligned\.m(\d+)n(\d+)k(\d+)((?:\.[a-z0-9]+)*)")
WGMMA = re.compile(r"\bwgmma\.mma_async\.\S*?m64n(\d+)k(\d+)((?:\.[a-z0-9]+)*)")


def tensor_key(input_type, acc_types):
    """The analyzer's flops key (docs/counting.md) of an MMA with PTX input
    type INPUT_TYPE and D/C types ACC_TYPES: tensor_bf16, tensor_fp16_fp32acc,
    tensor_fp8_fp32acc, tensor_fp16, ..."""
    p = PTX_INPUT.get(input_type, input_type)
    acc32 = p in ("fp16", "fp8") and "f32" in acc_types
    return "tensor_" + p + ("_fp32acc" if acc32 else "")


def tensor_shape(kernel_text, precision):
    """How the measured tensor-pipe instructions of a kernel become FLOPs:
    (flops key, FLOPs per warp instruction or None, why None, whether the
    kernel issues MMAs). From the one
    MMA the kernel's inline PTX issues; WMMA kernels (no inline MMA) issue
    m16n8k16 HMMAs of the case's precision."""
    shapes = set()
    for m, n, k, types in MMA_SYNC.findall(kernel_text):
        t = [x for x in types.split(".") if x and x not in ("row", "col")]
        # .row.col.D.A.B.C (D and C are the accumulators)
        if len(t) >= 4:
            key = tensor_key(t[1], (t[0], t[3]))
        else:
            key = tensor_key(precision, ("f32",))
        shapes.add((key, 2 * int(m) * int(n) * int(k)))
    wgmma = WGMMA.findall(kernel_text)
    if wgmma:
        types = [x for x in wgmma[0][2].split(".") if x]
        key = tensor_key(types[1], (types[0],)) if len(types) >= 2 else None
        return key or tensor_key(precision, ("f32",)), None, WGMMA_UNMEASURED, True
    if len(shapes) > 1:
        return (
            sorted(shapes)[0][0],
            None,
            "the kernel issues several MMA shapes %s: one tensor-pipe instruction "
            "count cannot be split between them" % sorted(shapes),
            True,
        )
    if shapes:
        key, flops = shapes.pop()
        return key, flops, None, True
    if precision in ("bf16", "fp16"):
        return tensor_key(precision, ("f32",)), HMMA_FLOPS, None, True
    # An fp32 (or other non-MMA) case: a non-zero count has no known shape.
    return "tensor_bf16", None, "no MMA shape known for a %s case" % precision, False


def case_tensor_shape(case):
    """tensor_shape() of the kernel file a case runs (case["file"])."""
    try:
        text = (REPO / case["file"]).read_text()
    except (OSError, KeyError):
        text = ""
    return tensor_shape(text, case.get("precision", "fp32"))


def log(*a):
    print(*a, flush=True)


def relay(text):
    """Passes a child's stderr (progress and errors) through, in order."""
    if text:
        sys.stdout.flush()
        sys.stderr.write(text if text.endswith("\n") else text + "\n")
        sys.stderr.flush()


def qjoin(cmd):
    return " ".join(shlex.quote(str(c)) for c in cmd)


def utc_now():
    return (
        datetime.datetime.now(datetime.timezone.utc)
        .isoformat(timespec="seconds")
        .replace("+00:00", "Z")
    )


# ---- tools ---------------------------------------------------------------------


def find_nvcc(arg):
    for c in [
        arg,
        os.environ.get("NVCC"),
        shutil.which("nvcc"),
        "/usr/local/cuda/bin/nvcc",
    ]:
        if c and (os.path.isfile(c) or shutil.which(c)):
            return c
    return None


def find_ncu(arg):
    if arg:
        return arg
    c = shutil.which("ncu")
    if c:
        return c
    cands = ["/usr/local/cuda/bin/ncu"] + sorted(
        glob.glob("/opt/nvidia/nsight-compute/*/ncu"), reverse=True
    )
    return next((p for p in cands if os.path.isfile(p) and os.access(p, os.X_OK)), None)


def runner_sass_facts(nvcc, runner):
    """The SASS facts (tools/validate/sass.py) of the runner's functions,
    from cuobjdump next to nvcc or on PATH; {} without it."""
    cands = [shutil.which("cuobjdump")]
    if nvcc:
        cands.insert(0, str(Path(nvcc).resolve().parent / "cuobjdump"))
    tool = next((c for c in cands if c and os.path.isfile(c)), None)
    if not tool:
        log("cuobjdump: not found; records carry no SASS facts")
        return {}
    r = run([tool, "--dump-sass", runner], timeout=300)
    if r.returncode != 0:
        log("cuobjdump failed:", r.stderr.strip()[-300:])
        return {}
    return sass_facts.function_facts(r.stdout)


def find_analyzer(arg):
    if arg:
        return arg if os.path.isfile(arg) else None
    p = REPO / "build" / "bin" / "cuda-roofline"
    return str(p) if p.is_file() else None


def run(cmd, timeout=None, **kw):
    """subprocess.run that never raises for a failed or timed-out command."""
    try:
        return roofline_tools.run([str(c) for c in cmd], timeout=timeout, **kw)
    except subprocess.TimeoutExpired as e:
        out = (
            e.stdout.decode(errors="replace")
            if isinstance(e.stdout, bytes)
            else (e.stdout or "")
        )
        err = (
            e.stderr.decode(errors="replace")
            if isinstance(e.stderr, bytes)
            else (e.stderr or "")
        )
        return subprocess.CompletedProcess(
            e.cmd, 124, out, err + f"\n(timed out after {timeout} s)"
        )
    except OSError as e:
        return subprocess.CompletedProcess(cmd, 127, "", str(e))


def nvidia_smi():
    """The first GPU's properties from nvidia-smi, or None."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    fields = [
        "name",
        "driver_version",
        "compute_cap",
        "clocks.sm",
        "clocks.mem",
        "clocks.max.sm",
        "clocks.max.mem",
        "pci.bus_id",
    ]
    for fs in (fields, [f for f in fields if f != "compute_cap"]):
        r = run(
            [smi, "--query-gpu=" + ",".join(fs), "--format=csv,noheader,nounits"],
            timeout=30,
        )
        if r.returncode == 0 and r.stdout.strip():
            vals = [v.strip() for v in r.stdout.strip().splitlines()[0].split(",")]
            return dict(zip(fs, vals))
    return None


def smi_clocks():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    r = run(
        [smi, "--query-gpu=clocks.sm,clocks.mem", "--format=csv,noheader,nounits"],
        timeout=30,
    )
    try:
        sm, mem = [int(float(v)) for v in r.stdout.strip().splitlines()[0].split(",")]
        return {"sm_mhz": sm, "mem_mhz": mem}
    except (ValueError, IndexError):
        return None


def gpu_id_for(name, known):
    for pat, gid in GPU_NAME_RULES:
        if re.search(pat, name or "", re.I):
            if gid and (not known or gid in known):
                return gid
            return None
    return None


def known_gpu_ids(analyzer):
    if not analyzer:
        return set()
    r = run([analyzer, "--list-gpus"], timeout=60)
    return {ln.split()[0] for ln in r.stdout.splitlines()[1:] if ln.strip()}


def git_info():
    r = run(["git", "-C", str(REPO), "rev-parse", "HEAD"], timeout=30)
    if r.returncode != 0:
        return None, None
    d = run(
        ["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
        timeout=60,
    )
    return r.stdout.strip(), bool(d.stdout.strip())


# ---- build -----------------------------------------------------------------------


def kernel_arch(src):
    """The architecture the kernel file a driver includes asks for with a line
    `// compile-arch: sm_XX` (as kernels/compile-all.sh reads it), or None."""
    for m in re.finditer(r'#include "(kernels/[^"]+)"', src.read_text()):
        kernel = REPO / m.group(1)
        if kernel.is_file():
            a = re.search(
                r"^// compile-arch: *(sm_\d+[a-z]?) *$", kernel.read_text(), re.M
            )
            if a:
                return a.group(1)
    return None


def arch_flags(arch, need):
    """(nvcc architecture flags, None) for a source whose kernel needs `need`
    (None: any) in a runner built for `arch`, or (None, why) when that GPU
    cannot run it. An architecture-specific target (sm_90a) runs on that
    architecture only and is compiled for exactly it: CUDA 13's -arch=sm_90a
    also embeds compute_90 PTX, which cannot hold wgmma. Other targets run on
    their architecture and newer, and are compiled for the runner's."""
    default = [f"-arch={arch}"]
    if need is None:
        return default, None
    have = re.fullmatch(r"sm_(\d+)([a-z]?)", arch)
    want = re.fullmatch(r"sm_(\d+)([a-z]?)", need)
    if want and want.group(2):
        if have and have.group(1) != want.group(1):
            return None, f"needs {need}"
        n = want.group(1) + want.group(2)
        return ["-gencode", f"arch=compute_{n},code=sm_{n}"], None
    if have and want and int(have.group(1)) < int(want.group(1)):
        return None, f"needs {need} or newer"
    return default, None


def build_runner(nvcc, arch, build_dir, jobs, dry_run=False):
    """Compiles the runner (one object per source, in parallel) and links it.
    Returns (path, link command). Objects newer than their inputs are reused.
    A driver whose kernel file names an architecture (`// compile-arch:`) is
    compiled for it (sm_90a on a Hopper GPU) and left out of the runner where
    the GPU cannot run it."""
    build_dir = Path(build_dir)
    obj_dir = build_dir / "obj"
    sources = [RUNNER_SRC / "main.cu", RUNNER_SRC / "common.cu"] + sorted(
        (RUNNER_SRC / "drivers").glob("*.cu")
    )
    flags = [
        "-O3",
        "-std=c++17",
        "--default-stream",
        "per-thread",
        "-lineinfo",
        "-I",
        str(REPO),
        "-I",
        str(RUNNER_SRC),
    ]
    headers = [RUNNER_SRC / "common.h", RUNNER_SRC / "drivers" / "util.h"]
    stamp = obj_dir / "flags.txt"
    stamp_text = qjoin([nvcc, f"-arch={arch}"] + flags)
    fresh_flags = stamp.is_file() and stamp.read_text() == stamp_text

    def inputs(src):
        deps = [src, *headers]
        for m in re.finditer(r'#include "(kernels/[^"]+)"', src.read_text()):
            deps.append(REPO / m.group(1))
        return deps

    jobs_list = []
    for src in sources:
        target, why = arch_flags(arch, kernel_arch(src))
        if target is None:
            log(f"skip: {src.relative_to(REPO)} ({why}; the runner is for {arch})")
            continue
        obj = obj_dir / (src.stem + ".o")
        cmd = [nvcc, *flags[:2], *target, *flags[2:], "-c", str(src), "-o", str(obj)]
        up_to_date = (
            fresh_flags
            and obj.is_file()
            and all(obj.stat().st_mtime >= d.stat().st_mtime for d in inputs(src))
        )
        jobs_list.append((cmd, obj, up_to_date))
    exe = build_dir / "runner"
    libdirs = [
        d
        for d in (
            Path(nvcc).resolve().parent.parent / "lib64",
            Path(nvcc).resolve().parent.parent / "targets" / "x86_64-linux" / "lib",
        )
        if d.is_dir()
    ]
    link = [
        nvcc,
        f"-arch={arch}",
        "-o",
        str(exe),
        *[str(o) for _, o, _ in jobs_list],
        "-lcublas",
        "-ldl",
    ]
    for d in libdirs:
        link += ["-Xlinker", "-rpath", "-Xlinker", str(d)]
    if dry_run:
        for cmd, _, _ in jobs_list:
            log("build:", qjoin(cmd))
        log("build:", qjoin(link))
        return exe, link
    obj_dir.mkdir(parents=True, exist_ok=True)
    todo = [(c, o) for c, o, ok in jobs_list if not ok]
    failed = []

    def compile_one(item):
        cmd, obj = item
        log("nvcc:", Path(cmd[cmd.index("-c") + 1]).relative_to(REPO))
        r = run(cmd)
        return cmd, r

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        for cmd, r in ex.map(compile_one, todo):
            out = (r.stdout + r.stderr).strip()
            if out:
                log(out)
            if r.returncode != 0:
                failed.append(cmd)
    if failed:
        for cmd in failed:
            log("build FAILED:", qjoin(cmd))
        sys.exit(1)
    if todo or not exe.is_file():
        log("link:", exe.relative_to(REPO) if exe.is_relative_to(REPO) else exe)
        r = run(link)
        out = (r.stdout + r.stderr).strip()
        if out:
            log(out)
        if r.returncode != 0:
            log("link FAILED:", qjoin(link))
            sys.exit(1)
    stamp.write_text(stamp_text)
    log(f"runner: {exe} ({len(todo)} of {len(jobs_list)} objects rebuilt)")
    return exe, link


def list_cases(runner, only):
    r = run([runner, "--list"], timeout=60)
    if r.returncode != 0:
        log("runner --list failed:", r.stderr.strip())
        sys.exit(2)
    cases = [json.loads(ln) for ln in r.stdout.splitlines() if ln.strip()]
    if only:
        ids = {c["id"] for c in cases}
        for o in only:
            if o not in ids:
                log(f"unknown case '{o}'; known: {' '.join(sorted(ids))}")
                sys.exit(2)
        cases = [c for c in cases if c["id"] in only]
    return cases


# ---- ncu -------------------------------------------------------------------------


def ncu_version(ncu):
    r = run([ncu, "--version"], timeout=60)
    lines = [ln.strip() for ln in r.stdout.splitlines() if ln.strip()]
    v = next(
        (ln for ln in lines if "version" in ln.lower()), lines[-1] if lines else None
    )
    return v


def ncu_known_metrics(ncu):
    """Base names the installed ncu lists for this GPU (empty: unknown, keep all)."""
    r = run([ncu, "--query-metrics"], timeout=120)
    names = set()
    for ln in r.stdout.splitlines():
        tok = ln.strip().split(" ")[0] if ln.strip() else ""
        if re.fullmatch(r"[a-z0-9]+__[a-z0-9_]+", tok):
            names.add(tok)
    return names


def filter_metrics(metrics, known):
    # A query that lists fewer than half of the core metrics was not understood: keep all.
    if (
        sum(m.split(".")[0] in known for m in NCU_CORE_METRICS)
        < len(NCU_CORE_METRICS) / 2
    ):
        return list(metrics)
    return [m for m in metrics if m.split(".")[0] in known or m in known]


def ncu_command(ncu, metrics, runner, case):
    return [
        ncu,
        "--clock-control",
        "none",
        "--cache-control",
        "all",
        "--metrics",
        ",".join(metrics),
        "--csv",
        "--page",
        "details",
        "--print-units",
        "base",
        "--launch-count",
        str(case["launches"]),
        runner,
        "--profile",
        "--case",
        case["id"],
    ]


UNIT_SCALE = {
    "kbyte": 1e3,
    "mbyte": 1e6,
    "gbyte": 1e9,
    "tbyte": 1e12,
    "nsecond": 1e-9,
    "usecond": 1e-6,
    "msecond": 1e-3,
}


def parse_number(text):
    t = (text or "").strip().replace(",", "")
    try:
        v = float(t)
    except ValueError:
        return None
    return int(v) if v.is_integer() and abs(v) < 2**63 else v


def parse_dims(text):
    """ "(256, 1, 1)" -> [256, 1, 1]; anything else -> the text as given."""
    nums = re.findall(r"\d+", text or "")
    return [int(n) for n in nums] if len(nums) == 3 else text


def parse_ncu_csv(text):
    """Per-launch metric values from `ncu --csv --page details` output:
    [{"kernel", "grid", "block", "metrics": {name: value}, "units": {name: unit}}]."""
    rows = [ln for ln in text.splitlines() if ln.startswith('"')]
    if not rows:
        return []
    reader = csv.reader(rows)
    header = None
    launches = {}
    for row in reader:
        if header is None:
            if "Metric Name" in row:
                header = row
            continue
        rec = dict(zip(header, row))
        name = rec.get("Metric Name")
        if not name or name == "Metric Name":
            continue
        lid = rec.get("ID", "0")
        l = launches.setdefault(
            lid,
            {
                "kernel": rec.get("Kernel Name"),
                "grid": parse_dims(rec.get("Grid Size")),
                "block": parse_dims(rec.get("Block Size")),
                "metrics": {},
                "units": {},
            },
        )
        unit = (rec.get("Metric Unit") or "").strip()
        v = parse_number(rec.get("Metric Value"))
        if v is not None and unit.lower() in UNIT_SCALE:
            v = v * UNIT_SCALE[unit.lower()]
            v = int(round(v)) if unit.lower().endswith("byte") else v
            unit = "second" if unit.lower().endswith("second") else "byte"
        l["metrics"][name] = v if v is not None else rec.get("Metric Value")
        l["units"][name] = unit
    return [launches[k] for k in sorted(launches, key=lambda x: parse_number(x) or 0)]


def counters_from(launches, precision, shape=None):
    """The record's "counters" object: metric values summed over the profiled
    launches. SHAPE is tensor_shape()'s (key, FLOPs per tensor-pipe warp
    instruction or None, why None) for the case's kernel; without it a bf16
    case counts m16n8k16 HMMAs."""
    tkey, per_inst, why, mma = shape or tensor_shape("", precision)
    total, units = {}, {}
    for l in launches:
        for k, v in l["metrics"].items():
            units[k] = l["units"].get(k, "")
            if isinstance(v, (int, float)):
                if not k.endswith(".sum"):
                    # rates, maxima, percentages and launch attributes are not
                    # additive: keep the first launch's (per_launch has each)
                    total.setdefault(k, v)
                else:
                    total[k] = total.get(k, 0) + v
            else:
                total.setdefault(k, v)

    def g(name):
        v = total.get(name)
        return v if isinstance(v, (int, float)) else None

    def fl(prefix):
        a, m, f = (
            g(f"sm__sass_thread_inst_executed_op_{prefix}{op}_pred_on.sum")
            for op in ("add", "mul", "fma")
        )
        if a is None and m is None and f is None:
            return None
        return (a or 0) + (m or 0) + 2 * (f or 0)

    hmma = g("sm__inst_executed_pipe_tensor_op_hmma.sum")
    if hmma is None:
        hmma = g("sm__inst_executed_pipe_tensor.sum")
    tensor, tensor_note = None, None
    if hmma is not None:
        if per_inst is not None:
            tensor = hmma * per_inst
        elif hmma == 0 and not mma:
            tensor = 0  # no MMA in the kernel, none executed
        else:
            # A kernel whose MMAs cannot be measured (wgmma) stays null even
            # at a count of 0: the counter may not see its instructions.
            tensor_note = why
    conflicts = g("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum")
    if conflicts is None:
        ld, st = (
            g(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{o}.sum")
            for o in ("ld", "st")
        )
        if ld is not None or st is not None:
            conflicts = (ld or 0) + (st or 0)
    return {
        "flops": {
            "fp32": fl("f"),
            "fp64": fl("d"),
            "fp16": fl("h"),
            tkey: tensor,
        },
        "flops_method": "executed SASS thread instructions: add + mul + 2 * fma (fp16: per instruction, "
        f"packed half2 not doubled); {tkey} = tensor-pipe warp instructions * "
        + (
            f"{per_inst} (2*m*n*k of the kernel's MMA shape)"
            if per_inst is not None
            else (
                "FLOPs per instruction (0 when none executed, else null: %s)" % why
                if not mma
                else "FLOPs per instruction (null: %s)" % why
            )
        ),
        "tensor_flops_note": tensor_note,
        "global_load_bytes": g("l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum"),
        "global_store_bytes": g("l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum"),
        "global_load_sectors": g("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
        "global_load_requests": g("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
        "global_store_sectors": g("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
        "global_store_requests": g("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
        "dram_bytes_read": g("dram__bytes_read.sum"),
        "dram_bytes_write": g("dram__bytes_write.sum"),
        "shared_bank_conflicts": conflicts,
        "profiled_launches": [
            {"kernel": l["kernel"], "grid": l["grid"], "block": l["block"]}
            for l in launches
        ],
        "metrics": total,
        "metric_units": units,
    }


def profile_case(ncu, metrics, runner, case, timeout):
    """Returns (counters or None, command, error or None)."""
    cmd = ncu_command(ncu, metrics, runner, case)
    r = run(cmd, timeout=timeout)
    launches = parse_ncu_csv(r.stdout)
    if r.returncode == 0 and launches:
        shape = case_tensor_shape(case)
        counters = counters_from(launches, case["precision"], shape)
        if counters.get("tensor_flops_note"):
            log(f"{case['id']}: measured {shape[0]} is null: {shape[2]}")
        if (
            len(launches) > 1
        ):  # e.g. cos_cos_unfused: the sums above, and each launch on its own
            counters["per_launch"] = [
                counters_from([l], case["precision"], shape) for l in launches
            ]
        return counters, cmd, None
    tail = (r.stdout + r.stderr).strip().splitlines()[-15:]
    return None, cmd, f"ncu exit {r.returncode}: " + " | ".join(tail)


# ---- records ---------------------------------------------------------------------


def record_path(out, gpu_id, case):
    return Path(out) / gpu_id / f"{case['id']}__{case['size_tag']}.json"


def make_record(case, res, ceil, ctx):
    launches = res.get("launches") or None
    first = launches[0] if launches else None
    clocks = res.get("clocks") or {}
    during = clocks.get("during") or {}
    smi_after = ctx["smi_after"].get(case["id"])
    sm = during.get("sm_mhz")
    mem = during.get("mem_mhz")
    clock_source = "nvml, sampled while the timed repetitions ran"
    if sm is None and smi_after:
        sm, mem = smi_after["sm_mhz"], smi_after["mem_mhz"]
        clock_source = "nvidia-smi, right after the case"
    dev = res.get("device") or {}
    timing = dict(res["timing"])
    timing.setdefault("l2_flush", True)
    prov = {
        "gpu_name": dev.get("name") or ctx["smi"].get("name"),
        "gpu_id": ctx["gpu_id"],
        "driver_version": ctx["smi"].get("driver_version") or dev.get("driver_version"),
        "cuda_runtime_version": dev.get("cuda_runtime_version"),
        "cuda_driver_version": dev.get("cuda_driver_version"),
        "sm_clock_mhz": sm,
        "mem_clock_mhz": mem,
        "date": ctx["date"][case["id"]],
        "command": res.get("runner_command"),
        "ncu_version": None,
        "clock_source": clock_source,
        "clocks": {
            "during": clocks.get("during"),
            "after": clocks.get("after"),
            "nvidia_smi_after": smi_after,
            "max_sm_mhz": dev.get("max_sm_clock_mhz"),
            "max_mem_mhz": dev.get("max_mem_clock_mhz"),
        },
        "device": dev,
        "orchestrator_command": ctx["orchestrator_command"],
        "build_command": ctx["build_command"],
        "git_commit": ctx["git_commit"],
        "git_dirty": ctx["git_dirty"],
        "host": platform.node(),
        "runner_warnings": res.get("warnings") or [],
    }
    ceilings = (
        {
            k: ceil.get(k)
            for k in ("dram_bandwidth_Bps", "fp32_flops", "bf16_tensor_flops")
        }
        if ceil
        else {"dram_bandwidth_Bps": None, "fp32_flops": None, "bf16_tensor_flops": None}
    )
    if ceil:
        ceilings["details"] = ceil.get("details")
        ceilings["command"] = ceil.get("runner_command")
    else:
        ceilings["error"] = ctx.get("ceilings_error")
    return {
        "schema": SCHEMA,
        "synthetic": False,
        "kernel": {
            "id": case["id"],
            "file": case["file"],
            "name": case["name"],
            "params": case["params"],
            "launch": (
                {"grid": first["grid"], "block": first["block"], "smem": first["smem"]}
                if first
                else None
            ),
            "launches": launches,
        },
        "analyzer_args": case["analyzer_args"],
        "provenance": prov,
        "timing": timing,
        "verification": res["verification"],
        "counters": None,
        "ceilings": ceilings,
        "sass": sass_facts.record_facts(
            {"kernel": {"launches": launches}}, ctx.get("sass") or {}
        ),
    }


def write_record(path, rec):
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(rec, indent=2) + "\n")
    tmp.replace(path)


def analyzer_check(analyzer, case, gpu_id, launches=None):
    """Compares the case's kernel name(s), and the captured launches if given,
    with cuda-roofline's JSON for analyzer_args. Returns a list of problems."""
    cmd = [analyzer, *case["analyzer_args"], "--format=json"]
    if gpu_id:
        cmd.append(f"--gpu={gpu_id}")
    r = run(cmd, timeout=300, cwd=REPO)
    try:
        ks = json.loads(r.stdout)["kernels"]
    except (ValueError, KeyError):
        return [f"analyzer failed: {r.stderr.strip()[-300:]}"]
    problems = []
    names = [k["name"] for k in ks]
    if names != [case["name"]] * case["launches"]:
        problems.append(
            f"analyzer reports {names}, the case expects {case['launches']} x {case['name']!r}"
        )
    if launches is not None:
        got = [(l["grid"], l["block"]) for l in launches]
        want = [(k["launch"]["grid"], k["launch"]["block"]) for k in ks]
        if got != want:
            problems.append(
                f"captured launches {got} differ from the analyzer's {want}"
            )
    return problems


# ---- main ------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(
        description="Time, verify and profile the bundled kernels on this GPU; write validation records.",
        epilog="Example: python3 tools/validate/run.py --out test/validation/records",
    )
    ap.add_argument(
        "--out",
        default=str(REPO / "test" / "validation" / "records"),
        help="records directory (default: test/validation/records); records go to OUT/<gpu-id>/",
    )
    ap.add_argument(
        "--gpu-id",
        help="cuda-roofline GPU id to file the records under (default: from the GPU name)",
    )
    ap.add_argument(
        "--case",
        action="append",
        default=[],
        help="only this case (repeatable; see --dry-run)",
    )
    ap.add_argument(
        "--reps",
        type=int,
        default=30,
        help="minimum timed repetitions per case (>= 20; default 30)",
    )
    ap.add_argument(
        "--warmup",
        type=int,
        default=3,
        help="minimum warm-up calls per case (default 3)",
    )
    ap.add_argument(
        "--no-ncu",
        action="store_true",
        help="do not run Nsight Compute (counters stay null)",
    )
    ap.add_argument(
        "--ncu",
        help="ncu executable (default: ncu on PATH, /usr/local/cuda/bin, /opt/nvidia/nsight-compute)",
    )
    ap.add_argument(
        "--case-timeout",
        type=float,
        default=120,
        help="seconds per runner case (default 120)",
    )
    ap.add_argument(
        "--ncu-timeout",
        type=float,
        default=120,
        help="seconds per ncu case (default 120)",
    )
    ap.add_argument(
        "--time-budget",
        type=float,
        default=480,
        help="seconds for the whole run; ncu runs that would start later are skipped (default 480)",
    )
    ap.add_argument(
        "--nvcc", help="nvcc (default: $NVCC, nvcc on PATH, /usr/local/cuda/bin/nvcc)"
    )
    ap.add_argument(
        "--arch",
        help="sm_XX to build for (default: the GPU's, from nvidia-smi; else -arch=native)",
    )
    ap.add_argument(
        "--build-dir",
        default=str(REPO / "build" / "validate"),
        help="where the runner is built",
    )
    ap.add_argument(
        "-j", "--jobs", type=int, default=os.cpu_count() or 1, help="parallel nvcc jobs"
    )
    ap.add_argument(
        "--runner", help="use this runner executable instead of building one"
    )
    ap.add_argument(
        "--analyzer",
        help="cuda-roofline binary for the name/launch cross-check "
        "(default: build/bin/cuda-roofline when present)",
    )
    ap.add_argument(
        "--check-analyzer",
        action="store_true",
        help="with --dry-run: compare every case's kernel name with cuda-roofline's output",
    )
    ap.add_argument(
        "--build-only", action="store_true", help="build the runner and stop"
    )
    ap.add_argument(
        "--dry-run",
        action="store_true",
        help="print the cases and the commands that would run; run nothing on the GPU",
    )
    args = ap.parse_args()
    t0 = time.time()
    orchestrator_command = qjoin([sys.executable, *sys.argv])

    smi = (
        None
        if (args.dry_run or args.build_only) and not shutil.which("nvidia-smi")
        else nvidia_smi()
    )
    smi = smi or {}
    arch = args.arch
    if not arch and smi.get("compute_cap"):
        arch = "sm_" + smi["compute_cap"].replace(".", "")
    if not arch:
        arch = "sm_90" if (args.dry_run or args.build_only) else "native"

    runner = args.runner
    link_cmd = None
    nvcc = find_nvcc(args.nvcc)
    if not runner:
        if not nvcc:
            log("nvcc not found (set --nvcc or $NVCC)")
            return 2
        runner, link_cmd = build_runner(nvcc, arch, args.build_dir, args.jobs)
    runner = str(Path(runner).resolve())
    if args.build_only:
        return 0

    analyzer = find_analyzer(args.analyzer)
    known = known_gpu_ids(analyzer)
    gpu_name = smi.get("name")
    gpu_id = args.gpu_id or gpu_id_for(gpu_name, known)
    if args.gpu_id and known and args.gpu_id not in known:
        log(f"warning: --gpu-id {args.gpu_id} is not in cuda-roofline --list-gpus")
    if not gpu_id:
        slug = re.sub(r"[^a-z0-9]+", "-", (gpu_name or "unknown").lower()).strip("-")
        gpu_id = "unknown-" + slug
        log(
            f"warning: no cuda-roofline GPU id for '{gpu_name}'; filing under {gpu_id} (use --gpu-id)"
        )
    cases = list_cases(runner, args.case)
    ncu = None if args.no_ncu else find_ncu(args.ncu)
    metrics = NCU_CORE_METRICS + NCU_EXTRA_METRICS
    tmp = Path(args.build_dir) / "out"
    reps = ["--reps", str(max(args.reps, 1)), "--warmup", str(max(args.warmup, 1))]

    if args.dry_run:
        log(f"gpu: {gpu_name or '(no nvidia-smi)'} -> id {gpu_id}")
        log(f"runner: {runner}")
        log(
            "ncu:",
            ncu
            or (
                "(disabled by --no-ncu)"
                if args.no_ncu
                else "(not found: counters would be null)"
            ),
        )
        log("ceilings:", qjoin([runner, "--ceilings", *reps, "--out", tmp]))
        for c in cases:
            log(f"case {c['id']} {c['size_tag']} -> {record_path(args.out, gpu_id, c)}")
            log("  run:", qjoin([runner, "--case", c["id"], *reps, "--out", tmp]))
            if ncu:
                log("  ncu:", qjoin(ncu_command(ncu, metrics, runner, c)))
            log(
                "  analyzer:",
                qjoin(
                    [
                        "cuda-roofline",
                        *c["analyzer_args"],
                        "--format=json",
                        f"--gpu={gpu_id}",
                    ]
                ),
            )
            if args.check_analyzer:
                if not analyzer:
                    log(
                        "  check: no cuda-roofline binary (build it, or pass --analyzer)"
                    )
                else:
                    p = analyzer_check(analyzer, c, gpu_id if gpu_id in known else None)
                    log("  check:", "ok" if not p else "MISMATCH: " + "; ".join(p))
        log(f"{len(cases)} case(s)")
        return 0

    if not gpu_name:
        log(
            "no GPU found (nvidia-smi is missing or reports none); use --dry-run on a machine without one"
        )
        return 2
    log(
        f"gpu: {gpu_name} (driver {smi.get('driver_version')}, {arch}) -> records in {Path(args.out) / gpu_id}"
    )
    git_commit, git_dirty = git_info()
    tmp.mkdir(parents=True, exist_ok=True)
    for f in tmp.glob("*.json"):
        f.unlink()
    ctx = {
        "gpu_id": gpu_id,
        "smi": smi,
        "orchestrator_command": orchestrator_command,
        "build_command": qjoin(link_cmd) if link_cmd else None,
        "git_commit": git_commit,
        "git_dirty": git_dirty,
        "date": {},
        "smi_after": {},
        "sass": runner_sass_facts(nvcc, runner),
    }

    # Ceilings, once for the whole run.
    log("ceilings: measuring (copy, SGEMM, bf16 GEMM at 8192^3)")
    r = run([runner, "--ceilings", *reps, "--out", tmp], timeout=300)
    relay(r.stderr)
    ceil = None
    try:
        ceil = (
            json.loads((tmp / "ceilings.json").read_text())
            if r.returncode == 0
            else None
        )
    except (OSError, ValueError) as e:
        ctx["ceilings_error"] = f"unreadable ceilings output: {e}"
    if ceil is None:
        ctx.setdefault(
            "ceilings_error",
            f"runner --ceilings exit {r.returncode}: {r.stderr.strip()[-500:]}",
        )
        log("ceilings FAILED:", ctx["ceilings_error"])

    # Timing and verification of every case.
    records, failures = {}, []
    for c in cases:
        ctx["date"][c["id"]] = utc_now()
        r = run(
            [runner, "--case", c["id"], *reps, "--out", tmp], timeout=args.case_timeout
        )
        relay(r.stderr)
        ctx["smi_after"][c["id"]] = smi_clocks()
        try:
            res = (
                json.loads((tmp / f"{c['id']}.json").read_text())
                if r.returncode == 0
                else None
            )
        except (OSError, ValueError) as e:
            res = None
            log(f"{c['id']}: unreadable runner output: {e}")
        if res is None:
            failures.append(f"{c['id']}: runner exit {r.returncode}")
            log(f"{c['id']}: FAILED (exit {r.returncode}); no record written")
            continue
        rec = make_record(c, res, ceil, ctx)
        if analyzer:
            p = analyzer_check(
                analyzer, c, gpu_id if gpu_id in known else None, res.get("launches")
            )
            rec["provenance"]["analyzer_check"] = p or "ok"
            for msg in p:
                log(f"{c['id']}: warning: {msg}")
        if not rec["verification"]["passed"]:
            failures.append(f"{c['id']}: verification failed")
        path = record_path(args.out, gpu_id, c)
        write_record(path, rec)
        records[c["id"]] = (c, rec, path)
        log(
            f"{c['id']}: median {rec['timing']['median_s'] * 1e6:.2f} us, verification "
            f"{'passed' if rec['verification']['passed'] else 'FAILED'} -> {path}"
        )

    # Hardware counters, cheapest cases first, within the time budget.
    if ncu and records:
        version = ncu_version(ncu)
        known_m = ncu_known_metrics(ncu)
        use = filter_metrics(metrics, known_m)
        dropped = sorted(set(metrics) - set(use))
        log(
            f"ncu: {ncu} ({version}); {len(use)} metrics"
            + (f", not available: {', '.join(dropped)}" if dropped else "")
        )
        order = sorted(records.values(), key=lambda x: x[1]["timing"]["median_s"])
        succeeded, failed_in_a_row = 0, 0
        for c, rec, path in order:
            left = args.time_budget - (time.time() - t0)
            skip = None
            if left < 20:
                skip = f"skipped: the time budget of {args.time_budget:.0f} s was spent"
            elif succeeded == 0 and failed_in_a_row >= 3:
                skip = "skipped: ncu failed on the first 3 cases"
            if skip:
                log(f"{c['id']}: ncu {skip}")
                rec["provenance"]["ncu_error"] = skip
                write_record(path, rec)
                continue
            counters, cmd, err = profile_case(
                ncu, use, runner, c, min(args.ncu_timeout, left)
            )
            if err and use != NCU_CORE_METRICS and "metric" in err.lower():
                log(
                    f"{c['id']}: ncu failed with the full metric list; retrying with the core metrics"
                )
                counters, cmd, err = profile_case(
                    ncu,
                    filter_metrics(NCU_CORE_METRICS, known_m),
                    runner,
                    c,
                    min(
                        args.ncu_timeout, max(20, args.time_budget - (time.time() - t0))
                    ),
                )
            rec["provenance"]["ncu_version"] = version
            rec["provenance"]["ncu_command"] = qjoin(cmd)
            if err:
                failed_in_a_row += 1
                rec["provenance"]["ncu_error"] = err
                log(f"{c['id']}: ncu FAILED: {err[-400:]}")
            else:
                succeeded += 1
                rec["counters"] = counters
                n = len(counters["profiled_launches"])
                if n != c["launches"]:
                    log(
                        f"{c['id']}: warning: ncu profiled {n} launch(es), expected {c['launches']}"
                    )
                log(f"{c['id']}: counters read ({n} launch(es))")
            write_record(path, rec)
    elif not ncu and not args.no_ncu:
        log("ncu: not found; counters are null")

    log(
        f"{len(records)} record(s) in {Path(args.out) / gpu_id}; {time.time() - t0:.0f} s"
    )
    for f in failures:
        log("FAILED:", f)
    return 1 if failures or len(records) < len(cases) else 0


if __name__ == "__main__":
    sys.exit(main())
