"""A board's signature on its game messages (issue 30; docs/club-board.md is the board's spec).

The payload of a signed message on <prefix>/<board>/game:

    <mac> SP <counter> LF <json>

    mac      64 lowercase hex digits: HMAC-SHA256(key = the board's 32-byte secret,
             msg = b"game\\n" + counter + b"\\n" + json)
    counter  the board's message counter in ASCII decimal, 1..999999999999 (no sign, no
             leading zero): one more for every message the board signs, kept on its flash,
             never used twice with one secret
    json     the message's exact bytes: a game ({"id", "board", "seats", "game"}) or a
             withdrawal ({"id": "<board>-<n>", "board": "<board>", "withdraw": true})

The club counts a message only if its mac verifies with that board's secret and that board
has not used its counter before (store.py keeps the counters used, in the same transaction as
the game). The secret never crosses the network. A board builds the HMAC from hashlib.sha256
alone (RFC 2104: two hashes, two 64-byte pads), and can hash the JSON in parts as it writes it.
"""

import hashlib
import hmac
import re

from .contract import BadMessage
from publish.contract import SAYS_DOMAIN  # noqa: F401  (the club's message's: says.py)

DOMAIN = b"game\n"
MAX_COUNTER = 999999999999
_HEAD = re.compile(rb"([0-9a-f]{64}) ([1-9][0-9]{0,11})\n")


def mac(secret, counter, data, domain=DOMAIN):
    """The hex mac of json bytes data at counter, with secret (bytes); domain: what kind of
    message it signs (a game's DOMAIN, the club's own SAYS_DOMAIN: says.py)."""
    msg = domain + str(counter).encode() + b"\n" + bytes(data)
    return hmac.new(secret, msg, hashlib.sha256).hexdigest()


def frame(secret, counter, data, domain=DOMAIN):
    """The signed payload of json bytes data (a board's, or a simulated board's; the club's
    message to a board with SAYS_DOMAIN)."""
    return ("%s %d\n" % (mac(secret, counter, data, domain), counter)).encode() + bytes(data)


def is_signed(payload):
    """Whether a payload is framed as signed (it starts with 64 hex digits and a space)."""
    return _HEAD.match(bytes(payload[:78])) is not None


def verify(secret, payload, domain=DOMAIN):
    """(counter, mac, json bytes) of a signed payload that verifies with secret; BadMessage
    (unsigned, malformed, or a wrong mac) otherwise."""
    payload = bytes(payload)
    m = _HEAD.match(payload[:78])
    if m is None:
        raise BadMessage("not signed (<mac> <counter>\\n<json>)")
    want, counter = m.group(1).decode(), int(m.group(2))
    data = payload[m.end():]
    if not hmac.compare_digest(mac(secret, counter, data, domain), want):
        raise BadMessage("signature does not verify with the board's key")
    return counter, want, data


def mqtt_password(secret):
    """A board's MQTT password: the first 32 hex digits of HMAC-SHA256(secret, b"mqtt")."""
    return hmac.new(secret, b"mqtt", hashlib.sha256).hexdigest()[:32]
