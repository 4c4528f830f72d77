"""No module outside the engine reaches a Match's private fields or methods (its where-table
_where, _replay, _ev, ...): the summary, the board, the live page and the tools read a game
through public calls (Match.replay, Match.committed, the Match's attributes).

The engine is match.py and the modules of the Match's parts (game: the journal's undo and
redo, and its saves; play, rules: the state; journal; pegging; events; saved1). Inside it, no
module reaches another's private either: test_privates.py, the stricter rule for all of firmware/.
Read from the source with ast: any `x._name` where _name is a private of the Match, except
on `self` (a module's own class: render.py's _n is its own)."""

import ast
import os

ROOT = os.path.join(os.path.dirname(__file__), "..")
CORE = os.path.join(ROOT, "firmware", "cribbage")
ENGINE = ("match", "game", "play", "rules", "events", "journal", "pegging", "saved1")


def _tree(path):
    with open(path) as f:
        return ast.parse(f.read(), path)


def match_privates(core=CORE):
    """The private names of a Match: its class body's, and every self._x / m._x the engine's
    modules use."""
    out = set()
    for name in ENGINE:
        tree = _tree(os.path.join(core, name + ".py"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in ("self", "m"):
                out.add(node.attr)
            if isinstance(node, ast.ClassDef) and node.name in ("Match", "Game", "Play", "Rules"):
                for b in node.body:
                    if isinstance(b, ast.FunctionDef):
                        out.add(b.name)
                    elif isinstance(b, ast.Assign):
                        out.update(t.id for t in b.targets if isinstance(t, ast.Name))
    return {n for n in out if n.startswith("_") and not n.startswith("__")}


def reaches(path, private):
    """Where the file at path reaches one of `private` on anything but self: [(line, text)]."""
    out = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Attribute) and node.attr in private and not (
                isinstance(node.value, ast.Name) and node.value.id == "self"):
            out.append((node.lineno, ast.unparse(node)))
    return out


def outside_the_engine():
    """Every .py of firmware/ and tools/ but the engine's own modules."""
    for top in ("firmware", "tools"):
        for folder, _dirs, files in os.walk(os.path.join(ROOT, top)):
            for f in sorted(files):
                path = os.path.join(folder, f)
                if not f.endswith(".py") or (os.path.samefile(folder, CORE) and f[:-3] in ENGINE):
                    continue
                yield os.path.relpath(path, ROOT), path


def test_the_privates_are_found():
    # a walk that found none would pass below
    private = match_privates()
    assert {"_where", "_replay", "_ev", "_fg", "_plays", "_new_deal", "_last_player"} <= private
    assert "restore" not in private and "__init__" not in private


def test_nothing_outside_the_engine_reaches_a_match_private():
    private = match_privates()
    found = []
    n = 0
    for rel, path in outside_the_engine():
        n += 1
        found += ["%s:%d %s" % ((rel,) + hit) for hit in reaches(path, private)]
    assert n > 40  # firmware/board, boards, the rest of cribbage, tools
    assert not found, found


def test_a_reach_is_found(tmp_path):
    # the check itself can fail: a reader reaching the where-table and the replay, and self
    # is no Match
    p = tmp_path / "x.py"
    p.write_text("def f(m):\n    if m._fg:\n        return m._where[:m._replay(0)]\n"
                 "class R:\n    def g(self):\n        return self._where\n")
    assert [t for _, t in reaches(str(p), match_privates())] == ["m._fg", "m._where", "m._replay"]


# The Journal's fields (cribbage/journal.py) that its owner sets itself, not through a method
# (a method is ~0.15 KB of the game's heap for good on the board, issue 34): only the Match's
# own modules may, game.py (undo's and redo's end, showing) and loadgame.py (a save's events).
JOURNAL_WRITERS = ("cribbage/journal.py", "cribbage/game.py", "cribbage/loadgame.py")


def journal_writes(path):
    """Where the file at path assigns a field of a journal (`log.x = ...`, `m.log.x += ...`,
    `log.j[i] = ...` included): [(line, target)]."""
    out = []
    for node in ast.walk(_tree(path)):
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        for t in targets:
            for part in ast.walk(t):
                v = part.value if isinstance(part, (ast.Attribute, ast.Subscript)) else None
                if isinstance(part, ast.Attribute) and (
                        (isinstance(v, ast.Name) and v.id == "log")
                        or (isinstance(v, ast.Attribute) and v.attr == "log")):
                    out.append((node.lineno, ast.unparse(t)))
                    break
    return out


def test_only_the_match_writes_its_journal():
    found = []
    n = 0
    for top in ("firmware", "tools"):
        for folder, _dirs, files in os.walk(os.path.join(ROOT, top)):
            for f in sorted(files):
                path = os.path.join(folder, f)
                rel = os.path.relpath(path, os.path.join(ROOT, "firmware")).replace(os.sep, "/")
                if f.endswith(".py") and rel not in JOURNAL_WRITERS:
                    n += 1
                    found += ["%s:%d %s" % ((rel,) + hit) for hit in journal_writes(path)]
    assert n > 40
    assert not found, found


def test_a_journal_write_is_found(tmp_path):
    p = tmp_path / "x.py"
    p.write_text("def f(m, log):\n    log.end = 3\n    m.log.showing = True\n"
                 "    m.log.j[0] = 1\n    log.top += 1\n    x = log.end\n    m.end = 2\n")
    assert [t for _, t in journal_writes(str(p))] == [
        "log.end", "m.log.showing", "m.log.j[0]", "log.top"]
