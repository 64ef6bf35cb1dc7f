"""The words for what a check found, written on the judge side from the oracle's report."""
from __future__ import annotations

from judge.protocol import Checked


def mismatch_message(checked: Checked) -> str:
    m = checked.first
    text = f"`{m.output}`[{m.index}]: expected {m.expected}, got {m.got} ({m.count} of {m.total} elements wrong)"
    if checked.untouched:
        text += (f"; {checked.untouched} element(s) were never written (still hold the sentinel), the first at "
                 f"index {checked.first_untouched}")
    return text


def race_message(schedule: str, checked: Checked, reports: dict[str, Checked]) -> str:
    m = checked.first
    right = [s for s, r in reports.items() if r.first is None]
    contrast = (f"in {', '.join(right)} order the answer is right" if right
                else "every order is wrong, each differently")
    return (f"data race: the result depends on the order the threads of a block run in. Run in {schedule} order, "
            f"`{m.output}`[{m.index}] is {m.got} instead of {m.expected}; {contrast}. Look for a missing "
            f"__syncthreads() between writing shared memory and reading it, or an unprotected read-modify-write.")
