"""Every message between the judge side and the processes it runs, and every progress event.

Three channels, each a union discriminated by `kind`:
- judge side → runner (`RunnerCommand`) and runner → judge side (`RunnerEvent`): the runner is the
  sandboxed process that loads the submission and calls solve() when told. Nothing it sends is
  trusted: an event is only a claim ("the call returned"), checked against the state the judge side
  is in and against what the judge side reads itself.
- judge side → oracle (`OracleCommand`) and oracle → judge side (`OracleEvent`): the oracle is the
  sandboxed process that runs a problem's reference.py (instructor code): it makes inputs and
  expected outputs, runs a custom check, and on the GPU times the baseline.
- judge → its caller (`Progress`): what the CLI, the server's dispatch and the remote client show
  while a judge runs.

Bulk data (inputs, outputs, expected values) never travels in a message: messages name where it lies
in an exchange file (`Slot`). One JSON object per line on each channel.
"""
from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from typing import Annotated, BinaryIO, Callable, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from judge.result import ArraySummary, CompileInfo, Mismatch, TestResult, Timing


U64 = Annotated[int, Field(ge=0, lt=1 << 64)]   # a digest or its key (judge/output_digest.py)


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- where bulk data lies ------------------------------------------------------------------------

class Slot(Message):
    """`count` elements of `dtype` at byte `offset` of an exchange file."""
    offset: int = Field(ge=0)
    count: int = Field(ge=0)
    dtype: str


class PayloadSource(Message):
    """Where a GPU runner reads an input's payload instead of its exchange file: the oracle's data file,
    linked into the runner's exchange folder as `file`, from byte `offset`."""
    file: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    offset: int = Field(ge=0)


class BufferSlot(Message):
    """One guarded buffer of a test in the runner's exchange file: `span` bytes from `offset` (a page
    multiple), the parameter's payload at `offset + payload_offset`, `nbytes` long. With a `source`, the
    exchange file holds only the guard bytes and the payload comes from there."""
    name: str
    offset: int = Field(ge=0)
    span: int = Field(gt=0)
    payload_offset: int = Field(ge=0)
    nbytes: int = Field(ge=0)
    source: PayloadSource | None = None


# --- judge side → runner ---------------------------------------------------------------------------

class RunnerJob(Message):
    kind: Literal["job"] = "job"
    backend: Literal["cpu", "gpu"]
    problem_toml: str              # the problem's definition (no reference): signature, limits
    library: str                   # the built shared library that exports solve()
    artifacts: dict[str, str] = {}
    exchange: str                  # the file the runner's buffers live in (CPU) or are staged through (GPU)
    seccomp: bool = True


class Place(Message):
    """Map (CPU) or allocate and upload (GPU) a test's buffers from the exchange file; the runner fills
    each output (role "out") with its reset pattern (judge.exchange.reset_pattern), which the exchange
    file does not hold."""
    kind: Literal["place"] = "place"
    test: str
    buffers: list[BufferSlot]


class Call(Message):
    """Call solve() once on the placed buffers. `reset`: buffers back to their state before the first
    call, first: outputs filled with their reset pattern again, in/out parameters read again from the
    exchange file, where the judge side wrote their initial content again."""
    kind: Literal["call"] = "call"
    test: str
    schedule: str
    observe: bool = False                # every access of device code checked (CPU backend)
    scalars: dict[str, int | float]
    reset: list[str] = []
    # Outputs whose payload stays on the device: the runner answers with their digest under these keys
    # (judge/output_digest.py) and copies back only their guard bytes (GPU).
    digest: dict[str, U64] = Field(default={}, max_length=64)


class CopyBack(Message):
    """Copy the payloads of the named buffers back to the exchange file (those a Call left on the device)."""
    kind: Literal["copy_back"] = "copy_back"
    test: str
    buffers: list[str] = Field(max_length=64)


class Release(Message):
    kind: Literal["release"] = "release"
    test: str


class TimeCase(Message):
    """Time solve() on input sets already placed by `Place` under the names `set<k>/<param>`."""
    kind: Literal["time_case"] = "time_case"
    case: str
    sets: int = Field(gt=0)
    scalars: list[dict[str, int | float]]   # each set's
    batched: bool                           # calls timed back to back in batches (judge.timing.stats.batched_case)
    # Each set's outputs whose first call is answered by their digest under these keys (as Call.digest).
    digest: list[dict[str, U64]] = Field(default=[], max_length=4096)


class Verified(Message):
    """The judge side's answer to `OutputsReady`: go on, or stop timing (the outputs were wrong)."""
    kind: Literal["verified"] = "verified"
    ok: bool


class Finish(Message):
    kind: Literal["finish"] = "finish"


RunnerCommand = Annotated[Union[RunnerJob, Place, Call, CopyBack, Release, TimeCase, Verified, Finish], Field(discriminator="kind")]


# --- runner → judge side -----------------------------------------------------------------------------

class LaunchRecord(Message):
    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    shared_bytes: int = 0
    line: int = 0
    status: int = 0
    elapsed_us: float | None = None

    def describe(self) -> str:
        def dim(d):
            return str(d[0]) if tuple(d[1:]) == (1, 1) else "(" + ", ".join(map(str, d)) + ")"
        smem = f", {self.shared_bytes}" if self.shared_bytes else ""
        return f"{self.kernel}<<<{dim(self.grid)}, {dim(self.block)}{smem}>>> (line {self.line})"


class CallError(Message):
    """An error solve() raised, phrased for the learner by the runner's backend."""
    verdict: Literal["RE", "MLE", "TLE", "OLE", "WA"]
    message: str = Field(max_length=4000)
    sticky: bool = False                 # the device is unusable afterwards
    launch: LaunchRecord | None = None


class Ready(Message):
    kind: Literal["ready"] = "ready"
    device: str = Field(max_length=200)
    schedules: list[str] = Field(min_length=1, max_length=8)
    seccomp: bool


class Placed(Message):
    kind: Literal["placed"] = "placed"
    test: str


class AccessRecord(Message):
    """How one instruction's warp-wide requests used memory in an observed call (CPU backend): sums
    over the requests of the sampled blocks (judge/runtime/cpu/src/access_hints.h)."""
    kernel: str = Field(max_length=200)
    offset: int = Field(ge=0)          # of the instruction in the observed build (the judge side finds its line)
    space: Literal["global", "shared"]
    access: Literal["load", "store", "atomic"]
    requests: int = Field(ge=0)
    lanes_active: int = Field(ge=0)
    lanes_present: int = Field(ge=0)
    sectors: int = Field(ge=0)
    fewest_sectors: int = Field(ge=0)
    ways: int = Field(ge=0)
    worst_ways: int = Field(ge=0)


class TrafficRecord(Message):
    """The bytes of global memory a kernel's largest observed launch touched."""
    kernel: str = Field(max_length=200)
    launches: int = Field(ge=0)
    bytes: int = Field(ge=0)


class Returned(Message):
    kind: Literal["returned"] = "returned"
    test: str
    error: CallError | None = None
    launches: list[LaunchRecord] = Field(default=[], max_length=64)
    printf: str = Field(default="", max_length=8192)   # the head of the call's kernel printf
    printf_bytes: int = Field(default=0, ge=0)          # how many bytes it had in all
    accesses: list[AccessRecord] = Field(default=[], max_length=400)   # of an observed call
    traffic: list[TrafficRecord] = Field(default=[], max_length=100)
    # Inputs (role "in") found bit for bit as placed, on the device: their payload was not copied back to
    # the exchange file, only their guard bytes (GPU).
    unchanged_inputs: list[str] = Field(default=[], max_length=64)
    digests: dict[str, U64] = Field(default={}, max_length=64)   # of Call.digest


class CopiedBack(Message):
    kind: Literal["copied_back"] = "copied_back"
    test: str


class Released(Message):
    kind: Literal["released"] = "released"
    test: str


class OutputsReady(Message):
    """Set `set`'s outputs lie in the exchange file; the runner waits for `Verified`. `first`: its first
    call (untimed); otherwise a timed call whose outputs differ, in some bit, from the first call's.
    Outputs of a first call with `TimeCase.digest` keys stay on the device, their `digests` given instead;
    the judge side may ask for them with `CopyBack` before it answers."""
    kind: Literal["outputs_ready"] = "outputs_ready"
    case: str
    set: int = Field(ge=0)
    first: bool
    error: CallError | None = None
    digests: dict[str, U64] = Field(default={}, max_length=64)


class Sample(Message):
    """One timed sample: `batch` calls, `seconds` per call between the device's events."""
    kind: Literal["sample"] = "sample"
    case: str
    batch: int = Field(gt=0)
    seconds: float = Field(ge=0)
    warmup: bool = False


class CaseTimed(Message):
    kind: Literal["case_timed"] = "case_timed"
    case: str
    per_kernel: list[LaunchRecord] = Field(default=[], max_length=4096)


class RunnerFailed(Message):
    """The runner's own code raised (before the submission loaded: the judge's fault)."""
    kind: Literal["runner_failed"] = "runner_failed"
    message: str = Field(max_length=4000)
    trace: str = Field(default="", max_length=8000)


RunnerEvent = Annotated[Union[Ready, Placed, Returned, CopiedBack, Released, OutputsReady, Sample, CaseTimed, RunnerFailed],
                        Field(discriminator="kind")]


# --- judge side → oracle -------------------------------------------------------------------------------

class OracleJob(Message):
    kind: Literal["oracle_job"] = "oracle_job"
    problem_files: dict[str, str]
    problem_folder_name: str
    exchange: str                  # the folder the oracle writes its data files in
    gpu: bool = False              # it times the baseline and the copy bandwidth


class MakeData(Message):
    """A test's (or a timing set's) inputs and expected outputs, from `rng_seed` and the test's name. The
    oracle writes the inputs into a data file and keeps the expected outputs until told to forget them."""
    kind: Literal["make_data"] = "make_data"
    request: int
    test: str
    size: dict[str, int | float]
    distribution: str
    rng_seed: int
    keep: bool = False             # keep the inputs too, for TimeBaseline
    digest: bool = False           # the expected outputs' digests too (judge/output_digest.py; exact policy)


class Check(Message):
    """Check the outputs at `got` of `file` against request `request`'s expected outputs, with the
    problem's tolerance (or its custom check)."""
    kind: Literal["check"] = "check"
    request: int
    file: str
    got: dict[str, Slot]


class Forget(Message):
    kind: Literal["forget"] = "forget"
    requests: list[int]


class TimeBaseline(Message):
    """Time reference.baseline() on the kept input sets `requests`, by the solution's method (`batched`)."""
    kind: Literal["time_baseline"] = "time_baseline"
    case: str
    requests: list[int]
    batched: bool


class MeasureCopy(Message):
    kind: Literal["measure_copy"] = "measure_copy"


OracleCommand = Annotated[Union[OracleJob, MakeData, Check, Forget, TimeBaseline, MeasureCopy, Finish],
                          Field(discriminator="kind")]


class OutputDigest(Message):
    """judge/output_digest.py's digest of an expected output, under `key`."""
    key: U64
    value: U64


class DataMade(Message):
    kind: Literal["data_made"] = "data_made"
    request: int
    file: str
    scalars: dict[str, int | float]
    arrays: dict[str, Slot]        # every pointer parameter: its initial content (outputs proper: count only)
    shown: dict[str, list | int | float | ArraySummary] | None = None   # the inputs (whole or summarised) and scalars
    digests: dict[str, OutputDigest] = {}   # of MakeData.digest: each output's expected digest, and its key


class Checked(Message):
    """The check's report: `first` is the first wrong element of the first wrong output; `untouched`
    how many elements of that output still hold the sentinel (never written), the first at `first_untouched`."""
    kind: Literal["checked"] = "checked"
    request: int
    mismatches: int
    total: int
    first: Mismatch | None = None
    untouched: int = 0
    first_untouched: int | None = None


class BaselineTimed(Message):
    kind: Literal["baseline_timed"] = "baseline_timed"
    case: str
    samples: int
    median_us: float
    min_us: float
    iqr_us: float
    noisy: bool
    calls_per_sample: int = Field(default=1, gt=0)
    single_call_us: float | None = None


class CopyMeasured(Message):
    kind: Literal["copy_measured"] = "copy_measured"
    gbps: float
    device: str
    device_id: str   # this GPU (its UUID), its driver and CuPy: what a kept baseline figure was timed on


class OracleReady(Message):
    kind: Literal["oracle_ready"] = "oracle_ready"


class OracleFailed(Message):
    """reference.py (or the oracle) raised: a fault of the problem or the judge, never the learner's."""
    kind: Literal["oracle_failed"] = "oracle_failed"
    message: str
    trace: str = ""


OracleEvent = Annotated[Union[OracleReady, DataMade, Checked, BaselineTimed, CopyMeasured, OracleFailed],
                        Field(discriminator="kind")]


# --- progress, to the judge's caller ----------------------------------------------------------------------

class RunnerStarted(Message):
    kind: Literal["runner_started"] = "runner_started"
    standby: bool
    pid: int | None = None


class BuildStarted(Message):
    kind: Literal["build_start"] = "build_start"
    backend: str


class BuildDone(Message):
    kind: Literal["build_done"] = "build_done"
    compile: CompileInfo


class TestsPlanned(Message):
    """The tests this judge runs, in order, and the elements each one's buffers hold: their share of the work."""
    kind: Literal["tests_planned"] = "tests_planned"
    tests: list[str]
    elements: list[int]


class TestStarted(Message):
    """A test of the plan begins (`index` in plan order); its TestDone follows."""
    kind: Literal["test_start"] = "test_start"
    index: int
    name: str


class TestDone(Message):
    kind: Literal["test"] = "test"
    result: TestResult


class ShrinkStarted(Message):
    """After failing `test`, the judge looks for the smallest input that fails too."""
    kind: Literal["shrink_start"] = "shrink_start"
    test: str


class TimingCaseStarted(Message):
    kind: Literal["timing_case"] = "timing_case"
    case: str


class TimingDone(Message):
    kind: Literal["timing"] = "timing"
    timing: Timing


class Queued(Message):
    kind: Literal["queued"] = "queued"
    id: int


class Status(Message):
    model_config = ConfigDict(extra="allow", frozen=True)
    kind: Literal["status"] = "status"
    status: str


class Restarted(Message):
    model_config = ConfigDict(extra="allow", frozen=True)
    kind: Literal["restart"] = "restart"


Progress = Annotated[Union[RunnerStarted, BuildStarted, BuildDone, TestsPlanned, TestStarted, TestDone, ShrinkStarted,
                           TimingCaseStarted, TimingDone, Queued, Status, Restarted], Field(discriminator="kind")]

RUNNER_COMMANDS: TypeAdapter = TypeAdapter(RunnerCommand)
RUNNER_EVENTS: TypeAdapter = TypeAdapter(RunnerEvent)
ORACLE_COMMANDS: TypeAdapter = TypeAdapter(OracleCommand)
ORACLE_EVENTS: TypeAdapter = TypeAdapter(OracleEvent)
PROGRESS: TypeAdapter = TypeAdapter(Progress)


class ProtocolError(Exception):
    """A line that is not a message of its channel."""


@dataclass
class ChildEnds:
    """A child's side of its channel: whether it runs on the GPU, how it sends an event, where its commands come."""
    gpu: bool
    emit: Callable[[Message], None]
    commands: BinaryIO


def child_ends() -> ChildEnds:
    """From a child's command line (`[--gpu] --events FD`, as sandbox.runner starts it) and its stdin."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, required=True)
    parser.add_argument("--gpu", action="store_true")
    args = parser.parse_args()
    events = os.fdopen(args.events, "wb", buffering=0)
    return ChildEnds(args.gpu, lambda message: events.write(encode(message)), sys.stdin.buffer)


def encode(message: Message) -> bytes:
    return message.model_dump_json().encode() + b"\n"


def decode(adapter: TypeAdapter, line: bytes | str):
    """The message on one line of a channel; ProtocolError (with a short reason) when it is none."""
    try:
        return adapter.validate_json(line)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "message"
        raise ProtocolError(f"{where}: {first.get('msg', 'invalid')}") from None
