"""What the club says to this board: its one message (publish/contract.py's SAYS), taken at
the door and handed field by field to who acts on it.

The club's service keeps it retained at the broker on PREFIX/BOARD/says, a topic only the
service may write and only this board (and the service) read (tools/club/registry.py's ACL),
and publishes it again when it changes (the night: tools/club/night.py's tonight()) and at its
start. publish/link.py subscribes once connected and hands each message here (its size
bounded there: a longer one is let go as it comes, never kept).

take() refuses (ValueError, saying why: publish/link.py counts it and the page shows it) a
message not signed with this board's key (HMAC-SHA256 as its games are, with contract.
SAYS_DOMAIN), one whose counter n is below the highest taken (a replay: that n is kept on
flash, file "heard", so a reset lets no older message back in; written only when n grows,
about once a night), and one that is no JSON object. Then each field it knows goes to its
handler (FIELDS); a field it does not know is let go (a newer club's, for a newer board).

What is kept: in RAM, pub.night (the night now) and pub.said (the message's n); on flash, the
highest n taken (above) and, per game waiting for the club, the night it ended in
(publish/nights.py). The night itself is not kept on flash: after a reset the board has the
club's message again as soon as it connects (retained), and a night from flash could be days
old when a board is switched on away from its club.
"""

import json

from board.fault import load
from publish.contract import NIGHT, SAYS_DOMAIN, SAYS_MAX

from micropython import const

_HEARD = const(64)  # the "heard" file's bound: [n, "tag"] (12 digits and 8 hex: 30 bytes)
_MAC = const(64)  # the mac's hex digits

# The dispatch table: field -> (module, function). function(pub, value) checks the value
# (ValueError says what is wrong) and acts on it; the module is loaded for it (and let go
# with the rest after the tick: publish/task.py's _call). A message is retained: the same
# one comes again at every connection, so a handler acts the same when told the same. Add a
# field here (one line); the connection's code knows none of them.
FIELDS = {NIGHT: ("publish.says", "night"), "update": ("ota.order", "club")}  # (the update:
# {"version", "url"}, or false: the rollout stopped; tools/club/releases.py)


def night(pub, v):
    """The club's night now ("YYYY-MM-DD"): each game that ends from now on carries it
    (publish/nights.py), wherever and whenever it reaches the club; those that ended before,
    not yet looked at (publish/task.py looks every _POLL_MS), keep the night before."""
    if not (isinstance(v, str) and len(v) == 10 and v[4] == "-" and v[7] == "-"
            and (v[:4] + v[5:7] + v[8:]).isdigit()):
        raise ValueError("not a date: %r" % (v[:20] if isinstance(v, str) else v))
    if v != pub.night:
        if pub.night:  # the games ended since the last look ended on the night before
            load("publish.nights").keep(pub)
        pub.night = v
        print("club: tonight is", v)


def _tag(pub):
    """The key's tag beside n on flash (a new key, a new count): 8 hex digits of the MQTT
    password it gives (publish/link.py's start())."""
    return bytes(pub.cfg["pw"][:8]).decode()


def heard(pub):
    """The highest n taken with this board's key (0: none)."""
    tag = _tag(pub)

    def parse(b):
        v = json.loads(b)
        if not (isinstance(v, list) and len(v) == 2 and isinstance(v[0], int)):
            raise ValueError("not heard")
        return v[0] if v[1] == tag else 0
    return pub.app.store.load("heard", parse, _HEARD) or 0


def take(pub, payload):
    """The club's message payload (bytes) for Publisher pub, checked and acted on: its n, or
    ValueError saying why it is refused (its fields not acted on). A field whose value its
    handler refuses: ValueError too, once the others have acted."""
    key = pub.cfg.get("key")
    if not key:
        raise ValueError("this board has no key to check it with")
    if len(payload) > SAYS_MAX:
        raise ValueError("too long (%d bytes)" % len(payload))
    nl = payload.find(b"\n")
    if nl < _MAC + 2 or nl > _MAC + 13 or payload[_MAC] != 0x20:
        raise ValueError("not signed")
    c = bytes(payload[_MAC + 1:nl])
    for d in c:
        if not 48 <= d <= 57:
            raise ValueError("not signed")
    if c[0] == 48:
        raise ValueError("not signed")
    data = bytes(payload[nl + 1:])
    from binascii import unhexlify

    H = load("ota.hmac")

    try:
        want = unhexlify(bytes(payload[:_MAC]))
    except ValueError:
        raise ValueError("not signed") from None
    if not H.same(H.hmac(key, (SAYS_DOMAIN, c, b"\n", data)), want):
        raise ValueError("not signed with this board's key")
    n = int(c)
    had = heard(pub)
    if n < had:
        raise ValueError("an old message again (n %d, %d taken)" % (n, had))
    try:
        v = json.loads(data)
    except ValueError:
        v = None
    if not isinstance(v, dict):
        raise ValueError("not a JSON object")
    if n > had:
        pub.app.store.save("heard", json.dumps([n, _tag(pub)]).encode())
    pub.said = n
    bad = None
    for k in v:
        f = FIELDS.get(k)
        if f is None:
            continue
        try:
            getattr(load(f[0]), f[1])(pub, v[k])
        except ValueError as e:
            bad = bad or "%s: %s" % (k, e)
    if bad:
        raise ValueError(bad)
    return n
