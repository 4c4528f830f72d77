"""The engine's state (and the typed entry) -> the View the renderer draws.

Functions of the App (board/app.py), split out so each module compiles in a small heap.
They read the game and the app's state and write only the View; the app keeps what they
return. The preview is what the typed entry would peg: points as typed, a play card's
points, a hand's count.
"""

from cribbage import match as M
from cribbage.cards import PIP
from cribbage.score import score_hand, score_play
from board.modes import NORMAL, MENU, ADVISE, PENALTY
from board.entry import showing, shower


def counting(app):
    """Whether the typed entry is a hand with its count (the display says it item by item:
    text.py): 0 a hand, 1 the crib, -1 not."""
    m = app.m
    crib = m.phase == M.SHOW and m.crib_next
    n = 3 if m.cards() == 5 and not crib else 4  # (five-card cribbage: a hand of three)
    if (app.mode != NORMAL or m.phase == M.OVER or app.e.mug >= 0 or not showing(app)
            or shower(m) < 0 or len(app.e.cards) != n or m.starter_card < 0):
        return -1
    try:  # (three cards: score.hand, a name a board has anyway)
        (score_hand if n == 4 else M.score.hand)(app.e.cards, m.starter_card, crib)
    except ValueError:
        return -1
    return 1 if crib else 0


def preview(app):
    """(side, points) the typed entry would peg, or (-1, 0)."""
    m = app.m
    if app.mode == PENALTY and (m.phase != M.OVER or m.false_go() >= 0):
        return m.side_of(app.e.seat), 2  # a penalty is two points (the false go: see update)
    if app.mode != NORMAL or m.phase == M.OVER:
        return -1, 0
    if app.e.mug >= 0:  # calling muggins (board/entry.py): for that side
        return app.e.mug, m.overlooked()
    if showing(app):
        seat = shower(m)
        if seat < 0:
            return -1, 0
        if len(app.e.cards) == (3 if m.cards() == 5 and not m.crib_next else 4) \
                and m.starter_card >= 0:  # (five-card cribbage: a hand of three)
            crib = m.phase == M.SHOW and m.crib_next
            try:  # (three cards: score.hand, a name a board has anyway)
                total = (score_hand if len(app.e.cards) == 4 else M.score.hand)(
                    app.e.cards, m.starter_card, crib)
            except ValueError:
                return -1, 0
            if app.e.num >= 0:
                total = app.e.num
            elif m.muggins_on:
                return -1, 0  # the player must count it himself
            return m.side_of(seat), total
        if app.e.num >= 0 and not app.e.cards:
            return m.side_of(seat), app.e.num
        return -1, 0
    if app.e.cards and m.phase == M.PLAY and app.e.num < 0:
        c = app.e.cards[0]
        if m.count + PIP[c] > 31:
            return -1, 0
        for x in m.pile:  # (MicroPython has no `int in bytearray`)
            if x == c:
                return -1, 0
        pile = bytearray(m.pile)
        pile.append(c)
        try:
            pts = score_play(pile)
        except ValueError:
            return -1, 0
        return m.side_of(m.turn), pts
    if app.e.num >= 0 and not app.e.cards:
        return m.side_of(app.e.seat), app.e.num
    return -1, 0


def update(app):
    """The View (app.view) from the engine's state, the typed entry (app.e) and the mode;
    returns whether the entry is a hand with its count (counting(): the app keeps it, for
    the display). Nothing else changes: the entry follows the game in board/entry.py
    (follow)."""
    m = app.m
    v = app.view
    v.sides = m.sides
    v.target = m.target
    for s in range(m.sides):
        v.front[s] = min(m.score[s], 255)
        v.back[s] = min(m.back[s], 255)
        v.games[s] = min(m.games[s], 255)
    if m.phase in (M.PLAY, M.SHOW) and m.turn >= 0:
        v.turn = m.side_of(m.turn)
    elif m.phase == M.OVER:
        v.turn = -1
    elif m.phase == M.DEAL and m.next_dealer >= 0:
        v.turn = m.side_of(m.next_dealer)  # who deals next (A only picks the first dealer)
    elif m.phase == M.STARTER:
        v.turn = m.side_of(m.dealer)  # the dealer turns the starter
    else:
        v.turn = m.side_of(app.e.seat)
    v.crib = m.side_of(m.dealer) if m.dealer >= 0 else -1
    # a card that proved a false go (the penalty entry asks) wins only once the false go is
    # let go: till then no win on the LEDs
    over = m.phase == M.OVER and not (app.mode == PENALTY and m.false_go() >= 0)
    v.winner = m.winner if over else -1
    r = m.result if over else 0
    v.skunk = 2 if r == M.DOUBLE_SKUNK else 1 if r in (M.SKUNK, M.LURCH) else 0
    v.won = (m.double_games if r == M.DOUBLE_SKUNK else m.skunk_games if v.skunk
             else 2 if m.mode == M.ACC else 1) if r else 0
    v.skunk_line = m.skunk_line
    v.double_line = m.double_line
    side, pts = preview(app)
    if side >= 0 and pts > 0:
        v.preview_side = side
        v.preview_score = min(m.score[side] + pts, m.target)
    else:
        v.preview_side = -1
    for k in range(len(v.marks)):
        v.marks[k] = -1
    if app.mode == ADVISE and app.e.advice:  # light the entry positions to throw
        throw = app.e.advice[0][1]
        for k in range(len(throw)):
            v.marks[k] = app.layout.hole(0, throw[k] + 1)
    elif app.mode == MENU:
        v.marks[0] = app.layout.hole(0, app.item + 1)
    elif app.mode == PENALTY:  # white: hole 1 a misdeal, hole 2 a failure to play, 3 false go
        v.marks[0] = app.layout.hole(0, app.pen + 1)
        if app.e.off >= 0:  # who failed: hole 6 seat 0 (Red, Red1), 7 the seat on its left..
            v.marks[1] = app.layout.hole(0, 6 + app.e.off)
    elif app.pin >= 0:  # the live page's PIN, no screen: digit k blinks in lane 1's holes
        for k in range(4):  # 10k+1 .. 10k+10 (the first of the ten: 0, the last: 9)
            d = app.pin // (1000, 100, 10, 1)[k] % 10
            v.marks[k] = app.layout.hole(0, 10 * k + d + 1)
    elif app.display is None:  # no screen: the typed entry blinks white, a hole per card
        n = len(app.e.cards) + (1 if app.e.num >= 0 else 0)  # (and one for a number)
        for k in range(min(n, len(v.marks))):
            v.marks[k] = app.layout.hole(0, k + 1)
    v.dirty = True
    return counting(app)
