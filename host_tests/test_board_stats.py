"""The statistics per side on the board's display, through the menu (issue 11): D, the
"stats" item, OK: a page per side (A/D or OK the next, B the one before, * back to the menu),
read from the history of finished games by board/stats.py, which is loaded for it and dropped
at once; the pages go when they are left. On CPython here through the real keys of the fake
board; on the real MicroPython binary from .mpy (host_tests/mp_stats.py)."""

import os
import subprocess
import sys


from hostenv import ROOT, venv_program
from board import history
from board.menu import MENU_ITEMS
from board.modes import MENU, NORMAL, STATS
from board.storage import Storage
from cribbage import match as M
from cribbage import summary as S
from boardkit import board, new_game, next_game, peg_out, play_game, shown
from test_summary import known_game
from test_history import DETAIL, KEEP, kept

MICROPYTHON = venv_program("micropython")
TO_STATS = "D" + "A" * MENU_ITEMS.index("stats")


def expected(store):
    """The pages: each side's lines, as board/stats.py makes them from the history file (a
    fresh import of it: the menu drops the module after use), its six-card games' and then
    its five-card games' (a page each kind it played)."""
    from board import stats

    t = stats.tally(store)
    unload()
    return [stats.lines(t, side, n) for side in range(len(t)) for n in (6, 5)
            if stats.lines(t, side, n)]


def unload():
    """board.stats and cribbage.summary out of sys.modules, as on a board before the menu
    loads them (another test module may have imported them: then they would stay, as they
    do for the live page that holds them)."""
    import board
    import cribbage

    for p, name in ((board, "stats"), (cribbage, "summary")):
        sys.modules.pop(p.__name__ + "." + name, None)
        if hasattr(p, name):
            delattr(p, name)


def page(hw):
    return [line for line in hw["display"].shown if line]


def loaded():
    return [n for n in ("board.stats", "cribbage.summary") if n in sys.modules]


def test_without_history_the_page_says_so():
    hw, app, f = board(display=True)
    f.press(TO_STATS)
    assert "stats" in shown(hw)  # the menu's item
    f.press("#")
    assert app.mode == STATS and app.err is None
    assert page(hw) == ["STATS", "no history yet:", "a game counts", "when it is over", "* back"]
    f.press("A")
    f.press("B")
    assert app.mode == STATS and page(hw)[1] == "no history yet:"
    f.press("*")  # back to the menu, on the same item
    assert app.mode == MENU and MENU_ITEMS[app.item] == "stats" and "stats" in shown(hw)
    f.press("*")
    assert app.mode == NORMAL and "deal: Red" in shown(hw)


def test_pages_through_each_side_and_frees_them_when_left():
    hw, app, f = board(display=True)
    play_game(hw, app, f, seed=4)  # a whole game typed card by card: hands, crib, play
    next_game(f, app)
    peg_out(f)  # a game pegged by hand: Red wins, a double skunk
    next_game(f, app)
    want = expected(app.store)
    assert len(want) == 2 and want[0][0].startswith("Red won ") and "/2" in want[0][0]
    f.press(TO_STATS + "#")
    assert app.mode == STATS and app.err is None
    assert loaded() == []  # the module read the file and left the heap at once
    assert page(hw) == ["STATS 1/2", *want[0], "A/B side * back"]
    assert len(hw["display"].shown) == 8 and all(len(x) <= 16 for x in page(hw))
    f.press("A")
    assert page(hw) == ["STATS 2/2", *want[1], "A/B side * back"]
    f.press("A")  # round again
    assert page(hw)[0] == "STATS 1/2"
    f.press("B")
    assert page(hw)[0] == "STATS 2/2"
    f.press("#")  # OK: the next side too
    assert page(hw)[0] == "STATS 1/2"
    f.press("D")
    assert page(hw)[0] == "STATS 2/2"
    f.press("5")  # a key that means nothing here: said, the page stays
    assert "A/B side" in app.err and app.mode == STATS
    assert "Blue won" in shown(hw)
    f.press("*")
    assert app.mode == MENU and app.e.stats is None  # left: the pages are gone
    f.press("#")  # again: read afresh, from the first side
    assert page(hw)[0] == "STATS 1/2"
    f.hold("*")  # a long press leaves any page for the game, dropping them too
    assert app.mode == NORMAL and app.e.stats is None and loaded() == []
    assert "STATS" not in shown(hw)


def test_every_side_seen_gets_a_page():
    hw, app, f = board(display=True)
    m = known_game()  # a two-player game with its summary, Red won
    history.add(app.store, m, S.dumps(m, DETAIL))
    new_game(f, app, {"players": 3})
    peg_out(f)
    next_game(f, app)
    f.press(TO_STATS + "#")
    want = expected(app.store)
    assert len(want) == 3 and want[2][0] == "Green won 0/1"
    for k in range(3):
        assert page(hw) == ["STATS %d/3" % (k + 1), *want[k], "A/B side * back"]
        f.press("A")
    f.press("B")
    assert page(hw)[0] == "STATS 3/3"


def test_a_side_that_played_five_card_cribbage_gets_a_page_for_it():
    """Six-card and five-card games apart (board/stats.py): Red and Blue played both, a page
    each kind; Green only six-card games, one page."""
    hw, app, f = board(display=True)
    new_game(f, app, {"players": 3})
    peg_out(f)  # six-card, three players
    next_game(f, app)
    new_game(f, app, {"cards": 5})
    m = app.m
    assert m.cards() == 5
    peg_out(f)  # a five-card game pegged by hand
    next_game(f, app)
    assert [history.cards(r) for r in kept(app.store)] == [6, 5]
    want = expected(app.store)
    assert [p[0] for p in want] == ["Red won 1/1", "Red 5-card", "Blue won 0/1",
                                    "Blue 5-card", "Green won 0/1"]
    assert want[1][1] == "won 1/1" and want[3][1] == "won 0/1"
    f.press(TO_STATS + "#")
    for k in range(5):
        assert page(hw) == ["STATS %d/5" % (k + 1), *want[k], "A/B side * back"]
        assert all(len(x) <= 16 for x in page(hw))
        f.press("A")
    assert page(hw)[0] == "STATS 1/5"


def test_a_board_without_a_display_says_no():
    unload()
    hw, app, f = board(display=False)
    f.press(TO_STATS + "#")
    assert app.err == "stats need the display" and app.mode == MENU
    assert loaded() == []


def test_a_history_that_cannot_be_read_is_said():
    hw, app, f = board(display=True)

    def broken(name):
        raise OSError(5, "EIO")

    app.store.open = broken
    unload()
    f.press(TO_STATS + "#")
    assert app.mode == MENU and "history unreadable" in app.err
    assert "board.stats" not in sys.modules


# --- on the real MicroPython binary, from .mpy ----------------------------------------------
# In the heap of tools/budgets.py ("stats": 15 % over what the run needs, a board with the
# display). What the statistics themselves cost is measured: what stays on the heap while the
# pages show, and nothing once they are left.



def test_the_pages_on_micropython(mpy_tree, tmp_path):
    """The history full (64 games, two and three sides, six- and five-card): the board app
    with the fake display opens the pages, turns them and leaves; every page is what CPython
    makes of the same file, and the module and the pages are gone after."""
    folder = tmp_path / "flash"
    folder.mkdir()
    st = Storage(str(folder), None)
    five = M.Match(players=2, target=61, cards=5)  # a five-card game: pages of its own
    five.deal(0)
    for _ in range(5):
        five.peg(0, 13)
    history.add(st, five, S.dumps(five, DETAIL))
    m = known_game()
    body = S.dumps(m, DETAIL)
    for _ in range(KEEP - 2):
        m.games[0] += 1
        history.add(st, m, body)
    hw, app, f = board(display=True)
    new_game(f, app, {"players": 3})
    peg_out(f)
    three = app.m
    history.add(st, three, S.dumps(three, DETAIL))
    want = expected(st)
    assert len(want) == 5 and want[1][0] == "Red 5-card"  # Red, Red 5-card, Blue, ..., Green
    env = dict(os.environ, MICROPYPATH=".")
    import budgets  # tools/budgets.py

    p = subprocess.run([MICROPYTHON, "-X", "heapsize=" + budgets.heap("stats"),
                        os.path.join(ROOT, "host_tests", "mp_stats.py"), str(folder)],
                       cwd=mpy_tree, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    pages = []
    for line in p.stdout.splitlines():
        if line == "PAGE":
            pages.append([])
        elif line.startswith("| "):
            pages[-1].append(line[2:])
    pages = [[x for x in pg if x] for pg in pages]
    assert pages == [["STATS %d/5" % (k + 1), *want[k], "A/B side * back"]
                     for k in range(4)], p.stdout
    (end,) = [x.split() for x in p.stdout.splitlines() if x.startswith("LEFT ")]
    # LEFT mode M stats None modules 0 err None menu F1 pages F2 left F3 again F4 third F5
    assert end[1:9] == ["mode", str(MENU), "stats", "None", "modules", "0", "err", "None"], end
    menu, pages, left, again, third = [int(x) for x in end[10:19:2]]
    # the names interned (qstr pools and their text, on the heap) at menu, pages, left and
    # again: the names stay, and where a new pool of them (7 KB) comes is not the pages' doing
    q_menu, q_pages, q_left, q_again = [int(x.rsplit("n_total_bytes=", 1)[1])
                                        for x in p.stdout.splitlines()
                                        if x.startswith("qstr pool: ")]
    # the pages' lines: 1 KB a page at most (five pages here: three sides, two kinds;
    # measured 3080 bytes, 2024 for three pages of six-card games alone)
    assert menu - pages - (q_pages - q_menu) < 1024 * len(want), end
    # left: the module, the file's reading and the pages are gone; the names the modules
    # brought stay interned (MicroPython's qstrs, about 900 bytes, once)...
    assert left >= menu - (q_left - q_menu) - 1536, end
    assert q_again == q_left and again >= left - 128, end  # ...a second visit no more (a dict
    assert third == again, end  # of modules may grow once), and a third nothing
