"""A league of simulated clubs on this machine (issue 36; `make league-demo`): the league's
Mosquitto (its password file and ACL from league.py), a Mosquitto a club bridged to it by the
config `python -m club league-bridge` writes, simulated boards at each club playing real games
of the core, signed with their keys, and the league service (`python -m club league serve`).
After every game it prints the game and the league's standings and ratings as the league's
page serves them at that moment (/standings.json, polled until the game is counted).

    python tools/clubnet/league_demo.py [--clubs 3] [--boards 2] [--games 30] [--pace 1.0]
                                [--http 8125] [--folder DIR] [--exit]

One player, Ann, plays at two clubs: the league's director has named her one player (`python
-m club league player Ann@north "Ann Lee"`, the same for south), so her games at both count as
one player's; every other player is NAME@CLUB. The clubs' brokers let their boards in without
an account here (a club's own door: make broker, docs/club.md); the league's broker and door
are as shipped: each game is checked with its board's key at the league. Needs
/usr/sbin/mosquitto. Ctrl-C stops it all (with --exit it stops after the games).
"""

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
import hostenv  # noqa: F401
from hostenv import ROOT
from localnet import publishers, stop


sys.path.insert(0, os.path.join(ROOT, "tools"))
from club import league  # noqa: E402
from club.simboard import SimBoard  # noqa: E402
from club.web import today  # noqa: E402
from league_scale import MOSQUITTO, broker  # noqa: E402

CLUBS = ["north", "south", "east", "west", "harbour", "mill"]
ROSTER = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def main(argv=None):
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--clubs", type=int, default=3, choices=range(2, len(CLUBS) + 1))
    ap.add_argument("--boards", type=int, default=2, help="boards a club")
    ap.add_argument("--games", type=int, default=30, help="games in all")
    ap.add_argument("--pace", type=float, default=1.0, help="seconds between games")
    ap.add_argument("--http", type=int, default=8125, help="the league page's port (0: any)")
    ap.add_argument("--folder", default=None, help="where the league and brokers keep their "
                    "files (default: a new temporary folder)")
    ap.add_argument("--exit", action="store_true", help="stop after the games")
    a = ap.parse_args(argv)
    if not os.path.exists(MOSQUITTO):
        print("league-demo needs Mosquitto (%s): apt-get install mosquitto" % MOSQUITTO,
              file=sys.stderr)
        return 1
    tmp = a.folder or tempfile.mkdtemp(prefix="league-demo-")
    os.makedirs(tmp, exist_ok=True)
    folder = os.path.join(tmp, "league")
    rnd = random.Random(36)
    lg = league.League(folder)
    boards = {}  # club -> [SimBoard]
    kept = os.path.join(tmp, "boards.json")  # a --folder used again: its boards go on
    try:
        with open(kept) as f:
            was = json.load(f)  # "club/board" -> [secret hex, last counter, games]
    except FileNotFoundError:
        was = {}
    for i, club in enumerate(CLUBS[:a.clubs]):
        bs = [SimBoard("t%d" % (j + 1), seed=100 * i + j) for j in range(a.boards)]
        for b in bs:  # (a board keeps its key, counter and game number on its flash)
            if "%s/%s" % (club, b.name) in was:
                secret, b.counter, b.n = was["%s/%s" % (club, b.name)]
                b.secret = bytes.fromhex(secret)
        lg.add_club(club, [{"name": b.name, "secret": b.secret.hex()} for b in bs])
        boards[club] = bs

    def keep():
        for club, bs in boards.items():
            for b in bs:
                was["%s/%s" % (club, b.name)] = [b.secret.hex(), b.counter, b.n]
        with open(kept + ".tmp", "w") as f:
            json.dump(was, f)
        os.replace(kept + ".tmp", kept)
    keep()
    for club in CLUBS[:2]:
        lg.player("Ann@%s" % club, "Ann Lee")  # one player at two clubs
    passwords = {c: lg.bridge_password(c) for c in boards}
    lg.files()
    service_pw = lg.service_password()
    for c in lg.clubs.values():
        c.store.close()
        c.registry.close()
    del service_pw
    procs = []
    svc = None
    pubs = {}
    try:
        lb, lport = broker(os.path.join(tmp, "league-broker"), [
            "allow_anonymous false", "password_file %s/league.passwd" % folder,
            "acl_file %s/league.acl" % folder, "max_queued_messages 0",
            "persistence true", "persistence_location %s/league-broker/" % tmp])
        procs.append(lb)
        ports = {}
        for club in boards:
            conf = league.bridge_conf(club, "127.0.0.1", lport, club, passwords[club])
            p, port = broker(os.path.join(tmp, club + "-broker"), [
                "allow_anonymous true", "max_queued_messages 0", "persistence true",
                "persistence_location %s/%s-broker/" % (tmp, club)] + conf.splitlines()[1:])
            procs.append(p)
            ports[club] = port
        env = dict(os.environ)
        env["PYTHONPATH"] = os.path.join(ROOT, "tools") + os.pathsep + env.get("PYTHONPATH",
                                                                               "")
        svc = subprocess.Popen(
            [sys.executable, "-m", "club", "league", "--folder", folder, "serve", "--broker",
             "127.0.0.1:%d" % lport, "--http", str(a.http), "--bind", "127.0.0.1"],
            env=env, stdout=subprocess.PIPE,
            stderr=open(os.path.join(tmp, "league.log"), "w"), text=True)  # noqa: SIM115
        http = None
        while http is None:
            line = svc.stdout.readline() if svc.stdout else ""
            if not line:
                print("the league service stopped: see %s/league.log" % tmp, file=sys.stderr)
                return 1
            if line.startswith("ready http "):
                http = int(line.split()[2])
        base = "http://127.0.0.1:%d" % http
        print("league page: %s/  (standings.json, season.csv, health.json there)" % base)
        print("files: %s (the league's SQLite a club, players.json; the service's log "
              "league.log; each broker's folder)" % tmp, flush=True)
        until = time.monotonic() + 30
        while not get(base + "/health.json")["connected"]:
            if time.monotonic() > until:
                print("the league service did not connect to its broker", file=sys.stderr)
                return 1
            time.sleep(0.2)
        pubs.update(publishers(ports, "boards-"))
        time.sleep(2)  # the bridges connect
        night = today()
        before = get(base + "/standings.json")["games"]  # (a --folder used again)
        for n in range(1, a.games + 1):
            club = rnd.choice(sorted(boards))
            b = rnd.choice(boards[club])
            b.seat(rnd.sample(ROSTER, 2))
            msg = b.play()
            msg["night"] = night
            t = time.monotonic()
            pubs[club].publish("cribbage/%s/game" % b.name, b.signed(msg), qos=1)
            keep()
            js = None
            while time.monotonic() < t + 30:
                js = get(base + "/standings.json")
                if js["games"] >= before + n:
                    break
                time.sleep(0.05)
            took = time.monotonic() - t
            g = msg["game"]
            win = [s["name"] for s in msg["seats"] if s["side"] == g["winner"]]
            lose = [s["name"] for s in msg["seats"] if s["side"] != g["winner"]]
            scores = sorted((s["score"] for s in g["by_side"]), reverse=True)
            print("game %d at %s (%s): %s beat %s %d-%d (%s); in the league's standings "
                  "after %.2f s" % (n, club, b.name, "/".join(win), "/".join(lose),
                                    min(scores[0], g["target"]), scores[1], g["result"],
                                    took))
            if js is None or js["games"] < before + n:
                print("  not counted yet: see %s/league.log" % tmp, flush=True)
                continue
            top = js["standings"][:3]
            print("  standings: " + "; ".join("%d. %s %d GRP %d pts" % (
                r["place"], r["name"], r["grp"], r["points"]) for r in top))
            print("  ratings:   " + "; ".join("%s %.0f" % (r["name"], r["rating"])
                                              for r in js["ratings"][:3]), flush=True)
            time.sleep(a.pace)
        print("%d games: the league page is %s/ (Ctrl-C stops the demo)" % (a.games, base),
              flush=True)
        if not a.exit:
            signal.sigwait([signal.SIGINT, signal.SIGTERM])
        return 0
    except KeyboardInterrupt:
        return 0
    finally:
        stop(pubs.values(), [svc] + procs)


if __name__ == "__main__":
    sys.exit(main())
