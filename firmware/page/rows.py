"""What the page sends that is made from the game and the board for a request, not kept: this
game deal by deal (GET /deals), every LED's place (GET /layout), the statistics (GET /stats),
the history's export (GET /history.csv, /history.json), the club's address, status and names
(GET /club: what is wrong with the Wi-Fi file's broker entry). Loaded for such a request and
let go after it (page/lazy.py, board/fault.py's table): a phone asks for them now and then,
it watches the live stream all game.

    answer(web, req)  # page/routes.py's route for these paths: the route's result
"""

import json

from board import screen
from board.fault import load
from board.modes import SUSPECT
from page.lazy import passing
from page.server import short

_SUSPECT = (SUSPECT,)  # the app's command (App.apply): its game may be half replayed
_JSON = {"Content-Type": "application/json"}


def answer(web, req):
    """The result of GET req.path (page/routes.py's Web web: its app, its loader)."""
    app = web.app
    path = req.path
    if path == "/layout":
        return layout(app.layout), 200, _JSON
    if path == "/deals":
        return deals(web, req), 200, _JSON
    if path == "/stats":
        S = web.load(req, "board.stats")
        t = S.tally(app.store)
        out = []
        for side in range(len(t)):
            out.append({"name": screen.SIDE_NAMES[side], "counts": list(t[side]),
                        "lines": S.lines(t, side)})
        return json.dumps(out), 200, _JSON
    if path == "/history.csv":
        export = web.load(req, "board.export")
        return export.csv_lines(app.store), 200, {
            "Content-Type": "text/csv", "Content-Disposition": "attachment; filename=games.csv"}
    if path == "/history.json":
        export = web.load(req, "board.export")
        return export.json_chunks(app.store), 200, _JSON
    # /club (publish/): the broker's address and the connection's status, and the seats'
    # names (set with the PIN the board shows: POST /names, page/writes.py)
    if web.club is not None:
        return json.dumps(web.club.info()), 200, _JSON
    out = {"broker": None, "status": "off",
           "names": passing("publish.names", "load_names", app.store)}
    bad = passing("page.rows", "wifi_fault")
    if bad:  # a broker entry the board refused: what is wrong, not just "no broker"
        out["fault"] = bad
    return json.dumps(out), 200, _JSON


def deals(web, req=None):
    """deal_rows() as JSON bytes (web.deals), made again only when the journal has changed
    since (the page asks at each phase and show, not at every card: the replay is the
    game's)."""
    m = web.app.m
    at = m.events << 3 | m.phase  # (undo at a game's start shows the last one's end: OVER)
    if at != web.deals_at:
        if short():  # (the replay is the game's own: never begun without room)
            raise MemoryError
        web.load(req, "cribbage.summary")
        try:
            got = deal_rows(m)
        except Exception:  # noqa: BLE001  (MemoryError: the replay is the game's own, in
            web.app.apply(_SUSPECT)  # place; the app restores it before the next entry)
            raise
        web.deals = json.dumps(got).encode()
        web.deals_at = at
    return web.deals


def deal_rows(m):
    """This game deal by deal: [dealer side, [hand, crib, play] per side (None: not shown),
    all each side pegged in the deal (his heels, penalties and muggins too: the race's
    steps, which add up to the score)]. The game replays itself (cribbage/summary.py): a
    failure half way is raised, the game restored or to be restored (app.broken: see
    deals())."""
    S = load("cribbage.summary")
    try:
        b = b"".join(S.dumps(m, 255))
    except ValueError:
        return []
    out = []
    for dealer, heels, crib, hands, plays, pegs, pens, mugs in S.rows(b, 0, m.sides):
        row = []
        got = []
        at = m.side_of(dealer)
        for side in range(m.sides):
            c = crib if side == at else None
            row.append([hands[side], c, plays[side] + pegs[side]])
            got.append((hands[side] or 0) + (c or 0) + plays[side] + pegs[side] + pens[side]
                       + mugs[side] + (heels if side == at else 0))
        out.append([at, row, got])
    return out


def layout(L):
    """Every LED's place (mm) and what it is, a band of the board at a time (streamed)."""
    from board.geometry import KIND_NAMES
    yield '{"count":%d,"lanes":%d,"holes":%d,"leds":[' % (L.count, L.lanes, L.holes)
    n = L.count
    for i in range(0, n, 30):
        part = []
        for p in range(i, min(i + 30, n)):
            x, y = L.xy(p)
            kind, lane, k = L.what(p)
            part.append('[%.1f,%.1f,"%s",%d,%d]' % (x, y, KIND_NAMES[kind], lane, k))
        yield ("," if i else "") + ",".join(part)
    yield "]}"


def wifi_fault():
    """What is wrong with the Wi-Fi file's broker entry, naming the field (hw/wifi.py's
    fault(), at its PATH: the simulator's is in its storage), or "" (none, or a good one)."""
    from hw import wifi

    return wifi.fault(wifi.PATH, "broker")
