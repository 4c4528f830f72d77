"""The live page in a real headless browser (Chromium from the system's packages, driven by
Playwright's Python package; no browser is downloaded): a simulated board (the real firmware
in the real MicroPython binary) serves it, keys are played, and the page shows the new scores
and the show's spoken breakdown. It saves a screenshot (build/live-page.png; the README's
docs/live-page.png is one).

Chromium: `apt-get install chromium` (.ci/run does it when run as root); elsewhere this test
is skipped and says why. CHROMIUM=/path picks another binary."""

import os
import shutil

import pytest

from hostenv import ROOT
from webkit import Board, prepare, first_show

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which(
    "chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(not CHROMIUM, reason="no Chromium (apt-get install chromium; "
                                "`.ci/run` installs it as root): the browser test is skipped")


def test_the_page_in_a_browser_follows_the_game(tmp_path):
    from playwright.sync_api import sync_playwright, expect

    storage = str(tmp_path / "board")
    tokens, k = first_show()
    prepare(storage, tokens[:k])  # a game up to its first show
    board = Board(storage)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            page = browser.new_page(viewport={"width": 900, "height": 1100})
            page.goto(board.url + "/")
            expect(page.locator("#conn")).to_have_text("live", timeout=10000)
            before = board.state()
            expect(page.locator("#score-0")).to_have_text(str(before["score"][0]))
            expect(page.locator("#phase")).to_have_text("show")
            board.keys("#")  # the first hand is counted: new score, the spoken count
            after = board.state()
            side = after["last"]["side"]
            assert after["score"][side] > before["score"][side]
            expect(page.locator("#score-%d" % side)).to_have_text(
                str(after["score"][side]), timeout=2000)
            expect(page.locator("#said")).to_have_text(after["show"]["said"], timeout=2000)
            expect(page.locator("#showcards")).to_contain_text("= %d" % after["show"]["points"])
            # the track: the side's front peg is lit in its colour
            peg = after["pegs"][side][0]
            fill = page.locator("#track circle").nth(peg).evaluate("c => c.style.fill")
            assert fill and fill != "", fill
            expect(page.locator("#deals tbody tr")).to_have_count(1, timeout=3000)
            os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
            page.screenshot(path=os.path.join(ROOT, "build", "live-page.png"), full_page=True)
            browser.close()
    finally:
        board.close()
