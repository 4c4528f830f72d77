"""Every tool a maker or a player runs answers --help with its usage and does nothing else.

A tool that took `--help` for a file name wrote a file called `--help` (keymap_card.py,
players_pictures.py), regenerated the firmware's tables (gen_tables.py) or the hardware's
pictures (wiring_diagram.py), or fell over (budgets.py, advisor_player.py, publish_lag.py).
Each tool is run the way its docstring says (a script, or `python -m` in tools/ for the
packages), in an empty folder: it must exit 0, print a usage line, write nothing there and
change no file of the checkout.
"""

import os
import shutil
import subprocess
import sys

import pytest

from hostenv import ROOT

TOOLS = os.path.join(ROOT, "tools")
# MicroPython scripts other tools run (their arguments are the caller's, not a person's)
RUN_BY_TOOLS = {
    "bench/mp_board.py", "bench/mp_sign.py", "bench/ota_install.py", "sim/mp_driver.py",
}
# packages run as `python -m` from tools/ (their modules import each other as pcb.x, club.x)
PACKAGES = ("pcb", "club", "clubnet")
KICAD_PY = os.environ.get("KICAD_PY", "/usr/bin/python3")


def _scripts():
    found = []
    for folder, dirs, files in os.walk(TOOLS):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "typecheck", "standins",
                                                      "fakeboard"))
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(folder, f), TOOLS)
            if not f.endswith(".py") or f.startswith("test_") or rel in RUN_BY_TOOLS:
                continue
            with open(os.path.join(folder, f)) as src:
                if '__name__ == "__main__"' in src.read():
                    found.append(rel)
    return found


def _command(rel):
    """The command a person types for tools/REL (with --help), and the environment's extra."""
    parts = rel[:-3].split(os.sep)
    if rel == os.path.join("pcb", "generate.py"):  # KiCad's python (its docstring)
        return [KICAD_PY, os.path.join(TOOLS, rel), "--help"], {}
    if parts[0] in PACKAGES and os.path.exists(os.path.join(TOOLS, parts[0], "__init__.py")):
        return ([sys.executable, "-m", ".".join(parts), "--help"],
                {"PYTHONPATH": TOOLS})
    if parts[-1] == "__main__":  # python tools/sim
        return [sys.executable, os.path.join(TOOLS, *parts[:-1]), "--help"], {}
    return [sys.executable, os.path.join(TOOLS, rel), "--help"], {}


def _checkout_state():
    # (where the tools write: the firmware's tables, the hardware's pictures, the docs' images)
    r = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all", "--",
                        "firmware", "hardware", "tools", "docs"], cwd=ROOT,
                       capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def test_the_tools_are_found():
    found = _scripts()
    assert len(found) >= 30, found  # (the walk finds the tools, not an empty list)
    for rel in ("maker/keymap_card.py", "budgets.py", "sim/__main__.py", "pcb/check.py"):
        assert rel in found


@pytest.mark.slow
@pytest.mark.parametrize("rel", _scripts())
def test_help_prints_usage_and_writes_nothing(rel, tmp_path):
    cmd, extra = _command(rel)
    if cmd[0] == KICAD_PY and subprocess.run(
            [KICAD_PY, "-c", "import pcbnew"], capture_output=True).returncode != 0:
        pytest.skip("no KiCad 6 pcbnew in %s (pcb/generate.py runs there)" % KICAD_PY)
    before = _checkout_state()
    work = tmp_path / "cwd"
    work.mkdir()
    env = dict(os.environ, **extra)
    r = subprocess.run(cmd, cwd=str(work), capture_output=True, text=True, timeout=120,
                       env=env)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "usage:" in out.lower(), out
    assert os.listdir(str(work)) == [], "wrote %s" % os.listdir(str(work))
    assert _checkout_state() == before, "changed the checkout"
    shutil.rmtree(str(work))
