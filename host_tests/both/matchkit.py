"""Shorthands the match engine's tests share (plain, so MicroPython runs them too)."""

from check import raises
from dealer.cardtext import parse, parse_many
from cribbage.match import Match
from cribbage.events import size


# Who deals the next game (Match(deal=...)): round the table, the players cut, the loser.
DEAL_ROTATE, DEAL_CUT, DEAL_LOSER = 0, 1, 2


def old_rules(m):
    """m plays by the rules of a game saved by earlier firmware, as loads() sets them: a
    failure to play kills every card the offender has left."""
    m._where[59] |= 4  # (a test's reach: the rules byte, play.py; loads() makes such a Match)
    return m


def C(text):
    return parse_many(text)


def plays(m, text):
    """Enter a play: cards, and 'go'; returns the points each entry pegged."""
    out = []
    for tok in text.split():
        out.append(m.go() if tok == "go" else m.play(parse(tok)))
    return out


def two(dealer=1, starter="KC", **kw):
    """A two-player game dealt by seat `dealer`, starter turned."""
    m = Match(players=2, **kw)
    m.deal(dealer)
    m.starter(parse(starter))
    return m


def unchanged(m, fn, *args, **kw):
    """fn(*args) must raise ValueError and leave the game exactly as it was."""
    st, saved = m.state(), m.dumps()
    e = raises(ValueError, fn, *args, **kw)
    assert m.state() == st and m.dumps() == saved
    assert m.error == str(e) and m.error
    return str(e)


def card_keys(c, short=False):
    """The keypad keys for card c: its rank's digits, then its suit's letter (A-D). short:
    a ten as 0 (one key) rather than 10."""
    r = (c >> 2) + 1
    return ("0" if short and r == 10 else str(r)) + "ABCD"[c & 3]


def deal_two(dealer, rand):
    """A shuffled two-player deal, each player throwing his first two cards to the crib:
    (hands, crib, starter)."""
    from dealer.deal import new_deck, shuffle, deal_hands

    deck = new_deck()
    shuffle(deck, rand)
    hands, crib, rest = deal_hands(2, dealer, deck)
    for h in hands:
        crib.append(h.pop(0))
        crib.append(h.pop(0))
    return hands, crib, rest[0]


# What the tests read of a game's journal and its undo (the engine's public fields: a board
# never asks, so the engine keeps no code for it on a board's heap, issue 34)
def journal(m):
    """The committed events of match m as a list of bytes objects, oldest first."""
    log = m.log
    out = []
    i = 0
    while i < log.end:
        k = size(log.j, i, m.players)
        out.append(bytes(log.j[i:i + k]))
        i += k
    return out


def can_undo(m):
    """Whether m.undo() has an event (or a finished game's end) to undo."""
    return m.log.end > 0 or (len(m.log.won) > 0 and not m.log.showing)


def can_redo(m):
    """Whether m.redo() has an event to put back."""
    return m.log.top > m.log.end or m.log.showing
