"""The club's web side: Flask's routes over the club's store and live states, pages from
templates/ (page.py), served by waitress.

Why these: Flask (routing, forms, cookies) and Jinja2 (templates, autoescaped) are the
best-kept small web stack in Python; waitress is a production WSGI server with no
dependencies and no C parts: one asyncore loop holds every connection and a fixed pool of
THREADS threads answers requests, so an idle connection costs a socket, never a thread;
channel_timeout closes connections idle for CHANNEL_TIMEOUT seconds and connection_limit bounds
how many it holds (the rest wait in the listen queue). Uvicorn and Starlette would do as well,
but they bring an event loop and ASGI to a service whose pages are short synchronous reads.

    app = make_app(club, director)    # the WSGI app (tests: app.test_client())
    httpd = serve(club, bind, port)   # waitress, bound, not yet serving
    httpd.serve_forever(); httpd.shutdown(); httpd.server_close(); httpd.server_address

Pages: / (the night: ?night=YYYY-MM-DD or all), /projector, /player?name=[&season=],
/season?name=, /game?id=, /race.svg?id=, /director (the director's login, tournament, log);
data: /games.json, /games.csv, /season.csv?name=, /season.json?name=, /ratings.json,
/standings.json, /state.json, /tournament.json, /players.json, /health.json. The
JSON is any page's to read (CORS: a board's page, on the phone, asks /players.json and
/tournament.json). Every write is a POST to /director by a logged-in director, from the
club's own page (Origin) with the session's CSRF token.
"""

import contextlib
import csv
import hmac
import io
import json
import logging
import resource
import struct
import threading
import time
import zlib
from urllib.parse import urlsplit

import waitress.server
from flask import Flask, Response, request
from waitress import trigger, wasyncore
from waitress.adjustments import Adjustments
from werkzeug.exceptions import HTTPException

import hostenv  # noqa: F401  (firmware/ on sys.path)
from publish.contract import NAME_MAX, check_name
from board.export import GAME_COLUMNS, SIDE_COLUMNS, csv_rows

from . import night, page, ratings, season
from .schema import board_name
from .director import PASSWORD_MIN, SESSION_S, Director, Wait

log = logging.getLogger("club")

THREADS = 4             # requests answered at once
CHANNEL_TIMEOUT = 60    # seconds a connection may sit idle
CONNECTIONS = 2000      # connections held at most (fewer when the process may open fewer files)
BODY_MAX = 65536        # a form's bytes
COOKIE = "club_director"
GAMES_MAX, TABLES_MAX, PLAYERS_MAX = 30, 500, 500


def today():
    """The club night's name now (night.py's tonight(): the local date, the small hours
    still the night before's)."""
    return night.tonight()


# --- what the pages offer -------------------------------------------------------------------

FORMULA = ("=", "+", "-", "@", "\t", "\r")


def cell(v):
    """A CSV cell no spreadsheet runs as a formula: text starting = + - @ tab or CR gets a '
    in front (OWASP's advice); numbers stay numbers."""
    if isinstance(v, str) and v.startswith(FORMULA):
        return "'" + v
    return v


def games_csv(games):
    """A row per game and seat: the club's columns, then the board's (board/export.py). A bad
    record is one row saying so."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(("id", "board", "night", "received", "seat", "player", "points", "spread")
               + GAME_COLUMNS + SIDE_COLUMNS)
    for msg in games:
        try:
            page.check_record(msg)
            rows = csv_rows(msg["game"])
            res = {r["name"]: r for r in night.results(msg)}
            lines = []
            for i, seat in enumerate(msg["seats"]):
                r = res.get(seat["name"]) if seat["name"] else None
                lines.append([msg["id"], msg["board"], msg["night"], "%.3f" % msg["received"],
                              i, seat["name"] or "", r["points"] if r else "",
                              r["spread"] if r else ""] + list(rows[seat["side"]]))
        except Exception:
            lines = [[page.bad_id(msg), "", "", "", "", "bad record"]]
        for line in lines:
            w.writerow([cell(v) for v in line])
    return out.getvalue()


def season_csv(games):
    """The season's standings, a row a player (season.COLUMNS), cells safe from formulas."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(season.COLUMNS)
    for r in season.standings(games):
        w.writerow([cell(r[c]) for c in season.COLUMNS])
    return out.getvalue()


def _png(size=32):
    """The club's icon as PNG bytes: a peg in each of the boards' first two colours on a
    board's wood (drawn here: no file to keep)."""
    rows = []
    for y in range(size):
        row = bytearray(b"\0")
        for x in range(size):
            c = (0xb0, 0x7a, 0x3c, 255)
            for cx, cy, rgb in ((0.33, 0.5, (0xdd, 0x22, 0x22)), (0.67, 0.5, (0x22, 0x66, 0xdd))):
                if (x + .5 - cx * size) ** 2 + (y + .5 - cy * size) ** 2 <= (size * .18) ** 2:
                    c = (*rgb, 255)
            row += bytes(c)
        rows.append(bytes(row))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0,
                                                               0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))


def _ico(png):
    """An .ico holding one PNG (as browsers read it)."""
    return struct.pack("<HHH", 0, 1, 1) + struct.pack("<BBBBHHII", 32, 32, 0, 0, 1, 32,
                                                      len(png), 22) + png


FAVICON = _ico(_png())


# --- the director's form --------------------------------------------------------------------

def club_name(s):
    """A player's name as every board can show and keep it (board/clubfiles.py's check_name,
    whose letters are MicroPython's: A-Z and a-z only), or ValueError saying why not."""
    name = check_name(s)
    if name is not None and not name.isascii():
        raise ValueError("a board's letters are A-Z only")
    return name


def read_players(typed):
    """(players, refusals) from the form's text, a name a line: refusals say which names no
    board can keep and which come twice (one player entered twice would merge two people)."""
    players, bad, twice, seen = [], [], [], {}
    for line in typed.splitlines():
        p = line.strip()
        if not p:
            continue
        try:
            p = club_name(p) or ""
        except ValueError:
            bad.append(line.strip())
            continue
        if p.lower() in seen:
            if p not in twice:
                twice.append(p)
            continue
        seen[p.lower()] = p
        players.append(p)
    out = []
    if bad:
        out.append("a board keeps names of at most %d letters (A-Z), digits, space . or - : "
                   "not %s" % (NAME_MAX, ", ".join(bad)))
    if twice:
        out.append("each player once: %s %s more than once (two players of one name: tell "
                   "them apart, e.g. Ann B. and Ann C.)" % (", ".join(twice),
                                                           "is" if len(twice) == 1 else "are"))
    return players, out


def _when(t):
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))
    except (TypeError, ValueError, OverflowError):
        return "?"


def _rejects(store, limit=50):
    """The messages refused at the door (the store's rejects(), where it has one), as text."""
    f = getattr(store, "rejects", None)
    if f is None:
        return []
    try:
        rows = f(limit=limit)
    except Exception:
        log.exception("the store's rejects")
        return []
    out = []
    for r in rows[:limit]:
        try:
            at = r.get("at")
            out.append({"at": _when(at) if isinstance(at, (int, float)) else str(at)[:30],
                        "board": str(r.get("board", ""))[:40],
                        "topic": str(r.get("topic", ""))[:80],
                        "reason": str(r.get("reason", ""))[:200]})
        except Exception:
            out.append({"at": "?", "board": "?", "topic": "?", "reason": "bad record"})
    return out


# --- the app --------------------------------------------------------------------------------

def make_app(club, director=None):
    """The club's WSGI app over club (service.py's Club: store, live states, counts)."""
    app = Flask("club")
    app.config["MAX_CONTENT_LENGTH"] = BODY_MAX
    d = director or Director(club.store.path)
    app.config["director"] = d

    def send(body, ctype="text/html; charset=utf-8", code=200, headers=()):
        r = Response(body, status=code, content_type=ctype)
        for k, v in headers:
            r.headers[k] = v
        return r

    def text(body, code):
        return send(body, "text/plain; charset=utf-8", code)

    def as_json(v):
        # Any page may read the club's data (a board's page asks /players.json and
        # /tournament.json from the phone): a simple GET, so this header is all CORS needs.
        return send(json.dumps(v), "application/json",
                    headers=[("Access-Control-Allow-Origin", "*")])

    @app.after_request
    def no_store(r):
        r.headers["Cache-Control"] = "no-store"
        r.headers.setdefault("X-Content-Type-Options", "nosniff")
        if r.content_type.startswith("text/html"):
            r.headers.setdefault("X-Frame-Options", "DENY")
        return r

    @app.errorhandler(404)
    def not_found(e):
        return text("not found", 404)

    @app.errorhandler(405)
    def not_allowed(e):
        return text("not allowed", 405)

    @app.errorhandler(413)
    def too_long(e):
        return text("too long", 413)

    @app.errorhandler(Exception)
    def failed(e):
        if isinstance(e, HTTPException):  # (a client's error: its own code, not a 500)
            return text(e.name.lower(), e.code or 400)
        log.exception("page %s", request.path)
        return text("error (the service's log says what)", 500)

    def night_name():
        return (request.args.get("night") or today())[:40]

    @app.get("/")
    def club_page():
        name = night_name()
        states, status = club.live()
        return send(page.club_page(name, club.store.nights(), club.games(name), states, status,
                                   club.store.tournament(), club.dropped,
                                   _rejects(club.store, 20)))

    @app.get("/projector")
    def projector():
        name = night_name()
        return send(page.projector_page(name, club.games(name), club.store.tournament()))

    @app.get("/player")
    def player():
        name = request.args.get("name", "")[:40]
        seasons = season.seasons(club.store)
        chosen = None
        if "season" in request.args:
            chosen = season.find(club.store, request.args.get("season", "")[:40])
            if chosen is None:
                return text("no such season", 404)
            games = season.of_season(chosen, club.games("all"))
        else:
            games = club.games(night_name() if "night" in request.args else "all")
        return send(page.player_page(name, games, seasons, chosen, club.rating_of(name)))

    def season_games():
        chosen = season.find(club.store, request.args.get("name", "")[:40])
        if chosen is None:
            return None, []
        return chosen, page.sift(season.of_season(chosen, club.games("all")))[0]

    @app.get("/season")
    def season_view():
        chosen, _ = season_games()
        if chosen is None and request.args.get("name"):
            return text("no such season", 404)
        games = season.of_season(chosen, club.games("all")) if chosen else []
        return send(page.season_page(chosen, season.seasons(club.store), games,
                                     ratings.table_of(*club.ratings())))

    @app.get("/ratings.json")
    def ratings_json():
        r, hist = club.ratings()
        return as_json({"start": ratings.START, "k": ratings.K, "scale": ratings.SCALE,
                        "ratings": ratings.table_of(r, hist)})

    @app.get("/season.json")
    def season_json():
        chosen, games = season_games()
        if chosen is None:
            return text("no such season", 404)
        return as_json({"season": chosen, "games": len(games),
                        "nights": sorted(season.by_night(games)),
                        "standings": season.standings(games)})

    @app.get("/season.csv")
    def season_csv_page():
        chosen, games = season_games()
        if chosen is None:
            return text("no such season", 404)
        return send(season_csv(games), "text/csv; charset=utf-8",
                    headers=[("Content-Disposition", 'attachment; filename="season-%s.csv"'
                              % "".join(c for c in chosen["name"] if c.isalnum() or c == "-"))])

    @app.get("/game")
    def game():
        msg = club.store.game(request.args.get("id", ""))
        if msg is None:
            return text("no such game", 404)
        return send(page.game_page(msg))

    @app.get("/race.svg")
    def race():
        msg = club.store.game(request.args.get("id", ""))
        if msg is None:
            return text("no such game", 404)
        if not page.sound(msg):
            return text("bad record", 404)
        return send(page.race_svg(msg), "image/svg+xml")

    @app.get("/favicon.ico")
    def favicon():
        return send(FAVICON, "image/x-icon")

    @app.get("/games.json")
    def games_json():
        return as_json(club.games(night_name()))

    @app.get("/games.csv")
    def games_csv_page():
        name = night_name()
        return send(games_csv(club.games(name)), "text/csv; charset=utf-8",
                    headers=[("Content-Disposition",
                              'attachment; filename="club-%s.csv"'
                              % "".join(c for c in name if c.isalnum() or c == "-"))])

    @app.get("/standings.json")
    def standings_json():
        name = night_name()
        games, bad = page.sift(club.games(name))
        return as_json({"night": name, "games": len(games), "standings": night.standings(games),
                        "special_hands": night.special_hands(games), "bad_records": len(bad)})

    @app.get("/state.json")
    def state_json():
        states, status = club.live()
        return as_json({"states": states, "status": status})

    @app.get("/tournament.json")
    def tournament_json():
        t = club.store.tournament()
        if t is None:
            return as_json(None)
        info = page.tournament_info(t, club.games("all"))
        if info["next"] is not None:
            stage = "draw"
            tables = page.tournament.tables(info["rounds"][info["next"]], t["tables"])
        else:  # the draw played: the knock-out's matches to play now, a table each
            tables = page.knockout_tables(info["bracket"], t["tables"])
            stage = "knock-out" if tables else "done"
        return as_json({"tournament": t, "next_game": None if info["next"] is None
                        else info["next"] + 1, "stage": stage, "tables": tables,
                        "standings": info["standings"], "bracket": info["bracket"]})

    @app.get("/players.json")
    def players_json():  # the club's list, for a board's page to choose from
        t = club.store.tournament()
        names = list(t["players"]) if t else []
        games, _ = page.sift(club.games(night_name()))
        for r in night.standings(games):
            if r["name"] not in names:
                names.append(r["name"])
        return as_json(names)

    @app.get("/update/<board>/<kind>.bundle")
    def update_bundle(board, kind):
        """A board's copy of the release offered to it, signed for it (releases.py): 404
        for an unknown board, none offered, or no release of its kind."""
        rel = getattr(club, "releases", None)
        if rel is None or not board_name(board):
            return text("no update for %s" % board[:16], 404)
        secret = club.registry.secret(board)
        body = rel.bundle(board, kind, secret) if secret else None
        if body is None:
            return text("no update for %s" % board[:16], 404)
        log.info("update: %s fetches %s (%s)", board, rel.offer(board), kind)
        return send(body, "application/octet-stream")

    @app.get("/releases.json")
    def releases_json():
        rel = getattr(club, "releases", None)
        if rel is None:
            return as_json(None)
        return as_json({"releases": rel.releases(), "rollout": rel.rollout(),
                        "boards": boards_versions()})

    def boards_versions():
        """Each board of the registry with its version and update state (its live state's:
        ota/order.py), and what is offered to it."""
        states, status = club.live()
        rel = getattr(club, "releases", None)
        out = []
        for b in club.registry.boards():
            st = states.get(b["name"]) or {}
            out.append({"board": b["name"], "on": status.get(b["name"], "offline"),
                        "version": st.get("version") or "", "update": st.get("update") or "",
                        "offered": rel.offer(b["name"]) if rel is not None else None})
        return out

    @app.get("/health.json")
    def health_json():
        f = getattr(club, "health", None)
        if callable(f):
            return as_json(f())
        return as_json({"games": club.store.count(), "dropped": club.dropped,
                        "duplicates": club.duplicates, "connected": club.connected})

    # --- the director ---

    def client():
        return request.remote_addr or "?"

    def director_page(state, message="", error=False, code=200, form=None, confirm=None,
                      sess=None):
        t = club.store.tournament()
        played = None
        if state == "director" and t is not None:
            info = page.tournament_info(t, club.games("all"))
            played = sum(1 for got in info["done"] for g in got if g)
        if form is None:
            form = {"players": "\n".join(t["players"]) if t else "",
                    "games": t["games"] if t else 9, "tables": t["tables"] if t else 5}
        kept = []
        if state == "director":
            for k in d.kept():
                kt = k["tournament"]
                kept.append({"id": k["id"], "when": _when(k["kept_at"]), "why": k["why"],
                             "players": "%d: %s" % (len(kt["players"]),
                                                    ", ".join(kt["players"][:8])
                                                    + (" …" if len(kt["players"]) > 8 else ""))})
        logrows = [{"when": _when(e["at"]), "client": e["client"], "what": e["what"]}
                   for e in d.log(50)] if state == "director" else []
        rel = getattr(club, "releases", None)
        updates = None
        if state == "director" and rel is not None:
            r = rel.rollout()
            updates = {"versions": rel.versions(), "releases": rel.releases(),
                       "boards": boards_versions(), "rollout": r,
                       "to": "every board" if r and r["boards"] is None
                       else ", ".join(r["boards"]) if r else ""}
        body = page.render("director.html", state=state, message=message, error=error, t=t,
                           updates=updates,
                           played=played, form=form, confirm=confirm, kept=kept, log=logrows,
                           csrf=sess["csrf"] if sess else "", password_min=PASSWORD_MIN,
                           rejects=_rejects(club.store) if state == "director" else [])
        return send(body, code=code)

    def state_now(sess):
        if not d.has_password():
            return "setup"
        return "director" if sess else "login"

    @app.get("/director")
    def director_get():
        sess = d.session(request.cookies.get(COOKIE))
        return director_page(state_now(sess), sess=sess)

    def same_origin():
        """A write comes from the club's own pages: its Origin (or else its Referer) names
        this very host; a request with neither (no browser sends a form so) relies on the
        session's cookie and CSRF token alone."""
        here = request.host_url.rstrip("/")
        origin = request.headers.get("Origin")
        if origin is not None:
            return origin == here
        ref = request.headers.get("Referer")
        if ref is not None:
            u = urlsplit(ref)
            return "%s://%s" % (u.scheme, u.netloc) == here
        return True

    def logged_in(token, message, code=200):
        sess = d.session(token)
        r = director_page("director", message, code=code, sess=sess)
        r.set_cookie(COOKIE, token, max_age=SESSION_S, httponly=True, samesite="Strict",
                     path="/")
        return r

    @app.post("/director")
    def director_post():
        who = client()
        if not same_origin():
            log.warning("director: a write from another origin refused (%s, Origin %s)",
                        who, request.headers.get("Origin") or request.headers.get("Referer"))
            return text("refused: a write to the club comes from the club's own pages", 403)
        f = request.form
        do = f.get("do", "")
        if not d.has_password():
            if do != "setup":
                return director_page("setup", "set the director's password first", True, 403)
            w = d.waiting(who)
            if w > 0:
                return director_page("setup", "too many wrong tries from your address: wait "
                                     "%d s" % (int(w) + 1), True, 429)
            pw = f.get("password", "")
            if pw != f.get("again", ""):
                return director_page("setup", "the two passwords differ", True, 400)
            try:
                d.set_password(pw, f.get("code", ""), who)
            except ValueError as e:
                if "setup code" in str(e):
                    d.tried(who, False)
                return director_page("setup", str(e), True, 400)
            token = d.login(who, pw)  # (it may: the wait was checked above)
            if token is None:
                return director_page("login", "password set: log in", code=200)
            return logged_in(token, "password set: you are logged in")
        if do == "login":
            try:
                token = d.login(who, f.get("password", ""))
            except Wait as e:
                return director_page("login", "too many wrong tries from your address: wait "
                                     "%d s" % e.seconds, True, 429)
            if token is None:
                return director_page("login", "wrong password", True, 403)
            return logged_in(token, "logged in")
        sess = d.session(request.cookies.get(COOKIE))
        if sess is None:
            return director_page("login", "log in first", True, 403)
        if not hmac.compare_digest(f.get("csrf", "").encode(), sess["csrf"].encode()):
            log.warning("director: a write without the session's CSRF token refused (%s)", who)
            return director_page("director", "refused: the form is not from this session "
                                 "(open /director again)", True, 403, sess=sess)
        t = club.store.tournament()
        if do == "logout":
            d.logout(request.cookies.get(COOKIE))
            d.note(who, "logged out")
            r = director_page("login", "logged out")
            r.delete_cookie(COOKIE, path="/")
            return r
        if do == "end":
            if t is None:
                return director_page("director", "no tournament to end", True, 400, sess=sess)
            if f.get("confirm") != "yes":
                return director_page("director", sess=sess, confirm={
                    "do": "end", "yes": "Yes, end it",
                    "text": "End the tournament of %d players? It is kept below: Restore "
                            "takes it back." % len(t["players"])})
            kid = d.keep(t, "ended")
            club.store.end_tournament()
            d.note(who, "ended the tournament (%d players; kept as #%d)"
                   % (len(t["players"]), kid))
            return director_page("director", "tournament ended (kept below: Restore takes it "
                                 "back)", sess=sess)
        if do == "restore":
            try:
                kid = int(f.get("id", ""))
            except ValueError:
                kid = -1
            k = d.take(kid)
            if k is None:
                return director_page("director", "no such kept tournament", True, 400,
                                     sess=sess)
            why = ""
            if t is not None:
                why = " (the one running kept as #%d)" % d.keep(t, "put aside by a restore")
            club.store.set_tournament(k["players"], k["games"], k["tables"], k["night"],
                                      now=k["started"])
            d.note(who, "restored the tournament kept as #%d%s" % (kid, why))
            return director_page("director", "tournament restored: %d players%s"
                                 % (len(k["players"]), why), sess=sess)
        if do in ("publish", "unpublish"):
            return publish(who, sess, f)
        if do != "start":
            return director_page("director", "nothing to do", True, 400, sess=sess)
        typed = [x.strip() for x in f.get("players", "").splitlines() if x.strip()]
        form = {"players": "\n".join(typed[:PLAYERS_MAX]), "games": f.get("games", "9")[:6],
                "tables": f.get("tables", "5")[:6]}
        players, refused = read_players(f.get("players", ""))
        if refused:  # the form again as typed, to put right
            return director_page("director", "; ".join(refused), True, 400, form=form,
                                 sess=sess)
        try:
            games = int(f.get("games", "9"))
            tables = int(f.get("tables", "1"))
        except ValueError:
            games = tables = 0
        if (not 2 <= len(players) <= PLAYERS_MAX or not 1 <= games <= GAMES_MAX
                or not 1 <= tables <= TABLES_MAX):
            return director_page("director", "need 2-%d players, 1-%d games, 1-%d tables"
                                 % (PLAYERS_MAX, GAMES_MAX, TABLES_MAX), True, 400, form=form,
                                 sess=sess)
        kept = ""
        if t is not None:
            if f.get("confirm") != "yes":
                return director_page("director", sess=sess, form=form, confirm={
                    "do": "start", "yes": "Yes, start a new draw",
                    "text": "A tournament of %d players is running: a new draw puts it aside "
                            "(kept below: Restore takes it back). Start a new draw?"
                            % len(t["players"])})
            kept = " (the one before kept as #%d)" % d.keep(t, "a new draw")
        club.store.set_tournament(players, games, tables, today())
        d.note(who, "started a tournament: %d players, %d games, %d tables%s"
               % (len(players), games, tables, kept))
        return director_page("director", "tournament started: %d players%s"
                             % (len(players), kept), sess=sess)

    def publish(who, sess, f):
        """The director's rollout (releases.py): a version to one table ("table": a
        board's name), then to all ("table": "*"); or none offered any more."""
        rel = club.releases
        if f.get("do") == "unpublish":
            rel.stop()
            d.note(who, "stopped the update's rollout")
            return director_page("director", "no update offered any more", sess=sess)
        version = f.get("version", "")[:20]
        table = f.get("table", "")[:20]
        boards = None if table == "*" else [table]
        if boards is not None and club.registry.board(table) is None:
            return director_page("director", "no board %r in the club's registry" % table,
                                 True, 400, sess=sess)
        try:
            rel.publish(version, boards)
        except ValueError as e:
            return director_page("director", str(e), True, 400, sess=sess)
        where = "every board" if boards is None else "table " + table
        d.note(who, "published release %s to %s" % (version, where))
        log.info("update: release %s published to %s", version, where)
        return director_page("director", "release %s offered to %s: each board fetches it "
                             "between two games" % (version, where), sess=sess)

    return app


# --- the server -----------------------------------------------------------------------------

def connection_limit():
    """CONNECTIONS, or fewer where the process may open fewer files (a socket is a file)."""
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        return CONNECTIONS
    return max(50, min(CONNECTIONS, soft - 100))


class Server:
    """waitress serving app at (bind, port): serve_forever() in one thread, shutdown() from
    another (as socketserver's)."""

    def __init__(self, app, bind, port, threads=THREADS, channel_timeout=CHANNEL_TIMEOUT):
        self.map = {}  # waitress's sockets: the listener, its trigger, every connection
        self.srv = waitress.server.TcpWSGIServer(app, map=self.map, adj=Adjustments(
            host=bind, port=port, threads=threads, connection_limit=connection_limit(),
            channel_timeout=channel_timeout, cleanup_interval=min(30, channel_timeout),
            asyncore_use_poll=True,  # select() stops at 1,024 sockets; poll() does not
            max_request_body_size=BODY_MAX, expose_tracebacks=False, ident="club"))
        self.wake = trigger.trigger(self.map)  # shutdown() wakes the loop with it
        self.server_address = (bind, int(self.srv.getsockname()[1]))
        self.url = "http://%s:%d" % self.server_address  # (where it listens)
        self.stopping = threading.Event()
        self.done = threading.Event()
        self.done.set()

    def serve_forever(self, poll_interval=0.5):
        self.done.clear()
        try:
            while not self.stopping.is_set() and self.map:
                wasyncore.loop(timeout=poll_interval, map=self.map, use_poll=True, count=1)
        finally:
            self.done.set()

    def shutdown(self):
        self.stopping.set()
        self.wake.pull_trigger()
        self.done.wait(30)

    def server_close(self):
        self.srv.task_dispatcher.shutdown()
        wasyncore.close_all(self.map)


def serve(club, bind, port, director=None, **kw):
    """The pages' server for club (waitress), bound, not yet serving: call serve_forever()."""
    return Server(make_app(club, director), bind, port, **kw)


@contextlib.contextmanager
def serving(club, director=None, **kw):
    """The pages for club served on 127.0.0.1 at a free port from a thread of their own while
    the with-block runs (the screenshots', the tests'): the Server (its url). After the block,
    stopped, its thread ended and its sockets closed."""
    httpd = serve(club, "127.0.0.1", 0, director, **kw)
    th = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    th.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        th.join(30)
        httpd.server_close()
