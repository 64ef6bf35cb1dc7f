"""Performance hints from the CPU backend's observation of the small tests: per kernel and source
line, how its warp-wide requests use memory, and per kernel a lower bound on its time from the
bytes it moves. Observations of the runner, shown to the submitter; they never decide a verdict."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from judge.compilation.debug_lines import source_line
from judge.protocol import AccessRecord, TrafficRecord
from judge.result import AccessHint, KernelEstimate, PerformanceHints

REFERENCE_GPU = "H200"
REFERENCE_COPY_GBPS = 4000.0   # what a device-to-device copy reaches there: the bound no kernel beats
UNCOALESCED_RATIO = 2.0        # sectors touched per request, against the fewest, from which it is a hint
DIVERGENT_SHARE = 0.75         # lanes taking part, of those present, below which it is a hint
SHOWN_ACCESSES = 16


@dataclass
class _Totals:
    requests: int = 0
    lanes_active: int = 0
    lanes_present: int = 0
    sectors: int = 0
    fewest_sectors: int = 0
    ways: int = 0
    worst_ways: int = 0

    def add(self, r: AccessRecord) -> None:
        self.requests += r.requests
        self.lanes_active += r.lanes_active
        self.lanes_present += r.lanes_present
        self.sectors += r.sectors
        self.fewest_sectors += r.fewest_sectors
        self.ways += r.ways
        self.worst_ways = max(self.worst_ways, r.worst_ways)


@dataclass
class HintCollector:
    """Gathers what each observed call reported; `summary()` is the Result's `hints`. A kernel's
    accesses are shown from the test where it made the most requests: the small edge tests, with
    their ragged shapes, leave most lanes idle by design. `library`: the observed build, whose line
    tables give each instruction's line (read here, once per build, not in every runner)."""
    library: Path | None = None
    tests: list[str] = field(default_factory=list)
    _accesses: dict[str, dict[tuple, _Totals]] = field(default_factory=dict)   # test -> (kernel, line, space, access) -> totals
    _traffic: dict[str, tuple[int, str]] = field(default_factory=dict)

    def add(self, test: str, accesses: list[AccessRecord], traffic: list[TrafficRecord]) -> None:
        if not accesses and not traffic:
            return
        self.tests.append(test)
        rows = self._accesses.setdefault(test, {})
        for r in accesses:
            rows.setdefault((r.kernel, self._line(r.offset), r.space, r.access), _Totals()).add(r)
        for r in traffic:
            if r.kernel not in self._traffic or r.bytes > self._traffic[r.kernel][0]:
                self._traffic[r.kernel] = (r.bytes, test)

    def _line(self, offset: int) -> int | None:
        try:
            return source_line(self.library, offset) if self.library is not None else None
        except Exception:   # line tables it cannot read: the hint stands without its line
            return None

    def summary(self) -> PerformanceHints | None:
        if not self.tests:
            return None
        busiest: dict[str, tuple[int, str]] = {}
        for test, rows in self._accesses.items():
            for kernel in {key[0] for key in rows}:
                requests = sum(t.requests for key, t in rows.items() if key[0] == kernel)
                if requests > busiest.get(kernel, (-1, ""))[0]:
                    busiest[kernel] = (requests, test)
        accesses = [_hint(key, t, test) for kernel, (_, test) in busiest.items()
                    for key, t in self._accesses[test].items() if key[0] == kernel and t.requests]
        accesses.sort(key=lambda a: (not a.hint, -a.requests))
        kernels = [KernelEstimate(kernel=kernel, test=test, bytes=nbytes, lower_bound_us=nbytes / (REFERENCE_COPY_GBPS * 1e3))
                   for kernel, (nbytes, test) in sorted(self._traffic.items())]
        return PerformanceHints(tests=len(self.tests), reference=f"{REFERENCE_GPU}, {REFERENCE_COPY_GBPS / 1000:g} TB/s copy bandwidth",
                                accesses=accesses[:SHOWN_ACCESSES], kernels=kernels)


def _hint(key: tuple, t: _Totals, test: str) -> AccessHint:
    kernel, line, space, access = key
    active, present = t.lanes_active / t.requests, t.lanes_present / t.requests
    words = []
    sectors = fewest = ways = None
    if space == "global":
        sectors, fewest = t.sectors / t.requests, t.fewest_sectors / t.requests
        if t.sectors >= UNCOALESCED_RATIO * max(t.fewest_sectors, 1):
            words.append(f"uncoalesced: {sectors:.1f} sectors per request, {fewest:.1f} would do")
    else:
        ways = t.ways / t.requests
        if t.worst_ways >= 2:
            words.append(f"{t.worst_ways}-way bank conflicts" + (" (atomics on data-dependent addresses)" if access == "atomic"
                                                                 else ": pad the array or change the index"))
    if present >= 2 and active < DIVERGENT_SHARE * present:
        words.append(f"divergent: {active:.0f} of {present:.0f} lanes active")
    return AccessHint(kernel=kernel, line=line, test=test, space=space, access=access, requests=t.requests, lanes_active=active,
                      lanes_present=present, sectors_per_request=sectors, fewest_sectors_per_request=fewest,
                      bank_ways=ways, worst_bank_ways=t.worst_ways if space == "shared" else None, hint="; ".join(words))
