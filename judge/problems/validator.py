"""Check a problem folder: statically, and (given a judge function) by running its solutions."""
from __future__ import annotations

import ast
import re
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Callable

import numpy as np

from judge.problems import api
from judge.problems.expressions import evaluate
from judge.problems.loader import PROBLEM_FILE, ProblemError, load_reference, parse_problem
from judge.problems.model import Problem
from judge.problems.policies import Policy
from judge.problems.plan import test_cases
from judge.problems.test_data import case_rng, expected_outputs, make_test_data
from judge.problems.tolerances import SumBound
from judge.result import Verdict

STATEMENTS = ("statement.en.md", "statement.zh.md")
EXPECT_LINE = re.compile(r"^//\s*expect:\s*([A-Z]+)(\s+race)?\s*$")
RACE_WORDS = "data race"   # what the CPU backend's observer says of a race
MIN_ACCEPTED, MIN_REJECTED = 1, 2
VALIDATION_SEED = 20261129
SIGNATURE_IN_STATEMENT = re.compile(r'extern\s+"C"\s+void\s+solve\s*\([^)]*\)')
CJK = re.compile(r"[\u4e00-\u9fff]")
MIN_CJK_CHARACTERS = 20
TODO_MARK = re.compile(r"cudajudge-todo:\s*(.*?)\s*(?:-->)?\s*$")
TEXT_SUFFIXES = (".toml", ".py", ".md", ".cu", ".cuh", ".h")
COPY_RATIO = 0.8   # of the statements' prose alike: one is a copy of the other, not its translation
REFERENCE_API = api.__name__   # the one judge module reference.py imports


@dataclass(frozen=True)
class Finding:
    file: str
    key: str | None
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.key}: {self.message}" if self.key else f"{self.file}: {self.message}"


@dataclass(frozen=True)
class SolutionRun:
    path: Path
    expected: Verdict
    got: Verdict
    message: str
    race_expected: bool = False   # declared `// expect: WA race` and judged where races are observed
    seed: int = 0                 # the seed of this judge (the first one at which it differed, if any)

    @property
    def ok(self) -> bool:
        return self.expected == self.got and (not self.race_expected or RACE_WORDS in self.message)

    def mismatch(self) -> str:
        """What went differently from the declared verdict."""
        race = " (a data race)" if self.race_expected else ""
        return f"expected {self.expected.value}{race}, got {self.got.value} at seed {self.seed}: {self.message}"


@dataclass
class ValidationReport:
    folder: Path
    problem: Problem | None = None
    findings: list[Finding] = field(default_factory=list)
    runs: list[SolutionRun] = field(default_factory=list)
    todos: list[Finding] = field(default_factory=list)   # `cudajudge-todo:` marks left by `cudajudge new`

    @property
    def ok(self) -> bool:
        return not self.findings and not self.todos and all(r.ok for r in self.runs)


# A judge function: (problem, solution path, seed) -> (verdict, one-line message).
JudgeFn = Callable[[Problem, Path, int], tuple[Verdict, str]]


def expected_verdict(path: Path) -> Verdict | str:
    """The verdict a rejected solution declares on its first line, or a message saying what is wrong."""
    first = path.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0].strip()
    m = EXPECT_LINE.match(first)
    if not m:
        return f"first line must be '// expect: VERDICT' (or '// expect: WA race'), found {first[:60]!r}"
    if m.group(1) not in Verdict.__members__ or m.group(1) in ("AC", "IE"):
        allowed = ", ".join(v.value for v in Verdict if v not in (Verdict.AC, Verdict.IE))
        return f"verdict {m.group(1)!r} is not one a rejected solution can expect ({allowed})"
    if m.group(2) and m.group(1) != "WA":
        return f"only WA can be declared a race, found {first[:60]!r}"
    return Verdict(m.group(1))


def declares_race(path: Path) -> bool:
    """`// expect: WA race`: a data race, which the CPU backend must report as one at every seed."""
    m = EXPECT_LINE.match(path.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0].strip())
    return bool(m and m.group(2))


def solutions(problem: Problem) -> list[tuple[Path, Verdict]]:
    accepted = sorted((problem.folder / "solutions" / "accepted").glob("*.cu"))
    rejected = sorted((problem.folder / "solutions" / "rejected").glob("*.cu"))
    return [(p, Verdict.AC) for p in accepted] + [
        (p, v) for p in rejected if isinstance(v := expected_verdict(p), Verdict)]


def _check_files(problem: Problem, folder: Path) -> list[Finding]:
    findings = []
    for name in (*STATEMENTS, "starter.cu"):
        path = folder / name
        if not path.is_file() or not path.read_text(encoding="utf-8", errors="replace").strip():
            findings.append(Finding(str(path), None, "file is missing or empty"))
    for kind, least in (("accepted", MIN_ACCEPTED), ("rejected", MIN_REJECTED)):
        found = sorted((folder / "solutions" / kind).glob("*.cu"))
        if len(found) < least:
            findings.append(Finding(str(folder / "solutions" / kind), None,
                                    f"needs at least {least} .cu solution(s), found {len(found)}"))
        if kind == "rejected":
            findings += [Finding(str(p), "line 1", v) for p in found if not isinstance(v := expected_verdict(p), Verdict)]
    return findings


def _todos(folder: Path) -> list[Finding]:
    """Every `cudajudge-todo:` mark in the folder's files: what `cudajudge new` left to write."""
    found = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in TEXT_SUFFIXES):
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if mark := TODO_MARK.search(line):
                found.append(Finding(str(path), f"line {number}", mark.group(1)))
    return found


def _dtype_fits(given: np.dtype, declared: np.dtype, policy: Policy) -> bool:
    """A reference output's dtype is the declared one; under a tolerance that bounds a float result's
    error (Policy.wider_float: sum_bound, custom) a wider float is allowed: it is the more accurate value."""
    if given == declared:
        return True
    return policy.wider_float and given.kind == declared.kind == "f" and given.itemsize > declared.itemsize


def _reference_failure(ref_file: str, failures: list[tuple[str, BaseException]], tests: int) -> Finding:
    """One finding for the tests on which the reference raised: the first exception, its traceback
    (the frames in reference.py), and on how many tests it happened."""
    first_test, exc = failures[0]
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith("reference.py")]
    where = f"line {frames[-1].lineno}" if frames else None
    trace = "".join(traceback.format_list(frames)).rstrip()
    others = len(failures) - 1
    again = f"; raised on {others} more of the {tests} tests too" if others else ""
    return Finding(ref_file, where, f"{type(exc).__name__}: {exc} (on test {first_test}{again})"
                   + (f"\n{trace}" if trace else ""))


def _statement_prose(text: str) -> str:
    """A statement without its code blocks, math and inline code: what a translation changes."""
    text = re.sub(r"```.*?```|\$\$.*?\$\$|\$[^$]*\$|`[^`]*`", " ", text, flags=re.S)
    return " ".join(text.split())


def _check_statements(problem: Problem, folder: Path) -> list[Finding]:
    """Each statement shows problem.toml's signature, and the Chinese one is a translation, not a copy."""
    findings, prose = [], {}
    declared = " ".join(problem.signature.split())
    for name in STATEMENTS:
        path = folder / name
        if not path.is_file():
            continue   # _check_files reports it
        text = path.read_text(encoding="utf-8", errors="replace")
        prose[name] = _statement_prose(text)
        shown = [" ".join(m.split()) for m in SIGNATURE_IN_STATEMENT.findall(text)]
        if not shown:
            findings.append(Finding(str(path), None, f"shows no solve() signature; problem.toml declares\n  {declared};"))
        findings += [Finding(str(path), None, f"shows\n  {s};\nbut problem.toml declares\n  {declared};")
                     for s in shown if s != declared]
    english, chinese = (prose.get(name) for name in STATEMENTS)
    if chinese is not None and len(CJK.findall(chinese)) < MIN_CJK_CHARACTERS:
        findings.append(Finding(str(folder / STATEMENTS[1]), None,
                                f"has {len(CJK.findall(chinese))} Chinese characters: it should be the statement in Chinese"))
    elif english and chinese and SequenceMatcher(None, english, chinese, autojunk=False).ratio() > COPY_RATIO:
        findings.append(Finding(str(folder / STATEMENTS[1]), None, f"is a copy of {STATEMENTS[0]}"))
    return findings


def _judge_imports(node: ast.AST) -> list[str]:
    """The modules of the judge other than REFERENCE_API that an import statement names; a relative
    import is one too (reference.py is loaded on its own, in no package of the judge)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "judge" and a.name != REFERENCE_API]
    if not isinstance(node, ast.ImportFrom):
        return []
    module = node.module or ""
    if node.level:
        return [f"{'.' * node.level}{module} (a relative import)"]
    if module == REFERENCE_API or module.split(".")[0] != "judge":
        return []
    if REFERENCE_API.startswith(module + "."):   # `from judge.problems import api`: modules of a package
        return [f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" != REFERENCE_API]
    return [module]


def _check_reference_imports(problem: Problem) -> list[Finding]:
    """reference.py imports nothing of the judge but REFERENCE_API (NumPy, CuPy and the standard
    library as it likes)."""
    path = problem.folder / "reference.py"
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"), str(path))
    except (OSError, SyntaxError, ValueError):
        return []   # missing or not Python: loading it reports that
    imports = sorted((n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))), key=lambda n: n.lineno)
    allowed = f"reference.py may import from the judge only {REFERENCE_API} ({', '.join(api.__all__)})"
    return [Finding(str(path), f"line {node.lineno}", f"imports {name}: {allowed}")
            for node in imports for name in _judge_imports(node)]


def _check_reference(problem: Problem) -> list[Finding]:
    """The reference must run on every CPU-size test and give outputs of the declared shape and dtype."""
    ref_file = str(problem.folder / "reference.py")
    try:
        reference = load_reference(problem)
    except ProblemError as exc:
        return [Finding(exc.file, exc.key, exc.message)]
    findings, failures = [], []
    cases = test_cases(problem, include_gpu_only=False)
    wrong_types: set[str] = set()
    for case in cases:
        try:
            data = make_test_data(problem, reference, case.size, case.distribution, case_rng(VALIDATION_SEED, case.name))
            out = expected_outputs(problem, reference, data)
        except Exception as exc:  # the reference is the instructor's code: report, don't crash
            failures.append((case.name, exc))
            continue
        for p in problem.params:
            if not p.is_output:
                continue
            value = out[p.name].value if isinstance(out[p.name], SumBound) else out[p.name]
            n = data.arrays[p.name].size
            if np.shape(value) != (n,):
                findings.append(Finding(ref_file, f"test {case.name}",
                                        f"reference() gave {np.shape(value)} for {p.name!r}, expected ({n},)"))
            dtype = np.asarray(value).dtype
            if not _dtype_fits(dtype, p.np_dtype, problem.tolerance.rule) and p.name not in wrong_types:
                wrong_types.add(p.name)
                findings.append(Finding(ref_file, f"test {case.name}",
                                        f"reference() gave {dtype} for {p.name!r}; problem.toml declares {p.dtype} "
                                        f"with tolerance {problem.tolerance.policy!r}: return {p.dtype} (the learner's "
                                        f"{p.c_type} cannot hold another type's values)"))
    if failures:
        findings.insert(0, _reference_failure(ref_file, failures, len(cases)))
    if problem.tolerance.rule.needs_check and not callable(getattr(reference, "check", None)):
        findings.append(Finding(ref_file, "check", f"tolerance policy {problem.tolerance.policy!r} needs a function "
                                                   "check(got, expected, **args)"))
    return findings


def _check_benchmark(problem: Problem) -> list[Finding]:
    toml = str(problem.folder / PROBLEM_FILE)
    findings = []
    for size in problem.benchmark.sizes:
        try:
            scalars = problem.scalars_for(size, np.random.default_rng(0))
            for key in ("bytes", "flops"):
                evaluate(getattr(problem.benchmark, key), scalars)
        except Exception as exc:
            findings.append(Finding(toml, f"benchmark size {size}", str(exc)))
    return findings


def validate_folder(folder: Path, judge: JudgeFn | None = None, jobs: int = 1, races_observed: bool = False,
                    seeds: int = 1) -> ValidationReport:
    """races_observed: the judge observes data races (the CPU backend), so a solution declared
    `// expect: WA race` must be rejected with a race message. `seeds`: how many seeds each rejected
    solution is judged at (VALIDATION_SEED, then the next ones); it must get its verdict at each."""
    report = ValidationReport(folder)
    try:
        problem = parse_problem(folder)
    except ProblemError as exc:
        report.findings.append(Finding(exc.file, exc.key, exc.message))
        return report
    report.problem = problem
    report.todos = _todos(folder)
    report.findings += (_check_files(problem, folder) + _check_statements(problem, folder) + _check_benchmark(problem)
                        + _check_reference_imports(problem) + _check_reference(problem))
    if judge is not None and not report.findings:
        report.runs, starter = judge_solutions(problem, folder, judge, jobs, races_observed, seeds)
        report.findings += starter
    return report


def judge_solutions(problem: Problem, folder: Path, judge: JudgeFn, jobs: int = 1, races_observed: bool = False,
                    seeds: int = 1) -> tuple[list[SolutionRun], list[Finding]]:
    """Each solution's run (accepted ones at VALIDATION_SEED, rejected ones at `seeds` seeds until one
    differs) and the findings about the starter, which must build and run and not be accepted."""
    def run(entry: tuple[Path, Verdict]) -> SolutionRun:
        path, expected = entry
        for seed in range(VALIDATION_SEED, VALIDATION_SEED + (1 if expected == Verdict.AC else seeds)):
            got, message = judge(problem, path, seed)
            outcome = SolutionRun(path, expected, got, message, races_observed and declares_race(path), seed)
            if not outcome.ok:
                break
        return outcome
    with ThreadPoolExecutor(max_workers=jobs) as pool:   # each judge call is its own child process
        starter = pool.submit(judge, problem, folder / "starter.cu", VALIDATION_SEED)
        runs = list(pool.map(run, solutions(problem)))
        return runs, _check_starter(folder / "starter.cu", *starter.result())


def _check_starter(path: Path, verdict: Verdict, message: str) -> list[Finding]:
    """The starter builds and runs, and leaves the learner something to do."""
    if verdict == Verdict.AC:
        return [Finding(str(path), None, "is accepted as it is: a starter leaves the learner the problem to solve")]
    if verdict in (Verdict.CE, Verdict.IE):
        return [Finding(str(path), None, f"does not build and run: {verdict.value} {message}")]
    return []
