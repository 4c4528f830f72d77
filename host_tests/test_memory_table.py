"""The memory policy is one table (issue 33): board/fault.py names every module the firmware
loads inside a function, or by name through its loader (load("x"), the page's
self.load(req, "x") and passing("x", ...)), with what becomes of it after use: let go after
one call (1), let go unless the board had it (h), kept (k), resident (r). A new lazy import
that the table does not name fails here, and so does a table that says something the code
does not do (a resident module that is not loaded at power-up, a name of no module).
host_tests/both/test_memory_loader.py checks that the loader does what the table says."""

import ast
import os
import re

from hostenv import FIRMWARE
from board import fault
from publish.says import FIELDS

# MicroPython's own modules (built in: never in sys.modules, nothing to let go) and those the
# build puts beside the firmware (ssd1306 the display's driver, from micropython-lib)
BUILT_IN = {"gc", "sys", "json", "machine", "socket", "select", "binascii", "vfs", "network",
            "esp32", "time", "micropython", "hashlib", "os", "io", "struct", "errno"}
LIBRARIES = {"asyncio", "ssd1306"}
BOOT = ("main", "board.tasks", "board.app", "slots")  # what power-up imports (firmware/main.py)
LOADERS = ("load", "passing")  # board/fault.py's load(), page/lazy.py's passing(), Lazy.load()


def table():
    """{module: policy} of board/fault.py: table's (1, h) and the k and r lines of its
    comment above (what release() never touches costs no heap there)."""
    out = {}
    for policy, names in zip("1h", fault.table):
        for name in names.split():
            assert name not in out, "%s twice" % name
            out[name] = policy
    with open(os.path.join(FIRMWARE, "board", "fault.py")) as f:
        src = f.read()
    for policy in "kr":
        m = re.search(r"^#  %s: .*\n((?:#     .*\n)+)" % policy, src, re.M)
        assert m, "no %s lines in board/fault.py's table" % policy
        for name in m.group(1).replace("#", " ").split():
            assert name not in out, "%s twice" % name
            out[name] = policy
    return out


def exists(name):
    base = os.path.join(FIRMWARE, *name.split("."))
    return os.path.exists(base + ".py") or os.path.isdir(base) or name in LIBRARIES


def firmware_files():
    for folder, dirs, files in os.walk(FIRMWARE):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".py") and f not in ("manifest.py", "manifest_wifi.py"):
                path = os.path.join(folder, f)
                rel = os.path.relpath(path, FIRMWARE)[:-3].replace(os.sep, ".")
                yield path, rel


def _named(base, alias):
    """`from base import alias`: the module base.alias when it is one, else base."""
    return base + "." + alias if base and exists(base + "." + alias) else base


def imports(path, module, inside):
    """The modules the file imports inside a function (inside) or at its top level (not
    inside; a try or an if at the top level counts as the top level), and the ones it names
    to a loader (inside only: load("x"), self.load(req, "x"), passing("x", ...))."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    package = module.rpartition(".")[0]
    out = []

    def walk(node, in_function):
        for n in ast.iter_child_nodes(node):
            f = in_function or isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(n, ast.Import) and f == inside:
                out.extend(a.name for a in n.names)
            elif isinstance(n, ast.ImportFrom) and f == inside:
                base = n.module or ""
                if n.level:
                    up = package.split(".")[:len(package.split(".")) - n.level + 1]
                    base = ".".join([p for p in up if p] + ([base] if base else []))
                out.extend(_named(base, a.name) for a in n.names)
            elif isinstance(n, ast.Call) and inside:
                fn = n.func
                name = fn.id if isinstance(fn, ast.Name) else getattr(fn, "attr", None)
                if name in LOADERS:
                    for a in n.args:  # (a module's name: not store.load("game"))
                        if isinstance(a, ast.Constant) and isinstance(a.value, str) and (
                                "." in a.value or exists(a.value)):
                            out.append(a.value)
                            break
            walk(n, f)

    walk(tree, False)
    return out


def lazy():
    """{module: where} of every module loaded inside a function in firmware/, by import or by
    name, and the club's message's handlers (publish/says.py's FIELDS, loaded by name)."""
    out = {}
    for path, rel in firmware_files():
        for name in imports(path, rel, True):
            out.setdefault(name, rel)
    for mod, _ in FIELDS.values():
        out.setdefault(mod, "publish.says FIELDS")
    return out


def top_closure(roots):
    """The firmware modules that importing roots loads (top-level imports, transitively),
    with their packages."""
    seen = set()
    todo = list(roots)
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        if "." in m:
            todo.append(m.rpartition(".")[0])
        path = os.path.join(FIRMWARE, *m.split(".")) + ".py"
        if os.path.exists(path):
            todo.extend(imports(path, m, False))
    return seen


def test_every_module_loaded_inside_a_function_is_in_the_table():
    t = table()
    missing = {name: where for name, where in lazy().items()
               if name not in t and name not in BUILT_IN}
    assert not missing, "not in board/fault.py's table (module: loaded in): %s" % missing


def test_the_table_names_modules_that_exist():
    assert [n for n in table() if not exists(n)] == []


def test_what_a_call_lets_go_takes_its_imports_with_it():
    """A module of policy 1 or h imports, at its top level, only modules that stay (resident,
    or kept) or that the table lets go too: one not named would stay on the heap after the
    call (the club's call loads packets, contract, umqtt...: all let go)."""
    t = table()
    resident = top_closure(BOOT)
    bad = []
    for name, policy in t.items():
        if policy in "1h":
            for dep in top_closure([name]) - {name}:
                if dep not in t and dep not in resident and dep not in BUILT_IN:
                    bad.append((name, dep))
    assert bad == []


def test_resident_means_loaded_at_power_up():
    resident = top_closure(BOOT)
    t = table()
    assert [n for n, p in t.items() if p == "r" and n not in resident and n != "asyncio"] == []
    # and what power-up loads is not let go by a call
    assert [n for n, p in t.items() if p in "1h" and n in resident] == []


def test_the_walk_sees_a_lazy_import_and_a_load(tmp_path):
    """The test's own walk: an import inside a function, a load("x") and a from-import of a
    module are seen; a top-level import is not lazy."""
    p = tmp_path / "m.py"
    p.write_text("import json\n\ndef f():\n    from board import stats\n    import board.text\n"
                 "    return load('publish.link'), w.load(r, 'board.export')\n")
    assert imports(str(p), "board.m", True) == ["board.stats", "board.text", "publish.link",
                                                 "board.export"]
    assert imports(str(p), "board.m", False) == ["json"]


def test_the_ranks_table_is_the_advisors_alone():
    """cribbage.tables (6 KB of bytes, ~6.5 KB of a 64-bit heap) loads with the discard
    advisor only: the scorer counts at run time, so neither power-up nor the display's text
    (board.text, the scorer's other reader) brings it (issue 34: the ESP32's game)."""
    assert "cribbage.tables" not in top_closure(BOOT + ("board.text", "cribbage.spoken"))
    assert "cribbage.tables" in top_closure(["cribbage.advise"])
