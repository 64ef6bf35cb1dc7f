"""Baseline figures kept between judges on one GPU.

A problem's baseline is the same code on the same device judge after judge, and timing it again
cost a timed judge of problem 83 about 1.7 s of its 7. A figure is kept for KEPT_FOR_S under a key of
everything it depends on (the problem's files, the benchmark case, its method and its input sets, the
GPU, its driver and CuPy, the timing code), and used again only while the device copies memory as
fast as it did then, within SAME_COPY: a GPU at other clocks or under other load times its baseline
again. Kept figures live in the judge's cache folder, which no run child's view contains.
"""
from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

from judge.cache_paths import cache_root, keep_json
from judge.digest import digest
from judge.problems.loader import PROBLEM_FILE, REFERENCE_FILE
from judge.timing.stats import Stats

KEPT_FOR_S = 3600.0
SAME_COPY = 0.02
_TIMING_CODE = [Path(__file__).with_name(name) for name in ("baseline.py", "device.py", "stats.py")]


def baseline_key(problem, case: str, batched: bool, sets: int, device_id: str) -> str:
    folder = problem.folder
    return digest(folder / PROBLEM_FILE, folder / REFERENCE_FILE, case, str(batched), str(sets), device_id,
                  *_TIMING_CODE, hex_digits=32)


def _path(key: str) -> Path:
    return cache_root() / "baselines" / f"{key}.json"


def recall(key: str, copy_gbps: float) -> tuple[Stats, float] | None:
    """(the kept figures, their age in seconds), or None when there are none still good for a device
    that copies at `copy_gbps` now."""
    try:
        kept = json.loads(_path(key).read_text())
        age = time.time() - float(kept["timed_at"])
        stats = _stats(kept["stats"])
        if 0 <= age <= KEPT_FOR_S and abs(copy_gbps / float(kept["copy_gbps"]) - 1) <= SAME_COPY:
            return stats, age
    except (OSError, ValueError, KeyError, TypeError, ZeroDivisionError):
        pass   # none kept, or a file this version cannot read: timed again, and kept anew
    return None


def _stats(fields: dict) -> Stats:
    """Stats from a kept file's fields, each of its type; ValueError for figures no timing gives."""
    single = fields["single_call_us"]
    stats = Stats(int(fields["samples"]), float(fields["median_us"]), float(fields["min_us"]), float(fields["iqr_us"]),
                  bool(fields["noisy"]), int(fields["calls_per_sample"]), None if single is None else float(single))
    if not (stats.samples > 0 and stats.calls_per_sample > 0 and 0 < stats.min_us <= stats.median_us):
        raise ValueError(f"not a timing: {fields}")
    return stats


def keep(key: str, copy_gbps: float, stats: Stats) -> None:
    """Written whole (judge.cache_paths.keep_json): a judge reading at the same time sees the old figures or
    the new, and a cache folder that cannot be written leaves the next judge to time the baseline again.
    Noisy figures (something else on the GPU meanwhile, say) are not kept."""
    if not stats.noisy:
        keep_json(_path(key), {"timed_at": time.time(), "copy_gbps": copy_gbps, "stats": dataclasses.asdict(stats)})
