"""A league of clubs (issue 36) on existing engines: each club's Mosquitto bridges its boards'
signed game messages to the league's Mosquitto, and the league service is the club's code
(service.Club: the same door, schema, signatures, counters and store), a Club per club.

    python -m club league-bridge --club NAME --league HOST:PORT --user U --password P
        the club's broker's bridge (its conf.d/league-bridge.conf: restart the broker)
    python -m club league-keys > NAME-keys.json       (at the club: its boards' keys)
    python -m club league add-club NAME NAME-keys.json [--folder league]
    python -m club league files [--folder league]     (the league broker's password file, ACL)
    python -m club league serve --broker HOST:PORT [--http 8125] [--folder league]
    python -m club league player NAME@CLUB [LEAGUE-NAME] | players   (a player at two clubs)
    python -m club league calendar YYYY-MM-DD --weeks 36 | --off    (the league's seasons)
    python -m club league checkpoint                  (the tally saved now: serve saves it)

The standings and ratings are kept as each game is counted (tally.py), never recomputed at a
request; a player is NAME@CLUB unless the league's director has named them (players.json);
the seasons are calendar years unless the league has a calendar (calendar.json: season.py's,
as a club's). The tally is saved (tally.json: every counted game's record with its board's
counter) at the service's end and every CHECKPOINT_EVERY changes; a start reads it and only
the games new, revised or withdrawn since (their counter differs in the club's store), equal
to counting every stored game again (rebuild(), which a changed players' table or calendar,
or no usable checkpoint, needs).

Topics: a club's <prefix>/<board>/game is bridged out (QoS 1) as league/<club>/<board>/game.
The bridge's session is kept (cleansession false) and the club's broker queues what the link
could not carry (max_queued_messages 0 in tools/club/mosquitto.conf: no bound but the disk)
and keeps it across its restarts (persistence): a club offline for a week sends its games
when the link is back, and each counts once (the board's counter and the game id, as at the
club).

Trust: the league checks every game with its board's own key (each club's registry, copied to
the league by league-keys / add-club), not the bridge's word: a club's bridge account may
only write under league/<club>/ (the league broker's ACL), and a game of a board the club
did not register, or signed with another key, is refused at the league's door as at the
club's. So a club cannot post another club's games, nor alter its own boards' games on the
way.
"""

import gc
import json
import logging
import os
import re
import secrets
import sys
import threading
import time

from . import contract, page, season, web
from .registry import mosquitto_hash, _write
from .service import Club
from .tally import Tally, from_json, record

CHECKPOINT = "tally.json"  # the tally saved (League.checkpoint), in the league's folder
CHECKPOINT_FORMAT = 1  # (a checkpoint of another format is not read: a full count instead)
CHECKPOINT_EVERY = 5000  # changes counted between two checkpoints (serve())

log = logging.getLogger("club")

LEAGUE = "league"
SERVICE = "league-service"  # the league service's MQTT account
CLUB_NAME = re.compile(r"^[A-Za-z0-9_-]{1,24}$")


def check_club(name):
    if not CLUB_NAME.match(name or ""):
        raise ValueError("a club's name is 1 to 24 letters, digits, - or _: not %r" % (name,))
    return name


def bridge_conf(club, host, port, user, password, prefix=contract.PREFIX, league=LEAGUE):
    """The club broker's bridge to the league (Mosquitto's bridge settings)."""
    check_club(club)
    return "\n".join([
        "# Written by python -m club league-bridge: do not edit.",
        "connection league-%s" % club,
        "address %s:%d" % (host, port),
        "remote_clientid league-bridge-%s" % club,
        "remote_username %s" % user,
        "remote_password %s" % password,
        "cleansession false",        # the link's session kept: nothing dropped at a reconnect
        "start_type automatic",
        "restart_timeout 1 30",      # back off from 1 s to 30 s while the league is away
        "keepalive_interval 20",
        "try_private false",
        "notifications false",
        "bridge_protocol_version mqttv311",
        # the boards' games out, at QoS 1, renamed under the club's name
        "topic +/game out 1 %s/ %s/%s/" % (prefix, league, club),
        ""])


def league_files(folder, clubs, service_password, league=LEAGUE):
    """The league broker's password file and ACL: a bridge account per club (clubs: {name:
    password}) that may write only its own league/<club>/+/game, and the service's."""
    passwd = os.path.join(folder, "league.passwd")
    acl = os.path.join(folder, "league.acl")
    lines = ["%s:%s" % (SERVICE, mosquitto_hash(service_password))]
    rules = ["user %s" % SERVICE, "topic read %s/+/+/game" % league,
             "topic readwrite %s/_service/#" % league, ""]
    for name, pw in sorted(clubs.items()):
        lines.append("%s:%s" % (name, mosquitto_hash(pw)))
        rules += ["user %s" % name, "topic write %s/%s/+/game" % (league, name), ""]
    _write(passwd, "\n".join(lines) + "\n")
    _write(acl, "\n".join(rules))
    return passwd, acl


class League:
    """Every club's games: a Club (service.py) per club, its SQLite file in folder."""

    def __init__(self, folder, league=LEAGUE):
        self.folder = folder
        os.makedirs(folder, exist_ok=True)
        self.prefix = league
        self.clubs = {}
        for f in sorted(os.listdir(folder)):
            if f.endswith(".sqlite") and CLUB_NAME.match(f[:-7]):
                self.clubs[f[:-7]] = Club(os.path.join(folder, f), prefix="%s/%s"
                                          % (league, f[:-7]))
        self.connected = False
        self.taken_over = None
        self.dropped = 0  # on no club's topic
        self.lock = threading.Lock()
        self.players = self._players()  # "name@club" -> the league's player (players.json)
        self.calendar = self._calendar()  # the league's seasons (calendar.json; None: years)
        self.on_count = None  # called with (club, game id) once the tally has it (a measure)
        self.tally = Tally(season.season_of(self.calendar))
        self.versions = {}  # "club/id" -> the counter of the game the tally holds
        self.changed = 0  # changes counted since the last checkpoint
        self.started = {}  # how the tally was loaded at the start (load())
        for name, club in self.clubs.items():
            self._listen(name, club)
        self.load()

    def add_club(self, name, boards):
        """A club and its boards' keys (league-keys' list: name, secret hex, unsigned)."""
        check_club(name)
        club = self.clubs.get(name)
        if club is None:
            club = self.clubs[name] = Club(os.path.join(self.folder, name + ".sqlite"),
                                           prefix="%s/%s" % (self.prefix, name))
            self._listen(name, club)
        for b in boards:
            club.registry.put(b["name"], bytes.fromhex(b["secret"]), bool(b.get("unsigned")))
        return club

    def _secrets(self):
        path = os.path.join(self.folder, "secrets.json")
        try:
            with open(path) as f:
                return json.load(f)
        except FileNotFoundError:
            return {"service": secrets.token_hex(16), "bridges": {}}

    def _keep(self, got):
        path = os.path.join(self.folder, "secrets.json")
        fd = os.open(path + ".tmp", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(got, f)
        os.replace(path + ".tmp", path)

    def bridge_password(self, name):
        """Club name's bridge password (made once, kept in the folder's secrets.json)."""
        got = self._secrets()
        pw = got["bridges"].setdefault(check_club(name), secrets.token_hex(16))
        self._keep(got)
        return pw

    def service_password(self):
        got = self._secrets()
        self._keep(got)
        return got["service"]

    def files(self):
        """The league broker's password file and ACL in the folder (league_files)."""
        got = self._secrets()
        for name in self.clubs:
            got["bridges"].setdefault(name, secrets.token_hex(16))
        self._keep(got)
        return league_files(self.folder, got["bridges"], got["service"], self.prefix)

    def subscriptions(self):
        return [("%s/+/+/game" % self.prefix, 1)]

    def handle(self, topic, payload):
        """A bridged game: to its club's door ("new", "duplicate", ..., or "dropped")."""
        parts = topic.split("/")
        club = self.clubs.get(parts[1]) if len(parts) == 4 and parts[0] == self.prefix \
            else None
        if club is None:
            with self.lock:
                self.dropped += 1
            log.warning("dropped a message on %s: no club of the league's", topic[:200])
            return "dropped"
        return club.handle(topic, payload)

    def games(self):
        """Every club's counted games (each with "club"), in the order the league got them
        (pos(): when it got them, then the club, then the id)."""
        out = []
        for name, club in self.clubs.items():
            out += [dict(g, club=name) for g in club.store.games()]
        out.sort(key=lambda g: pos(g["club"], g))
        return out

    # --- players across clubs, the tally --------------------------------------------------

    def _players(self):
        try:
            with open(os.path.join(self.folder, "players.json")) as f:
                got = json.load(f)
        except FileNotFoundError:
            return {}
        return {str(k): str(v) for k, v in got.items()}

    def player(self, at, name=None):
        """The league's director says who a club's player is: at is "name@club" (the name
        as the club's boards write it), name the league's player (a league-wide name or
        number, the same for each club the player plays at); no name: at is its own player
        again. Kept in the folder's players.json; the tally is counted again."""
        seat, _, club = at.rpartition("@")
        check_club(club)
        if not seat or len(seat) > 24 or (name is not None and not 0 < len(name) <= 40):
            raise ValueError("a player is NAME@CLUB (a name of 1 to 24) and a league "
                             "name of 1 to 40: %r %r" % (at, name))
        with self.lock:
            if name is None:
                self.players.pop(at, None)
            else:
                self.players[at] = name
            _write(os.path.join(self.folder, "players.json"),
                   json.dumps(self.players, indent=1, sort_keys=True) + "\n")
        self.rebuild()

    def _calendar(self):
        try:
            with open(os.path.join(self.folder, "calendar.json")) as f:
                got = json.load(f)
        except FileNotFoundError:
            return None
        season.last_of(got["first"], got["weeks"])  # (a ValueError: a calendar it cannot be)
        return {"first": got["first"], "weeks": got["weeks"]}

    def set_calendar(self, first, weeks=None):
        """The league's seasons: weeks weeks from night first, one a year (season.py's
        calendar, as a club's); first None: calendar years. Kept in the folder's
        calendar.json; the tally is counted again."""
        path = os.path.join(self.folder, "calendar.json")
        if first is None:
            if os.path.exists(path):
                os.remove(path)
        else:
            season.last_of(first, weeks)
            _write(path, json.dumps({"first": first, "weeks": weeks}) + "\n")
        with self.lock:
            self.calendar = self._calendar()
        self.rebuild()

    def season(self, name):
        """The league's season called name (a dict as season.seasons() gives), or None."""
        if not name:
            return None
        if not self.calendar:
            return {"name": name, "first": name + "-01-01", "last": name + "-12-31",
                    "nights": None} if re.fullmatch(r"[0-9]{4}", name) else None
        if not re.fullmatch(r"[0-9]{4}(-[0-9]{2})?", name):
            return None
        first = season.date_of(self.calendar["first"])
        start = season._start(first, int(name[:4]))
        s = season.calendar_season(self.calendar, start.isoformat())
        return s if s and s["name"] == name else None

    def who(self, club, name):
        """The league's player for a club's name: the director's (players.json), else
        name@club (two clubs' Anns are two players until the director says otherwise)."""
        if name is None:
            return None
        at = "%s@%s" % (name, club)
        return self.players.get(at, at)

    def named(self, club, g):
        """A club's game as the league counts it: its id club/id, its seats' names the
        league's players (who())."""
        return dict(g, id="%s/%s" % (club, g["id"]), club=club,
                    seats=[{"name": self.who(club, s["name"]), "side": s["side"]}
                           for s in g["seats"]])

    def counted(self):
        """Every sound counted game as the league counts it (named()), in pos() order: what
        the tally is equal to, recomputed from scratch (the tests' yardstick)."""
        good, _ = page.sift(self.games())
        return [self.named(g["club"], g) for g in good]

    def _listen(self, name, club):
        club.store.listeners.append(lambda gid: self._count(name, gid))

    def _count(self, name, gid):
        """A game of club name's counted, revised or withdrawn: the tally follows."""
        club = self.clubs[name]
        g, counter = club.store.counted(gid)
        key = "%s/%s" % (name, gid)
        with self.lock:
            if g is None or not page.sound(g):
                self.tally.remove(key)
                self.versions.pop(key, None)
            else:
                self.tally.put(key, pos(name, g), g["night"], self.named(name, g))
                self.versions[key] = counter
            self.changed += 1
        if self.on_count:
            self.on_count(name, gid)

    def rebuild(self):
        """The tally counted again from every club's store, oldest first (when the players'
        table or the calendar changes, and at a start without a checkpoint): a game at a
        time, never all parsed at once."""
        with self.lock:
            t = Tally(season.season_of(self.calendar))
            versions = {}
            every = sorted((received, name, gid) for name, c in self.clubs.items()
                           for received, gid in c.store.received())
            for _, name, gid in every:
                g, counter = self.clubs[name].store.counted(gid)
                if g is not None and page.sound(g):
                    key = "%s/%s" % (name, gid)
                    t.put(key, pos(name, g), g["night"], self.named(name, g))
                    versions[key] = counter
            self.tally, self.versions = t, versions
            self.changed = len(versions)

    # --- the tally saved, and read at a start -----------------------------------------------

    def _fingerprint(self):
        """What a checkpoint's records depend on besides the games: the players' table and
        the calendar (either changed: the checkpoint is not read)."""
        return {"format": CHECKPOINT_FORMAT, "players": self.players,
                "calendar": self.calendar}

    def checkpoint(self):
        """Save the tally (every counted game's record, and the counter of the game it is
        of) to the folder's tally.json, so that a start reads it and the games changed since
        (load()) instead of counting every stored game again. Taken at one moment (the
        records are never changed, so the lists copied under the lock are a snapshot);
        written outside the lock, then renamed over the old one (a crash keeps either)."""
        with self.lock:
            recs = self.tally.records()
            versions = dict(self.versions)
            head = self._fingerprint()
            self.changed = 0
        head["games"] = [[gid, rec, versions[gid]] for gid, rec in recs]
        text = json.dumps(head, separators=(",", ":"))  # (dumps: C's encoder; dump: Python's)
        del head
        path = os.path.join(self.folder, CHECKPOINT)
        tmp = "%s.%d-%d.tmp" % (path, os.getpid(), threading.get_ident())  # (two writers)
        with open(tmp, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        return len(recs)

    def load(self):
        """The tally at a start: the checkpoint's records of the games unchanged since it
        (each club's store has the same counter for them), and every game new, revised or
        withdrawn since read from the stores; no usable checkpoint: rebuild(). Equal to
        rebuild() (test_club_league_season.py compares them), in the same order."""
        t0 = time.perf_counter()
        collecting = gc.isenabled()
        gc.disable()  # (a bulk load of millions of tuples, none of them cyclic: ~20 % faster)
        try:
            self._load(t0)
        finally:
            if collecting:
                gc.enable()

    def _load(self, t0):
        try:
            with open(os.path.join(self.folder, CHECKPOINT)) as f:
                saved = json.load(f)
            if {k: saved.get(k) for k in ("format", "players", "calendar")} \
                    != self._fingerprint():
                raise ValueError("the players or the calendar changed since")
            got = self._from(saved)
        except FileNotFoundError:
            got = None
        except (ValueError, TypeError, KeyError, AttributeError, IndexError) as e:
            log.warning("the tally's checkpoint is not used (%s: %s): counting every game",
                        type(e).__name__, str(e)[:200])
            got = None
        if got is None:
            self.rebuild()
            self.started = {"checkpoint": 0, "read": len(self.versions),
                            "s": time.perf_counter() - t0}
            return
        t, versions, kept = got
        with self.lock:
            self.tally, self.versions = t, versions
            self.changed = len(versions) - kept
        self.started = {"checkpoint": kept, "read": len(versions) - kept,
                        "s": time.perf_counter() - t0}

    def _from(self, saved):
        """(tally, versions, games kept) from a checkpoint's JSON and the stores: any fault
        in it (a file written by hand, cut short, of another shape) raises."""
        now = {}  # "club/id" -> counter, every counted game in the stores
        for name, c in self.clubs.items():
            for gid, counter in c.store.versions().items():
                now["%s/%s" % (name, gid)] = counter
        recs, versions = [], {}
        for key, rec, counter in saved["games"]:
            if key in now and now[key] == counter:
                recs.append((key, from_json(rec)))
                versions[key] = counter
        kept = len(recs)
        for key in now:
            if key not in versions:  # new since, or revised since
                name, _, gid = key.partition("/")
                g, counter = self.clubs[name].store.counted(gid)
                if g is not None and page.sound(g):
                    recs.append((key, record(pos(name, g), g["night"], self.named(name, g))))
                    versions[key] = counter
        recs.sort(key=lambda kr: kr[1][0])
        t = Tally(season.season_of(self.calendar))
        t.load(recs)
        return t, versions, kept

    def ratings(self):
        """(ratings, history) of every counted game: the tally's (ratings.rate())."""
        return self.tally.ratings()

    def standings(self, season_name):
        """Season season_name's standings (season.standings()): the tally's."""
        return self.tally.standings(season_name)

    def counts(self):
        return {name: c.store.count() for name, c in self.clubs.items()}


def club_keys(registry):
    """A club's boards with their keys, for the league (league-keys): keep it private."""
    out = []
    for b in registry.boards():
        known = registry.board(b["name"])
        if known is not None:
            out.append({"name": b["name"], "secret": known[0].hex(), "unsigned": bool(known[1])})
    return out


def keys_json(registry):
    return json.dumps(club_keys(registry))


def pos(club, g):
    """A game's place in the league's order (ratings are rated in it): when the league got
    it, then its club and id (a revision keeps the place of the game it revises)."""
    return (g["received"], club, g["id"])


def league_seasons(games, calendar=None):
    """The league's seasons of the nights its games came in on: the calendar's (League's
    calendar.json), or one a year."""
    nights = sorted({g["night"] for g in games})
    if calendar:
        return season.calendar_seasons(calendar, nights)
    return season.default_seasons(nights)


def standings_csv(rows):
    """A season's standings as the secretary's CSV (web.season_csv's columns and cells)."""
    import csv
    import io
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(season.COLUMNS)
    for r in rows:
        w.writerow([web.cell(r[c]) for c in season.COLUMNS])
    return out.getvalue()


def make_app(league):
    """The league's page (/: every club's games, the season's standings, the ratings) and
    its data (/standings.json, /season.csv, /health.json)."""
    from flask import Flask, Response, request

    app = Flask("league")

    def chosen():
        """The tally at one moment (Tally.view) for the season asked for (?season=, its
        name: a year, or the calendar's "2026-27"; default the newest): counted as each game
        came, never recomputed here."""
        v = league.tally.view(request.args.get("season", "")[:40])
        return v, league.season(v["season"]), [league.season(y) for y in v["seasons"]]

    @app.get("/")
    def home():
        v, s, all_ = chosen()
        body = page.render("league.html", season=s, seasons=all_, clubs=league.counts(),
                           standings=v["standings"], rated=v["ratings"],
                           dropped=league.dropped, connected=league.connected)
        return Response(body, content_type="text/html; charset=utf-8")

    @app.get("/standings.json")
    def standings_json():
        v, s, _ = chosen()
        return Response(json.dumps({"season": s, "clubs": league.counts(),
                                    "games": v["games"], "standings": v["standings"],
                                    "ratings": v["ratings"]}),
                        content_type="application/json")

    @app.get("/season.csv")
    def season_csv():
        v, _, _ = chosen()
        return Response(standings_csv(v["standings"]), content_type="text/csv; charset=utf-8")

    @app.get("/health.json")
    def health():
        return Response(json.dumps({"clubs": league.counts(), "counted": league.tally.count(),
                                    "dropped": league.dropped,
                                    "connected": league.connected}),
                        content_type="application/json")

    return app


def serve(folder, broker, bind, port, client_id="league"):
    """The league service: MQTT intake (service.connect) and its page, until SIGTERM."""
    import signal
    from .service import connect
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s",
                        stream=sys.stderr)
    lg = League(folder)
    httpd = web.Server(make_app(lg), bind, port)
    host, _, p = broker.partition(":")
    log.info("the tally: %d games from the checkpoint, %d read from the stores, in %.1f s",
             lg.started["checkpoint"], lg.started["read"], lg.started["s"])
    if lg.changed >= CHECKPOINT_EVERY:
        lg.checkpoint()
    client = connect(lg, host, int(p or 1883), client_id, SERVICE, lg.service_password())
    print("ready http %d" % httpd.server_address[1], flush=True)
    done = threading.Event()

    def keep():  # a checkpoint every CHECKPOINT_EVERY changes (looked at each minute)
        while not done.wait(60):
            if lg.changed >= CHECKPOINT_EVERY:
                lg.checkpoint()
    threading.Thread(target=keep, daemon=True).start()
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=httpd.shutdown,
                                                              daemon=True).start())
    try:
        httpd.serve_forever()
    finally:
        done.set()
        client.loop_stop()
        httpd.server_close()
        if lg.changed:
            lg.checkpoint()  # the next start reads it
    return 0
