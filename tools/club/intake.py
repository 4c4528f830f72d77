"""The club's door (issue 30): every message from the broker, checked before anything is kept.

    take(club, topic, payload) -> "new" | "revised" | "withdrawn" | "duplicate" | "stale"
                                  | "state" | "status"
raises BadMessage (the message is refused: the service keeps it as a reject, counts it and
acknowledges it) or sqlite3.Error (the store failed: the only case not acknowledged, so the
broker sends it again).

The rules, in order: the topic is a club topic of a board in the registry (registry.py); a
game is signed by that board's key with a counter the board has not used (sign.py, store.py),
unless the registry marks the board "unsigned" (its firmware cannot sign yet: the page warns);
its JSON has the declared shape and is consistent (schema.py); its id is the board's. A
state or status is not signed (shown live, never counted): it is taken only from a known
board's topic, which the broker's ACL lets only that board write, and bounded (schema.py's
caps; at most MAX_LIVE boards' live states are kept: a state from one more is refused).
"""

from . import contract, schema, sign
from .contract import BadMessage

MAX_LIVE = 128  # boards whose live state and status the club keeps (the page draws each)


def take(club, topic, payload):
    board, kind = contract.split(topic, club.prefix)
    known = club.registry.board(board)
    if known is None:
        raise BadMessage("board %r is not one of the club's (python -m club boards add %s)"
                         % (board[:40], board[:40]))
    secret, unsigned = known
    payload = bytes(payload)
    if kind == "game":
        return _game(club, board, secret, unsigned, payload)
    if kind == "state":
        _live(club, club.states, board, schema.state(board, payload) if payload else None,
              "live states")
        return "state"
    _live(club, club.status, board, schema.status(payload) if payload else None, "status")
    return "status"


def _live(club, kept, board, value, what):
    """A board's live state or status (value, checked) kept in club's table kept, one a
    board for at most MAX_LIVE boards; None (a retained message cleared): dropped."""
    with club.lock:
        if value is None:
            kept.pop(board, None)
        elif board not in kept and len(kept) >= MAX_LIVE:
            raise BadMessage("%s of %d boards kept already (at most %d)"
                             % (what, len(kept), MAX_LIVE))
        else:
            kept[board] = value


def _game(club, board, secret, unsigned, payload):
    if not sign.is_signed(payload):
        if not unsigned:
            raise BadMessage("an unsigned game from board %s, which has a key" % board)
        msg = schema.game(board, payload)  # (a board the registry marks unsigned)
        if club.store.add_game(msg, club.night()):
            return "new"
        return "duplicate"
    counter, mac, data = sign.verify(secret, payload)
    if schema.is_withdrawal(data):
        msg = schema.withdrawal(board, data)
    else:
        msg = schema.game(board, data)
    return club.store.add_signed(board, counter, mac, msg, club.night())
