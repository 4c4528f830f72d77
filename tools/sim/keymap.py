"""The app's key map, read where it is written: the table in firmware/board/modes.py's
comment (THE KEY MAP). The simulator shows it beside the keypad; nothing here copies it."""

import os

from hostenv import FIRMWARE

APP = os.path.join(FIRMWARE, "board", "modes.py")


def key_help():
    """The app's own key map (the table in firmware/board/modes.py's comment), as
    lines; [] if the file or the table is not there."""
    try:
        with open(APP) as f:
            text = f.read()
    except OSError:
        return []
    if "THE KEY MAP" not in text:
        return []
    out = []
    for line in text.split("THE KEY MAP", 1)[1].splitlines()[1:]:
        line = line[2:] if line.startswith("# ") else line.lstrip("#")
        if out and not line.strip():
            break
        if line.strip() and not set(line.strip()) <= set("|-"):
            out.append(line.rstrip())
    return out
