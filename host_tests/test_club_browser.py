"""The club page in a real headless browser (the system's Chromium driven by Playwright, as
host_tests/test_web_browser.py does): a real broker, the club service, two boards playing
real games; the director enters a tournament through the page's form, and the page shows the
next game's tables, the standings the games make, the live tables' pegs, a game's race chart
and the projector's standings. Saves build/club-page.png.

Skipped, saying why, without Chromium or without Mosquitto."""

import os

import pytest

from clubkit import HAVE_MOSQUITTO, WHY_SKIPPED, Board, Broker, Service
from clubweb import PASSWORD, set_password
from hostenv import ROOT
from club import night, tournament
from test_web_browser import ARGS, CHROMIUM

pytestmark = [
    pytest.mark.skipif(not HAVE_MOSQUITTO, reason=WHY_SKIPPED),
    pytest.mark.skipif(not CHROMIUM, reason="no Chromium (apt-get install chromium; `.ci/run` "
                       "installs it as root): the club page's browser test is skipped"),
]

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def test_the_club_page_in_a_browser(tmp_path):
    from playwright.sync_api import sync_playwright, expect

    broker = Broker(tmp_path / "broker")
    set_password(tmp_path / "club.sqlite")  # the director's, set at the first start
    svc = Service(tmp_path, broker)
    boards = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            page = browser.new_page(viewport={"width": 1100, "height": 1400})
            url = "http://127.0.0.1:%d" % svc.port
            # the director logs in and enters the tournament
            page.goto(url + "/director")
            page.fill("input[name=password]", PASSWORD)
            page.click("button:has-text('Log in')")
            expect(page.locator("body")).to_contain_text("logged in")
            page.fill("textarea[name=players]", "\n".join(PLAYERS))
            page.fill("input[name=games]", "3")
            page.fill("input[name=tables]", "2")
            page.click("button[value=start]")
            expect(page.locator("body")).to_contain_text("tournament started: 4 players")
            # the first game's tables, as the draw gives them, on the club page
            rounds = tournament.rotation(PLAYERS, 3)
            page.goto(url + "/")
            expect(page.locator("body")).to_contain_text("Game 1 of 3")
            for table, a, b in tournament.tables(rounds[0], 2):
                row = page.locator("tr", has_text="%s v %s" % (a, b))
                expect(row.locator("td").first).to_have_text(str(table))
            # the tables play the first game: each pair on a board
            games = []
            for i, (a, b) in enumerate(rounds[0]):
                board = Board(broker, "t%d" % (i + 1), [a, b], seed=30 + i)
                boards.append(board)
                games.append(board.play())
                board.flush()
            svc.wait_games(len(games))
            page.goto(url + "/")
            expect(page.locator("body")).to_contain_text("Game 2 of 3")
            rows = night.standings(games)
            cells = page.locator("h2:has-text('Standings') + table tr")
            expect(cells).to_have_count(1 + len(rows))
            for i, r in enumerate(rows, 1):
                expect(cells.nth(i)).to_contain_text(r["name"])
                expect(cells.nth(i).locator("td").nth(2)).to_have_text(str(r["points"]))
            # the live tables: a board's pegs
            expect(page.locator("svg.pegs")).to_have_count(2)
            expect(page.locator("svg.pegs").first.locator("circle")).not_to_have_count(0)
            os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
            page.screenshot(path=os.path.join(ROOT, "build", "club-page.png"), full_page=True)
            # a game's race: a line per side, ending at the final scores
            page.click("a:has-text('%s')" % games[0]["id"])
            lines = page.locator("svg.race polyline")
            expect(lines).to_have_count(2)
            for k in range(2):  # a point a deal, from 0
                pts = (lines.nth(k).get_attribute("points") or "").split()
                assert len(pts) == len(night.race(games[0])[k]) == games[0]["game"]["deals"] + 1
            # the projector: the same standings, big
            page.goto(url + "/projector")
            expect(page.locator("table.standings tr")).to_have_count(1 + len(rows))
            size = page.locator("table.standings td").first.evaluate(
                "e => parseFloat(getComputedStyle(e).fontSize)")
            assert size >= 24, size  # a room can read it (3.2 vw of 1100 px)
            browser.close()
    finally:
        for b in boards:
            b.close()
        svc.close()
        broker.close()
