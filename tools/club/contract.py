"""The message contract between a board and the club (docs/club.md): topics and payloads.

    <prefix>/<board>/status   retained: "online"; the board's last will "offline" (retained)
    <prefix>/<board>/state    retained, QoS 0: the board page's live state (board/web.py's
                              snapshot) plus "board" and "names" (a short name per seat, or null)
    <prefix>/<board>/game     QoS 1, not retained: {"id", "board", "seats", "game"}; "game" is
                              board/export.py's decode() of the game's record

check_game() and check_state() turn a payload into a dict or raise BadMessage with what is
wrong: the service logs and drops such a message, it never stops for one.
"""

import json

import hostenv  # noqa: F401  (firmware/ on sys.path)
from publish.contract import PREFIX  # the board's and the club's one contract (the topics,
# the fields, the name rule): firmware/publish/contract.py
MAX_PAYLOAD = 64 * 1024  # a game with 40 deals and 6 sides is under 16 KB of JSON
MAX_NAME = 24


class BadMessage(ValueError):
    """A message that breaks the contract (the text says how)."""


def topics(prefix=PREFIX):
    """The subscriptions: (topic filter, QoS)."""
    return [(prefix + "/+/status", 1), (prefix + "/+/state", 0), (prefix + "/+/game", 1)]


def split(topic, prefix=PREFIX):
    """(board, kind) of a topic under prefix, kind "status", "state" or "game"."""
    parts = topic.split("/")
    want = prefix.split("/")
    if (len(parts) != len(want) + 2 or parts[:len(want)] != want or not parts[-2]
            or parts[-1] not in ("status", "state", "game")):
        raise BadMessage("not a club topic: %r" % topic)
    return parts[-2], parts[-1]


def _json(payload):
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage("payload of %d bytes (at most %d)" % (len(payload), MAX_PAYLOAD))
    try:
        v = json.loads(payload)
    except (ValueError, UnicodeDecodeError) as e:
        raise BadMessage("not JSON: %s" % e) from None
    if not isinstance(v, dict):
        raise BadMessage("not a JSON object")
    return v


def _int(v, what, lo, hi):
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise BadMessage("%s: %r is not a whole number %d..%d" % (what, v, lo, hi))
    return v


def _name(v, what):
    if v is None:
        return None
    if not isinstance(v, str) or not v.strip() or len(v) > MAX_NAME:
        raise BadMessage("%s: %r is not a name (1..%d characters, or null)" % (what, v, MAX_NAME))
    return v.strip()


def check_game(board, payload):
    """A game message from board (its topic's name) as a dict, checked: id, board, seats,
    game with its sides, each side's score, the winner and the result."""
    g = _json(payload)
    gid = g.get("id")
    if not isinstance(gid, str) or not gid or len(gid) > 80:
        raise BadMessage("id: %r is not a record id" % (gid,))
    if g.get("board") != board:
        raise BadMessage("board %r sent on board %r's topic" % (g.get("board"), board))
    game = g.get("game")
    if not isinstance(game, dict):
        raise BadMessage("game: not an object")
    by_side = game.get("by_side")
    sides = _int(game.get("sides"), "game.sides", 2, 6)
    if not isinstance(by_side, list) or len(by_side) != sides:
        raise BadMessage("game.by_side: not a list of %d sides" % sides)
    for k, s in enumerate(by_side):
        if not isinstance(s, dict) or s.get("side") != k:
            raise BadMessage("game.by_side[%d]: not side %d" % (k, k))
        _int(s.get("score"), "game.by_side[%d].score" % k, 0, 255)
    _int(game.get("target"), "game.target", 1, 255)
    _int(game.get("winner"), "game.winner", 0, sides - 1)
    if not isinstance(game.get("result"), str):
        raise BadMessage("game.result: %r is not a result" % (game.get("result"),))
    seats = g.get("seats")
    players = _int(game.get("players"), "game.players", 2, 6)
    if not isinstance(seats, list) or len(seats) != players:
        raise BadMessage("seats: not a list of %d seats" % players)
    for i, s in enumerate(seats):
        if not isinstance(s, dict):
            raise BadMessage("seats[%d]: not an object" % i)
        s["name"] = _name(s.get("name"), "seats[%d].name" % i)
        _int(s.get("side"), "seats[%d].side" % i, 0, sides - 1)
    if not isinstance(game.get("by_deal", []), list):
        raise BadMessage("game.by_deal: not a list")
    return g


def check_state(board, payload):
    """A state message from board as a dict (the fields the club page draws checked)."""
    st = _json(payload)
    if st.get("board", board) != board:
        raise BadMessage("board %r sent on board %r's topic" % (st.get("board"), board))
    sides = _int(st.get("sides"), "sides", 2, 6)
    for key in ("score", "back"):
        v = st.get(key)
        if not isinstance(v, list) or len(v) != sides:
            raise BadMessage("%s: not a list of %d numbers" % (key, sides))
        for x in v:
            _int(x, key, 0, 255)
    _int(st.get("target"), "target", 1, 255)
    names = st.get("names")
    if names is not None:
        if not isinstance(names, list):
            raise BadMessage("names: not a list")
        st["names"] = [_name(n, "names") for n in names]
    st["board"] = board
    return st


def check_status(payload):
    """A status message: "online" or "offline"."""
    try:
        v = payload.decode()
    except UnicodeDecodeError:
        v = ""
    if v not in ("online", "offline"):
        raise BadMessage("status: %r is neither online nor offline" % payload[:40])
    return v
