# The board app on the real MicroPython binary, driven key by key (App.key, App.long_key: no
# clock, so the same keys always do the same), for host_tests/test_board_entry.py: argv[1] is
# the key script ("~*" holds * for undo, "~#" holds # for redo). Prints the scores
# ("SCORES 5 9"), the phase ("PHASE 3"), the last refusal ("ERR ..." or "ERR -") and then
# the display's lines, each as "LINE text".

import sys

from fakeboard.fake import build
from fakeboard.ramfs import RamFs
from board.app import App

app = App(build("/data", display=True, fs=RamFs()))
script = sys.argv[1]
i = 0
while i < len(script):
    k = script[i]
    if k == "~":
        i += 1
        app.long_key(script[i])
    elif k != " ":
        app.key(k)
    i += 1
m = app.m
print("SCORES", " ".join(str(s) for s in m.score[:m.sides]))
print("PHASE", m.phase)
print("ERR", app.err or "-")
for line in app.lines():
    print("LINE", line)
