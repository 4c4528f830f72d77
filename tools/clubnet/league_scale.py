"""A league at scale, measured (issue 36; not a test): CLUBS club brokers (Mosquitto), each
bridged by league.py's bridge config to one league broker, BOARDS boards between them, and the
league service as `python -m club league serve` runs it. Every game is a real game of the
core (simboard.py), signed with its board's key and checked at the league's door. Prints the
time from a game's publish at its club's broker to its row in the league's store (median,
worst), one league standings request's time (the standings and ratings over every game),
the league service's memory, the database's size and the brokers' memory.

    python tools/clubnet/league_scale.py [--clubs 20] [--boards 500] [--rounds 4] [--rate 50]

Club brokers here let their publisher in without a password (the clubs' own door is measured
by tools/clubnet/club_scale.py); the league's broker and door are as shipped. Needs
/usr/sbin/mosquitto. Everything runs on 127.0.0.1 at free ports, in a temporary folder.
"""

import argparse
import json
import os
import pwd
import random
import sqlite3
import statistics
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

MOSQUITTO = "/usr/sbin/mosquitto"


def free_port():
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def rss_kb(pid, key="VmRSS"):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def broker(folder, lines):
    os.makedirs(folder, exist_ok=True)
    port = free_port()
    conf = os.path.join(folder, "mosquitto.conf")
    with open(conf, "w") as f:
        f.write("\n".join(["listener %d 127.0.0.1" % port,
                           "user " + pwd.getpwuid(os.getuid()).pw_name] + lines) + "\n")
    log = open(os.path.join(folder, "log"), "w")  # noqa: SIM115
    p = subprocess.Popen([MOSQUITTO, "-c", conf], stdout=log, stderr=log)
    return p, port


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clubs", type=int, default=20)
    ap.add_argument("--boards", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=4, help="games a board")
    ap.add_argument("--rate", type=float, default=50, help="games a second, all clubs")
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="league-scale-")
    folder = os.path.join(tmp, "league")
    rnd = random.Random(7)
    lg = league.League(folder)
    per = a.boards // a.clubs
    boards = {}  # club -> [SimBoard]
    t0 = time.monotonic()
    for i in range(a.clubs):
        name = "c%02d" % i
        bs = [SimBoard("t%d" % j, seed=i * 1000 + j) for j in range(per)]
        boards[name] = bs
        lg.add_club(name, [{"name": b.name, "secret": b.secret.hex()} for b in bs])
    lg.files()
    lg.service_password()
    bridges = {n: lg.bridge_password(n) for n in boards}
    for c in lg.clubs.values():
        c.store.close()
        c.registry.close()
    games = []  # (club, board, gid, signed payload), in the order they end
    for _ in range(a.rounds):
        for name, bs in boards.items():
            pool = ["%s-p%d" % (name, k) for k in range(per * 2)]
            for b in bs:
                b.seat(rnd.sample(pool, 2))
                msg = b.play()
                games.append((name, b.name, msg["id"], b.signed(msg)))
    rnd.shuffle(games)
    made = time.monotonic() - t0
    print("%d games made in %.0f s" % (len(games), made), flush=True)
    procs = []
    lb, lport = broker(os.path.join(tmp, "league-broker"), [
        "allow_anonymous false", "password_file %s/league.passwd" % folder,
        "acl_file %s/league.acl" % folder, "max_queued_messages 0",
        "persistence false"])
    procs.append(lb)
    time.sleep(0.5)
    ports = {}
    for name in boards:
        bridge = league.bridge_conf(name, "127.0.0.1", lport, name, bridges[name])
        p, port = broker(os.path.join(tmp, name), [
            "allow_anonymous true", "max_queued_messages 0", "persistence false"]
            + bridge.splitlines()[1:])
        procs.append(p)
        ports[name] = port
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "tools") + os.pathsep + env.get("PYTHONPATH", "")
    svc = subprocess.Popen([sys.executable, "-m", "club", "league", "--folder", folder,
                            "serve", "--broker", "127.0.0.1:%d" % lport, "--http", "0",
                            "--bind", "127.0.0.1"], env=env, stdout=subprocess.PIPE,
                           stderr=open(os.path.join(tmp, "league.log"), "w"), text=True)  # noqa: SIM115
    http = None
    while http is None:
        line = svc.stdout.readline()
        if not line:
            raise SystemExit("the league service stopped: %s/league.log" % tmp)
        if line.startswith("ready http "):
            http = int(line.split()[2])
    base = "http://127.0.0.1:%d" % http
    time.sleep(2)  # the bridges connect
    pubs = publishers(ports)
    sent = {}
    start = time.time()
    for i, (name, board, gid, payload) in enumerate(games):
        due = start + i / a.rate
        wait = due - time.time()
        if wait > 0:
            time.sleep(wait)
        sent[(name, gid)] = time.time()
        pubs[name].publish("cribbage/%s/game" % board, payload, qos=1)
    total = len(games)
    end = time.time() + 120 + total / 20
    got = 0
    while time.time() < end:
        h = json.load(urllib.request.urlopen(base + "/health.json"))
        got = sum(h["clubs"].values())
        if got >= total:
            break
        time.sleep(0.5)
    t = time.monotonic()
    urllib.request.urlopen(base + "/standings.json").read()
    standings_s = time.monotonic() - t
    t = time.monotonic()
    urllib.request.urlopen(base + "/standings.json").read()
    standings_again = time.monotonic() - t
    lat = []
    size = 0
    for name in boards:
        path = os.path.join(folder, name + ".sqlite")
        size += sum(os.path.getsize(path + x) for x in ("", "-wal") if os.path.exists(path + x))
        db = sqlite3.connect(path)
        for gid, received in db.execute("SELECT id, received FROM games"):
            lat.append(received - sent[(name, gid)])
        db.close()
    lat.sort()
    out = {"clubs": a.clubs, "boards": per * a.clubs, "games": total, "arrived": got,
           "rate": a.rate,
           "store_median_ms": round(1000 * statistics.median(lat), 1),
           "store_p99_ms": round(1000 * lat[int(0.99 * (len(lat) - 1))], 1),
           "store_worst_ms": round(1000 * lat[-1], 1),
           "standings_first_s": round(standings_s, 3),
           "standings_cached_s": round(standings_again, 3),
           "league_rss_kb": rss_kb(svc.pid), "league_hwm_kb": rss_kb(svc.pid, "VmHWM"),
           "league_db_bytes": size,
           "league_broker_rss_kb": rss_kb(lb.pid),
           "club_broker_rss_kb_max": max(rss_kb(p.pid) for p in procs[1:])}
    print(json.dumps(out, indent=1))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f)
    stop(pubs.values(), [svc] + procs)


if __name__ == "__main__":
    main()
