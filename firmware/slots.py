"""The boot loader, the half that stays (main.py imports it first; it is never updated over the
air): the slot's state after start() and the calls the running app makes later. The two
common boots load no more of the loader: a board flashed without slots (no record) none, a
board that has taken an update (a confirmed record whose slot is an image) slotimg.py, the
image's block device, which its mount keeps anyway, and which reads the note too. What the
rarer boots do once (a trial counted, the way back, a record that does not check, a folder
slot: slotboot.py) is loaded for the call and let go, and so for confirm() and failed()
when they have a trial to end. What stays is this module (slotimg too while an image is
mounted): ~1.9 KB of the 64-bit port's heap, against ~6 KB with the whole loader resident
(docs/memory.md, "What the loader keeps after start()" and its third session; test_ota_boot.py).

slotboot's names are this module's too (slots.Files, slots.read, slots.IMAGE ...: __getattr__),
each loaded for the one use: ota/install.py imports slotboot itself for an install's many.
"""

trial = None  # after start(): (active, previous) while the running slot is on trial
wdt = None  # the trial's watchdog (fed by ota/trial.py)
running = "r"  # the slot running (after start())
mounted = None  # (mount point, the image's open file) while a slot's image is mounted


def __getattr__(name):
    """slotboot's name (Files, read, pack, IMAGE ...) as this module's: slotboot loaded for this
    one use and let go (out of sys.modules at once: its code leaves the heap at the next
    collection once the caller is done with what it got), unless it is loaded already
    (ota/install.py imports it for an install's many uses; board/fault.py lets it go)."""
    import sys

    m = sys.modules.get("slotboot")
    if m is None:
        import slotboot as m

        sys.modules.pop("slotboot", None)
    return getattr(m, name)


def start(files=None, watchdog=None, hung=False):
    """Pick the slot to run and put it first on sys.path, the trial's watchdog started
    (slotboot.start()); the folder ("" for the root). The two common boots load no slotboot,
    whose ~30 names would stay interned for good (issue 34): a board flashed without slots
    (its app at the root, no record: slotboot.read()'s first answer) starts it with none of
    the loader's code, and a board that has taken an update (a record, confirmed, whose slot
    is an image) through slotimg.start(), the module its mount keeps anyway, the mount's
    objects first on the heap, below all of the app's. Any other boot is slotboot's, whose
    code leaves the heap before this returns: collected now, from a frame that never held
    it (its call is a lambda's), and not later, when a pointer to it left on the C stack by
    its calls could lie in the unset slots of the app's frames, which live as long as the
    board runs, and keep it all."""
    global trial, wdt, running, mounted
    r = None
    if files is None and mounted is None:
        import os

        try:
            os.stat("slots.rec")  # (slotboot.REC)
        except OSError:
            try:
                os.stat("board_config.py")  # (the root's app: slotboot.read())
                r = ("", "r", None, None, None)
            except OSError:
                pass
        else:
            import slotimg

            r = slotimg.start()
    import gc

    if r is None:
        m, trial, wdt, mounted = mounted, None, None, None
        # (slotboot.start() called from a frame of its own, a lambda's: a function of this
        # module's would be one name more on every board, and the ESP32's pools are full)
        r = (lambda *a: __getattr__("start")(*a))(files, watchdog, hung, m)
    f, running, trial, wdt, mounted = r
    gc.collect()
    return f


def failed(e, files=None):
    """The app raised e out of main.py (at import, or from its loop): a slot on trial goes
    back to the one before (True: the caller restarts the board); else False."""
    global trial
    if trial is None or not __getattr__("failed")(e, files):
        return False
    trial = None
    return True


def confirm(files=None):
    """The slot on trial has run well: it is the board's app from now on."""
    global trial
    __getattr__("confirm")(files)
    trial = None


def note(files=None):
    """The loader's message, once (its text, then the file goes), or None: looked for only on
    a board with a record (slotboot.REC): a note is written only with one (slotboot.back()),
    and no firmware removes a record. Read by slotimg.note() (on a board that has taken an
    update, the module its mount keeps: no name more), or slotboot.note() from files."""
    if files is None:
        import os

        try:
            os.stat("slots.rec")  # (the one name start() looks for too: issue 34)
        except OSError:
            return None
        import slotimg

        return slotimg.note()
    return __getattr__("note")(files)
