"""The result's console in a real browser against a real `cudajudge serve` (CPU backend): a Run of a kernel
that printfs shows each test's printed lines, a cut text ends with the cut marker, a quiet program's console
says it printed nothing."""
from __future__ import annotations

import re

from web_helpers import REPO, register, require_browser, screenshot, set_editor_text

require_browser()
from playwright.sync_api import expect  # noqa: E402

RELU = (REPO / "problems" / "001-relu" / "solutions" / "accepted" / "naive.cu").read_text()
KERNEL_STORE = "if (i < n) out[i] = fmaxf(in[i], 0.0f);"
CHATTY = "#include <cstdio>\n" + RELU.replace(
    KERNEL_STORE, 'if (i < n) { printf("thread %d says hi\\n", i); out[i] = fmaxf(in[i], 0.0f); }', 1)
RUN_S = 120_000   # ms: problem 1's two sample tests on the CPU backend


def run(page, source: str):
    set_editor_text(page, source)
    page.click("text=▶ Run")
    result = page.locator(".result-panel .result.done")
    expect(result).to_be_visible(timeout=RUN_S)
    expect(result.locator(".result-head .badge")).to_have_text("AC")
    return result.locator("details.console")


def test_run_shows_kernel_printf_per_test_and_an_empty_console(served, page):
    assert CHATTY != RELU, "the accepted ReLU no longer has the store this test prints beside"
    register(page, served.url, "printer")
    page.goto(served.url + "/problems/1")

    console = run(page, CHATTY)
    expect(console).to_have_attribute("open", "")
    small = console.locator(".console-block[data-test='sample/N=8/uniform']")
    expect(small.locator("h4")).to_contain_text("kernel printf")
    expect(small.locator("pre")).to_have_text("".join(f"thread {i} says hi\n" for i in range(8)))
    large = console.locator(".console-block[data-test='sample/N=1000/uniform'] pre")
    expect(large).to_contain_text("thread 0 says hi\nthread 1 says hi\n")
    expect(large.locator(".cut")).to_have_text(re.compile(r"^\n… \d+ more bytes, not kept$"))
    console.scroll_into_view_if_needed()
    screenshot(page, "console.png")

    console = run(page, RELU)
    expect(console.locator(".console-block")).to_have_count(0)
    console.locator("summary").click()
    expect(console).to_contain_text("The program printed nothing.")
