"""Power-up, run once and then unloaded (board.app.unload): the saved files, read with a
crash-loop guard, and the self-test key window."""

from board.keypad import ticks_diff

GIVE_UP = 3  # the 3rd boot in a row that cannot read its files sets the saved game aside

# The hardware dict's keys (board/app.py says what each is), checked when the app starts.
HW_KEYS = ("layout", "strip", "clock", "keys", "rows", "cols", "buttons", "display", "sleep_ms",
           "storage_dir", "fs", "watchdog", "net", "web_port", "web_host")


def check_hw(hw):
    """ValueError for a key the app does not know (a misspelt one would be silently ignored);
    a host's own handles start with "fake_" or "sim_"."""
    for k in hw:
        if k not in HW_KEYS and k[:5] != "fake_" and k[:4] != "sim_":
            raise ValueError("hw has a key the app does not know: %s (board/app.py)" % k)


def open_files(store, settings_loads, game_loads, app):
    """(settings or None, game or None). A file that cannot be read is moved aside as
    NAME.bad (kept for recovery) and app.note says so. booting() counts the boots in a row
    that did not get through this; at GIVE_UP the game is set aside, past it the settings
    too: a save that crashes or hangs the board while it is read cannot hold it in a loop."""
    boots = booting(store)
    if boots >= GIVE_UP:
        _aside(store, app, "game", "the board restarted %d times" % (boots - 1))
        if boots > GIVE_UP:
            _aside(store, app, "settings", "the board still restarts")
    cfg = _load(store, app, "settings", settings_loads)
    game = _load(store, app, "game", game_loads)
    return cfg, game


def _load(store, app, name, parse):
    got = store.load(name, parse)
    if got is None and store.bad:
        _aside(store, app, name, store.bad)
    return got


def _aside(store, app, name, why):
    kept = keep_bad(store, name)
    if kept:
        app.note = "%s unreadable (%s): kept as %s, starting afresh" % (name, why, kept)
    elif store.bad:  # unreadable, and it could not be moved aside
        app.note = "%s unreadable (%s): starting afresh" % (name, why)


def booting(store):
    """Count this boot among those in a row that did not get through reading the files
    (board.app clears the count with store.delete("boots") once they are read); 1 for a
    normal boot."""
    try:
        data = store.read("boots")
    except Exception:  # noqa: BLE001
        data = None
    n = data[0] + 1 if data and len(data) == 1 else 1
    try:
        store.save("boots", bytes((min(n, 255),)))
    except Exception:  # noqa: BLE001  (flash full or failing: count nothing, boot on)
        pass
    return n


def got_through(store):
    """This boot read its files: the count goes (or, if the flash will not remove the file,
    back to 0, which booting() reads the same: good boots must never trip the guard)."""
    store.delete("boots")
    try:
        if store.read("boots"):
            store.save("boots", b"\x00")
    except Exception:  # noqa: BLE001  (neither: the guard may trip later, never loop)
        pass


def keep_bad(store, name):
    """Move an unreadable file aside as NAME.bad (an older one is replaced) so that the next
    save cannot overwrite it: it can still be copied off the board and recovered. Returns the
    new name, or None when there was nothing to move or it could not be moved."""
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


def held_at_power_up(app, hold_ms):
    """True when a key held at power-up stays down for hold_ms (the LED self-test)."""
    keys = app.keys
    clock = app.clock
    sleep = app.hw.get("sleep_ms")  # a board's; else a fake clock's advance(ms)
    if sleep is None:
        sleep = getattr(clock, "advance", None)
    t0 = clock()
    t = t0
    while ticks_diff(t, t0) < hold_ms:
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
