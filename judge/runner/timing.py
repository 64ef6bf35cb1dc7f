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
from judge.backends.base import TimedBackend
from judge.protocol import RUNNER_COMMANDS, CaseTimed, CopyBack, OutputsReady, Sample, TimeCase, Verified, decode
from judge.runner.main import call_error, launch_record
from judge.runner.same_bits import SameBits
from judge.timing.device import DeviceTimer
from judge.timing.stats import run_samples


class Stopped(Exception):
    """The judge side said the outputs were wrong: this case ends here."""


class CaseTiming:
    """One TimeCase in the runner: its input sets' device views, their reset between calls, the first
    calls' outputs kept on the device, and the exchange with the judge side about the outputs."""

    def __init__(self, runner, cmd: TimeCase, commands):
        self.runner, self.cmd, self.commands = runner, cmd, commands
        backend: TimedBackend = runner.backend
        problem = runner.problem
        self.backend, self.problem = backend, problem
        runner.timer = self.timer = runner.timer or DeviceTimer(backend.cp, backend.stream)
        self.sets = range(cmd.sets)
        self.outs = [p for p in problem.params if p.role.value == "out"]
        self.inouts = [p for p in problem.params if p.role.value == "inout"]
        self.initial = [{p.name: self.view(k, p).copy() for p in self.inouts} for k in self.sets]
        self.fill = backend.kernels.fill_rows(
            [(alloc.address + slot.payload_offset, slot.nbytes, np.frombuffer(X.reset_pattern(p), np.uint8))
             for k in self.sets for p in self.outs for slot, alloc in [self.placed(k, p)]])
        self.args = [runner.args(cmd.scalars[k], prefix=f"set{k}/") for k in self.sets]
        self.outputs = [{p.name: self.view(k, p) for p in problem.params if p.is_output} for k in self.sets]
        self.golden: list[dict] = []          # each set's outputs of its first call
        self.same_bits: SameBits | None = None
        self.next_set = 0                     # where the next sample's run of sets starts

    def placed(self, k: int, p):
        """(slot, allocation) of parameter p of set k."""
        return self.runner.placed[f"set{k}/{p.name}"]

    def view(self, k: int, p):
        slot, alloc = self.placed(k, p)
        return self.backend.device_view(alloc, slot.payload_offset, slot.nbytes // p.np_dtype.itemsize, p.np_dtype)

    def reset(self, ks: list[int]) -> None:
        """Sets ks, consecutive, as before any call: outputs filled, in/out parameters their initial content."""
        self.fill(ks[0] * len(self.outs), len(ks) * len(self.outs))
        for k in ks:
            for p in self.inouts:
                self.view(k, p)[...] = self.initial[k][p.name]

    def send_outputs(self, k: int, first: bool, error=None) -> None:
        """Set k's outputs to the judge side (a first call's, by their digests where the case gives keys);
        raises Stopped unless it answers that they are right."""
        keys = self.cmd.digest[k] if first and error is None and k < len(self.cmd.digest) else {}
        digests = {}
        for p in self.problem.params:
            if p.is_output:
                slot, alloc = self.placed(k, p)
                if p.name in keys:
                    digests[p.name] = self.backend.digest(alloc, slot.payload_offset, slot.nbytes, keys[p.name])
                else:
                    self.backend.download(self.runner.fd, slot.offset, alloc)
        self.runner.emit(OutputsReady(case=self.cmd.case, set=k, first=first, error=error, digests=digests))
        answer = decode(RUNNER_COMMANDS, self.commands.readline())
        if isinstance(answer, CopyBack):   # a digest that was not the expected one: the outputs themselves
            self.runner.copy_back_payloads(answer)
            answer = decode(RUNNER_COMMANDS, self.commands.readline())
        if not isinstance(answer, Verified) or not answer.ok:
            raise Stopped

    def first_calls(self) -> None:
        """Each set's untimed first call, checked by the judge side; its outputs are the sets' reference."""
        for k in self.sets:
            self.reset([k])
            err = self.backend.call_solve(self.args[k])
            self.send_outputs(k, True, call_error(err))
            self.golden.append({name: v.copy() for name, v in self.outputs[k].items()})
        self.same_bits = SameBits(self.backend, self.outputs, self.golden)

    def sample(self, batch: int, warmup: bool) -> float:
        """Seconds per call of `batch` timed calls on the next sets in turn, reported as a Sample; the
        outputs of a failed call or that differ from their set's first go to the judge side."""
        ks = [(self.next_set + i) % self.cmd.sets for i in range(batch)]
        self.next_set = (self.next_set + batch) % self.cmd.sets
        self.reset(ks)
        backend, args, same_bits = self.backend, self.args, self.same_bits

        def calls():
            for k in ks:
                backend.call_solve_async(args[k])
        seconds = self.timer.time(calls, lambda: same_bits.enqueue(ks)) / batch
        err = backend.pending_error()
        if err is not None:
            self.send_outputs(ks[0], False, call_error(err))
        self.runner.emit(Sample(case=self.cmd.case, batch=batch, seconds=seconds, warmup=warmup))
        for k in same_bits.raised():
            self.send_outputs(k, False)
        return seconds

    def time_samples(self) -> None:
        self.backend.timed_mode(True)
        try:
            run_samples(self.sample, self.cmd.sets, self.cmd.batched)
        finally:
            self.backend.timed_mode(False)

    def report_kernels(self) -> None:
        """The kernels of one profiled call of the first set, as CaseTimed."""
        launches = self.backend.profile_call(self.args[0])
        self.runner.emit(CaseTimed(case=self.cmd.case, per_kernel=[launch_record(l) for l in launches[:4096]]))


def time_case(runner, cmd: TimeCase, commands) -> None:
    """Time solve() on the case's input sets: samples, then the kernels of one profiled call; the case
    ends early where the judge side finds outputs wrong."""
    timing = CaseTiming(runner, cmd, commands)
    try:
        timing.first_calls()
        timing.time_samples()
        timing.report_kernels()
    except Stopped:
        pass
    finally:
        timing.golden.clear()   # the reference copies' memory back to the device, not kept in CuPy's pool
        timing.backend.cp.get_default_memory_pool().free_all_blocks()
