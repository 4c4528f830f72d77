"""The game as the live page shows it, as a dict (JSON): the page's GET /state and live stream
(page/routes.py) and the club's state message (publish/packets.py) read it. Its own module, so
that the publisher need not load the page's server for it, and neither imports the other.
"""

import sys

from cribbage import match as M
from cribbage.cards import fmt
from cribbage.events import why
from board import screen
from board.fault import load
from board.render import PALETTE
from board.settings import MATCHES  # (the menu's words: one table)
from version import VERSION

PHASES = ("deal", "starter", "play", "show", "over")  # by cribbage.match DEAL..OVER


def snapshot(app):
    """What the page shows, as a dict (JSON): the scores, pegs (as LED numbers on the layout),
    the sides' colours (the LEDs' "rrggbb"), games won, whose deal/turn/crib, the count and
    the series, the last points and why, the display's lines, the last show's cards and
    count."""
    m = app.m
    L = app.layout
    sides = m.sides
    lanes = L.lanes
    pegs = []
    for s in range(sides):
        lane = s % lanes
        pegs.append([L.peg(lane, min(m.score[s], m.target), m.target),
                     L.peg(lane, min(m.back[s], m.target), m.target) if m.back[s] else -1,
                     s // lanes])
    skunk = []
    for lane in range(min(lanes, sides)):
        skunk.append([L.peg(lane, m.skunk_line, m.target) if m.skunk_line else -1,
                      L.peg(lane, m.double_line, m.target) if m.double_line else -1])
    games = []
    for lane in range(lanes):
        k = []
        for i in range(L.games):
            k.append(L.games_led(lane, i))
        games.append(k)
    pile = []
    for c in m.pile:
        pile.append(fmt(c))
    phase = m.phase
    turn = m.turn
    st = {
        "version": VERSION, "changes": app.changes,
        "players": m.players, "sides": sides, "target": m.target,
        "names": screen.SIDE_NAMES[:sides],
        "phase": PHASES[phase] if 0 <= phase < len(PHASES) else str(phase),
        "deal": m.deals, "score": list(m.score), "back": list(m.back),
        "games": list(m.games[:sides]),
        "match": MATCHES[m.mode] if 0 <= m.mode < len(MATCHES) else "",
        "match_won": m.match_won(), "pegs": pegs, "skunk": skunk, "games_leds": games,
        "dealer": m.dealer, "dealer_side": m.side_of(m.dealer) if m.dealer >= 0 else -1,
        "deals_next": deals_next(app),
        "turn": turn, "turn_side": m.side_of(turn) if turn >= 0 else -1,
        "crib_next": bool(m.crib_next), "count": m.count, "pile": pile,
        "starter": fmt(m.starter_card) if m.starter_card >= 0 else "",
        "last": {"side": m.last_side, "points": m.last_points,
                 "why": why(m.last_why)},
        "winner": m.winner,
        "result": screen.RESULTS[m.result] if 0 <= m.result < len(screen.RESULTS) else "",
        "error": app.err or "",
        "show": last_show(m),
    }
    i = 24 * app.renderer.colours  # the sides' LED colours (the "colours" setting's palette
    cols = []  # in board/render.py's one table): the page draws in them
    for k in range(i, i + 3 * sides, 3):
        cols.append("%02x%02x%02x" % (PALETTE[k], PALETTE[k + 1], PALETTE[k + 2]))
    st["colours"] = cols
    if m.cards() == 5:  # five-card cribbage (a six-card game's state: as before)
        st["cards"] = 5
    if app.display is not None:
        st["lines"] = app.lines()
    o = getattr(app, "ota", None)  # an update waiting, failed, went back (ota/order.py)
    if o and o[0]:
        st["update"] = o[0]
    elif getattr(sys.modules.get("slots"), "trial", None):  # the loader's (main.py loads it
        st["update"] = "on trial"  # at boot; where it did not, no slot is on trial): this
        # version on trial, till ota/trial.py confirms it
    if app.power is not None:  # board/power.py: the battery in mV (0: none, on the mains)
        st["supply_mv"] = app.power.mv
        st["power"] = app.power.state_name()
    return st


def deals_next(app):
    """Between deals, the side that deals next, as the display names it ("deal: Blue": the
    seat after the last dealer, or the one chosen with A before the first deal); else -1."""
    m = app.m
    if m.phase != M.DEAL:
        return -1
    return m.side_of(m.next_dealer if m.next_dealer >= 0 else app.e.seat)


def last_show(m):
    """The newest hand or crib shown with its cards in this deal: {"cards", "starter",
    "crib", "points", "said"} (the spoken count), or None."""
    from cribbage.events import E_SHOW, E_DEAL, shown, size

    S = load("cribbage.spoken")  # (a board without a display has not loaded it)

    if m.phase != M.SHOW and m.phase != M.DEAL and m.phase != M.OVER:
        return None
    e = m.committed()  # the journal's events, in place
    i = 0
    end = len(e)
    last = -1  # where the newest show with cards is, and which show of its deal it was
    at = shows = 0
    cards = None
    while i < end:
        k = e[i]
        if k & 0xF0 == E_SHOW:
            c = shown(e, i)
            if c is not None:
                last = i
                at = shows
                cards = c
            shows += 1
        elif k & 0xF0 == E_DEAL:
            last = -1
            shows = 0
        i += size(e, i, m.players)
    if last < 0 or cards is None or m.starter_card < 0:
        return None
    crib = at == m.players  # a deal shows each seat's hand, then the crib
    items = S.breakdown(cards, m.starter_card, crib)
    pts = 0
    for it in items:
        pts += it[2]
    out = []
    for c in cards:
        out.append(fmt(c))
    return {"cards": out, "starter": fmt(m.starter_card), "crib": crib, "points": pts,
            "said": S.spoken(items)}
