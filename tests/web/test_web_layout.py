"""The web editor at phone, tablet and desktop widths, in its light and dark themes, with the editor's Run
and Submit shortcuts and its CUDA completion, in a real browser against a real `cudajudge serve` (CPU
backend). Pictures of the problem list and a problem page at 1440 and 390 px, light and dark, go to the
screenshots folder."""
from __future__ import annotations

import re

import pytest

from web_helpers import REPO, register, require_browser, screenshot, set_editor_text

require_browser()
from playwright.sync_api import expect  # noqa: E402

SCAN = REPO / "problems" / "083-multi-block-scan"
RIGHT = (SCAN / "solutions" / "accepted" / "three_pass_scan.cu").read_text()
WIDTHS = [(1440, 900), (1280, 800), (1024, 768), (768, 1024), (390, 844)]
JUDGE_MS = 180_000   # problem 83's sample tests on the CPU backend of a busy 2-core machine


@pytest.fixture(scope="module")
def account(served, browser):
    """A registered learner's session (its cookie), for the contexts the tests open."""
    context = browser.new_context(locale="en-US")
    register(context.new_page(), served.url, "layout")
    state = context.storage_state()
    context.close()
    return state


@pytest.fixture
def open_page(browser, account):
    """Opens a page of the signed-in learner in a fresh context of the given window and colour scheme."""
    contexts, errors = [], []

    def open_page(width: int = 1440, height: int = 900, color_scheme: str = "light"):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US",
                                      color_scheme=color_scheme, storage_state=account)
        context.set_default_timeout(30_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


def open_problem(page, url: str, problem: int = 83):
    page.goto(f"{url}/problems/{problem}")
    expect(page.locator(".editor-host .cm-content")).to_be_visible()
    expect(page.locator(".statement .signature")).to_be_visible()


def overlap(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def assert_in_view(page, locator) -> None:
    """The element lies wholly in the viewport, and nothing is drawn over its middle."""
    box, view = locator.bounding_box(), page.viewport_size
    assert box and box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= view["width"] and box["y"] + box["height"] <= view["height"], (box, view)
    on_top = locator.evaluate("""(el) => { const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2); return el.contains(top); }""")
    assert on_top, "another element covers it"


def luminance(css_color: str) -> float:
    """The relative luminance of a computed `rgb(...)` colour: 0 black, 1 white."""
    r, g, b = (int(c) / 255 for c in re.findall(r"\d+", css_color)[:3])
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def computed(page, selector: str, prop: str) -> str:
    return page.locator(selector).first.evaluate(f"(el) => getComputedStyle(el).{prop}")


def assert_theme(page, dark: bool) -> None:
    """The page, the editor, the code and the statement's math are drawn in the theme's colours."""
    expect(page.locator("html")).to_have_attribute("data-theme", "dark" if dark else "light")
    backgrounds = [luminance(computed(page, s, "backgroundColor")) for s in ("body", ".card", ".editor-host .cm-editor")]
    texts = [luminance(computed(page, s, "color")) for s in (".editor-host .cm-line", ".statement .katex")]
    if dark:
        assert max(backgrounds) < 0.05 and min(texts) > 0.5, (backgrounds, texts)
    else:
        assert min(backgrounds) > 0.8 and max(texts) < 0.1, (backgrounds, texts)


@pytest.mark.parametrize("width,height", WIDTHS, ids=[f"{w}px" for w, _ in WIDTHS])
def test_statement_and_editor_never_overlap_and_run_submit_stay_reachable(served, open_page, width, height):
    page = open_page(width, height)
    open_problem(page, served.url)
    statement, editor = page.locator(".statement"), page.locator(".editor-host")
    assert not overlap(statement.bounding_box(), editor.bounding_box())
    # nothing is wider than the window: a top bar or a toolbar that overflowed would cut buttons off
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for label in ("Run", "Submit"):
        button = page.locator(".editor-toolbar button", has_text=label)
        button.scroll_into_view_if_needed()
        assert_in_view(page, button)
        expect(button).to_be_enabled()
        assert not overlap(statement.bounding_box(), editor.bounding_box())   # scrolled too
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert not overlap(statement.bounding_box(), editor.bounding_box())

    toggle, nav = page.locator(".menu-toggle"), page.locator(".main-nav")
    if width <= 860:   # on narrow windows the links fold behind the menu button
        expect(nav).to_be_hidden()
        toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "true")
    else:
        expect(toggle).to_be_hidden()
    for item in (nav.locator("a", has_text="Submissions"), page.locator(".theme-switch"), page.locator(".topbar .user")):
        assert_in_view(page, item)


def test_ctrl_enter_runs_and_the_verdict_shows_without_scrolling(served, open_page):
    page = open_page(1440, 900)
    open_problem(page, served.url)
    run, submit = page.locator(".editor-toolbar button", has_text="Run"), page.locator(".editor-toolbar button", has_text="Submit")
    assert run.get_attribute("title").endswith("(Ctrl+Enter)")
    assert submit.get_attribute("title").endswith("(Ctrl+Shift+Enter)")
    set_editor_text(page, RIGHT)
    page.locator(".editor-host .cm-content").press("Control+Enter")
    badge = page.locator(".result-panel .result.done .result-head .badge")
    expect(badge).to_have_text("AC", timeout=JUDGE_MS)
    assert_in_view(page, badge)
    submission = page.locator(".result-panel .result.done").get_attribute("data-submission")
    assert page.request.get(f"{served.url}/api/submissions/{submission}").json()["mode"] == "run"
    # the shortcut ran the code and left it as it was (the default keymap would insert a line)
    assert page.evaluate("localStorage.getItem('cudajudge.draft.83')") == RIGHT


def test_ctrl_shift_enter_submits(served, open_page):
    page = open_page(1440, 900)
    open_problem(page, served.url, 1)
    set_editor_text(page, "__global__ void relu(const float* in, float* out, int n) { out[0] = undeclared; }\n")
    page.locator(".editor-host .cm-content").press("Control+Shift+Enter")
    result = page.locator(".result-panel .result.done")
    expect(result.locator(".result-head .badge")).to_have_text("CE", timeout=JUDGE_MS)
    submission = result.get_attribute("data-submission")
    assert page.request.get(f"{served.url}/api/submissions/{submission}").json()["mode"] == "submit"


def test_completion_offers_cuda_names(served, open_page):
    page = open_page(1440, 900)
    open_problem(page, served.url)
    page.locator(".editor-host .cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.press("Enter")
    page.keyboard.type("__shfl")
    options = page.locator(".cm-tooltip-autocomplete li")
    expect(options.filter(has_text="__shfl_down_sync")).to_be_visible()
    expect(options.filter(has_text="__shfl_xor_sync")).to_contain_text("barrier or warp primitive")
    page.keyboard.press("Escape")
    page.keyboard.press("Enter")
    page.keyboard.type("cudaMemcpyA")   # a runtime call the judge supports
    expect(options.filter(has_text="cudaMemcpyAsync")).to_contain_text("CUDA runtime")


def test_theme_toggle_switches_to_dark_and_is_remembered(served, open_page):
    page = open_page(1440, 900, "light")
    open_problem(page, served.url)
    assert_theme(page, dark=False)
    page.click(".theme-switch")
    assert_theme(page, dark=True)
    page.reload()
    expect(page.locator(".editor-host .cm-content")).to_be_visible()
    assert_theme(page, dark=True)
    page.click(".theme-switch")
    assert_theme(page, dark=False)
    assert page.evaluate("localStorage.getItem('cudajudge.theme')") == "light"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width,height", [(1440, 900), (390, 844)], ids=["1440px", "390px"])
def test_system_colour_scheme_sets_the_theme_and_pictures(served, open_page, scheme, width, height):
    page = open_page(width, height, scheme)
    page.goto(served.url + "/problems")
    expect(page.locator("tr[data-problem='83']")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("data-theme", scheme)
    screenshot(page, f"problems-{width}-{scheme}.png")
    open_problem(page, served.url)
    expect(page.locator(".statement .katex").first).to_be_visible()
    assert_theme(page, dark=scheme == "dark")
    screenshot(page, f"problem-{width}-{scheme}.png")


def test_the_bundle_arrives_compressed(served, open_page):
    page = open_page()
    encodings: dict[str, str | None] = {}
    page.on("response", lambda r: encodings.__setitem__(r.url, r.headers.get("content-encoding"))
            if "/assets/" in r.url and r.url.endswith((".js", ".css")) else None)   # fonts come compressed (woff2)
    page.goto(served.url + "/problems/1")
    expect(page.locator(".editor-host .cm-content")).to_be_visible()
    assert any(url.endswith(".js") for url in encodings) and any(url.endswith(".css") for url in encodings)
    assert set(encodings.values()) == {"gzip"}, encodings
    sizes = page.evaluate("() => performance.getEntriesByType('resource')"
                          ".filter((e) => e.name.includes('/assets/') && /\\.(js|css)$/.test(e.name))"
                          ".map((e) => [e.transferSize, e.decodedBodySize])")
    assert sizes and all(sent < decoded for sent, decoded in sizes), sizes
