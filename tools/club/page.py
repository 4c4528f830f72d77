"""The club page, the projector view, a game's page, a player's, the director's and the race
chart: data from the night's games (night.py), the tournament (tournament.py) and the boards'
live states, drawn by the Jinja2 templates in templates/ (autoescaped: a name is text, never
markup). No script: the pages refresh themselves (meta refresh), so any browser on the club's
network, and a projector's, shows them.

Whatever got into the store is read with care: sift() parts the games whose every field a page
reads is sound from the rest, which show as "bad record" and count for nobody; a board's live
state that cannot be drawn shows as "bad record" too. No stored row can make a page fail or
grow past its bounds."""

import os
from urllib.parse import quote

import jinja2
import markupsafe

import hostenv  # noqa: F401  (firmware/ on sys.path)
from board.render import PALETTE
from board.screen import SIDE_NAMES

from . import night, season, tournament



def _seen(v):
    """An LED's linear channel (0-255) as a screen shows it (gamma 1/2.2: the simulator's
    pictures and the board's own page draw the LEDs so)."""
    return round(255 * (v / 255) ** 0.45)


# the boards' peg colours (board/screen.py's SIDE_NAMES, in that order): the board's one
# table (board/render.py's PALETTE, the usual palette), as a screen shows the LEDs
COLOURS = tuple("#%02x%02x%02x" % tuple(_seen(PALETTE[3 * k + i]) for i in range(3))
                for k in range(len(SIDE_NAMES)))

ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(os.path.join(os.path.dirname(__file__), "templates")),
    autoescape=True, trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
ENV.filters["q"] = lambda s: quote(str(s), safe="")
ENV.globals["COLOURS"] = COLOURS

NAV = (("club", "/"), ("season", "/season"), ("projector", "/projector"), ("director", "/director"),
       ("games.csv", "/games.csv"), ("games.json", "/games.json"),
       ("standings.json", "/standings.json"))

COUNT_MAX = 40   # a side's 28s or 29s, or a game's deals, past this is no game a board plays
DEALS_MAX = 200  # the by_deal entries a record may hold
TEXT_MAX = 40    # a result's, a side's colour name's length


def render(template, **kw):
    return ENV.get_template(template).render(nav=NAV, **kw)


# --- sound records -------------------------------------------------------------------------

def _int(v, lo, hi):
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ValueError(v)
    return v


def _opt(v, lo=0, hi=10000):
    return None if v is None else _int(v, lo, hi)


def _text(v, hi=TEXT_MAX):
    if not isinstance(v, str) or len(v) > hi:
        raise ValueError(v)
    return v


def check_record(msg):
    """ValueError (or another error) unless every field a page, the CSV or the standings read
    of this stored game is there, of its type and within its bounds."""
    _text(msg["id"], 80)
    _text(msg["board"], 80)
    g = msg["game"]
    sides = _int(g["sides"], 2, 6)
    _int(g["players"], 2, 6)
    target = _int(g["target"], 1, 255)
    _int(g["winner"], 0, sides - 1)
    _text(g["result"])
    deals = _opt(g.get("deals"), 0, COUNT_MAX * 5)
    if len(g["by_side"]) != sides or len(msg["seats"]) != g["players"]:
        raise ValueError("sides")
    for k, s in enumerate(g["by_side"]):
        if s["side"] != k or not isinstance(s["won"], bool):
            raise ValueError("side")
        _int(s["score"], 0, 255)
        _text(s["name"])
        for c in ("hand", "crib", "play", "best"):
            _opt(s.get(c))
        for c in ("n28", "n29"):
            _opt(s.get(c), 0, min(COUNT_MAX, deals if deals is not None else COUNT_MAX))
    for seat in msg["seats"]:
        if seat["name"] is not None:
            _text(seat["name"], 24)
        _int(seat["side"], 0, sides - 1)
    by_deal = g.get("by_deal") or []
    if not isinstance(by_deal, list) or len(by_deal) > DEALS_MAX:
        raise ValueError("by_deal")
    for d in by_deal:
        _int(d["dealer"], -1, 5)
        _opt(d.get("crib"))
        _opt(d.get("heels"))
        if len(d["by_side"]) != sides:
            raise ValueError("by_deal sides")
        for s in d["by_side"]:
            for c in ("hand", "play", "pegged", "penalties", "muggins_taken"):
                _opt(s.get(c))
    del target
    night.results(msg)
    night.race(msg)


def sound(msg):
    try:
        check_record(msg)
    except Exception:
        return False
    return True


def sift(games):
    """(the sound games, the bad ones), each in the order given."""
    good, bad = [], []
    for msg in games:
        (good if sound(msg) else bad).append(msg)
    return good, bad


def bad_id(msg):
    """A bad record's id as a page may show it (whatever it is: text, cut short)."""
    try:
        return str(msg.get("id"))[:40]
    except Exception:
        return "?"


# --- the parts of pages ---------------------------------------------------------------------

def pegs(st):
    """A board's live state drawn as lanes: a dict for templates/_pegs.html, or None when the
    state cannot be drawn (a bad record)."""
    try:
        sides = _int(st["sides"], 2, 6)
        target = _int(st["target"], 1, 255)
        names = st.get("names") or []
        if not isinstance(names, list) or len(names) > 6:
            raise ValueError("names")
        lanes = []
        for k in range(sides):
            score = _int(st["score"][k], 0, 255)
            back = _int(st["back"][k], 0, 255)
            seats = [_text(n, 24) for i, n in enumerate(names) if n and i % sides == k]
            label = ", ".join(seats) or SIDE_NAMES[k]
            lanes.append({"label": label[:14], "score": score, "colour": COLOURS[k],
                          "front": 10 + 300 * min(score, target) / target,
                          "back": 10 + 300 * min(back, target) / target if back else None})
        deal = st.get("deal", 0)
        deal = _int(deal or 0, 0, 10000)
        phase = _text(st.get("phase") or "")
        return {"lanes": lanes, "height": 22 * sides + 4, "deal": deal, "phase": phase}
    except Exception:
        return None


TABLES_SHOWN = 100  # live tables drawn at most (online first): a page of bounded size


def live_tables(states, status):
    """The boards' tables for the club page: dicts board, on (status), pegs (or None: a bad
    record, or no live state), at most TABLES_SHOWN of them, the online ones first."""
    out = []
    boards = sorted(set(states) | set(status),
                    key=lambda b: (status.get(b, "online" if b in states else "") != "online",
                                   str(b)))
    for board in boards[:TABLES_SHOWN]:
        st = states.get(board)
        on = status.get(board, "online" if st else "offline")
        out.append({"board": str(board)[:40], "on": str(on)[:20],
                    "pegs": pegs(st) if st is not None else None, "state": st is not None,
                    "version": str((st or {}).get("version") or "")[:16],
                    "update_state": str((st or {}).get("update") or "")[:80]})
    return out


def game_rows(games):
    """The games table's rows, newest first: sound games drawn, bad ones as bad records."""
    out = []
    for msg in reversed(games):
        if not sound(msg):
            out.append({"bad": True, "id": bad_id(msg)})
            continue
        g = msg["game"]
        sides = [{"who": ", ".join(night.side_names(msg, s["side"])), "score": s["score"],
                  "won": s["won"]} for s in g["by_side"]]
        out.append({"bad": False, "id": msg["id"], "board": msg["board"], "sides": sides,
                    "result": g["result"]})
    return out


def race_svg(msg):
    """The race of a game: each side's score after each deal, a line per side, the target
    and the skunk line (target - 30) drawn across."""
    runs = night.race(msg)
    g = msg["game"]
    target = g["target"]
    top = max(target, max(max(r) for r in runs))
    n = max(1, len(runs[0]) - 1)
    w, h, pad = 480, 260, 30

    def xy(i, v):
        return pad + (w - 2 * pad) * i / n, h - pad - (h - 2 * pad) * v / top

    lines = []
    for v, dash in ((target, ""), (target - 30, "4 3")):
        if v > 0:
            x0, y = xy(0, v)
            lines.append({"x0": x0, "y": y, "v": v, "dash": dash})
    ticks = [(xy(i, 0)[0], i) for i in range(n + 1)]
    polys = [{"colour": COLOURS[k % 6], "title": ", ".join(night.side_names(msg, k)),
              "points": " ".join("%.1f,%.1f" % xy(i, v) for i, v in enumerate(r))}
             for k, r in enumerate(runs)]
    return render("race.svg", w=w, h=h, pad=pad, lines=lines, ticks=ticks, polys=polys)


def game_page(msg):
    if not sound(msg):
        return render("bad.html", title="Game", what="game " + bad_id(msg))
    g = msg["game"]
    rows = []
    for s in g["by_side"]:
        rows.append({"colour": COLOURS[s["side"] % 6], "won": s["won"],
                     "who": ", ".join(night.side_names(msg, s["side"])),
                     "cells": ["" if s.get(c) is None else s[c]
                               for c in ("score", "hand", "crib", "play", "best", "n28",
                                         "n29")]})
    return render("game.html", msg=msg, g=g, rows=rows, race=markupsafe.Markup(race_svg(msg)))


def player_page(name, games, seasons=(), chosen=None, rating=None):
    """A player's games (all, a night's, or a season's: chosen), night by night, with
    their points, GRPs, specials and each game's race chart; their rating's history."""
    good, _ = sift(games)
    mine = season.player_nights(good, name)
    own = [s for s in night.special_hands(good) if name in s["names"]]
    chart = markupsafe.Markup(rating_svg(rating["history"])) if rating else ""
    return render("player.html", name=name, nights=mine, seasons=seasons, chosen=chosen,
                  specials=specials(own), rating=rating, chart=chart,
                  total={k: sum(n[k] for n in mine)
                         for k in ("games", "won", "points", "spread", "grp")})


def season_page(chosen, seasons, games, rated=()):
    """A season's standings (Grass Roots points), its nights and its special hands."""
    good, bad = sift(games)
    return render("season.html", season=chosen, seasons=seasons,
                  nights=sorted(season.by_night(good)),
                  standings=season.standings(good), specials=specials(good), bad=len(bad),
                  qualify=season.QUALIFY, games_a_night=season.GAMES_A_NIGHT, rated=rated)


def rating_svg(history):
    """A player's rating after each of their games, as a line (ratings.py's history)."""
    w, h, pad = 480, 200, 34
    vals = [r for _, r in history]
    lo, hi = min(vals), max(vals)
    if hi - lo < 20:
        lo, hi = lo - 10, hi + 10
    n = max(1, len(vals) - 1)

    def xy(i, v):
        return pad + (w - 2 * pad) * i / n, h - pad - (h - 2 * pad) * (v - lo) / (hi - lo)

    pts = " ".join("%.1f,%.1f" % xy(i, v) for i, v in enumerate(vals))
    return render("rating.svg", w=w, h=h, pad=pad, points=pts, lo=round(lo), hi=round(hi),
                  count=len(vals))


def tournament_info(t, games):
    """The tournament's draw, its games, their standings and the bracket, as data (the page's
    and /tournament.json's). Bad records count for nobody."""
    good, _ = sift(games)
    tg = tournament.tournament_games(good, t["players"], t["started"])
    rounds = tournament.rotation(t["players"], t["games"])
    done = tournament.played_rounds(rounds, tg)
    nxt = tournament.next_round(rounds, done)
    counted = {g["id"] for got in done for g in got if g}
    rows = night.standings([g for g in tg if g["id"] in counted])
    after = [g for g in tg if g["id"] not in counted] if nxt is None else []
    return {"rounds": rounds, "done": done, "next": nxt, "standings": rows,
            "bracket": tournament.bracket(rows, after)}


def knockout_tables(bracket, count):
    """The knock-out's matches to play now (both players known, no winner yet) as tables
    (table, a, b), as the draw's rounds give them to a board's page."""
    pairs = []
    for matches in bracket:
        for m in matches:
            if m["a"] is not None and m["b"] is not None and m["winner"] is None:
                pairs.append((m["a"], m["b"]))
        if pairs:
            break
    return tournament.tables(pairs, count)


def carried_over(t, info, states):
    """Warnings for boards whose seats still hold a pair that has played its game in this
    tournament's draw (names carried over from an earlier round): "board t1: Ann v Bob ...".
    """
    r = info["next"]
    if r is None or not isinstance(states, dict):
        return []
    now = {frozenset(p) for p, got in zip(info["rounds"][r], info["done"][r])
           if p[1] is not None and got is None}
    played = set()
    for rr in range(r + 1):
        for p, got in zip(info["rounds"][rr], info["done"][rr]):
            if got is not None:
                played.add(frozenset(p))
    out = []
    for board in sorted(states, key=str):
        try:
            names = [n for n in states[board].get("names") or [] if n]
        except Exception:
            continue
        pair = frozenset(names)
        if len(names) == 2 and len(pair) == 2 and pair in played and pair not in now:
            out.append("board %s still seats %s v %s, who have played their game: seat game "
                       "%d's pair" % (str(board)[:40], names[0], names[1], r + 1))
    return out


def tournament_view(t, games, states=None):
    if t is None:
        return None
    info = tournament_info(t, games)
    p = len(t["players"])
    r = info["next"]
    tables = []
    if r is not None:
        for (table, a, b), got in zip(tournament.tables(info["rounds"][r], t["tables"]),
                                      info["done"][r]):
            tables.append({"table": table, "a": a, "b": b, "game": got["id"] if got else None})
    return {"t": t, "info": info, "p": p, "repeat": p - 1 + p % 2 if p <= t["games"] else None,
            "next": r, "tables": tables, "standings": info["standings"],
            "bracket": bracket_view(info["bracket"]), "final": r is None,
            "quarter": max(2, len(info["standings"]) // 4 if info["standings"] else p // 4),
            "warnings": carried_over(t, info, states or {})}


def bracket_view(rounds):
    out = []
    for i, matches in enumerate(rounds):
        ms = []
        for m in matches:
            def who(name, seed, m=m, first=i == 0):
                if name is None:
                    return {"text": "bye" if seed is not None and first else "…", "won": False}
                return {"text": "(%d) %s" % (seed, name) if seed else name,
                        "won": m["winner"] == name}
            ms.append((who(m["a"], m["seed_a"]), who(m["b"], m["seed_b"])))
        out.append({"title": "final" if i == len(rounds) - 1 else "round %d" % (i + 1),
                    "matches": ms})
    return out


def specials(games):
    out = []
    for s in night.special_hands(games):
        what = [("29", s["n29"]), ("28", s["n28"])]
        out.append({"names": ", ".join(s["names"]), "id": s["id"],
                    "what": ", ".join(("%s" % k) if n == 1 else "%s ×%d" % (k, n)
                                      for k, n in what if n)})
    return out


# --- the pages ------------------------------------------------------------------------------

def club_page(night_name, nights, games, states, status, t, dropped, rejects=()):
    good, bad = sift(games)
    return render("club.html", night=night_name, nights=nights[:60],
                  tables=live_tables(states, status),
                  hidden=max(0, len(set(states) | set(status)) - TABLES_SHOWN),
                  standings=night.standings(good),
                  tv=tournament_view(t, good, states), specials=specials(good),
                  rows=game_rows(games), count=len(games), bad=len(bad), dropped=dropped,
                  rejects=rejects)


def projector_page(night_name, games, t):
    good, _ = sift(games)
    if t is not None:
        rows = tournament_info(t, good)["standings"]
        title = "Tournament"
    else:
        rows = night.standings(good)
        title = "Club night %s" % night_name
    return render("projector.html", title=title, standings=rows)
