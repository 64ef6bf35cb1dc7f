"""The tolerance policies: one object each, and POLICIES, the registry of them by the name problem.toml gives.

A policy says how a test's outputs are checked against the reference, and what that asks of the rest
of the judge: whether the oracle keeps a test's inputs for the check, whether reference() may give a
wider float than declared, whether the problem's baseline is checked. The problem model accepts the
registry's names and nothing else; the call sites ask `problem.tolerance.rule` (the policy's object),
never its name. A new policy is a class here and its entry in POLICIES (and, if it has a parameter of
its own, that field in model.Tolerance).

The problem model imports this module and the judge's parent process reads the model without NumPy,
so nothing here imports NumPy at load: the checks import judge.problems.tolerances when they run. They
take NumPy arrays or, for outputs checked where they are (on the GPU), CuPy arrays.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, ClassVar

if TYPE_CHECKING:
    from judge.problems.model import Problem, Tolerance
    from judge.problems.tolerances import CheckReport


class Policy:
    """The default behaviour: each output checked on its own by `compare`, first failing output reported."""
    name: ClassVar[str]
    keeps_inputs: ClassVar[bool] = False       # the check needs the test's inputs: the oracle keeps them
    wider_float: ClassVar[bool] = False        # reference() may give a wider float (the more accurate value)
    needs_check: ClassVar[bool] = False        # reference.py must define check(got, expected, **args)

    def check_output(self, tolerance: Tolerance, name: str, got, expected) -> CheckReport:
        """One output against the reference's value for it (a SumBound counts as its value)."""
        from judge.problems.tolerances import expected_array

        return self.compare(tolerance, name, got, expected_array(name, got, expected))

    def compare(self, tolerance: Tolerance, name: str, got, expected) -> CheckReport:
        """`expected`: an array of got's library and shape."""
        raise NotImplementedError

    def check_outputs(self, problem: Problem, got: dict, expected: dict, custom_check: Callable) -> CheckReport | None:
        """A test's outputs: the first failing output's report, or None if all match. `custom_check(got)`
        runs the problem's own check (used by the custom policy)."""
        return self._first_failure(problem, got.__getitem__, expected)

    def check_baseline(self, problem: Problem, got: dict, expected: dict) -> CheckReport | None:
        """The baseline's first answer (device arrays, each copied to the host when it is checked)
        against the reference: the first failing output's report, or None."""
        return self._first_failure(problem, lambda name: got[name].get(), expected)

    def _first_failure(self, problem: Problem, output: Callable, expected: dict) -> CheckReport | None:
        for p in problem.params:
            if p.is_output:
                report = self.check_output(problem.tolerance, p.name, output(p.name), expected[p.name])
                if not report.ok:
                    return report
        return None


class ExactPolicy(Policy):
    """Equal by value (−0.0 equals 0.0); a NaN the reference expects is matched by a NaN."""
    name = "exact"

    def compare(self, tolerance, name, got, expected):
        from judge.problems.tolerances import check_exact

        return check_exact(name, got, expected)


class UlpPolicy(Policy):
    """At most `tolerance.ulp` units in the last place apart (integers: exact)."""
    name = "ulp"

    def compare(self, tolerance, name, got, expected):
        from judge.problems.tolerances import check_ulp

        return check_ulp(name, got, expected, tolerance.ulp)


class SumBoundPolicy(Policy):
    """|y − r| ≤ c·√n·u·Σ|terms| + u_out·|r|: reference() returns a SumBound (judge.problems.api) for each output."""
    name = "sum_bound"
    wider_float = True

    def check_output(self, tolerance, name, got, expected):
        from judge.problems.tolerances import SumBound, check_sum_bound

        if not isinstance(expected, SumBound):
            raise TypeError(f"the {self.name} policy needs reference() to return a SumBound for {name!r}")
        return check_sum_bound(name, got, expected, tolerance.c, tolerance.output_rel)


class MultisetPolicy(Policy):
    """The same values with the same multiplicities, in any order."""
    name = "multiset"

    def compare(self, tolerance, name, got, expected):
        from judge.problems.tolerances import check_multiset

        return check_multiset(name, got, expected)


class CustomPolicy(Policy):
    """reference.check(got, expected, **args) decides, from the test's inputs too. The baseline's answer
    is not checked."""
    name = "custom"
    keeps_inputs = True
    wider_float = True
    needs_check = True

    def compare(self, tolerance, name, got, expected):
        raise ValueError(f"policy {self.name!r} is checked by reference.check(), not here")

    def check_outputs(self, problem, got, expected, custom_check):
        report = custom_check(got)
        return None if report is None or report.ok else report

    def check_baseline(self, problem, got, expected):
        return None


POLICIES: dict[str, Policy] = {policy.name: policy for policy in (
    ExactPolicy(), UlpPolicy(), SumBoundPolicy(), MultisetPolicy(), CustomPolicy())}
