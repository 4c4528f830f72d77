# The board app's endurance run under MicroPython (issue 9, "a board that lasts"): G games
# in a row on the board app (no display, six +1 buttons, the saved game in a RAM filesystem,
# fakeboard/ramfs.py, so nothing touches the disk but the history file: flashfs.FlashFs keeps
# it in ./soak_flash, off the measured heap as a board keeps it on flash), entered on its keys
# and buttons.
#
#     MICROPYPATH=<firmware> micropython -X heapsize=H tools/bench/mp_soak.py \
#         [GAMES [EVERY [BLOCK [SEED]]]]
# (or env SOAK_GAMES, SOAK_EVERY, SOAK_BLOCK, SOAK_SEED; defaults 300, 50, 50, 1).
# host_tests/test_endurance.py runs it from .mpy files (as `make build` makes them, with the
# fake board: tools/maker/build.py --host) in the "soak" heap of tools/budgets.py (why: its
# docstring) and checks the SOAK line; `make soak` runs it the same way for thousands of games.
#
# The heap: tools/budgets.py's "soak" (see test_endurance.py), more than the core's tests
# get. After game 1 about 99 KB are live (from .mpy): the firmware's modules ~77 KB, the App
# and the board ~8 KB, the menu 3 KB, and ~7-9 KB of this script's code and objects. In 96k
# the run fails before its first game; at 120-128k a block of 600-1300 bytes can no longer be
# found some time in the first 250 games (the heap is fragmented with 10-20 KB free; the app
# reports it as a fault and plays on, but this run stops at any refused key). (The board's
# own budgets are tools/budgets.py's; host_tests/test_board_starve.py is the test of what
# the board does when memory runs out.)
# Started with less than SOURCE_HEAP (tools/bench/bench.py runs every mp_*.py in the core's heap and
# sets SOAK_SOURCE_HEAP from tools/budgets.py's "source_soak") and SOAK_CHILD unset, the script
# runs itself again from source in SOURCE_HEAP and says so.
#
# The board is leanboard.py's (mp_board.py's too): fakeboard/fake.py's hardware without its test
# helpers (the key matrix model, the display, the clock), a Keypad whose pins are C
# callables, plus six discrete buttons. The game puts key events in the keypad's ring itself
# (DOWN then UP, LONG then UP for a hold), as the scanner queues them, one app.step() each.
# fakeboard/fake.py's code (5 KB), dealer.autoplay (2.7 KB: only its xorshift is used, as
# leanboard.xorshift) and dealer.deal (1.3 KB: the engine never sees who threw what, so
# the cards are simply taken off a shuffled deck) would take that much more of the heap.
#
# How the games are driven:
# * Players: blocks of BLOCK games at 2, 3, 4, 5, 6, 2, ... players, set through the board's
#   own menu (D, A to "players", the digit, OK, B back to "new game", OK, OK) before the
#   block's first game; the final block is always at 2 players, like game 1, so the end
#   compares like with like. Within a block, OK after a win starts the next game.
# * Deals rotate through three ways of entering them (seeded: the same run every time):
#   0 cards: the starter, every card of the play (each seat plays the first of its cards
#     that fits; B OK for go) and every hand and the crib typed (rank digits, suit A-D, OK):
#     the engine scores it all;
#   1 buttons: OK deals, OK turns an unentered starter, the play's points pegged with the +1
#     buttons a, b, ... (one press per point), one undo (hold *) and redo (hold #) that must
#     give the same state, C, then each hand's and the crib's count typed as a number, OK;
#   2 numbers: like 1 but the play's points typed: A until the seat is chosen, digits, OK.
# * A refused key (app.err) stops the run: the harness must only type what the board takes.
#
# After every game (at its end, before OK) the saved file must equal m.dumps() and
# M.loads(saved).state() == m.state() (the replay check). At game 1, every EVERY games and
# after the last game, a CHECK line records:
#   save    bytes of the saved game file
#   load_us median of 5 cribbage.match.loads() of the saved bytes (each after a gc.collect())
#   boot_us median of 3 reboots: the running App is dropped and App(hw) boots on the same
#           hardware and filesystem (settings and game read back), and the run goes on with
#           the booted App; its engine state must equal the one before
#   heap    gc.mem_alloc() after gc.collect(): everything live (this script's code too, and
#           the RAM filesystem's saved files)
# The closing line (pairs of name value):
#   SOAK games N players 2-6 deals D save_first X save_last Y save_max Z load_first_us A
#   load_last_us B boot_first_us C boot_last_us E heap_first F heap_last H heap_size S
#   ms T ok True|False
# then ROW lines for tools/bench/bench.py. A MemoryError (or any exception) prints instead
#   SOAK_FAIL game G players P deals D save X heap_size S error <type>: <message>
# and its traceback, and exits with status 1. (Comments, not docstrings: the heap is tight.)

import gc
import os
import sys
import time
from array import array

SOURCE_HEAP = os.getenv("SOAK_SOURCE_HEAP") or "242k"  # tools/budgets.py's "source_soak"
# (tools/bench/bench.py passes it): compiling the firmware from source fragments the heap
if gc.mem_alloc() + gc.mem_free() < int(SOURCE_HEAP[:-1]) * 1024 and not os.getenv("SOAK_CHILD"):
    os.putenv("SOAK_CHILD", "1")
    sys.exit(os.system("%s -X heapsize=%s %s" % (sys.executable, SOURCE_HEAP,
                                                 " ".join(sys.argv))) >> 8)

from leanboard import host_board, median, xorshift  # noqa: E402
from flashfs import FlashFs  # noqa: E402
from cribbage import match as M  # noqa: E402
from cribbage.cards import PIP  # noqa: E402
from board.app import App  # noqa: E402
from board.keypad import DOWN, UP, LONG  # noqa: E402

ticks_us = time.ticks_us
ticks_diff = time.ticks_diff


def _arg(i, env, default):
    if len(sys.argv) > i:
        return int(sys.argv[i])
    v = os.getenv(env)
    return int(v) if v else default


GAMES = _arg(1, "SOAK_GAMES", 300)
EVERY = _arg(2, "SOAK_EVERY", 50)
BLOCK = _arg(3, "SOAK_BLOCK", 50)
SEED = _arg(4, "SOAK_SEED", 1)
GAME_FILE = "/data/game"
# hand and crib counts typed in the pegged deals (valid counts, ~7 on average)
COUNTS = b"\x00\x02\x02\x04\x04\x04\x05\x06\x06\x07\x08\x08\x08\x0a\x0c\x0c\x0e\x10\x14"
# preallocated: the harness keeps a constant heap
TIMES = array("i", [0] * 5)
DECK = bytearray(52)  # shuffled: seat s keeps DECK[4s:4s+4], the crib and starter follow
LEFT = bytearray(24)  # the cards each seat has still to play (255: played)


def players_of(g):  # game g (0-based): blocks of BLOCK, the last block at 2 players
    b = g // BLOCK
    return 2 if b == (GAMES - 1) // BLOCK else (2, 3, 4, 5, 6)[b % 5]


class Soak:
    def __init__(self):
        self.fs = FlashFs("soak_flash")  # the history file on the host's disk, as on flash
        self.hw = host_board("/data", self.fs, buttons=6)
        self.app = App(self.hw)
        self.keys = self.app.keys
        self.t = 0
        self.st = (SEED * 2654435761 + 12345) & 0xFFFFFFFF or 1  # autoplay.seeded(SEED)'s
        self.deals = 0  # deals entered in the whole run (picks how each is entered)
        self.bad = 0  # replay / boot / undo-redo checks that failed
        self.game = 0

    def rand(self, n):
        self.st = xorshift(self.st)
        return (self.st >> 3) % n

    # --- keys --------------------------------------------------------------------------

    def press(self, kind, ch):
        keys = self.keys
        k = keys.names.find(ch)
        keys.put(kind | k)
        self.t += 20
        self.app.step(self.t)
        keys.put(UP | k)
        self.t += 20
        self.app.step(self.t)

    def tap(self, names, refused_ok=False):
        for ch in names:
            self.press(DOWN, ch)
            if self.app.err and not refused_ok:
                raise RuntimeError("key %s refused: %s" % (ch, self.app.err))

    def card(self, c):
        self.tap(str((c >> 2) + 1))
        self.tap("ABCD"[c & 3])

    def number(self, n):
        self.tap(str(n))
        self.tap("#")

    def new_game(self, players):  # players set in the menu, then "new game"
        app = self.app
        self.tap("DA")  # the menu, at "players"
        self.number(players)
        self.tap("B#", True)  # "new game": while a game is on, the first OK asks again
        if app.mode:
            self.tap("#")
        m = app.m
        if m.players != players or m.events or m.phase != M.DEAL:
            raise RuntimeError("the menu's new game gave %d players" % m.players)

    # --- deals -------------------------------------------------------------------------

    def deal_cards(self):
        self.tap("#")  # deal
        m = self.app.m
        n = m.players
        for i in range(52):
            DECK[i] = i
        for i in range(51, 0, -1):
            j = self.rand(i + 1)
            DECK[i], DECK[j] = DECK[j], DECK[i]
        LEFT[:4 * n] = DECK[:4 * n]
        self.card(DECK[4 * n + 4])  # the starter (it goes in with its suit)
        while m.phase == M.PLAY:
            s = 4 * m.turn
            pick = -1
            for k in range(s, s + 4):
                c = LEFT[k]
                if c != 255 and m.count + PIP[c] <= 31:
                    pick = k
                    break
            if pick < 0:
                self.tap("B")
            else:
                self.card(LEFT[pick])
                LEFT[pick] = 255
        while m.phase == M.SHOW:  # a hand is filled in from the play (OK); the crib typed
            if m.crib_next:  # the crib: DECK[4n:4n+4]
                for k in range(4 * n, 4 * n + 4):
                    self.card(DECK[k])
            self.tap("#")

    def deal_pegged(self, buttons):
        app = self.app
        self.tap("##")  # deal, and the starter is not entered
        m = app.m
        for s in range(m.sides):
            pts = self.rand(6)
            if m.phase == M.OVER or not pts:
                continue
            if buttons:
                for _ in range(pts):
                    if m.phase != M.OVER:
                        self.tap("abcdef"[s])
            else:
                while m.side_of(app.e.seat) != s:
                    self.tap("A")
                self.number(pts)
        if m.phase == M.OVER:
            return
        if buttons and m.events:
            before = m.state()
            self.press(LONG, "*")  # undo the last entry, then redo it
            self.press(LONG, "#")
            if app.err or app.m.state() != before:
                self.bad += 1
                print("BAD undo/redo game %d: %s" % (self.game, app.err))
        self.tap("C")  # count the hands now (the play was pegged)
        while m.phase != M.OVER and (app.e.show_next or m.phase == M.SHOW):
            self.number(COUNTS[self.rand(len(COUNTS))])

    def play_game(self):
        while self.app.m.phase != M.OVER:
            if self.app.m.phase != M.DEAL:
                raise RuntimeError("a deal left the game in phase %d" % self.app.m.phase)
            way = self.deals % 3
            self.deals += 1
            if way:
                self.deal_pegged(way == 1)
            else:
                self.deal_cards()

    # --- checks ------------------------------------------------------------------------

    def check(self, ok, what):
        if not ok:
            self.bad += 1
            print("BAD %s game %d" % (what, self.game))

    def measure(self):  # (save bytes, load us, boot us, heap); reboots the App
        data = self.fs.files.get(GAME_FILE)
        for i in range(5):
            gc.collect()  # no collection inside the timing
            t0 = ticks_us()
            M.loads(data)
            TIMES[i] = ticks_diff(ticks_us(), t0)
        load = median(TIMES, 5)
        before = self.app.m.state()
        for i in range(3):
            self.app = None  # power off
            gc.collect()
            t0 = ticks_us()
            self.app = App(self.hw)
            TIMES[i] = ticks_diff(ticks_us(), t0)
            self.check(self.app.m.state() == before, "boot")
        before = None
        boot = median(TIMES, 3)
        gc.collect()
        return len(data), load, boot, gc.mem_alloc()


def main():
    gc.collect()
    heap_size = gc.mem_alloc() + gc.mem_free()
    t_start = ticks_us()
    s = Soak()
    first = last = None
    save_max = 0
    try:
        s.new_game(players_of(0))
        for g in range(GAMES):
            s.game = g + 1
            p = players_of(g)
            if g and p != s.app.m.players:
                s.new_game(p)
            elif g:
                s.tap("#")  # after a win, OK starts the next game
            s.play_game()
            m = s.app.m
            data = s.fs.files.get(GAME_FILE)
            s.check(data == m.dumps() and M.loads(data).state() == m.state(), "replay")
            save_max = max(save_max, len(data))
            data = m = None
            if g == 0 or (g + 1) % EVERY == 0 or g + 1 == GAMES:
                last = s.measure()
                first = first or last
                print("CHECK game %d players %d deals %d save %d load_us %d boot_us %d heap %d "
                      "bad %d ms %d" % (g + 1, p, s.deals, last[0], last[1], last[2], last[3],
                                        s.bad, ticks_diff(ticks_us(), t_start) // 1000))
    except Exception as e:  # MemoryError included: say where, then fail
        data = s.fs.files.get(GAME_FILE)
        print("SOAK_FAIL game %d players %d deals %d save %d heap_size %d error %s: %s"
              % (s.game, players_of(max(s.game - 1, 0)), s.deals, len(data) if data else 0,
                 heap_size, type(e).__name__, e))
        sys.print_exception(e)
        sys.exit(1)
    print("SOAK games %d players 2-6 deals %d save_first %d save_last %d save_max %d "
          "load_first_us %d load_last_us %d boot_first_us %d boot_last_us %d heap_first %d "
          "heap_last %d heap_size %d ms %d ok %s"
          % (GAMES, s.deals, first[0], last[0], save_max, first[1], last[1], first[2], last[2],
             first[3], last[3], heap_size, ticks_diff(ticks_us(), t_start) // 1000,
             s.bad == 0))
    where = "%d games, %d deals, 2-6 players; 64-bit unix port, heap %dk%s" % (
        GAMES, s.deals, heap_size // 1024, ", re-run from source" if os.getenv(
            "SOAK_CHILD") == "1" else "")
    for what, unit, a, b in (("saved game", "bytes", first[0], last[0]),
                             ("cribbage.match.loads of the saved game", "us", first[1], last[1]),
                             ("App boot on the saved game", "us", first[2], last[2]),
                             ("live heap (app, harness, RAM filesystem)", "bytes", first[3],
                              last[3])):
        print('ROW {"what": "soak: %s after game %d", "value": %d, "unit": "%s", "ref": %d, '
              '"ratio": %.2f, "note": "ref: after game 1; %s"}'
              % (what, GAMES, b, unit, a, b / a, where))


main()
