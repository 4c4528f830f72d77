"""The typed entry and what each key does with it.

An Entry (app.e) holds what is typed and not yet confirmed: a number, cards, the hand filled in
from the play, the side proposed to call muggins, the advice. The app (board/app.py) alone
changes it. The functions below read the View (v: the snapshot the app fills, with the game
v.m, the entry v.e and the mode) and a key, and return what the app is to do: always a command
(board/modes.py: NOTHING, (REFUSE, text), (CALL, fn, arg, ...), (DEAL_FIRST, fn, arg, ...),
(NEXT_GAME,), (MODE, mode, k), (SAY, msg), and (EDIT, then, name, value, ...) for what the key
changes in the entry). They write nothing: not the entry, the engine, the flash, the display
nor the app; the app applies what they return.

Fewer keys (muggins off): the crib's fourth card typed puts it in, as a card played does (an
OK right after is a habit); with two players, one OK on the pone's hand filled in from the
play also counts the dealer's when it is filled in too (show_two: both, or neither).

What the typed entry would peg, for the View's preview (counting, preview): points as typed,
a play card's points, a hand's count.

Muggins with more than two sides: C after an under-claimed count proposes the side after the
shower's (e.mug; -1: not calling; follow() drops it when the chance is gone), A steps to the
next side (never the shower's), OK takes it, * cancels.
"""

from cribbage import match as M
from cribbage.cards import PIP, fmt
from cribbage.score import score_hand, score_play
from cribbage.events import say
from board import modes  # (the modes and commands it names least, as modes.X: a hash size
# fewer in its globals)
from board.modes import NORMAL, ADVISE, PENALTY, NOTHING, CALL, DEAL_FIRST, MODE, REFUSE, EDIT
from board.modes import message
from board.fault import load

from micropython import const

_SUIT_KEY = const(10)  # places in board/modes.py's KEYS (THE KEY MAP): first suit, back, OK
_BACK_KEY = const(14)
_OK_KEY = const(15)


class Entry:
    """What is typed and not yet confirmed (the app holds one, app.e, and alone changes it:
    through an EDIT command, or these methods)."""

    def __init__(self):
        self.cards = []  # the typed cards (cleared in place)
        self.seat = 0  # the seat chosen with A: whose plain peg, who deals first (kept)
        self.fg_at = -1  # the event after which a proved false go was put to the players
        self.clear()

    def clear(self):
        self.quick = False  # the last key put a card or a go in: an OK now is a habit
        self.num = -1  # the typed number (-1: none) and its digits
        self.ndig = 0
        while self.cards:  # emptied in place: no slice object (a fault may be short of memory)
            self.cards.pop()
        self.show_next = False  # C: the typed cards or points are a hand of the show
        self.filled = 0  # cards of the entry filled in from the play, untouched
        self.fill_at = -1  # the engine's event count when they were (-1: fill again)
        self.advice = None  # the advisor's answer
        self.mug = -1  # the side proposed to call muggins (3+ sides), or -1
        self.asked = False  # the menu asked "OK again ends this game"
        self.off = -1  # the penalty entry: the seat that failed to play, or -1 (menu.py)
        self.stats = None  # the statistics on the display: a list of lines per side (menu.py)
        self.page = 0  # the side whose statistics show

    def fault(self, err):
        """After a fault (App.recover): what was typed stays as it was (the hand filled in
        from the play filled in again by follow()), unless the last thing said (err) was a
        fault too: then the entry may be what fails, and it goes."""
        f = self.filled
        if (err is not None and err[:7] == "fault (out of memory)"[:7]) or f < 0 or (
                f and f == len(self.cards)):
            self.clear()  # a fault again: what is typed may be what fails; or the hand as
        else:  # played (untouched, or cut short by the fault): follow() fills it in again
            self.quick = False  # what was typed stays, as it was; the rest goes
            self.advice = None
            self.mug = -1
            self.asked = False
            self.off = -1
            self.stats = None

    def blank(self):
        """After a refusal on a board without a display (App.refuse: nothing shows what is
        typed): the number, the cards and the advice go, to be typed afresh after the flash;
        the hand as played, untouched, stays (the game's, not typed; a failed save after the
        play's last card has no follow() to fill it in again)."""
        self.num = -1
        self.ndig = 0
        self.advice = None
        if not self.filled or self.filled != len(self.cards):
            self.cards.clear()
            self.filled = 0
            self.fill_at = -1  # the hand's played cards come back: only the rest is typed


def showing(v):
    """True when typed cards or points are a hand (or the crib) of the show (v: the View)."""
    return v.mode == NORMAL and (v.m.phase == M.SHOW or v.e.show_next)


def shower(m):
    """The seat whose hand (or crib: the dealer's) the show takes next."""
    return m.turn if m.phase == M.SHOW else m.pone()


def follow(v):
    """After a key or an engine call: what the entry becomes as it follows the game, as a
    command (NOTHING, or an EDIT). A hand whose cards were entered in the play starts filled
    in with them, once per hand (OK counts it, * clears it, a card typed starts it afresh);
    a muggins call whose chance has gone is dropped; a false go the card just played proves
    (sheet 000) is put to the players once, as the penalty entry with "false go" and the
    next seat (another side) chosen: OK takes it, * declines (then (MODE, PENALTY,
    FALSE_GO))."""
    m = v.m
    e = v.e
    mode = v.mode
    said = NOTHING
    out = ()
    fg = m.false_go()
    if fg >= 0 and mode == NORMAL and e.fg_at != m.events:
        mode = PENALTY  # (the OK after the card is the answer, not a habit)
        said = (MODE, PENALTY, M.FALSE_GO)
        out = ("fg_at", m.events, "quick", False, "seat", (fg + 1) % m.players, "off", fg)
    if e.mug >= 0 and (not m.overlooked() or mode != NORMAL or m.phase == M.OVER
                       or e.mug == m.overlooked_side()):
        out += ("mug", -1)  # the muggins being called is gone (pegged, undone, another event)
    if m.phase != M.SHOW or m.crib_next or mode != NORMAL or m.turn < 0:
        if e.fill_at >= 0:
            out += ("fill_at", -1)
    elif e.fill_at != m.events and not e.cards and e.num < 0:
        cards = []
        m.played_cards(m.turn, cards)
        out += ("cards", cards, "filled", len(cards), "fill_at", m.events)
    return (EDIT, said) + out if out else said


def dealer_next(v):
    """The dealer's hand as played, when one OK on the pone's counts it too (two players,
    muggins off, both hands filled in from the play, the pone's untouched); else None."""
    m = v.m
    e = v.e
    n = 3 if m.cards() == 5 else 4  # (five-card cribbage: a hand of three)
    if (m.players == 2 and e.filled == n and e.num < 0 and not m.muggins_on
            and m.phase == M.SHOW and m.turn == m.pone() and m.played[m.dealer] == n):
        cards = []
        m.played_cards(m.dealer, cards)
        return cards


def show_two(m, pone, dealer):
    """The pone's hand, then the dealer's unless the pone's won: both go in, or neither (a
    fault in the dealer's takes the pone's back). Returns the points both pegged."""
    before = m.mark()
    try:  # (a fault after the pone's went in, before the dealer's: the pone's back too)
        pts = m.show(pone)
        if m.phase == M.SHOW:
            pts += m.show(dealer)
    except Exception:  # noqa: BLE001  (the app says it: nothing changed)
        m.rollback(before)
        raise
    return pts


def counting(v):
    """Whether the typed entry is a hand with its count (the display says it item by item:
    text.py): 0 a hand, 1 the crib, -1 not."""
    m = v.m
    crib = m.phase == M.SHOW and m.crib_next
    n = 3 if m.cards() == 5 and not crib else 4  # (five-card cribbage: a hand of three)
    if (v.mode != NORMAL or m.phase == M.OVER or v.e.mug >= 0 or not showing(v)
            or shower(m) < 0 or len(v.e.cards) != n or m.starter_card < 0):
        return -1
    try:  # (three cards: score.hand, a name a board has anyway)
        (score_hand if n == 4 else M.score.hand)(v.e.cards, m.starter_card, crib)
    except ValueError:
        return -1
    return 1 if crib else 0


def preview(v):
    """(side, points) the typed entry would peg, or (-1, 0)."""
    m = v.m
    if v.mode == PENALTY and (m.phase != M.OVER or m.false_go() >= 0):
        return m.side_of(v.e.seat), 2  # a penalty is two points (the false go: see update)
    if v.mode != NORMAL or m.phase == M.OVER:
        return -1, 0
    if v.e.mug >= 0:  # calling muggins (board/entry.py): for that side
        return v.e.mug, m.overlooked()
    if showing(v):
        seat = shower(m)
        if seat < 0:
            return -1, 0
        if len(v.e.cards) == (3 if m.cards() == 5 and not m.crib_next else 4) \
                and m.starter_card >= 0:  # (five-card cribbage: a hand of three)
            crib = m.phase == M.SHOW and m.crib_next
            try:  # (three cards: score.hand, a name a board has anyway)
                total = (score_hand if len(v.e.cards) == 4 else M.score.hand)(
                    v.e.cards, m.starter_card, crib)
            except ValueError:
                return -1, 0
            if v.e.num >= 0:
                total = v.e.num
            elif m.muggins_on:
                return -1, 0  # the player must count it himself
            return m.side_of(seat), total
        if v.e.num >= 0 and not v.e.cards:
            return m.side_of(seat), v.e.num
        return -1, 0
    if v.e.cards and m.phase == M.PLAY and v.e.num < 0:
        c = v.e.cards[0]
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
    if v.e.num >= 0 and not v.e.cards:
        return m.side_of(v.e.seat), v.e.num
    return -1, 0


# What a wrong entry says, one a line (cribbage.events.say: one string, not an object each).
_NO = """%d%d: too many digits
no card %d: 1=A 0=10 11=J 12=Q 13=K
%s is typed already
that is all the cards: OK or back
%s is the starter
A: finish or clear the cards first
go is only said in the play
the game is over: OK for the next
D: finish or clear the cards first
who deals? A to choose, then OK
A: your crib, B: theirs
a hand is 4 cards: %d typed
muggins is on: type your count, then OK
finish the card: a suit A B C D
no card is wanted now
nothing to confirm: type first
%d cards still to play: type them
muggins: A next, OK takes, * cancels
no cards played to bring back: type the hand
a hand is 3 cards in five-card cribbage: %d typed"""
_DIGITS = const(0)
_RANK = const(1)
_TYPED = const(2)
_ALL_CARDS = const(3)
_STARTER = const(4)
_A_CARDS = const(5)
_GO_WHEN = const(6)
_OVER = const(7)
_D_CARDS = const(8)
_WHO_DEALS = const(9)
_CRIB = const(10)
_HAND = const(11)
_MUGGINS = const(12)
_SUIT = const(13)
_NO_CARD = const(14)
_NOTHING = const(15)
_PLAY_ON = const(16)
_CALLING = const(17)
_NONE_PLAYED = const(18)
_HAND3 = const(19)


def no(k, args=()):
    """Refusal k of _NO % args: the command that says it."""
    return (REFUSE, say(_NO, k, args))


def key(v, name):
    """What a short press of the key called name ("5", "A", "#", "*", ...) means now (v: the
    View), as a command: here, or board/menu.py's in the menu and the advisor. (A digit's, a
    suit's, a letter's and back's here, not in functions of their own: four function objects
    fewer on every board's heap, issue 34.)"""
    mode = v.mode
    if mode == modes.MENU or mode == PENALTY or mode == modes.STATS:
        return load("board.menu").menu_key(v, name)  # loaded the first time D is pressed
    k = modes.KEYS.find(name)  # (what the key is for: its place)
    m = v.m
    e = v.e
    if 0 <= k < _SUIT_KEY:  # a digit
        if e.mug >= 0:
            return no(_CALLING)
        if m.phase == M.OVER and mode == NORMAL:
            return no(_OVER)  # nothing to type: say what OK does now
        if e.num < 0:
            return (EDIT, NOTHING, "num", k, "ndig", 1)
        if e.ndig == 1 and e.num > 0:
            return (EDIT, NOTHING, "num", e.num * 10 + k, "ndig", 2)
        return no(_DIGITS, (e.num, k))
    if _SUIT_KEY <= k < _BACK_KEY:
        if e.num >= 0:  # a suit after a rank: the card. A card to play or the starter goes
            # in at once (an OK after it is a habit); a card of a hand or the crib is checked
            # against the deal first. A refused card leaves the entry as it was before its rank
            # was typed.
            r = e.num or 10  # 0 is the ten: one key, as for every rank below it
            said = ("num", -1, "ndig", 0)  # the rank goes with its suit: into the card, or
            if not 1 <= r <= 13:  # refused with it
                return (EDIT, no(_RANK, (r,))) + said
            c = (r - 1) * 4 + k - _SUIT_KEY
            hand = showing(v)
            if not hand and mode == NORMAL:  # a card to play, or the starter: no OK to wait
                # for (a card left from a hand typed then not counted gives way; the card is in the
                # engine call, or refused: either way not left typed; an OK now is the habit
                # (board/app.py), even after a refusal)
                return (EDIT, ok(v, (c,))) + said + ("cards", (), "quick", True)
            if hand:
                if c == m.starter_card:
                    return (EDIT, no(_STARTER, (fmt(c),))) + said
                if m.phase != M.DEAL:  # (between deals the hand is of the deal to come)
                    try:
                        m.check_card(c)  # played by another seat, or shown: refused at once
                    except ValueError as x:
                        return (EDIT, (REFUSE, str(x))) + said
            n = 3 if m.cards() == 5 and not (m.phase == M.SHOW and m.crib_next) else 4  # (five-
            # card: 3)
            # the hand as played, untouched: a card typed starts it afresh
            cards = [] if e.filled == n else list(e.cards)
            said += ("filled", 0, "cards", cards)
            if c in cards:
                return (EDIT, no(_TYPED, (fmt(c),))) + said
            if len(cards) >= (m.cards() if mode == ADVISE else n):
                return (EDIT, no(_ALL_CARDS)) + said
            cards.append(c)
            # the crib's 4th card (muggins on: the count comes next, then OK): no OK to wait
            if hand and len(cards) == 4 and m.crib_next and m.phase == M.SHOW and \
                    not m.muggins_on:  # for
                return (EDIT, ok(v, cards)) + said + ("quick", True)
            return (EDIT, NOTHING) + said
        if mode == ADVISE:
            return load("board.menu").advise(v, name)
        # a letter
        side = -1  # calling muggins: the side before the one proposed (below)
        if e.mug >= 0:  # calling muggins: A steps, other letters mean nothing
            if name != "A":
                return no(_CALLING)
            side = e.mug
        elif name == "A":
            if e.cards:
                return no(_A_CARDS)
            seat = (e.seat + 1) % m.players
            return (EDIT, (modes.SAY, (modes.MSG_PLAYER, seat, 0)), "seat", seat)  # (text.py's
            # words)
        elif name == "B":
            if m.phase != M.PLAY or e.show_next:
                return no(_GO_WHEN)
            # the card typed (refused: over 31?) gives way to the go, said at once: no OK
            return (EDIT, (CALL, m.go), "cards", (), "quick", True)
        elif name == "C":
            if m.overlooked() and not e.show_next and m.phase != M.OVER:  # as the display
                # offers, whatever the next hand holds (filled in from the play, or typed)
                if m.sides == 2:
                    return (CALL, m.muggins)  # the other side calls it: no choice to make
                side = m.overlooked_side()  # who calls? the next side (OK takes it)
            elif m.phase == M.OVER:
                return no(_OVER)
            elif m.phase == M.SHOW:  # the hand as played, again (after * cleared it, or a
                # card)
                if m.crib_next or m.turn < 0 or not m.played[m.turn]:
                    return no(_NONE_PLAYED)
                return (EDIT, NOTHING, "cards", (), "filled", 0, "fill_at", -1)  # follow()
            else:  # fills it in
                if m.phase == M.PLAY and not e.show_next:
                    n = 3 if m.cards() == 5 else 4  # (five-card cribbage: three each)
                    left = n * m.players - sum(m.played)
                    for s in range(m.players):  # a seat whose cards are dead plays no more
                        if m.dead() >> s & 1:
                            left -= n - m.played[s]
                    if left < n * m.players:  # cards were entered: the play ends with its
                        return no(_PLAY_ON, (left,))  # last card
                return (EDIT, NOTHING, "show_next", not e.show_next)
        elif name == "D":
            if e.cards:
                return no(_D_CARDS)
            return (MODE, modes.MENU, 0)
        if side < 0:
            return NOTHING
        side = (side + 1) % m.sides  # the side after it that may call muggins (any but the
        if side == m.overlooked_side():  # shower's)
            side = (side + 1) % m.sides
        return (EDIT, NOTHING, "mug", side)
    if k == _OK_KEY:
        return ok(v)
    if k == _BACK_KEY:
        if e.mug >= 0:
            return (EDIT, NOTHING, "mug", -1)  # not calling muggins after all
        if e.num >= 0:
            if e.ndig == 2:
                return (EDIT, NOTHING, "num", e.num // 10, "ndig", 1)
            return (EDIT, NOTHING, "num", -1, "ndig", 0)
        if e.cards:  # the cards filled in from the play: all go
            return (EDIT, NOTHING, "cards", () if e.filled == len(e.cards) else e.cards[:-1],
                    "filled", 0, "advice", None)
        if e.show_next:
            return (EDIT, NOTHING, "show_next", False)
        if mode == ADVISE:
            return (EDIT, (MODE, NORMAL, 0), "clear", 0)
        return (modes.SAY, message(""))
    return (REFUSE, "key %s means nothing here" % name)


def ok(v, cards=None):
    """OK: what is typed, confirmed (cards: these as the entry, without a number: a card to
    play or the starter, the crib's 4th card, which go in with their suit key)."""
    m = v.m
    e = v.e
    if v.mode == ADVISE:
        return no(_CRIB)
    side = e.mug
    if side >= 0:  # taken (or refused: the error says why)
        return (EDIT, (CALL, m.muggins, side), "mug", -1)
    num = -1 if cards else e.num
    more = None if cards else dealer_next(v)  # (the entry filled in from the play)
    if not cards:
        cards = e.cards
    deal = m.phase == M.DEAL
    if deal and m.next_dealer < 0 and (cards or (num >= 0 and showing(v))):
        return no(_WHO_DEALS)
    if cards:
        if showing(v):
            n = 3 if m.cards() == 5 and not (m.phase == M.SHOW and m.crib_next) else 4
            if len(cards) != n:
                return no(_HAND if n == 4 else _HAND3, (len(cards),))
            if m.muggins_on and num < 0:
                return no(_MUGGINS)
            if more:  # two players: the dealer's hand, filled in too, with the same OK
                return (CALL, show_two, m, list(cards), more)
            return (DEAL_FIRST, m.show, list(cards), num)
        if num >= 0:
            return no(_SUIT)
        if deal or m.phase == M.STARTER:
            return (DEAL_FIRST, m.starter, cards[0])
        if m.phase == M.PLAY:
            return (CALL, m.play, cards[0])
        return no(_NO_CARD)
    if num >= 0:
        if showing(v):
            return (DEAL_FIRST, m.show, None, num)
        return (CALL, m.peg, m.side_of(e.seat), num)
    if deal:
        if m.next_dealer < 0:
            return (CALL, m.deal, e.seat)
        return (CALL, m.deal)
    if m.phase == M.OVER:
        return (modes.NEXT_GAME,)
    if m.phase == M.STARTER:
        return (CALL, m.starter)
    return no(_NOTHING)
