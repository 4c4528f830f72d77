"""Updates over the air (issue 31): the HMAC, the pointer record, the boot loader's trial
and the way back from an app that raises, hangs or never confirms. Runs under CPython (a
folder) and MicroPython (real littlefs on a RAM flash): host_tests/both/otakit.py."""

from otakit import GAME, app_files, board, boot, bundle, get, update

import slots
from check import ON_MICROPYTHON, raises
from ota.hmac import hmac, same


def test_hmac_is_rfc_4231s():
    # RFC 4231 test cases 1, 2 and 6 (a key longer than the block)
    assert hmac(b"\x0b" * 20, b"Hi There") == bytes.fromhex(
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    assert hmac(b"Jefe", (b"what do ya want ", b"for nothing?")) == bytes.fromhex(
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    assert hmac(b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First") == \
        bytes.fromhex("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    assert same(b"abc", b"abc") and not same(b"abc", b"abd") and not same(b"ab", b"abc")


def test_hmac_is_cpythons():
    if ON_MICROPYTHON:
        return
    import hashlib
    import hmac as std
    import random
    r = random.Random(31)
    for n in (0, 1, 32, 63, 64, 65, 200):
        key, msg = r.randbytes(r.choice((16, 32, 64, 65, 100))), r.randbytes(n * 7)
        assert hmac(key, msg) == std.new(key, msg, hashlib.sha256).digest()


def test_pointer_record_round_trips_and_a_bad_one_is_no_record():
    rec = slots.pack("b", "a", "T", 1)
    assert len(rec) == 7 and rec[:5] == b"SbaT1"
    assert slots.unpack(rec) == ("b", "a", "T", 1)
    for bad in (rec[:6], rec[:4] + b"2" + rec[5:], b"SbxT1" + rec[5:], b"", None):
        assert slots.unpack(bad) is None


def test_a_board_without_slots_runs_its_root_app():
    files = board()
    assert boot(files) == ("", "ran")
    assert slots.running == "r" and slots.trial is None


def test_an_app_that_raises_at_import_goes_back_at_once():
    files = board()
    update(files, bundle("0.7.0", files=app_files("0.7.0", "raise")))
    assert boot(files) == ("slot_a", "raised")
    assert slots.read(files) == ("r", "a", "C", 0)
    assert boot(files) == ("", "ran")
    n = slots.note(files)
    assert n.startswith("update to 0.7.0 failed (ImportError") and n.endswith("back to ?"), n
    assert slots.note(files) is None  # said once
    assert get(files, "data/game") == GAME


def test_an_app_that_hangs_goes_back_after_its_watchdog():
    files = board()
    update(files, bundle("0.7.0", files=app_files("0.7.0", "hang")))
    # (the first boot follows the install's machine.reset(), a watchdog reset on an RP2040)
    assert boot(files, hung=True) == ("slot_a", "hung")
    assert boot(files, hung=True) == ("", "ran")  # the watchdog's reset: back
    assert "it hung: watchdog" in slots.note(files)


def test_an_app_that_never_confirms_goes_back_after_two_boots():
    files = board()
    update(files, bundle("0.7.0", files=app_files("0.7.0", "noconfirm")))
    assert boot(files) == ("slot_a", "unconfirmed")
    assert boot(files) == ("slot_a", "unconfirmed")
    assert boot(files) == ("", "ran")
    assert "not confirmed in 2 boots" in slots.note(files)
    # the failed slot is where the next update goes; the root stays what it goes back to
    update(files, bundle("0.7.1"))
    assert slots.read(files) == ("a", "r", "T", 0)
    assert boot(files) == ("slot_a", "ran")


def test_a_rollback_between_slots_keeps_the_version_it_goes_back_to():
    files = board()
    update(files, bundle("0.7.0"))
    boot(files)
    update(files, bundle("0.8.0", files=app_files("0.8.0", "raise")), running="0.7.0")
    assert boot(files) == ("slot_b", "raised")
    assert boot(files) == ("slot_a", "ran")
    assert slots.note(files).endswith("back to 0.7.0")


def test_a_fault_off_trial_is_no_rollback():
    files = board()
    update(files, bundle("0.7.0"))
    boot(files)
    assert not slots.failed(RuntimeError("x"), files)
    assert slots.read(files) == ("a", "r", "C", 0)


def test_no_record_boots_the_app_there_is():
    files = board()
    update(files, bundle("0.7.0"))
    files.write(slots.REC, b"garbage")
    assert slots.read(files) == ("r", "r", "C", 0)  # the root's app
    files.fs.remove(files.path("board_config.py"))
    assert slots.read(files) == ("a", "a", "C", 0)  # a slot's, when the root has none




class _Stop(Exception):
    pass


class _TrialApp:
    """What ota/trial.py sees of the app: its clock and its message line (App.recover puts
    a fault's there, board/fault.py's message), or its count of faults."""

    def __init__(self, counts=False):
        self.t = [0]
        self.clock = lambda: self.t[0]
        self.err = "game unreadable (empty file): starting afresh"  # (a note: no fault)
        if counts:
            self.fault = 3  # (App's count: board/app.py, a name the board has interned)

    def recover(self, e):
        self.err = "fault (%s %s): the game is kept" % (type(e).__name__, e)
        if hasattr(self, "fault"):
            self.fault += 1


def _watch(files, app, until_ms, fault_at=-1):
    """Run ota/trial.py's watch with its sleeps advancing app's clock, stopped once the clock
    reaches until_ms (it never ends by itself); a fault handled by the app at fault_at ms,
    and the message line moved on at the next step (a key's refusal)."""
    from ota import trial
    resets = []
    real = trial.sleep_ms

    async def sleep(ms):
        if app.t[0] == fault_at:
            app.recover(MemoryError("in a frame"))
        elif app.err.startswith("fault"):
            app.err = "no such card"
        if app.t[0] + ms > until_ms:
            raise _Stop
        app.t[0] += ms

    trial.sleep_ms = sleep
    try:
        trial.watch(app, lambda: resets.append(1), files).send(None)
    except (_Stop, StopIteration):
        pass
    finally:
        trial.sleep_ms = real
    return resets


def test_a_trial_confirms_itself_after_30_s_without_a_fault():
    files = board()
    update(files, bundle("0.7.0"))
    boot_trial(files)
    dog = slots.wdt
    app = _TrialApp()
    assert _watch(files, app, 29750) == [] and slots.read(files)[2] == "T"  # not yet
    assert slots.trial is not None and dog.fed == 120  # (every 250 ms)
    app.t[0] = 0
    assert _watch(files, app, 40000) == [] and slots.read(files) == ("a", "r", "C", 0)
    assert slots.trial is None and dog.fed > 240  # fed on after: a watchdog cannot stop


def test_a_fault_on_trial_goes_back_and_restarts_the_board():
    for counts in (False, True):
        files = board()
        update(files, bundle("0.7.0"))
        boot_trial(files)
        app = _TrialApp(counts)
        assert _watch(files, app, 40000, fault_at=5000) == [1]
        assert slots.read(files) == ("r", "a", "C", 0)
        assert ("1 faults" if counts else "MemoryError") in slots.note(files)



def test_a_fault_on_trial_short_of_heap_to_go_back_tries_then_leaves_it_to_the_watchdog():
    """slots.failed() loads the loader's other half (slotboot): short of heap it raises
    MemoryError. The watch tries again a step later (and goes back once it can); a heap that
    never comes back stops the feeding after 4 steps, so the watchdog's reset takes the board
    back (the loader's hang), never a trial that runs on, faulty, with its watchdog fed."""
    real = slots.failed
    for short, counts in ((1, False), (1, True), (99, False)):
        files = board()
        update(files, bundle("0.7.0"))
        boot_trial(files)
        dog = slots.wdt
        tries = []

        def failed(e, files=None, tries=tries, short=short):
            tries.append(1)
            if len(tries) <= short:
                raise MemoryError
            return real(e, files)

        slots.failed = failed
        try:
            resets = _watch(files, _TrialApp(counts), 40000, fault_at=5000)
        finally:
            slots.failed = real
        if short == 1:
            assert resets == [1] and tries == [1, 1] and slots.read(files) == ("r", "a", "C", 0)
        else:
            assert resets == [] and len(tries) == 4 and slots.read(files)[2] == "T"
            assert dog.fed == 5000 // 250 + 1 + 3  # fed to the fault, then 3 tries: no more

def boot_trial(files):
    """The loader's start on a slot on trial, with a fake watchdog (slots.wdt)."""
    import sys

    from otakit import Dog
    n = len(sys.path)
    slots.start(files, Dog)
    del sys.path[:len(sys.path) - n]
    assert slots.trial is not None and slots.wdt.ms == slots.WATCH_MS


def test_the_roots_app_goes_once_nothing_can_go_back_to_it():
    """A board flashed without slots keeps its root's app while it is the way back (the first
    update's trial), and the second update removes it (room for two slots on a Pico W); the
    loader, the data and the Wi-Fi file stay."""
    files = board()
    update(files, bundle("0.7.0"))
    assert get(files, "board/app.mpy") is not None  # the way back from 0.7.0's trial
    boot(files)
    update(files, bundle("0.8.0"), running="0.7.0")
    for p, _d in app_files("0.6.0"):
        assert get(files, p) is None, p
    assert get(files, "data/game") == GAME and get(files, "wifi.json")
    assert boot(files) == ("slot_b", "ran")


class _FullFs:
    """A filesystem that reads but will not write (a flash worn out, or full)."""

    def __init__(self, fs):
        self.fs = fs

    def __getattr__(self, name):
        return getattr(self.fs, name)

    def open(self, p, mode):
        if "w" in mode:
            raise OSError(28)
        return self.fs.open(p, mode)


def test_a_trial_the_flash_will_not_count_boots_the_slot_before():
    files = board()
    update(files, bundle("0.7.0"))
    full = slots.Files("", _FullFs(files.fs))
    assert boot(full) == ("", "ran")  # this boot: the one before, nothing written
    assert slots.read(files) == ("a", "r", "T", 0)
    assert boot(files) == ("slot_a", "ran")  # the flash is well again: the trial goes on


# What the loader keeps (issue 34): slots.py's names, and nothing of slotboot's (its heap on
# MicroPython from .mpy files, as a board runs it: host_tests/test_ota_boot.py)
RESIDENT = ["confirm", "failed", "mounted", "note", "running", "start", "trial", "wdt"]


def test_after_start_the_loader_keeps_only_its_resident_half():
    """start(), and the trial's confirm(), failed() and note() after it, each load slotboot
    (the record, the choice of slot, the image's mount) for the call and let it go: the
    resident module keeps its state and its small calls, and no more. (Under MicroPython
    the names only: here slotboot would be compiled from source at each call, on a heap
    that ota's tests leave in pieces; test_ota_boot.py boots from .mpy as a board does.)"""
    import sys
    files = board()
    update(files, bundle("0.7.0"))
    if ON_MICROPYTHON:
        boot(files)
        assert sorted(k for k in slots.__dict__ if not k.startswith("__")) == RESIDENT
        return
    held = sys.modules.pop("slotboot", None)  # (ota.install's: a board lets it go after)
    try:
        assert boot(files) == ("slot_a", "ran")  # on trial: it confirms
        assert "slotboot" not in sys.modules
        assert boot(files) == ("slot_a", "ran")  # confirmed
        assert slots.read(files) == ("a", "r", "C", 0) and slots.running == "a"
        assert not slots.failed(RuntimeError("x"), files) and slots.note(files) is None
        assert "slotboot" not in sys.modules
        assert sorted(k for k in slots.__dict__ if not k.startswith("__")) == RESIDENT
    finally:
        if held is not None:  # (the other tests' ota.install holds it: compiled once)
            sys.modules["slotboot"] = held


def test_slotboots_names_are_the_loaders_each_for_one_use():
    """slots.Files, slots.read ... (ota/order.py, the tools, the tests) are slotboot's, loaded
    for the one use and let go (kept, when something had it loaded); a name neither has is
    an AttributeError."""
    import sys
    held = None if ON_MICROPYTHON else sys.modules.pop("slotboot", None)  # (MicroPython:
    try:  # from source, each use would compile it on a heap the other tests leave in pieces)
        assert slots.pack("a", "r", "T", 0) == b"SarT0" + b"%02x" % (sum(b"SarT0") & 255)
        assert slots.REC == "slots.rec" and slots.NOTE == "slots.note" and slots.TRIES == 2
        assert ON_MICROPYTHON or "slotboot" not in sys.modules
        raises(AttributeError, getattr, slots, "nothing_of_the_sort")
    finally:
        if held is not None:
            sys.modules["slotboot"] = held
