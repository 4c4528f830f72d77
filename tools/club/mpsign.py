"""The board's side of sign.py, for MicroPython: the club's reference, tested against sign.py
on the unix port (the board itself signs with firmware/ota/hmac.py in publish/outbox.py's
sign(), its counter on flash: docs/club-board.md). MicroPython has hashlib.sha256 but no hmac module: HMAC (RFC 2104) is two hashes with
the key XOR 0x36 and 0x5c pads. The JSON may be hashed in parts as the board writes it.

    h = Signer(secret)            # secret: the 32 bytes of the Wi-Fi file's "secret" (hex)
    h.start(counter)              # b"game\n" + counter + b"\n" hashed
    h.update(part) ...            # the JSON's bytes, in any parts
    head = h.head()               # b"<mac hex> <counter>\n": sent before the JSON
"""

import hashlib
from binascii import hexlify


class Signer:
    def __init__(self, secret):
        k = bytearray(64)  # (a 32-byte key fits the block: no hash of the key)
        k[:len(secret)] = secret
        self.ipad = bytes(b ^ 0x36 for b in k)
        self.opad = bytes(b ^ 0x5C for b in k)
        self.h = hashlib.sha256()  # (start() begins each message)
        self.counter = 0

    def start(self, counter):
        self.counter = counter
        self.h = hashlib.sha256(self.ipad)
        self.h.update(b"game\n%d\n" % counter)

    def update(self, part):
        self.h.update(part)

    def head(self):
        inner = self.h.digest()
        outer = hashlib.sha256(self.opad)
        outer.update(inner)
        return hexlify(outer.digest()) + b" %d\n" % self.counter


def mqtt_password(secret):
    """The board's MQTT password (registry.py): HMAC(secret, b"mqtt"), 32 hex digits."""
    s = Signer(secret)
    h = hashlib.sha256(s.ipad)
    h.update(b"mqtt")
    outer = hashlib.sha256(s.opad)
    outer.update(h.digest())
    return hexlify(outer.digest())[:32].decode()
