"""Where a judge's wall time went: the seconds the judge side waited for each kind of reply from the
runner and the oracle, grouped into phases, and the rest (its own work) as "judge side".

The phases overlap in the children (the oracle makes the next test's data while the runner calls
solve()), so they say what the judge side waited for, which is what made the learner wait.
"""
from __future__ import annotations

import time
from collections import defaultdict

from judge.result import PhaseTime

PHASE_OF_REPLY = {
    "OracleReady": "start", "Ready": "start",
    "DataMade": "test data", "Checked": "checks",
    "Placed": "buffers", "Released": "buffers", "CopiedBack": "buffers",
    "Returned": "solve() calls",
    "OutputsReady": "timing", "Sample": "timing", "CaseTimed": "timing", "BaselineTimed": "timing",
    "CopyMeasured": "timing",
}
ORDER = ("build", "start", "test data", "buffers", "solve() calls", "checks", "timing", "judge side")


class PhaseClock:
    def __init__(self):
        self.started = time.monotonic()
        self.seconds: dict[str, float] = defaultdict(float)

    def add(self, phase: str, seconds: float) -> None:
        self.seconds[phase] += seconds

    def waited(self, reply: str, since: float) -> None:
        """The judge side waited from `since` (time.monotonic()) for a reply of kind `reply`."""
        self.add(PHASE_OF_REPLY.get(reply, "judge side"), time.monotonic() - since)

    def phases(self) -> list[PhaseTime]:
        total = time.monotonic() - self.started
        seconds = dict(self.seconds, **{"judge side": max(0.0, total - sum(self.seconds.values()))})
        shown = {name: round(seconds.get(name, 0.0), 4) for name in ORDER}
        return [PhaseTime(name=name, seconds=s) for name, s in shown.items() if s > 0]   # a phase under 0.1 ms is none
