"""Undo, redo and saving: the Match's journal (bound as Match.undo, Match.dumps, ...).

The journal is a bytearray of events (events.py): _j[:_n] committed, _j[_n:_top] the events
undo() removed, for redo(). The state is never stored: it is replayed from the journal. Each
deal keeps a checkpoint (the state before its deal event), so undo() replays at most one deal.

Saved form (dumps): version byte, the 7 settings bytes, committed and total journal lengths
(2 bytes each, little-endian), the journal with its redo events, CRC-32 of all that (4 bytes,
little-endian). loads() refuses anything truncated, padded, corrupt or of another version.
"""

import binascii

from .events import VERSION, size as _size, say

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# Why loads() refuses, one a line (see events.say).
_NO = """saved game truncated: %d bytes
saved game version %d, this board reads %d
saved game truncated or padded: %d bytes
saved game corrupt: checksum mismatch
an event is cut short
saved game does not replay: %s"""
_SHORT = const(0)
_VERSION = const(1)
_LENGTH = const(2)
_CRC = const(3)
_CUT_SHORT = const(4)
_REPLAY = const(5)

_HEADER = const(12)  # version, 7 settings bytes, committed length, total length (2 each)


def _crc32(data):
    try:
        return binascii.crc32(data) & 0xFFFFFFFF
    except AttributeError:  # a port built without binascii.crc32: the same CRC, slowly
        crc = 0xFFFFFFFF
        for b in data:
            crc ^= b
            for _ in range(8):
                crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
        return crc ^ 0xFFFFFFFF


def can_undo(self):
    return self._n > 0


def can_redo(self):
    return self._top > self._n


def undo(self):
    # Remove the newest event (kept for redo); the state is as before it. False if the
    # journal is empty.
    self.error = None
    n = self._n
    if n == 0:
        return False
    j = self._j
    p = self._ck_at if self._ck_at < n else 0
    while True:  # find where the newest event starts
        q = p + _size(j, p, self.players)
        if q >= n:
            break
        p = q
    if p >= self._ck_at:  # within the current deal: back to its start, then forward
        (score, back, games, self.phase, self.dealer, self.next_dealer, self.turn,
         self.crib_next, self.count, pile, played, self.gone, self.starter_card, self.winner,
         self.result, self.last_side, self.last_points, self.last_why, self.deals,
         self.events, where, self._plays, self._last_player, self._mug, self._mug_side,
         self._mug_ev) = self._ck  # the state() tuple of the checkpoint
        self.score = list(score)
        self.back = list(back)
        self.games = list(games)
        self.pile = bytearray(pile)
        self.played = bytearray(played)
        self._where[:] = where
        i = self._ck_at
        while i < p:
            i += self._apply(j, i)
    else:
        self._replay(p)
    self._n = p
    self.error = None
    return True


def redo(self):
    # Put back the event undo() removed most recently. Any new event drops the redo
    # events. False if there is none.
    self.error = None
    n = self._n
    if n >= self._top:
        return False
    self._n = n + self._apply(self._j, n)
    self.error = None
    return True


def dumps(self):
    # The saved game as bytes: version, settings, journal (with its redo tail), CRC-32.
    # About a byte per card played and 2..6 per other event: a 121 game is ~300 bytes.
    top = self._top
    out = bytearray(_HEADER + top + 4)
    out[0] = VERSION
    out[1:8] = self.settings()
    out[8] = self._n & 255
    out[9] = self._n >> 8
    out[10] = top & 255
    out[11] = top >> 8
    out[_HEADER:_HEADER + top] = memoryview(self._j)[:top]
    crc = _crc32(memoryview(out)[:_HEADER + top])
    k = _HEADER + top
    for i in range(4):
        out[k + i] = crc >> (8 * i) & 255
    return bytes(out)


def state(self):
    """The derived state as one tuple (tests compare it; allocates)."""
    return (tuple(self.score), tuple(self.back), tuple(self.games), self.phase,
            self.dealer, self.next_dealer, self.turn, self.crib_next, self.count,
            bytes(self.pile), bytes(self.played), self.gone, self.starter_card, self.winner,
            self.result, self.last_side, self.last_points, self.last_why, self.deals,
            self.events, bytes(self._where), self._plays, self._last_player, self._mug,
            self._mug_side, self._mug_ev)


def journal(self):
    """The committed events as a list of bytes objects, oldest first (for tools)."""
    out = []
    i = 0
    while i < self._n:
        k = _size(self._j, i, self.players)
        out.append(bytes(self._j[i:i + k]))
        i += k
    return out


def replay(self, upto):
    """Rebuild the state from the journal's first `upto` bytes."""
    self._reset()
    self._ck_at = 0
    self._ck = self.state()
    j = self._j
    i = 0
    while i < upto:
        i += self._apply(j, i)


def loads(data):
    # A Match from dumps() bytes. ValueError when the data is truncated, corrupt (CRC), of
    # another version, or its journal does not replay.
    n = len(data)
    if n < _HEADER + 4:
        raise ValueError(say(_NO, _SHORT, (n,)))
    if data[0] != VERSION:
        raise ValueError(say(_NO, _VERSION, (data[0], VERSION)))
    top = data[10] | data[11] << 8
    committed = data[8] | data[9] << 8
    if n != _HEADER + top + 4 or committed > top:
        raise ValueError(say(_NO, _LENGTH, (n,)))
    crc = data[n - 4] | data[n - 3] << 8 | data[n - 2] << 16 | data[n - 1] << 24
    if _crc32(memoryview(data)[:n - 4]) != crc:
        raise ValueError(say(_NO, _CRC))
    s = data[1:8]
    from .match import Match  # here: match.py imports this module

    m = Match(players=s[0], target=s[1], muggins=bool(s[2] & 1), skunk_line=s[3],
              skunk_games=s[4], double_line=s[5], double_games=s[6])
    j = bytearray(max(256, top + 64))
    j[:top] = memoryview(data)[_HEADER:_HEADER + top]
    m._j = j
    m._top = top
    try:
        i = 0
        whole = committed == 0
        while i < top:  # every event, redo ones too, must be whole
            i += _size(j, i, m.players)
            if i == committed:
                whole = True
        if i != top or not whole:
            raise ValueError(say(_NO, _CUT_SHORT))
        m._replay(committed)
    except (ValueError, IndexError) as e:
        raise ValueError(say(_NO, _REPLAY, (e,))) from None
    m._n = committed
    return m
