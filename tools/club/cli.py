"""The club's commands for its boards and its broker (issue 30):

    python -m club boards add NAME [--unsigned] [--host ADDRESS] [--port N] [--wifi FILE]
    python -m club boards list
    python -m club boards remove NAME
    python -m club broker-files
    python -m club season add NAME (--first YYYY-MM-DD (--last YYYY-MM-DD | --weeks N)
                                    | --nights N1,N2,..)
    python -m club season calendar YYYY-MM-DD --weeks N | calendar --off  (one a year)
    python -m club season list | remove NAME
    python -m club league-bridge --club NAME --league HOST:PORT --user U --password P
    python -m club league-keys          (the boards' keys, JSON, for the league: private)
    python -m club league add-club NAME KEYS.json | files | serve --broker HOST:PORT
    python -m club release BUNDLE... | --board pico_w   (keep a release: releases.py)
    python -m club league player NAME@CLUB [LEAGUE-NAME] | players   (a player across clubs)
    python -m club league calendar YYYY-MM-DD --weeks N | --off | checkpoint
    (league.py says what each does)
    (each with [--db club.sqlite] [--broker-dir club-broker] [--prefix cribbage])

`boards add` makes the board's secret and prints the Wi-Fi file's broker entry that
`make flash` writes onto the board (with --wifi FILE: FILE's network and that entry written
to wifi-NAME.json beside it, for make flash BOARD=... WIFI=wifi-NAME.json); add, remove and
broker-files write Mosquitto's password file and ACL into the broker's folder (registry.py)
and, if the broker runs there
(club-broker/mosquitto.pid, `make broker` writes it), make it read them again (SIGHUP).
"""

import argparse
import json
import os
import signal
import sys

from . import contract, season
from .registry import SERVICE_USER, Registry, broker_files
from .store import Store


def _reload(folder):
    """SIGHUP to the broker started in folder (make broker: its pid file), if it runs."""
    try:
        with open(os.path.join(folder, "mosquitto.pid")) as f:
            pid = int(f.read().split()[0])
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            if b"mosquitto" not in f.read():
                return False
        os.kill(pid, signal.SIGHUP)
        return True
    except (OSError, ValueError, IndexError):
        return False


def _files(reg, a):
    passwd, acl = broker_files(reg, a.broker_dir, a.prefix, a.service_user, owner=a.owner)
    told = _reload(a.broker_dir)
    print("wrote %s and %s%s" % (passwd, acl, " (the broker reloads them)" if told else
                                 " (a running broker reads them on SIGHUP or a restart)"),
          file=sys.stderr)


def _calendar(a, set_calendar):
    """season calendar, league calendar: --weeks weeks from a first night, one a year, or
    --off."""
    if a.off == bool(a.first):
        raise ValueError("a calendar needs its first night and --weeks (or --off alone)")
    set_calendar(a.first, a.weeks)


def _calendar_args(parser, off):
    """The calendar commands' arguments (the club's seasons, the league's); off: what --off
    gives."""
    parser.add_argument("first", nargs="?", default=None, help="the first season's first night")
    parser.add_argument("--weeks", type=int, default=36)
    parser.add_argument("--off", action="store_true", help=off)


def _league(a):
    from . import league
    if a.cmd == "league-bridge":
        host, _, port = a.league.partition(":")
        text = league.bridge_conf(a.club, host, int(port or 1883), a.user or a.club,
                                  a.password, a.prefix)
        confd = os.path.join(a.broker_dir, "conf.d")
        os.makedirs(confd, exist_ok=True)
        out = os.path.join(confd, "league-bridge.conf")
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(text)
        print("wrote %s: restart the broker (a bridge is read at its start)" % out,
              file=sys.stderr)
        return 0
    lg = league.League(a.folder)
    if a.what == "add-club":
        with open(a.keys) as f:
            boards = json.load(f)
        lg.add_club(a.name, boards)
        print(json.dumps({"club": a.name, "bridge_password": lg.bridge_password(a.name)}))
    elif a.what == "player":
        lg.player(a.at, a.name)
        print("%s is %s at the league (restart the league service to count it so)"
              % (a.at, a.name or a.at), file=sys.stderr)
    elif a.what == "calendar":
        _calendar(a, lg.set_calendar)
        print("the league's seasons: %s (restart the league service to count them so)"
              % ("%d weeks from %s, one a year" % (a.weeks, a.first) if a.first
                 else "calendar years"), file=sys.stderr)
    elif a.what == "checkpoint":
        print("saved the tally of %d games (%s)" % (lg.checkpoint(), league.CHECKPOINT),
              file=sys.stderr)
    elif a.what == "players":
        for at, name in sorted(lg.players.items()):
            print("%s\t%s" % (at, name))
    else:
        print("wrote %s and %s" % lg.files(), file=sys.stderr)
    return 0


def _season(a):
    st = Store(a.db)
    try:
        if a.what == "calendar":
            _calendar(a, st.set_calendar)
        elif a.what == "list":
            cal = st.calendar()
            if cal:
                print("calendar: %d weeks from %s, one a year" % (cal["weeks"], cal["first"]))
            for s in season.seasons(st):
                print("%-20s %s..%s%s" % (s["name"], s["first"], s["last"],
                                          " (%d nights chosen)" % len(s["nights"])
                                          if s["nights"] else ""))
        elif a.what == "remove":
            if not st.remove_season(a.name):
                print("no season %r" % a.name, file=sys.stderr)
                return 1
        else:
            nights = [n.strip() for n in a.nights.split(",") if n.strip()] if a.nights \
                else None
            if nights is None and not (a.first and (a.last or a.weeks)):
                raise ValueError("a season needs --first and --last (or --weeks), or --nights")
            last = season.last_of(a.first, a.weeks) if a.weeks and nights is None else a.last
            st.set_season(a.name, a.first, last, nights)
    finally:
        st.close()
    return 0


def _release(a):
    """python -m club release: bundles kept in the club's file (releases.py checks each)."""
    from .releases import BUNDLE_MOST, Releases

    paths = list(a.bundle)
    if a.board:
        import tempfile

        import release
        out = tempfile.mkdtemp(prefix="club-release-")
        paths += [release.make(b, out) for b in dict.fromkeys(a.board)]
    if not paths:
        print("release: name a bundle, or --board pico_w to build one", file=sys.stderr)
        return 2
    rel = Releases(a.db)
    try:
        for p in paths:
            try:
                with open(p, "rb") as f:
                    v, k = rel.add(f.read(BUNDLE_MOST + 1))
            except (OSError, ValueError) as e:
                print("release: %s: %s" % (p, e), file=sys.stderr)
                return 1
            print("release %s for %s kept (%s): publish it from the director's page"
                  % (v, k, os.path.basename(p)))
    finally:
        rel.close()
    return 0


def main(argv):
    ap = argparse.ArgumentParser(prog="python -m club",
                                 description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--db", default="club.sqlite", help="the club's SQLite file")
    ap.add_argument("--broker-dir", default="club-broker",
                    help="the broker's folder (make broker runs Mosquitto there)")
    ap.add_argument("--prefix", default=contract.PREFIX)
    ap.add_argument("--service-user", default=SERVICE_USER,
                    help="the club service's MQTT account (made if missing)")
    ap.add_argument("--owner", default=None, help="run as root: the user the broker runs as "
                    "(its files are given to it; default mosquitto, if it exists)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("boards", help="add, list or remove the club's boards")
    bs = b.add_subparsers(dest="what", required=True)
    add = bs.add_parser("add", help="a new board: its key, and its Wi-Fi file's broker entry")
    add.add_argument("name")
    add.add_argument("--unsigned", action="store_true", help="its firmware cannot sign yet: "
                     "take its plain games (not authenticated: the page warns)")
    add.add_argument("--host", default=None, help="the broker's address as the board sees it "
                     "(default: the Wi-Fi file's broker host, if it names one)")
    add.add_argument("--port", type=int, default=None)
    add.add_argument("--wifi", default=None, help="a Wi-Fi file ({\"ssid\", \"password\"}): "
                     "written again as wifi-NAME.json beside it, with the board's entry")
    bs.add_parser("list")
    rm = bs.add_parser("remove")
    rm.add_argument("name")
    sub.add_parser("broker-files", help="write the broker's password file and ACL")
    se = sub.add_parser("season", help="the club's seasons (none set: one a year)")
    ses = se.add_subparsers(dest="what", required=True)
    sa = ses.add_parser("add", help="a season: a range of nights, or a list of them")
    sa.add_argument("name")
    sa.add_argument("--first")
    sa.add_argument("--last")
    sa.add_argument("--weeks", type=int, help="instead of --last: the season's length")
    sa.add_argument("--nights", help="the nights, comma-separated (YYYY-MM-DD,...)")
    _calendar_args(ses.add_parser("calendar", help="seasons of --weeks weeks from a first "
                                  "night, one a year (on its weekday, on or after its "
                                  "anniversary)"), "no calendar")
    ses.add_parser("list")
    sr = ses.add_parser("remove")
    sr.add_argument("name")
    lb = sub.add_parser("league-bridge", help="the club broker's bridge to a league")
    lb.add_argument("--club", required=True, help="the club's name in the league")
    lb.add_argument("--league", required=True, help="HOST:PORT of the league's broker")
    lb.add_argument("--user", default=None, help="the club's bridge account (default: --club)")
    lb.add_argument("--password", required=True, help="its password (league add-club's)")
    sub.add_parser("league-keys", help="print the club's boards and keys (JSON) for a league")
    lg = sub.add_parser("league", help="the league's side: add-club, files, serve")
    lg.add_argument("--folder", default="league", help="the league's folder (a file a club)")
    lgs = lg.add_subparsers(dest="what", required=True)
    ac = lgs.add_parser("add-club", help="a club and its boards' keys (league-keys' JSON)")
    ac.add_argument("name")
    ac.add_argument("keys")
    lgs.add_parser("files", help="write the league broker's password file and ACL")
    pl = lgs.add_parser("player", help="a club's player is the league's player NAME (the "
                        "same at every club they play at); without NAME: their own again")
    pl.add_argument("at", help="NAME@CLUB: the name as the club's boards write it")
    pl.add_argument("name", nargs="?", default=None, help="the league's name for the player")
    lgs.add_parser("players", help="list the league's players named across clubs")
    _calendar_args(lgs.add_parser("calendar", help="the league's seasons: --weeks weeks from "
                                  "a first night, one a year (none: calendar years)"),
                   "calendar years")
    lgs.add_parser("checkpoint", help="save the tally now (the service saves it as it runs)")
    sv = lgs.add_parser("serve", help="the league service: its page and MQTT intake")
    sv.add_argument("--broker", default="127.0.0.1:1883")
    sv.add_argument("--http", type=int, default=8125)
    sv.add_argument("--bind", default="0.0.0.0")
    rl = sub.add_parser("release", help="keep a release for the director to publish (a bundle "
                        "make release built, or one built now from this checkout)")
    rl.add_argument("bundle", nargs="*", help="bundles (tools/maker/release.py build's)")
    rl.add_argument("--board", action="append", default=[], choices=("pico", "pico_w",
                    "esp32"), help="build this board's bundle from the checkout (again for more)")
    a = ap.parse_args(argv)
    if a.cmd == "league" and a.what == "serve":  # (a service: its faults keep their traceback)
        from . import league
        return league.serve(a.folder, a.broker, a.bind, a.http)
    try:
        return _command(a)
    except ValueError as e:  # what the club refuses (a name, a date, a file of keys): said
        print(e, file=sys.stderr)
        return 1


def _command(a):
    if a.cmd == "release":
        return _release(a)
    if a.cmd == "season":
        return _season(a)
    if a.cmd in ("league-bridge", "league"):
        return _league(a)
    reg = Registry(a.db)
    try:
        if a.cmd == "league-keys":
            from .league import keys_json
            print(keys_json(reg))
        elif a.cmd == "broker-files":
            _files(reg, a)
        elif a.what == "list":
            for row in reg.boards():
                print("%-16s %s" % (row["name"], "unsigned" if row["unsigned"] else "signed"))
        elif a.what == "remove":
            if not reg.remove(a.name):
                print("no board %r" % a.name, file=sys.stderr)
                return 1
            _files(reg, a)
        else:
            if a.name in reg.accounts():
                raise ValueError("%r is a service account's name" % a.name)
            secret = reg.add(a.name, a.unsigned)
            _files(reg, a)
            cfg = None
            if a.wifi:
                with open(a.wifi) as f:
                    cfg = json.load(f)
            old = cfg.get("broker") if isinstance(cfg, dict) else None
            old = old if isinstance(old, dict) else {}
            entry = {"host": a.host or old.get("host") or "BROKER-ADDRESS", "board": a.name,
                     "secret": secret.hex()}
            if a.port or old.get("port"):
                entry["port"] = a.port or old["port"]
            print(json.dumps({"broker": entry}))
            if cfg is not None:
                cfg["broker"] = entry
                out = os.path.join(os.path.dirname(a.wifi) or ".", "wifi-%s.json" % a.name)
                fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(fd, "w") as f:
                    json.dump(cfg, f)
                print("wrote %s (the board's key is in it: keep it private): make flash "
                      "BOARD=... WIFI=%s" % (out, out), file=sys.stderr)
    finally:
        reg.close()
    return 0
