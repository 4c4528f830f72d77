"""tools/maker/build.py: both targets compile, the tree holds what the board needs, and it runs."""

import os
import subprocess

import build
from hostenv import venv_program
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = venv_program("micropython") or "micropython"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    rows = {t: build.build(t, os.path.join(ROOT, "firmware"), str(out)) for t in build.TARGETS}
    return out, rows


def firmware_modules():
    return [r for r in build.sources(os.path.join(ROOT, "firmware")) if r.endswith(".py")]


def test_every_module_compiled_for_both_targets(built):
    out, rows = built
    mods = firmware_modules()
    assert "cribbage/score.py" in mods
    for target in build.TARGETS:
        names = {r[1] for r in rows[target]}
        carried = build.sources(os.path.join(ROOT, "firmware"),
                                carried=build.TARGET_PARTS[target])
        for rel in mods:
            if rel not in carried:  # (an optional part this board does not carry)
                continue
            if build.keep_as_source(rel):
                assert rel in names
                assert os.path.exists(os.path.join(out, target, rel))
            else:
                mpy = os.path.join(out, target, rel[:-3] + ".mpy")
                with open(mpy, "rb") as f:
                    head = f.read(2)
                assert head == b"M\x06", (rel, head)  # mpy version 6 (loads on v1.23+)
                assert not os.path.exists(os.path.join(out, target, rel))


def test_entry_points_stay_source_and_manifest_is_not_copied():
    assert build.keep_as_source("main.py")
    assert build.keep_as_source("boot.py")
    assert not build.keep_as_source("board/main.py")
    assert not build.keep_as_source("cribbage/score.py")
    assert "manifest.py" not in build.sources(os.path.join(ROOT, "firmware"))


def test_size_report_lists_every_module(built, capsys):
    _out, rows = built
    build.report("rp2040", rows["rp2040"])
    text = capsys.readouterr().out
    assert "cribbage/score.mpy" in text and "-march=armv6m" in text
    assert "total (%d files)" % len(rows["rp2040"]) in text


def test_syntax_error_is_reported(tmp_path):
    src = tmp_path / "fw"
    src.mkdir()
    (src / "bad.py").write_text("def f(:\n")
    with pytest.raises(SystemExit) as e:
        build.build("esp32", str(src), str(tmp_path / "out"))
    assert "bad.py" in str(e.value)


@pytest.mark.parametrize("target", sorted(build.TARGETS))
def test_built_tree_runs_in_micropython(built, target):
    """The core imports from .mpy (not source) in the real micropython binary and scores."""
    from dealer import cardtext  # (the host's: the board's tree has no card-text reader)

    out, _rows = built
    code = (
        "from cribbage import score\n"
        "print(score.__file__)\n"
        "print(score.score_hand(%r, %d))\n" % (cardtext.parse_many("5H 5C 5S JD"),
                                                cardtext.parse("5D"))
    )
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=96k", "-c", code],
                       env=dict(os.environ, MICROPYPATH=os.path.join(out, target)),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split()
    assert lines[0].endswith("score.mpy")
    assert lines[1] == "29"


def test_package_json_lists_the_board_tree():
    """package.json (for mip) names every module of firmware/ and nothing else."""
    import json

    with open(os.path.join(ROOT, "package.json")) as f:
        text = f.read()
    assert text == build.package_json(os.path.join(ROOT, "firmware")), \
        "run: python tools/maker/build.py --package-json"
    pkg = json.loads(text)
    assert sorted(t for t, _u in pkg["urls"]) == sorted(firmware_modules())
    for target, url in pkg["urls"]:
        assert url == "firmware/" + target and os.path.exists(os.path.join(ROOT, url))
    assert ["ssd1306", "latest"] in pkg["deps"]


def manifest_calls(monkeypatch, name="manifest.py"):
    """firmware/manifest.py (or name) run the way makemanifest.py runs it (in its own folder,
    an include()d manifest in its own): the calls it makes, as (function, args, kwargs), those
    of an included manifest too (after the include's own)."""
    calls = []

    def recorder(name):
        return lambda *a, **k: calls.append((name, a, k))

    def run(path):
        folder = os.path.dirname(path)
        env = {name: recorder(name) for name in ("require", "metadata", "package", "module",
                                                 "freeze")}

        def include(p, **k):
            calls.append(("include", (p,), k))
            if p.startswith("$("):  # (the port's own: not ours to follow)
                return
            p = os.path.join(folder, p)
            run(os.path.join(p, "manifest.py") if os.path.isdir(p) else p)
            monkeypatch.chdir(folder)

        env["include"] = include
        monkeypatch.chdir(folder)
        with open(path) as f:
            exec(compile(f.read(), path, "exec"), env)

    run(os.path.join(ROOT, "firmware", name))
    return calls


def frozen_files(calls):
    """The modules the manifest's package() and module() calls freeze (paths in firmware/)."""
    out = set()
    for n, a, k in calls:
        if n == "package":
            assert k.get("files") is not None, a  # (else every file of the folder)
            out.update(a[0] + "/" + f for f in k["files"])
        elif n == "module":
            out.add(a[0])
    return out


def test_freeze_manifest_covers_the_packages(monkeypatch):
    """firmware/manifest_wifi.py (a board with Wi-Fi's), run the way makemanifest.py runs it,
    freezes every module of the board's tree, no more (main.py and board_config.py stay on
    the filesystem); firmware/manifest.py (every board's: the Pico's whole) all but the
    optional parts (the page and the club's publisher, which the Wi-Fi one requires)."""
    calls = manifest_calls(monkeypatch, "manifest_wifi.py")
    frozen = {a[0] for n, a, _k in calls if n == "package"}
    tops = {rel.split("/")[0] for rel in firmware_modules() if "/" in rel}
    assert frozen == tops
    assert frozen_files(calls) == set(firmware_modules()) - {"main.py", "board_config.py"}
    assert not [a for n, a, _k in calls if n == "require" and a[0].startswith("umqtt")]  # (the
    # board writes its MQTT packets itself: umqtt.simple is the host's only, issue 33)
    core = manifest_calls(monkeypatch)
    pico = set(build.sources(os.path.join(ROOT, "firmware"), carried=()))
    assert frozen_files(core) == {m for m in firmware_modules() if m in pico} - {
        "main.py", "board_config.py"}
    assert not {m for m in frozen_files(core) if m.startswith(("page/", "publish/"))}
    calls = core
    for pkg in frozen:  # namespace packages: an __init__ module would intern its path for good
        assert not os.path.exists(os.path.join(ROOT, "firmware", pkg, "__init__.py")), pkg
    assert ("require", ("ssd1306",), {}) in calls
    loose = {rel for rel in firmware_modules() if "/" not in rel}
    assert loose == {"main.py", "board_config.py", "version.py", "slots.py", "slotboot.py",
                     "slotimg.py"}
    assert ("module", ("version.py",), {"opt": 3}) in calls  # frozen too: the board shows it
    # one version: firmware/version.py; the manifest and pyproject.toml say the same
    version = build.read_version()
    assert [k["version"] for n, _a, k in calls if n == "metadata"] == [version]
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        assert 'version = "%s"' % version in f.read()


# The modules only the host runs (issue 21): the simulator's fake board and its RAM filesystem,
# the dealer and the computer players, the card-text reader, the fake keypad timer (the table
# generators are tools/tables/tablegen.py and tools/tables/cribgen.py). They live in tools/host/,
# never in firmware/ (issue 33); no board module imports them.
HOST_MODULES = {"fakeboard/fake.py", "fakeboard/fake_timer.py", "fakeboard/ramfs.py",
                "dealer/autoplay.py", "dealer/deal.py", "dealer/cardtext.py",
                "fakeboard/fakepower.py", "fakeboard/served.py"}


def test_the_board_build_has_no_host_only_module(built, mpy_tree, monkeypatch):
    """What goes onto a board (make build's trees and ROMFS images, the frozen manifest,
    package.json for mip, so make flash) carries none of the host's own modules; a tree
    built with --host (the simulator's, the tests': conftest's mpy_tree) has them all."""
    out, rows = built
    firmware = os.path.join(ROOT, "firmware")
    assert set(build.sources(build.HOST_SRC)) == HOST_MODULES
    mpys = {m[:-3] + ".mpy" for m in HOST_MODULES}
    for target in build.TARGETS:
        tree = os.path.join(out, target)
        assert not {r[0] for r in rows[target]} & HOST_MODULES
        assert not [m for m in mpys if os.path.exists(os.path.join(tree, m))]
        with open(tree + build.ROMFS_EXT, "rb") as f:
            image = f.read()
        assert not [m for m in mpys if os.path.basename(m).encode() in image]
    assert not frozen_files(manifest_calls(monkeypatch)) & HOST_MODULES
    assert not set(build.package_json(firmware).split('"')) & HOST_MODULES
    assert all(os.path.exists(os.path.join(mpy_tree, m)) for m in mpys)
    with open(mpy_tree + build.ROMFS_EXT, "rb") as f:
        image = f.read()
    assert all(os.path.basename(m).encode() in image for m in mpys)


# What a board's firmware may import besides its own modules: MicroPython's (built in, frozen
# with the port: asyncio) and the micropython-lib packages a board installs (build.LIBS: the
# OLED's driver; build.PART_OF_LIB's of hostenv.MP_PACKAGES: none). Nothing of the
# host's: tools/, tools/host/ (the fake board, the dealer), host_tests/.
MICROPYTHON_MODULES = {
    "array", "asyncio", "binascii", "bluetooth", "builtins", "cmath", "collections", "cryptolib",
    "deflate", "errno", "esp", "esp32", "framebuf", "gc", "hashlib", "heapq", "io", "json",
    "machine", "math", "micropython", "network", "os", "platform", "random", "re", "rp2",
    "select", "socket", "ssl", "struct", "sys", "time", "uctypes", "vfs", "neopixel"}


def test_firmware_holds_no_host_module():
    """firmware/ is what goes onto a board, all of it (issue 33): no fake there (the host's
    stand-ins are tools/host/'s and tools/sim/standins/'s), no exclusion list in the manifest for
    the build to leave host modules out by, and every module is one the board runs (test_every_
    module_of_the_board_tree_is_one_the_board_runs, over all of firmware/)."""
    firmware = os.path.join(ROOT, "firmware")
    fakes = [os.path.relpath(os.path.join(d, f), firmware) for d, _dirs, files in os.walk(firmware)
             for f in files if f.startswith(("fake", "ramfs"))]
    assert fakes == []
    with open(os.path.join(firmware, "manifest.py")) as f:
        assert "HOST_ONLY" not in f.read()
    every = {os.path.relpath(os.path.join(d, f), firmware).replace(os.sep, "/")
             for d, _dirs, files in os.walk(firmware) for f in files
             if f.endswith(".py") and f not in ("manifest.py", "manifest_wifi.py")}
    assert set(firmware_modules()) == every  # (the build leaves none out)
    assert not [m for m in HOST_MODULES if os.path.exists(os.path.join(firmware, m))]


def test_no_firmware_module_imports_one_from_outside_firmware():
    """Each firmware module imports only firmware's modules and MicroPython's own (with the
    board's micropython-lib packages): none of tools/, tools/host/ or host_tests/, at the top
    or inside a function, so firmware/ runs on a board as it is."""
    firmware = os.path.join(ROOT, "firmware")
    def names(folder):  # the modules and packages importable from folder
        out = set()
        for f in os.listdir(folder):
            if f.endswith(".py"):
                out.add(f[:-3])
            elif os.path.isdir(os.path.join(folder, f)) and f[0] not in "._":
                out.add(f)
        return out

    own = names(firmware)
    allowed = MICROPYTHON_MODULES | set(build.LIBS) | set(build.PART_OF_LIB)
    host = set()
    for folder in ("tools", "tools/host", "host_tests", "host_tests/both"):
        host |= names(os.path.join(ROOT, folder))
    assert {"fakeboard", "dealer", "boardkit", "hostenv"} <= host
    assert not own & host
    for rel in firmware_modules():
        tops = {m.split(".")[0] for m in imports(os.path.join(firmware, rel))} - own - {""}
        assert tops <= allowed, (rel, tops - allowed)
        # (tools/host/micropython.py: CPython's)
        assert not tops & (host - MICROPYTHON_MODULES), rel


def imports(path):
    """Every module a firmware source file imports, at the top or inside a function, by
    dotted name ("from cribbage import score" names both cribbage and cribbage.score; "from
    .cards import PIP" in cribbage/ names cribbage.cards)."""
    import ast

    with open(path) as f:
        tree = ast.parse(f.read(), path)
    package = os.path.relpath(os.path.dirname(path), os.path.join(ROOT, "firmware"))
    package = [] if package == "." else package.split(os.sep)
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            parts = package[:len(package) - node.level + 1] if node.level else []
            base = ".".join(parts + ([node.module] if node.module else []))
            out.add(base)
            out.update(base + "." + a.name for a in node.names)
    return out


def test_every_module_of_the_board_tree_is_one_the_board_runs():
    """The board's tree holds no module it never loads: each is reached from the entry points
    (main.py, board_config.py and every board's pin map) through imports, at the top or in a
    function, or a module named in a string (what board/web.py and board/fault.py load on
    demand). A module only the host uses belongs in tools/host/ (tools/host/README.md), not
    in firmware/."""
    import re

    firmware = os.path.join(ROOT, "firmware")
    tree = {rel[:-3].replace("/", "."): rel for rel in firmware_modules()}
    todo = ["main", "board_config", "version", "ota.install", "ota.fetch"] + [  # (ota.install,
        # ota.fetch: what an update's trigger calls, issue 31; make update's at the REPL)
        "hw." + m for m in list(build.BOARD_MODULE.values())
        + [w[0] for w in build.W_MODULE.values()]]
    seen = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in tree:
            continue
        seen.add(name)
        path = os.path.join(firmware, tree[name])
        with open(path) as f:
            named = set(re.findall(r"[\"']((?:board|boards|cribbage|page|publish)\.\w+)[\"']",
                                   f.read()))
        todo += [m for m in imports(path) | named if m in tree]
    assert sorted(set(tree) - seen) == []


def test_no_board_module_imports_a_host_only_one():
    """Leaving the host's modules out breaks nothing on the board: no module of its tree
    imports one, at the top or inside a function (nor names one to __import__)."""
    firmware = os.path.join(ROOT, "firmware")
    host = {m[:-3].replace("/", ".") for m in HOST_MODULES}
    for rel in firmware_modules():
        with open(os.path.join(firmware, rel)) as f:
            text = f.read()
        assert not imports(os.path.join(firmware, rel)) & host, rel
        assert not [m for m in host if '"%s"' % m in text or "'%s'" % m in text], rel


@pytest.mark.parametrize("target,module", [("rp2040", "pico"), ("rp2040w", "pico"),
                                           ("esp32", "esp32_devkit")])
def test_each_tree_names_its_own_board(built, target, module):
    """build/esp32 copied by hand onto an ESP32 runs with the ESP32's pin map (and rp2040 the
    Pico's, rp2040w the Pico W's or the Pico's): board_config.py is written per tree, as
    firmware/main.py reads it."""
    out, rows = built
    with open(os.path.join(out, target, "board_config.py")) as f:
        text = f.read()
    assert text == build.board_config(target) == build.config_text(
        module, bool(build.TARGET_PARTS[target]))
    assert "\n    from hw.%s import build" % module in text or text.startswith(
        "from hw.%s import build" % module)
    assert os.path.exists(os.path.join(ROOT, "firmware", "hw", module + ".py"))
    assert ("board_config.py", "board_config.py") in [r[:2] for r in rows[target]]


# The optional parts (issue 33): the live page and the club's publisher, with what only they
# run and the libraries they need; a board without radio (the Pico) carries none of it.
PARTS = ("page/", "publish/", "www/", "board/export.", "board/snapshot.", "page/http.")


def tree_files(tree):
    return sorted(os.path.relpath(os.path.join(d, f), tree).replace(os.sep, "/")
                  for d, _dirs, files in os.walk(tree) for f in files)


def test_the_pico_tree_carries_no_page_and_no_club(built):
    """build/rp2040 (the Pico, no radio) has no module of the page or the club's publisher,
    no page and neither its HTTP nor the MQTT client, in its tree or its ROMFS image; the
    Pico W's and the ESP32's carry them all."""
    out, rows = built
    pico = tree_files(os.path.join(out, "rp2040"))
    assert "board/app.mpy" in pico and "hw/wifi.mpy" in pico
    assert not [f for f in pico if f.startswith(PARTS)], pico
    with open(os.path.join(out, "rp2040" + build.ROMFS_EXT), "rb") as f:
        image = f.read()
    assert b"routes.mpy" not in image and b"link.mpy" not in image and b"http.mpy" not in image
    for target in ("rp2040w", "esp32"):
        files = tree_files(os.path.join(out, target))
        for part in PARTS:
            assert [f for f in files if f.startswith(part)], (target, part)
        assert "page/routes.mpy" in files and "publish/task.mpy" in files
        assert "page/http.mpy" in files
        assert not [f for f in files if f.startswith("lib/")], files  # (no MQTT client: the
        # board writes its packets itself, issue 33; umqtt.simple is the host's only)


@pytest.mark.parametrize("target", sorted(build.TARGETS))
def test_every_module_of_each_tree_is_reached_from_main(built, target):
    """Each board's tree (make build's) holds no module it never loads: every module is
    reached from main.py (with its board_config.py, version.py and the pin maps a maker may
    name in board_config.py) through imports, at the top or in a function, or a module named
    in a string; the imports of a part the tree does not carry lead nowhere."""
    import re

    out, _rows = built
    tree = os.path.join(out, target)
    mods = {}
    for rel in tree_files(tree):
        if rel.endswith((".py", ".mpy")) and not rel.startswith("lib/"):
            mods[rel[:rel.rfind(".")].replace("/", ".")] = rel
    firmware = os.path.join(ROOT, "firmware")
    # (ota.install, ota.fetch, ota.order: what an update's trigger calls, issue 31: the
    # club's message, the page; a board without Wi-Fi, at its REPL)
    todo = ["main", "board_config", "version", "ota.install", "ota.fetch", "ota.order"] + [
        m for m in mods if m.startswith("hw.") and m[3:] in set(build.BOARD_MODULE.values())
                                                  | {w[0] for w in build.W_MODULE.values()}]
    seen = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in mods:
            continue
        seen.add(name)
        path = os.path.join(tree if name == "board_config" else firmware,
                            mods[name][:mods[name].rfind(".")] + ".py")
        with open(path) as f:
            named = set(re.findall(r"[\"']((?:board|boards|cribbage|page|publish)\.\w+)[\"']",
                                   f.read()))
        todo += [m for m in imports(path) | named if m in mods]
    assert sorted(set(mods) - seen) == []


def test_one_version_number():
    """firmware/version.py holds the version; package.json and the build read it there."""
    with open(os.path.join(ROOT, "firmware", "version.py")) as f:
        text = f.read()
    ns = {}
    exec(text, ns)
    assert build.read_version() == ns["VERSION"]
    import json

    with open(os.path.join(ROOT, "package.json")) as f:
        assert json.load(f)["version"] == ns["VERSION"]
    with open(os.path.join(ROOT, "CHANGELOG.md")) as f:
        assert "## %s" % ns["VERSION"] in f.read()  # every release has its entry


def test_built_version_module_answers(built):
    """What tools/maker/flash.py asks the board: `import version; version.VERSION` from the .mpy."""
    out, _rows = built
    r = subprocess.run([MICROPYTHON, "-c", "import version; print(version.__file__, "
                        "version.VERSION)"], cwd=os.path.join(out, "rp2040"),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["version.mpy", build.read_version()]


def fake_index(files):
    """A get() serving a micropython-lib index of one package holding files {path: bytes}."""
    import hashlib
    import json

    short = {p: hashlib.sha256(d).hexdigest()[:8] for p, d in files.items()}
    urls = {"%s/package/6/ssd1306/latest.json" % build.MIP_INDEX:
            json.dumps({"hashes": sorted(short.items()), "version": "0.1.0"}).encode()}
    for p, d in files.items():
        urls["%s/file/%s/%s" % (build.MIP_INDEX, short[p][:2], short[p])] = d
    asked = []

    def get(url, timeout):
        asked.append(url)
        if url not in urls:
            raise OSError("offline")
        return urls[url]

    return get, asked, urls


def test_fetch_lib_keeps_the_driver_as_mip_would(tmp_path):
    get, asked, _urls = fake_index({"ssd1306.mpy": b"M\x06 driver"})
    assert build.fetch_lib("ssd1306", str(tmp_path), get=get) == ["ssd1306.mpy"]
    assert (tmp_path / "lib" / "ssd1306.mpy").read_bytes() == b"M\x06 driver"
    assert (tmp_path / "lib" / "ssd1306.json").exists()
    assert len(asked) == 2
    # kept: the next build asks nothing (and works offline)
    assert build.fetch_lib("ssd1306", str(tmp_path), get=None) == ["ssd1306.mpy"]


def test_fetch_lib_refuses_a_download_that_does_not_match(tmp_path):
    get, _asked, urls = fake_index({"ssd1306.mpy": b"M\x06 driver"})
    for url in urls:
        if "/file/" in url:
            urls[url] = b"M\x06 tampered"
    with pytest.raises(ValueError):
        build.fetch_lib("ssd1306", str(tmp_path), get=get)
    assert not (tmp_path / "lib" / "ssd1306.json").exists()


def test_fetch_libs_offline_is_a_note(tmp_path, monkeypatch):
    import io

    def offline(url, timeout):
        raise OSError("Name or service not known")

    monkeypatch.setattr(build, "_get", offline)
    err = io.StringIO()
    build.fetch_libs(str(tmp_path), err)
    assert "not kept" in err.getvalue() and "mip" in err.getvalue()


def test_host_trees_only_when_asked(tmp_path, monkeypatch):
    """`tools/maker/build.py` builds the board's trees; `--host` the host's (the simulator's, make
    soak's), with the host-only modules."""
    calls = []
    monkeypatch.setattr(build, "build", lambda *a: calls.append(a) or [])
    assert build.main(["--quiet", "--out", str(tmp_path)]) == 0
    assert build.main(["--quiet", "--out", str(tmp_path), "--target", "esp32", "--host"]) == 0
    assert [(c[0], c[-1]) for c in calls] == [("esp32", False), ("rp2040", False),
                                              ("rp2040w", False), ("esp32", True)]
