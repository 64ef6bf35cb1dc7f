"""First contentful paint and bytes transferred of the web editor's problem page, as Chromium sees them.

    python bench/web_paint.py [--tree PATH] [--repeat 5] [--problem 83]

Starts `cudajudge serve` (CPU backend, a temporary data folder) from the checkout at PATH (default this
one), loads /problems/N in a fresh browser context each time (an empty cache), and prints the median
first contentful paint and the bytes the page transferred (compressed, as sent) and decoded. Printed
figures, not pass/fail; compare two trees by running it on each.
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
MEASURE = """() => {
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  const entries = [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')];
  return { fcp: paint ? paint.startTime : null,
           transferred: entries.reduce((n, e) => n + (e.transferSize || 0), 0),
           decoded: entries.reduce((n, e) => n + (e.decodedBodySize || 0), 0) };
}"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(tree: Path, data: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "CUDAJUDGE_DATA_DIR": str(data), "CUDAJUDGE_BACKEND": "cpu", "PYTHONPATH": str(tree)}
    env.pop("CUDAJUDGE_DATABASE_URL", None)
    process = subprocess.Popen([sys.executable, "-c", "from cudajudge.cli import main; main()", "serve", "--port", str(port),
                                "--backend", "cpu"], cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/api/health", timeout=2).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.3)
    process.kill()
    raise SystemExit(f"the server in {tree} did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--problem", type=int, default=83)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        process, url = serve(args.tree.resolve(), Path(data))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
                runs = []
                for _ in range(args.repeat):
                    context = browser.new_context(viewport={"width": 1440, "height": 900})
                    page = context.new_page()
                    page.goto(f"{url}/problems/{args.problem}", wait_until="networkidle")
                    page.wait_for_selector(".editor-host .cm-content")
                    runs.append(page.evaluate(MEASURE))
                    context.close()
                browser.close()
        finally:
            process.terminate()
            process.wait(30)
    fcp = statistics.median(r["fcp"] for r in runs if r["fcp"] is not None)
    print(f"{args.tree}: problem {args.problem}, {args.repeat} cold loads: first contentful paint {fcp:.0f} ms (median), "
          f"transferred {runs[-1]['transferred'] / 1024:.0f} KiB, decoded {runs[-1]['decoded'] / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
