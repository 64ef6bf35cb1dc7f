"""The verdict from the tests' results, as pure functions: no process, no build."""
from judge.checking.links import RunnerBroke
from judge.checking.verdict import GPU_ONLY_NOT_RUN, case_result, stop_verdict, summary, with_left_out
from judge.problems import plan
from judge.result import Verdict
from sandbox.runner import ChildOutcome


def _case(name: str, gpu_only: bool = False) -> plan.TestCase:
    return plan.TestCase(name, name.split("/")[0], {"n": 8}, "uniform", gpu_only, False)


def _result(name: str, verdict: Verdict, message: str = ""):
    return case_result(_case(name), verdict, message)


def test_the_first_failure_decides_the_verdict_and_names_its_test():
    tests = [_result("sample/a", Verdict.AC), _result("edge/b", Verdict.WA, "out[3] expected 1, got 2"),
             _result("edge/c", Verdict.RE, "crash")]
    assert summary(tests, 0, "gpu") == (Verdict.WA, "WA on test edge/b: out[3] expected 1, got 2")


def test_an_ac_says_on_how_many_tests_it_stands_when_the_backend_left_some_out():
    tests = [_result("sample/a", Verdict.AC), _result("large/b", Verdict.NR, GPU_ONLY_NOT_RUN),
             _result("large/c", Verdict.NR, GPU_ONLY_NOT_RUN)]
    assert summary(tests, 2, "cpu") == (Verdict.AC, "1 of 3 tests passed (2 GPU-only tests not run on the CPU backend)")
    assert summary(tests[:1], 0, "gpu") == (Verdict.AC, "all 1 tests passed")


def test_a_test_that_did_not_run_for_no_failure_is_the_judge_s_fault():
    tests = [_result("sample/a", Verdict.AC), _result("edge/b", Verdict.NR, "not run")]
    assert summary(tests, 0, "gpu") == (Verdict.IE, "the judge ended before every test ran")


def test_left_out_tests_are_listed_in_plan_order_and_a_benchmark_result_is_kept_after_them():
    planned = [_case("sample/a"), _case("large/b", gpu_only=True), _case("edge/c")]
    ran = [_result("edge/c", Verdict.AC), _result("sample/a", Verdict.AC), _result("benchmark", Verdict.WA, "cached")]
    tests, left_out = with_left_out(planned, ran)
    assert [(t.name, t.verdict) for t in tests] == [("sample/a", Verdict.AC), ("large/b", Verdict.NR),
                                                     ("edge/c", Verdict.AC), ("benchmark", Verdict.WA)]
    assert left_out == 1 and tests[1].message == GPU_ONLY_NOT_RUN
    assert summary(tests, left_out, "cpu")[0] == Verdict.WA


def test_a_stopped_runner_s_verdict_says_why_it_stopped():
    plain = ChildOutcome(returncode=1)
    assert stop_verdict(RunnerBroke("deadline"), plain, 2.0, 60.0)[0] == Verdict.TLE
    assert "budget of 60 s" in stop_verdict(RunnerBroke("budget"), plain, 2.0, 60.0)[1]
    assert stop_verdict(RunnerBroke("output"), plain, 2.0, 60.0)[0] == Verdict.OLE
    assert stop_verdict(RunnerBroke("protocol", "a line that is no event"), plain, 2.0, 60.0) == (
        Verdict.RE, "the process running solve() broke the judge's protocol: a line that is no event")
    verdict, message = stop_verdict(RunnerBroke("exited"), ChildOutcome(signal_name="SIGSYS", output="bye"), 2.0, 60.0)
    assert verdict == Verdict.RE and "forbidden system call" in message and message.endswith("Output tail: bye")
