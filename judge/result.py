"""The Result: the one schema every door (CLI, --json, server, web) uses."""
from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, Field

from judge import __version__


class Verdict(str, Enum):
    AC = "AC"    # accepted
    WA = "WA"    # wrong answer
    CE = "CE"    # compile error (or a rejected source)
    RE = "RE"    # runtime error: CUDA error, crash, out-of-bounds write, illegal call
    TLE = "TLE"  # deadline passed
    MLE = "MLE"  # device arena or host memory exceeded
    OLE = "OLE"  # output (printf / log) flood
    IE = "IE"    # the judge's own fault
    NR = "NR"    # not run: the test's message says why (an earlier fatal failure, the budget)


class Diagnostic(BaseModel):
    """One compiler or policy message, mapped to the user's file."""
    severity: str = "error"          # error | warning | note
    file: str = "solution.cu"
    line: int | None = None
    column: int | None = None
    message: str
    source_line: str | None = None   # the user's line, for the caret display
    stage: str = "parse"             # parse | policy | signature | device | host


class CompileInfo(BaseModel):
    ok: bool
    log: str = ""
    diagnostics: list[Diagnostic] = Field(default_factory=list)
    cached: bool = False
    seconds: float | None = None


class Mismatch(BaseModel):
    output: str                # which output parameter
    index: int                 # flat index of the first mismatch
    expected: str
    got: str
    count: int                 # how many elements mismatch in all
    total: int                 # how many elements were compared
    # the elements around the first mismatch, expected and got side by side, from flat index window_start
    window_start: int = 0
    expected_window: list[str] = Field(default_factory=list)
    got_window: list[str] = Field(default_factory=list)


class ArraySummary(BaseModel):
    """An input too large to show in full: its length, first values and last values."""
    size: int
    first: list[int | float]
    last: list[int | float]


class TestResult(BaseModel):
    name: str
    size: dict[str, int | float]
    distribution: str
    verdict: Verdict
    message: str = ""
    first_mismatch: Mismatch | None = None
    # a failing test's inputs, shown to the learner: arrays in full (small tests) or summarised, scalars as values
    inputs_shown: dict[str, list | int | float | ArraySummary] | None = None
    time_ms: float | None = None
    # The kernels' printf text of this test's first call of solve(), cut (judge.checking.console): a cut
    # text ends with a line "… N bytes more". On the GPU the CUDA driver writes kernel printf into the
    # run process's stdout, where it cannot be told from host output: there this holds everything the
    # process wrote while the test ran.
    printf: str = ""


class OutputPart(BaseModel):
    """A stretch of what the run process (the one calling solve()) wrote to its stdout and stderr (host
    printf, puts, fprintf(stderr, …)), cut like TestResult.printf."""
    test: str | None = None           # the test running while it was written; None: outside the tests
    text: str


class PhaseTime(BaseModel):
    """Seconds of a judge's wall time spent in one phase (build, test data, solve() calls, checks, …)."""
    name: str
    seconds: float


class KernelTime(BaseModel):
    kernel: str
    grid: list[int]
    block: list[int]
    shared_bytes: int = 0
    calls: int = 1
    total_us: float


class TimingFigures(BaseModel):
    """What one benchmark case measured."""
    samples: int
    median_us: float
    min_us: float
    iqr_us: float
    noisy: bool
    gbps: float | None = None
    sol_pct: float | None = None
    calls_per_sample: int = 1                # > 1: median_us is a batch's throughput (calls on distinct inputs
                                             # back to back), not one call's latency
    single_call_us: float | None = None      # one call alone, between its own events
    baseline_us: float | None = None
    baseline_calls_per_sample: int | None = None
    baseline_single_call_us: float | None = None
    baseline_age_s: float | None = None      # the baseline was timed this long ago on this GPU, by an earlier judge
                                             # (its figures are kept an hour); None: timed in this judge
    ratio_to_baseline: float | None = None   # baseline time / solution time: > 1 means faster than the baseline


class CaseTiming(TimingFigures):
    size: dict[str, int | float]
    distribution: str
    gflops: float | None = None


class Timing(TimingFigures):
    """Headline figures are those of the first (largest) benchmark case; per_case has them all."""
    copy_gbps: float | None = None       # the device's measured copy bandwidth (speed of light)
    per_kernel: list[KernelTime] = Field(default_factory=list)
    per_case: list[CaseTiming] = Field(default_factory=list)


class AccessHint(BaseModel):
    """One instruction of a kernel as the CPU backend saw its warps use memory, on the small tests."""
    kernel: str
    line: int | None = None
    test: str                         # the observed test the figures come from
    space: str                        # global | shared
    access: str                       # load | store | atomic
    requests: int                     # warp-wide requests observed
    lanes_active: float               # lanes taking part in a request, on average
    lanes_present: float              # lanes the warp has
    sectors_per_request: float | None = None          # global: 32-byte sectors touched
    fewest_sectors_per_request: float | None = None   # global: what the same bytes need at the least
    bank_ways: float | None = None    # shared: lanes waiting on one bank, on average (1: no conflict)
    worst_bank_ways: int | None = None
    hint: str = ""                    # what to change, in words; "" when the access is efficient


class KernelEstimate(BaseModel):
    """A lower bound on a kernel's time from the bytes of global memory it touches: an estimate on a
    reference GPU's copy bandwidth, never a measurement."""
    kernel: str
    test: str                         # the observed test where it moved the most
    bytes: int
    lower_bound_us: float


class PerformanceHints(BaseModel):
    tests: int                        # observed tests the figures come from
    reference: str                    # the GPU and bandwidth of the estimates
    accesses: list[AccessHint] = Field(default_factory=list)
    kernels: list[KernelEstimate] = Field(default_factory=list)


class Result(BaseModel):
    problem: str
    backend: str                      # gpu | cpu | none (compile failed before a backend ran)
    device: str | None = None
    isolation: list[str] = Field(default_factory=list)   # what isolated the run, e.g. ["bubblewrap", "seccomp", "rlimits"]
    seed: int
    verdict: Verdict
    message: str = ""                 # one line for the learner: what went wrong first
    compile: CompileInfo
    tests: list[TestResult] = Field(default_factory=list)   # every planned test in order; NR ones say why
    smaller_failure: TestResult | None = None   # the first failing test's distribution, failing at a smaller size
    partial: bool = False             # some planned test did not run (left out on this backend, or stopped early)
    timing: Timing | None = None
    hints: PerformanceHints | None = None   # the CPU backend's, from observing the small tests
    notes: list[str] = Field(default_factory=list)        # e.g. "timing needs a GPU"
    output: list[OutputPart] = Field(default_factory=list)   # the run process's stdout/stderr, in order
    phases: list[PhaseTime] = Field(default_factory=list)   # where the judge's wall time went
    judge_version: str = __version__
