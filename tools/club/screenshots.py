"""Pictures of the club's pages for docs/club.md, made by the project's own parts: a club night
of simulated boards (simboard.py: real games of the core) in a club file of its own, the
club's web side (web.py) on 127.0.0.1, and the system's Chromium driven by Playwright.

    make club-pictures          # or: PYTHONPATH=tools .venv/bin/python -m club.screenshots [DIR]

Writes DIR/club-*.png (docs/ by default): the club page and the director's page on a phone
(390 px wide), the club page and the projector on a laptop. demo() is the night the browser
test (host_tests/test_club_web.py) walks through at a phone's width.
"""

import os
import shutil
import sys
import tempfile

from . import tournament
from .director import Director
from .service import Club
from .simboard import SimBoard
from .web import serving, today

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
PASSWORD = "show-me-29"


def demo(db):
    """A club night in the club file db: a tournament of eight players at four tables, its
    first game played on four boards, the second under way (their live states), the director's
    password set (PASSWORD) and a new draw put aside. Returns (club, director)."""
    club = Club(db)
    d = Director(db)
    if not d.has_password():
        d.set_password(PASSWORD)
    club.store.set_tournament(PLAYERS[:4], 3, 2, today())
    d.keep(club.store.tournament(), "a new draw")
    d.note("127.0.0.1", "started a tournament: 4 players, 3 games, 2 tables")
    club.store.set_tournament(PLAYERS, 3, 4, today(), now=0.0)
    d.note("127.0.0.1", "started a tournament: 8 players, 3 games, 4 tables (the one before "
           "kept as #1)")
    rounds = tournament.rotation(PLAYERS, 3)
    for i, (a, b) in enumerate(rounds[0]):
        board = SimBoard("t%d" % (i + 1), seed=11 + i)
        board.seat([a, b])
        club.store.add_game(board.play(), today())
        na, nb = rounds[1][i]
        board.seat([na, nb])
        for _ in range(3 + i):
            board.deal()
        club.states[board.name] = board.state()
        club.status[board.name] = "online"
    return club, d


def chromium():
    return (os.environ.get("CHROMIUM") or shutil.which("chromium")
            or shutil.which("chromium-browser"))


ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def login(page, url, password=PASSWORD):
    page.goto(url + "/director")
    page.fill("input[name=password]", password)
    page.click("button:has-text('Log in')")
    page.wait_for_selector("text=logged in")


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", nargs="?", help="where the pictures go (default: docs/)")
    a = ap.parse_args(argv)
    out = os.path.abspath(a.dir or os.path.join(os.path.dirname(__file__), "..", "..", "docs"))
    exe = chromium()
    if not exe:
        print("no Chromium (apt-get install chromium)", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        club, d = demo(os.path.join(tmp, "club.sqlite"))
        try:
            with serving(club, d) as httpd, sync_playwright() as p:
                url = httpd.url
                browser = p.chromium.launch(executable_path=exe, args=ARGS, headless=True)
                phone = browser.new_page(viewport={"width": 390, "height": 844},
                                         device_scale_factor=1)
                phone.goto(url + "/")
                phone.screenshot(path=os.path.join(out, "club-phone.png"), full_page=True)
                login(phone, url)
                phone.fill("textarea[name=players]", "\n".join(PLAYERS[:6]))
                phone.click("button[value=start]")  # a tournament runs: it asks first
                phone.wait_for_selector("text=Start a new draw?")
                phone.screenshot(path=os.path.join(out, "club-director.png"), full_page=True)
                laptop = browser.new_page(viewport={"width": 1100, "height": 800})
                laptop.goto(url + "/")
                laptop.screenshot(path=os.path.join(out, "club-page.png"), full_page=True)
                laptop.goto(url + "/projector")
                laptop.screenshot(path=os.path.join(out, "club-projector.png"))
                browser.close()
        finally:
            d.close()
            club.store.close()
    for name in ("club-phone.png", "club-director.png", "club-page.png", "club-projector.png"):
        print(os.path.join(out, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
