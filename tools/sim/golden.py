"""What the user sees, as digests: run scripted games of every kind on the simulated board and
hash, after every key, the LED frame and the display's lines, and at the end every saved file
(then the same after a restart from those files). A change that must not change what the user
sees (a refactor) keeps every digest.

    .venv/bin/python tools/sim/golden.py --write /tmp/before.json  # on the commit before
    .venv/bin/python tools/sim/golden.py --check /tmp/before.json  # after: exit 1 on a difference

Scenarios: computer players' whole games (2-6 players, 121 and 61, five-card cribbage, every
strategy), the same games with undo/redo holds and stray keys pressed at seeded random places,
settings changed through the menu (muggins, skunks, match modes, deal), and seeded random key
storms from the whole keypad and the buttons (the menu, penalties, refusals, long holds). The
digests depend only on the firmware's behaviour: time is virtual in scripted runs.
"""

import argparse
import hashlib
import json
import os
import sys
import tempfile

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from dealer import autoplay

from sim.games import game_keys, settings_keys
from sim.keys import GAP_MS, HOLD_MS, LONG_MS, parse_keys
from sim.runner import Sim

KEYS = "0123456789ABCD*#"


def _rand(seed):
    return autoplay.seeded(seed)


def _sprinkle(cmds, seed, every=9):
    """Insert undo/redo holds and stray keys at seeded places into a command list."""
    rand = _rand(seed)
    out = []
    for c in cmds:
        out.append(c)
        if rand(every) == 0:
            k = rand(6)
            if k == 0:
                out.append("key * %d %d" % (LONG_MS, GAP_MS))  # undo
            elif k == 1:
                out.append("key * %d %d" % (LONG_MS, GAP_MS))
                out.append("key # %d %d" % (LONG_MS, GAP_MS))  # undo, redo
            elif k == 2:
                out.append("key %s %d %d" % (KEYS[rand(16)], HOLD_MS, GAP_MS))
            elif k == 3:
                out.append("key %s %d %d" % ("ab"[rand(2)], HOLD_MS, GAP_MS))  # a +1 button
            else:
                out.append("wait %d" % (100 + rand(3000)))
    return out


def _storm(seed, n):
    rand = _rand(seed)
    out = []
    for _ in range(n):
        r = rand(40)
        if r < 34:
            out.append("key %s %d %d" % (KEYS[rand(16)], HOLD_MS, GAP_MS))
        elif r < 37:
            out.append("key %s %d %d" % (KEYS[rand(16)], LONG_MS, GAP_MS))
        elif r < 39:
            out.append("key %s %d %d" % ("ab"[rand(2)], HOLD_MS, GAP_MS))
        else:
            out.append("wait %d" % (rand(5000)))
    return out


def scenarios(quick=False):
    """(name, settings keys, command list) for every scripted run."""
    out = []
    seeds = (1, 2) if quick else (1, 2, 3, 4)
    for players in (2, 3, 4, 5, 6):
        for seed in seeds[: 2 if players > 2 else len(seeds)]:
            strat = [seed % 4] * players
            keys, _ = game_keys(seed, players=players, strategies=strat)
            out.append(("game p%d s%d" % (players, seed), parse_keys(keys)))
    for seed in seeds[:2]:
        keys, _ = game_keys(seed, target=61)
        out.append(("game 61 s%d" % seed, parse_keys(keys)))
        keys, _ = game_keys(seed, cards=5)
        out.append(("five s%d" % seed, parse_keys(keys)))
    for seed in seeds:
        players = 2 + seed % 3
        keys, _ = game_keys(seed + 10, players=players)
        out.append(("sprinkled p%d s%d" % (players, seed), _sprinkle(parse_keys(keys), seed)))
    for name, values in (("muggins", dict(muggins=1)), ("skunk off", dict(skunk=0)),
                         ("best of 3", dict(match=1)), ("acc", dict(match=3)),
                         ("loser deals", dict(deal=1))):
        keys, _ = game_keys(7)
        cmds = parse_keys(settings_keys(**values)) + _sprinkle(parse_keys(keys), 70, every=15)
        out.append(("settings " + name, cmds))
    for seed in seeds:
        out.append(("storm s%d" % seed, _storm(seed, 600 if quick else 1500)))
    return out


def _files(storage):
    h = hashlib.sha256()
    for root, _, names in sorted(os.walk(storage)):
        for n in sorted(names):
            if n == "frame":  # (the saved frame: the LEDs' View, derived, saved with the game
                continue  # for the next power-up; the frame after the restart is hashed)
            p = os.path.join(root, n)
            h.update(os.path.relpath(p, storage).encode() + b"\0")
            with open(p, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def run(name, cmds, firmware=None):
    """The scenario's digest: frames and display lines after every command, saved files, and
    the board restarted from them."""
    h = hashlib.sha256()
    with tempfile.TemporaryDirectory() as storage:
        sim = Sim(storage, firmware)
        try:
            for c in cmds:
                sim.send(c)
                st = sim.state()
                if st.get("crash"):
                    raise RuntimeError("%s: the app crashed:\n%s" % (name, st["crash"]))
                h.update(st["frame"].encode())
                h.update(json.dumps(st.get("display")).encode())
        finally:
            sim.close()
        files = _files(storage)
        sim = Sim(storage, firmware)
        try:
            st = sim.state()
        finally:
            sim.close()
        h.update(files.encode())
        h.update(st["frame"].encode())
        h.update(json.dumps(st.get("display")).encode())
    return h.hexdigest()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--write", metavar="FILE", help="write the digests to FILE")
    p.add_argument("--check", metavar="FILE", help="compare with FILE's digests")
    p.add_argument("--quick", action="store_true", help="fewer and shorter scenarios")
    p.add_argument("--firmware", help="firmware tree (default firmware/)")
    a = p.parse_args(argv)
    got = {}
    for name, cmds in scenarios(a.quick):
        got[name] = run(name, cmds, a.firmware)
        print("%-22s %5d keys  %s" % (name, len(cmds), got[name][:16]), flush=True)
    if a.write:
        with open(a.write, "w") as f:
            json.dump(got, f, indent=1, sort_keys=True)
    if a.check:
        with open(a.check) as f:
            want = json.load(f)
        bad = [n for n in want if got.get(n) != want[n]]
        if bad:
            print("differs: " + ", ".join(bad))
            return 1
        print("all %d scenarios identical" % len(want))
    return 0


if __name__ == "__main__":
    sys.exit(main())
