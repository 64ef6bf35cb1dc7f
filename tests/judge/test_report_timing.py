"""The terminal's timing table: a batched case's figure says it is a throughput and gives one call's, and a
baseline an earlier judge timed says how long ago."""
from rich.console import Console

from judge import result as judged
from judge.report import timing_table


def rendered(baseline_age_s):
    case = judged.CaseTiming(size={"n": 1_000_000}, distribution="uniform", samples=400, median_us=9.8, min_us=9.6,
                             iqr_us=0.1, noisy=False, gbps=816.0, sol_pct=20.0, calls_per_sample=16,
                             single_call_us=11.4, baseline_us=14.1, baseline_calls_per_sample=14,
                             baseline_single_call_us=16.0, baseline_age_s=baseline_age_s, ratio_to_baseline=14.1 / 9.8)
    timing = judged.Timing(**case.model_dump(exclude={"size", "distribution", "gflops"}), copy_gbps=4000.0,
                           per_case=[case])
    result = judged.Result(problem="problem83", backend="gpu", device="NVIDIA H100", seed=1,
                           verdict=judged.Verdict.AC, compile=judged.CompileInfo(ok=True), timing=timing)
    console = Console(record=True, width=220)
    console.print(timing_table(result))
    return console.export_text()


def test_a_baseline_timed_by_an_earlier_judge_says_how_long_ago():
    text = rendered(720.0)
    assert "1.44× (14.1 µs, timed 12 min ago)" in text
    assert "per call of 16 back to back; 11.4 alone" in text


def test_a_baseline_timed_in_this_judge_says_nothing_of_age():
    text = rendered(None)
    assert "1.44× (14.1 µs)" in text and "ago" not in text
