"""Judge one submission: build, run the harness in a child, and assemble the Result."""
from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import tempfile
from contextlib import ExitStack
from pathlib import Path
from functools import lru_cache
from importlib.util import find_spec
from typing import Callable

from judge.problems.model import Problem
from judge.problems.plan import TestCase, test_cases
from judge.result import CompileInfo, Result, TestResult, Timing, Verdict
from judge.problems.loader import PROBLEM_FILE, REFERENCE_FILE
from sandbox.gpus import DRIVER_GPUS, Gpu
from sandbox.kernel_cache import account_folder
from sandbox import standby
from sandbox.runner import FINAL_EVENTS, OUTPUT_CAP_BYTES, ChildRun, run_child
from sandbox.standby import StandbyChild, files_digest

PROBLEM_FILES = (PROBLEM_FILE, REFERENCE_FILE)
CPU_DEADLINE_FACTOR = 10.0     # the emulator is slower than a GPU by about this much for the tests' sizes
CPU_MIN_DEADLINE_S = 10.0
KERNEL_CACHE_FOLDER = "cupy-kernels"   # under the build cache's root
STANDBY_FOLDER = "standby"             # likewise: one folder per standby host
RUN_CHILD = "judge.harness.child"

EventHook = Callable[[dict], None]


@lru_cache(maxsize=1)
def gpu_available() -> bool:
    """A GPU and CuPy are present; asked without creating a CUDA context in this process: the
    driver's list of GPUs in /proc when it has one (no process to start), else nvidia-smi."""
    if find_spec("cupy") is None:
        return False
    try:
        if any(DRIVER_GPUS.iterdir()):
            return True
    except OSError:
        pass
    if shutil.which("nvidia-smi") is None:
        return False
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and "GPU" in out.stdout


def resolve_backend(name: str) -> str:
    if name == "auto":
        return "gpu" if gpu_available() else "cpu"
    if name not in ("gpu", "cpu"):
        raise ValueError(f"unknown backend {name!r}: choose auto, gpu or cpu")
    if name == "gpu" and not gpu_available():
        raise ValueError("--backend gpu needs an NVIDIA GPU and CuPy (pip install 'cudajudge[cuda13]'); "
                         "use --backend cpu to judge correctness without one")
    return name


def _build(problem: Problem, source: str | bytes, backend: str, filename: str, arch: str | None):
    """(compile info, library path, backend artifacts)."""
    if backend == "gpu":
        from judge.build import build
        built = build(problem, source, arch=arch, filename=filename)
        return built.compile, built.library, built.artifacts()
    from judge.build.cpu_build import build_cpu
    from judge.source.prepare import SourceRejected, prepare

    try:   # the same source policy and signature check as the GPU build
        prepared = prepare(problem, source, filename)
    except SourceRejected as rejected:
        return CompileInfo(ok=False, diagnostics=rejected.diagnostics), None, {}
    info, library = build_cpu(source.decode("utf-8") if isinstance(source, bytes) else source, filename=filename)
    if info.ok and prepared.held_back:
        return CompileInfo(ok=False, diagnostics=prepared.held_back, seconds=info.seconds), None, {}
    return info, library, {}


def _kernel_cache(account: str) -> Path:
    from judge.build.cache import cache_root

    return account_folder(cache_root() / KERNEL_CACHE_FOLDER, account)


def _rerun_choice(cases: list[TestCase]) -> str | None:
    """The largest test that every backend runs: big enough that a race or stale state shows."""
    candidates = [c for c in cases if not c.gpu_only and not c.sample] or cases
    return max(candidates, key=lambda c: sum(v for v in c.size.values() if isinstance(v, int)), default=None).name \
        if candidates else None


def _summary(tests: list[TestResult]) -> tuple[Verdict, str]:
    for t in tests:
        if t.verdict != Verdict.AC:
            return t.verdict, f"{t.verdict.value} on test {t.name}: {t.message}"
    return Verdict.AC, f"all {len(tests)} tests passed"


def judge_source(problem: Problem, source: str | bytes, *, backend: str = "auto", seed: int | None = None,
                 timing: bool = True, patterns: list[str] | None = None, samples_only: bool = False,
                 filename: str = "solution.cu", arch: str | None = None, hidden: tuple[Path, ...] = (),
                 on_event: EventHook = lambda e: None, device: Gpu | None = None, account: str = "local",
                 standby: bool = False) -> Result:
    """`hidden`: folders the run child must not see besides the catalog (e.g. a server's data folder).
    `device`: on the GPU backend, the one GPU to run on (a worker pinned to it); default: the first visible.
    `account`: whose runs may share compiled judge kernels (sandbox.kernel_cache): one learner's.
    `standby`: run in a child that a background host started before this call (sandbox.standby) when
    one is ready, and leave a host running for the next call."""
    backend = resolve_backend(backend)
    cases = test_cases(problem, include_gpu_only=(backend == "gpu"), samples_only=samples_only, patterns=patterns)
    if not cases:
        raise ValueError(f"no test of {problem.key} matches {patterns}")
    deadline = problem.limits.deadline_s if backend == "gpu" else max(CPU_MIN_DEADLINE_S, problem.limits.deadline_s * CPU_DEADLINE_FACTOR)
    launch = dict(gpu=(backend == "gpu"), hidden=[problem.folder.parent, *hidden], device=device,
                  kernel_cache_folder=_kernel_cache(account) if backend == "gpu" else None)
    files = problem_files(problem)
    with ExitStack() as cleanup:
        child = _standby_child(launch, deadline) if standby else None
        prepared = _prepared_seed(child, files, seed) if timing else None
        seed = prepared if prepared is not None else secrets.randbits(31) if seed is None else seed
        arch = arch or (child.arch if child is not None else None)
        on_event({"event": "child", "standby": child is not None, "pid": child.pid if child else None,
                  "benchmark_prepared": prepared is not None})
        if child is None:
            # The run child starts now and comes up (interpreter, imports) while the submission builds;
            # the build's files are then placed in its inbox, the only build folder it sees.
            inbox = Path(cleanup.enter_context(tempfile.TemporaryDirectory(prefix="cudajudge-run-")))
            child = run_child(RUN_CHILD, job={}, deadline_s=deadline, build_dir=inbox, **launch)
        cleanup.callback(child.close)
        child.start()
        return _build_and_run(problem, files, source, child, cases, backend=backend, seed=seed,
                              timing=timing, filename=filename, arch=arch, on_event=on_event)


def _prepared_seed(child: StandbyChild | None, files: dict[str, str], seed: int | None) -> int | None:
    """The seed whose benchmark `child` made while it waited (sandbox.standby), when it is this
    problem's and agrees with the seed asked for."""
    prepared = child.prepared if child is not None else None
    if not prepared or prepared["problem"] != files_digest(files):
        return None
    return prepared["seed"] if seed in (None, prepared["seed"]) else None


def _standby_child(launch: dict, deadline_s: float) -> StandbyChild | None:
    """The waiting child of the standby host for this launch, if one is free; a host is started for
    the next call when none runs."""
    from judge.build.cache import cache_root

    config = standby.launch_config(RUN_CHILD, **launch)
    folder = standby.host_folder(cache_root() / STANDBY_FOLDER, config)   # hashes the judge's code: once
    child = standby.adopt(folder, deadline_s)
    if child is None:
        from judge.build.arch import default_arch   # what this judge's own build asks anyway

        standby.ensure_host(folder, config, default_arch() if launch["gpu"] else None)
    return child


def problem_files(problem: Problem) -> dict[str, str]:
    """What a run child gets of the problem: its definition and reference, by file name."""
    return {name: (problem.folder / name).read_text(encoding="utf-8") for name in PROBLEM_FILES}


def _stage(inbox: Path, path: str) -> str:
    """A build file linked (else copied) into the run child's inbox; its path there."""
    target = inbox / Path(path).name
    target.unlink(missing_ok=True)   # a standby child's inbox may hold the files of a judge that left early
    try:
        os.link(path, target)
    except OSError:
        shutil.copyfile(path, target)
    return str(target)


def _build_and_run(problem: Problem, files: dict[str, str], source: str | bytes, child: ChildRun | StandbyChild,
                   cases: list[TestCase], *,
                   backend: str, seed: int, timing: bool, filename: str, arch: str | None,
                   on_event: EventHook) -> Result:
    on_event({"event": "build_start", "backend": backend})
    compile_info, library, artifacts = _build(problem, source, backend, filename, arch)
    on_event({"event": "build_done", "compile": compile_info.model_dump(mode="json")})
    notes = [] if backend == "gpu" else ["timing needs a GPU: the CPU backend judges correctness only"]
    if not compile_info.ok:
        first = next((d for d in compile_info.diagnostics if d.severity == "error"), None)
        where = f"{first.file}:{first.line}: " if first and first.line else ""
        return Result(problem=problem.key, backend=backend, seed=seed, verdict=Verdict.CE, compile=compile_info,
                      message=f"compile error: {where}{first.message if first else compile_info.log[:300]}", notes=notes)

    child.job.update({
        "problem_files": files,
        "problem_folder_name": problem.folder.name, "backend": backend, "library": _stage(child.inbox, library),
        "artifacts": {k: _stage(child.inbox, v) if k == "cubin" else v for k, v in artifacts.items()}, "seed": seed,
        "tests": [c.name for c in cases], "rerun_test": _rerun_choice(cases), "timing": timing and backend == "gpu"})
    tests: list[TestResult] = []
    timing_result: Timing | None = None
    device, isolation, internal = None, child.job["isolation"], None   # the child adds seccomp once it holds
    printf_bytes = 0
    finished = False
    for event in child.events():
        kind = event["event"]
        if kind == "ready":
            device, isolation = event["device"], event.get("isolation", [])
        elif kind == "test":
            tests.append(TestResult.model_validate(event["result"]))
            printf_bytes += len(event.get("printf", ""))
        elif kind == "timing":
            timing_result = Timing.model_validate(event["timing"])
        elif kind == "internal_error":
            internal = event
        elif kind in FINAL_EVENTS:
            finished = True
        on_event(event)

    outcome = child.outcome
    by_name = {c.name: c for c in cases}
    next_case = by_name[cases[len(tests)].name] if len(tests) < len(cases) else None
    if outcome.killed_for == "deadline":
        where = next_case or TestCase("benchmark", "benchmark", {}, "-", True, False)
        tests.append(TestResult(name=where.name, size=where.size, distribution=where.distribution,
                                verdict=Verdict.TLE, message=f"solve() did not finish within {child.deadline_s:g} s "
                                f"(an endless loop, a deadlock, or far too slow); the process was killed"))
    elif internal is not None:
        notes.append(f"internal error: {internal['message']}")
    elif not finished and not any(t.verdict != Verdict.AC for t in tests):
        how = f"signal {outcome.signal_name}" if outcome.signal_name else f"exit status {outcome.returncode}"
        # The judge's own kills are reported above: a SIGKILL here came from solve() or the kernel's OOM killer.
        cause = ("killed by solve() itself or by the system when the machine ran out of memory"
                 if outcome.signal_name == "SIGKILL" else "a crash in host code, exit() or abort()")
        next_case = next_case or cases[-1]
        tests.append(TestResult(name=next_case.name, size=next_case.size, distribution=next_case.distribution,
                                verdict=Verdict.RE, message=f"the process running solve() ended with {how} "
                                f"during this test ({cause}). "
                                f"Output tail: {outcome.output[-300:].strip()}"))
    if outcome.output_bytes + printf_bytes > OUTPUT_CAP_BYTES:
        tests.append(TestResult(name=(tests[-1].name if tests else "output"), size={}, distribution="-",
                                verdict=Verdict.OLE, message=f"the program wrote {outcome.output_bytes} bytes of output; "
                                f"the limit is {OUTPUT_CAP_BYTES}"))
    if outcome.gpu_released is False:
        notes.append("the GPU was still busy after the run was killed: this machine reports itself unhealthy "
                     "until the GPU is free again")
    if len(tests) < len(cases):
        notes.append(f"{len(cases) - len(tests)} test(s) not run after the first fatal failure")

    verdict, message = _summary(tests)
    if internal is not None and verdict == Verdict.AC:
        verdict, message = Verdict.IE, f"the judge failed: {internal['message']}"
    return Result(problem=problem.key, backend=backend, device=device, isolation=isolation, seed=seed,
                  verdict=verdict, message=message, compile=compile_info, tests=tests, timing=timing_result, notes=notes)
