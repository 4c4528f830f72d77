"""The publisher's connection to the club's broker: a state machine that never waits on the
network (publish/task.py calls tick() when there is something to do): connect without
blocking, write what the socket takes, read what has come, act on each whole packet, send the
game (then await its PUBACK), the state, a ping. The packets are publish/packets.py's; the
outbox and the names on flash, publish/outbox.py's and publish/names.py's.
"""

from board.fault import load
from publish import packets
from publish.contract import ONLINE, SAYS, STATUS

from micropython import const

_RETRY_MS = const(2000)  # after a failure, doubling to 32x (a minute)
_PACKET = const(512)  # the longest packet taken from the broker (acknowledgements, and the
# club's message: a longer PUBLISH is let go as it comes, publish/says.py)
_READS = const(64)  # reads at most in one tick (a message let go: 32 KB a tick)
_STATE = const(2)  # publish/task.py's run(): what there is to do (its _LOOK, 1, is its own:
# the history is looked at in a call of its own, publish/outbox.py's look())
_PING = const(4)
_IO = const(8)
_LATE = const(16)
_CONNACK = const(2)  # the broker's packets awaited (their kind, the packet's high 4 bits)
_PUBLISH = const(3)  # (not awaited: the club's message, publish/says.py)
_PUBACK = const(4)
_SUBACK = const(9)
_PINGRESP = const(13)


def start(pub):
    """Publisher pub's state (publish/task.py: pub.app set): the broker named (pub.cfg:
    app.hw["broker"](), hw/wifi.py's broker()), the names and the outbox from flash, not
    connected; False when no broker is named."""
    try:
        pub.cfg = pub.app.hw["broker"]()
    except Exception as e:  # noqa: BLE001
        print("club: no broker:", repr(e))
        return False
    if not pub.cfg:
        return False
    c = pub.cfg
    if c.get("secret"):  # its identity (make club-board): it logs in as itself and signs
        from binascii import hexlify, unhexlify

        hmac = load("ota.hmac").hmac
        c["key"] = unhexlify(c.pop("secret"))
        c["pw"] = hexlify(hmac(c["key"], b"mqtt"))[:32]  # (docs/club-board.md)
    pub.status = "connecting"
    pub.names = load("publish.names").load_names(pub.app.store)
    pub.box = load("publish.outbox").outbox(pub.app.store, pub.app.m.phase == 4)  # (4: OVER,
    # its record the club's)
    pub.waiting = 0  # games after the mark, when last looked
    pub.sent = 0  # games the broker took since the board started
    pub.seen = -1  # app.changes when the state last went out
    pub.state_at = pub.sent_at = 0  # when the state, and any packet, last went out
    pub.phase = -1  # where the game was (publish/task.py) when the history was last looked
    # at (-1: look now)
    pub.pid = 0  # the last packet id
    pub.sock = pub.poll = None  # the socket (None: down), and a poll of it
    pub.wait = 0  # how long after pub.t the next try is, once down (doubling)
    pub.night = None  # the club's night now, once it has said it (publish/says.py)
    pub.said = 0  # the n of the club's message last taken (0: none since the board started)
    pub.refused = 0  # the club's messages refused (and why the last was: pub.why)
    pub.why = None
    pub.top = None  # the history's newest game at the last look (publish/nights.py)
    _gone(pub)
    pub.t = pub.app.clock()  # (down since the board started)
    return True


def _gone(pub):
    """No connection, nothing in flight."""
    pub.up = 0  # 0 connecting, 1 the connection made (the CONNECT goes out), 2 connected
    pub.inp = bytearray()  # what has come from the broker, not yet a whole packet
    pub.skip = 0  # bytes still to let go of a packet too long to take (as they come)
    pub.out = []  # the parts of what goes out, not yet written
    pub.ask = -1  # the kind of packet awaited from the broker (-1 none), since pub.t (when
    # down: since it went down)
    pub.r = None  # the record sent as a game, until the broker has it
    pub.body = None  # its message's parts (publish/message.py), or what stopped them
    pub.want = 0  # 1: its message is wanted (publish/task.py has it made: make())


def _say(pub, text):
    if text != pub.status:
        print("club:", text)
        pub.status = text


def _whole(b):
    """The length of the first whole MQTT packet in b, 0 if it is not all there yet, minus
    its length for a PUBLISH longer than _PACKET (let go: never kept); ValueError for a
    malformed one or another too long."""
    n = sh = 0
    i = 1
    while True:
        if i >= len(b):
            return 0
        c = b[i]
        n |= (c & 0x7F) << sh
        i += 1
        if not c & 0x80:
            break
        sh += 7
        if sh > 21:
            raise ValueError("bad packet length")
    if n + i > _PACKET:
        if b[0] >> 4 == _PUBLISH:
            return -(n + i)
        raise ValueError("packet too long")
    return n + i if len(b) >= n + i else 0


def tick(pub, w):
    """Publisher pub's work now (w: publish/task.py's task() bits, its look at the history
    done before), in one call that never waits on the network: connect, write what the
    socket takes, read what has come, send the game (then await its PUBACK), the state, a
    ping. Any failure (the network's, a bad packet, an answer late: _LATE) closes the
    connection and the next try is after a pause (_RETRY_MS, doubling to 32x; 2 s again if
    it was up)."""
    now = pub.app.clock()
    try:
        if w & _LATE:
            raise OSError("no answer")
        if w & _IO:
            if pub.sock is None:
                _connect(pub, now)
            else:
                _io(pub, now)
        if pub.up == 2 and not pub.out and pub.ask < 0:
            if pub.r is not None:  # the game, until the broker has it
                b = pub.body
                if b is None:  # its message: made by publish/task.py in a call of its own,
                    pub.want = 1  # without this module's (publish/message.py), then sent
                    return
                if isinstance(b, Exception):  # (it could not be made: the next try later)
                    pub.body = None
                    raise b
                pub.out = packets.game(pub, pub.r, b)
                pub.body = None  # (its parts are pub.out's, let go as they are written: a
                pub.ask = _PUBACK  # new connection makes it again)
            elif w & _STATE or pub.seen < 0:  # (connected: at once)
                pub.seen = pub.app.changes
                pub.state_at = now
                pub.out = packets.state(pub)
            elif w & _PING:
                pub.out = packets.packet(pub, 2, ())
                pub.ask = _PINGRESP
            else:
                return
            pub.t = now
            _io(pub, now)
    except Exception as e:  # noqa: BLE001  (the network's: the game never sees it)
        _down(pub, e, now)


def _connect(pub, now):
    """The TCP connection, begun without blocking; its CONNECT goes out once it is made."""
    import select
    import socket

    _say(pub, "connecting")
    c = pub.cfg
    try:
        ai = socket.getaddrinfo(c["host"], c["port"], 0, socket.SOCK_STREAM)[0]
    except OSError:  # (each port says it its own way: "[addrinfo error -2]", -202, ...)
        raise OSError("broker name %s not found" % c["host"]) from None
    s = socket.socket(ai[0], ai[1], ai[2])
    pub.sock = s
    s.setblocking(False)
    try:
        s.connect(ai[-1])
    except OSError as e:
        if e.args[0] not in (115, 119):  # EINPROGRESS (unix, lwIP)
            raise
    pub.poll = select.poll()
    pub.poll.register(s, select.POLLIN | select.POLLOUT)  # (writable: the connection made)
    pub.out = [b"".join(packets.packet(pub, 0, ()))]
    pub.ask = _CONNACK
    pub.t = now


def _io(pub, now):
    """Write what the socket takes of pub.out, read what has come, and act on each whole
    packet: the answer awaited (CONNACK, the game's PUBACK, PINGRESP); others are let go.
    The socket is polled for writing only while bytes wait (publish/task.py's task())."""
    import select

    s = pub.sock
    if pub.up == 0:
        if not pub.poll.poll(0):
            return  # (not yet made)
        pub.up = 1  # (or failed: the write says so)
    out = pub.out
    while out:
        n = s.write(out[0])
        if n is None:
            break  # (the socket is full: the rest when it can be written)
        if n < len(out[0]):
            out[0] = memoryview(out[0])[n:]
        else:
            out.pop(0)  # (nothing is held once it is written)
            pub.sent_at = now
    pub.poll.modify(s, select.POLLIN | select.POLLOUT if out else select.POLLIN)
    for _ in range(_READS):
        got = s.read(_PACKET)
        if got is None:
            return
        if not got:
            raise OSError("closed by the broker")
        if pub.skip:  # (a packet too long, let go as it comes)
            k = min(pub.skip, len(got))
            pub.skip -= k
            got = memoryview(got)[k:]
        pub.inp += got
        if len(pub.inp) > 2 * _PACKET:
            raise ValueError("flooded")
        if _packets(pub, now):
            return


def _packets(pub, now):
    """Act on each whole packet pub.inp holds; True when connected just now (its answer
    written: the rest is for the next tick)."""
    while True:
        n = _whole(pub.inp)
        if n < 0:  # a PUBLISH too long to take: let go as it comes, said
            _refuse(pub, "too long (%d bytes)" % -n)
            n = -n
            if n <= len(pub.inp):  # (all of it here already)
                pub.inp = pub.inp[n:]
            else:
                pub.skip = n - len(pub.inp)
                pub.inp = bytearray()
            continue
        if not n:
            return False
        p = pub.inp[:n]
        pub.inp = pub.inp[n:]
        k = p[0] >> 4
        if k == _PUBLISH:
            _heard(pub, p)
            continue
        if k != pub.ask or (k in (_PUBACK, _SUBACK) and (len(p) < 4 or (
                p[2] << 8 | p[3]) != pub.pid)):
            continue
        pub.ask = -1
        if k == _CONNACK:
            if len(p) < 4 or p[3]:
                raise OSError(-(p[3] if len(p) > 3 else 99))  # (-code: _words())
            pub.up = 2
            pub.out = packets.packet(pub, 1, (packets.topic(pub, STATUS), ONLINE.encode(), True, 0))
            pub.out += packets.packet(pub, 3, (packets.topic(pub, SAYS),))  # the club's message
            pub.ask = _SUBACK  # (and the retained one after it)
            pub.phase = -1  # (the history is looked at once connected)
            pub.seen = -1
            pub.t = now
            _say(pub, ONLINE)
            _io(pub, now)
            return True
        if k == _SUBACK and (len(p) < 5 or p[4] & 0x80):
            _refuse(pub, "the broker will not let this board read it")
        if k == _PUBACK:
            sent(pub, pub.r)
            pub.r = pub.body = None
            pub.phase = -1  # (the next, if any)


def _heard(pub, p):
    """A PUBLISH p from the broker: the club's message on this board's topic (publish/
    says.py takes it, or it is refused: counted, and why said on the page and the console);
    any other let go, counted."""
    i = 1
    while p[i] & 0x80:
        i += 1
    i += 1
    t = (p[i] << 8 | p[i + 1]) if len(p) > i + 1 else -1
    i += 2
    if t < 0 or bytes(p[i:i + t]) != packets.topic(pub, SAYS):
        _refuse(pub, "not on this board's topic")
        return
    i += t + (2 if p[0] & 6 else 0)  # (a packet id: the subscription is QoS 0, never one)
    if len(p) == i:
        return  # (the retained message cleared)
    try:  # (whatever it raises, the connection goes on: the message is refused, said)
        load("publish.says").take(pub, bytes(p[i:]))
    except Exception as e:  # noqa: BLE001
        _refuse(pub, str(e) if isinstance(e, ValueError) else repr(e))


def _refuse(pub, why):
    pub.refused += 1
    pub.why = why
    print("club: its message refused:", why)


def _down(pub, e, now):
    """The connection failed with e: closed, said, and the next try after a pause."""
    pub.wait = _RETRY_MS if pub.status == ONLINE else min(max(pub.wait * 2, _RETRY_MS),
                                                             _RETRY_MS << 5)
    try:
        _say(pub, "down: " + _words(pub.cfg, e))
    except Exception:  # noqa: BLE001
        pub.status = "down"
    s = pub.sock
    pub.sock = pub.poll = None
    _gone(pub)
    pub.t = now
    if s is not None:
        try:
            s.close()
        except Exception:  # noqa: BLE001
            pass


# What failed, in words (errno and the broker's CONNACK codes, as -code): code, words, and
# whether the broker's address follows
_WORDS = ((111, "connection refused by", 1), (104, "connection reset by", 1),
          (110, "no answer from", 1), (113, "no way to", 1), (118, "no way to", 1),
          (103, "connection dropped on the way to", 1), (32, "connection lost to", 1),
          (107, "connection lost to", 1), (12, "out of memory", 0),
          (-4, "the broker refused this board's name or key (is it the club's? make "
               "club-board, then make broker)", 0),
          (-5, "the broker refused this board: not the club's, or not with this key (make "
               "club-board, then make broker)", 0),
          (-2, "the broker refused this board's id", 0),
          (-3, "the broker is not taking clients", 0),
          (-1, "the broker speaks another MQTT", 0))


def _words(c, e):
    """What failed (e) in words, with the broker's address c where it helps: "connection
    refused by 192.168.1.5:1883", "broker name club.lan not found"."""
    a = e.args[0] if e.args else None
    if isinstance(a, int):
        for k, t, at in _WORDS:
            if k == a:
                return "%s %s:%d" % (t, c["host"], c["port"]) if at else t
        return "error %d (%s)" % (a, type(e).__name__) if a >= 0 else \
            "the broker refused the connection (code %d)" % -a
    if isinstance(e, MemoryError):
        return "out of memory"
    if a == "no answer":
        return "no answer from %s:%d" % (c["host"], c["port"])
    return str(a) if a else type(e).__name__


def waiting(pub):
    """The first record of the history pub has still to send, or a withdrawal's mark (a
    game sent, then undone past its end: publish/outbox.py's after()), or None; pub.waiting:
    how many games."""
    r, pub.waiting = load("publish.outbox").after(pub.app.store, pub.box)
    return r


def sent(pub, r):
    """The broker has record r (or the withdrawal: a str): pub's outbox moves past it (one
    atomic save); the names kept for it are let go (a power cut before: they are, at the
    next save of the names)."""
    st = pub.app.store
    o = load("publish.outbox")
    pub.box = o.moved(pub.box, r)
    o.save_outbox(st, pub.box)
    if not isinstance(r, str):
        pub.sent += 1
        pub.waiting = max(pub.waiting - 1, 0)
    load("publish.names").let_go(st, pub.box[1])


def info(pub, app):
    """What the page shows of the club (pub: the Publisher, or None): the broker, the
    connection's status, the games waiting and sent, the names; and the club page's address
    when the Wi-Fi file names it (else null: the page asks the broker's host, port 8124)."""
    if pub is None:
        return {"broker": None, "status": "off",
                "names": load("publish.names").load_names(app.store)}
    c = pub.cfg
    return {"broker": "%s:%d" % (c["host"], c["port"]), "prefix": c["prefix"],
            "board": c["board"], "status": pub.status, "waiting": pub.waiting,
            "sent": pub.sent, "names": pub.names, "club": c.get("club"), "night": pub.night,
            "said": pub.said, "refused": pub.refused, "why": pub.why}
