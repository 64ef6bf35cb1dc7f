"""Baseline figures kept between judges: used again on the same GPU while it copies as fast as it did,
for an hour, and never across problems, cases or devices."""
from __future__ import annotations

import dataclasses
import json
import shutil

import pytest

from judge.problems.loader import load_problem
from judge.timing import baseline_cache
from judge.timing.baseline_cache import KEPT_FOR_S, SAME_COPY, baseline_key, keep, recall
from judge.timing.stats import Stats

STATS = Stats(samples=120, median_us=803.4, min_us=799.0, iqr_us=4.1, noisy=False, calls_per_sample=1,
              single_call_us=803.4)
DEVICE = "5f0c… driver 13000 cupy 13.6.0"


@pytest.fixture(autouse=True)
def cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDAJUDGE_CACHE_DIR", str(tmp_path))
    return tmp_path


def key(problem=1, case="benchmark/N=16777216/uniform", batched=False, sets=4, device=DEVICE):
    return baseline_key(load_problem(problem), case, batched, sets, device)


def test_figures_kept_by_one_judge_are_recalled_by_the_next():
    keep(key(), 3000.0, STATS)
    kept = recall(key(), 3000.0)
    assert kept is not None
    stats, age = kept
    assert stats == STATS and 0 <= age < 60


def test_a_device_copying_at_another_speed_times_the_baseline_again():
    keep(key(), 3000.0, STATS)
    assert recall(key(), 3000.0 * (1 + SAME_COPY * 0.9)) is not None
    assert recall(key(), 3000.0 * (1 + SAME_COPY * 1.5)) is None
    assert recall(key(), 3000.0 * (1 - SAME_COPY * 1.5)) is None


def test_figures_older_than_an_hour_are_not_used(monkeypatch):
    keep(key(), 3000.0, STATS)
    now = baseline_cache.time.time()
    monkeypatch.setattr(baseline_cache.time, "time", lambda: now + KEPT_FOR_S + 1)
    assert recall(key(), 3000.0) is None


def test_the_key_holds_the_problem_case_method_input_sets_and_device():
    keys = {key(), key(problem=3), key(case="benchmark/N=268435456/uniform"), key(batched=True), key(sets=64),
            key(device="other GPU")}
    assert len(keys) == 6


def test_an_edited_problem_times_its_baseline_again(tmp_path):
    folder = tmp_path / "relu"
    shutil.copytree(load_problem(1).folder, folder)
    before = baseline_key(load_problem(str(folder)), "c", False, 4, DEVICE)
    reference = folder / "reference.py"
    reference.write_text(reference.read_text() + "\n# the baseline changed\n")
    assert baseline_key(load_problem(str(folder)), "c", False, 4, DEVICE) != before


@pytest.mark.parametrize("content", ["", "{not json", json.dumps({"timed_at": "soon"}), json.dumps([1, 2]),
                                     json.dumps({"timed_at": 0, "copy_gbps": 0, "stats": {}}),
                                     "figures"])
def test_a_damaged_file_means_timing_again(cache_folder, content):
    keep(key(), 3000.0, STATS)
    (path,) = (cache_folder / "baselines").glob("*.json")
    if content == "figures":   # figures of the wrong kind in a file that is otherwise as kept
        kept = json.loads(path.read_text())
        content = json.dumps({**kept, "stats": {**kept["stats"], "median_us": "fast", "noisy": "no"}})
    path.write_text(content)
    assert recall(key(), 3000.0) is None
    keep(key(), 3000.0, STATS)
    assert recall(key(), 3000.0)[0] == STATS


def test_noisy_figures_are_not_kept():
    keep(key(), 3000.0, dataclasses.replace(STATS, iqr_us=80.0, noisy=True))
    assert recall(key(), 3000.0) is None


def test_a_cache_folder_that_cannot_be_written_keeps_nothing_and_fails_nothing(cache_folder):
    (cache_folder / "baselines").write_text("a file where the folder would be")
    keep(key(), 3000.0, STATS)
    assert recall(key(), 3000.0) is None


class Recorder:
    """The run and the oracle as _baselines sees them, recording what it asks of each, in order."""

    def __init__(self):
        self.problem, self.calls = load_problem(1), []
        self.link = self

    def end_runner(self):
        self.calls.append("end runner")

    def send(self, command):
        self.calls.append(f"time {command.case}")

    def reply(self, kind):
        return kind(case="c", samples=10, median_us=80.0, min_us=79.0, iqr_us=1.0, noisy=False)

    def forget(self, requests):
        self.calls.append(f"forget {requests}")


def timed_cases():
    from judge.checking.timing import TimedCase, benchmark_cases

    return [TimedCase(case, STATS, [], {}, [2 * i, 2 * i + 1], False)
            for i, case in enumerate(benchmark_cases(load_problem(1)))]


def test_the_run_process_ends_before_the_oracle_times_a_baseline_and_only_then():
    from judge.checking.timing import _baselines
    from judge.protocol import CopyMeasured

    copy = CopyMeasured(gbps=3000.0, device="GPU", device_id=DEVICE)
    first = Recorder()
    figures = _baselines(first, first, copy, timed_cases())
    names = [t.case.name for t in timed_cases()]
    assert first.calls == ["end runner", f"time {names[0]}", "forget [0, 1]", f"time {names[1]}", "forget [2, 3]"]
    assert [age for _, age in figures] == [None, None]
    again = Recorder()
    figures = _baselines(again, again, copy, timed_cases())
    assert again.calls == ["forget [0, 1]", "forget [2, 3]"]
    assert all(stats.median_us == 80.0 and age is not None for stats, age in figures)
