"""Power cuts through the whole board app on real littlefs: every block program and every block
erase of every save of a whole game. Run by host_tests/test_board_powercut.py in the real
micropython binary (MICROPYPATH=firmware:tools/host:host_tests/both); by hand, from the repo root:

    MICROPYPATH=firmware:tools/host:host_tests/both .venv/bin/micropython -X heapsize=320k \\
        host_tests/mp_powercut.py [config ...] [raise]   # pico esp32 small (default: all)

The flash is host_tests/both/blockdev.py's RAM chip, formatted with vfs.VfsLfs2 as a board
formats it: "pico" 4096-byte blocks and progsize=256 (the rp2 port's, the saved game fits in
its directory's metadata), "esp32" 4096-byte blocks and the default progsize=32 (the game has
a block of its own), "small" 512-byte blocks (a game spans several blocks). The app is the
fake board (fakeboard/fake.py) with no display, its files in /data on that filesystem.

A seeded 2-player game is first planned (fakeboard/ramfs.py, no flash) as a list of entries,
each the keys one confirmed entry takes: "#" deal, the starter's card then "#", each card of
the play then "#" (or "B#" for go), the four cards of each hand and the crib then "#"; also a
setting (D, A x7 to "bright", OK steps it and saves the settings, * leaves the menu), an undo
and a redo (hold *, hold #) and, after the win (the game recorded in the history at its end),
an undo past the end (its record flagged undone), a redo (recorded again), "#" for the next
game. The state a cut may lose is the game's, the settings' and the history's counted games.
Entry 0 is the first
boot on the freshly formatted flash (it makes /data); entry 1 (the first deal) is the first
save on the empty filesystem.

Then for each entry k, with F the flash before it:
  * on a copy of F: boot a fresh App (mount, App(hw), one loop step), note its state (the
    game's m.dumps() and the settings' dumps()): it must be the state the previous entry
    left in RAM; type the entry (app.key / app.long_key, each key followed by app.step with
    the fake clock advanced, so a save made in step() after the frame counts too), count
    its block ops n (every entry must write: a save that did not happen within the entry's
    steps fails it) and note the state after;
  * for each op j < n: on a fresh copy of F, boot, type the entry with the power cut at op j
    (a program half written, an erase half done; the flash frozen from then on); boot a
    fresh App on what the flash holds: its state must be exactly the before or the after
    state; then the board must play on: from "before" the same entry goes in again and
    gives the after state, from "after" the next entry goes in and gives the state the
    uncut run of that entry gives. Keys refused (app.err) fail it too;
  * the uncut run once more (it must count and end as the first did): its flash is the
    flash before entry k + 1.
The cut board (the dead one) is dropped as it is; by default its block device fails the cut
op and every later one with EIO, and the save's OSError ends the entry (see RAISE below).

Every entry of the game is cut at every op in every config (nothing is sampled). Once the
settings are saved (a game and the settings on the flash), two power cuts in a row at boot:
every op of a boot cut, then every op of the next, then a boot that must come back with the
same game and settings and nothing set aside (a BOOTS line per config: the ops of a boot and
the pairs cut twice; a FAIL line for a pair that did not come back). Prints one
CONFIG line per configuration (its cuts, how many were of a program and of an erase, how many
booted into the state before the entry and after it), a FAIL line per cut that did not come
back (what booted instead), and closes with 'micropython: N passed, N failed' (N passed: the cuts
that booted into the before or after state and played on; the checks that are not cuts, such
as a boot reproducing the previous entry's state, count as failures when they fail).

Heap: two flash images of up to 36 KB (the flash before the entry and the copy a run
changes), allocated first so that they are found in one piece; the firmware compiled from
source (about 95 KB of this 64-bit port's heap once imported); one App at a time with its
game (the dead board's and the rebooted one's are garbage in turn). About 180 KB live: far
more than the both/ tests get (the boards' budgets are tools/budgets.py's), so
test_board_powercut.py gives it 320k (see there why); it runs in 224k, not in 192k.
"""

import gc

# The two flash images first, while the heap is empty: allocated after the game is planned,
# 24-36 KB in one piece may not be found between the objects that survived it.
_MAX = 9 * 4096  # the largest flash in CONFIGS
IMAGES = (bytearray(_MAX), bytearray(_MAX))
_ERASED = (b"\xff" * 4096, b"\xff" * 512)  # blockdev's, made here for the same reason

import sys  # noqa: E402
import time  # noqa: E402

import vfs  # noqa: E402

import blockdev  # noqa: E402
from blockdev import RamBlocks  # noqa: E402
from fakeboard.fake import build  # noqa: E402
from fakeboard.ramfs import RamFs  # noqa: E402
from board.app import App  # noqa: E402
from board import history as H  # noqa: E402
from cribbage import match as M  # noqa: E402
from dealer.autoplay import seeded  # noqa: E402
from cribbage.cards import PIP  # noqa: E402
from matchkit import card_keys as card, deal_two  # noqa: E402

for _ff in _ERASED:
    blockdev._ERASED[len(_ff)] = _ff
SEED = 7
# name: (block size, blocks, progsize). Blocks: the fewest a whole game's saves run in (found by
# trying: 4, 7 and 8; one fewer and a save fails for room) and two more, so littlefs's
# allocator has a choice as it has on a board's megabyte. The cut counts do not change with it.
CONFIGS = {
    "pico": (4096, 6, 256),
    "esp32": (4096, 9, 32),
    "small": (512, 10, 32),
}
ORDER = ("pico", "esp32", "small")
SETTINGS_ENTRY = "DAAAAAAA#*"
STEP_MS = 20  # the fake clock's advance after each key (the app's loop period)
# How the chip dies (blockdev.RamBlocks's raise_cut): by default the cut op and every later one
# fail with EIO and littlefs unwinds itself; "raise" on the command line raises PowerCut at the
# cut op instead (the code stops there), which unwinds through littlefs's C code: the dead
# board's file is then closed by its finaliser against littlefs's half-updated state and the
# collector prints that close's error ("OSError: 28") for most cuts. The flash is frozen at
# the cut either way; both modes have given the same counts and results.
RAISE = "raise" in sys.argv[1:]


def enter(app, keys):
    """Type one entry's keys ('<' holds *, '>' holds #), a loop step after each and one more
    at the end; the first refusal (app.err) or None."""
    clock = app.clock
    err = None
    for ch in keys:
        if ch == "<":
            app.long_key("*")
        elif ch == ">":
            app.long_key("#")
        else:
            app.key(ch)
        if err is None and app.err is not None:
            err = "%s (key %s)" % (app.err, ch)
        clock.advance(STEP_MS)
        app.step(clock())
    clock.advance(STEP_MS)
    app.step(clock())
    return err


def state(app):
    """What a power cut may lose: the game and the settings, as the app would save them, and
    the games the history counts (its records not undone: a game is recorded at its end,
    flagged undone by an undo past it, recorded again at its end again)."""
    return app.m.dumps(), app.cfg.dumps(), counted(app.store)


def counted(store):
    out = []
    f = store.open("history")
    at = [0]
    r = None
    while f:
        r = H.read(f, at, r)
        if r is None:
            f.close()
            break
        if not H.undone(r):  # (its game: players, sides, target, result, winner, deals,
            out.append(bytes(r[3:11]) + bytes(r[12:12 + r[4]]))  # serial, scores; not its
            # summary, made only when memory allows: the test's heap is no board's)
    return b"".join(out)


def plan(seed):
    """The entries of a whole seeded game (keys per confirmed entry), played on a RAM
    filesystem: the harness's cards come from the same shuffle the players would deal."""
    app = App(build("/data", display=False, fs=RamFs()))
    rand = seeded(seed)
    entries = [""]  # entry 0: the first boot

    def do(keys):
        err = enter(app, keys)
        if err is not None:
            raise RuntimeError("planning %r: %s" % (keys, err))
        entries.append(keys)
        gc.collect()  # the entries kept stay together, not strewn over the heap

    do("#")  # the first deal (seat 0 deals): the first save on an empty filesystem
    deal = 0
    while app.m.phase != M.OVER:
        if app.m.phase == M.DEAL:
            do("#")
        hands, crib, starter = deal_two(app.m.dealer, rand)
        left = [list(h) for h in hands]
        do(card(starter))  # it goes in with its suit
        if deal == 1:
            do("<")  # undo the starter
            do(">")  # and redo it
        while app.m.phase == M.PLAY:
            m = app.m
            s = m.turn
            ok = [c for c in left[s] if m.count + PIP[c] <= 31]
            if ok:
                left[s].remove(ok[0])
                do(card(ok[0]))
            else:
                do("B")
        while app.m.phase == M.SHOW:  # a hand is filled in from the play: OK; the crib typed
            # (its fourth card puts it in: no OK after it, which would start the next game
            # when the crib wins: issue 35 item 16)
            do("".join(card(c) for c in crib) if app.m.crib_next else "#")
        if deal == 0:
            do(SETTINGS_ENTRY)  # menu, to "bright", OK steps it (the settings save), leave
        deal += 1
    do("<")  # undone past the end (its record flagged undone: issue 30)
    do(">")  # and its end again (recorded again)
    do("#")  # the next game (the games won are kept)
    return entries


class Run:
    """One configuration's flash and counts."""

    def __init__(self, name):
        self.name = name
        self.block, self.blocks, self.prog = CONFIGS[name]
        size = self.block * self.blocks
        self.flash = memoryview(IMAGES[0])[:size]  # before the entry
        self.work = memoryview(IMAGES[1])[:size]  # a copy each run changes
        dev = RamBlocks(self.flash, self.block)
        dev.wipe()
        vfs.VfsLfs2.mkfs(dev, progsize=self.prog)
        self.passed = self.failed = 0
        self.cuts = self.programs = self.erases = 0
        self.to_before = self.to_after = 0
        self.most = 0  # the most block ops one entry took

    def boot(self, dev):
        """Power up on dev's flash: mount it, start a fresh App, one loop step."""
        fs = vfs.VfsLfs2(dev, progsize=self.prog)
        hw = build("/data", display=False, fs=fs)
        app = App(hw)
        app.step(hw["clock"]())
        return app

    def dev(self, flash, cut=-1):
        return RamBlocks(flash, self.block, cut, RAISE)

    def fail(self, k, keys, j, what):
        self.failed += 1
        print("FAIL %s entry %d %r cut at op %s: %s" % (self.name, k, keys, j, what))

    def entry(self, k, keys, nxt_keys, want):
        """Every cut of entry k (keys; the next entry's: nxt_keys) on self.flash; want: the
        state the previous entry left in RAM (None: not known). Returns (the state after the
        entry, the states the next entry gave after cuts that booted into that state)."""
        first = k == 0
        n, before, after = self.uncut(k, keys)
        if want is not None and before != want:
            self.fail(k, keys, None, "booted on the saved flash, the state is not the one "
                      "the entry before left in RAM")
        if n == 0 and not first:
            self.fail(k, keys, None, "the entry wrote nothing: no save within its steps")
        self.most = max(self.most, n)
        next_states = []
        for j in range(n):
            gc.collect()
            self.work[:] = self.flash
            raised = None
            dev = self.dev(self.work, j if first else -1)
            try:
                app = self.boot(dev)
                if not first:
                    dev.arm(j)
                    enter(app, keys)
            except Exception as e:  # OSError (EIO) from the save, or PowerCut
                raised = e
            kind = dev.cut_op
            dev = app = None
            if kind is None:
                self.fail(k, keys, j, "the power was not cut (raised %r)" % (raised,))
                continue
            self.cuts += 1
            if kind == "erase":
                self.erases += 1
            else:
                self.programs += 1
            err = self.after_cut(k, keys, nxt_keys, before, after, next_states)
            if err is not None:
                self.fail(k, keys, j, "%s cut: %s" % (kind, err))
            else:
                self.passed += 1
        # the uncut run again: its flash is the next entry's
        if self.uncut(k, keys) != (n, before, after):
            self.fail(k, keys, None, "typed twice without a cut, the entry differed")
        self.flash[:] = self.work
        return after, next_states

    def after_cut(self, k, keys, nxt_keys, before, after, next_states):
        """Power back on the cut flash (self.work): None if the board boots into before or
        after and plays on, else what went wrong."""
        gc.collect()
        try:
            app = self.boot(self.dev(self.work))
        except Exception as e:
            return "the board does not boot: %r" % (e,)
        got = state(app)
        if got == before and k > 0:
            self.to_before += 1
            err = play_on(app, keys)  # the same entry again
            if err is None and state(app) != after:
                err = "typed again, the entry did not give the after state"
            return err
        if got == after:  # (the first boot: before is after)
            self.to_after += 1
            if nxt_keys is None:
                return None
            err = play_on(app, nxt_keys)
            if err is None:
                next_states.append(state(app))  # checked against the next entry's uncut run
            return err
        return "booted into neither state: " + describe(app, before, after)

    def boots(self):
        """Two power cuts in a row at boot (issue 23): on self.flash (a game and the settings
        saved), the power cut at every block op j1 of a boot, then at every op j2 of the next,
        then a boot that gets through: the same game and settings, nothing set aside as .bad
        (the crash-loop guard, board/boot.py, must not take cuts for a crash). Returns (the
        block ops of an uncut boot, the pairs cut twice); a FAIL line for each pair that did
        not come back."""
        gc.collect()
        self.work[:] = self.flash
        dev = self.dev(self.work)
        want = state(self.boot(dev))
        n = dev.ops
        pairs = 0
        for j1 in range(n):
            for j2 in range(n):
                gc.collect()
                self.work[:] = self.flash
                cut = 0
                for j in (j1, j2):  # (a boot after a cut may take fewer ops: then one cut)
                    dev = self.dev(self.work, j)
                    try:
                        self.boot(dev)
                    except Exception:  # noqa: BLE001  (the cut: EIO from a write, PowerCut)
                        pass
                    cut += dev.cut_op is not None
                dev = None
                try:
                    app = self.boot(self.dev(self.work))
                    got = state(app)
                    bad = [n for n in ("game", "settings") if _there(app.store, n + ".bad")]
                    note = app.note
                except Exception as e:
                    self.fail(-1, "boot", (j1, j2), "the board does not boot: %r" % (e,))
                    continue
                app = None
                if got != want or bad or note:
                    self.fail(-1, "boot", (j1, j2), "after two cuts: %s%s%s" % (
                        "the state differs; " if got != want else "", bad, note))
                pairs += cut == 2
        return n, pairs

    def uncut(self, k, keys):
        """Entry k typed on a copy of the flash without a cut (the copy is left as it
        ends): (its block ops, the state booted before it, the state after it)."""
        gc.collect()
        self.work[:] = self.flash
        dev = self.dev(self.work)
        app = self.boot(dev)
        if k == 0:
            return dev.ops, state(app), state(app)
        before = state(app)
        dev.arm()
        err = enter(app, keys)
        if err is not None:
            self.fail(k, keys, None, "refused without a cut: " + err)
        return dev.ops, before, state(app)


def _there(store, name):
    try:
        store.fs.stat(store.path(name))
        return True
    except OSError:
        return False


def play_on(app, keys):
    """Type keys on a board booted after a cut: None, or why it did not play on."""
    try:
        err = enter(app, keys)
    except Exception as e:
        return "typing %r after the reboot raised %r" % (keys, e)
    if err is not None:
        return "typing %r after the reboot was refused: %s" % (keys, err)
    return None


def describe(app, before, after):
    """Why a booted state is neither (for the FAIL line)."""
    m = app.m
    game, cfg, _games = state(app)
    fresh = game == M.Match().dumps()
    return ("events %d phase %d scores %s%s; game bytes %d, before %d, after %d; "
            "settings %s" % (m.events, m.phase, m.score, " (a new game: the save was lost)"
                             if fresh else "", len(game), len(before[0]), len(after[0]),
                             "kept" if cfg in (before[1], after[1]) else "lost"))


def main(names):
    t0 = time.ticks_ms()
    entries = plan(SEED)
    gc.collect()
    total_p = total_f = total_cuts = 0
    for name in names:
        t1 = time.ticks_ms()
        r = Run(name)
        want = None
        pending = []  # the states this entry gave, typed after a cut of the entry before
        boots = None
        for k in range(len(entries)):
            if boots is None and entries[k - 1] == SETTINGS_ENTRY:  # a game and settings
                boots = r.boots()
            nxt_keys = entries[k + 1] if k + 1 < len(entries) else None
            try:
                after, nxt_states = r.entry(k, entries[k], nxt_keys, want)
            except Exception as e:  # an uncut run failed: the rest of the game cannot follow
                r.fail(k, entries[k], None, "without a cut: %r" % (e,))
                sys.print_exception(e)
                break
            for s in pending:
                if s != after:
                    r.fail(k, entries[k], None, "typed after a cut of the entry before, this "
                           "entry gave another state than without the cut")
            pending = nxt_states
            want = after
        gc.collect()
        print("CONFIG %s block %d blocks %d progsize %d: entries %d cuts %d (programs %d, "
              "erases %d; booted before %d, after %d) most ops per entry %d passed %d "
              "failed %d in %d ms, heap free %d"
              % (name, r.block, r.blocks, r.prog, len(entries), r.cuts, r.programs, r.erases,
                 r.to_before, r.to_after, r.most, r.passed, r.failed,
                 time.ticks_diff(time.ticks_ms(), t1), gc.mem_free()))
        print("BOOTS %s: ops per boot %d, two cuts in a row %d" % ((name,) + boots))
        total_p += r.passed
        total_f += r.failed
        total_cuts += r.cuts
        r = None
        gc.collect()
    print("cuts %d in %d ms" % (total_cuts, time.ticks_diff(time.ticks_ms(), t0)))
    print("micropython: %d passed, %d failed" % (total_p, total_f))
    return total_f == 0 and total_p > 0


if __name__ == "__main__":
    sys.exit(0 if main([a for a in sys.argv[1:] if a in CONFIGS] or ORDER) else 1)
