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
  says    the club's message to this board (publish/says.py), retained, written by the club's
          service alone and read by this board alone (tools/club/registry.py's ACL); signed
          with the board's key: "<mac> <n>\n<json>", mac = HMAC-SHA256(key, SAYS_DOMAIN + n +
          "\n" + json) as 64 hex digits, n a counter that only grows; json an object of
          fields: NIGHT, the club's night now (tools/club/night.py's tonight()), and room for
          more (a board lets go of a field it does not know). At most SAYS_MAX bytes.

The name rule: a seat's short name is at most NAME_MAX letters, digits, space . - (check_name);
the names form gives SEATS of them (parse_names).
"""

from micropython import const

PREFIX = "cribbage"
STATUS = "status"
STATE = "state"
GAME = "game"
KINDS = (STATUS, STATE, GAME)
SAYS = "says"  # the club's message to the board (not a board's kind: the board reads it)
SAYS_DOMAIN = b"says\n"  # its mac's first bytes (a game's are b"game\n": never one for another)
SAYS_MAX = const(400)  # its payload's bound (the board lets go of a longer one, said why)
ONLINE = "online"
OFFLINE = "offline"
STATE_FIELDS = ("board", "names")
GAME_FIELDS = ("id", "board", "seats", "game")
NIGHT = "night"  # a game's optional field (the club: tools/club/night.py's carried()), and
# the club's message's (publish/says.py)
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
