"""A league's full season, measured (issue 36; not a test): CLUBS clubs, BOARDS boards between
them, two players a board, a Grass Roots season (GAMES a night × WEEKS weekly nights × the
players: every player plays every game of every night) counted by the league's code
(league.League: each game signed with its board's key, checked at the league's door, stored,
and counted by the tally into the season standings and ratings), a few games withdrawn and
played again (an undo on the board), one club a week late (its games carry their night).

The league's calendar is the Grass Roots season (WEEKS weeks from FIRST, a Monday of September:
the season crosses the year's end, one season at the league). Its tally is saved
(League.checkpoint) before the last night in the process, as the service saves it as it
runs; at the end the service's start is measured both ways: from the checkpoint and the
games since (the last night), and counting every stored game again (no checkpoint: before
it existed), and the two tallies compared, record for record.

Prints, over the whole season: the time from a game's message reaching the league service to
its standings and ratings having it (median, p99, worst); a standings request's time (the
season's GRP standings and every rating) as the season grows; the service's memory (RSS of
this process: the league's state, not the generator's, which keeps one night at a time) and
the databases' size. With --bridged N, the last N nights go through real Mosquittos: a broker
a club bridged (league.py's bridge config) to the league's broker, the league's intake as
`python -m club league serve` runs it (service.connect), and the time is from the publish at
the club's broker to the standings having the game.

    python tools/clubnet/league_season.py [--clubs 20] [--boards 500] [--weeks 36] [--games 9]
                                  [--bridged 1] [--rate 100] [--tmp /dev/shm] [--json F]
                                  [--pool 300] [--no-full-start]

Games are real games of the core (simboard.py: POOL of them, made once) re-seated for each
pairing: making a game costs ~0.1 s of CPU, a season ~160,000 of them. Everything runs in a
temporary folder, brokers on 127.0.0.1 at free ports.
"""

import argparse
import copy
import datetime
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
import hostenv  # noqa: F401
from hostenv import ROOT
from localnet import publishers, stop

sys.path.insert(0, os.path.join(ROOT, "tools"))
from club import league  # noqa: E402
from club.sign import frame  # noqa: E402
from club.simboard import SimBoard, payload  # noqa: E402

POOL = 300
FIRST = datetime.date(2025, 9, 1)  # a Monday: the season's first night


def rss_kb(key="VmRSS"):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def db_bytes(folder, wal=True):
    return sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder)
               if f.endswith(".sqlite") or (wal and ".sqlite-" in f))


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1)))]


class Board:
    """A board's name, key and counter at one club (its games come from the pool)."""

    def __init__(self, name, secret):
        self.name = name
        self.secret = secret
        self.counter = 0
        self.n = 0

    def game(self, template, names, night):
        self.n += 1
        msg = copy.deepcopy(template)
        msg["id"] = "%s-%d" % (self.name, self.n)
        msg["board"] = self.name
        for seat, name in zip(msg["seats"], names):
            seat["name"] = name
        msg["game"]["game"] = self.n
        msg["night"] = night
        return msg

    def sign(self, msg):
        self.counter += 1
        return frame(self.secret, self.counter, payload(msg))


def night_games(rnd, pool, clubs, games, night):
    """A night: for each of its games, each club's players paired at its boards."""
    out = []  # (club, board, message)
    for _ in range(games):
        for club, (boards, players) in clubs.items():
            order = rnd.sample(players, len(players))
            for i, b in enumerate(boards):
                out.append((club, b, b.game(rnd.choice(pool), order[2 * i:2 * i + 2], night)))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--clubs", type=int, default=20)
    ap.add_argument("--boards", type=int, default=500)
    ap.add_argument("--weeks", type=int, default=36)
    ap.add_argument("--games", type=int, default=9, help="games a player a night")
    ap.add_argument("--bridged", type=int, default=0, help="the last N nights by brokers")
    ap.add_argument("--rate", type=float, default=100, help="bridged: games a second")
    ap.add_argument("--undo", type=float, default=0.005, help="games withdrawn and replayed")
    ap.add_argument("--json", default=None)
    ap.add_argument("--tmp", default=None, help="the folder's parent (/dev/shm: the CPU's "
                    "cost alone, not the disk's sync a game)")
    ap.add_argument("--keep", action="store_true", help="keep the league's folder")
    ap.add_argument("--pool", type=int, default=POOL, help="real games made, re-seated")
    ap.add_argument("--no-full-start", action="store_true", help="measure the start from "
                    "the checkpoint only (not counting every game again too)")
    a = ap.parse_args(argv)
    rnd = random.Random(36)
    t0 = time.monotonic()
    pool = []
    for i in range(max(1, a.pool // 20)):
        b = SimBoard("p", seed=900 + i)
        for _ in range(min(20, a.pool)):
            pool.append(json.loads(payload(b.play())))
    print("pool of %d games in %.0f s" % (len(pool), time.monotonic() - t0), flush=True)
    tmp = tempfile.mkdtemp(prefix="league-season-", dir=a.tmp)
    folder = os.path.join(tmp, "league")
    lg = league.League(folder)
    lg.set_calendar(FIRST.isoformat(), min(a.weeks, 52))
    per = a.boards // a.clubs
    clubs = {}
    for i in range(a.clubs):
        name = "c%02d" % i
        boards = [Board("t%d" % j, os.urandom(32)) for j in range(per)]
        lg.add_club(name, [{"name": b.name, "secret": b.secret.hex()} for b in boards])
        clubs[name] = (boards, ["p%d" % k for k in range(2 * per)])
    done = {}
    lg.on_count = lambda club, gid: done.__setitem__((club, gid), time.perf_counter())
    late = "c%02d" % (a.clubs - 1)  # offline a week: its nights arrive with the next
    held = []
    lat = []
    weekly = []
    rss0 = rss_kb()
    nights = [(FIRST + datetime.timedelta(days=7 * w)).isoformat() for w in range(a.weeks)]
    direct = nights[:len(nights) - a.bridged]
    saved = {}
    for w, n in enumerate(direct):
        if w == len(direct) - 1 and w:  # the tally saved before the last night
            t = time.perf_counter()
            saved["games"] = lg.checkpoint()
            saved["s"] = round(time.perf_counter() - t, 2)
            saved["bytes"] = os.path.getsize(os.path.join(folder, league.CHECKPOINT))
        for c in lg.clubs.values():
            c.night = lambda n=n: n
        todo = night_games(rnd, pool, clubs, a.games, n)
        if w == (len(direct) - 1) // 2:  # the late club: this night held, sent with the next
            held = [x for x in todo if x[0] == late]
            todo = [x for x in todo if x[0] != late]
        elif held:
            todo, held = held + todo, []
        for club, b, msg in todo:
            data = b.sign(msg)
            t = time.perf_counter()
            got = lg.handle("league/%s/%s/game" % (club, b.name), data)
            assert got == "new", got
            lat.append(done[(club, msg["id"])] - t)
            if rnd.random() < a.undo:  # withdrawn at once (an undo) and played again
                lg.handle("league/%s/%s/game" % (club, b.name),
                          b.sign({"id": msg["id"], "board": b.name, "withdraw": True}))
                msg["seats"].reverse()
                lg.handle("league/%s/%s/game" % (club, b.name), b.sign(msg))
        t = time.perf_counter()
        rows = lg.standings(lg.tally.season_of(n))
        table = lg.tally.table()
        req = time.perf_counter() - t
        weekly.append({"night": n, "games": lg.tally.count(), "standings_ms":
                       round(1000 * req, 1), "rss_kb": rss_kb(), "db_bytes": db_bytes(folder),
                       "players": len(table), "rows": len(rows)})
        print(json.dumps(weekly[-1]), flush=True)
    out = {"clubs": a.clubs, "boards": per * a.clubs, "players": 2 * per * a.clubs,
           "nights": len(direct), "games": lg.tally.count(),
           "counted_median_ms": round(1000 * statistics.median(lat), 2) if lat else None,
           "counted_p99_ms": round(1000 * pct(lat, 0.99), 2) if lat else None,
           "counted_worst_ms": round(1000 * max(lat), 1) if lat else None,
           "standings_request_ms_last": weekly[-1]["standings_ms"] if weekly else None,
           "rss_kb_start": rss0, "rss_kb": rss_kb(), "hwm_kb": rss_kb("VmHWM"),
           "db_bytes": db_bytes(folder), "db_bytes_no_wal": db_bytes(folder, False),
           "cpu_s": round(resource.getrusage(resource.RUSAGE_SELF).ru_utime, 1),
           "checkpoint": saved}
    if a.bridged:
        out["bridged"] = bridged(a, lg, clubs, pool, rnd, nights[len(direct):], tmp, folder,
                                 done)
    out.update(starts(lg, folder, not a.no_full_start))
    print(json.dumps(out, indent=1))
    if not a.keep:
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        print("kept: %s" % folder)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"summary": out, "weekly": weekly}, f)


def starts(lg, folder, full=True):
    """The service's start, measured: from the checkpoint (the games since read from the
    stores), and (full) counting every stored game again, as before the checkpoint; each
    tally equal, record for record, to the running one's."""
    def same(other):
        for k in ("games", "order", "ids", "nights", "rows", "specials", "r", "hist"):
            assert getattr(other.tally, k) == getattr(lg.tally, k), k
        assert other.versions == lg.versions
    out = {}
    t = time.perf_counter()
    again = league.League(folder)
    out["start_checkpoint_s"] = round(time.perf_counter() - t, 2)
    out["start_checkpoint_games"] = again.started["checkpoint"]
    out["start_read_games"] = again.started["read"]
    same(again)
    del again
    if full:
        path = os.path.join(folder, league.CHECKPOINT)
        os.replace(path, path + ".aside")
        t = time.perf_counter()
        again = league.League(folder)
        out["start_full_s"] = round(time.perf_counter() - t, 2)
        same(again)
        del again
        os.replace(path + ".aside", path)
    return out


def bridged(a, lg, clubs, pool, rnd, nights, tmp, folder, done):
    """The last nights through real brokers: publish at a club's broker to the standings."""

    from club.service import connect
    from league_scale import broker

    passwords = {n: lg.bridge_password(n) for n in clubs}
    lg.files()
    procs = []
    lb, lport = broker(os.path.join(tmp, "league-broker"), [
        "allow_anonymous false", "password_file %s/league.passwd" % folder,
        "acl_file %s/league.acl" % folder, "max_queued_messages 0", "persistence false"])
    procs.append(lb)
    time.sleep(0.5)
    ports = {}
    for name in clubs:
        conf = league.bridge_conf(name, "127.0.0.1", lport, name, passwords[name])
        p, port = broker(os.path.join(tmp, name), ["allow_anonymous true",
                                                   "max_queued_messages 0",
                                                   "persistence false"]
                         + conf.splitlines()[1:])
        procs.append(p)
        ports[name] = port
    client = connect(lg, "127.0.0.1", lport, "league", league.SERVICE, lg.service_password())
    time.sleep(3)  # the bridges connect
    pubs = publishers(ports)
    sent = {}
    lat = []
    try:
        for n in nights:
            for c in lg.clubs.values():
                c.night = lambda n=n: n
            todo = night_games(rnd, pool, clubs, a.games, n)
            start = time.perf_counter()
            for i, (club, b, msg) in enumerate(todo):
                wait = start + i / a.rate - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                data = b.sign(msg)
                sent[(club, msg["id"])] = time.perf_counter()
                pubs[club].publish("cribbage/%s/game" % b.name, data, qos=1)
            end = time.monotonic() + 120 + len(todo) / 20
            while time.monotonic() < end and any(k not in done for k in sent):
                time.sleep(0.5)
        lat = [done[k] - t for k, t in sent.items() if k in done]
    finally:
        client.disconnect()
        client.loop_stop()
        stop(pubs.values(), procs)
    return {"nights": len(nights), "games": len(sent), "arrived": len(lat),
            "median_ms": round(1000 * statistics.median(lat), 1) if lat else None,
            "p99_ms": round(1000 * pct(lat, 0.99), 1) if lat else None,
            "worst_ms": round(1000 * max(lat), 1) if lat else None,
            "rate": a.rate, "rss_kb": rss_kb(), "db_bytes": db_bytes(folder)}


if __name__ == "__main__":
    main()
