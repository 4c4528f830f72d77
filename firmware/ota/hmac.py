"""HMAC-SHA256 (RFC 2104) over hashlib.sha256: MicroPython has the hash but no hmac module.
The update's signature is hmac(secret, b"update\\n" + manifest) (ota/install.py)."""

import hashlib

_BLOCK = 64  # SHA-256's block size


def hmac(key, msg):
    """The 32-byte HMAC-SHA256 of msg (bytes, or a tuple of parts) under key."""
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    k = bytearray(_BLOCK)
    k[:len(key)] = key
    for i in range(_BLOCK):
        k[i] ^= 0x36
    inner = hashlib.sha256(k)
    for part in (msg if isinstance(msg, tuple) else (msg,)):
        inner.update(part)
    for i in range(_BLOCK):
        k[i] ^= 0x36 ^ 0x5C
    outer = hashlib.sha256(k)
    outer.update(inner.digest())
    return outer.digest()


def same(a, b):
    """a == b for two digests, in a time that does not say where they differ."""
    if len(a) != len(b):
        return False
    d = 0
    for i in range(len(a)):
        d |= a[i] ^ b[i]
    return d == 0
