"""The run child: the only process that runs user code (and, on the GPU, holds the CUDA context).

It reads one job (JSON) on stdin and writes events, one JSON object per line, to the file
descriptor the job names. The parent enforces deadlines between a "start" event and the next event.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import traceback
from pathlib import Path

from judge.backends import open_backend
from judge.backends.base import broken_driver_message
from judge.harness.correctness import run_case
from judge.problems.loader import load_reference, parse_problem
from judge.problems.plan import test_cases
from judge.harness.job import Job
from judge.result import TestResult, Verdict
from sandbox import seccomp_filter


def _load_problem(files: dict[str, str], folder_name: str):
    """Materialize the problem in a private folder, load it, and delete the files again, so user
    code finds no reference on disk."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / folder_name
        folder.mkdir()
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
        problem = parse_problem(folder)
        return problem, load_reference(problem)


def _read_job():
    """(Ahead or None, the Job) from stdin: a standby child may first be told what to prepare
    (judge.harness.ahead), one line, before its job arrives."""
    first = sys.stdin.readline()
    message = json.loads(first) if first.startswith('{"prepare"') else None
    if message is None:
        return None, Job.model_validate_json(first + sys.stdin.read())
    from judge.harness.ahead import Ahead

    prepare = message["prepare"]
    ahead = Ahead(prepare["problem_files"], prepare["seed"],
                  lambda: _load_problem(prepare["problem_files"], prepare["problem_folder_name"]))
    return ahead, Job.model_validate_json(sys.stdin.read())


def main() -> int:
    if "--gpu" in sys.argv[1:]:   # CuPy's import and the CUDA context, made while the parent still builds
        try:
            import cupy

            cupy.cuda.runtime.free(0)   # cudaFree(0) creates the context
        except Exception:
            pass   # the backend does it again below, where a failure is reported as the judge's
    ahead, job = _read_job()
    events = os.fdopen(job.event_fd, "w", buffering=1)
    token = job.token

    def emit(kind: str, **payload) -> None:
        events.write(json.dumps({"event": kind, "token": token, **payload}) + "\n")
        events.flush()

    try:
        if ahead is not None and not ahead.serves(job):
            ahead.discard()
            ahead = None
        if ahead is not None:
            ahead.wait()   # what is left of it: mostly done while the learner edited
        problem, reference = ((ahead.problem, ahead.reference) if ahead is not None and ahead.problem is not None
                              else _load_problem(job.problem_files, job.problem_folder_name))
        isolation = list(job.isolation)

        def before_user_code() -> None:
            if job.seccomp and seccomp_filter.install():
                isolation.append("seccomp")

        backend = open_backend(job.backend, problem, job.library, job.artifacts, before_user_code)
        emit("ready", device=backend.device, isolation=isolation)
        by_name = {c.name: c for c in test_cases(problem)}
        results = []
        for name in job.tests:
            case = by_name[name]
            try:
                result, usable = run_case(backend, problem, reference, case, job.seed, rerun=(name == job.rerun_test),
                                          on_start=lambda c: emit("start", test=c.name),
                                          on_finish=lambda c: emit("finish", test=c.name))
            except Exception as exc:
                if not backend.device_failure(exc):
                    raise
                # The driver broke under the judge's own calls once solve() had run: the submission's doing.
                result, usable = TestResult(
                    name=case.name, size=case.size, distribution=case.distribution, verdict=Verdict.RE,
                    message=broken_driver_message(exc)), False
            emit("test", result=result.model_dump(mode="json"), printf=backend.printf_output()[-2000:])
            results.append(result)
            if not usable:
                emit("stopped", reason=f"the device is unusable after {name}")
                return 0
        if job.timing and results and all(r.verdict == "AC" for r in results):
            from judge.harness.timing import TimedCallFailed, measure
            emit("timing_start", prepared=ahead.cases_ready() if ahead is not None else [],
                 prepare_error=ahead.error if ahead is not None else None)
            try:
                timing = measure(backend, problem, reference, job.seed, emit, ahead)
            except Exception as exc:
                if isinstance(exc, TimedCallFailed):
                    verdict, message = Verdict(exc.verdict), str(exc)
                elif backend.device_failure(exc):   # as in the tests: the driver broke once solve() had run
                    verdict, message = Verdict.RE, "during timing, " + broken_driver_message(exc)
                else:
                    raise
                wrong = TestResult(name="benchmark", size={}, distribution="-", verdict=verdict, message=message)
                emit("test", result=wrong.model_dump(mode="json"), printf="")
            else:
                emit("timing", timing=timing.model_dump(mode="json"))
        emit("done")
        return 0
    except Exception as exc:  # the judge's own fault: report it as IE with the trace
        emit("internal_error", message=f"{type(exc).__name__}: {exc}", trace=traceback.format_exc()[-4000:])
        return 1


if __name__ == "__main__":
    sys.exit(main())
