"""Judge one submission: choose the backend, plan the tests, start the runner and the oracle (or adopt
a standby pair) and hand them to a Run (judge/checking/run.py), which builds, judges and assembles
the Result. Every planned test is in the Result: one that did not run says why.
"""
from __future__ import annotations

import secrets
import time
from contextlib import ExitStack
from pathlib import Path

from judge.backends.choice import resolve_backend
from judge.cache_paths import cache_root, kernel_cache_root, standby_root
from judge.checking.phases import PhaseClock
from judge.checking.run import EventHook, Run
from judge.problems.loader import PROBLEM_FILE, REFERENCE_FILE
from judge.problems.model import Problem
from judge.problems.plan import test_cases
from judge.protocol import OracleJob, RunnerStarted, encode
from judge.result import Result, Verdict
from judge.run_folder import run_folder
from sandbox import standby
from sandbox.gpus import Gpu
from sandbox.kernel_cache import account_folder
from sandbox.runner import ORACLE_FILE_BYTES, Child, run_child

PROBLEM_FILES = (PROBLEM_FILE, REFERENCE_FILE)
CPU_DEADLINE_FACTOR = 10.0     # the emulator is slower than a GPU by about this much for the tests' sizes
CPU_MIN_DEADLINE_S = 10.0
CPU_BUDGET_FACTOR = 3.0        # the whole judge's budget on the CPU backend, against the GPU's
RUNNER = "judge.runner"
ORACLE = "judge.checking.oracle"


def _kernel_cache(account: str) -> Path:
    return account_folder(kernel_cache_root(), account)


def verdict_of_file(backend: str, hidden: tuple[Path, ...] = ()):
    """A validator's judge (judge.problems.validator.JudgeFn): (problem, file, seed) -> (verdict, message)
    of an untimed judge on `backend` that stops at the first failure, whose verdict is the full judge's."""
    def judge(problem: Problem, path: Path, seed: int) -> tuple[Verdict, str]:
        result = judge_source(problem, path.read_text(encoding="utf-8", errors="replace"), backend=backend,
                              timing=False, filename=path.name, seed=seed, fail_fast=True, hidden=hidden)
        return result.verdict, result.message
    return judge


def judge_source(problem: Problem, source: str | bytes, *, backend: str = "auto", seed: int | None = None,
                 timing: bool = True, patterns: list[str] | None = None, samples_only: bool = False,
                 filename: str = "solution.cu", arch: str | None = None, hidden: tuple[Path, ...] = (),
                 on_event: EventHook = lambda e: None, device: Gpu | None = None, account: str = "local",
                 standby: bool = False, fail_fast: bool = False, include_gpu_only: bool = False,
                 shrink: bool = False) -> Result:
    """`fail_fast`: stop at the first test that fails (the verdict is the same; the rest are NR).
    `shrink`: after a failure, look for a smaller size of its distribution that fails too (judge.checking.shrink).
    `include_gpu_only`: on the CPU backend, emulate the GPU-only tests too (else they are NR, and say so).
    `hidden`: folders the sandboxed children must not see besides the catalog (e.g. a server's data folder).
    `device`: on the GPU backend, the one GPU to run on (a worker pinned to it); default: the first visible.
    `account`: whose runs may share compiled judge kernels (sandbox.kernel_cache): one learner's.
    `standby`: run in a runner that a background host started before this call (sandbox.standby) when
    one is ready, and leave a host running for the next call."""
    clock = PhaseClock()
    backend = resolve_backend(backend)
    planned = test_cases(problem, samples_only=samples_only, patterns=patterns)
    cases = [c for c in planned if backend == "gpu" or include_gpu_only or not c.gpu_only]
    if not planned:
        raise ValueError(f"no test of {problem.key} matches {', '.join(patterns or [])}")
    if not cases:
        raise ValueError(f"the tests of {problem.key} that match {', '.join(patterns or [])} are GPU-only: the CPU "
                         f"backend leaves them out (their sizes take long to emulate); judge on a GPU, or add "
                         f"--include-gpu-only to emulate them here")
    gpu = backend == "gpu"
    deadline = problem.limits.deadline_s if gpu else max(CPU_MIN_DEADLINE_S, problem.limits.deadline_s * CPU_DEADLINE_FACTOR)
    budget_s = problem.limits.budget_s * (1.0 if gpu else CPU_BUDGET_FACTOR)
    budget_ends = time.monotonic() + budget_s
    hidden_folders = folders_hidden(problem, hidden)
    launch = dict(gpu=gpu, hidden=hidden_folders, device=device,
                  kernel_cache_folder=_kernel_cache(account) if gpu else None)
    timed = timing and gpu
    with ExitStack() as cleanup:
        pair = _standby_pair(launch) if standby else None
        on_event(RunnerStarted(standby=pair is not None, pid=pair[0].pid() if pair else None))
        if pair is None:
            # Both start now and come up (interpreter, imports) while the submission builds; the build's
            # files are then placed in the runner's inbox, the only build folder it sees.
            folder = cleanup.enter_context(run_folder())
            (folder / "runner").mkdir()
            (folder / "oracle").mkdir()
            pair = (run_child(RUNNER, build_dir=folder / "runner", **launch),
                    run_child(ORACLE, gpu=gpu, build_dir=folder / "oracle", hidden=hidden_folders, device=device,
                              file_bytes=ORACLE_FILE_BYTES))
        runner, oracle = pair
        arch = arch or runner.arch
        # Closed in reverse, so the runner first: an adopted runner's end is awaited through its host,
        # which closing the oracle lets go of (sandbox.standby.HostLink.release).
        for child in reversed(pair):
            cleanup.callback(child.close)
        for child in pair:
            child.start()
            child.budget_ends = budget_ends
        oracle.send(encode(OracleJob(problem_files=problem_files(problem), problem_folder_name=problem.folder.name,
                              exchange=str(oracle.exchange), gpu=timed)))
        seed = secrets.randbits(31) if seed is None else seed
        run = Run(problem, cases, planned=planned, backend=backend, seed=seed, deadline_s=deadline, budget_s=budget_s,
                  timed=timed, runner=runner, oracle=oracle, on_event=on_event, fail_fast=fail_fast, shrink=shrink,
                  clock=clock)
        return run.judge(source, filename=filename, arch=arch)


def folders_hidden(problem: Problem, hidden: tuple[Path, ...] = ()) -> list[Path]:
    """What the children must not see: the catalog, the build cache (others' sources) and `hidden`."""
    return [problem.folder.parent, cache_root(), *hidden]


def _standby_pair(launch: dict) -> tuple[Child, Child] | None:
    """The waiting runner and oracle of the standby host for this launch, if they are free and isolated
    as children started here would be; a host is started for the next call when none runs."""
    config = standby.launch_config(RUNNER, ORACLE, **launch)
    folder = standby.host_folder(standby_root(), config)   # hashes the judge's code: once
    child = standby.adopt(folder, config["isolation"])
    if child is None:
        from judge.compilation.arch import default_arch   # what this judge's own build asks anyway

        standby.ensure_host(folder, config, default_arch() if launch["gpu"] else None)
    return child


def problem_files(problem: Problem) -> dict[str, str]:
    """What the oracle gets of the problem: its definition and reference, by file name."""
    return {name: (problem.folder / name).read_text(encoding="utf-8") for name in PROBLEM_FILES}
