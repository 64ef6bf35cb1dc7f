"""What the GPU backend's device-wide algorithms (judge/backends/gpu_algorithms.py) cost: load() in a
fresh process with an empty kernel cache and with a filled one (what a run child spends before the
submission loads), then each call's first and second use, in seconds.

    python bench/algorithm_first_use.py [--items 8,1000000]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

from rich.console import Console
from rich.table import Table

CALLS = {   # name: AlgorithmCall fields besides the buffers
    "DeviceReduce::Sum f32": dict(kind="REDUCE", op="OP_SUM", item_type=9, result_type=9),
    "DeviceReduce::ArgMax f32": dict(kind="ARG_REDUCE", op="OP_MAX", item_type=9, result_type=7),
    "DeviceScan::InclusiveSum f32": dict(kind="SCAN", op="OP_SUM", item_type=9),
    "DeviceScan::ExclusiveScan max i32": dict(kind="SCAN", op="OP_MAX", item_type=5, exclusive=1),
    "DeviceRadixSort::SortPairs u32": dict(kind="RADIX_SORT", item_type=6, value_bytes=4, end_bit=32),
    "thrust::sort f32": dict(kind="SORT", item_type=9),
    "DeviceSelect::Flagged f32/i32": dict(kind="SELECT_FLAGGED", item_type=9, aux_type=5, result_type=5),
    "DeviceSelect::Unique i32": dict(kind="UNIQUE", item_type=5, result_type=5),
    "DeviceRunLengthEncode::Encode i32": dict(kind="RUN_LENGTH", item_type=5, aux_type=5, result_type=5),
    "DeviceHistogram::HistogramEven i32": dict(kind="HISTOGRAM_EVEN", item_type=5, aux_type=5, num_segments=9,
                                               lower=0.0, upper=8.0),
    "DeviceSegmentedReduce::Sum f32": dict(kind="SEGMENTED_REDUCE", op="OP_SUM", item_type=9, aux_type=5,
                                           num_segments=2),
    "thrust::count i32": dict(kind="COUNT", item_type=5, result_type=7),
    "thrust::fill f32": dict(kind="FILL", item_type=9),
    "thrust::sequence i32": dict(kind="SEQUENCE", item_type=5),
}

CHILD = r"""
import json, sys, time
config = json.loads(sys.argv[1])
import cupy as cp
import numpy as np
from judge.backends import gpu_algorithms as ga
cp.cuda.Device(0).use()
algorithms = ga.DeviceAlgorithms(cp)
begin = time.perf_counter()
algorithms.load()
cp.cuda.get_current_stream().synchronize()
report = dict(load=time.perf_counter() - begin, calls=[])
for name, fields in config["calls"].items():
    for n in config["items"]:
        buffers = [cp.asarray(np.random.default_rng(1).integers(0, 8, n * 8, dtype=np.uint8)) for _ in range(8)]
        offsets = cp.asarray([0, n // 2, n // 2, n], np.int32)
        times = []
        for _ in range(2):
            call = ga.AlgorithmCall(name=b"bench", line=0, num_items=n)
            for field, value in fields.items():
                setattr(call, field, getattr(ga, value) if isinstance(value, str) else value)
            call.in_, call.out, call.values_in, call.values_out, call.aux, call.aux_out, call.result, call.temp = \
                (b.data.ptr for b in buffers)
            if call.kind == ga.SEGMENTED_REDUCE:
                call.aux, call.aux_end = offsets.data.ptr, offsets.data.ptr + 8
            begin = time.perf_counter()
            algorithms.run(call)
            cp.cuda.get_current_stream().synchronize()
            times.append(time.perf_counter() - begin)
        report["calls"].append(dict(call=name, items=n, first=times[0], second=times[1]))
print(json.dumps(report))
"""


def measure(cache: str, items: list[int]) -> dict:
    env = dict(os.environ, CUPY_CACHE_DIR=cache)
    config = json.dumps(dict(calls=CALLS, items=items))
    done = subprocess.run([sys.executable, "-c", CHILD, config], env=env, capture_output=True, text=True, timeout=600)
    if done.returncode:
        raise SystemExit(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", default="8,1000000")
    args = parser.parse_args()
    items = [int(n) for n in args.items.split(",")]
    console = Console()
    with tempfile.TemporaryDirectory() as cache:
        cold = measure(cache, items)
        warm = measure(cache, items)
    console.print(f"load(): {cold['load']:.2f} s with an empty kernel cache, {warm['load']:.3f} s with it filled")
    table = Table(title="Device-wide algorithm calls on the GPU backend (s)")
    for column in ("call", "items", "first use", "second use", "first use, cache filled"):
        table.add_column(column, justify="left" if column == "call" else "right")
    for row, again in zip(cold["calls"], warm["calls"]):
        table.add_row(row["call"], str(row["items"]), f"{row['first']:.4f}", f"{row['second']:.4f}",
                      f"{again['first']:.4f}")
    console.print(table)


if __name__ == "__main__":
    main()
