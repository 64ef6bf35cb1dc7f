"""Drafts on the server, as a learner meets them: the code typed in one browser opens in another, a
second tab that edits an older draft is told and chooses, and "Open in editor" asks before it replaces
a draft."""
from __future__ import annotations

from web_helpers import REPO, register, require_browser, set_editor_text, sign_in

require_browser()
from playwright.sync_api import expect  # noqa: E402

RELU_OK = (REPO / "problems" / "001-relu" / "solutions" / "accepted" / "naive.cu").read_text()


def test_a_draft_follows_the_learner_and_tabs_do_not_overwrite_each_other(served, page, browser):
    register(page, served.url, "drafter")
    page.goto(served.url + "/problems/1")
    set_editor_text(page, RELU_OK + "// typed in the first browser\n")
    expect(page.locator(".saved")).to_have_text("Draft saved")

    other = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    try:
        second = other.new_page()
        sign_in(second, served.url, "drafter")
        second.goto(served.url + "/problems/1")
        expect(second.locator(".editor-host .cm-content")).to_contain_text("typed in the first browser")

        stale = other.new_page()   # a tab opened on the same draft, left behind while the other one saves
        stale.goto(served.url + "/problems/1")
        expect(stale.locator(".editor-host .cm-content")).to_contain_text("typed in the first browser")
        set_editor_text(second, RELU_OK + "// saved by the second browser\n")
        expect(second.locator(".saved")).to_have_text("Draft saved")
        set_editor_text(stale, RELU_OK + "// typed in the stale tab\n")
        newer = stale.locator(".draft-newer")
        expect(newer).to_contain_text("A newer draft of this problem was saved")
        newer.locator("button:has-text('Load it')").click()
        expect(stale.locator(".editor-host .cm-content")).to_contain_text("saved by the second browser")
        expect(newer).to_be_hidden()
    finally:
        other.close()

    # "Open in editor" on a submission whose code differs from the draft asks first; declining keeps the draft.
    page.goto(served.url + "/problems/1")
    set_editor_text(page, RELU_OK)
    page.click("button:has-text('Run')")
    expect(page.locator(".result-panel .result.done .result-head .badge")).to_have_text("AC", timeout=120_000)
    set_editor_text(page, RELU_OK + "// edited after the run\n")
    expect(page.locator(".saved")).to_have_text("Draft saved")
    page.click("text=Details →")
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click("button:has-text('Open in editor')")
    page.wait_for_timeout(500)
    assert asked and "Replace your current draft" in asked[0]
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("button:has-text('Open in editor')")
    expect(page.locator(".problem-head")).to_contain_text("#1")
    content = page.locator(".editor-host .cm-content")
    expect(content).to_contain_text("__global__")
    expect(content).not_to_contain_text("edited after the run")
