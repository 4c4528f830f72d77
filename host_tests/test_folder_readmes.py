"""Each folder of firmware/ and of tools/host/ says in its README.md what it may import (issue
33), and says it true: a firmware folder's "May import" names every part docs/developers.md's
table of parts lets it import (test_layers.py holds the table to the code) and no module that
is not there; tools/host/'s packages import only what their READMEs say."""

import ast
import os
import re

from test_build import MICROPYTHON_MODULES
from test_layers import libraries, table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
HOST = os.path.join(ROOT, "tools", "host")
FOLDERS = ("board", "hw", "cribbage", "ota", "page", "publish", "www")
# the table's rows a folder's README answers for (board/: its tasks.py has a row of its own;
# firmware/README.md: the modules at the top)
ROWS = {"board": ("board/", "board/tasks.py"), "": ("main.py", "board_config.py", "slots.py",
                                                     "version.py")}
NAME = re.compile(r"[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*(\.\*|\.py)?")


def may_import(readme):
    """The README's "May import" paragraph (to the blank line)."""
    with open(readme) as f:
        text = f.read()
    m = re.search(r"^May import[^:]*:(.*?)(?:\n\n|\Z)", text, re.S | re.M)
    assert m, "%s says nothing of what it may import" % os.path.relpath(readme, ROOT)
    return m.group(1)


def named(paragraph):
    """The module names written in backticks in a paragraph, as module names (`board.*` ->
    board, `tasks.py` -> tasks, `ota.order` -> ota.order)."""
    out = set()
    for tok in re.findall(r"`([^`]+)`", paragraph):
        if NAME.fullmatch(tok):
            out.add(tok[:-2] if tok.endswith(".*") else tok[:-3] if tok.endswith(".py") else tok)
    return out


def modules(folder):
    """The modules and packages importable from folder (a package's own: its modules)."""
    return {f[:-3] if f.endswith(".py") else f for f in os.listdir(folder)
            if f.endswith(".py") or (os.path.isdir(os.path.join(folder, f)) and f[0] not in "._")}


def test_every_firmware_folder_says_what_it_may_import_and_it_is_true():
    rows = table()
    parts = modules(FIRMWARE)
    known = parts | libraries() | MICROPYTHON_MODULES | {"umqtt.simple"}
    for folder in FOLDERS + ("",):
        paragraph = may_import(os.path.join(FIRMWARE, folder, "README.md"))
        allowed = set()
        for row in ROWS.get(folder, (folder + "/",)):
            allowed |= {a.rstrip("/")[:-3] if a.endswith(".py") else a.rstrip("/")
                        for a in rows.get(row, ())}
        allowed = {a.replace("/", ".") for a in allowed} - {folder}
        unsaid = sorted(a for a in allowed if not re.search(r"\b%s\b" % re.escape(a), paragraph))
        assert unsaid == [], (folder or "firmware", unsaid)  # the table allows it: say so
        own = modules(os.path.join(FIRMWARE, folder)) if folder else set()
        stale = sorted(n for n in named(paragraph)
                       if n.split(".")[0] not in known | own)
        assert stale == [], (folder or "firmware", stale)  # no such module


def imports(path, package):
    """The top-level names a host module imports (relative imports: its own package)."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            out.add(package if node.level else (node.module or "").split(".")[0])
    return out


def test_the_host_packages_import_what_their_readmes_say():
    """tools/host/fakeboard/ imports the board app's modules, tools/host/dealer/ the rules core,
    each itself, and MicroPython's own modules: nothing of tools/ or host_tests/ (they run on
    the unix port from a --host tree too), and each README names what its package imports."""
    said = named(may_import(os.path.join(HOST, "README.md")))
    for package, allowed in (("fakeboard", {"board"}), ("dealer", {"cribbage"})):
        folder = os.path.join(HOST, package)
        used = set()
        for f in sorted(os.listdir(folder)):
            if f.endswith(".py"):
                used |= imports(os.path.join(folder, f), package)
        assert used - MICROPYTHON_MODULES - {package} == allowed, (package, used)
        mine = named(may_import(os.path.join(folder, "README.md")))
        assert {n.split(".")[0] for n in mine} >= allowed, package
        assert allowed <= {n.split(".")[0] for n in said}


def test_every_job_folder_of_tools_says_what_it_may_import_and_it_is_true():
    """tools/'s job folders (hostenv.JOBS: maker/, player/, bench/...): each README names every
    module of the repository its tools import (the firmware's, the host's, another folder's
    tools), by its top-level name, and no module that is not there."""
    import hostenv
    from test_import_circles import PATH, find

    tools = os.path.join(ROOT, "tools")
    known = modules(FIRMWARE) | modules(HOST) | modules(tools) | MICROPYTHON_MODULES
    known |= modules(os.path.join(ROOT, "host_tests", "both"))
    for job in hostenv.JOBS:
        known |= modules(os.path.join(tools, job))
    for job in hostenv.JOBS:
        folder = os.path.join(tools, job)
        paragraph = may_import(os.path.join(folder, "README.md"))
        said = {n.split(".")[0] for n in named(paragraph)}
        own = modules(folder)
        used = set()
        for f in sorted(os.listdir(folder)):
            if not f.endswith(".py"):
                continue
            with open(os.path.join(folder, f)) as src:
                tree = ast.parse(src.read(), f)
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and not node.level:
                    names = [node.module + "." + a.name for a in node.names]
                else:
                    continue
                used |= {n.split(".")[0] for n in names if find(n, PATH)}
        unsaid = sorted(used - own - said)
        assert unsaid == [], (job, unsaid)  # imported: say so
        stale = sorted(said - known)
        assert stale == [], (job, stale)  # no such module
