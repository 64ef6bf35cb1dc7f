"""What a judge is doing, live in the terminal: a spinner while it builds, then a bar over its tests
weighted by their sizes, with the time spent and an estimate of the time left."""
from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from judge.protocol import BuildStarted, Progress as Event, Queued, Status, TestDone, TestsPlanned, TimingCaseStarted


# A test's fixed cost (its call, checks and messages), counted as the time of this many elements: measured on
# the CPU backend, problem 83's small tests took about 0.06 s each, its tests of 10^6 elements about 0.6 s.
TEST_COST_ELEMENTS = 100_000


class JudgeProgress:
    """Give `on_event` to the judge inside `with JudgeProgress(console, "judging x …"):`."""

    def __init__(self, console: Console, description: str):
        self.display = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                                TextColumn("left"), TimeRemainingColumn(), console=console, transient=True,
                                disable=not console.is_terminal)   # piped output (a log) gets the result only
        self.task: TaskID = self.display.add_task(description, total=None)
        self.elements: dict[str, int] = {}
        self.done = 0

    def __enter__(self) -> JudgeProgress:
        self.display.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.display.__exit__(*exc)

    def on_event(self, event: Event) -> None:
        if isinstance(event, TestsPlanned):
            self.elements = {name: TEST_COST_ELEMENTS + n for name, n in zip(event.tests, event.elements)}
            self.display.update(self.task, total=sum(self.elements.values()), completed=0,
                                description=f"0 of {len(self.elements)} tests")
        elif isinstance(event, TestDone):
            self.done += 1
            result = event.result
            of = f" of {len(self.elements)}" if self.elements else ""
            self.display.update(self.task, advance=self.elements.get(result.name, 0),
                                description=f"{self.done}{of} tests · {result.name}: {result.verdict.value}")
        elif isinstance(event, BuildStarted):
            self.display.update(self.task, description="building …")
        elif isinstance(event, TimingCaseStarted):
            self.display.update(self.task, description=f"timing {event.case}")
        elif isinstance(event, Status):
            self.display.update(self.task, description=f"{event.status} …")
        elif isinstance(event, Queued):
            self.display.update(self.task, description=f"submission {event.id} queued …")
