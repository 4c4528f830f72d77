"""Power-up, run once and then let go (board/fault.py's table: loaded for one call): the saved
files, read with a crash-loop guard, and the self-test key window."""

from array import array

from board.keypad import ticks_diff

from micropython import const

GIVE_UP = 3  # a file 3 boots in a row died parsing is set aside, unread, by the next boot
_MARK = const(0xB7)  # the "boots" record: _MARK, which file, the count, their sum (low byte)
_SETTINGS = const(1)
_GAME = const(2)
_SETTINGS_MOST = const(64)  # the settings file's bound (version 2: 19 bytes)
_GAME_MOST = const(16384)  # the game's (version 2: its journal holds 4 KB; version 1 more)
# the saved frame (board/render.py's dumps() writes it: its layout there) and the View's sizes
_REC = const(54)
_REC_MAGIC = const(0xF5)
_MAX_SIDES = const(6)
_MAX_MARKS = const(8)

# The hardware dict's keys (THE HARDWARE INTERFACE, below), checked when the app starts.
#
# THE HARDWARE INTERFACE (the MicroPython examples/hwapi pattern). The app never constructs
# hardware: a board module (firmware/hw/<name>.py, chosen in firmware/board_config.py)
# builds it and hands the app one dict, `hw`, with these keys:
#
#   layout       board.layout.Layout: where every LED is (parameters of the build)
#   strip        the LEDs: `.buf` (bytearray, bpp bytes per LED, in the strip's colour order)
#                and `.write()`; optional `.ORDER` (neopixel's, default GRB) and `.bpp` (3)
#   keys         optional: a key source with get() -> event byte (kind | key, see
#                board.keypad) or -1, and name(event) -> "0".."9" "A".."D" "*" "#" or "a"..
#                (buttons); update(now)/held(k)/run(clock) if it scans. When absent the app
#                builds a board.keypad.Keypad from:
#   rows, cols   the 4x4 matrix pins as callables: rows[r](0/1) drive, cols[c]() read (0 =
#                pressed; pull-ups); machine.Pin objects are such callables
#   buttons      optional discrete buttons, callables reading 0 when pressed ("+1" per side)
#   display      optional: an object with fill(c), text(s, x, y, c), show() -- the
#                micropython-lib ssd1306 driver's SSD1306_I2C, or None (LEDs only)
#   clock        callable -> milliseconds (time.ticks_ms on a board; wraps at 2**30)
#   sleep_ms     optional callable(ms), used only by the boot self-test check
#   storage_dir  folder for the saved game and settings ("/data" on a board)
#   fs           optional filesystem object (open/rename/remove/mkdir, e.g. a vfs.VfsLfs2);
#                None: the running system's (littlefs on a board, the host's folder)
#   watchdog     optional callable(timeout_ms) -> object with feed() (machine.WDT); used only
#                when the watchdog setting is on
#   net          optional: an async function -> the address the board is reachable at, or
#                None (no network): a board with Wi-Fi (hw/wifi.py) joins the network in
#                it; then the live page is served (board/web.py), as its own asyncio task
#   web_port     optional: the page's port (80); web_host: the address to listen on (0.0.0.0)
#   broker       optional: a function -> the club's MQTT broker ({"host", "port", "prefix",
#                "board"}: hw/wifi.py's broker()) or None; with net, board/publish.py
#   note         optional: what the loader has to say once (firmware/main.py puts slots.note()
#                here: an update rolled back), said on the display at boot, or None
#
# A host's own handles go under keys starting "fake_" or "sim_" (the fake board's matrix and
# buttons, the simulator's key feed): the app leaves them alone. Any other key the app does not
# know is refused when it starts (board.boot.HW_KEYS): a misspelt key is not silently ignored.
#
HW_KEYS = ("layout", "strip", "clock", "keys", "rows", "cols", "buttons", "display", "sleep_ms",
           "storage_dir", "fs", "watchdog", "net", "web_port", "web_host", "broker",
           "power", "note")


def frame(hw):
    """At power-up, before the app's modules load (board/tasks.py): the saved game's frame on
    the LEDs from the saved frame (board/render.py's dumps(), written by App.save() with the
    game), if it is the saved game's; the renderer that drew it (App(hw, r) goes on from its
    frame), or None: nothing drawn, the app's first frame comes as before. Never raises:
    whatever fails here is the app's to find."""
    try:
        from board.render import Renderer
        from board.storage import Storage

        store = Storage(hw.get("storage_dir", "/data"), hw.get("fs"))
        crc = store.crc("game", _GAME_MOST)  # (no game: OSError, nothing drawn)
        got = loads(store.read("frame", 64), crc)
        if got is None:
            return None
        r = Renderer(hw["layout"], hw["strip"], got[1], got[2], got[3])
        if r.frame(got[0], hw["clock"]()):
            hw["strip"].write()
        return r
    except Exception:  # noqa: BLE001
        return None


def loads(b, data):
    """(a new View of the saved frame's bytes b, brightness, limit, palette), or None when b
    is not a saved frame of the game whose saved bytes end with data (board/render.py's
    dumps()): the power-up frame, drawn before the app (and its View) exist."""
    from board.render import View

    if not b or len(b) != _REC or b[0] != _REC_MAGIC or b[1:5] != data or \
            (sum(b) - b[53]) & 255 != b[53] or not 2 <= b[5] <= _MAX_SIDES:
        return None
    w = View(b[5], b[6])
    w.turn = b[7] - 1
    w.crib = b[8] - 1
    w.winner = b[9] - 1
    w.skunk = b[10]
    w.won = b[11]
    w.skunk_line = b[12]
    w.double_line = b[13]
    w.preview_side = b[14] - 1
    w.preview_score = b[15]
    w.front[:] = b[16:22]
    w.back[:] = b[22:28]
    w.games[:] = b[28:34]
    for k in range(_MAX_MARKS):
        w.marks[k] = (b[34 + 2 * k] | b[35 + 2 * k] << 8) - 1
    return w, b[50], b[51] | (b[52] & 127) << 8, b[52] >> 7


def layout(L, lanes, holes, row, group, shared_finish, games, pitch, group_gap, lane_pitch,
           band_gap):
    """board/layout.py's Layout L made (Layout(): its arguments): checked, its sizes set;
    returns its table of track holes' pixels (L._track: the Layout sets its own)."""
    if lanes < 1 or lanes > 6:
        raise ValueError("lanes must be 1..6, not %r" % (lanes,))
    if holes < row or row < 1 or holes % row:
        raise ValueError("holes (%r) must be a whole number of rows of %r" % (holes, row))
    if group < 1 or row % group:
        raise ValueError("a row of %r holes does not split into groups of %r" % (row, group))
    if games < 0:
        raise ValueError("games LEDs must be 0 or more")
    L.lanes = lanes
    L.holes = holes
    L.row = row
    L.group = group
    L.bands = holes // row
    L.shared_finish = shared_finish
    L.games = games
    L.pitch = pitch
    L.group_gap = group_gap
    L.lane_pitch = lane_pitch
    L.band_gap = band_gap
    L.header = 2 + games  # per lane: turn, crib, games...
    L.n_finish = 1 if shared_finish else lanes
    L.first_start = lanes * L.header
    L.first_track = L.first_start + lanes
    L.first_finish = L.first_track + lanes * holes
    L.count = L.first_finish + L.n_finish
    # pixel of track hole (lane, score 1..holes): one table, lane-major
    t = array("H", bytes(2 * lanes * holes))
    for band in range(L.bands):
        for lane in range(lanes):
            line = band * lanes + lane
            for k in range(row):
                score = band * row + k + 1  # k-th hole along the band's direction
                # the band's direction and the strip's direction on this line
                col = k if band % 2 == 0 else row - 1 - k  # column from the left
                along = col if line % 2 == 0 else row - 1 - col
                t[lane * holes + score - 1] = L.first_track + line * row + along
    return t


def start(hw, r):
    """App(hw)'s power-up (board/app.py), for the App to keep: (the key source, the files
    (check_hw), the layout, the clock, the display, the strip, the settings, the renderer (r:
    the one that drew the saved frame, board/tasks.py; else a new one), the match (the saved
    game, or a new one), the note: what happened to a file, or the loader's, its View). Here,
    not in the App, so that its code leaves the heap with this module's."""
    import gc

    from board.render import Renderer, View
    from board.settings import Settings
    from board.commands import new_match
    from cribbage.match import loads

    keys, store = check_hw(hw)  # (hw's key source, or a Keypad on its pins)
    cfg, game, note = open_files(store, settings, loads)
    said = hw.get("note")  # the loader's note (an update rolled back: docs/updates.md)
    if said:
        note = said + "; " + note if note else said
    cfg = cfg or Settings()
    if r is None:  # (r: the renderer of the saved frame drawn at power-up, frame(): the
        r = Renderer(hw["layout"], hw["strip"], 0, 0)  # first frame goes on from it)
    r.brightness = cfg.get("bright")
    r.limit_ma = cfg.get("limit")
    r.colours = cfg.get("colours")
    gc.collect()  # (the match wants ~750 bytes in one piece for its attributes)
    m = game or new_match(cfg)
    got_through(store)  # the files are read: not a boot that failed
    return (keys, store, hw["layout"], hw["clock"], hw.get("display"), hw["strip"], cfg, r, m,
            note, View(m.sides, m.target))


def settings(data):
    """board.settings' Settings from their dumps() bytes (or a version 1 file); ValueError
    when they are not ours or out of range. Read at power-up only: here, so that its code
    leaves the heap with this module's (issue 34)."""
    from board.settings import NAMES, VERSION, Settings

    n = len(NAMES)
    v = data[0] if data else 0
    k = n - VERSION + v if 1 <= v <= VERSION else -1  # (each version one value more)
    if k < 0 or len(data) != 3 + 2 * k or data[1] != k:
        raise ValueError("not a settings file")
    if sum(data[:-1]) & 255 != data[-1]:
        raise ValueError("settings checksum")
    s = Settings()
    j = 2
    for i in range(n):
        if i in b"\x04\x05\x09\x0a\x0b"[v - 1:]:  # (the value each version from 2 on
            # added: match, deal, cards, auto-dimming, colours: a file of version v has none
            # of these after it)
            continue  # not in a file of earlier firmware: its default
        s.set(NAMES[i], data[j] | data[j + 1] << 8)
        j += 2
    return s


def check_hw(hw):
    """ValueError for a key the app does not know (a misspelt one would be silently ignored);
    a host's own handles start with "fake_" or "sim_". Else what the app takes from hw: (the
    key source: hw's keys, or a board.keypad.Keypad on its rows, cols and buttons; the
    board.storage.Storage of its storage_dir and fs)."""
    for k in hw:
        if k not in HW_KEYS and k[:5] != "fake_" and k[:4] != "sim_":
            raise ValueError("hw has a key the app does not know: %s (board/app.py)" % k)
    from board.keypad import Keypad  # (loaded with the app: only the names are looked up)
    from board.storage import Storage

    keys = hw.get("keys")
    if keys is None:
        keys = Keypad(hw.get("rows", ()), hw.get("cols", ()), hw.get("buttons", ()))
    return keys, Storage(hw.get("storage_dir", "/data"), hw.get("fs"))


def open_files(store, settings, loads):
    """(settings or None, game or None, note or None). A file that cannot be read is moved
    aside as NAME.bad (kept for recovery; an empty one is removed) and the note says so."""
    # The crash-loop guard: a save that crashes or hangs the board while it is parsed must not
    # hold it in a loop, and a good save must never be set aside for a power cut. So each
    # file's bytes are read whole first (bounded: no more than its format holds); only then,
    # just before they are parsed, the "boots" file records which file it is and how many
    # boots in a row have died parsing it (this one included), and the moment the parse is
    # over the record goes (got_through). A boot that finds such a record from the boot
    # before knows that boot died parsing that file (or in the flash write that ends the
    # record): a file GIVE_UP boots in a row died on is set aside unread by the next. A power
    # cut anywhere else (reading the bytes, the record's own write, the other file, the rest
    # of the boot) is no evidence against a file, nor is a record that does not check (a
    # flipped bit, the counter of earlier firmware): its count starts afresh.
    try:
        d = store.read("boots", 8)
    except Exception:  # noqa: BLE001  (unreadable: no evidence)
        d = None
    # (which file, how many boots in a row died parsing it): the boot before's record, or
    # (0, 0): none, or one that does not check
    r = (d[1], d[2]) if d and len(d) == 4 and d[0] == _MARK and d[2] and \
        (d[1] == _SETTINGS or d[1] == _GAME) and (d[0] + d[1] + d[2]) & 255 == d[3] else (0, 0)
    note = []  # what happened to a file that could not be read (the last one is note)
    cfg = load(store, note, "settings", settings, _SETTINGS, r, _SETTINGS_MOST)
    game = load(store, note, "game", loads, _GAME, r, _GAME_MOST)
    if r[0]:  # the boot before's record, when neither file was parsed now (none there)
        got_through(store)
    return cfg, game, note[-1] if note else None


def load(store, note, name, parse, k, r, n):
    # The file name parsed (k: which, _SETTINGS or _GAME; r: the boot before's record; n: its
    # bound), with its record written once its bytes are read, and gone once parsed.
    def bad(why):  # the file is set aside, the note says why
        if why == "empty file":  # (storage.py's) nothing to keep; a .bad kept before stays
            store.delete(name)
            note.append("%s unreadable (%s): starting afresh" % (name, why))
            return
        kept = keep_bad(store, name)
        if kept:
            note.append("%s unreadable (%s): kept as %s, starting afresh" % (name, why, kept))
        elif store.bad:  # unreadable, and it could not be moved aside
            note.append("%s unreadable (%s): starting afresh" % (name, why))

    c = r[1] + 1 if r[0] == k else 1  # boots in a row parsing it, this one included
    if c > GIVE_UP:
        bad("the board restarted %d times reading it" % (c - 1))
        return None
    w = []

    def f(data):  # the bytes are read: the record says a parse is under way, then parse
        if not w:
            w.append(c)
            try:
                store.save("boots", bytes((_MARK, k, c, (_MARK + k + c) & 255)))
            except Exception:  # noqa: BLE001  (flash full or failing: count nothing)
                pass
        return parse(data)

    got = store.load(name, f, n)
    if w:  # parsed (or refused): the record goes at once, before anything else
        got_through(store)
    if got is None and store.bad:
        bad(store.bad)
    return got


def got_through(store):
    """This boot parsed its files: the record goes (or, if the flash will not remove the
    file, a byte that reads as no record: good boots must never trip the guard)."""
    store.delete("boots")
    try:
        if store.read("boots"):
            store.save("boots", b"\x00")
    except Exception:  # noqa: BLE001  (neither: the guard may count later, never loop)
        pass


def keep_bad(store, name):
    """Move the saved name aside as NAME.bad (an older one is replaced) so that the next
    save cannot overwrite it: it can still be copied off the board and recovered. Returns
    the new name, or None when there was nothing to move or it could not be moved."""
    real = store.path(name)
    fs = store.fs
    for again in (0, 1):
        try:
            fs.rename(real, real + ".bad")  # littlefs replaces an older .bad
            break
        except Exception as e:  # noqa: BLE001
            if isinstance(e, OSError) and e.args and e.args[0] == 2:
                return None  # no such file: keep any older .bad as it is
            if again:
                return None
            try:  # a filesystem that will not rename over a file; or a passing fault
                fs.remove(real + ".bad")
            except Exception:  # noqa: BLE001
                pass
    store.delete(name)  # its temporary file
    return name + ".bad"


def held_at_power_up(keys, clock, sleep, ms):
    """True when a key held at power-up stays down for ms milliseconds (the LED self-test): keys
    scanned (update(now), held(k)) on clock, sleep(ms) between scans (hw's sleep_ms; None: a
    fake clock's advance(ms))."""
    if sleep is None:
        sleep = getattr(clock, "advance", None)
    t0 = clock()
    t = t0
    while ticks_diff(t, t0) < ms:
        keys.update(t)
        if sleep is not None:
            sleep(10)
        t = clock()
    for k in range(len(keys.names)):
        if keys.held(k):
            while keys.get() >= 0:
                pass
            return True
    return False
