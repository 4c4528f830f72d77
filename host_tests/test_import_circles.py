"""No import circle anywhere in the repository (issue 33): firmware/, tools/ (its packages club/,
sim/, pcb/ and its job folders' scripts, maker/, bench/...) and host_tests/, and between them,
counting the imports inside functions (a lazy import is still a dependency).

Read from the source with ast, not by importing: a circle that happens to load in one order is
still found. A module is a file; an import name is found as Python finds it from the tests'
sys.path (pyproject.toml's pythonpath, in its order: a tool imports firmware's `cribbage.score`,
a test imports `clubkit` or `club.service`), and importing a.b.c loads a and a.b too. What is
not a file of the repository (the standard library, MicroPython's own, packages installed) is
left out; so are imports by a computed name (`__import__("hw." + name)`). The board's
and the core's own finer checks are test_board_imports.py and test_core_imports.py."""

import ast
import os

try:
    import tomllib
except ImportError:  # Python 3.10 (as tools/hostenv.py)
    import tomli as tomllib  # type: ignore[no-redef]

from sourcekit import ROOT
from test_board_imports import cycle  # (one circle finder for all the import tests)


def _pythonpath():
    """pyproject.toml's [tool.pytest.ini_options] pythonpath, in its order."""
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tuple(tomllib.load(f)["tool"]["pytest"]["ini_options"]["pythonpath"])


PATH = _pythonpath()
TREES = ("firmware", "tools", "host_tests")


def find(name, path):
    """The files importing the dotted name loads (a's, a.b's, a.b.c's: regular packages'
    __init__.py and the module), as paths relative to the repository, found as Python finds
    them: at each step a module or a package with __init__.py in the first folder that has
    one, else a namespace package (firmware/'s folders: no __init__.py) spanning every folder
    of the name; [] when the name is no file here."""
    out = []
    folders = list(path)
    for part in name.split("."):
        for folder in folders:
            base = os.path.join(folder, part)
            init = os.path.join(base, "__init__.py")
            if os.path.isfile(os.path.join(ROOT, init)):
                out.append(init)
                folders = [base]
                break
            if os.path.isfile(os.path.join(ROOT, base + ".py")):
                out.append(base + ".py")
                folders = []
                break
        else:
            folders = [os.path.join(f, part) for f in folders
                       if os.path.isdir(os.path.join(ROOT, f, part))]
        if not folders:
            break  # (a module, or a name imported from one: from a.b import func)
    return [os.path.normpath(f).replace(os.sep, "/") for f in out]


def module_name(rel, path):
    """The dotted name a file is imported by from the first entry of path that holds it (a
    script's own name: tools/maker/build.py is build), or None."""
    for entry in path:
        top = os.path.normpath(entry)
        if top == "." or rel.startswith(top + "/"):
            mod = os.path.relpath(rel, top)[:-3].replace(os.sep, ".")
            return mod[:-len(".__init__")] if mod.endswith(".__init__") else mod
    return None


def imports(rel, source, path=PATH):
    """The repository's files the module at rel (its source) imports, anywhere in it."""
    me = module_name(rel, path) or ""
    package = me if rel.endswith("__init__.py") else me.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(source, rel)):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1] \
                    if package else []
                base = ".".join(up + ([base] if base else []))
            names = [base + "." + a.name if base else a.name for a in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(
                node.func, "attr", None)) in ("load", "passing"):  # board/fault.py's loader
            names = [a.value for a in node.args[:2]  # (a module by its name: an import)
                     if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        for name in names:
            out.update(find(name, path))
    out.discard(rel)
    return out


def graph(trees=TREES, path=PATH):
    """{file: the files it imports} for every .py below trees (paths relative to the root)."""
    g = {}
    for top in trees:
        for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
            for f in sorted(files):
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(folder, f), ROOT).replace(os.sep, "/")
                    with open(os.path.join(ROOT, rel)) as src:
                        g[rel] = imports(rel, src.read(), path)
    return g


def test_the_walk_sees_the_imports_across_the_trees():
    # a walk that found nothing would pass the test below
    assert PATH[0] == "firmware" and "tools" in PATH and "host_tests" in PATH
    g = graph()
    assert len(g) > 300
    assert "firmware/cribbage/advise.py" in g["tools/player/advise.py"]  # a tool imports the core
    assert {"tools/club/__init__.py", "tools/club/simboard.py", "host_tests/webkit.py"} <= g[
        "host_tests/clubkit.py"]
    assert "tools/club/registry.py" in g["tools/club/cli.py"]  # (from .registry import ...)
    assert {"tools/pcb/__init__.py", "tools/pcb/read.py"} <= g["tools/pcb/fab.py"]
    assert "host_tests/test_board_imports.py" in g["host_tests/test_import_circles.py"]


def test_no_import_circle_anywhere():
    found = cycle(graph())
    assert found is None, "import circle: " + " -> ".join(found)


def test_a_circle_across_trees_and_through_a_package_is_found(tmp_path):
    """The checker itself: a tool and a test module importing each other (one lazily, one
    through a package's relative import) are a circle; without the lazy import, none."""
    for d in ("fw", "tl/pk", "ht"):
        (tmp_path / d).mkdir(parents=True)
    (tmp_path / "tl/pk/__init__.py").write_text('"""a package"""\n')
    (tmp_path / "tl/pk/a.py").write_text("from .b import x\n")
    (tmp_path / "tl/pk/b.py").write_text("def f():\n    import kit\n    return kit\n")
    (tmp_path / "ht/kit.py").write_text("from pk import a\nimport os\nfrom core import y\n")
    (tmp_path / "fw/core.py").write_text("y = 1\n")
    path = [str(tmp_path / d) for d in ("fw", "ht", "tl")]

    def g():
        out = {}
        for rel in ("tl/pk/__init__.py", "tl/pk/a.py", "tl/pk/b.py", "ht/kit.py", "fw/core.py"):
            src = (tmp_path / rel).read_text()
            out[str(tmp_path / rel)] = imports(str(tmp_path / rel), src, path)
        return out

    found = g()
    assert found[str(tmp_path / "ht/kit.py")] == {
        str(tmp_path / p) for p in ("tl/pk/__init__.py", "tl/pk/a.py", "fw/core.py")}
    assert cycle(found) == [str(tmp_path / p) for p in (
        "ht/kit.py", "tl/pk/a.py", "tl/pk/b.py", "ht/kit.py")]
    (tmp_path / "tl/pk/b.py").write_text("x = 1\n")
    assert cycle(g()) is None
