"""Fixtures and helpers of the web editor's browser tests (a unique module name: tests/ has a conftest too): a `cudajudge serve` process on a free loopback port with a
temporary data dir (CPU backend), an instructor made with `cudajudge admin create-user`, and Debian's
Chromium driven by Playwright (its own browser downloads are never used)."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
REPO = Path(__file__).resolve().parents[2]
# The committed pictures are rewritten only on request (CUDAJUDGE_SCREENSHOTS=docs/screenshots); otherwise a
# test run leaves the checkout as it found it.
SCREENSHOTS = Path(os.environ.get("CUDAJUDGE_SCREENSHOTS", Path(tempfile.gettempdir()) / "cudajudge-screenshots"))
PASSWORD = "correct horse battery"
CLI = [sys.executable, "-c", "from cudajudge.cli import main; main()"]



def require_browser() -> None:
    """Skip the calling test module when Chromium or the playwright package is missing."""
    if not CHROMIUM.is_file():
        pytest.skip(f"the web tests need Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)",
                    allow_module_level=True)
    pytest.importorskip("playwright.sync_api", reason="the web tests need the playwright package (the test extra)")
    pytest.importorskip("fastapi", reason="the web tests need the server extra: pip install -e '.[server]'")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Served:
    """A `cudajudge serve` process; `url` is its address."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "CUDAJUDGE_DATA_DIR": str(data_dir), "CUDAJUDGE_BACKEND": "cpu"}
        env.pop("CUDAJUDGE_DATABASE_URL", None)
        self.log = open(data_dir / "serve.log", "wb")
        self.process = subprocess.Popen([*CLI, "serve", "--port", str(self.port), "--backend", "cpu"], env=env,
                                        stdout=self.log, stderr=subprocess.STDOUT, cwd=REPO)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"cudajudge serve exited: {(data_dir / 'serve.log').read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/api/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError("cudajudge serve did not answer /api/health within 90 s")

    def create_user(self, name: str, role: str) -> None:
        subprocess.run([*CLI, "admin", "create-user", name, "--role", role, "--password", PASSWORD,
                        "--data-dir", str(self.data_dir)], check=True, capture_output=True, cwd=REPO,
                       env={k: v for k, v in os.environ.items() if k != "CUDAJUDGE_DATABASE_URL"})

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(40)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    server = Served(tmp_path_factory.mktemp("web-data"))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


def set_editor_text(page, text: str) -> None:
    content = page.locator(".editor-host .cm-content")
    content.click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(text)


def _submit_account_form(page, url: str, path: str, username: str) -> None:
    """Fill the register or login form and wait until the top bar shows the user."""
    from playwright.sync_api import expect

    page.goto(url + path)
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.auth button[type=submit]")
    expect(page.locator(".topbar .user")).to_contain_text(username)


def register(page, url: str, username: str) -> None:
    from playwright.sync_api import expect

    _submit_account_form(page, url, "/register", username)
    expect(page).to_have_url(re.compile(r"/problems$"))


def sign_in(page, url: str, username: str) -> None:
    _submit_account_form(page, url, "/login", username)


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), full_page=False)
