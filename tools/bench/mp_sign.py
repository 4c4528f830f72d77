"""What signing a game message costs the board (issue 30; docs/club-board.md), in the real
MicroPython binary: publish/outbox.py's sign() over a game's JSON in parts as
publish/message.py makes it (a 3 KB message in 60 parts), its counter saved in a RAM
filesystem (the flash write itself is the outbox's kind: not timed here). Rows: one HMAC-SHA256
over the message (a resend: the same counter, one hash), a new message (two hashes and the
counter's save), and the heap each allocates (passing: nothing is kept). tools/bench/bench.py turns
the times into board estimates with its BOARD_FACTOR (bytecode's: hashlib's SHA-256 is C,
which the factor overstates, so the estimate is an upper bound).

    MICROPYPATH=firmware:tools/host:host_tests/both:tools/bench micropython tools/bench/mp_sign.py
"""

import gc

from benchlib import alloc_per_call, per_call_us, row

from board.storage import Storage
from fakeboard.ramfs import RamFs
from publish.outbox import sign

KEY = bytes(range(32))
PARTS = [b'{"id": "t1-7", "board": "t1", "seats": [{"name": "Ann", "side": 0}]'] + [
    b', {"deal": %d, "hands": [12, 8], "crib": 4, "play": [3, 5], "heels": 0, "x": "%s"}'
    % (i, "." * 8) for i in range(58)] + [b"}"]
N = sum(len(p) for p in PARTS)


def main():
    st = Storage("/d", RamFs())
    sign(st, KEY, PARTS)
    gc.collect()
    row("sign a %d-byte game message again (its resend: one HMAC-SHA256, %d parts)"
        % (N, len(PARTS)), per_call_us(lambda: sign(st, KEY, PARTS), 20) / 1000, "ms")
    row("allocated by it (passing)", alloc_per_call(lambda: sign(st, KEY, PARTS), 5), "B")
    k = [0]

    def new():
        k[0] += 1
        PARTS[-1] = b"%d}" % k[0]  # another message: the next counter, saved
        sign(st, KEY, PARTS)

    row("sign a new %d-byte game message (two HMAC-SHA256 and the counter's save)" % N,
        per_call_us(new, 20) / 1000, "ms")
    row("allocated by it (passing)", alloc_per_call(new, 5), "B")


if __name__ == "__main__":
    main()
