"""The App owns what the user sees (issue 33): the typed entry (app.e) and the View (app.view)
change only inside the App's own modules (board/app.py, and board/commands.py: its table of
command handlers and the View's fill); the key handlers
(board/entry.py, board/menu.py) read the View (the snapshot the app fills) and return
commands, writing nothing they were passed; the modules that draw or report read the View or
the game, never the app. Checked on the source (AST: each checker also shown catching what
the code did before), and at run time (a key handler, called in many states, changes
nothing)."""

import ast
import os

import pytest

from boardkit import board
from board import entry
from board.modes import EDIT, NOTHING, REFUSE, CALL, MODE, SAY
from sourcekit import FIRMWARE, firmware_sources
from board.commands import shown

# the App's own modules: board/app.py and its table of command handlers with the View's fill
APP_OWN = ("board/app.py", "board/commands.py")

# Mutating methods: a call of one on what a function was passed (or on the entry, the View)
# changes it as an assignment would.
MUTATORS = {"append", "clear", "pop", "extend", "insert", "remove", "sort", "reverse",
            "update", "set", "step", "setdefault", "popitem"}


def root(node):
    """The name an attribute, subscript or call chain starts from (app.e.cards[0] -> app), or
    None."""
    while True:
        if isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Name):
            return node.id
        else:
            return None


def writes(tree, tainted_at):
    """(line, what) for each write to something tainted: an assignment (=, +=, del) to an
    attribute or item of it, a mutating method called on it, setattr(it, ...). tainted_at(node,
    names) says whether an expression is tainted, names being the tainted local names of the
    function (or module) it is in; a local name bound to a tainted expression is tainted."""
    out = []

    def visit(body_nodes, names):
        names = set(names)
        for node in body_nodes:
            for sub in ast.walk(node):
                if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(
                        sub.targets[0], ast.Name) and tainted_at(sub.value, names):
                    names.add(sub.targets[0].id)  # an alias: e = app.e, cards = e.cards
        for node in body_nodes:
            for sub in ast.walk(node):
                targets = ()
                if isinstance(sub, ast.Assign):
                    targets = sub.targets
                elif isinstance(sub, (ast.AugAssign, ast.AnnAssign)):
                    targets = (sub.target,)
                elif isinstance(sub, ast.Delete):
                    targets = sub.targets
                for t in targets:
                    for x in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else (t,)):
                        if isinstance(x, (ast.Attribute, ast.Subscript)) and tainted_at(
                                x.value, names):
                            out.append((sub.lineno, ast.unparse(x)))
                if isinstance(sub, ast.Call):
                    f = sub.func
                    if isinstance(f, ast.Attribute) and f.attr in MUTATORS and tainted_at(
                            f.value, names):
                        out.append((sub.lineno, ast.unparse(f) + "()"))
                    if (isinstance(f, ast.Name) and f.id in ("setattr", "delattr") and sub.args
                            and tainted_at(sub.args[0], names)):
                        out.append((sub.lineno, f.id + "(" + ast.unparse(sub.args[0]) + ")"))
        return out

    return visit


# --- 1. no module but the App's own writes the entry or the View ---------------------------------

# what stays, and why
ENTRY_OR_VIEW_EXCEPTIONS = {
    # the renderer takes the app's mark that the view changed (Renderer.maybe: it draws only
    # when dirty, then clears it): a handshake on one flag, not a field of what is shown
    ("board/render.py", "view.dirty"),
}


def entry_or_view_writes(source, name="<src>"):
    """(line, what) for each write to the entry or the View: through an attribute .e or
    .view (app.e.num = 1, self.app.view.dirty = True), a local name bound to one (e = app.e;
    e.num = 1; cards = e.cards; cards.append(c)), or a function's parameter named v or view
    (a reader of the View)."""
    tree = ast.parse(source, name)

    def tainted(node, names):
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            if isinstance(node, ast.Attribute) and node.attr in ("e", "view"):
                return True
            node = node.value
        return isinstance(node, ast.Name) and node.id in names

    found = []
    funcs = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef,
                                                         ast.AsyncFunctionDef))]
    for fn in funcs:
        params = {a.arg for a in fn.args.args + fn.args.kwonlyargs} & {"v", "view"}
        found += writes(tree, tainted)(fn.body, params)
    found += writes(tree, tainted)(
        [n for n in tree.body if not isinstance(n, (ast.FunctionDef, ast.ClassDef))], ())
    return sorted(set(found))


def test_no_module_but_the_app_writes_the_entry_or_the_view():
    found = []
    for path, _file, src in firmware_sources():
        if path in APP_OWN:
            continue
        for line, what in entry_or_view_writes(src, path):
            if (path, what) not in ENTRY_OR_VIEW_EXCEPTIONS:
                found.append("%s:%d %s" % (path, line, what))
    assert found == []


def test_the_entry_and_view_checker_sees_what_the_modules_did_before():
    """board/entry.py's digit(), board/state.py's update() and board/menu.py's menu_key()
    before issue 33 (their first writes): each is caught."""
    before = {
        "entry": "def digit(app, d):\n    e = app.e\n    e.num = d\n    e.ndig = 1\n",
        "suit": "def suit(app, s):\n    cards = app.e.cards\n    cards.append(s)\n",
        "state": "def update(app):\n    v = app.view\n    v.sides = 2\n    v.marks[0] = 1\n",
        "menu": "def menu_key(app, name):\n    app.e.clear()\n    app.e.asked = False\n",
        "reader": "def lines(v):\n    v.dirty = True\n",
        "setattr": "def f(app):\n    setattr(app.e, 'num', 1)\n",
    }
    got = {k: [w for _, w in entry_or_view_writes(src)] for k, src in before.items()}
    assert got == {"entry": ["e.num", "e.ndig"], "suit": ["cards.append()"],
                   "state": ["v.sides", "v.marks[0]"], "menu": ["app.e.clear()", "app.e.asked"],
                   "reader": ["v.dirty"], "setattr": ["setattr(app.e)"]}
    assert entry_or_view_writes("def f(app):\n    e = app.e\n    x = e.num\n    n = [e.num]\n"
                                "    n.append(1)\n    print(len(e.cards))\n") == []


# --- 2. key handlers (and the readers) assign to nothing they were passed -----------------

# the key handlers, and the modules that draw or report from the View or the game
READERS = ("board/entry.py", "board/menu.py", "board/text.py",
           "board/menutext.py", "board/screen.py")


# parameters that are given to be filled, and why
FILLED = {
    # board/menutext.py's page(v, out): the display's lines board/text.py's lines() is
    # building (a list of its own, not the app's), handed on for a menu page's lines
    "out",
}


def param_writes(source, name="<src>"):
    """(line, what) for each write, in a module-level function, to what the function was
    passed (or to a local name bound to it: e = v.e; m = v.m), but FILLED."""
    tree = ast.parse(source, name)

    def tainted(node, names):
        return root(node) in names

    found = []
    for fn in tree.body:  # (module-level functions: the Entry class's own methods are its)
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            params = {a.arg for a in fn.args.args + fn.args.kwonlyargs} - FILLED
            if fn.args.vararg:
                params.add(fn.args.vararg.arg)
            found += writes(tree, tainted)(fn.body, params)
    return sorted(set(found))


@pytest.mark.parametrize("path", READERS)
def test_a_key_handler_or_reader_assigns_to_nothing_it_was_passed(path):
    with open(os.path.join(FIRMWARE, path)) as f:
        assert param_writes(f.read(), path) == []


def test_the_parameter_checker_sees_what_the_handlers_did_before():
    """What board/entry.py's letter() and board/menu.py's menu_key() did before issue 33:
    the entry changed in place, a setting set by the key handler itself."""
    before = ("def letter(app, name):\n    e = app.e\n    e.seat = (e.seat + 1) % 2\n"
              "    e.cards.clear()\n    return NOTHING\n"
              "def menu_key(app, name):\n    app.cfg.set('game', 61)\n"
              "def back(v):\n    v.e.cards.pop()\n")
    assert [w for _, w in param_writes(before)] == [
        "e.seat", "e.cards.clear()", "app.cfg.set()", "v.e.cards.pop()"]
    assert param_writes("def f(v):\n    cards = []\n    v.m.played_cards(0, cards)\n"
                        "    cards.append(1)\n    return (EDIT, NOTHING, 'cards', cards)\n") \
        == []


# --- 3. no module but the App's own takes the App ------------------------------------------

# what still takes the app, and why
TAKES_THE_APP = {
    # the asyncio wiring: it sits above the app (starts it, its tasks, the page's and the
    # club's), the one module that knows both
    "board/tasks.py": "wiring",
    # the live page and the club's publisher (the optional parts, page/ and publish/): they
    # read the app through its public calls and give commands through App.apply
    # (test_board_door.py's test_the_page_uses_only_the_apps_public_calls)
    "page/routes.py": "the page",
    "page/pin.py": "the page's PIN (the display shows it: app.say)",
    "page/writes.py": "the page's writes (a new game through App.apply)",
    "page/rows.py": "what the page makes for a request (the game's deals, the app's store)",
    "publish/task.py": "the club's publisher",
    "publish/link.py": "the club's connection: the publisher's state (pub.app)",
    "publish/packets.py": "the club's messages: the game and state they carry (pub.app)",
    "publish/message.py": "a game's message: its names, night and counter, files in the app's "
                          "store (pub.app.store)",
    "publish/outbox.py": "the look: the games the history has still to send, a file in the "
                         "app's store (pub.app.store)",
    "publish/nights.py": "the night each waiting game ended in: a file in the app's store "
                         "(pub.app.store)",
    "publish/says.py": "the club's message: the highest counter taken, a file in the app's "
                       "store (pub.app.store)",
    "board/snapshot.py": "the page's and the club's state (snapshot(app))",
    # the power states (issue 32): their task sits beside the app (its keys' activity, the
    # display to sleep, the renderer's brightness); they change what shows only through
    # App.powered and App.apply
    "board/power.py": "the power states",
    # the updater (issue 31): whether the board is between games, and the faults a new
    # version on trial has had
    "ota/install.py": "can_install(app): between games only",
    "ota/trial.py": "the trial watches the app's faults and first frame",
    "ota/order.py": "an update waits for the app's game to end, says so on its display and "
                    "keeps its order on the app (what its state message says)",
}


def takes_the_app(source, name="<src>"):
    """(line, what) for each place a module takes the app: a function parameter named app,
    an attribute .app read or set."""
    out = []
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for a in node.args.args + node.args.kwonlyargs:
                if a.arg == "app":
                    out.append((node.lineno, "param app"))
        elif isinstance(node, ast.Attribute) and node.attr == "app":
            out.append((node.lineno, ast.unparse(node)))
    return sorted(set(out))


def test_no_module_but_the_apps_own_takes_the_app():
    found = []
    for path, _file, src in firmware_sources():
        if path in APP_OWN or path in TAKES_THE_APP:
            continue
        for line, what in takes_the_app(src, path):
            found.append("%s:%d %s" % (path, line, what))
    assert found == []


def test_the_app_checker_sees_what_the_modules_did_before():
    """board/text.py's lines(app), board/history.py's record_game(app) and a pub.app."""
    src = ("def lines(app):\n    return app.m\n"
           "def record_game(app):\n    app.refuse('x')\n"
           "def f(pub):\n    return pub.app.store\n")
    assert [w for _, w in takes_the_app(src)] == ["param app", "param app", "pub.app"]


def test_the_exceptions_still_take_the_app():
    """An exception that no longer takes the app is dropped from the list (it would hide a
    new one)."""
    for path in TAKES_THE_APP:
        with open(os.path.join(FIRMWARE, path)) as f:
            assert takes_the_app(f.read(), path), path


# --- at run time: a key handler changes nothing -----------------------------------------


def state_of(app):
    """What a key handler could change: the entry's fields (lists copied), the app's mode,
    item, kind of penalty, message and error, the game's state, the settings."""
    e = {k: (list(v) if isinstance(v, list) else v) for k, v in vars(app.e).items()}
    return (e, app.mode, app.item, app.pen, app.msg, app.err, app.m.state(), app.cfg.dumps(),
            app.changes)


@pytest.mark.parametrize("display", [True, False])
def test_a_key_handler_changes_nothing_it_only_returns_a_command(display):
    """Through a game, the menu, the penalty entry, the advisor and the statistics: before
    each key, every key's meaning is asked (entry.key on the app's View) and nothing
    changes; the key pressed then does what its command says."""
    hw, app, f = board(display=display)
    script = ("#", "5C", "1", "2", "D", "A", "5", "*", "D", "BBB", "A", "C", "*", "*", "5A",
              "3B", "A", "#", "C", "DBBBB", "#", "*", "*", "DBB", "#", "1A2A3A4A5A", "A",
              "*", "*", "DBBBBBB", "#", "*", "*")
    kinds = set()
    for keys in script:
        for k in keys:
            before = state_of(app)
            for name in "0123456789ABCD#*":
                call = entry.key(shown(app), name)
                assert isinstance(call, tuple) and isinstance(call[0], int), call
                kinds.add(call[0])
                assert state_of(app) == before, (keys, k, name)
            f.press(k)
    assert {EDIT, REFUSE, CALL, MODE, SAY} <= kinds, kinds


def test_an_edit_sets_the_entrys_fields_in_order_then_applies_its_command():
    hw, app, f = board(display=True)
    f.press("#")  # dealt: the starter is wanted
    app.apply((EDIT, NOTHING, "num", 5, "ndig", 1))
    assert app.e.num == 5 and app.e.ndig == 1 and app.lines()[-1].startswith("> 5")
    app.apply((EDIT, (EDIT, NOTHING, "cards", (3, 7)), "clear", 0, "seat", 1))
    assert app.e.num == -1 and app.e.cards == [3, 7] and app.e.seat == 1
    cards = app.e.cards
    app.apply((EDIT, NOTHING, "cards", ()))
    assert app.e.cards == [] and app.e.cards is cards  # (emptied in place)
