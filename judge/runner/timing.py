"""Timing solve() in the runner, on input sets the judge side placed (`set<k>/<param>`).

Each set's first call is untimed and its outputs go to the judge side, which checks them and answers
`Verified`. Every timed sample then resets the sets' outputs on the device, flushes L2 and times a
batch of calls between two events; one compare launch per sample tells which sets' outputs differ in
any bit from their first call's, and only those go to the judge side to be checked again. Each sample
is reported as it is taken, so that the judge side can hold the figures against its own clock.
"""
from __future__ import annotations

import numpy as np

from judge import exchange as X
from judge.protocol import RUNNER_COMMANDS, CaseTimed, OutputsReady, Sample, TimeCase, Verified, decode
from judge.runner.main import call_error, launch_record
from judge.runner.same_bits import SameBits
from judge.timing.device import DeviceTimer
from judge.timing.stats import run_samples


class Stopped(Exception):
    """The judge side said the outputs were wrong: this case ends here."""


def time_case(runner, cmd: TimeCase, commands) -> None:
    backend, problem = runner.backend, runner.problem
    runner.timer = timer = runner.timer or DeviceTimer(backend.cp, backend.stream)
    cp = backend.cp
    sets = range(cmd.sets)
    outs = [p for p in problem.params if p.role.value == "out"]
    inouts = [p for p in problem.params if p.role.value == "inout"]

    def placed(k: int, p):
        """(slot, allocation) of parameter p of set k."""
        return runner.placed[f"set{k}/{p.name}"]

    def view(k: int, p):
        slot, alloc = placed(k, p)
        return backend.device_view(alloc, slot.payload_offset, slot.nbytes // p.np_dtype.itemsize, p.np_dtype)

    initial = [{p.name: view(k, p).copy() for p in inouts} for k in sets]
    fill = backend.kernels.fill_rows([(alloc.address + slot.payload_offset, slot.nbytes, np.frombuffer(X.reset_pattern(p), np.uint8))
                                      for k in sets for p in outs for slot, alloc in [placed(k, p)]])

    def reset(ks: list[int]) -> None:
        fill(ks[0] * len(outs), len(ks) * len(outs))
        for k in ks:
            for p in inouts:
                view(k, p)[...] = initial[k][p.name]

    def send_outputs(k: int, first: bool, error=None) -> None:
        for p in problem.params:
            if p.is_output:
                slot, alloc = placed(k, p)
                backend.download(runner.fd, slot.offset, alloc)
        runner.emit(OutputsReady(case=cmd.case, set=k, first=first, error=error))
        answer = decode(RUNNER_COMMANDS, commands.readline())
        if not isinstance(answer, Verified) or not answer.ok:
            raise Stopped

    args = [runner.args(cmd.scalars[k], prefix=f"set{k}/") for k in sets]
    outputs = [{p.name: view(k, p) for p in problem.params if p.is_output} for k in sets]
    golden = []
    try:
        for k in sets:
            reset([k])
            err = backend.call_solve(args[k])
            send_outputs(k, True, call_error(err))
            golden.append({name: v.copy() for name, v in outputs[k].items()})
        same_bits = SameBits(backend, outputs, golden)
        state = {"next": 0}

        def sample(batch: int, warmup: bool) -> float:
            ks = [(state["next"] + i) % cmd.sets for i in range(batch)]
            state["next"] = (state["next"] + batch) % cmd.sets
            reset(ks)

            def calls():
                for k in ks:
                    backend.call_solve_async(args[k])
            seconds = timer.time(calls, lambda: same_bits.enqueue(ks)) / batch
            err = backend.pending_error()
            if err is not None:
                send_outputs(ks[0], False, call_error(err))
            runner.emit(Sample(case=cmd.case, batch=batch, seconds=seconds, warmup=warmup))
            for k in same_bits.raised():
                send_outputs(k, False)
            return seconds

        backend.timed_mode(True)
        try:
            run_samples(sample, cmd.sets)
        finally:
            backend.timed_mode(False)
        launches = backend.profile_call(args[0])
        runner.emit(CaseTimed(case=cmd.case, per_kernel=[launch_record(l) for l in launches[:4096]]))
    except Stopped:
        pass
    finally:
        del golden
        cp.get_default_memory_pool().free_all_blocks()
