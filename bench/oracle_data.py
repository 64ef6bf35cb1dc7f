"""What the oracle's data costs: one large set's stages alone, how long a small test's data takes while
four large sets are made beside it (the oracle makes a GPU judge's large tests and timing sets while the
tests run), and when the data of a whole timed GPU judge (every test, GPU-only ones too, then every timing
set) is made by the oracle's own threads, all asked at once. Printed figures, not pass/fail.

    python bench/oracle_data.py            # problem 83 at n = 10^8; RANKED=0: the large sets' pieces
                                           # not ranked behind the small test's (first come, first served)
"""
from __future__ import annotations

import math
import os
import statistics
import tempfile
import threading
import time
from contextlib import nullcontext
from pathlib import Path

from judge import exchange as X
from judge.checking import oracle as oracle_process
from judge.checking.run import _elements, data_plan, digested
from judge.output_digest import new_key, output_digest
from judge.pieces import WORKERS, ranked
from judge.problems.loader import load_problem, load_reference
from judge.problems.plan import test_cases
from judge.problems.test_data import case_rng, expected_outputs, make_test_data
from judge.protocol import DataMade, MakeData, OracleJob
from judge.submission import problem_files

PROBLEM = int(os.environ.get("PROBLEM", "83"))
LARGE = {"n": 10**8}
SMALL = [({"n": 262145}, "sorted"), ({"n": 2000003}, "zipf")]   # two of 83's shape tests
RANKED = os.environ.get("RANKED", "1") != "0"

problem = load_problem(PROBLEM)
reference = load_reference(problem)
output = next(p.name for p in problem.params if p.is_output)


def make(size: dict, distribution: str, tag: str) -> tuple[float, float, float]:
    """(drawing, reference, digest) seconds of one set's data, as the oracle makes it."""
    began = time.perf_counter()
    data = make_test_data(problem, reference, size, distribution, case_rng(1, tag))
    drawn = time.perf_counter()
    expected = expected_outputs(problem, reference, data)
    referenced = time.perf_counter()
    output_digest(expected[output], new_key())
    return drawn - began, referenced - drawn, time.perf_counter() - referenced


def small_pair() -> float:
    began = time.perf_counter()
    for size, distribution in SMALL:
        make(size, distribution, "small")
    return time.perf_counter() - began


def main() -> None:
    print(f"problem {PROBLEM}, {os.cpu_count()} cores, {WORKERS} piece threads")
    for rep in range(2):
        draw, ref, digest = make(LARGE, "uniform", f"large{rep}")
        data = make_test_data(problem, reference, LARGE, "uniform", case_rng(1, "write"))
        with tempfile.TemporaryDirectory() as folder:
            fd = X.create(Path(folder) / "data.bin", 0)
            began = time.perf_counter()
            for p in problem.params:
                if p.is_pointer and p.is_input:
                    X.write_bytes(fd, 0, data.arrays[p.name])
            write = time.perf_counter() - began
            os.close(fd)
        print(f"one {LARGE} set alone: drawing {draw:.3f} s, reference {ref:.3f} s, digest {digest:.3f} s, "
              f"writing its inputs {write:.3f} s")
    alone = [small_pair() for _ in range(10)]
    print(f"the small tests' data alone: {1e3 * statistics.median(alone):.1f} ms (median of 10)")

    def large(k: int) -> None:
        with ranked(1 + k) if RANKED else nullcontext():   # asked after the small tests, as in a judge
            make(LARGE, "uniform", f"beside{k}")

    makers = [threading.Thread(target=large, args=(k,)) for k in range(4)]
    began = time.perf_counter()
    for maker in makers:
        maker.start()
    beside = []
    while any(maker.is_alive() for maker in makers):
        beside.append(small_pair())
    for maker in makers:
        maker.join()
    print(f"four large sets on threads: {time.perf_counter() - began:.2f} s; meanwhile the small tests' data "
          f"took {1e3 * statistics.median(beside):.1f} ms (median of {len(beside)}), at most "
          f"{1e3 * max(beside):.1f} ms ({'ranked' if RANKED else 'not ranked'})")


def whole_judge() -> None:
    """When the oracle (its DataMaker, in this process) has made each request of a timed all-tests GPU judge."""
    wanted, copy_of = data_plan(problem, test_cases(problem), 1, timed=True)
    with tempfile.TemporaryDirectory() as folder:
        job = OracleJob(problem_files=problem_files(problem), problem_folder_name=problem.folder.name,
                        exchange=folder, gpu=False)
        made: list[tuple[float, int]] = []

        def emit(message) -> None:
            if not isinstance(message, DataMade):
                raise RuntimeError(f"the oracle answered {message}")
            made.append((time.perf_counter() - began, message.request))
            os.unlink(message.file)

        oracle = oracle_process.Oracle(job, emit)
        maker = oracle_process.DataMaker(oracle, emit, oracle_process.make_workers(), large=oracle.is_large)
        began = time.perf_counter()
        for request, (case, seed, keep) in enumerate(wanted):
            if request not in copy_of:   # a timing set's copies share its request, as in a judge
                maker.submit(MakeData(request=request, test=case.name, size=case.size, distribution=case.distribution,
                                      rng_seed=seed, keep=keep, digest=digested("gpu", case)))
        maker.finish()
        maker.stop()
    tests_done = max(t for t, request in made if not wanted[request][2])
    large = ", ".join(f"{wanted[r][0].name} {t:.2f}" for t, r in made if _elements(wanted[r][0]) >= math.prod(LARGE.values()))
    print(f"a timed all-tests judge's data ({len(made)} requests): the tests' made at {tests_done:.2f} s, all at "
          f"{made[-1][0]:.2f} s; the sets of {LARGE}: {large}")


if __name__ == "__main__":
    main()
    for _ in range(2):
        whole_judge()
