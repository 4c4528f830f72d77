"""The message contract between a board and the club (docs/club.md): the one place the board
(publish/) and the club's service (tools/club/) read it.

Topics, under PREFIX/BOARD/ (PREFIX "cribbage" unless the Wi-Fi file names another):
  status  ONLINE, retained; OFFLINE (retained) is the connection's last will
  state   retained, QoS 0: the page's state (board/snapshot.py) with STATE_FIELDS: "board"
          and "names" (a short name per seat, or null)
  game    QoS 1: GAME_FIELDS {"id": "BOARD-N", "board": BOARD, "seats": [SEAT_FIELDS {"name",
          "side"}, ...] (seat i plays for side k), "game": board/export.py's decode(record, N)}
          and, optional, NIGHT: "YYYY-MM-DD", the club night it was played (the club files
          the game there however late it arrives; without it, the night it arrives on)

The name rule: a seat's short name is at most NAME_MAX letters, digits, space . - (check_name);
the names form gives SEATS of them (parse_names).
"""

from micropython import const

PREFIX = "cribbage"
STATUS = "status"
STATE = "state"
GAME = "game"
KINDS = (STATUS, STATE, GAME)
ONLINE = "online"
OFFLINE = "offline"
STATE_FIELDS = ("board", "names")
GAME_FIELDS = ("id", "board", "seats", "game")
NIGHT = "night"  # a game's optional field (the club: tools/club/night.py's carried())
SEAT_FIELDS = ("name", "side")
NAME_MAX = const(7)  # a player's short name: six and the PIN fit the page's form (64 bytes)
SEATS = const(6)


def topic(prefix, board, kind):
    """The topic of message kind (KINDS) of board under prefix: PREFIX/BOARD/kind."""
    return "%s/%s/%s" % (prefix, board, kind)


def check_name(s):
    """A seat's name as typed: None for none, else the name (ValueError says why not)."""
    s = s.strip()
    if not s:
        return None
    if len(s) > NAME_MAX:
        raise ValueError("a name is at most %d letters" % NAME_MAX)
    for c in s:
        if not (c.isalpha() or c.isdigit() or c in " .-"):
            raise ValueError("a name has letters, digits, space . - only")
    return s


def parse_names(text):
    """The names form's field ("Ann,Bob,,Dee": seat by seat) as a list of SEATS names or
    None; ValueError says what is wrong."""
    parts = text.split(",")
    if len(parts) > SEATS:
        raise ValueError("at most %d names" % SEATS)
    out = []
    for i in range(SEATS):
        out.append(check_name(parts[i]) if i < len(parts) else None)
    return out
