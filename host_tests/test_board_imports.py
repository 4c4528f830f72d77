"""The board's modules import one way (issue 21): no import circle inside firmware/board,
counting the imports inside functions (a lazy import is still a dependency), so each module
can be read, loaded and tested with only what is below it."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARD = os.path.join(ROOT, "firmware", "board")


def imports(path, package="board"):
    """The board.* modules the file at path imports, anywhere in it (top level or inside a
    function or a try), as module names ("board.text")."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith(package + "."):
                    out.add(a.name)
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if mod == package:  # from board import entry, state
                for a in node.names:
                    out.add(package + "." + a.name)
            elif mod.startswith(package + "."):
                out.add(mod)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(
                node.func, "attr", None)) in ("load", "passing"):  # board/fault.py's loader
            out.update(a.value for a in node.args[:2]  # (a module by its name: an import)
                       if isinstance(a, ast.Constant) and str(a.value).startswith(package + "."))
    return out


def graph(folder=BOARD, package="board"):
    """{module: the package's modules it imports} for every module in folder."""
    g = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            mod = package + "." + name[:-3]
            g[mod] = imports(os.path.join(folder, name), package) - {mod}
    return g


def cycle(g):
    """One import circle of g as a list of modules (first == last), or None."""
    state = {}  # module -> 1 on the path being walked, 2 done
    path = []

    def walk(mod):
        state[mod] = 1
        path.append(mod)
        for nxt in sorted(g.get(mod, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = walk(nxt)
                if found:
                    return found
        path.pop()
        state[mod] = 2
        return None

    for mod in sorted(g):
        if mod not in state:
            found = walk(mod)
            if found:
                return found
    return None


def test_no_import_circle_inside_the_board():
    g = graph()
    assert "board.app" in g and "board.menu" in g["board.entry"]  # (it reads real imports)
    found = cycle(g)
    assert found is None, "import circle: " + " -> ".join(found)


def test_the_finder_sees_a_circle_made_through_a_lazy_import(tmp_path):
    """The checker itself: a circle closed by an import inside a function is found."""
    (tmp_path / "a.py").write_text("from board.b import x\n")
    (tmp_path / "b.py").write_text("def f():\n    from board import a\n    return a\n")
    (tmp_path / "c.py").write_text("import board.a\n")
    g = graph(str(tmp_path))
    assert g == {"board.a": {"board.b"}, "board.b": {"board.a"}, "board.c": {"board.a"}}
    assert cycle(g) == ["board.a", "board.b", "board.a"]
    del g["board.b"]
    assert cycle(g) is None


def test_the_page_and_the_tasks_sit_above_the_app():
    """Only the wiring that starts the tasks knows both the app and the page: the app
    imports neither the page (page/), the club's publisher (publish/) nor the tasks; the
    page and the publisher never import the app (it is handed in)."""
    g = graph()
    app = os.path.join(BOARD, "app.py")
    assert "board.tasks" not in g["board.app"]
    assert not imports(app, "page") and not imports(app, "publish")
    for part in ("page", "publish"):
        folder = os.path.join(ROOT, "firmware", part)
        for name in os.listdir(folder):
            if name.endswith(".py"):
                assert "board.app" not in imports(os.path.join(folder, name)), (part, name)
    assert "board.app" in g["board.tasks"]


def test_no_import_circle_in_the_optional_parts():
    """The page's modules (page/) and the club publisher's (publish/) import one way too."""
    for part in ("page", "publish"):
        g = graph(os.path.join(ROOT, "firmware", part), part)
        assert len(g) >= 5 and cycle(g) is None, (part, cycle(g))
