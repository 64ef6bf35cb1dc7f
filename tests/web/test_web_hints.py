"""The performance hints of a CPU result in a real browser against a real `cudajudge serve`: problem 5's
square-tile transpose is shown with 32-way bank conflicts on its column read, the padded one with none."""
from __future__ import annotations

import re

from web_helpers import REPO, register, require_browser, set_editor_text

require_browser()
from playwright.sync_api import expect  # noqa: E402

SOLUTIONS = REPO / "problems" / "005-matrix-transpose" / "solutions" / "accepted"


def run_and_wait(page, source: str):
    set_editor_text(page, source)
    page.click("text=▶ Run")
    result = page.locator(".result-panel .result.done")
    expect(result).to_be_visible(timeout=180_000)
    expect(result.locator(".result-head .badge")).to_have_text("AC")
    return result.locator(".card.hints")


def test_bank_conflicts_of_the_square_tile_are_shown_and_the_padded_tile_has_none(served, page):
    register(page, served.url, "tiler")
    page.goto(f"{served.url}/problems/5")

    hints = run_and_wait(page, (SOLUTIONS / "tiled_unpadded.cu").read_text())
    expect(hints).to_contain_text("estimates, not measurements")
    column_read = hints.locator("tr.flagged", has_text="shared load")
    expect(column_read).to_contain_text("32-way bank conflicts")
    expect(column_read.locator("td").nth(6)).to_have_text(re.compile(r"\(32\)$"))   # average ways (worst)
    expect(hints.locator(".estimate").first).to_contain_text("a lower bound from the bytes moved, not a measurement")

    hints = run_and_wait(page, (SOLUTIONS / "tiled_padded.cu").read_text())
    expect(hints.locator("tr", has_text="shared load").locator("td").nth(6)).to_have_text("1.0 (1)")
    expect(hints.locator("tr.flagged")).to_have_count(0)
