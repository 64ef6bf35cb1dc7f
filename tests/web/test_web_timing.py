"""The timing section of a GPU result: the per-case chart with speed-of-light and baseline marks and the
per-kernel table. There is no GPU here, so the test plays the GPU worker: it claims the submission the
browser made through the server's lease store (as `cudajudge worker` on a GPU host does) and stores, test by
test, a Result with the figures such a worker reports. What is checked is that the page follows the live
tests and draws those figures, not the judge."""
from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path

import httpx

from web_helpers import PASSWORD, REPO, register, require_browser, screenshot, set_editor_text

require_browser()
from playwright.sync_api import expect  # noqa: E402

from judge.problems.loader import parse_problem  # noqa: E402
from judge.problems import plan  # noqa: E402
from judge import result as judged  # noqa: E402

SCAN = REPO / "problems" / "083-multi-block-scan"
DEVICE = "NVIDIA H200"
COPY_GBPS = 4000.0


def case(n: int, median_us: float, baseline_us: float, baseline_age_s: float | None = None) -> judged.CaseTiming:
    sol_us = 8 * n / (COPY_GBPS * 1e3)          # the problem's bytes (8n) at the copy bandwidth
    return judged.CaseTiming(size={"n": n}, distribution="uniform", samples=120, median_us=median_us,
                             min_us=median_us * 0.97, iqr_us=median_us * 0.02, noisy=False,
                             gbps=8 * n / (median_us * 1e3), sol_pct=100 * sol_us / median_us, baseline_us=baseline_us,
                             ratio_to_baseline=baseline_us / median_us, baseline_age_s=baseline_age_s)


def gpu_result(tests: list[judged.TestResult], median_us: float) -> judged.Result:
    big, small = case(100_000_000, median_us, 292.0), case(1_000_000, 9.8, 14.1, baseline_age_s=720.0)
    kernels = [judged.KernelTime(kernel=name, grid=[grid, 1, 1], block=[1024, 1, 1], total_us=us)
               for name, grid, us in (("scan_tiles", 97657, 176.0), ("scan_tiles", 96, 4.1), ("add_tile_offsets", 97656, 81.0))]
    timing = judged.Timing(**big.model_dump(exclude={"size", "distribution", "gflops"}), copy_gbps=COPY_GBPS,
                    per_kernel=kernels, per_case=[big, small])
    return judged.Result(problem="problem83", backend="gpu", device=DEVICE, seed=7, verdict=judged.Verdict.AC,
                         message=f"all {len(tests)} tests passed", compile=judged.CompileInfo(ok=True, seconds=0.4),
                         tests=tests, timing=timing)


class GpuWorker(threading.Thread):
    """Claims the next submission of the app and stores a GPU worker's progress and Result for it."""

    def __init__(self, store, median_us: float = 265.0):
        super().__init__(daemon=True)
        self.store, self.median_us, self.error = store, median_us, None

    def run(self) -> None:
        try:
            deadline = time.monotonic() + 60
            while (job := self.store.claim("gpu-host:0")) is None:
                assert time.monotonic() < deadline, "no submission to claim"
                time.sleep(0.1)
            self.store.record_compile(job.lease, judged.CompileInfo(ok=True, seconds=0.4).model_dump(mode="json"))
            tests = [judged.TestResult(name=c.name, size=c.size, distribution=c.distribution, verdict=judged.Verdict.AC,
                                       time_ms=1.0) for c in plan.test_cases(parse_problem(SCAN))]
            for i, t in enumerate(tests):
                self.store.record_test(job.lease, i, t.model_dump(mode="json"))
                time.sleep(0.02)
            assert self.store.complete(job.lease, gpu_result(tests, self.median_us).model_dump(mode="json"))
        except Exception as exc:   # reported by the test
            self.error = exc


@contextlib.contextmanager
def served_app(tmp_path: Path):
    """A real server in this process (CPU backend, no dispatcher): its URL and its app, whose store a
    stand-in GPU worker judges from."""
    import uvicorn

    from server.app import create_app
    from server.config import Settings
    from web_helpers import free_port

    settings = Settings(data_dir=tmp_path / "data", backend="cpu", dispatcher=False, argon2_time_cost=1,
                        argon2_memory_kib=8192, argon2_parallelism=1, sse_poll_s=0.05)
    app = create_app(settings)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{server.config.port}", app
    finally:
        server.should_exit = True
        thread.join(30)
        app.state.cj.db.dispose()


def timing_card(page, url: str, app) -> None:
    """A learner's Submit judged with timing: the figures, the chart of both cases and the per-kernel table."""
    register(page, url, "speedy")
    page.goto(url + "/problems/83")
    set_editor_text(page, (SCAN / "solutions" / "accepted" / "three_pass_scan.cu").read_text())
    worker = GpuWorker(app.state.cj.store)
    worker.start()
    page.click("button:has-text('Submit')")
    result = page.locator(".result-panel .result.done")
    expect(result).to_be_visible(timeout=60_000)
    worker.join(10)
    assert worker.error is None, worker.error
    expect(result.locator(".result-head .badge")).to_have_text("AC")

    timing = result.locator(".card.timing")
    expect(timing).to_contain_text(DEVICE)
    expect(timing.locator(".figure", has_text="Median")).to_contain_text("265 µs")
    expect(timing.locator(".figure", has_text="Speed of light")).to_contain_text("75%")
    chart = timing.locator("svg.timing-chart")
    expect(chart.locator("g.case")).to_have_count(2)
    expect(chart.locator("g.case").first).to_contain_text("n=100,000,000 · uniform")
    expect(chart.locator("g.case").first).to_contain_text("1.10× vs baseline")
    expect(chart.locator("g.case line.sol")).to_have_count(2)
    expect(chart.locator("g.case line.baseline")).to_have_count(2)
    cases = timing.locator("table.per-case tbody tr")
    expect(cases.nth(1)).to_contain_text("timed 12 min ago on this GPU")   # a baseline an earlier judge timed
    expect(cases.first.locator(".baseline-age")).to_have_count(0)
    kernels = timing.locator("table.per-kernel tbody tr")
    expect(kernels).to_have_count(3)
    expect(kernels.nth(2)).to_contain_text("add_tile_offsets")
    expect(kernels.nth(2)).to_contain_text("97656×1×1")

    page.click("text=Details →")
    expect(page.locator(".card.timing svg.timing-chart")).to_be_visible()
    page.locator(".card.timing").scroll_into_view_if_needed()
    screenshot(page, "timing.png")


def tied_board(page, url: str, app) -> None:
    """A second learner, 0.5 µs slower: with 120 samples and an IQR of 2% the two medians' intervals
    (± 0.76 µs) overlap, so the board shows them tied, both first."""
    source = (SCAN / "solutions" / "accepted" / "three_pass_scan.cu").read_text()
    other = httpx.Client(base_url=url)
    other.post("/api/auth/register", json={"username": "steady", "password": PASSWORD}).raise_for_status()
    token = other.post("/api/auth/login", json={"username": "steady", "password": PASSWORD}).json()["token"]
    second = GpuWorker(app.state.cj.store, median_us=265.5)
    second.start()
    other.post("/api/submissions", json={"problem": 83, "source": source, "mode": "submit"},
               headers={"Authorization": f"Bearer {token}"}).raise_for_status()
    second.join(60)
    assert second.error is None, second.error

    page.click("nav.tabs >> text=Leaderboard")
    board = page.locator(".device-board")
    expect(board.locator("h3")).to_have_text(DEVICE)
    rows = board.locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("speedy")
    expect(rows.first).to_contain_text("265 µs")
    for row in (rows.first, rows.nth(1)):
        expect(row.locator("td.rank")).to_have_text("1tied")


def test_gpu_timing_chart_and_per_kernel_table(page, tmp_path):
    with served_app(tmp_path) as (url, app):
        timing_card(page, url, app)
        tied_board(page, url, app)
