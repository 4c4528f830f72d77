"""The core's imports (firmware/cribbage): no import circle, counting imports inside functions
(an import that runs later still makes the modules load each other), and nothing of the board.

Read from the source with ast, not by importing: a circle that happens to load in one order
is still found."""

import ast
import os

from test_board_imports import cycle  # (one circle finder for the board's and the core's)

CORE = os.path.join(os.path.dirname(__file__), "..", "firmware", "cribbage")


def imports(path):
    """The cribbage modules and the top-level packages the file at path imports, anywhere in
    it (module level, functions, methods), as a set of names ("events", "board", ...)."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:  # from . import x / from .x import y
                if mod:
                    out.add(mod.split(".")[0])
                else:
                    out.update(a.name for a in node.names)
            elif mod == "cribbage":  # from cribbage import x
                out.update(a.name for a in node.names)
            elif mod.startswith("cribbage."):
                out.add(mod.split(".")[1])
            else:
                out.add("/" + mod.split(".")[0])  # another package: "/board", "/micropython"
        elif isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                out.add(parts[1] if parts[0] == "cribbage" and len(parts) > 1 else "/" + parts[0])
    return out


def graph(root=CORE):
    """{module: the cribbage modules it imports} for every module in root."""
    g = {}
    for name in sorted(os.listdir(root)):
        if name.endswith(".py") and name != "__init__.py":
            g[name[:-3]] = imports(os.path.join(root, name))
    return g


def test_the_walk_sees_the_engine_imports():
    # a walk that found nothing would pass every test below
    g = graph()
    assert {"events", "game", "score"} <= g["match"]
    assert {"rules", "journal", "events"} <= g["game"]
    assert {"pegging", "events", "cards", "rules"} <= g["play"]
    assert "events" in g["pegging"] and "events" in g["journal"]
    assert "saved1" in g["loadgame"]  # an import inside a function counts
    assert "/micropython" in g["events"]


def test_no_import_circle_in_the_core():
    assert cycle(graph()) is None


def test_the_core_imports_nothing_of_the_board():
    for m, names in graph().items():
        bad = names & {"/board", "/boards", "/tasks", "/version"}
        assert not bad, "cribbage/%s.py imports %s" % (m, sorted(bad))


def test_a_circle_is_found(tmp_path):
    # the check itself can fail: a circle through an import inside a function, and the
    # bottom-of-module import that main had (events -> journal -> events)
    (tmp_path / "a.py").write_text("from .b import x\n")
    (tmp_path / "b.py").write_text("def f():\n    from . import c\n")
    (tmp_path / "c.py").write_text("import cribbage.a\n")
    (tmp_path / "d.py").write_text("from micropython import const\n")
    assert cycle(graph(str(tmp_path))) == ["a", "b", "c", "a"]
    (tmp_path / "c.py").write_text("from board import app\n")
    assert cycle(graph(str(tmp_path))) is None
    (tmp_path / "events.py").write_text("X = 1\nfrom . import journal  # noqa: E402\n")
    (tmp_path / "journal.py").write_text("from .events import X\n")
    assert cycle(graph(str(tmp_path))) == ["events", "journal", "events"]
