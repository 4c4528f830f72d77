"""The club page, the projector view and the race chart: HTML and SVG as strings, drawn from
the night's games (night.py), the tournament (tournament.py) and the boards' live states.
No script: the pages refresh themselves (meta refresh), so any browser on the club's network,
and a projector's, shows them."""

from html import escape

import hostenv  # noqa: F401  (firmware/ on sys.path)
from board.screen import SIDE_NAMES

from . import night, tournament

# the boards' peg colours (board/screen.py's SIDE_NAMES, in that order)
COLOURS = ("#d22", "#26d", "#2a4", "#db2", "#e6a", "#2cc")

STYLE = """
body{font-family:system-ui,sans-serif;margin:1em;background:#fafaf7;color:#222}
h1,h2{margin:.6em 0 .3em}table{border-collapse:collapse;margin:.3em 0}
td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left}
td.n,th.n{text-align:right}.tables{display:flex;flex-wrap:wrap;gap:1em}
.table{background:#fff;border:1px solid #ccc;border-radius:6px;padding:.5em}
.off{opacity:.45}nav a{margin-right:1em}.bye{color:#888}
.proj{font-size:3.2vw;background:#111;color:#fff}.proj td,.proj th{border-color:#444}
.proj h1{font-size:4vw}
"""


def _h(x):
    return escape(str(x))


def _link(text, href):
    return '<a href="%s">%s</a>' % (escape(href, quote=True), _h(text))


def _pq(name):
    from urllib.parse import quote
    return quote(name, safe="")


def doc(title, body, refresh=None, cls=""):
    meta = '<meta http-equiv="refresh" content="%d">' % refresh if refresh else ""
    return ("<!doctype html><html><head><meta charset=utf-8><title>%s</title>%s"
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            "<style>%s</style></head><body class=\"%s\">%s</body></html>"
            % (_h(title), meta, STYLE, cls, body))


NAV = ("<nav>" + _link("club", "/") + _link("projector", "/projector") +
       _link("director", "/director") + _link("games.csv", "/games.csv") +
       _link("games.json", "/games.json") + _link("standings.json", "/standings.json") + "</nav>")


def pegs_svg(st):
    """A board's lanes as straight tracks 0..target, front and back pegs in the side's colour
    (the live state's score and back), with each side's names and score."""
    sides = st["sides"]
    target = st["target"]
    w, lane = 300, 22
    names = st.get("names") or []
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" class="pegs">'
           % (w + 130, lane * sides + 4)]
    for k in range(sides):
        y = 2 + lane * k + lane // 2
        seats = [n for i, n in enumerate(names) if n and i % sides == k]
        label = ", ".join(seats) or SIDE_NAMES[k]
        out.append('<line x1="10" y1="%d" x2="%d" y2="%d" stroke="#bbb" stroke-width="3"/>'
                   % (y, w + 10, y))
        for v, r, op in ((st["back"][k], 4, ".45"), (st["score"][k], 6, "1")):
            if v or op == "1":
                x = 10 + w * min(v, target) / target
                out.append('<circle cx="%.1f" cy="%d" r="%d" fill="%s" opacity="%s"/>'
                           % (x, y, r, COLOURS[k % 6], op))
        out.append('<text x="%d" y="%d" font-size="12">%s %d</text>'
                   % (w + 18, y + 4, _h(label[:14]), st["score"][k]))
    out.append("</svg>")
    return "".join(out)


def live_tables(states, status):
    if not states and not status:
        return "<p>No board has reported yet.</p>"
    out = ['<div class="tables">']
    for board in sorted(set(states) | set(status)):
        st = states.get(board)
        on = status.get(board, "online" if st else "offline")
        out.append('<div class="table%s"><b>%s</b> <small>%s%s</small><br>' % (
            "" if on == "online" else " off", _h(board), _h(on),
            (" · deal %d · %s" % (st.get("deal", 0), _h(st.get("phase", "")))) if st else ""))
        if st:
            out.append(pegs_svg(st))
        out.append("</div>")
    out.append("</div>")
    return "".join(out)


def standings_table(rows, big=False):
    if not rows:
        return "<p>No games yet.</p>"
    out = ['<table class="standings"><tr><th class=n>#</th><th>player</th><th class=n>points'
           '</th><th class=n>won</th><th class=n>games</th><th class=n>spread</th></tr>']
    for r in rows:
        name = _h(r["name"]) if big else _link(r["name"], "/player?name=" + _pq(r["name"]))
        out.append("<tr><td class=n>%d</td><td>%s</td><td class=n>%d</td><td class=n>%d</td>"
                   "<td class=n>%d</td><td class=n>%+d</td></tr>"
                   % (r["place"], name, r["points"], r["won"], r["games"], r["spread"]))
    out.append("</table>")
    return "".join(out)


def games_table(games):
    out = ["<table><tr><th>game</th><th>board</th><th>sides (final score)</th><th>result</th>"
           "</tr>"]
    for msg in reversed(games):
        g = msg["game"]
        sides = []
        for s in g["by_side"]:
            who = ", ".join(night.side_names(msg, s["side"]))
            sides.append(("<b>%s %d</b>" if s["won"] else "%s %d") % (_h(who), s["score"]))
        out.append("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>" % (
            _link(msg["id"], "/game?id=" + _pq(msg["id"])), _h(msg["board"]),
            " · ".join(sides), _h(g["result"])))
    out.append("</table>")
    return "".join(out)


def specials_table(specials):
    if not specials:
        return "<p>No 28 or 29 yet.</p>"
    out = ["<table><tr><th>who</th><th>hand</th><th>game</th></tr>"]
    for s in specials:
        what = ", ".join(["29"] * s["n29"] + ["28"] * s["n28"])
        out.append("<tr><td>%s</td><td>%s</td><td>%s</td></tr>" % (
            _h(", ".join(s["names"])), what, _link(s["id"], "/game?id=" + _pq(s["id"]))))
    out.append("</table>")
    return "".join(out)


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
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" class="race">' % (w, h),
           '<rect width="%d" height="%d" fill="#fff"/>' % (w, h)]
    for v, dash in ((target, ""), (target - 30, "4 3")):
        if v > 0:
            x0, y = xy(0, v)
            out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999"%s/>'
                       '<text x="2" y="%.1f" font-size="10">%d</text>' % (
                           x0, y, w - pad, y, ' stroke-dasharray="%s"' % dash if dash else "",
                           y + 3, v))
    for i in range(n + 1):
        x, y = xy(i, 0)
        out.append('<text x="%.1f" y="%d" font-size="9" text-anchor="middle">%d</text>'
                   % (x, h - pad + 12, i))
    for k, r in enumerate(runs):
        pts = " ".join("%.1f,%.1f" % xy(i, v) for i, v in enumerate(r))
        out.append('<polyline fill="none" stroke="%s" stroke-width="2.5" points="%s">'
                   '<title>%s</title></polyline>'
                   % (COLOURS[k % 6], pts, _h(", ".join(night.side_names(msg, k)))))
    out.append('<text x="%d" y="%d" font-size="10" text-anchor="end">deal</text></svg>'
               % (w - 2, h - 4))
    return "".join(out)


def game_page(msg):
    g = msg["game"]
    rows = ["<tr><th>side</th><th class=n>score</th><th class=n>hand</th><th class=n>crib</th>"
            "<th class=n>play</th><th class=n>best</th><th class=n>28s</th><th class=n>29s</th>"
            "</tr>"]
    for s in g["by_side"]:
        cells = []
        for c in ("score", "hand", "crib", "play", "best", "n28", "n29"):
            cells.append("<td class=n>%s</td>" % ("" if s.get(c) is None else _h(s[c])))
        rows.append('<tr><td><span style="color:%s">&#9679;</span> %s%s</td>%s</tr>' % (
            COLOURS[s["side"] % 6], _h(", ".join(night.side_names(msg, s["side"]))),
            " (won)" if s["won"] else "", "".join(cells)))
    body = "%s<h1>Game %s</h1><p>board %s · %s · %d deals · to %d</p>%s<table>%s</table>" % (
        NAV, _h(msg["id"]), _h(msg["board"]), _h(g["result"]), g["deals"], g["target"],
        race_svg(msg), "".join(rows))
    return doc("Game " + msg["id"], body)


def player_page(name, games):
    mine = night.player_games(games, name)
    rows = ["<tr><th>game</th><th>against</th><th class=n>score</th><th>result</th>"
            "<th class=n>points</th><th class=n>spread</th></tr>"]
    for msg, r in mine:
        rows.append("<tr><td>%s</td><td>%s</td><td class=n>%d</td><td>%s</td>"
                    "<td class=n>%d</td><td class=n>%+d</td></tr>" % (
                        _link(msg["id"], "/game?id=" + _pq(msg["id"])),
                        _h(", ".join(r["opponents"])), r["score"],
                        ("won" if r["won"] else "lost") + ("" if r["result"] == "win"
                                                           else " (%s)" % _h(r["result"])),
                        r["points"], r["spread"]))
    return doc(name, "%s<h1>%s</h1><table>%s</table>" % (NAV, _h(name), "".join(rows)))


def tournament_html(t, games):
    """The tournament: the next game's tables, the standings of its games, the bracket."""
    if t is None:
        return "<p>No tournament: the director enters one at %s.</p>" % _link("/director",
                                                                             "/director")
    info = tournament_info(t, games)
    out = ["<p>%d players · %d games · %d tables · rotation draw</p>"
           % (len(t["players"]), t["games"], t["tables"])]
    p = len(t["players"])
    if p <= t["games"]:
        out.append("<p><b>%d players cannot give %d different opponents each: the draw "
                   "repeats after %d games.</b></p>" % (p, t["games"], p - 1 + p % 2))
    r = info["next"]
    if r is None:
        out.append("<h3>All %d games played</h3>" % t["games"])
    else:
        out.append("<h3>Game %d of %d</h3><table><tr><th>table</th><th>players</th>"
                   "<th></th></tr>" % (r + 1, t["games"]))
        for (table, a, b), got in zip(tournament.tables(info["rounds"][r], t["tables"]),
                                      info["done"][r]):
            if b is None:
                out.append('<tr class="bye"><td></td><td>%s</td><td>bye</td></tr>' % _h(a))
                continue
            out.append("<tr><td>%s</td><td>%s v %s</td><td>%s</td></tr>" % (
                table if table else "next free", _h(a), _h(b),
                _link("played", "/game?id=" + _pq(got["id"])) if got else ""))
        out.append("</table>")
    out.append("<h3>Tournament standings</h3>" + standings_table(info["standings"]))
    out.append("<h3>Knock-out: the top quarter</h3>" + bracket_html(info["bracket"],
                                                                    info["next"] is None))
    return "".join(out)


def tournament_info(t, games):
    """The tournament's draw, its games, their standings and the bracket, as data (the page's
    and /tournament.json's)."""
    tg = tournament.tournament_games(games, t["players"], t["started"])
    rounds = tournament.rotation(t["players"], t["games"])
    done = tournament.played_rounds(rounds, tg)
    nxt = tournament.next_round(rounds, done)
    counted = {g["id"] for got in done for g in got if g}
    rows = night.standings([g for g in tg if g["id"] in counted])
    after = [g for g in tg if g["id"] not in counted] if nxt is None else []
    return {"rounds": rounds, "done": done, "next": nxt, "standings": rows,
            "bracket": tournament.bracket(rows, after)}


def bracket_html(rounds, final_standings):
    if not rounds:
        return "<p>Too few players for a knock-out.</p>"
    note = "" if final_standings else "<p>(as the standings are now: seeds change until the " \
                                      "last game is in)</p>"
    out = [note, '<div class="tables">']
    for i, matches in enumerate(rounds):
        title = "final" if i == len(rounds) - 1 else "round %d" % (i + 1)
        out.append('<div class="table"><b>%s</b><br>' % title)
        for m in matches:
            def who(name, seed, m=m, first=i == 0):
                if name is None:
                    return "bye" if seed is not None and first else "…"
                s = "(%d) %s" % (seed, _h(name)) if seed else _h(name)
                return "<b>%s</b>" % s if m["winner"] == name else s
            out.append("%s v %s<br>" % (who(m["a"], m["seed_a"]), who(m["b"], m["seed_b"])))
        out.append("</div>")
    out.append("</div>")
    return "".join(out)


def club_page(night_name, nights, games, states, status, t, dropped):
    body = [NAV, "<h1>Club night %s</h1>" % _h(night_name)]
    if len(nights) > 1:
        body.append("<p>nights: %s</p>" % " ".join(_link(n, "/?night=" + n) for n in nights))
    body.append("<h2>Live tables</h2>" + live_tables(states, status))
    body.append("<h2>Standings</h2>" + standings_table(night.standings(games)))
    body.append("<h2>Tournament</h2>" + tournament_html(t, games))
    body.append("<h2>Special hands</h2>" + specials_table(night.special_hands(games)))
    body.append("<h2>Games (%d)</h2>" % len(games) + games_table(games))
    if dropped:
        body.append("<p><small>%d malformed messages dropped (the service's log says what)"
                    "</small></p>" % dropped)
    return doc("Club night " + night_name, "".join(body), refresh=10)


def projector_page(night_name, games, t):
    if t is not None:
        rows = tournament_info(t, games)["standings"]
        title = "Tournament"
    else:
        rows = night.standings(games)
        title = "Club night %s" % night_name
    return doc(title, "<h1>%s</h1>%s" % (_h(title), standings_table(rows, big=True)),
               refresh=5, cls="proj")


def director_page(t, message=""):
    players = "\n".join(t["players"]) if t else ""
    return doc("Director", """%s<h1>Tournament</h1><p>%s</p>
<form method="post" action="/director">
<p><label>Players, one a line (as named at the boards)<br>
<textarea name="players" rows="14" cols="30">%s</textarea></label></p>
<p><label>Games <input name="games" type="number" min="1" max="30" value="%d"></label>
<label>Tables <input name="tables" type="number" min="1" max="200" value="%d"></label></p>
<p><button name="do" value="start">Start (a new draw)</button>
<button name="do" value="end">End the tournament</button></p></form>""" % (
        NAV, _h(message), _h(players), t["games"] if t else 9,
        t["tables"] if t else 5))
