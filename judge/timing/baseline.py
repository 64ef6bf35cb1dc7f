"""The problem's baseline, timed by the oracle on input sets of its own, like the solution."""
from __future__ import annotations

from judge.timing.stats import Stats, run_samples


def time_baseline(memory, timer, problem, reference, kept: list[tuple], batched: bool) -> Stats:
    """`kept`: (TestData, expected) of each input set. The outputs are reset before every sample,
    outside the timed region; the baseline's first answer is checked against the reference as the
    problem's tolerance policy checks a baseline."""
    cp = memory.cp
    initial = [{p.name: cp.asarray(data.arrays[p.name]) for p in problem.params if p.is_output} for data, _ in kept]
    sets = [{**{p.name: initial[k][p.name].copy() if p.is_output else cp.asarray(data.arrays[p.name])
                for p in problem.params if p.is_pointer}, **data.scalars}
            for k, (data, _) in enumerate(kept)]

    def reset(k: int) -> None:
        for name, value in initial[k].items():
            sets[k][name][...] = value

    with timer.stream:
        reference.baseline(**sets[0])
    timer.stream.synchronize()
    report = problem.tolerance.rule.check_baseline(problem, sets[0], kept[0][1])
    if report is not None:
        raise ValueError(f"the problem's baseline is wrong on its own benchmark: {report.first}")
    state = {"next": 0}

    def sample(batch: int, warmup: bool) -> float:
        ks = [(state["next"] + i) % len(sets) for i in range(batch)]
        state["next"] = (state["next"] + batch) % len(sets)
        with timer.stream:
            for k in ks:
                reset(k)

        def calls():
            with timer.stream:
                for k in ks:
                    reference.baseline(**sets[k])
        return timer.time(calls) / batch

    stats = run_samples(sample, len(sets), batched)
    del sets, initial
    cp.get_default_memory_pool().free_all_blocks()
    return stats
