"""One way in (issue 21): every input becomes one command (board/modes.py) that App alone
applies. No module of the firmware but the App's own (board/app.py, board/commands.py)
assigns to the app: the helpers (entry,
menu, state, text, fault, boot) and the page return a command, a refusal or a view, and the
page gives its commands through App.apply, the door. Checked on the source (AST), and on the
app: the page's new game is the menu's, through the same door."""

import ast
import os

import pytest

from boardkit import board
from sourcekit import ROOT, FIRMWARE, firmware_sources
from board.modes import (REFUSE, CALL, MODE, SAY, NEW_GAME, MENU, NORMAL, NOTHING, EDIT,
                         MSG_TEXT, MSG_PLAYER, MSG_PEGGED, VERSION_MSG, message)
from board.commands import shown

# the App's own modules: board/app.py and its table of command handlers (issue 33's split)
APP_OWN = {os.path.join(FIRMWARE, "board", f) for f in ("app.py", "commands.py")}


def app_writes(source, name="<src>"):
    """(line, what) for each assignment to an attribute of the app in source: `app.x = ...`,
    `app.x += ...`, `self.app.x = ...`, `web.app.x = ...`, `del app.x`, setattr(app, ...)."""
    out = []

    def is_app(node):
        return (isinstance(node, ast.Name) and node.id == "app") or \
            (isinstance(node, ast.Attribute) and node.attr == "app")

    def target(t, line):
        if isinstance(t, (ast.Tuple, ast.List)):
            for x in t.elts:
                target(x, line)
        elif isinstance(t, ast.Attribute) and is_app(t.value):
            out.append((line, "app." + t.attr))

    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                target(t, node.lineno)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            target(node.target, node.lineno)
        elif isinstance(node, ast.Delete):
            for t in node.targets:
                target(t, node.lineno)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("setattr", "delattr") and node.args and is_app(node.args[0])):
            out.append((node.lineno, node.func.id + "(app)"))
    return sorted(out)


# The one write allowed outside them, with why: ota/order.py makes the app's slot for an
# update's order at the first order (app.ota), so that the order outlives the module, let go
# after each call. A slot made by App itself is one more interned name on every board: on the
# ESP32's game after game it was the 621st name, whose new pool took the five-player run from
# ~93.6 to ~99.8 KB of the budget's 96 (2026-11-28). Its changes go through App.apply.
ALLOWED = {("firmware/ota/order.py", "app.ota")}


def test_no_module_but_the_app_assigns_to_the_app():
    found = []
    for _rel, path, source in firmware_sources():
        if path not in APP_OWN:
            for line, what in app_writes(source, path):
                if (os.path.relpath(path, ROOT), what) not in ALLOWED:
                    found.append("%s:%d %s" % (os.path.relpath(path, ROOT), line, what))
    assert found == []


def test_the_allowance_is_used():
    """Each allowed write is still made (an allowance nothing needs is taken back)."""
    made = set()
    for _rel, path, source in firmware_sources():
        made.update((os.path.relpath(path, ROOT), w) for _line, w in app_writes(source, path))
    assert made >= ALLOWED


def test_the_checker_sees_each_way_of_writing_to_the_app():
    src = ("app.mode = 1\napp.changes += 1\nself.app.broken = True\nweb.app.msg = 'x'\n"
           "a, app.pen = 1, 2\nsetattr(app, 'x', 1)\ndel app.err\n"
           "app.view.dirty = True\napp.e.num = 3\nx = app.mode\n")  # (the last three: not)
    assert [w for _, w in app_writes(src)] == [
        "app.mode", "app.changes", "app.broken", "app.msg", "app.pen", "setattr(app)", "app.err"]


def test_a_key_handler_always_returns_a_command():
    """board/entry.py and board/menu.py: a command (a tuple, its first item an op of
    board/modes.py) for every key, whatever the state: never None nor a bare string."""
    from board import entry
    from board.menu import menu_key, penalty_key

    hw, app, f = board(display=True)
    got = []
    for keys in ("", "#", "5", "5C", "1", "12", "D", "DA", "DB#"):
        f.press(keys)
        v = shown(app)  # (what they read: the View, the app's snapshot)
        for d in range(10):  # (a digit's, a letter's, a suit's and back's: entry.key's own
            got.append(entry.key(v, str(d)))  # since issue 34, not functions apart)
            app.e.clear()
        for name in "ABCD":
            got.append(entry.key(v, name))  # a letter
            app.e.num = 5
            got.append(entry.key(v, name))  # a suit after a rank
            app.e.clear()
            got.append(menu_key(v, name))
            got.append(penalty_key(v, name))
            app.e.clear()
        got.append(entry.ok(v))
        got.append(entry.key(v, "*"))  # back
        got.append(entry.follow(v))
        f.press("*")
    assert all(isinstance(c, tuple) and isinstance(c[0], int) for c in got), got
    kinds = {c[0] for c in got}
    assert {NOTHING[0], REFUSE, CALL, MODE, SAY, EDIT} <= kinds, kinds


def test_the_message_has_one_shape():
    """app.msg is (kind, a, b) whatever said it: the version at power-up, a player picked, a
    peg, a text."""
    hw, app, f = board(display=True)
    seen = [app.msg]
    assert app.msg == VERSION_MSG
    f.press("A")
    seen.append(app.msg)
    assert app.msg == (MSG_PLAYER, 1, 0)
    f.press("A")
    f.press("7#")  # a plain peg of 7 for the seat chosen (Red)
    seen.append(app.msg)
    assert app.msg[0] == MSG_PEGGED and app.msg[1:] == (0, 7)
    f.hold("*")  # undone
    seen.append(app.msg)
    assert app.msg == message("undone") and app.msg[0] == MSG_TEXT
    assert all(isinstance(m, tuple) and len(m) == 3 for m in seen)


def test_the_pages_new_game_is_the_menus():
    """The same game after the menu's new game (D, OK, OK) and after the page's
    (App.apply((NEW_GAME,))): the same display, the same LEDs, the same save."""
    got = []
    for page in (False, True):
        hw, app, f = board(display=True)
        f.press("#5C")
        f.press("5A")  # a game on: the menu asks OK twice
        if page:
            app.apply((NEW_GAME,))
        else:
            f.press("D##")  # menu item 1, new game: OK twice with a game on
        f.run(200)
        got.append((app.m.dumps(), app.msg, app.mode, app.lines(), bytes(hw["strip"].buf)))
    assert got[0] == got[1]
    assert got[1][2] == NORMAL and got[1][0] != b""


def test_a_command_from_outside_is_applied_as_a_keys():
    """The door: a refusal is said as a key's is, a mode change opens the menu, a note (SAY)
    leaves the error line as it is; NOTHING does nothing."""
    hw, app, f = board(display=True)
    before = app.m.dumps()
    app.apply((REFUSE, "no such thing"))
    assert app.err == "no such thing" and app.m.dumps() == before
    app.apply((SAY, message("hello")))
    assert app.err == "no such thing" and app.msg == message("hello")
    app.apply((MODE, MENU, 2))
    assert app.mode == MENU and app.item == 2 and app.err is None
    f.run(20)
    assert any(line.startswith("MENU 3/") for line in hw["display"].shown)
    changes = app.changes
    app.apply(NOTHING)
    assert app.mode == MENU and app.changes == changes + 1 and app.m.dumps() == before


def test_a_command_the_app_does_not_know_is_a_fault_it_handles():
    """Nothing raised to the page: the app says the fault and the game is kept."""
    hw, app, f = board(display=True)
    f.press("#5C")
    before = app.m.dumps()
    app.apply((99,))
    assert app.err is not None and "fault" in app.err and app.m.dumps() == before


@pytest.mark.parametrize("name", ["board/state.py", "board/text.py", "board/web.py"])
def test_the_checker_would_catch_what_these_modules_did_before(name):
    """The writes issue 21 found (state.update's app.count_at, text's app.redraw_at, the
    page's app.broken) are of the kinds the checker sees."""
    old = {"board/state.py": "def update(app):\n    app.count_at = app.now\n",
           "board/text.py": "def lines(app):\n    app.redraw_at = 5\n",
           "board/web.py": "def f(self):\n    self.app.broken = True\n"}[name]
    assert len(app_writes(old)) == 1


def test_the_page_uses_only_the_apps_public_calls():
    """The page (page/) reads the app and gives it commands through App.apply: no private
    name of the app (app._done, ...), no app.recover (a page's fault never takes the game's
    fault path), no state.update of its own."""
    trees = []
    for name in sorted(os.listdir(os.path.join(FIRMWARE, "page"))):
        if name.endswith(".py"):
            with open(os.path.join(FIRMWARE, "page", name)) as f:
                trees.append(ast.parse(f.read()))
    used = set()
    for node in (n for tree in trees for n in ast.walk(tree)):
        if isinstance(node, ast.Attribute) and (
                (isinstance(node.value, ast.Name) and node.value.id == "app")
                or (isinstance(node.value, ast.Attribute) and node.value.attr == "app")):
            used.add(node.attr)
        if isinstance(node, ast.ImportFrom) and node.module == "board":
            assert "state" not in {a.name for a in node.names}
    assert used and "apply" in used
    assert not {a for a in used if a.startswith("_")} and "recover" not in used, used
