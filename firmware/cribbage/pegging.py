"""The play and the show, as pure functions of their inputs: whether a card may be played or a
go said, which card may be in the hand shown, and what a hand shown counts.

Each takes plain numbers and the deal's cards (`table`: where each card is this deal, a byte a
card, events.py's AT_*), reads them and changes nothing; a refused entry raises ValueError
saying why. The Match's handlers (play.py) call them first, then change the state.
"""

from .cards import PIP, DECK, fmt
from .score import score_hand
from . import events
from .events import show_points_ok, say

from micropython import const

# The refusals, one a line (see events.say): the first five by phase.
_NO = """no play now: deal first
no play now: turn the starter first
no play now
no play now: the play is over
no play now
%s is the starter
%s was already played
%s would make the count %d, over 31: say go
no go now: not in the play
nobody says go on a count of 0: lead a card
the play is not over: %d cards to play
no hand to show now: deal first
enter the starter to score the cards (or enter the points)
not a card: %d
%s is in the hand twice
%s was played by seat %d
%s is in seat %d's hand
seat %d played %d cards: the hand must hold them
%d claimed, but the %s counts %d
no hand or crib counts %d
a hand or crib counts 0 to 29, not %d
no go on a count of %d: every card fits (go at 22 or more)
%s is dead: it fitted at %d when seat %d said go
in five-card cribbage a hand is 3 cards and the crib 4"""
_STARTER = const(5)
_PLAYED = const(6)
_OVER_31 = const(7)
_NO_GO = const(8)
_GO_AT_0 = const(9)
_PLAY_ON = const(10)
_NO_SHOW = const(11)
_NO_STARTER = const(12)
_NOT_CARD = const(13)
_TWICE = const(14)
_PLAYED_BY = const(15)
_SHOWN = const(16)
_HOLD = const(17)
_OVER_CLAIM = const(18)
_NO_COUNT = const(19)
_COUNT_RANGE = const(20)
_GO_FITS = const(21)
_DEAD_CARD = const(22)
_THREE = const(23)


def play(table, phase, count, seat, count_at, dead, c):
    """Refuse card c played by seat at count (not in the play, the starter, played, over 31,
    dead: his cards are dead, dead not 0, and it fitted at count_at, the count he said go at);
    True when it proves a false go (he said go holding it, and it fitted: at count_at, or,
    his cards dead, at dead - 2, a go he said since his penalty; dead 1: none)."""
    if phase != events.PLAY:
        raise ValueError(say(_NO, phase))
    at = table[c]
    if at:
        if at == events.AT_STARTER:
            raise ValueError(say(_NO, _STARTER, (fmt(c),)))
        raise ValueError(say(_NO, _PLAYED, (fmt(c),)))
    if count + PIP[c] > 31:
        raise ValueError(say(_NO, _OVER_31, (fmt(c), count + PIP[c])))
    g = count_at
    if g and g + PIP[c] <= 31:  # he said go at g holding this card, and it fitted:
        if dead:  # dead already (the penalty was taken)
            raise ValueError(say(_NO, _DEAD_CARD, (fmt(c), g, seat)))
        return True
    return dead > 1 and dead + PIP[c] <= 33


def go(phase, count, dead):
    """Refuse a go said at count: not in the play; a count of 0 or up to 21 (any card fits)
    unless the seat's cards are dead (dead true)."""
    if phase != events.PLAY:
        raise ValueError(say(_NO, _NO_GO))
    if dead:
        return
    if count == 0:
        raise ValueError(say(_NO, _GO_AT_0))
    if count <= 21:  # the seat to play holds a card and any card fits: no go
        raise ValueError(say(_NO, _GO_FITS, (count,)))


def check_card(table, c, seat, crib):
    """ValueError when card c (0..51) cannot be in seat's hand (or the crib) shown next: the
    starter, a card another seat played (any, for the crib), a card shown in a hand."""
    at = table[c]
    if at == events.AT_STARTER:
        raise ValueError(say(_NO, _STARTER, (fmt(c),)))
    if 1 <= at <= 6 and (crib or at != seat + 1):
        raise ValueError(say(_NO, _PLAYED_BY, (fmt(c), at - 1)))
    if at >= events.AT_HAND:  # (AT_HAND + seat; the crib is shown last)
        raise ValueError(say(_NO, _SHOWN, (fmt(c), at - events.AT_HAND)))


def show(table, phase, count, b, i, has_cards, claim, seat, crib, held, starter, cards):
    """What the hand (or the crib) shown pegs: refused in the play while count cards of it
    are still to come once it began, and in any other phase but the show and the starter.
    Its cards at b[i:i+4] when has_cards (a hand of `cards`, 3 or 4: in five-card cribbage
    the fourth byte NO_CARD and the crib 4; each checked: the seat played `held` of them),
    scored with the starter; the points claimed (or entered) in claim (-1: none). Returns the
    points it pegs | the points it overlooked << 8; ValueError refuses it."""
    if phase == events.PLAY and count:
        raise ValueError(say(_NO, _PLAY_ON, (count,)))
    if phase not in (events.SHOW, events.PLAY, events.STARTER):
        raise ValueError(say(_NO, _NO_SHOW))
    five = cards == 3  # (as few locals more as can be: a bigger frame in this hot path moved
    n = 4 if crib else cards  # the heap's peak)
    mug = 0
    if has_cards:
        if starter < 0:
            raise ValueError(say(_NO, _NO_STARTER))
        if five and (b[i + 3] == events.NO_CARD) != (n == 3):
            raise ValueError(say(_NO, _THREE))
        mine = 0
        for a in range(n):
            c = b[i + a]
            if c >= DECK:
                raise ValueError(say(_NO, _NOT_CARD, (c,)))
            for t in range(a):
                if b[i + t] == c:
                    raise ValueError(say(_NO, _TWICE, (fmt(c),)))
            check_card(table, c, seat, crib)
            if table[c] == seat + 1 and not crib:
                mine += 1
        if not crib and mine != held:
            raise ValueError(say(_NO, _HOLD, (seat, held)))
        hand = bytes(b[i:i + n])
        if n == 4:
            pts = score_hand(hand, starter, crib)
        else:  # five-card cribbage: three cards (score.hand: a name a board has anyway)
            from .score import hand as count

            pts = count(hand, starter)
        if claim >= 0:
            if claim > pts:
                raise ValueError(say(_NO, _OVER_CLAIM,
                                     (claim, "crib" if crib else "hand", pts)))
            if not (show_points_ok(claim) if n == 4 else
                    0 <= claim <= 15 or claim == 20):  # under the true count, yet no hand
                # makes it (a three-card hand: 0 to 15, or 20; test_five_exhaustive)
                raise ValueError(say(_NO, _NO_COUNT, (claim,)))
            mug = pts - claim
            pts = claim
    else:
        if not (show_points_ok(claim) if n == 4 else 0 <= claim <= 15 or claim == 20):
            raise ValueError(say(_NO, _NO_COUNT if claim <= events.HAND_MAX else _COUNT_RANGE,
                             (claim,)))
        pts = claim
    return pts | mug << 8
