"""The key script of `tools/sim.py --keys`, as commands for the driver (tools/sim/mp_driver.py).

Every character is one press of that keypad key (0-9 A-D * #; a-d count as A-D); spaces and
commas are ignored; "~X" holds X for a long press; "." lets a second pass; "[a]" presses
discrete button a.
"""

import hostenv  # noqa: F401  (firmware/ on sys.path)
from board.keypad import KEYS_4X4

HOLD_MS = 80  # a normal key press (debounce is 30 ms)
GAP_MS = 80
LONG_MS = 1200  # a long press (the keypad's long_ms is 700)


def parse_keys(script):
    """The key script as driver commands; ValueError names the bad character."""
    cmds = []
    i = 0
    s = script
    while i < len(s):
        ch = s[i]
        if ch.isspace() or ch == ",":
            i += 1
            continue
        hold = HOLD_MS
        if ch == "~":
            hold = LONG_MS
            i += 1
            if i >= len(s):
                raise ValueError("'~' at the end of the key script: which key to hold?")
            ch = s[i]
        if ch == ".":
            cmds.append("wait 1000")
            i += 1
            continue
        if ch == "[":
            j = s.find("]", i)
            if j < 0:
                raise ValueError("'[' without ']' in the key script at %d" % i)
            cmds.append("key %s %d %d" % (s[i + 1:j], hold, GAP_MS))
            i = j + 1
            continue
        key = ch.upper() if ch in "abcd" else ch
        if key not in KEYS_4X4:
            raise ValueError("%r is not a keypad key (0-9 A-D * #) at position %d" % (ch, i))
        cmds.append("key %s %d %d" % (key, hold, GAP_MS))
        i += 1
    return cmds
