"""docs/players.md, the players' page (issue 35.20): the answer first (the keypad, a deal step
by step, the settings), its pictures made by the project's own tools
(tools/player/players_pictures.py: the key-map card, and the simulator running the firmware) and
up to date with them."""

import os
import re
import subprocess
import sys

import pytest
from hostenv import ROOT

import players_pictures as P

DOC = os.path.join(ROOT, "docs", "players.md")


def text():
    with open(DOC, encoding="utf-8") as f:
        return f.read()


def shown():
    """The pictures the page shows, in order (paths relative to docs/)."""
    return re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", text())


def test_the_page_puts_the_answer_first():
    t = text()
    heads = re.findall(r"^#+ (.*)$", t, re.M)
    assert heads[:4] == ["Playing on the board", "The keys", "A deal, step by step",
                         "The settings"], heads
    assert heads.index("In detail") > 3  # the detail below the short part
    short = t[:t.index("# In detail")]
    assert shown()[0] == "players/keypad.svg" and "players/keypad.svg" in short
    for setting in ("players", "game", "muggins", "skunk", "match", "deal", "bright", "limit",
                    "watchdog", "cards", "auto-dimming"):  # board/settings.py's NAMES, each a row
        assert re.search(r"^\| %s \|" % setting, short, re.M), setting


def test_every_picture_is_there_and_made_by_the_script():
    made = ["players/" + P.KEYPAD] + ["players/" + name for name, _k, _w in P.STEPS]
    assert shown() == made  # every step's picture, in the deal's order, and nothing else
    for pic in made:
        assert os.path.getsize(os.path.join(ROOT, "docs", pic)) > 1000, pic


def test_the_script_runs_and_the_pictures_are_up_to_date(tmp_path):
    """python tools/player/players_pictures.py FOLDER makes the same pictures the page shows: a
    change to the firmware's display, the key map or the simulator's drawing shows here
    (run the script again)."""
    from PIL import Image, ImageChops

    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "player",
                                                     "players_pictures.py"), str(tmp_path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.splitlines()) == 1 + len(P.STEPS)
    with open(tmp_path / P.KEYPAD, encoding="utf-8") as f:
        new = f.read()
    with open(os.path.join(P.OUT, P.KEYPAD), encoding="utf-8") as f:
        assert f.read() == new, ("docs/players/keypad.svg is stale: run "
                                 "tools/player/players_pictures.py")
    for name, _keys, _what in P.STEPS:
        a = Image.open(tmp_path / name).convert("RGB")
        b = Image.open(os.path.join(P.OUT, name)).convert("RGB")
        assert a.size == b.size and ImageChops.difference(a, b).getbbox() is None, (
            "docs/players/%s is stale: run tools/player/players_pictures.py" % name)


def test_a_deal_that_goes_wrong_is_refused(monkeypatch):
    """The script checks the board did what the guide says (no refused key): a picture of a
    refusal is never put in the guide by mistake."""
    monkeypatch.setattr(P, "STEPS", P.STEPS[:2] + [("x.png", "5X", "not a key")])
    with pytest.raises(Exception):  # noqa: B017  (a bad key script, or the board refusing)
        P.states()
    monkeypatch.setattr(P, "STEPS", P.STEPS[:2] + [("x.png", "3B 3B", "a card twice")])
    with pytest.raises(RuntimeError, match="did not go as the guide tells"):
        P.states()
