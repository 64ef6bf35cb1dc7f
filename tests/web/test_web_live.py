"""The live view of a running judge in a real browser against a real `cudajudge serve` (CPU backend): the
elapsed time ticks and the test running now is named; after a reload (or in a second tab) Run and Submit
stay disabled until the verdict; a dropped connection says it is reconnecting and the verdict still
arrives; a Run while the server is unreachable says so in words."""
from __future__ import annotations

import re
import time

import httpx

from web_helpers import register, require_browser, set_editor_text

require_browser()
from playwright.sync_api import expect  # noqa: E402

# Correct, but thread 0 of every launch waits about 3 s: each sample test of problem 1 takes seconds.
SLOW_RELU = """#include <cuda_runtime.h>

__global__ void relu_kernel(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        long long start = clock64();
        while (clock64() - start < 3000000000LL) { }
    }
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
"""
VERDICT_MS = 120_000


def seconds(clock: str) -> int:
    minutes, secs = re.search(r"(\d+):(\d\d)", clock).groups()
    return int(minutes) * 60 + int(secs)


def start_slow_run(page, url: str, username: str) -> None:
    register(page, url, username)
    page.goto(url + "/problems/1")
    set_editor_text(page, SLOW_RELU)
    page.click("text=▶ Run")
    expect(page.locator(".result-panel .live-phase[data-phase=testing]")).to_be_visible(timeout=VERDICT_MS)


def expect_accepted(page) -> None:
    result = page.locator(".result-panel .result.done")
    expect(result).to_be_visible(timeout=VERDICT_MS)
    expect(result.locator(".result-head .badge")).to_have_text("AC")


def test_live_view_ticks_and_names_the_running_test(served, page):
    start_slow_run(page, served.url, "live-clock")
    live = page.locator(".result-panel .result.live")
    expect(live.locator(".live-test")).to_have_text(re.compile(r"^sample/N=\d+/uniform$"))
    expect(live.locator(".counter")).to_contain_text(re.compile(r"/ 2 Tests · [12] left"))
    before = seconds(live.locator(".live-elapsed").inner_text())
    page.wait_for_function(   # the clock ticks on its own: two more seconds show within a few (a loaded machine)
        "b => { const e = document.querySelector('.result-panel .result.live .live-elapsed');"
        " const m = e && e.textContent.match(/(\\d+):(\\d+)/); return m && 60 * +m[1] + +m[2] >= b + 2; }",
        arg=before, timeout=6000)
    expect(live.locator(".live-test-time")).to_have_text(re.compile(r"^\(\d\d:\d\d\)$"))
    expect_accepted(page)


def test_reload_and_second_tab_keep_run_and_submit_disabled_until_the_verdict(served, page):
    start_slow_run(page, served.url, "live-reload")
    page.reload()
    buttons = [page.locator(".editor-toolbar button", has_text="Run"), page.locator(".editor-toolbar button", has_text="Submit")]
    expect(page.locator(".result-panel .result.live")).to_be_visible()    # it follows the running judge again
    for button in buttons:
        expect(button).to_be_disabled()
    other = page.context.new_page()
    other.goto(served.url + "/problems/1")
    expect(other.locator(".result-panel .result.live")).to_be_visible()
    expect(other.locator(".editor-toolbar button", has_text="Submit")).to_be_disabled()
    expect_accepted(page)
    for button in buttons:
        expect(button).to_be_enabled()
    expect(other.locator(".editor-toolbar button", has_text="Submit")).to_be_enabled(timeout=VERDICT_MS)


def test_dropped_connection_reconnects_and_shows_the_verdict(served, page):
    start_slow_run(page, served.url, "live-offline")
    submission = page.locator(".result-panel .result.live").get_attribute("data-submission")
    lost = page.locator(".result-panel .live-connection")
    expect(lost).to_be_hidden()
    page.context.set_offline(True)
    expect(lost).to_be_visible()
    expect(lost).to_have_text("Connection lost, reconnecting…")
    # the judge finishes while the browser is offline; the view recovers the verdict once it is back
    session = page.context.cookies()
    cookies = {c["name"]: c["value"] for c in session}
    deadline = time.monotonic() + VERDICT_MS / 1000
    while httpx.get(f"{served.url}/api/submissions/{submission}", cookies=cookies).json()["status"] != "done":
        assert time.monotonic() < deadline, "the judge did not finish"
        time.sleep(0.5)
    expect(page.locator(".result-panel .result.live")).to_be_visible()
    page.context.set_offline(False)
    expect_accepted(page)


def test_run_with_the_server_unreachable_says_so(served, page):
    register(page, served.url, "live-unreachable")
    page.goto(served.url + "/problems/1")
    expect(page.locator(".editor-toolbar button", has_text="Run")).to_be_enabled()
    page.context.set_offline(True)
    page.click("text=▶ Run")
    expect(page.locator(".result-panel .alert.error")).to_have_text("Cannot reach the server; check your connection.")
    expect(page.locator(".editor-toolbar button", has_text="Run")).to_be_enabled()
    page.click(".tabs a:has-text('History')")
    expect(page.locator("main .alert.error")).to_contain_text("Cannot reach the server; check your connection.")
    page.context.set_offline(False)
