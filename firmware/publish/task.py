"""The board's games to the club: its live state and each finished game, to an MQTT broker.

Started by board/tasks.py as its own asyncio task (Publisher(app).run(), the publisher
handed to the page) on a board with a network and a broker named in its configuration
(hw["broker"]: hw/wifi.py reads the "broker" of wifi.json, written by `make flash
WIFI=...`). The MQTT packets are made in memory (publish/packets.py) and go over a
non-blocking socket, a write what the socket takes and a read what has come, every wait
bounded (_IO_MS). The
game never waits for the network: a broker that is down, slow or silent costs the board a
status mark (shown on the page) and a try again later (2 s, doubling to 32x).

The messages (publish/contract.py): the status, the state on change (at most every
_STATE_MS), each finished game.

The outbox (publish/outbox.py): a finished game is in the history (board/history.py) at its
end, right after its winning frame (an undo past the end flags it undone: if it was sent, its
withdrawal goes out, and the corrected end goes out with the same id). The file "outbox"
(saved as the game is: board/storage.py, atomic) holds the next game's number N and the mark
of the last record the broker took (its head and checksum).
The first record after the mark is sent as BOARD-N until the broker acknowledges it (PUBACK);
then the mark moves past it and N grows, in one save. A power cut, a broker restart or a
Wi-Fi drop before that: it is sent again, with the same id (the club keeps one game per id).
The history is looked at when a game ends, is undone past its end or the next begins, not
at every phase.

Memory (the Pico W's budget holds with it: tools/budgets.py): only this module and the
connection's state stay on the heap. Every _POLL_MS the task looks what there is to do,
without loading anything; when there is something, publish/link.py's tick() does it
(connects, writes, reads, makes a packet, reads the history) in one call that never waits,
and everything loaded for it is let go after; a game's message is made in a call of its own
(publish/message.py's make(), between two ticks), and so is a look at the history
(publish/outbox.py's look(): a game over, or connected). Nothing the publisher loads
is held while it sleeps, so it never peaks together with the page.
"""

from micropython import const

_POLL_MS = const(250)  # the task looks for work this often
_QUICK_MS = const(20)  # and this often while a packet is written or an answer awaited
_IO_MS = const(5000)  # connecting, a packet written, an answer awaited: longer, and the
# connection is dropped (a broker that is a black hole, a Wi-Fi gone)
_STATE_MS = const(3000)  # the live state at most this often
_PING_MS = const(30000)  # a ping after this long without a packet sent (the keepalive: 60 s,
# publish/packets.py's CONNECT)
_OVER = const(4)  # cribbage.match.OVER (a copy: publish/ imports nothing of the engine,
# docs/developers.md's layers)
_PUBACK = const(4)  # pub.ask while the game sent awaits its acknowledgement (publish/link.py)
# What run() finds to do, as bits (publish/link.py's tick() does it: the same bits)
_LOOK = const(1)  # a game over and the next begun (or connected): the history's games to send
_STATE = const(2)  # the state changed, and _STATE_MS since it last went out
_PING = const(4)  # nothing sent for _PING_MS
_IO = const(8)  # the socket: to connect, or it can be written (bytes wait) or read
_LATE = const(16)  # what is written or awaited has taken more than _IO_MS


def _call(what, *args, mod="publish.link"):
    """Module mod's function what(*args) (publish/link.py's, publish/outbox.py's look() or
    publish/message.py's make()): the modules loaded for it (the connection's, the packets',
    the files', the export and what it reads) are let go after, every one, or those it
    holds (board.record holds the summary) would stay on the heap for good."""
    from board.fault import load, modules, release  # (as locals: this module's names stay few)

    had = modules()
    try:
        return getattr(load(mod), what)(*args)
    finally:
        release(had)  # (board/fault.py's table: everything the call loaded is of policy h or 1)


class Publisher:
    """The board's connection to the club's broker: its state, which publish/link.py's
    start() sets (pub.cfg: hw/wifi.py's broker(); None until then) and its tick() keeps.
    (What this module reads of it is declared for the type checker: bare annotations cost
    nothing.)"""

    cfg = None
    names: list
    status: str
    sent: int  # games the broker took since the board started
    seen: int  # app.changes when the state last went out (-1: at once)
    phase: int  # where the game was when last looked at, events << 3 | phase (-1: look at
    # the history)
    sock: object  # None when down, since t; then the next try after wait ms
    t: int
    wait: int
    poll: object  # select.poll() of sock
    up: int  # 2 when connected
    out: list  # what waits to be written
    ask: int  # the kind of packet awaited (-1 none), since t
    want = 0  # 1: publish/link.py wants the game's message made (publish/message.py)
    skip: int  # bytes of a packet too long still to let go (publish/link.py)
    state_at: int
    sent_at: int

    def __init__(self, app):
        self.app = app

    def info(self):
        """What the page shows of the club: the broker, the connection's status, the
        names."""
        return _call("info", self if self.cfg else None, self.app)

    def names_kept(self, names):
        """The page has kept new names: the state goes out again with them."""
        if self.cfg:
            self.names = names
            self.seen = -1

    async def run(self):
        """board/tasks.py's club task: publish while the board runs, if a broker is named.
        Every _POLL_MS it looks what there is to do (bits _LOOK, _STATE, _PING, _IO, _LATE)
        without loading anything, and most looks find nothing; publish/link.py's tick() does
        it."""
        from board.keypad import sleep_ms, ticks_diff

        pub = self
        app = self.app
        if not _call("start", pub):  # (no broker named)
            pub.cfg = None
            return
        while True:
            await sleep_ms(_QUICK_MS if pub.out or pub.ask >= 0 or pub.skip else _POLL_MS)
            now = app.clock()
            w = 0
            m = app.m
            ph = m.events << 3 | m.phase  # (where the game is: its events and its phase)
            was = pub.phase
            if ph != was:  # (only a game's end, an undo past it and the next game begun are
                if (was < 0 or was & 7 == _OVER or ph & 7 == _OVER or ph < was) and \
                        pub.ask != _PUBACK:  # looked at (fewer events: the next game begun,
                    w = _LOOK  # even by an OK within a poll of the end, or an undo); never
                pub.phase = ph  # while a game awaits its PUBACK: what is sent stays what is
                # acknowledged, and the PUBACK makes the next look)
            if pub.sock is None:  # (down: connect when its pause is over)
                if ticks_diff(now, pub.t) >= pub.wait:
                    w |= _IO
            elif (pub.out or pub.ask >= 0) and ticks_diff(now, pub.t) > _IO_MS:
                w |= _LATE
            else:
                if pub.poll.poll(0):  # pyright: ignore[reportAttributeAccessIssue]  (readable;
                    # writable while bytes wait: made, if connecting)
                    w |= _IO
                if pub.up == 2:
                    if app.changes != pub.seen and (pub.seen < 0 or  # (connected, names kept)
                                                    ticks_diff(now, pub.state_at) >= _STATE_MS):
                        w |= _STATE
                    if ticks_diff(now, pub.sent_at) >= _PING_MS:
                        w |= _PING
            if w:
                try:
                    if w & _LOOK:  # the history looked at in a call of its own: the
                        _call("look", pub, mod="publish.outbox")  # connection's modules
                        w ^= _LOOK  # are not on the heap with the history's (issue 34)
                    _call("tick", pub, w)  # (it never raises: a failure is the connection's)
                    if pub.want:  # the game's message, made in a call of its own: the
                        # connection's modules are not on the heap with the record's (issue
                        _call("make", pub, mod="publish.message")  # 34); then sent at once
                        _call("tick", pub, 0)
                except Exception:  # noqa: BLE001  (no room to load it now: the next look)
                    if w & _LOOK:
                        pub.phase = -1
