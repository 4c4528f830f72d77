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
from sim.games import settings_keys
from webkit import Board, prepare, first_show, saved_game

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


def _browse(board, width, height=900):
    """A browser page (phone-sized: width) on the board's page, live; (playwright, page)."""
    from playwright.sync_api import sync_playwright, expect

    p = sync_playwright().start()
    browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(board.url + "/")
    expect(page.locator("#conn")).to_have_text("live", timeout=10000)
    return p, page


def test_two_pegs_on_one_hole_both_show(tmp_path):
    """Issue 22.12: three players, Red's front peg and Green's back peg on the same hole
    (both in lane 0): the hole shows Red's front peg (a front peg always shows) and Green's
    back peg as a ring round it; nobody's peg is drawn over."""
    from playwright.sync_api import expect

    board = Board(str(tmp_path / "board"))
    try:
        board.keys(settings_keys(players=3))  # the menu: 3 players, a new game
        board.keys("AA5#2#A5#")  # Green 5, Green 2 more (back peg on 5), Red 5
        st = board.state()
        assert st["players"] == 3 and st["score"] == [5, 0, 7] and st["back"][2] == 5
        hole = st["pegs"][0][0]
        assert st["pegs"][2][1] == hole  # Red's front, Green's back: one LED
        p, page = _browse(board, 900)
        try:
            dot = page.locator("#track circle").nth(hole)
            expect(dot).to_have_attribute("data-peg", "0f", timeout=3000)  # Red's front fills
            ring = page.locator('#track circle.ring[data-led="%d"]' % hole)
            expect(ring).to_have_count(1)
            expect(ring).to_have_attribute("data-peg", "2b")  # and Green's back rings it
            assert page.locator("#track circle[data-peg='2f']").count() == 1  # Green on 7
        finally:
            p.stop()
    finally:
        board.close()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_player_count_fits_a_phone(tmp_path, players):
    """Issue 22.13: at 390 px wide (a phone) the page never scrolls sideways, whatever the
    number of players, with deals in its "This game" table and the race chart under it (issue
    24): a line per side whose last point is the side's score."""
    from playwright.sync_api import expect

    storage = str(tmp_path / "board")
    saved_game(storage, players)
    board = Board(storage)
    try:
        p, page = _browse(board, 390)
        try:
            expect(page.locator("#deals tbody tr")).to_have_count(2, timeout=5000)
            expect(page.locator("#deals thead th")).to_have_count(
                1 + board.state()["sides"])
            st = board.state()
            # the race: a line per side in its colour, from 0, a point per deal, ending at its score
            lines = page.locator("#race polyline")
            expect(lines).to_have_count(st["sides"], timeout=3000)
            for i in range(st["sides"]):
                run = [int(v) for v in lines.nth(i).get_attribute("data-run").split(",")]
                assert run[0] == 0 and run[-1] == st["score"][i], (players, i, run)
                assert run == sorted(run) and len(run) == 3, run  # 0, then two deals: it climbs
                pts = lines.nth(i).get_attribute("points").split()
                assert len(pts) == len(run)
                assert lines.nth(i).get_attribute("stroke") == page.evaluate("COL[%d]" % i)
            # the skunk line (dashed) under the target's
            expect(page.locator("#race line")).to_have_count(2)
            expect(page.locator("#race text").first).to_have_text(str(st["target"]))
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= 390, (players, wide)
        finally:
            p.stop()
    finally:
        board.close()


def test_between_deals_the_page_names_the_next_dealer(tmp_path):
    """Issue 22.14: between deals the page names who deals next, as the display does
    ("deal: Green"), and nobody "deals (crib)"."""
    import re

    from playwright.sync_api import expect

    storage = str(tmp_path / "board")
    saved_game(storage, 3)
    board = Board(storage)
    try:
        st = board.state()
        name = re.search(r"deal: (\w+)", " ".join(st["lines"])).group(1)
        side = st["names"].index(name)
        assert st["phase"] == "deal" and st["deals_next"] == side != st["dealer_side"]
        p, page = _browse(board, 900)
        try:
            row = page.locator("#scores tbody tr").nth(side)
            expect(row).to_contain_text("to deal", timeout=3000)
            expect(page.locator("#scores")).not_to_contain_text("deals (crib)")
        finally:
            p.stop()
    finally:
        board.close()


def test_once_the_seats_are_named_the_score_table_names_them(tmp_path):
    """Issue 35.13: with the seats named (the club's names, kept on the board), the score
    table, the deals' table and the last points say the players' names, not the colours (the
    colour stays as a swatch); partners share a side: "Ann & Cy"."""
    from playwright.sync_api import expect

    from board.storage import Storage
    from publish import names as N
    from publish.contract import parse_names

    storage = str(tmp_path / "board")
    saved_game(storage, 4)  # four players: two sides of partners (seats 0 and 2, 1 and 3)
    N.save_names(Storage(storage), parse_names("Ann,Bob,Cy,Di"))
    board = Board(storage)
    try:
        st = board.state()
        p, page = _browse(board, 900)
        try:
            expect(page.locator("#name-0")).to_have_text("Ann & Cy", timeout=5000)
            expect(page.locator("#name-1")).to_have_text("Bob & Di")
            expect(page.locator("#scores")).not_to_contain_text(st["names"][0])
            assert page.locator("#name-0 .sw").evaluate(
                "e => e.style.backgroundColor") != ""  # the side's colour, as a swatch
            expect(page.locator("#deals thead")).to_contain_text("Bob & Di", timeout=5000)
        finally:
            p.stop()
    finally:
        board.close()


def test_the_club_status_names_a_broker_entry_the_board_refused(tmp_path):
    """Issue 35.2 on the page: a Wi-Fi file whose broker entry the board refused ("port":
    "1883") shows what is wrong, naming the field, where the page said only "no broker"."""
    from playwright.sync_api import expect

    storage = str(tmp_path / "board")
    os.makedirs(storage)
    with open(os.path.join(storage, "wifi.json"), "w") as f:
        f.write('{"ssid": "home", "broker": {"host": "192.168.1.10", "port": "1883"}}')
    board = Board(storage)
    try:
        p, page = _browse(board, 900)
        try:
            expect(page.locator("#club")).to_contain_text('"port"', timeout=5000)
            expect(page.locator("#club")).to_contain_text("no broker")
        finally:
            p.stop()
    finally:
        board.close()


def test_the_page_draws_in_the_boards_palette(tmp_path):
    """Issue 35.22: with the colour-blind palette set on the board, the page's sides are in
    its colours (board/render.py's PALETTE, second half, as a screen shows the LEDs), not the
    usual ones."""
    from playwright.sync_api import expect

    from board.render import PALETTE
    from board.settings import Settings

    storage = str(tmp_path / "board")
    saved_game(storage, 3)
    s = Settings()
    s.set("players", 3)
    s.set("colours", 1)
    with open(os.path.join(storage, "settings"), "wb") as f:
        f.write(s.dumps())
    board = Board(storage)
    try:
        p, page = _browse(board, 900)
        try:
            want = ["#%02x%02x%02x" % tuple(round(255 * (PALETTE[24 + 3 * k + i] / 255) ** 0.45)
                                            for i in range(3)) for k in range(3)]
            expect(page.locator("#scores tbody tr")).to_have_count(3, timeout=5000)
            assert page.evaluate("COL.slice(0, 3)") == want
            sw = page.locator("#name-1 .sw").evaluate("e => e.style.backgroundColor")
            assert sw == "rgb(%d, %d, %d)" % tuple(int(want[1][i:i + 2], 16) for i in (1, 3, 5))
        finally:
            p.stop()
    finally:
        board.close()
