"""The terminal's progress display: a bar over the tests weighted by their sizes, with the time left."""
import io

from rich.console import Console

from cudajudge.progress import TEST_COST_ELEMENTS, JudgeProgress
from judge import protocol
from judge import result as judged


def done(name: str, verdict: judged.Verdict = judged.Verdict.AC) -> protocol.TestDone:
    return protocol.TestDone(result=judged.TestResult(name=name, size={"N": 1}, distribution="uniform", verdict=verdict))


def test_the_bar_advances_by_each_tests_share_of_the_work():
    console = Console(file=io.StringIO(), force_terminal=True, width=120)
    with JudgeProgress(console, "judging") as progress:
        task = progress.display.tasks[0]
        assert task.total is None   # building: no bar yet
        progress.on_event(protocol.BuildStarted(backend="cpu"))
        assert task.description == "building …"
        progress.on_event(protocol.TestsPlanned(tests=["small", "large"], elements=[10, 990]))
        total = 2 * TEST_COST_ELEMENTS + 1000   # a test's fixed cost, and its elements
        assert (task.total, task.completed, task.description) == (total, 0, "0 of 2 tests")
        progress.on_event(done("small"))
        assert task.completed == TEST_COST_ELEMENTS + 10 and task.description == "1 of 2 tests · small: AC"
        progress.on_event(done("large", judged.Verdict.WA))
        assert task.completed == total and task.finished and task.description == "2 of 2 tests · large: WA"
