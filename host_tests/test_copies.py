"""The private constants copied between firmware modules (issue 33): each copy is listed here
with its home and why it is kept, and held equal to its home; a new copy (the same private
name with the same value in two modules) fails until it is listed, or given one home.

Why copies are kept at all: a name imported is one more interned name on the board for good
(the game's names stand at 602-608 of their pool's 620: the 621st takes a new pool, 7 KB on the
64-bit stand-in), or the import would load a module the board otherwise lets go or never
loads (keytimer.py on a board without the timer's keypad; publish/link.py between calls)."""

import ast

from sourcekit import firmware_sources

# (module, its private, home module, the home's name, why the copy is kept)
KEPT = (
    ("board.later", "_MAX_BYTES", "board.history", "_MAX_BYTES",
     "the history file's bound; a public name in history.py would be one more interned name"),
    ("board.undo", "_MAX_BYTES", "board.history", "_MAX_BYTES", "(the same: issue 30's undo)"),
    ("board.undo", "_UNDONE", "board.history", "_UNDONE",
     "a record's undone flag: the history's module stays small (board/undo.py's docstring)"),
    ("publish.task", "_OVER", "cribbage.events", "OVER",
     "the match's phase over; publish/ does not import cribbage/ (docs/developers.md's layers)"),
    ("publish.link", "_STATE", "publish.task", "_STATE",
     "what run() finds to do, as bits link.tick() does: four names resident for good else"),
    ("publish.link", "_PING", "publish.task", "_PING", "(the same bits)"),
    ("publish.link", "_IO", "publish.task", "_IO", "(the same bits)"),
    ("publish.link", "_LATE", "publish.task", "_LATE", "(the same bits)"),
    ("publish.task", "_PUBACK", "publish.link", "_PUBACK",
     "the answer link.py awaits (pub.ask), read by task.py's run(): link.py is loaded a step"),
    ("board.power", "_WAKE", "board.keytimer", "WAKE",
     "a board without the timer's keypad never loads keytimer.py"),
    ("ota.install", "_DIR", "board.storage", "_DIR",
     "stat()'s S_IFDIR bit, the system's (no module of ours is its home)"),
    ("board.entry", "_SUIT_KEY", "board.modes", "KEYS.index('A')",
     "THE KEY MAP's places: host_tests/test_keymap.py holds them too"),
    ("board.entry", "_BACK_KEY", "board.modes", "KEYS.index('*')", "(the same)"),
    ("board.entry", "_OK_KEY", "board.modes", "KEYS.index('#')", "(the same)"),
    ("board.app", "_BACK_KEY", "board.modes", "KEYS.index('*')", "(the same)"),
    ("cribbage.loadgame", "_HEADER", "cribbage.game", "_HEADER",
     "the saved game's layout: game.py writes it, loadgame.py reads it at power-up and after "
     "a fault only, its code let go after (issue 34: off the game's heap)"),
    ("cribbage.loadgame", "_KEPT", "cribbage.game", "_KEPT", "(the same)"),
    ("cribbage.loadgame", "_SHOWING", "cribbage.game", "_SHOWING", "(the same)"),
    ("board.boot", "_REC", "board.render", "_REC",
     "the saved frame's layout: render.py writes it (dumps), boot.py reads it at power-up "
     "(loads), its code let go after (issue 34: off the game's heap)"),
    ("board.boot", "_REC_MAGIC", "board.render", "_REC_MAGIC", "(the same)"),
    ("board.boot", "_MAX_SIDES", "board.render", "_MAX_SIDES", "(the same: the View's sizes)"),
    ("board.boot", "_MAX_MARKS", "board.render", "_MAX_MARKS", "(the same)"),
)

# Copies of a length no module names: outbox.mark()'s (test_names_the_publisher_and_the_outbox_share
# holds them equal to it). A name for it in outbox.py would be loaded with the outbox each time.
MARKS = {("publish.names", "_MARK"), ("publish.nights", "_MARK")}

# The same private name and value in two modules by chance: not a copy of one thing
UNRELATED = {("_VERSION", 1)}  # board/modes.py's message kind; cribbage/loadgame.py's refusal


def _value(home, name):
    mod = __import__(home, fromlist=["_"])
    if name.startswith("KEYS.index("):
        return mod.KEYS.index(name[len("KEYS.index('"):-2])
    return getattr(mod, name)


def test_each_kept_copy_equals_its_home():
    for module, private, home, name, _why in KEPT:
        mod = __import__(module, fromlist=["_"])
        assert getattr(mod, private) == _value(home, name), (module, private, home, name)


def test_names_the_publisher_and_the_outbox_share():
    """publish/names.py and nights.py read publish/outbox.py's MARK, the length of its mark()
    (its hex): each file keeps a line per game, the game's mark first. (They kept a copy,
    _MARK, until 0.7.0's memory table: one name on the club's path, not the game's.)"""
    from publish import names, nights, outbox

    assert len(outbox.mark(bytes(range(40)))) == outbox.MARK == names.MARK == nights.MARK
    assert not hasattr(names, "_MARK") and not hasattr(nights, "_MARK")


def private_consts():
    """{(name, value): [modules]} of every `_NAME = const(value)` at a firmware module's top."""
    found = {}
    for rel, _path, src in firmware_sources():
        module = rel[:-3].replace("/", ".")
        for node in ast.parse(src).body:
            if (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)
                    and node.targets[0].id.startswith("_")
                    and isinstance(node.value, ast.Call)
                    and getattr(node.value.func, "id", "") == "const"):
                try:
                    value = ast.literal_eval(node.value.args[0])
                except ValueError:
                    continue
                found.setdefault((node.targets[0].id, value), []).append(module)
    return found


def test_every_copy_is_listed():
    listed = {(m, p) for m, p, h, n, _w in KEPT} | {(h, n) for m, p, h, n, _w in KEPT} | MARKS
    for (name, value), modules in private_consts().items():
        if len(modules) < 2 or (name, value) in UNRELATED:
            continue
        for module in modules:
            assert (module, name) in listed, "%s copied in %s: list it in KEPT, or give it " \
                "one home" % (name, ", ".join(modules))


def test_the_finder_sees_a_copy():
    found = private_consts()
    assert sorted(found[("_MAX_BYTES", 8192)]) == ["board.history", "board.later", "board.undo"]
    assert ("_OVER", 4) in found and ("_VERSION", 1) in found
