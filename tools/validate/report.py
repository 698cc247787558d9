#!/usr/bin/env python3
"""Regenerates docs/validation.md (and its roofline charts) from the validation records.

The real records under test/validation/records/<gpu-id>/ (written by
tools/validate/run.py on a machine with the GPU) are compared with
cuda-roofline's predictions by tools/validate/compare.py; this script writes
the result as tables per kernel and one roofline chart per GPU
(docs/validation/<gpu-id>-roofline.svg, drawn here, no plotting library).
The synthetic test fixtures (test/validation/fixtures/synthetic/) appear only
in a section titled as a test-fixture demonstration, never as measurements.

  tools/validate/report.py                 rewrite docs/validation.md and the charts
  tools/validate/report.py --check         exit 1 if any of them is out of date
  tools/validate/report.py --tool PATH     use this cuda-roofline binary
"""
import argparse
import difflib
import glob
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import compare  # noqa: E402
import mathbench_compare  # noqa: E402
import roofline_tools  # noqa: E402

ROOT = compare.ROOT
DOC = os.path.join(ROOT, "docs", "validation.md")
CHART_DIR = os.path.join(ROOT, "docs", "validation")
FIXTURES = os.path.join(ROOT, "test", "validation", "fixtures", "synthetic")
RECORDS = compare.DEFAULT_RECORDS
MATHBENCH = os.path.join(ROOT, "test", "validation", "mathbench")
REPEATS = os.path.join(ROOT, "test", "validation", "repeats")


def rel(p):
    return os.path.relpath(p, ROOT)


# --------------------------------------------------------------------------
# Number formatting
# --------------------------------------------------------------------------


def si(x, unit=""):
    if x is None:
        return "–"
    if isinstance(x, (list, tuple)):
        return "[%s]" % ", ".join(str(v) for v in x)
    if x == 0:
        return "0" + (" " + unit if unit else "")
    return roofline_tools.si(x, unit, digits=4)


def secs(s):
    if s is None:
        return "–"
    return roofline_tools.seconds(s)


def ratio(x):
    return "–" if x is None else "%.3g×" % x


def pct(e):
    return "–" if e is None else compare.pct(e)


STATUS = {
    "ok": "ok",
    "FAIL": "**FAIL**",
    "n/a": "n/a",
    "info": "info",
    "warn": "warn",
    "miss": "known miss",
}


def value(field, x):
    if field.startswith("time"):
        return secs(x)
    if field.startswith("launch"):
        return si(x)
    if field.startswith("sectors"):
        return "–" if x is None else "%.4g" % x
    if field.startswith("dram") or "bytes" in field:
        return si(x, "B")
    return si(x)


def md_escape(s):
    return s.replace("|", "\\|")


# --------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------


def summary_table(results, fixture=False):
    m = "fixture value" if fixture else "measured"
    mt = "fixture time" if fixture else "measured time"
    out = [
        "| kernel | FLOPs | requested bytes | sectors/request | DRAM lower ≤ %s ≤ upper "
        "| DRAM estimate error | %s / SoL (datasheet) | %s / SoL (measured ceilings) "
        "| result |" % (m, mt, mt),
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:

        def worst(prefixes):
            rows = [x for x in r.rows if x.field.startswith(prefixes)]
            if not rows:
                return "–"
            if any(x.status == "FAIL" for x in rows):
                return "**FAIL**"
            if any(x.status == "miss" for x in rows):
                return "known miss"
            if all(x.status == "n/a" for x in rows):
                return "not measured"
            return "ok"

        v = r.values
        fails = len(r.failed)
        out.append(
            "| %s | %s | %s | %s | %s | %s | %s | %s | %s |"
            % (
                "`%s`" % r.rec.data["kernel"]["name"],
                worst(("flops",)),
                worst(("global_",)),
                worst(("sectors",)),
                worst(("dram_bytes.lower", "dram_bytes.upper")),
                pct(v.get("estimate_err")),
                ratio(v.get("ratio_datasheet")),
                ratio(v.get("ratio_measured")),
                (
                    "**%d FAIL**" % fails
                    if fails
                    else "%d known miss" % r.count("miss")
                    if r.count("miss")
                    else "ok"
                ),
            )
        )
    return "\n".join(out)


def kernel_section(r, level="###"):
    d = r.rec.data
    k = d["kernel"]
    params = ", ".join("%s = %s" % (p, x) for p, x in (k.get("params") or {}).items())
    lines = [
        "%s %s`%s` (%s%s)"
        % (
            level,
            compare.SYNTHETIC_LABEL + " " if r.rec.synthetic else "",
            k["name"],
            k.get("file", "?"),
            ", " + params if params else "",
        ),
        "",
    ]
    lines.append(
        "Record `%s`; prediction: `%s`."
        % (r.rec.rel(), " ".join(["cuda-roofline"] + r.cmd[1:]))
    )
    p = d.get("provenance") or {}
    if not r.rec.synthetic:
        lines.append(
            "Measured on %s (driver %s, SM clock %s MHz, memory clock %s MHz) on %s; "
            "Nsight Compute %s."
            % (
                tuple(
                    "?" if x is None else x
                    for x in (
                        p.get("gpu_name"),
                        p.get("driver_version"),
                        p.get("sm_clock_mhz"),
                        p.get("mem_clock_mhz"),
                        p.get("date"),
                    )
                )
                + (p.get("ncu_version") or "absent",)
            )
        )
    lines += [
        "",
        "| field | predicted | %s | comparison | status |"
        % ("fixture value (synthetic)" if r.rec.synthetic else "measured"),
        "|---|---|---|---|---|",
    ]
    for row in r.rows:
        lines.append(
            "| %s | %s | %s | %s | %s |"
            % (
                row.field,
                value(row.field, row.predicted),
                value(row.field, row.measured),
                md_escape(row.detail),
                STATUS[row.status],
            )
        )
    v = r.values
    if v.get("dram_meas") is not None and d.get("counters"):
        c = d["counters"]
        lines += [
            "",
            "DRAM: lower %s, estimate %s, upper %s; measured %s (read %s + write %s)."
            % (
                si(v.get("dram_lower"), "B"),
                si(v.get("dram_estimate"), "B"),
                si(v.get("dram_upper"), "B"),
                si(v["dram_meas"], "B"),
                si(c["dram_bytes_read"], "B"),
                si(c["dram_bytes_write"], "B"),
            ),
        ]
    return "\n".join(lines)


# --------------------------------------------------------------------------
# The roofline chart (SVG written by hand)
# --------------------------------------------------------------------------

COLORS = [
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#7f7f7f",
    "#bcbd22",
]


def median(xs):
    xs = sorted(xs)
    if not xs:
        return None
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2.0


def chart_points(results):
    """Per kernel with FLOPs: (label, sol point, estimate point, measured point)."""
    pts, skipped = [], []
    labels, seen = {}, {}
    for r in results:
        kid = r.rec.data["kernel"].get("id") or r.rec.data["kernel"]["name"]
        seen[kid] = seen.get(kid, 0) + 1
    for r in results:
        kid = r.rec.data["kernel"].get("id") or r.rec.data["kernel"]["name"]
        tag = os.path.splitext(os.path.basename(r.rec.path))[0]
        if tag.startswith("synthetic-fixture_"):
            tag = tag[len("synthetic-fixture_") :]
        labels[id(r)] = kid if seen[kid] == 1 else tag
    for r in results:
        k = r.kernel
        t = k["totals"]
        flops = t.get("flops_total") or 0
        sol = k.get("speed_of_light") or {}
        db = t.get("dram_bytes") or {}
        name = labels[id(r)]
        if not flops:
            skipped.append(name)
            continue
        p_sol = p_est = p_meas = None
        if db.get("lower") and sol.get("seconds"):
            p_sol = (flops / db["lower"], flops / sol["seconds"])
        if db.get("estimate") and sol.get("seconds_estimate"):
            p_est = (flops / db["estimate"], flops / sol["seconds_estimate"])
        v = r.values
        mf = sum(x for x in (v.get("flops_meas") or {}).values() if x) or flops
        if v.get("dram_meas") and v.get("median_s"):
            p_meas = (mf / v["dram_meas"], mf / v["median_s"])
        pts.append((name, p_sol, p_est, p_meas))
    return pts, skipped


def roofline_svg(gpu_id, spec, results, title, fixture=False):
    W, H = 760, 500
    L, R, T, B = 80, 210, 60, 60
    pw, ph = W - L - R, H - T - B
    bw_ds = (spec or {}).get("dram_bandwidth_gbs", 0) * 1e9
    peaks_ds = []
    if spec:
        for unit, p, label in (
            ("cuda_core", "fp32", "fp32 CUDA cores"),
            ("tensor_core", "bf16", "bf16 tensor cores"),
        ):
            x = (spec.get("peak_tflops", {}).get(unit) or {}).get(p)
            if x:
                peaks_ds.append((label, x * 1e12))
    ceil = {}
    for key in ("dram_bandwidth_Bps", "fp32_flops", "bf16_tensor_flops"):
        xs = [(r.rec.data.get("ceilings") or {}).get(key) for r in results]
        ceil[key] = median([x for x in xs if isinstance(x, (int, float)) and x > 0])
    peaks_meas = [
        (lbl, ceil[key])
        for lbl, key in (
            ("fp32 CUDA cores", "fp32_flops"),
            ("bf16 tensor cores", "bf16_tensor_flops"),
        )
        if ceil[key]
    ]
    bw_meas = ceil["dram_bandwidth_Bps"]
    pts, skipped = chart_points(results)

    xs, ys = [], []
    for _, *ps in pts:
        for p in ps:
            if p:
                xs.append(p[0])
                ys.append(p[1])
    for _, pk in peaks_ds + peaks_meas:
        ys.append(pk)
        if bw_ds:
            xs.append(pk / bw_ds)
    xs = [x for x in xs if x > 0] or [1.0]
    ys = [y for y in ys if y > 0] or [1e12]
    x0, x1 = math.floor(math.log10(min(xs))) - 1, math.ceil(math.log10(max(xs))) + 1
    y0, y1 = math.floor(math.log10(min(ys))) - 1, math.ceil(math.log10(max(ys) * 1.5))
    if y1 - y0 < 3:
        y0 = y1 - 3

    def px(x):
        return L + (math.log10(x) - x0) / float(x1 - x0) * pw

    def py(y):
        return T + ph - (math.log10(y) - y0) / float(y1 - y0) * ph

    def f(v):
        return "%.1f" % v

    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
        'font-family="sans-serif" font-size="11">' % (W, H, W, H),
        '<rect width="%d" height="%d" fill="white"/>' % (W, H),
        '<text x="%d" y="22" font-size="15" font-weight="bold">%s</text>' % (L, title),
    ]
    if fixture:
        out.append(
            '<text x="%d" y="42" font-size="13" font-weight="bold" fill="#c00000">'
            "SYNTHETIC TEST FIXTURES — NOT MEASUREMENTS (hand-derived test data)</text>"
            % L
        )
        out.append(
            '<text x="%s" y="%s" font-size="30" fill="#c00000" fill-opacity="0.12" '
            'text-anchor="middle" transform="rotate(-25 %s %s)">TEST FIXTURE, NOT MEASURED'
            "</text>" % (f(L + pw / 2), f(T + ph / 2), f(L + pw / 2), f(T + ph / 2))
        )
    out.append(
        '<defs><clipPath id="plot"><rect x="%d" y="%d" width="%d" height="%d"/></clipPath></defs>'
        % (L, T, pw, ph)
    )
    # Grid and axes.
    for e in range(x0, x1 + 1):
        X = px(10.0**e)
        out.append(
            '<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="#ddd"/>'
            % (f(X), T, f(X), T + ph)
        )
        out.append(
            '<text x="%s" y="%d" text-anchor="middle">1e%d</text>'
            % (f(X), T + ph + 16, e)
        )
    for e in range(y0, y1 + 1):
        Y = py(10.0**e)
        out.append(
            '<line x1="%d" y1="%s" x2="%d" y2="%s" stroke="#ddd"/>'
            % (L, f(Y), L + pw, f(Y))
        )
        out.append(
            '<text x="%d" y="%s" text-anchor="end">1e%d</text>' % (L - 6, f(Y + 4), e)
        )
    out.append(
        '<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>'
        % (L, T, pw, ph)
    )
    out.append(
        '<text x="%s" y="%d" text-anchor="middle">arithmetic intensity (FLOP per DRAM byte)'
        "</text>" % (f(L + pw / 2), H - 18)
    )
    out.append(
        '<text x="18" y="%s" text-anchor="middle" transform="rotate(-90 18 %s)">FLOP/s</text>'
        % (f(T + ph / 2), f(T + ph / 2))
    )

    # Ceilings: datasheet solid, measured dashed.
    legend = []

    def roof(bw, peak, dash, color):
        xa, xb = 10.0**x0, 10.0**x1
        ridge = peak / bw
        pts_ = (
            [(xa, bw * xa), (ridge, peak), (xb, peak)]
            if ridge > xa
            else [(xa, peak), (xb, peak)]
        )
        d = " ".join("%s,%s" % (f(px(x)), f(py(y))) for x, y in pts_)
        out.append(
            '<polyline points="%s" fill="none" stroke="%s" stroke-width="1.6"%s '
            'clip-path="url(#plot)"/>'
            % (d, color, ' stroke-dasharray="6,4"' if dash else "")
        )

    if bw_ds:
        for lbl, pk in peaks_ds:
            roof(bw_ds, pk, False, "#333")
        legend.append(
            (
                "line",
                "#333",
                False,
                "datasheet: %s/s, %s"
                % (
                    si(bw_ds, "B"),
                    ", ".join(
                        "%s %s" % (lbl, si(pk, "FLOP/s")) for lbl, pk in peaks_ds
                    ),
                ),
            )
        )
    if bw_meas:
        for lbl, pk in peaks_meas:
            roof(bw_meas, pk, True, "#777")
        legend.append(
            (
                "line",
                "#777",
                True,
                "measured ceilings: %s/s, %s"
                % (
                    si(bw_meas, "B"),
                    ", ".join(
                        "%s %s" % (lbl, si(pk, "FLOP/s")) for lbl, pk in peaks_meas
                    ),
                ),
            )
        )

    # Points.
    for i, (name, p_sol, p_est, p_meas) in enumerate(pts):
        col = COLORS[i % len(COLORS)]
        chain = [p for p in (p_sol, p_est, p_meas) if p]
        if len(chain) > 1:
            out.append(
                '<polyline points="%s" fill="none" stroke="%s" stroke-width="0.8" '
                'stroke-dasharray="2,2" clip-path="url(#plot)"/>'
                % (" ".join("%s,%s" % (f(px(x)), f(py(y))) for x, y in chain), col)
            )
        if p_sol:
            X, Y = px(p_sol[0]), py(p_sol[1])
            out.append(
                '<path d="M%s %s l5 5 l-5 5 l-5 -5 z" fill="white" stroke="%s" '
                'stroke-width="1.5"/>' % (f(X), f(Y - 5), col)
            )
        if p_est:
            out.append(
                '<circle cx="%s" cy="%s" r="4.5" fill="white" stroke="%s" stroke-width="1.5"/>'
                % (f(px(p_est[0])), f(py(p_est[1])), col)
            )
        if p_meas:
            out.append(
                '<circle cx="%s" cy="%s" r="4.5" fill="%s"/>'
                % (f(px(p_meas[0])), f(py(p_meas[1])), col)
            )
            out.append(
                '<text x="%s" y="%s" fill="%s">%s</text>'
                % (f(px(p_meas[0]) + 7), f(py(p_meas[1]) + 4), col, name)
            )
        legend.append(("dot", col, False, name))

    # Legend (right margin).
    lx, ly = L + pw + 12, T + 6
    wrap = []
    for kind, col, dash, text in legend:
        if kind == "line":
            wrap.append((kind, col, dash, text.split(": ")[0] + ":"))
            for part in text.split(": ", 1)[1].split(", "):
                wrap.append(("text", col, dash, "  " + part))
        else:
            wrap.append((kind, col, dash, text))
    wrap += [
        ("text", "#000", False, ""),
        ("text", "#000", False, "◇ speed of light"),
        ("text", "#000", False, "   (compulsory bytes)"),
        ("text", "#000", False, "○ predicted (estimate bytes)"),
        ("text", "#000", False, "● measured (DRAM bytes, time)"),
    ]
    if skipped:
        wrap += [
            ("text", "#000", False, ""),
            ("text", "#000", False, "not plotted (0 FLOPs):"),
        ]
        wrap += [("text", "#000", False, "  " + s) for s in skipped]
    for kind, col, dash, text in wrap:
        if kind == "line":
            out.append(
                '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="1.6"%s/>'
                % (
                    lx,
                    ly - 4,
                    lx + 18,
                    ly - 4,
                    col,
                    ' stroke-dasharray="6,4"' if dash else "",
                )
            )
            out.append('<text x="%d" y="%d">%s</text>' % (lx + 22, ly, text))
        elif kind == "dot":
            out.append(
                '<circle cx="%d" cy="%d" r="4" fill="%s"/>' % (lx + 9, ly - 4, col)
            )
            out.append('<text x="%d" y="%d">%s</text>' % (lx + 22, ly, text))
        elif text:
            indent = len(text) - len(text.lstrip(" "))
            out.append(
                '<text x="%d" y="%d">%s</text>' % (lx + 5 * indent, ly, text.strip())
            )
        ly += 15
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# The page
# --------------------------------------------------------------------------

HEADER = """\
# Validation against hardware measurements

<!-- Generated by tools/validate/report.py from the validation records and
     cuda-roofline's JSON output. Do not edit by hand: run
     `tools/validate/report.py` after adding records or changing the analysis;
     `tools/validate/report.py --check` (the lit test
     test/lit/cli/validation-report.test) fails when this page is stale. -->
"""

NO_RECORDS = """\
## Status

**No GPU measurements exist yet.** `test/validation/records/` holds no
validation records, so none of cuda-roofline's predictions (FLOPs, bytes,
sectors per request, DRAM bytes, speed of light) has yet been checked against
hardware. The method, the tolerances and the tooling below are in place; the
results section fills in when records are committed. The only numbers on this
page come from synthetic test fixtures, in the last section, which is a
demonstration of the tooling and not a measurement.
"""

METHOD = """\
## Method

A *validation record* (schema `cuda-roofline-validation-record/1`) describes
one kernel at one problem size measured on one GPU: the launch, the arguments
that reproduce the prediction, the GPU and software versions, the timing
(CUDA events, median of at least 20 repetitions after warm-up, L2 flushed
between repetitions), the verification of the kernel's output against a
reference, the Nsight Compute counters (collected with `--clock-control
none`; `null` where Nsight Compute is absent) and the practical ceilings
measured in the same session (a large device-to-device `cudaMemcpy` for DRAM
bandwidth, cuBLAS SGEMM and bf16 GEMM at 8192³ for compute). Records live in
`test/validation/records/<gpu-id>/<kernel-id>__<size-tag>.json`, where
`<gpu-id>` is the cuda-roofline GPU database id (`cuda-roofline --list-gpus`).

`tools/validate/compare.py` runs `cuda-roofline <analyzer_args> --gpu <gpu-id>
--format=json` for each record, finds the kernel by name (and launch), and
compares:

| prediction (JSON) | measurement (record) | Nsight Compute metric |
|---|---|---|
| `launch.grid`, `launch.block` | `kernel.launch` | – (the prediction must describe the measured launch) |
| `totals.flops.<precision>` | `counters.flops.<precision>` | `sm__sass_thread_inst_executed_op_{fadd,fmul,ffma}_pred_on.sum` (fadd + fmul + 2 × ffma; `d*` for fp64, `h*` for fp16), tensor pipe instructions for `tensor_*` |
| `totals.global_load_bytes`, `global_store_bytes` (lanes × width); with lanes at one address, Σ `bytes_per_request` × requests | `counters.metrics` | `sm__sass_data_bytes_mem_global_op_{ld,st}.sum` (distinct bytes per warp instruction), or `l1tex__t_bytes_pipe_lsu_mem_global_op_{ld,st}.sum` (below) |
| Σ `sectors_per_request` × requests / Σ requests over the global loads (stores) | `global_load_sectors / global_load_requests` (stores) | `l1tex__t_{sectors,requests}_pipe_lsu_mem_global_op_{ld,st}.sum` |
| `totals.dram_bytes.lower`, `.estimate`, `.upper` | `dram_bytes_read + dram_bytes_write` | `dram__bytes_read.sum + dram__bytes_write.sum` |
| `speed_of_light.seconds` (datasheet peaks, compulsory bytes) | `timing.median_s` | – (CUDA events) |
| the speed of light recomputed on the measured ceilings: max(Σ FLOPs_p / measured peak_p, `dram_bytes.lower` / measured bandwidth) | `timing.median_s` | – |

It prints one line per field (`ok`, `FAIL`, `n/a` for not measured or not
predicted, `info` for figures reported but not checked, `warn` for caveats,
`miss` for a known miss),
a summary line per record, and exits 1 when a prediction leaves its tolerance
(2 for bad input).

### Tolerances

Defined once, in `TOLERANCES` at the top of `tools/validate/compare.py`; this
table is generated from it. They were chosen from what the counters can and
cannot see before any record existed, and none was widened when the first
records came: a prediction outside its tolerance is fixed, or listed with its
cause under "Known misses".

{tolerances}

### Approximations and caveats

* **Sectors per request.** The JSON gives, per access, the sectors of one warp
  request (judged on the first warp's first request) and the executions per
  thread (`count_per_thread`). The aggregate weights each access by its
  requests, taken as `count_per_thread` × T / 32 with T = `totals.global_loads`
  / Σ `count_per_thread` (the threads that execute the loads; `threads.active`
  for a one-output-per-thread kernel), i.e. assuming every access runs for the
  same threads and warps are full. Partial warps (ragged edges), accesses under
  different guards and requests whose pattern changes across iterations make it
  approximate; it is exact for the bundled fixtures.
* **Byte counters.** Neither byte counter is lanes × width in general, and
  the first hardware records showed what each one is:
  `sm__sass_data_bytes_mem_global_op_ld` counts the *distinct* bytes of each
  warp instruction (lanes at one address count once: the naive SGEMM measures
  exactly Σ `bytes_per_request` × requests, 28% of lanes × width), and it
  counts generic `LD`/`ST` instructions as global even when they reach shared
  memory (the wmma kernel's fragments are loaded through a generic pointer:
  6.4 GB more than L1 saw for global memory). `l1tex__t_bytes` counts whole
  32-byte sectors at the L1 tag stage. `compare.py` therefore compares
  `global_load_bytes` with `sm__sass_data_bytes` when no request has lanes at
  one address, and the predicted distinct bytes
  (`global_load_bytes(distinct per request)`) when some do; when
  `sm__sass_data_bytes` exceeds `l1tex__t_bytes` (generic instructions) it
  uses `l1tex__t_bytes`: against `global_load_bytes` when every access uses
  its sectors whole, else against the predicted sector bytes
  (`global_load_bytes(sectors x 32)`).
* **FLOPs.** Nsight Compute counts SASS instructions: a division or a special
  function (`expf`, `sqrtf`, ...) expands into several FFMA/FMUL, so for kernels
  with `totals.divisions` or `totals.special` the check is one-sided (measured
  ≥ predicted) and the excess is the expansion (see
  [counting.md](counting.md) and the measured expansions below). ptxas also
  materializes constants with `HFMA2.MMA Rd, -RZ, RZ, imm, imm`, which the
  fp16 counters (`..._op_hfma_pred_on`) and the tensor-pipe counter count: an
  fp32 SGEMM measures millions of "fp16 FLOPs". Records carry the SASS facts
  of their kernels (`sass`, from `cuobjdump --dump-sass` by
  `tools/validate/sass.py`); when every fp16 instruction of a kernel is such a
  move, its measured fp16 FLOPs are 0.
* **DRAM write-back.** L2 is write-back: lines a kernel writes may still be
  dirty in L2 when it ends, and `dram__bytes_write` does not count their
  eventual write-back. Both DRAM checks allow a measured value up to W =
  min(L2 size of the GPU in `analysis/machine/data/gpus.json`, global store + atomic
  bytes − measured `dram_bytes_write`) below what they would otherwise
  require: at most the written bytes the counter did not see, and at most
  what L2 can hold. Requested store bytes stand in for the distinct bytes
  written, which the JSON does not give separately.
* **Speed of light.** `speed_of_light.seconds` uses datasheet peaks and the
  compulsory bytes, so it must never exceed the measured time; the ratio
  measured / SoL is how far the kernel is from the model's best case. Against
  the measured ceilings the ratio is the practical distance (it can be below 1:
  the ceilings are not hard limits). Precisions without a measured ceiling
  (anything but fp32 CUDA cores and bf16 tensor cores) use their datasheet peak.
  The time is the median of CUDA-event timings of whole launches, so kernels
  whose speed of light is a few microseconds (bound `overhead`) include launch
  overhead.

### Producing records

On a machine with the GPU (and, for counters, Nsight Compute):

1. build cuda-roofline and the runner, then run `tools/validate/run.py` (see
   its `--help`); it times each bundled kernel, verifies its output, collects
   the counters and the ceilings, and writes
   `test/validation/records/<gpu-id>/<kernel-id>__<size-tag>.json`;
2. `tools/validate/compare.py` checks every record against the tolerances
   (also run by ctest as the `validation` test);
3. `tools/validate/report.py` regenerates this page and
   `docs/validation/<gpu-id>-roofline.svg`; commit the records and the page
   together.
"""

FIXTURE_INTRO = """\
## Test-fixture demonstration (synthetic data — not measurements)

> **Everything in this section is synthetic test data, not a measurement.**
> The fixtures in `test/validation/fixtures/synthetic/` were derived by hand
> from the kernels' math (the derivation is in that directory's README.md),
> with assumed cache behaviour and assumed times, so that the comparison and
> this report can be tested without a GPU (ctest `validation` and
> `validation-perturbed`). Agreement below shows that the tooling works and
> that the analyzer reproduces a hand derivation; it says nothing about
> accuracy on real hardware.
"""


def known_misses_section(real):
    rows = [(r, row) for r in real for row in r.rows if row.status == "miss"]
    out = [
        "## Known misses",
        "",
        "Predictions outside their tolerance on real hardware, for a cause found and not "
        "yet modelled (`KNOWN_MISSES` in `tools/validate/compare.py`). They do not fail "
        "the `validation` test; an entry that comes back within tolerance does, so the "
        "list shrinks as the model improves.",
        "",
    ]
    if not rows:
        return "\n".join(out + ["None.", ""])
    out += [
        "| record | field | predicted | measured | cause |",
        "|---|---|---|---|---|",
    ]
    for r, row in rows:
        cause = compare.KNOWN_MISSES[(r.rec.data["kernel"]["id"], row.field)]
        out.append(
            "| `%s%s` | %s | %s | %s | %s |"
            % (
                r.rec.label,
                r.rec.tag,
                row.field,
                value(row.field, row.predicted),
                value(row.field, row.measured),
                md_escape(cause),
            )
        )
    return "\n".join(out + [""])


def repeats_section():
    files = sorted(glob.glob(os.path.join(REPEATS, "*.json")))
    if not files:
        return ""
    out = ["## Reproducibility of the times", ""]
    for f in files:
        d = json.load(open(f, encoding="utf-8"))
        out += [
            "%s (`%s`)" % (d["note"], rel(f)),
            "",
            "| kernel | " + " | ".join(d["runs"]) + " | spread |",
            "|---|" + "---|" * (len(d["runs"]) + 1),
        ]
        worst = 0.0
        for k, ts in sorted(d["median_s"].items()):
            spread = (max(ts) - min(ts)) / min(ts)
            worst = max(worst, spread)
            out.append(
                "| `%s` | %s | %.2f%% |"
                % (k, " | ".join(secs(t) for t in ts), 100 * spread)
            )
        out += ["", "Largest spread: %.2f%%." % (100 * worst), ""]
    return "\n".join(out)


MATH_ROWS = [
    ("f32_add", "`a + b`"),
    ("f32_mul", "`a * b`"),
    ("f32_fma", "`fmaf(a, b, a)`"),
    ("f32_div", "`a / b`"),
    ("f32_rcp", "`1.0f / a`"),
    ("f32_fdividef", "`__fdividef(a, b)`"),
    ("f32_sqrt", "`sqrtf(a)`"),
    ("f32_rsqrt", "`rsqrtf(a)`"),
    ("f32_one_over_sqrt", "`1.0f / sqrtf(a)`"),
    ("f32_exp", "`expf(a)`"),
    ("f32_exp2", "`exp2f(a)`"),
    ("f32_fast_exp", "`__expf(a)`"),
    ("f32_log", "`logf(a)`"),
    ("f32_log2", "`log2f(a)`"),
    ("f32_sin", "`sinf(a)`"),
    ("f32_cos", "`cosf(a)`"),
    ("f32_fast_sin", "`__sinf(a)`"),
    ("f32_tan", "`tanf(a)`"),
    ("f32_sincos", "`sincosf(a)`, then s + c"),
    ("f32_atan2", "`atan2f(a, b)`"),
    ("f32_pow", "`powf(a, b)`"),
    ("f32_tanh", "`tanhf(a)`"),
    ("f32_erf", "`erff(a)`"),
    ("f32_sigmoid", "`1.0f / (1.0f + expf(-a))`"),
    ("f64_fma", "`fma(a, b, a)`"),
    ("f64_div", "`a / b` (double)"),
    ("f64_rcp", "`1.0 / a` (double)"),
    ("f64_sqrt", "`sqrt(a)` (double)"),
    ("f64_rsqrt", "`rsqrt(a)` (double)"),
    ("f64_exp", "`exp(a)` (double)"),
    ("f64_log", "`log(a)` (double)"),
    ("f64_sin", "`sin(a)` (double)"),
    ("f64_pow", "`pow(a, b)` (double)"),
    ("f32_contract_multiuse", "`t = 2*a; (t + b) * (t + a)`"),
    ("f32_shared_atomic_one", "`atomicAdd(&s, a)`, one `__shared__` float per block"),
    ("f32_shared_atomic_lane", "`atomicAdd(&s[threadIdx.x], a)`"),
]


def math_section(tool):
    files = sorted(glob.glob(os.path.join(MATHBENCH, "*.json")))
    if not files:
        return ""
    out = ["## What one operation executes (measured)", ""]
    for f in files:
        d = json.load(open(f, encoding="utf-8"))
        p = d["provenance"]
        b = d["builds"]
        out += [
            "Measured on %s (driver %s, %s, Nsight Compute %s) on %s by "
            "`tools/validate/mathbench.py` (record `%s`): one operation per thread on %s "
            "threads, operands %s; the counts are per call, with the copy kernel's "
            "(loads, stores, indexing) subtracted. FLOPs are as a profiler counts them "
            "(fadd + fmul + 2 × ffma; dadd + dmul + 2 × dfma for fp64); MUFU is the "
            "special-function unit's instructions (`smsp__inst_executed_pipe_xu`). The "
            "IEEE build uses nvcc's defaults, the fast one `-use_fast_math`. Beside "
            "each measured FLOP count, the tool's `flops_executed` for the same code "
            "and build (`tools/validate/mathbench_compare.py`; docs/counting.md, "
            '"Executed FLOPs"), and † where they differ (the reasons below).'
            % (
                p["gpu_name"],
                p["driver_version"],
                p["nvcc_version"],
                p["ncu_version"],
                p["date"],
                rel(f),
                "{:,}".format(p["threads_per_kernel"]),
                p["operands"],
            ),
            "",
            "| operation | FLOPs (IEEE) | tool | MUFU (IEEE) | FLOPs (fast math) | tool "
            "| MUFU (fast math) |",
            "|---|---|---|---|---|---|---|",
        ]
        mine = {(r[0], r[1]): r for r in mathbench_compare.rows(tool, f)}

        def tool_cell(build, k):
            r = mine.get((build, k))
            if not r:
                return "–"
            flag = "" if mathbench_compare.same(r[2], r[3]) else " †"
            return ("unknown" if r[3] is None else "%g" % r[3]) + flag

        def cell(build, k, key):
            kk = (b.get(build, {}).get("kernels") or {}).get(k)
            if not kk:
                return "–"
            if key == "flops":
                x = (
                    kk["flops_fp64_per_call"]
                    if k.startswith("f64")
                    else kk["flops_fp32_per_call"]
                )
            else:
                x = kk["mufu_per_call"]
            return "–" if x is None else ("%g" % round(x, 2))

        for k, label in MATH_ROWS:
            out.append(
                "| %s | %s | %s | %s | %s | %s | %s |"
                % (
                    label,
                    cell("ieee", k, "flops"),
                    tool_cell("ieee", k),
                    cell("ieee", k, "mufu"),
                    cell("fast", k, "flops"),
                    tool_cell("fast", k),
                    cell("fast", k, "mufu"),
                )
            )
        out += ["", "Where the tool differs (†):", ""]
        for r in sorted(mine.values()):
            if not mathbench_compare.same(r[2], r[3]):
                out.append("- %s, %s build: %s" % (r[1], r[0], r[4] or "not explained"))
        out += [
            "",
            "The contended shared-memory atomic is a compare-and-swap loop: each attempt "
            "executes one FADD, and 256 threads on one address averaged about 110 attempts "
            "each; without contention it is one FADD. A multiply with two users becomes two "
            "FMAs (5 FLOPs executed for the 4 of the source).",
            "",
        ]
    return "\n".join(out)


def results_section(real):
    if not real:
        return "## Results\n\nNo records yet: nothing measured, nothing to show.\n"
    by_gpu = {}
    for r in real:
        by_gpu.setdefault(r.rec.gpu_id, []).append(r)
    out = ["## Results", ""]
    for gpu in sorted(by_gpu):
        rs = by_gpu[gpu]
        names = sorted({r.rec.data["provenance"].get("gpu_name") for r in rs})
        out += [
            "### %s (%s)" % (gpu, ", ".join(str(n) for n in names)),
            "",
            "%d record(s). Roofline: datasheet ceilings solid, measured ceilings dashed; for "
            "each kernel the speed of light (◇), the predicted point at the estimated DRAM "
            "bytes (○) and the measured point (●, measured FLOPs over measured DRAM bytes, "
            "at the measured FLOP/s)." % len(rs),
            "",
            "![roofline of the %s records](validation/%s-roofline.svg)" % (gpu, gpu),
            "",
            summary_table(rs),
            "",
        ]
        for r in rs:
            out += [kernel_section(r, "####"), ""]
    return "\n".join(out)


def fixture_section(fx):
    if not fx:
        return ""
    by_gpu = {}
    for r in fx:
        by_gpu.setdefault(r.rec.gpu_id, []).append(r)
    out = [FIXTURE_INTRO]
    for gpu in sorted(by_gpu):
        rs = by_gpu[gpu]
        out += [
            "### Synthetic fixtures, GPU id %s (not measured)" % gpu,
            "",
            "![roofline of the SYNTHETIC test fixtures, not measurements]"
            "(validation/synthetic-fixtures-%s-roofline.svg)" % gpu,
            "",
            summary_table(rs, fixture=True),
            "",
        ]
        for r in rs:
            out += [kernel_section(r, "####"), ""]
    return "\n".join(out)


def generate(tool):
    real, notes = compare.evaluate([RECORDS], tool, allow_synthetic=False)
    fx, _ = compare.evaluate([FIXTURES], tool, allow_synthetic=True)
    for r in fx:
        if not r.rec.synthetic:
            raise compare.InputError(
                "%s: a non-synthetic record among the fixtures" % r.rec.rel()
            )
    tol = compare.tolerance_rows()
    tol_md = "\n".join(
        ["| field | check | tolerance | why |", "|---|---|---|---|"]
        + ["| %s | %s | %s | %s |" % tuple(md_escape(x) for x in row) for row in tol]
    )
    parts = [HEADER]
    if real:
        gpus = sorted({r.rec.gpu_id for r in real})
        fails = sum(len(r.failed) for r in real)
        misses = sum(r.count("miss") for r in real)
        parts.append(
            "## Status\n\n%d record(s) measured on %s. %s%s\n"
            % (
                len(real),
                ", ".join(gpus),
                "Every compared prediction is within its tolerance"
                if not fails
                else "**%d field(s) are outside their tolerance** (marked FAIL below)"
                % fails,
                (
                    ", except %d known miss(es) listed with their causes below."
                    % misses
                    if misses
                    else "."
                ),
            )
        )
        parts.append(known_misses_section(real))
    else:
        parts.append(NO_RECORDS)
    parts.append(METHOD.replace("{tolerances}", tol_md))
    parts.append(results_section(real))
    parts.append(repeats_section())
    parts.append(math_section(tool))
    parts.append(fixture_section(fx))
    files = {DOC: "\n".join(p.rstrip("\n") + "\n" for p in parts if p)}
    for gpu in sorted({r.rec.gpu_id for r in real}):
        rs = [r for r in real if r.rec.gpu_id == gpu]
        files[os.path.join(CHART_DIR, "%s-roofline.svg" % gpu)] = roofline_svg(
            gpu,
            compare.gpu_spec(gpu),
            rs,
            "Roofline, %s: cuda-roofline predictions vs measurements" % gpu,
        )
    for gpu in sorted({r.rec.gpu_id for r in fx}):
        rs = [r for r in fx if r.rec.gpu_id == gpu]
        files[
            os.path.join(CHART_DIR, "synthetic-fixtures-%s-roofline.svg" % gpu)
        ] = roofline_svg(
            gpu,
            compare.gpu_spec(gpu),
            rs,
            "Roofline, %s: SYNTHETIC test fixtures" % gpu,
            fixture=True,
        )
    return files


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--check",
        action="store_true",
        help="exit 1 if docs/validation.md or a chart is out of date",
    )
    ap.add_argument("--tool", default=compare.DEFAULT_TOOL, help="cuda-roofline binary")
    args = ap.parse_args(argv)
    try:
        files = generate(args.tool)
    except compare.InputError as e:
        print("report: error: %s" % e, file=sys.stderr)
        return 2
    stale_charts = []
    if os.path.isdir(CHART_DIR):
        stale_charts = [
            os.path.join(CHART_DIR, n)
            for n in sorted(os.listdir(CHART_DIR))
            if n.endswith("-roofline.svg") and os.path.join(CHART_DIR, n) not in files
        ]
    if args.check:
        bad = 0
        for path in sorted(files):
            try:
                with open(path, encoding="utf-8") as fh:
                    old = fh.read()
            except OSError:
                old = None
            if old == files[path]:
                continue
            bad += 1
            if old is None:
                print("report: %s is missing" % rel(path))
            else:
                sys.stdout.writelines(
                    difflib.unified_diff(
                        old.splitlines(True),
                        files[path].splitlines(True),
                        "%s (committed)" % rel(path),
                        "%s (generated)" % rel(path),
                    )
                )
        for path in stale_charts:
            bad += 1
            print("report: %s is no longer generated (remove it)" % rel(path))
        if bad:
            print("report: %s is out of date: run tools/validate/report.py" % rel(DOC))
            return 1
        print("report: %s is up to date" % rel(DOC))
        return 0
    for path in sorted(files):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(files[path])
        print("report: wrote %s" % rel(path))
    for path in stale_charts:
        os.remove(path)
        print("report: removed %s" % rel(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
