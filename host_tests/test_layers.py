"""The parts of firmware/ and what each may import, as docs/developers.md draws them: its
table between <!-- layers --> and <!-- /layers --> against every import in the code (ast,
imports inside functions too). Both ways: an import no row allows fails, and so does a row's
allowance no module uses (the picture would have gone stale)."""

import ast
import os
import re

from sourcekit import ROOT, firmware_sources

DOC = os.path.join(ROOT, "docs", "developers.md")
FIRMWARE = os.path.join(ROOT, "firmware")
THE_COMPOSER = "board/tasks.py"  # a row of its own: it starts the optional parts


def table():
    """{part: set of parts it may import} from the doc's table."""
    with open(DOC) as f:
        text = f.read()
    block = text.split("<!-- layers -->", 1)[1].split("<!-- /layers -->", 1)[0]
    rows = {}
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = set(re.findall(r"`([^`]+)`", cells[1]))
    return rows


def libraries():
    """The libraries the freeze manifests bring in (require(...), and a package that is no
    folder of firmware/): they have rows' allowances like the firmware's parts."""
    names = set()
    for rel, _path, source in firmware_sources():
        if rel.endswith("manifest.py") or rel.startswith("manifest"):
            names |= {m.split(".")[0] for m in re.findall(r'require\("([\w.]+)"\)', source)}
            names |= {m for m in re.findall(r'package\("(\w+)"', source)
                      if not os.path.isdir(os.path.join(FIRMWARE, m))}
    return names


def part_of(rel):
    """The row a module of firmware/ belongs to (its folder, or itself at the top)."""
    if rel == THE_COMPOSER:
        return rel
    return rel.split("/")[0] + "/" if "/" in rel else rel


def target(name, parts):
    """The row an imported module name falls in, or None (MicroPython's own, asyncio, ...)."""
    if name == "board.tasks":
        return THE_COMPOSER
    top = name.split(".")[0]
    for p in (top + "/", top + ".py", top):
        if p in parts:
            return p
    return None


def imports(source):
    """(line, module name) of every absolute import in a module's source."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            out.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(
                node.func, "attr", None)) == "load":  # board/fault.py's loader (the page's
            # passing("publish.names", ...) is not counted yet: no row allows page/ publish/)
            out += [(node.lineno, a.value) for a in node.args[:2]  # (a module by its name)
                    if isinstance(a, ast.Constant) and isinstance(a.value, str) and "." in a.value]
    return out


def edges(rows):
    """{(from part, to part): [where]} of every import between parts in firmware/."""
    parts = set(rows) | libraries()
    for allowed in rows.values():
        parts |= allowed
    found = {}
    for rel, _path, source in firmware_sources():
        if rel.endswith("manifest.py") or rel.startswith("manifest"):
            continue  # (makemanifest's files: not the board's code)
        src = part_of(rel)
        for line, name in imports(source):
            dst = target(name, parts)
            if dst is not None and dst != src:
                found.setdefault((src, dst), []).append("%s:%d" % (rel, line))
    return found


def test_every_module_of_the_firmware_has_a_row():
    rows = table()
    missing = sorted({part_of(rel) for rel, _p, _s in firmware_sources()
                      if not (rel.endswith("manifest.py") or rel.startswith("manifest"))}
                     - set(rows))
    assert missing == []


def test_no_import_points_where_its_row_does_not_allow():
    rows = table()
    bad = ["%s imports %s: %s" % (src, dst, ", ".join(where))
           for (src, dst), where in sorted(edges(rows).items())
           if dst not in rows.get(src, ())]
    assert bad == []


def test_every_allowance_is_used():
    rows = table()
    used = set(edges(rows))
    stale = sorted("%s may import %s" % (src, dst) for src, allowed in rows.items()
                   for dst in allowed if (src, dst) not in used)
    assert stale == []


def test_the_table_forbids_what_points_up():
    """The reader itself: an engine module importing the app is caught, as a row's edge."""
    rows = table()
    assert "board/" not in rows["cribbage/"]
    assert imports("from board.app import App\nimport cribbage.score\n") == [
        (1, "board.app"), (2, "cribbage.score")]
    assert target("board.app", set(rows)) == "board/"
    assert target("board.tasks", set(rows)) == THE_COMPOSER
    assert libraries() == {"ssd1306"}  # (umqtt.simple: the host's only, issue 33)
    assert part_of("board/tasks.py") == THE_COMPOSER and part_of("board/app.py") == "board/"


def test_every_folder_says_what_it_holds():
    """Each folder of code (firmware/, tools/, host_tests/ and below) has a README.md, or an
    __init__.py whose docstring says what it holds."""
    silent = []
    for top in ("firmware", "tools", "host_tests"):
        for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
            if not any(f.endswith((".py", ".html", ".json", ".pyi", ".svg")) for f in files):
                continue
            if "README.md" in files:
                continue
            init = os.path.join(folder, "__init__.py")
            if os.path.exists(init):
                with open(init) as f:
                    if ast.get_docstring(ast.parse(f.read())):
                        continue
            silent.append(os.path.relpath(folder, ROOT))
    assert silent == []


# Issue 33's four modules that each did several jobs (the App, the Match, the page's web.py, the
# club's clubfiles.py), as their parts are now: each one job, under 400 lines
ONE_JOB = ("board/app.py", "cribbage/match.py", "page/server.py", "page/routes.py",
           "page/http.py", "publish/link.py", "publish/outbox.py", "publish/task.py")


def test_the_modules_that_were_split_stay_small():
    """The App, the Match, the page's server and routes, the club's link and outbox: each under
    400 lines (issue 33's done-when), and the old five-in-one modules gone for good."""
    long = {}
    for rel in ONE_JOB:
        with open(os.path.join(FIRMWARE, rel)) as f:
            n = len(f.read().splitlines())
        if n >= 400:
            long[rel] = n
    assert long == {}, "over 400 lines: split by job (issue 33)"
    gone = [rel for rel in ("board/web.py", "board/clubfiles.py", "web.py", "clubfiles.py")
            if os.path.exists(os.path.join(FIRMWARE, rel))]
    assert gone == []
