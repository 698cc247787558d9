#!/usr/bin/env python3
"""usage: gpu_variants.py BASE DIR: writes DIR/NAME.json for each variant
below, BASE (a valid --gpu-file with one GPU) with one thing wrong."""
import copy
import json
import os
import sys


def gpu(key, value):
    def edit(d):
        d["gpus"][0][key] = value

    return edit


def peak(value):
    def edit(d):
        d["gpus"][0]["peak_tflops"] = value

    return edit


def top(key, value):
    def edit(d):
        d[key] = value

    return edit


def drop(key):
    def edit(d):
        del d[key]

    return edit


def duplicate(d):
    d["gpus"].append(copy.deepcopy(d["gpus"][0]))


VARIANTS = {
    "bandwidth-string": gpu("dram_bandwidth_gbs", "fast"),
    "bandwidth-negative": gpu("dram_bandwidth_gbs", -1),
    "bandwidth-zero": gpu("dram_bandwidth_gbs", 0),
    "memory-bool": gpu("memory_gb", True),
    "sms-fraction": gpu("sms", 1.5),
    "sms-huge": gpu("sms", 1e30),
    "threads-range": gpu("max_threads_per_sm", 99999999999),
    "arch": gpu("arch", "gfx90a"),
    "id-case": gpu("id", "My GPU"),
    "id-empty": gpu("id", ""),
    "name-empty": gpu("name", ""),
    "extra-key": gpu("clock_mhz", 1980),
    "sources-string": gpu("sources", "a datasheet"),
    "notes-number": gpu("notes", 5),
    "peak-empty": peak({}),
    "peak-unit": peak({"rt_core": {"fp32": 1}}),
    "peak-precision": peak({"cuda_core": {"fp33": 10}}),
    "peak-string": peak({"cuda_core": {"fp32": "10"}}),
    "schema-2": top("schema_version", 2),
    "schema-string": top("schema_version", "1"),
    "no-schema": drop("schema_version"),
    "gpus-object": top("gpus", {}),
    "gpus-number": top("gpus", [5]),
    "top-key": top("gpu", []),
    "duplicate": duplicate,
}

base, d = sys.argv[1], sys.argv[2]
with open(base) as f:
    doc = json.load(f)
os.makedirs(d, exist_ok=True)
for name, edit in VARIANTS.items():
    v = copy.deepcopy(doc)
    edit(v)
    with open(os.path.join(d, name + ".json"), "w") as f:
        json.dump(v, f, indent=2)
# Not JSON: NaN, and text after the document.
with open(os.path.join(d, "nan.json"), "w") as f:
    f.write('{"schema_version": 1, "gpus": [{"id": "x", "sms": NaN}]}\n')
with open(os.path.join(d, "trailing.json"), "w") as f:
    f.write('{"schema_version": 1, "gpus": []} trailing\n')
