"""The declared shape of every message a board sends the club (issue 30), checked at the door
with pydantic (v2, strict: a "5" is not a 5, a true is not a 1) before anything is kept.

Every field any page reads has bounds (type, range, length, count); the JSON is parsed by
pydantic's own parser (jiter: a nesting deeper than its limit is an error, never a
RecursionError), after a cap on the payload's size; and a game is consistent with itself: the
winner is the one side that reached the target, each side's "won" says so, the seats' sides
and the deals' dealers exist. What is kept is what was declared (an unknown key is dropped).

    game(board, json_bytes)       -> dict (a game message, as the board sent it)
    withdrawal(board, json_bytes) -> dict {"id", "board", "withdraw": True}
    state(board, json_bytes)      -> dict (the fields the club's pages draw)
    status(payload)               -> "online" | "offline"
Each raises BadMessage (contract.py's) saying what is wrong and where.
"""

import re
from typing import Annotated, Literal, Optional, get_args

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

import hostenv  # noqa: F401  (firmware/ on sys.path)
from board.screen import RESULTS

from .contract import BadMessage

MAX_GAME = 64 * 1024  # a game of 40 detailed deals and 6 sides is under 16 KB of JSON
MAX_STATE = 8 * 1024  # a board's live state is about 2 KB
MAX_NAME = 24  # a seat's name (a board keeps 7: board/clubfiles.py)
MAX_SCORE = 255  # a side's score past the end stays under this (a byte on the board)
MAX_DEALS = 255
MAX_TOTAL = 10000  # a side's totals over a game (hands, play, ...)
UPDATE_MOST = 80  # a board's update state: "waiting 0.7.0", "failed: ..." (ota/order.py)
BOARD_NAME = re.compile(r"[A-Za-z0-9_-]{1,16}\Z")

Result = Literal["win", "skunk", "double skunk", "lurch"]
assert get_args(Result) == RESULTS[1:]  # (the board's results: board/screen.py)
Small = Annotated[int, Field(ge=0, le=MAX_SCORE)]
Total = Annotated[int, Field(ge=0, le=MAX_TOTAL)]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1,
                                        max_length=MAX_NAME, pattern=r"^[^\x00-\x1f\x7f]+$")]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class Side(_Strict):
    side: Annotated[int, Field(ge=0, le=5)]
    name: Annotated[str, StringConstraints(min_length=1, max_length=12)]
    score: Small
    won: bool
    hands: Optional[Small] = None
    hand: Optional[Total] = None
    cribs: Optional[Small] = None
    crib: Optional[Total] = None
    play: Optional[Total] = None
    heels: Optional[Total] = None
    pegged: Optional[Total] = None
    penalties: Optional[Total] = None
    muggins_taken: Optional[Total] = None
    best: Optional[Annotated[int, Field(ge=0, le=29)]] = None
    n28: Optional[Small] = None
    n29: Optional[Small] = None


class DealSide(_Strict):
    hand: Optional[Small] = None  # (partners: the side's hands together)
    play: Optional[Small] = None
    pegged: Optional[Small] = None
    penalties: Optional[Small] = None
    muggins_taken: Optional[Small] = None


class Deal(_Strict):
    dealer: Annotated[int, Field(ge=0, le=5)]
    heels: Optional[Annotated[int, Field(ge=0, le=2)]] = None
    crib: Optional[Annotated[int, Field(ge=0, le=29)]] = None
    by_side: Annotated[list[DealSide], Field(min_length=2, max_length=6)]


class Game(_Strict):
    game: Annotated[int, Field(ge=1, le=10**9)]
    version: Optional[Annotated[int, Field(ge=0, le=255)]] = None
    players: Annotated[int, Field(ge=2, le=6)]
    sides: Annotated[int, Field(ge=2, le=6)]
    target: Annotated[int, Field(ge=1, le=MAX_SCORE)]
    result: Result
    winner: Annotated[int, Field(ge=0, le=5)]
    deals: Annotated[int, Field(ge=0, le=MAX_DEALS)]
    serial: Optional[Annotated[int, Field(ge=0, le=10**9)]] = None
    muggins: Optional[bool] = None
    summary: Optional[bool] = None
    cards: Optional[Literal[5, 6]] = None
    by_side: Annotated[list[Side], Field(min_length=2, max_length=6)]
    by_deal: Annotated[list[Deal], Field(max_length=MAX_DEALS)] = []


class Seat(_Strict):
    name: Optional[Name]
    side: Annotated[int, Field(ge=0, le=5)]


class GameMessage(_Strict):
    id: Annotated[str, StringConstraints(max_length=40)]
    board: str
    seats: Annotated[list[Seat], Field(min_length=2, max_length=6)]
    game: Game
    night: Optional[Annotated[str, StringConstraints(  # the night it was played (optional:
        pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]] = None  # night.carried() takes it)


class Withdrawal(_Strict):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    id: Annotated[str, StringConstraints(max_length=40)]
    board: str
    withdraw: bool  # (strict: true only; a 1 is not a true)


class State(_Strict):
    board: Optional[str] = None
    players: Optional[Annotated[int, Field(ge=2, le=6)]] = None
    sides: Annotated[int, Field(ge=2, le=6)]
    target: Annotated[int, Field(ge=1, le=MAX_SCORE)]
    score: Annotated[list[Small], Field(min_length=2, max_length=6)]
    back: Annotated[list[Small], Field(min_length=2, max_length=6)]
    names: Optional[Annotated[list[Optional[Name]], Field(max_length=6)]] = None
    phase: Optional[Annotated[str, StringConstraints(max_length=16,
                                                     pattern=r"^[a-z_ ]*$")]] = None
    deal: Optional[Annotated[int, Field(ge=0, le=MAX_DEALS)]] = None
    winner: Optional[Annotated[int, Field(ge=-1, le=5)]] = None
    # issue 31: the firmware's version and its update's state (ota/order.py's words)
    version: Optional[Annotated[str, StringConstraints(max_length=16,
                                                       pattern=r"^[0-9][0-9.]*$")]] = None
    update: Optional[Annotated[str, StringConstraints(max_length=UPDATE_MOST,
                                                      pattern=r"^[^\x00-\x1f\x7f]*$")]] = None


def _why(e):
    """A ValidationError's first few faults, each with where it is."""
    out = []
    for err in e.errors()[:3]:
        where = ".".join(str(p) for p in err["loc"]) or "the message"
        out.append("%s: %s" % (where, err["msg"]))
    more = e.error_count() - len(out)
    return "; ".join(out) + (" (and %d more)" % more if more > 0 else "")


def _parse(model, data, cap):
    if len(data) > cap:
        raise BadMessage("payload of %d bytes (at most %d)" % (len(data), cap))
    try:
        return model.model_validate_json(data)
    except ValidationError as e:
        raise BadMessage(_why(e)) from None
    except (ValueError, RecursionError, UnicodeError) as e:  # (never seen: the door holds)
        raise BadMessage("not a message: %s" % e) from None


def check_id(board, gid):
    """A game's id is its board's: "<board>-<n>", n from 1 (a game id belongs to the board
    whose topic, and key, it came with)."""
    m = re.fullmatch(r"(.+)-([1-9][0-9]{0,8})", gid)
    if m is None or m.group(1) != board:
        raise BadMessage("id %r is not one of board %r's (%s-<n>)" % (gid, board, board))


def _consistent(m):
    g = m.game
    sides = g.sides
    if g.sides > g.players:
        raise BadMessage("game: %d sides for %d players" % (sides, g.players))
    if len(g.by_side) != sides:
        raise BadMessage("game.by_side: %d sides, not %d" % (len(g.by_side), sides))
    if g.winner >= sides:
        raise BadMessage("game.winner: side %d of %d" % (g.winner, sides))
    for k, s in enumerate(g.by_side):
        if s.side != k:
            raise BadMessage("game.by_side[%d]: side %d" % (k, s.side))
        if s.won != (k == g.winner):
            raise BadMessage("game.by_side[%d].won: %s, but the winner is side %d"
                             % (k, s.won, g.winner))
        if k == g.winner and s.score < g.target:
            raise BadMessage("game: the winner (side %d) has %d, short of %d"
                             % (k, s.score, g.target))
        if k != g.winner and s.score >= g.target:
            raise BadMessage("game: side %d reached %d (%d) but side %d won"
                             % (k, g.target, s.score, g.winner))
        shown = ((s.hands or 0) + (s.cribs or 0) if s.hands is not None
                 else 4 * max(g.deals, len(g.by_deal)))  # (a side's hands and cribs)
        if (s.n28 or 0) + (s.n29 or 0) > shown:
            raise BadMessage("game.by_side[%d]: %s 28s and %s 29s in %d hands and cribs"
                             % (k, s.n28, s.n29, shown))
    if len(g.by_deal) > max(g.deals, 0):
        raise BadMessage("game.by_deal: %d deals of %d" % (len(g.by_deal), g.deals))
    for i, d in enumerate(g.by_deal):
        if len(d.by_side) != sides:
            raise BadMessage("game.by_deal[%d].by_side: %d, not %d sides"
                             % (i, len(d.by_side), sides))
        if d.dealer >= g.players:
            raise BadMessage("game.by_deal[%d].dealer: seat %d of %d" % (i, d.dealer, g.players))
    if len(m.seats) != g.players:
        raise BadMessage("seats: %d, not %d players" % (len(m.seats), g.players))
    for i, s in enumerate(m.seats):
        if s.side >= sides:
            raise BadMessage("seats[%d].side: %d of %d sides" % (i, s.side, sides))


def game(board, data):
    """A game message (JSON bytes) from board, checked and consistent: the dict as sent
    (declared keys only, names stripped)."""
    m = _parse(GameMessage, data, MAX_GAME)
    if m.board != board:
        raise BadMessage("board %r sent on board %r's topic" % (m.board, board))
    check_id(board, m.id)
    _consistent(m)
    return m.model_dump(exclude_unset=True)


def withdrawal(board, data):
    """A withdrawal (JSON bytes) from board: {"id", "board", "withdraw": true}."""
    m = _parse(Withdrawal, data, 256)
    if m.board != board:
        raise BadMessage("board %r sent on board %r's topic" % (m.board, board))
    check_id(board, m.id)
    if m.withdraw is not True:
        raise BadMessage("withdraw: %r is not true" % m.withdraw)
    return m.model_dump()


def is_withdrawal(data):
    """Whether JSON bytes are (meant as) a withdrawal: a small object with "withdraw"."""
    return len(data) <= 256 and b'"withdraw"' in data


def state(board, data):
    """A live state (JSON bytes) from board: the fields the pages draw, checked."""
    m = _parse(State, data, MAX_STATE)
    if m.board not in (None, board):
        raise BadMessage("board %r sent on board %r's topic" % (m.board, board))
    for key in ("score", "back"):
        if len(getattr(m, key)) != m.sides:
            raise BadMessage("%s: %d numbers for %d sides" % (key, len(getattr(m, key)),
                                                              m.sides))
    if m.names is not None and m.players is not None and len(m.names) > m.players:
        raise BadMessage("names: %d for %d players" % (len(m.names), m.players))
    st = m.model_dump(exclude_unset=True)
    st["board"] = board
    return st


def status(payload):
    """A status: "online" or "offline"."""
    if payload in (b"online", b"offline"):
        return payload.decode()
    raise BadMessage("status: %r is neither online nor offline" % bytes(payload[:40]))


def board_name(name):
    """Whether name is a board's name (letters, digits, - and _, 1..16)."""
    return bool(BOARD_NAME.match(name))

