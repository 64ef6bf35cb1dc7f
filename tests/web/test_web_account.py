"""The account page in a real browser against a real `cudajudge serve`: a token made there judges from the command
line, and once revoked there the command line says so; the password changes; the API docs render offline."""
from __future__ import annotations

import os
import re
import subprocess
from urllib.parse import urlsplit

from web_helpers import CLI, PASSWORD, REPO, register, require_browser, screenshot

require_browser()
from playwright.sync_api import expect  # noqa: E402

RELU_OK = REPO / "problems" / "001-relu" / "solutions" / "accepted" / "naive.cu"


def judge_remotely(url: str, token: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "CUDAJUDGE_TOKEN"}
    return subprocess.run([*CLI, "judge", "--server", url, "--token", token, "problem1", str(RELU_OK),
                           "--tests", "sample"], capture_output=True, text=True, timeout=300, cwd=REPO, env=env)


def open_account(page) -> None:
    page.locator(".topbar a.user").click()
    expect(page).to_have_url(re.compile(r"/account$"))
    expect(page.locator(".account-tokens h2")).to_have_text("API tokens")


def test_token_from_the_account_page_judges_until_revoked(served, page):
    register(page, served.url, "tokenuser")
    open_account(page)
    expect(page.locator("table.tokens td.empty")).to_have_text("No API tokens.")   # a browser sign-in makes none
    page.fill("input[name=token-name]", "my laptop")
    page.click(".account-tokens button[type=submit]")
    secret = page.locator(".new-token .token-secret")
    expect(secret).to_have_text(re.compile(r"^cj_\S{20,}$"))
    token = secret.inner_text()
    expect(page.locator(".new-token pre")).to_contain_text(f"--server {served.url} --token {token}")
    row = page.locator("table.tokens tr", has_text="my laptop")
    expect(row).to_have_count(1)
    screenshot(page, "account.png")

    judged = judge_remotely(served.url, token)
    assert judged.returncode == 0, judged.stdout + judged.stderr
    assert re.search(r"^\s*AC\b", judged.stdout, re.M), judged.stdout

    page.once("dialog", lambda dialog: dialog.accept())
    row.locator("button.revoke").click()
    expect(row).to_have_count(0)
    expect(page.locator("table.tokens tr[data-token-id]")).to_have_count(0)

    refused = judge_remotely(served.url, token)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "HTTP 401: the token is unknown, expired or revoked" in refused.stderr and "/account" in refused.stderr
    assert "Traceback" not in refused.stdout + refused.stderr


def test_change_password_on_the_account_page(served, page):
    register(page, served.url, "pwuser")
    open_account(page)
    form = page.locator("form.password-form")
    new = "a much better password"
    form.locator("input[name=current-password]").fill("not the password")
    form.locator("input[name=new-password]").fill(new)
    form.locator("input[name=repeat-password]").fill(new + "!")
    form.locator("button[type=submit]").click()
    expect(form.locator(".alert.error")).to_have_text("The two new passwords differ.")
    form.locator("input[name=repeat-password]").fill(new)
    form.locator("button[type=submit]").click()
    expect(form.locator(".alert.error")).to_have_text("the current password is wrong")

    form.locator("input[name=current-password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(form.locator(".alert.success")).to_contain_text("Password changed")
    expect(page.locator("table.tokens td.empty")).to_have_text("No API tokens.")
    expect(page.locator(".account-solved")).to_contain_text("No solved problems yet")

    page.locator(".topbar button", has_text="Sign out").click()
    expect(page.locator(".topbar a", has_text="Sign in")).to_be_visible()
    page.goto(served.url + "/login")
    page.fill("input[name=username]", "pwuser")
    page.fill("input[name=password]", PASSWORD)
    page.click("form.auth button[type=submit]")
    expect(page.locator("form.auth .alert.error")).to_have_text("wrong username or password")
    page.fill("input[name=password]", new)
    page.click("form.auth button[type=submit]")
    expect(page.locator(".topbar .user")).to_contain_text("pwuser")


def test_api_docs_render_without_internet(served, page):
    blocked: list[str] = []

    def only_this_machine(route):
        if urlsplit(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    page.route("**/*", only_this_machine)
    page.goto(served.url + "/docs")
    operations = page.locator(".swagger-ui .opblock")
    expect(operations.first).to_be_visible()
    expect(page.locator(".opblock-summary-path", has_text="/api/auth/tokens").first).to_be_visible()
    expect(page.locator(".swagger-ui .btn.authorize")).to_be_visible()
    assert operations.count() > 20
    assert not blocked, f"the docs asked for other hosts: {blocked}"
