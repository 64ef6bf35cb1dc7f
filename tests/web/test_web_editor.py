"""The web editor in a real browser against a real `cudajudge serve` (CPU backend): a learner registers,
edits problem 83 in the editor, sees a compile error at its line, a wrong answer with the mismatch, fixes
it, submits, gets AC, and appears on the leaderboard; an instructor validates and publishes a problem zip."""
from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

from web_helpers import REPO, register, require_browser, screenshot, set_editor_text, sign_in

require_browser()
from playwright.sync_api import expect  # noqa: E402

SCAN = REPO / "problems" / "083-multi-block-scan"
WRONG = (SCAN / "solutions" / "rejected" / "inclusive_scan.cu").read_text()
RIGHT = (SCAN / "solutions" / "accepted" / "three_pass_scan.cu").read_text()
JUDGE_S = 300_000   # ms: all of problem 83's CPU-size tests on a 2-core machine take well under this


def editor_text(page) -> str:
    return page.locator(".editor-host .cm-content").inner_text()


def wait_result(page, timeout: int = JUDGE_S):
    result = page.locator(".result-panel .result.done")
    expect(result).to_be_visible(timeout=timeout)
    return result


def sign_up(page, served) -> None:
    """A new learner, signed in."""
    register(page, served.url, "learner")


def problem_list(page) -> None:
    """The list: difficulty, tags, filters, solved state."""
    row = page.locator("tr[data-problem='83']")
    expect(row).to_contain_text("Multi-block exclusive prefix sum")
    expect(row.locator(".difficulty")).to_have_text("Hard")
    page.fill("input[type=search]", "prefix-sum")
    expect(page.locator("table.problems tbody tr")).to_have_count(page.locator("tr[data-problem]").count())
    assert page.locator("tr[data-problem='83']").is_visible() and not page.locator("tr[data-problem='1']").is_visible()
    expect(row.locator("td.center")).to_have_text("–")
    row.locator("a.problem-link").click()


def problem_page(page) -> None:
    """The problem page: statement with math, the Chinese statement, signature, tested sizes and distributions."""
    expect(page).to_have_url(re.compile(r"/problems/83$"))
    statement = page.locator(".statement")
    expect(statement.locator(".statement-body")).to_contain_text("write its exclusive prefix sum into")
    expect(statement.locator(".katex").first).to_be_visible()
    expect(statement.locator(".signature")).to_contain_text('extern "C" void solve(const int* input, int* output, int n)')
    expect(statement.locator("tr[data-group='levels']")).to_contain_text("n=1,048,577")
    expect(statement.locator("tr[data-group='shape']")).to_contain_text("single-hotspot")
    statement.locator("button[data-lang='zh']").click()
    expect(statement.locator(".statement-body h2").first).to_have_text(re.compile("[\u4e00-\u9fff]"))
    statement.locator("button[data-lang='en']").click()
    assert "scan_tile_serial" in editor_text(page)          # the starter
    screenshot(page, "problem.png")


def compile_error(page) -> None:
    """A compile error is marked in the editor at its line."""
    broken = WRONG.replace("out[i] = warp_base[warp] + inclusive;", "out[i] = warp_base[warp] + undeclared_total;", 1)
    line = next(i for i, text in enumerate(broken.splitlines(), 1) if "undeclared_total" in text)
    set_editor_text(page, broken)
    page.click("text=▶ Run")
    result = wait_result(page, 120_000)
    expect(result.locator(".badge").first).to_have_text("CE")
    expect(result.locator(".diagnostics")).to_contain_text(f"solution.cu:{line}")
    marked = page.locator(".editor-host .cm-line:has(.cm-lintRange-error)")
    expect(marked.first).to_contain_text("undeclared_total")


def wrong_answer(page) -> None:
    """A wrong answer: the failing test, index, expected, got and the small input."""
    set_editor_text(page, WRONG)
    expect(page.locator(".editor-host .cm-lintRange-error")).to_have_count(0)
    page.click("text=▶ Run")
    result = wait_result(page, 120_000)
    expect(result.locator(".result-head .badge")).to_have_text("WA")
    failure = result.locator(".failure:not(.smaller)")
    expect(failure).to_contain_text("sample/n=8/uniform")
    smaller = result.locator(".failure.smaller")   # the smallest size of the same distribution that fails too
    expect(smaller).to_contain_text("Also fails at n = ")
    assert int(smaller.locator("h3 .mono").inner_text().split("=")[1]) < 8
    first_input = failure.locator(".inputs .array").first
    expect(first_input).to_contain_text("input =")
    # Inclusive and exclusive scans first differ at the first nonzero input: there output = input.
    values = [int(v) for v in first_input.locator(".values span").all_inner_texts()]
    first = next(i for i, v in enumerate(values) if v != 0)
    expect(failure.locator("[data-field=index]")).to_have_text(str(first))
    expect(failure.locator("[data-field=expected]")).to_have_text("0")
    expect(failure.locator("[data-field=got]")).to_have_text(str(values[first]))
    # expected and got side by side around it, the mismatch's column marked; the scalar n as a value
    window = failure.locator("table.window")
    expect(window.locator("thead th.first")).to_have_text(str(first))
    expect(window.locator(".expected-row td.first")).to_have_text("0")
    expect(window.locator(".got-row td.first.differs")).to_have_text(str(values[first]))
    expect(failure.locator(".inputs .array", has_text="n =").locator(".values.scalar")).to_have_text("8")
    failure.scroll_into_view_if_needed()
    screenshot(page, "wrong-answer.png")


def fix_and_submit(page) -> None:
    """The fix, typed into the editor, then Submit: live progress, then AC."""
    set_editor_text(page, RIGHT)
    page.locator(".editor-host .cm-content").press("Control+End")
    page.keyboard.type("\n// fixed: exclusive scan with carries between tiles\n")
    page.click("button:has-text('Submit')")
    live = page.locator(".result-panel .result.live")
    expect(live.locator(".dot").first).to_be_visible(timeout=120_000)
    result = wait_result(page)
    expect(result.locator(".result-head .badge")).to_have_text("AC")
    passed = re.search(r"(\d+) / (\d+)", result.locator(".result-head").inner_text())
    assert passed and int(passed.group(1)) > 40
    # an AC on the CPU backend says what it stands on: the GPU-only tests are listed as not run
    expect(result.locator(".result-message")).to_contain_text(
        f"{passed.group(1)} of {passed.group(2)} tests passed ({int(passed.group(2)) - int(passed.group(1))} GPU-only")
    expect(result.locator(".timing.absent")).to_contain_text("timing needs a GPU")
    listed = result.locator("details.tests")   # the passed tests share a row, the GPU-only ones not run another
    listed.locator("summary").click()
    expect(listed.locator("tbody tr")).to_have_count(2)
    expect(listed.locator("tbody tr").first).to_contain_text(f"{passed.group(1)} tests")
    expect(listed.locator("tbody tr").last).to_contain_text(f"{int(passed.group(2)) - int(passed.group(1))} tests")
    meta = result.locator("details.meta")   # where the judge's time went
    meta.locator("summary").click()
    expect(meta).to_contain_text("Judge time")
    expect(meta).to_contain_text("solve() calls")


def draft_survives_reload(page) -> None:
    """The draft survives a reload."""
    page.reload()
    expect(page.locator(".editor-host .cm-content")).to_contain_text("Three-pass exclusive scan")
    assert page.evaluate("localStorage.getItem('cudajudge.draft.83')").endswith("// fixed: exclusive scan with carries between tiles\n")
    expect(page.locator(".result-panel .result.done .result-head .badge")).to_have_text("AC")


def leaderboard_and_solved(page) -> None:
    """The leaderboard lists the learner; the problem list shows it solved."""
    page.click("nav.tabs >> text=Leaderboard")
    expect(page.locator(".accepted-board tr[data-user='learner']")).to_contain_text("cpu")
    page.click(".main-nav >> text=Problems")
    expect(page.locator("tr[data-problem='83'] td.center")).to_have_text("✓")


def history_and_diff(page, served) -> None:
    """History and a diff against the wrong answer."""
    page.goto(served.url + "/problems/83/submissions")
    rows = page.locator("table.history tbody tr")
    expect(rows).to_have_count(3)
    rows.first.locator("a").first.click()
    expect(page.locator(".submission-meta")).to_contain_text("AC")
    expect(page.locator(".result.done .test-dots .dot.verdict-AC").first).to_be_visible()
    screenshot(page, "result.png")
    compare = page.locator("select.compare")
    wa_option = compare.locator("option", has_text="WA")
    compare.select_option(wa_option.get_attribute("value"))
    expect(page.locator(".cm-mergeView")).to_be_visible()
    expect(page.locator(".cm-mergeView .cm-changedLine").first).to_be_visible()


def chinese_ui(page) -> None:
    """The UI speaks Chinese, and remembers it."""
    page.click(".lang-switch")
    expect(page.locator(".main-nav a").first).to_have_text("题目")
    page.reload()
    expect(page.locator(".main-nav a").first).to_have_text("题目")
    page.click(".lang-switch")
    expect(page.locator(".main-nav a").first).to_have_text("Problems")


def test_learner_edits_runs_fixes_submits_and_ranks(served, page):
    sign_up(page, served)
    problem_list(page)
    problem_page(page)
    compile_error(page)
    wrong_answer(page)
    fix_and_submit(page)
    draft_survives_reload(page)
    leaderboard_and_solved(page)
    history_and_diff(page, served)
    chinese_ui(page)


def problem_zip(folder: Path, problem_id: int, slug: str, edit=lambda toml: toml,
                replaced: dict[str, str] | None = None) -> bytes:
    """A zip of `folder` as problem `problem_id`, its problem.toml edited and the files of `replaced`
    (relative path -> text) swapped in."""
    toml = (folder / "problem.toml").read_text()
    toml = re.sub(r"^id = \d+", f"id = {problem_id}", toml, count=1, flags=re.M)
    toml = re.sub(r'^slug = "[^"]+"', f'slug = "{slug}"', toml, count=1, flags=re.M)
    files = {"problem.toml": edit(toml), **(replaced or {})}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(folder.rglob("*")):
            name = str(path.relative_to(folder))
            if path.is_file() and "__pycache__" not in path.parts and name not in files:
                z.write(path, f"{slug}/{name}")
        for name, text in files.items():
            z.writestr(f"{slug}/{name}", text)
    return buf.getvalue()


def test_instructor_validates_and_publishes_a_problem_zip(served, page):
    served.create_user("teacher", "instructor")
    sign_in(page, served.url, "teacher")
    page.click(".main-nav >> text=Instructor")
    relu = REPO / "problems" / "001-relu"

    broken = problem_zip(relu, 902, "relu-broken", lambda toml: re.sub(r'policy = "\w+"', 'policy = "closeish"', toml))
    page.set_input_files(".upload input[type=file]", files=[{"name": "relu-broken.zip", "mimeType": "application/zip",
                                                             "buffer": broken}])
    page.click("button:has-text('Validate')")
    report = page.locator(".preview[data-valid='false']")
    expect(report.locator(".report-summary")).to_contain_text("Invalid")
    expect(report.locator("table.findings")).to_contain_text("tolerance.policy")
    expect(page.locator("button:has-text('Publish')")).to_be_disabled()

    # Statically fine, but the starter does not compile and an "accepted" solution writes out of bounds:
    # the validation judges them and refuses both.
    out_of_bounds = (relu / "solutions" / "rejected" / "no_bounds_check.cu").read_text().split("\n", 1)[1]
    judged = problem_zip(relu, 903, "relu-judged", replaced={
        "starter.cu": (relu / "starter.cu").read_text() + "\nnot C++\n", "solutions/accepted/naive.cu": out_of_bounds})
    page.set_input_files(".upload input[type=file]", files=[{"name": "relu-judged.zip", "mimeType": "application/zip",
                                                             "buffer": judged}])
    page.click("button:has-text('Validate')")
    findings = page.locator(".preview[data-valid='false'] table.findings")
    expect(findings).to_contain_text("starter.cu", timeout=240_000)
    expect(findings).to_contain_text("does not build and run: CE")
    expect(findings).to_contain_text("solutions/accepted/naive.cu")
    expect(findings).to_contain_text("expected AC, got RE")

    good = problem_zip(relu, 901, "relu-copy")
    page.set_input_files(".upload input[type=file]", files=[{"name": "relu-copy.zip", "mimeType": "application/zip",
                                                             "buffer": good}])
    page.click("button:has-text('Validate')")
    report = page.locator(".preview[data-valid='true']")
    expect(report.locator(".report-summary")).to_contain_text("Valid: no findings", timeout=240_000)
    expect(report.locator(".statement .katex").first).to_be_visible()
    expect(report.locator(".statement .signature")).to_contain_text("solve(")
    screenshot(page, "upload.png")
    page.click("button:has-text('Publish')")
    published = page.locator(".published a")
    expect(published).to_contain_text("#901", timeout=240_000)
    published.click()
    expect(page.locator(".problem-head")).to_contain_text("#901")
    expect(page.locator(".statement .signature")).to_be_visible()

    # Unpublished from the list of uploaded problems: off the problem list, and back again.
    page.click(".main-nav >> text=Instructor")
    row = page.locator("table.uploaded-problems tr[data-problem='901']")
    expect(row).to_contain_text("Listed")
    row.locator("button:has-text('Unpublish')").click()
    expect(row).to_contain_text("Unpublished")
    page.click(".main-nav >> text=Problems")
    expect(page.locator("table.problems tr[data-problem='1']")).to_be_visible()
    expect(page.locator("table.problems tr[data-problem='901']")).to_have_count(0)
    page.click(".main-nav >> text=Instructor")
    row.locator("button:has-text('Publish')").click()
    expect(row).to_contain_text("Listed")
