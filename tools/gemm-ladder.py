#!/usr/bin/env python3
"""Regenerates docs/gemm-ladder.md from cuda-roofline's own JSON output.

Every figure in the walkthrough (FLOPs, bytes, intensities, speeds of light,
ridge points) is read from `cuda-roofline --format=json` run on the bundled
GEMM ladder in kernels/gemm/ at M = N = K = 4096 on one GPU; nothing is typed
by hand. The explanations are text with placeholders filled from the same
JSON.

  tools/gemm-ladder.py                 rewrite docs/gemm-ladder.md
  tools/gemm-ladder.py --check         exit 1 if the file is out of date
  tools/gemm-ladder.py --tool PATH     use this cuda-roofline binary
"""
import argparse
import difflib
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import roofline_tools  # noqa: E402

ROOT = roofline_tools.ROOT
SIZE = 4096
GPU = "h100-sxm"
# The GPUs the predicted times are given for: the ladder's own, and an
# Ampere part of each kind: GA100 (A100) and GA102 (RTX A6000).
PREDICT_GPUS = ["h100-sxm", "a100-80gb-sxm", "rtx-a6000"]

# (key, rung title, file under kernels/gemm/, what it needs to run: None for
# any GPU, else (architecture, the feature that needs it)). A file that names
# its own architecture (`// compile-arch: sm_XX`, kernels/compile-all.sh)
# must name the same one.
RUNGS = [
    ("naive", "Naive (thread x → row)", "naive.cu", None),
    ("coalesced", "Coalesced (thread x → column)", "coalesced.cu", None),
    ("smem", "Shared-memory tiles", "smem_tiled.cu", None),
    ("bt1d", "1-D blocktiling", "blocktile_1d.cu", None),
    ("bt2d", "2-D blocktiling", "blocktile_2d.cu", None),
    ("vec", "Vectorized (float4)", "vectorized.cu", None),
    ("warp", "Warp tiling", "warptile.cu", None),
    ("wmma", "Tensor cores (WMMA bf16)", "wmma_bf16.cu", ("sm_80", "bf16")),
    (
        "mma",
        "Tensor cores (mma.sync PTX)",
        "mma_sync_bf16.cu",
        ("sm_80", "bf16"),
    ),
    (
        "cpasync",
        "cp.async pipeline + ldmatrix",
        "cp_async_bf16.cu",
        ("sm_80", "cp.async"),
    ),
    ("fp16", "fp16 mma.sync", "mma_sync_fp16.cu", ("sm_80", "fp16 mma.sync")),
    ("fp8", "fp8 (e4m3) mma.sync", "mma_sync_fp8.cu", ("sm_89", "fp8")),
    ("wgmma", "Warp-group MMA (wgmma)", "wgmma_bf16.cu", ("sm_90a", "wgmma")),
]


def arch_number(arch):
    """("sm_90a" ->) (90, "a")."""
    m = re.match(r"^sm_(\d+)([a-z]?)$", arch)
    if not m:
        sys.exit("gemm-ladder: cannot read architecture %r" % arch)
    return int(m.group(1)), m.group(2)


def runs_on(needs, gpu_arch):
    """Whether a rung that NEEDS (see RUNGS) runs on a GPU of GPU_ARCH: the
    architecture or a later one, and exactly that one for an
    architecture-specific target (sm_90a: sm_90 only)."""
    if needs is None:
        return True
    want, suffix = arch_number(needs[0])
    have, _ = arch_number(gpu_arch)
    return have == want if suffix == "a" else have >= want


def compile_arch(fname):
    """The `// compile-arch:` line of kernels/gemm/FNAME, or None."""
    with open(os.path.join(ROOT, "kernels", "gemm", fname), encoding="utf-8") as fh:
        for line in fh:
            m = re.match(r"^// compile-arch: *(sm_[0-9]+[a-z]*) *$", line)
            if m:
                return m.group(1)
    return None


def check_rungs():
    for key, _, fname, needs in RUNGS:
        arch = compile_arch(fname)
        if arch is not None and (needs is None or needs[0] != arch):
            sys.exit(
                "gemm-ladder: %s says compile-arch %s but RUNGS gives %s"
                % (fname, arch, needs and needs[0])
            )


def tensor_flops(flops):
    """The tensor-core FLOPs of a `flops` object, whatever the precision key
    (tensor_bf16, tensor_fp16_fp32acc, tensor_fp8_fp32acc, ...)."""
    return sum(v for p, v in flops.items() if p.startswith("tensor_"))


def precision_name(p):
    """fp16_fp32acc -> "fp16 (fp32 accumulate)"."""
    if p.endswith("_fp32acc"):
        return p[: -len("_fp32acc")] + " (fp32 accumulate)"
    return p


def analyze(tool, path, gpu=GPU):
    cmd = [tool, path, "--gpu", gpu, "--format=json"]
    for p in ("M", "N", "K"):
        cmd += ["--param", "%s=%d" % (p, SIZE)]
    proc, doc = roofline_tools.run_json(cmd)
    if proc.returncode != 0:
        sys.exit("gemm-ladder: %s failed:\n%s" % (" ".join(cmd), proc.stderr))
    if len(doc["kernels"]) != 1:
        sys.exit("gemm-ladder: expected one kernel in %s" % path)
    k = doc["kernels"][0]
    if k["unknowns"]:
        sys.exit("gemm-ladder: %s has unknowns: %s" % (path, k["unknowns"]))
    return doc["gpu"], k


def si(x, unit=""):
    """1.23 G style figure for tables."""
    return roofline_tools.si(x, unit, digits=3, largest="T")


def exact(n):
    """Exact integer with thin-space digit groups."""
    return "{:,}".format(n).replace(",", "\u2009")


def seconds(s):
    return roofline_tools.seconds(s, sec=None, ms="%.3f ms", us="%.1f µs")


def figures(gpu, k):
    t = k["totals"]
    ai = k["arithmetic_intensity"]
    sol = k["speed_of_light"]
    requested = (
        t["global_load_bytes"] + t["global_store_bytes"] + t.get("atomic_bytes", 0)
    )
    precisions = ", ".join("%s %d" % (p, v) for p, v in sorted(t["flops"].items()))
    return {
        "name": k["name"],
        "line": k["line"],
        "loads": t["global_loads"],
        "flops": t["flops_total"],
        "flops_by_precision": precisions,
        "tensor": tensor_flops(t["flops"]),
        "tensor_keys": ", ".join(
            "`%s`" % p for p in sorted(t["flops"]) if p.startswith("tensor_")
        ),
        "shared_load": t.get("shared_load_bytes", 0),
        "shared_store": t.get("shared_store_bytes", 0),
        "requested": requested,
        "dram_lower": t["dram_bytes"]["lower"],
        "shared": t["shared_bytes"],
        "ai_req": ai["requested"],
        "ai_comp": ai["upper"],
        "unit": sol["unit"],
        "precision": sol["precision"],
        "peak": sol["peak_flops"],
        "ridge": sol["ridge"],
        "sol": sol["seconds"],
        "sol_req": sol["seconds_upper"],
        "bound": sol["bound"],
        "pred": k["predicted"]["seconds"],
        "per_thread_flops": k["per_thread"]["flops_total"]["expr"],
        "per_thread_loads": k["per_thread"]["global_load_bytes"]["expr"],
        "ai_formula": ai["per_thread_formula"],
    }


INTRO = """\
# The GEMM ladder, read on the roofline

<!-- Generated by tools/gemm-ladder.py from cuda-roofline's JSON output.
     Do not edit by hand: run `tools/gemm-ladder.py` after changing a kernel
     or the analysis, and `tools/gemm-ladder.py --check` verifies it. -->

The bundled kernels in `kernels/gemm/` compute C = alpha·A·B + beta·C for
row-major matrices, one file per optimization. Each was analyzed with

    cuda-roofline kernels/gemm/FILE --gpu {gpu_id} --param M={n} --param N={n} --param K={n} --format=json

and every number below is copied out of that JSON by `tools/gemm-ladder.py`
(GPU: {gpu_name}, {bw:.0f} GB/s of DRAM bandwidth).

The roofline model (Williams, Waterman and Patterson, "Roofline: an
insightful visual performance model for multicore architectures", CACM 2009)
plots a kernel at its *arithmetic intensity* — FLOPs per byte moved from
DRAM — under two ceilings: the sloped one, bandwidth × intensity, and the
flat one, peak FLOP/s. The *ridge point* is where they meet: a kernel left of
it cannot reach peak compute however well it is scheduled, a kernel right of
it can. Optimizing a GEMM is moving its point to the right, by keeping data
on chip so that each byte fetched feeds more FLOPs, and then raising the
ceiling it sits under (tensor cores).

Two intensities matter, and the tool reports both:

* **Requested-traffic AI** (`arithmetic_intensity.requested`): FLOPs divided
  by every byte the kernel's global loads and stores ask for. It is what the
  kernel would achieve if no cache helped at all, and it is the number that
  tiling raises: data reused from shared memory or registers is no longer
  requested from global memory.
* **Compulsory AI** (`arithmetic_intensity.upper`): FLOPs divided by the
  bytes no cache can avoid (A and B read once, C read once and written once).
  For a 4096³ GEMM it is the same for every rung — the problem fixes it — and
  it is far right of every ridge: GEMM is compute-bound *in principle*.
  Whether a kernel gets there depends on how close its requested traffic
  comes to the compulsory traffic, i.e. on the first intensity.

The speed of light is max(FLOPs / peak, bytes / bandwidth) on the unit the
kernel's FLOPs run on (fp32 CUDA cores, or for the tensor-core rungs the
tensor cores at the peak of their input precision: bf16, fp16 or fp8). The table gives it with compulsory traffic (the best any cache could
do) and with no cache at all (`dram_bytes.upper`: every 32-byte sector the
requests touch comes from DRAM): the gap between the two is how much a rung
depends on L1/L2 to reach its ceiling.

"""

TABLE_HEAD = """\
| Rung | Kernel | FLOPs | Requested global bytes | Shared bytes | Requested AI (FLOP/B) | Compulsory AI (FLOP/B) | Unit | Ridge (FLOP/B) | Speed of light | Speed of light, no cache |
|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|
"""

ROW = (
    "| {i}. {title} | [`{file}`](../kernels/gemm/{file}) | {flops} | {requested} "
    "| {shared} | {ai_req:.2f} | {ai_comp:.1f} | {precision} {unit} | {ridge:.1f} "
    "| {sol} | {sol_req} |\n"
)

# What each rung changes for the next one, said once for the prediction
# tables (the resource it relieves is the one its limiter names).
NEXT_CHANGE = {
    "naive": "maps thread x to the column: a warp's requests of A become one broadcast sector, those of B and C 4 sectors, not 32",
    "coalesced": "stages tiles of A and B in shared memory: each global element feeds TILE FMAs instead of one",
    "smem": "keeps TM results per thread in registers: one shared value of B feeds TM FMAs",
    "bt1d": "computes a TM×TN outer product per thread: TM + TN shared loads feed TM·TN FMAs",
    "bt2d": "loads with float4 (one instruction for four values) and stores A transposed so a thread's values are contiguous",
    "vec": "gives each warp its own sub-tile, so a lane reuses each shared value across more FMAs",
    "warp": "moves the FMAs to bf16 tensor cores (`wmma`): 2·16·16·16 FLOPs per warp instruction",
    "wmma": "writes the same MMAs as inline `mma.sync` PTX with hand-built fragments",
    "mma": "copies A and B into shared memory with double-buffered `cp.async` and loads fragments with `ldmatrix`",
    "cpasync": "switches the inputs to fp16, the same m16n8k16 shape and FLOPs per instruction, on a 64×128 block tile",
    "fp16": "halves the element size again: e4m3 fp8 inputs, m16n8k32 (2·16·8·32 FLOPs per warp instruction)",
    "fp8": "hands a whole warp group's 64×N×16 MMA to Hopper's asynchronous `wgmma`, its operands read from shared memory",
    "wgmma": "(the last rung)",
}


def prediction(k):
    """(seconds, limiter text, the next two resources) of a kernel's JSON."""
    p = k["predicted"]
    res = p["resources"]
    if p["seconds"] is None or not res:
        sys.exit(
            "gemm-ladder: %s has no prediction: %s" % (k["name"], p.get("unknown"))
        )
    top = res[0]
    text = top["title"]
    if "per_fma" in top:
        text += " (%.3g per FMA)" % top["per_fma"]
    rest = ", ".join("%s %s" % (r["title"], seconds(r["seconds"])) for r in res[1:3])
    return p["seconds"], text, rest


def prediction_section(tool):
    """The predicted time of every rung on each of PREDICT_GPUS, and whether
    the times rank the rungs in the ladder's order. A rung the GPU cannot run
    (RUNGS: fp8 needs sm_89, wgmma sm_90a) is left out with a line that says
    why."""
    out = [
        "## Predicted time, rung by rung\n\n"
        "The speed of light above is the algorithm's; the prediction is the "
        "implementation's ([prediction.md](prediction.md)): every resource's "
        "work — DRAM and L2 bytes, L1 wavefronts, load/store and issued "
        "instructions counted on the kernel's machine code, FP32 lanes, FLOPs "
        "at peak — at its published throughput, and the memory latency the "
        "resident warps must cover (Little's law, with the registers ptxas "
        "allocates), the longest of them the time and its resource the "
        "limiter. A rung is predicted only on the GPUs whose architecture "
        "can run it.\n\n"
    ]
    for gpu_id in PREDICT_GPUS:
        rows = []
        skipped = []
        gpu = None
        for i, (key, title, fname, needs) in enumerate(RUNGS, 1):
            if gpu is not None and not runs_on(needs, gpu["arch"]):
                skipped.append((i, title, needs))
                continue
            g, k = analyze(tool, os.path.join(ROOT, "kernels", "gemm", fname), gpu_id)
            gpu = g
            if not runs_on(needs, gpu["arch"]):
                skipped.append((i, title, needs))
                continue
            sec, limiter, rest = prediction(k)
            sol = k["speed_of_light"]
            rows.append(
                (
                    key,
                    title,
                    sec,
                    limiter,
                    rest,
                    sol["seconds"],
                    i,
                    sol["unit"] == "tensor_core",
                )
            )
        out.append("### %s\n\n" % gpu["name"])
        out.append(
            "| Rung | Predicted | Limiter | Next resources | Speed of light | The next rung |\n"
            "|---|---:|---|---|---:|---|\n"
        )
        for key, title, sec, limiter, rest, sol, i, _ in rows:
            out.append(
                "| %d. %s | %s | %s | %s | %s | %s |\n"
                % (
                    i,
                    title,
                    seconds(sec),
                    limiter,
                    rest,
                    seconds(sol),
                    NEXT_CHANGE[key],
                )
            )
        if skipped:
            out.append(
                "\nNot predicted on the %s (%s), which cannot run them: %s.\n"
                % (
                    gpu["name"],
                    gpu["arch"],
                    "; ".join(
                        "%d. %s, needs %s (%s)" % (i, title, needs[0], needs[1])
                        for i, title, needs in skipped
                    ),
                )
            )
        out.append("\n" + ranking(rows) + "\n\n")
    return "".join(out)


def why_not_faster(a, b):
    """Why rung b's row is not predicted faster than the rung a before it."""
    if a[3] == b[3]:
        return "both limited by " + b[3]
    if b[2] <= a[2] * 1.01:
        return "both within 1%"
    return "the later one limited by " + b[3]


def ranking(rows):
    """Whether each fp32 rung is predicted faster than the one before it;
    the tensor-core rungs (the row's last field) are compared with the
    fastest fp32 rung only."""
    fp32 = [r for r in rows if not r[-1]]
    tensor = [r for r in rows if r[-1]]
    misses = []
    for a, b in zip(fp32, fp32[1:]):
        # Within 1% is a tie: the model cannot tell the two apart.
        if b[2] >= a[2] * 0.99:
            misses.append(
                "%s (%s) is not predicted faster than %s (%s): %s"
                % (
                    b[1],
                    seconds(b[2]),
                    a[1],
                    seconds(a[2]),
                    why_not_faster(a, b),
                )
            )
    fastest = min(r[2] for r in fp32)
    for t in tensor:
        if not t[2] < fastest:
            misses.append("%s is not faster than every fp32 rung" % t[1])
    if not misses:
        return (
            "The predicted times rank the fp32 rungs in the ladder's order, "
            "and every tensor-core rung below every fp32 one."
        )
    return "Out of the ladder's order: " + "; ".join(misses) + "."


RUNG_TEXT = {
    "naive": """\
One thread per output; thread x walks down the rows of C. Per thread the
tool counts `{per_thread_flops}` FLOPs and `{per_thread_loads}` bytes
loaded: for every k, one 4-byte element of A and one of B feed one FMA
(2 FLOPs). That is {ai_req:.3f} FLOP/B of requested traffic, the ≈0.25 of
every textbook — {ridge_ratio:.0f}× left of the fp32 ridge ({ridge:.1f}). It is
also uncoalesced: the lanes of a warp read different rows of A, K
elements apart, so each 4-byte element costs a whole 32-byte sector. Served
entirely from DRAM, sector by sector, the kernel would take {sol_req}; only
the caches stand between it and that.
""",
    "coalesced": """\
The same arithmetic with thread x mapped to the column: a warp now reads one
element of A (a broadcast) and 32 consecutive elements of B, and writes 32
consecutive elements of C. Requested bytes and FLOPs are unchanged
({ai_req:.3f} FLOP/B) — the roofline point does not move. What changes is
how many 32-byte sectors each request costs, which is the hardware's
effective bandwidth, which the sector-level access findings measure: with no
cache the kernel would now take {sol_req}, not {prev_sol_req}. On the
roofline this rung is about reaching the sloped ceiling, not moving along it.
""",
    "smem": """\
A TILE×TILE block stages a tile of A and a tile of B in shared memory and
each thread then reads TILE elements of each from there. Every element
fetched from global memory now feeds TILE FMAs: the requested bytes drop from
{prev_requested} to {requested} and requested-traffic AI rises
{ai_gain:.0f}× to {ai_req:.2f} FLOP/B, {side} the ridge ({ridge:.1f}). The traffic
moved to shared memory ({shared}), which is an order of magnitude
faster than DRAM but not free: each FMA still needs two shared loads.
""",
    "bt1d": """\
Each thread computes TM outputs down a column: one B value read from shared
memory feeds TM FMAs held in registers. The block tile grows to BM×BN, so
each global element is reused by more outputs: requested-traffic AI rises
{ai_gain:.1f}× to {ai_req:.2f} FLOP/B, {side} the ridge ({ridge:.1f}). With no help
from caches the kernel would be {nocache_bound}-bound ({sol_req} against a
compute bound of {sol}). Shared traffic falls too ({shared} against
{prev_shared}).
""",
    "bt2d": """\
Each thread computes a TM×TN sub-tile as an outer product: per k it reads TM
values of A and TN of B from shared memory into registers and issues TM·TN
FMAs. With a 128×128 block tile the requested-traffic AI rises
{ai_gain:.1f}× to {ai_req:.2f} FLOP/B, {side} the ridge ({ridge:.1f}), and
shared-memory traffic falls to {shared}: the register file now carries most
of the reuse. With no cache at all the kernel would be
{nocache_bound}-bound ({sol_req} against a compute bound of {sol}).
""",
    "vec": """\
The same tiling with 16-byte accesses: float4 global loads of A and B, A
stored transposed in shared memory so that a thread's TM values of A are
contiguous, float4 shared loads into registers, and float4 loads and stores
of C. Bytes and FLOPs are exactly those of 2-D blocktiling ({requested}
requested, {ai_req:.2f} FLOP/B): the point on the roofline does not move. The
number of memory instructions does — global loads fall from {prev_loads} to
{loads} per grid — which is what lets the kernel approach its ceiling rather
than stall on issue slots.
""",
    "warp": """\
A warp level between block and thread: each warp owns a WM×WN tile of the
block tile and covers it in sub-tiles, so the lanes of a warp read
neighbouring shared-memory addresses and each lane keeps
(WMITER·TM)×(WNITER·TN) = 8×16 accumulators. The block tile is still 128×128,
so requested-traffic AI stays {ai_req:.2f} FLOP/B; shared traffic falls to
{shared} because a lane's larger register tile reuses each shared value more.
Warp tiling is about locality in shared memory and registers (bank
conflicts, register reuse), which the roofline of DRAM traffic does not see.
""",
    "wmma": """\
The tensor-core rung: A and B in bf16, fp32 accumulation, 16×16×16
`wmma::mma_sync` per warp on fragments loaded from shared memory. The tool
counts {tensor} bf16 tensor FLOPs — exactly 2·M·N·K — plus the fp32
epilogue ({flops_by_precision}). Two things move at once. Halving the element
size halves the bytes per FLOP, so requested-traffic AI rises to
{ai_req:.2f} FLOP/B. And the ceiling rises: the bf16 tensor-core peak is
{peak_ratio:.1f}× the fp32 CUDA-core peak, which moves the ridge right to
{ridge:.1f} FLOP/B. The kernel sits {side} *its* ridge: with no cache it
would be {nocache_bound}-bound ({sol_req} against a compute bound of
{sol}). On tensor cores the tiling that made fp32 compute-bound leaves bf16
memory-bound unless the caches deliver, which is why fast tensor-core GEMMs
use much larger tiles and asynchronous copies.
""",
    "mma": """\
The same tiles and warp layout as the WMMA rung, one level lower: inline PTX
`mma.sync.aligned.m16n8k16` with operand registers the kernel builds itself
from shared memory in the ISA's fragment layout (B stored transposed so that
each register is one 32-bit word). The tool reads the instruction's shape and
types from the assembly string and counts {tensor} bf16 tensor FLOPs, again
exactly 2·M·N·K. Bytes and FLOPs match the WMMA kernel ({ai_req:.2f} FLOP/B
requested), so the roofline point is the same: what `mma.sync` buys is
control over register layout and instruction scheduling, not traffic.
""",
    "cpasync": """\
The precision, the 128×128 block tile and the warp tiles of the mma.sync
rung, with the K loop rebuilt the way Ampere-class GEMMs are written. The
loop is software-pipelined over two shared-memory stages: while the warps
multiply one stage, the next 32-wide slice of A and B is already in flight
into the other as 16-byte `cp.async` copies, which go from global to shared
memory without passing through registers (one commit group per slice,
`cp.async.wait_group 1` before a stage is used). Operand fragments come from
`ldmatrix`, one instruction for four 8×8 matrices (`.trans` for the row-major
B tile), instead of one 32-bit shared load per register. The tool counts a
16-byte `cp.async` as a 16-byte global load and a 16-byte shared store, so
requested bytes {requested_move} and shared bytes {shared_move}, with
{tensor} tensor FLOPs: the roofline point does not move ({ai_req:.2f} FLOP/B
requested). What the pipeline changes is the number of instructions and
the latency each warp waits on: the predicted time on the {gpu_name} goes
from {prev_pred} to {pred}.
""",
    "fp16": """\
fp16 inputs instead of bf16: the same 2-byte elements, the same m16n8k16
shape with fp32 accumulation (2·16·8·16 FLOPs per warp instruction), and a
tensor-core peak for {precision} inputs {peak_vs_prev} the {prev_precision}
one. The tool reads the types from the PTX and counts the {tensor} FLOPs
under {tensor_keys}, again exactly 2·M·N·K. The kernel is a plainer one than
the previous rung: 4 warps on a 64×128 block tile, synchronous 16-byte
copies through registers, A fragments from 32-bit shared loads and B
fragments from `ldmatrix.x2.trans` on the row-major B tile. The smaller
block tile re-reads B from global memory twice as often, so requested bytes
{requested_move} and requested-traffic AI {ai_move} FLOP/B,
{side} the ridge ({ridge:.1f}); with no cache the kernel would be
{nocache_bound}-bound ({sol_req} against a compute bound of {sol}).
""",
    "fp8": """\
The element size halves again: A and B in e4m3 fp8, one byte each, on
`mma.sync.aligned.m16n8k32`, 2·16·8·32 FLOPs per warp instruction — twice
the k of the 16-bit shape in the same fragment registers. fp8 GEMMs take
both operands K-major ("TN": B given transposed), so every 32-bit register
holds four k-consecutive bytes and one `ldmatrix.x4` delivers a whole A
fragment or the B fragments of two n8 tiles. The tool counts {tensor} FLOPs
under {tensor_keys}. Both ends of the roofline move. With one-byte elements
on a 128×128 block tile requested-traffic AI {ai_move} FLOP/B
({ai_gain:.1f}×) and the compulsory AI is {ai_comp:.1f}, and the
{precision} peak is {peak_vs_prev} the {prev_precision} one, which moves
the ridge to {ridge:.1f} FLOP/B. The kernel sits {side} it; with no cache it
would be {nocache_bound}-bound ({sol_req} against a compute bound of
{sol}). fp8 `mma.sync` needs sm_89 (Ada, Hopper): an A100 cannot run this
rung, and its prediction table leaves it out.
""",
    "wgmma": """\
Back to bf16, on the instruction Hopper's fastest GEMMs are built on:
`wgmma.mma_async` (m64n64k16 here, 2·64·64·16 FLOPs per instruction) is
issued by a whole warp group of four warps, runs asynchronously
(`wgmma.fence`, `commit_group`, `wait_group`), and reads both operands
straight from shared memory through 64-bit matrix descriptors: no
`ldmatrix`, no A or B fragment registers, only the fp32 accumulators. The
shared tiles are stored in the no-swizzle "core matrix" layout the
descriptors describe, B transposed to K-major on the way in, and a
`fence.proxy.async` orders those generic-proxy stores before wgmma's
async-proxy reads. The tool counts {tensor} FLOPs under {tensor_keys}, again
2·M·N·K. With bf16 elements on a 64×128 block tile requested-traffic AI is
{ai_req:.2f} FLOP/B, {side} the bf16 ridge ({ridge:.1f}). Shared-memory
traffic is {shared} ({shared_load} loaded, {shared_store} stored); the
operand reads are wgmma's, not load instructions of the kernel, so the
shared-load figure holds them only as far as the analysis counts them (see
[counting.md](counting.md)). wgmma needs sm_90a: only the H100 of the two
prediction tables runs this rung.
""",
}


def move(prev, now, fmt, singular=False):
    """'stay at X', 'rise from X to Y' or 'fall from X to Y' (with
    SINGULAR: 'stays', 'rises', 'falls')."""
    s = "s" if singular else ""
    if now == prev:
        return "stay%s at %s" % (s, fmt(now))
    return "%s%s from %s to %s" % (
        "rise" if now > prev else "fall",
        s,
        fmt(prev),
        fmt(now),
    )


def times(ratio):
    """A ratio in words: 'the same as' or '2×'."""
    if abs(ratio - 1) < 1e-9:
        return "the same as"
    return "%.3g×" % ratio


def render(tool):
    check_rungs()
    gpu = None
    rows = []
    for key, title, fname, needs in RUNGS:
        g, k = analyze(tool, os.path.join(ROOT, "kernels", "gemm", fname))
        gpu = g
        if not runs_on(needs, gpu["arch"]):
            sys.exit(
                "gemm-ladder: %s needs %s, which %s (%s) is not"
                % (fname, needs[0], GPU, gpu["arch"])
            )
        f = figures(g, k)
        f.update(key=key, title=title, file=fname)
        rows.append(f)
    out = [
        INTRO.format(
            gpu_id=gpu["id"],
            gpu_name=gpu["name"],
            n=SIZE,
            bw=gpu["dram_bandwidth"] / 1e9,
        )
    ]
    out.append("## The ladder at M = N = K = %d\n\n" % SIZE)
    out.append(TABLE_HEAD)
    for i, f in enumerate(rows, 1):
        out.append(
            ROW.format(
                i=i,
                title=f["title"],
                file=f["file"],
                flops=exact(f["flops"]),
                requested=exact(f["requested"]),
                shared=exact(f["shared"]),
                ai_req=f["ai_req"],
                ai_comp=f["ai_comp"],
                precision=precision_name(f["precision"]),
                unit=f["unit"].replace("_", " "),
                ridge=f["ridge"],
                sol=seconds(f["sol"]),
                sol_req=seconds(f["sol_req"]),
            )
        )
    out.append(
        "\nFLOPs count every floating-point operation (an FMA is 2) "
        "including the alpha/beta epilogue; requested global bytes are "
        "the sum of every load and store the kernel issues; shared bytes "
        "sum shared-memory loads and stores. Exact integers are in the "
        "JSON and pinned by the lit tests in `test/lit/kernels/`.\n\n"
    )
    out.append(prediction_section(tool))
    out.append("## What moved, rung by rung\n\n")
    fp32_peak = rows[0]["peak"]
    prev = None
    for i, f in enumerate(rows, 1):
        ctx = dict(f)
        ctx["sol"] = seconds(f["sol"])
        ctx["sol_req"] = seconds(f["sol_req"])
        ctx["requested"] = si(f["requested"], "B")
        ctx["shared"] = si(f["shared"], "B")
        ctx["shared_load"] = si(f["shared_load"], "B")
        ctx["shared_store"] = si(f["shared_store"], "B")
        ctx["precision"] = precision_name(f["precision"])
        ctx["pred"] = seconds(f["pred"])
        ctx["gpu_name"] = gpu["name"]
        ctx["ridge_ratio"] = f["ridge"] / f["ai_req"]
        ctx["peak_ratio"] = f["peak"] / fp32_peak
        ctx["loads"] = si(f["loads"])
        ctx["side"] = "right of" if f["ai_req"] >= f["ridge"] else "left of"
        ctx["nocache_bound"] = (
            "compute" if f["sol_req"] <= f["sol"] * (1 + 1e-9) else "memory"
        )
        if prev:
            ctx["prev_requested"] = si(prev["requested"], "B")
            ctx["prev_shared"] = si(prev["shared"], "B")
            ctx["prev_loads"] = si(prev["loads"])
            ctx["prev_sol_req"] = seconds(prev["sol_req"])
            ctx["ai_gain"] = f["ai_req"] / prev["ai_req"]
            ctx["prev_pred"] = seconds(prev["pred"])
            ctx["prev_precision"] = precision_name(prev["precision"])
            ctx["peak_vs_prev"] = times(f["peak"] / prev["peak"])
            ctx["requested_move"] = move(
                prev["requested"], f["requested"], lambda x: si(x, "B")
            )
            ctx["shared_move"] = move(prev["shared"], f["shared"], lambda x: si(x, "B"))
            ctx["ai_move"] = move(
                prev["ai_req"], f["ai_req"], lambda x: "%.2f" % x, singular=True
            )
        out.append(
            "### %d. %s — `%s` (line %d of `%s`)\n\n"
            % (i, f["title"], f["name"], f["line"], f["file"])
        )
        out.append(RUNG_TEXT[f["key"]].format(**ctx))
        out.append("\n")
        prev = f
    out.append(
        """\
## Reading the table

Requested-traffic AI climbs from {first:.2f} to {last_fp32:.1f} FLOP/B across the
fp32 rungs ({gain:.0f}×) while FLOPs stay at 2·M·N·K plus the epilogue: every
tiling rung converts DRAM round-trips into on-chip reuse. The
compulsory AI column does not move, because it belongs to the problem, not
to the kernel (it moves only for the tensor-core rungs, whose elements are
narrower: 2 bytes for bf16 and fp16, 1 for fp8). The rungs that leave the point in place (coalescing,
vectorization, warp tiling; on tensor cores `mma.sync` and the `cp.async`
pipeline) change how many transactions and instructions
carry the same bytes; the roofline of bytes and FLOPs is blind to them by
design, and the memory-access findings (sectors per request, bank conflicts)
are where they show.

Regenerate with `tools/gemm-ladder.py`; `ctest` runs
`tools/gemm-ladder.py --check` so a change to a kernel or to the analysis
that moves a figure fails until this page is regenerated.
""".format(
            first=rows[0]["ai_req"],
            last_fp32=max(r["ai_req"] for r in rows if r["unit"] == "cuda_core"),
            gain=max(r["ai_req"] for r in rows if r["unit"] == "cuda_core")
            / rows[0]["ai_req"],
        )
    )
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--tool", default=os.path.join(ROOT, "build", "bin", "cuda-roofline")
    )
    ap.add_argument("--output", default=os.path.join(ROOT, "docs", "gemm-ladder.md"))
    ap.add_argument(
        "--check",
        action="store_true",
        help="compare with the existing file instead of writing it",
    )
    args = ap.parse_args()
    text = render(args.tool)
    if args.check:
        try:
            with open(args.output, encoding="utf-8") as fh:
                old = fh.read()
        except OSError as e:
            sys.exit("gemm-ladder: cannot read %s: %s" % (args.output, e))
        if old != text:
            sys.stdout.writelines(
                difflib.unified_diff(
                    old.splitlines(True),
                    text.splitlines(True),
                    args.output,
                    "regenerated",
                )
            )
            sys.exit(
                "gemm-ladder: %s is out of date; run tools/gemm-ladder.py" % args.output
            )
        print("gemm-ladder: %s is up to date" % args.output)
        return
    with open(args.output, "w", encoding="utf-8") as fh:
        fh.write(text)
    print("gemm-ladder: wrote %s" % args.output)


if __name__ == "__main__":
    main()
