import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from judge.problems.loader import ProblemError, find_problem_folder, load_problem, problem_folders
from judge.problems.validator import validate_folder

ROOT = Path(__file__).resolve().parents[3]
FIRST_SIX = {1, 2, 3, 4, 5, 83}


def cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "cudajudge", *args], cwd=ROOT, capture_output=True, text=True, **kw)


def test_names_resolve_to_problem_83():
    for name in ("83", "problem83", "multi-block-scan", "083-multi-block-scan"):
        p = load_problem(name)
        assert p.id == 83 and p.slug == "multi-block-scan"
    assert load_problem("83").signature == 'extern "C" void solve(const int* input, int* output, int n)'


def test_unknown_problem_lists_known_ones():
    with pytest.raises(ProblemError, match="no problem named 'nope'.*083-multi-block-scan"):
        find_problem_folder("nope")


def test_problems_json_lists_the_first_six():
    out = cli("problems", "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert FIRST_SIX <= {r["id"] for r in rows}
    row = next(r for r in rows if r["id"] == 83)
    assert row["slug"] == "multi-block-scan" and row["title"]["zh"] and row["title"]["en"] and row["tags"]


@pytest.mark.parametrize("folder", [f for f in problem_folders()], ids=lambda f: f.name)
def test_catalog_problem_is_valid(folder):
    report = validate_folder(folder)
    assert report.ok, "\n".join(map(str, report.findings))


def _broken_copy(tmp_path, edit):
    folder = tmp_path / "083-multi-block-scan"
    shutil.copytree(find_problem_folder("83"), folder)
    toml = folder / "problem.toml"
    toml.write_text(edit(toml.read_text()))
    return folder


@pytest.mark.parametrize("edit,key,phrase", [
    (lambda t: t.replace('dtype = "int32"\nshape = "n"\nvalues', 'dtype = "int33"\nshape = "n"\nvalues', 1),
     "params[0].dtype", "int32"),
    (lambda t: t.replace('shape = "n"', 'shape = "n * width"', 1), "(top level)", "unknown scalars ['width']"),
    (lambda t: t.replace('policy = "exact"', 'policy = "close-enough"'), "tolerance.policy", "exact"),
    (lambda t: t.replace("id = 83", "id = 84"), "id", "folder name says 83"),
    (lambda t: t.replace('[benchmark]', '[benchmark]\nwarmup = 3'), "benchmark.warmup", "Extra inputs"),
    (lambda t: t.replace('sizes = [{ n = 8 }', 'sizes = [{ m = 8 }'), "(top level)", "not scalar parameters"),
])
def test_broken_folder_names_file_and_key(tmp_path, edit, key, phrase):
    folder = _broken_copy(tmp_path, edit)
    report = validate_folder(folder)
    assert not report.ok
    finding = report.findings[0]
    assert finding.file.endswith("problem.toml") and finding.key == key and phrase in finding.message, str(finding)
    out = cli("validate", str(folder))
    assert out.returncode == 1 and "problem.toml" in out.stdout and key in out.stdout


def test_invalid_toml_syntax_is_reported(tmp_path):
    folder = _broken_copy(tmp_path, lambda t: t.replace("[tolerance]", "[tolerance"))
    report = validate_folder(folder)
    assert "invalid TOML" in report.findings[0].message and report.findings[0].file.endswith("problem.toml")


def test_static_checks_find_missing_files_and_bad_expect_lines(tmp_path):
    folder = _broken_copy(tmp_path, lambda t: t)
    (folder / "statement.zh.md").unlink()
    rejected = sorted((folder / "solutions" / "rejected").glob("*.cu"))[0]
    rejected.write_text("// expects WA\n" + rejected.read_text().split("\n", 1)[1])
    messages = [str(f) for f in validate_folder(folder).findings]
    assert any("statement.zh.md: file is missing" in m for m in messages)
    assert any(rejected.name in m and "line 1" in m and "// expect: VERDICT" in m for m in messages)


@pytest.mark.parametrize("failing_line,tests,phrase", [
    ("    if n == 33: raise RuntimeError('boom')\n", "n=33", "boom"),
    ("    input[0] = 0   # in place: the test's own data would change\n", "test ", "read-only"),
])
def test_reference_failure_names_the_test(tmp_path, failing_line, tests, phrase):
    folder = _broken_copy(tmp_path, lambda t: t)
    (folder / "reference.py").write_text(
        "import numpy as np\n"
        "def reference(input, n):\n"
        + failing_line +
        "    return {'output': np.zeros(n, np.int32)}\n")
    findings = validate_folder(folder).findings
    assert len(findings) == 1 and findings[0].key == "line 3", findings
    assert tests in findings[0].message and phrase in findings[0].message, findings


def test_a_reference_raising_on_every_test_is_one_finding_with_its_traceback(tmp_path):
    folder = _broken_copy(tmp_path, lambda t: t)
    (folder / "reference.py").write_text(
        "import numpy as np\n"
        "def helper(n):\n"
        "    return np.zeros(n, np.int32)[n]\n"
        "def reference(input, n):\n"
        "    return {'output': helper(n)}\n")
    findings = validate_folder(folder).findings
    assert len(findings) == 1, findings
    message = findings[0].message
    assert findings[0].key == "line 3" and message.startswith("IndexError:"), message
    assert "more of the" in message and "in helper" in message and "in reference" in message, message


def test_a_reference_of_another_dtype_than_declared_is_found(tmp_path):
    folder = _broken_copy(tmp_path, lambda t: t)
    (folder / "reference.py").write_text(
        "import numpy as np\n"
        "def reference(input, n):\n"
        "    return {'output': np.cumsum(input[:n], dtype=np.float64)}\n")
    findings = validate_folder(folder).findings
    assert len(findings) == 1 and "gave float64 for 'output'" in findings[0].message, findings


def test_a_reference_importing_the_judge_through_its_api_module_is_valid(tmp_path):
    folder = _broken_copy(tmp_path, lambda t: t)
    reference = folder / "reference.py"
    reference.write_text("import judge.problems.api\n"
                         "from judge.problems import api\n"
                         "from judge.problems.api import CheckReport, Mismatch, SumBound, generate\n"
                         + reference.read_text())
    report = validate_folder(folder)
    assert report.ok, "\n".join(map(str, report.findings))


def test_a_reference_importing_another_judge_module_is_found_at_its_line(tmp_path):
    folder = _broken_copy(tmp_path, lambda t: t)
    reference = folder / "reference.py"
    reference.write_text("from judge.problems.api import generate\n"
                         "from judge.problems.tolerances import CheckReport\n"
                         "import numpy, judge.result\n"
                         + reference.read_text())
    findings = validate_folder(folder).findings
    assert [(f.key, f.message.split(":")[0]) for f in findings] == [
        ("line 2", "imports judge.problems.tolerances"), ("line 3", "imports judge.result")], findings
    assert all(f.file.endswith("reference.py") and "only judge.problems.api" in f.message for f in findings), findings


def test_a_statement_whose_signature_differs_from_problem_toml_is_found(tmp_path):
    folder = _broken_copy(tmp_path, lambda t: t)
    statement = folder / "statement.en.md"
    declared = load_problem(83).signature
    statement.write_text(statement.read_text().replace(declared, declared.replace("int n", "long n")))
    findings = [str(f) for f in validate_folder(folder).findings]
    assert len(findings) == 1 and "statement.en.md" in findings[0] and "long n" in findings[0], findings


@pytest.mark.parametrize("make_zh, phrase", [
    (lambda en: en, "it should be the statement in Chinese"),
    (lambda en: en + "\n" + "这是题目的中文说明，请仔细阅读每一个要求和限制条件。" * 2, "is a copy of statement.en.md"),
])
def test_a_chinese_statement_that_copies_the_english_one_is_found(tmp_path, make_zh, phrase):
    folder = _broken_copy(tmp_path, lambda t: t)
    (folder / "statement.zh.md").write_text(make_zh((folder / "statement.en.md").read_text()))
    findings = [str(f) for f in validate_folder(folder).findings]
    assert len(findings) == 1 and "statement.zh.md" in findings[0] and phrase in findings[0], findings


def test_a_starter_that_is_already_accepted_is_found(tmp_path):
    from judge.submission import judge_source

    folder = tmp_path / "001-relu"
    shutil.copytree(find_problem_folder("1"), folder)
    shutil.copy(folder / "solutions" / "accepted" / "naive.cu", folder / "starter.cu")

    def judge_on_samples(problem, path, seed):
        result = judge_source(problem, path.read_text(), backend="cpu", timing=False, patterns=["sample"], seed=seed)
        return result.verdict, result.message

    report = validate_folder(folder, judge_on_samples)
    findings = [str(f) for f in report.findings]
    assert len(findings) == 1 and "starter.cu" in findings[0] and "accepted as it is" in findings[0], findings


def test_new_writes_a_problem_that_validates_as_incomplete_with_its_to_do_list(tmp_path):
    made = cli("new", "row-softmax", "--into", str(tmp_path), "--id", "41", timeout=120)
    assert made.returncode == 0, made.stdout + made.stderr
    folder = tmp_path / "041-row-softmax"
    assert load_problem(folder).id == 41 and (folder / "solutions" / "rejected").is_dir()
    report = validate_folder(folder)
    to_do = {Path(t.file).name for t in report.todos}
    assert not report.ok and to_do == {"problem.toml", "reference.py", "starter.cu", "statement.en.md",
                                       "statement.zh.md"}, report.todos
    assert [f.message for f in report.findings] == ["needs at least 1 .cu solution(s), found 0",
                                                    "needs at least 2 .cu solution(s), found 0"]
    out = cli("validate", str(folder), "--backend", "none", timeout=120)
    assert out.returncode == 1 and f"incomplete: {len(report.todos)} to do" in out.stdout, out.stdout


def test_validate_on_every_backend_judges_the_solutions_on_each_one_this_machine_has():
    from judge.backends.choice import gpu_available

    out = cli("validate", "1", "--backend", "every", "--seeds", "1", "--jobs", "2", timeout=900)
    assert out.returncode == 0, out.stdout + out.stderr
    if gpu_available():
        assert "001-relu (cpu backend)" in out.stdout and "001-relu (gpu backend)" in out.stdout, out.stdout
    else:
        assert "no GPU: the solutions are judged on the CPU backend only" in out.stdout, out.stdout
        assert re.search(r"001-relu, \d+ solutions judged as declared", out.stdout), out.stdout


@pytest.mark.parametrize("args, phrase", [(["Row Softmax"], "is not a slug"), (["relu", "--id", "1"], "is taken by")])
def test_new_refuses_a_bad_or_taken_name_as_a_usage_error(args, phrase, tmp_path):
    root = tmp_path / "catalog"
    shutil.copytree(find_problem_folder("1"), root / "001-relu")
    out = cli("new", *args, "--into", str(root), timeout=120)
    assert out.returncode == 2 and phrase in out.stderr, out.stdout + out.stderr


def test_a_rejected_solution_that_fails_only_at_some_seeds_is_found(tmp_path):
    """Wrong only when the first sample's input[0] lies on one side of a threshold: WA at the first
    validation seed, AC at another; validate judges it at three seeds and says at which one it passed."""
    from judge.problems.loader import load_reference
    from judge.problems.test_data import case_rng, make_test_data
    from judge.problems.validator import VALIDATION_SEED
    from judge.result import Verdict
    from judge.submission import judge_source

    folder = tmp_path / "001-relu"
    shutil.copytree(find_problem_folder("1"), folder)
    for extra in ["solutions/accepted/grid_stride.cu", "solutions/accepted/vectorized.cu",
                  "solutions/rejected/fixed_grid_no_loop.cu", "solutions/rejected/float4_no_tail.cu"]:
        (folder / extra).unlink()
    problem = load_problem(folder)
    first = [float(make_test_data(problem, load_reference(problem), {"N": 8}, "uniform",
                                  case_rng(seed, "sample/N=8/uniform")).arrays["input"][0])
             for seed in range(VALIDATION_SEED, VALIDATION_SEED + 3)]
    wrong_when = f"input[0] > {min(first[1:]):.9g}f" if first[0] > min(first[1:]) else f"input[0] < {max(first[1:]):.9g}f"
    (folder / "solutions" / "rejected" / "seed_dependent.cu").write_text(
        "// expect: WA\n"
        "__global__ void relu(const float* in, float* out, int n, bool wrong) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) out[i] = (wrong && i == 0) ? -1.0f : fmaxf(in[i], 0.0f);\n"
        "}\n"
        "extern \"C\" void solve(const float* input, float* output, int N) {\n"
        "    float first;\n"
        "    cudaMemcpy(&first, input, sizeof first, cudaMemcpyDeviceToHost);\n"
        "    const float* input_host = &first;\n"
        f"    bool wrong = N == 8 && {wrong_when.replace('input[0]', 'input_host[0]')};\n"
        "    relu<<<(N + 255) / 256, 256>>>(input, output, N, wrong);\n"
        "}\n")

    def judge_on_samples(problem, path, seed):
        result = judge_source(problem, path.read_text(), backend="cpu", timing=False, patterns=["sample"], seed=seed)
        return result.verdict, result.message

    once = validate_folder(folder, judge_on_samples)
    assert once.ok, [(r.path.name, r.got, r.message) for r in once.runs if not r.ok]
    report = validate_folder(folder, judge_on_samples, seeds=3)
    failed = [r for r in report.runs if not r.ok]
    assert [(r.path.name, r.got) for r in failed] == [("seed_dependent.cu", Verdict.AC)], failed
    assert failed[0].seed != VALIDATION_SEED
