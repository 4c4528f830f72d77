"""board/fault.py's loader lets go exactly what its table says (issue 33: the memory policy in
one table): load() brings a module in, modules() names the ones of policy h loaded before a
call, release() drops those of policy 1 whatever was loaded before, those of policy h loaded
since, and nothing else (the kept, the resident, a module the table does not name). Runs on
CPython and on MicroPython (make test-mp), with stand-in modules in the real sys.modules."""

import sys

from board import fault

ONE = "board.later"  # a module of each policy (fault.table; host_tests/test_memory_table.py
H = "board.export"  # holds the table to the code)
H2 = "publish.contract"
KEPT = "board.menutext"
OTHER = "board.nowhere"  # named by no policy


class _Module:
    """A stand-in module: what sys.modules holds, with attributes."""


def _put(names):
    """Stand-ins for names in sys.modules (and each on its package, as an import leaves it)."""
    for name in names:
        sys.modules[name] = _Module()
        pkg, _, last = name.rpartition(".")
        if pkg in sys.modules:
            setattr(sys.modules[pkg], last, sys.modules[name])


def _state():
    """sys.modules as it is (release() may drop the session's own modules: put back)."""
    return dict(sys.modules)


def _back(state):
    """sys.modules and the packages' attributes as in state."""
    for name in list(sys.modules):
        if name not in state:
            sys.modules.pop(name)
    for name, m in state.items():
        sys.modules[name] = m
        pkg, _, last = name.rpartition(".")
        if pkg in state and getattr(state[pkg], last, None) is not m:
            setattr(state[pkg], last, m)


def test_the_table_names_each_policy():
    assert (" %s " % ONE) in fault.table[0] and (" %s " % H) in fault.table[1]
    assert (" %s " % H2) in fault.table[1]
    for name in (KEPT, OTHER):
        assert (" %s " % name) not in fault.table[0] + fault.table[1]


def test_release_drops_policy_1_and_the_h_loaded_since_and_nothing_else():
    before = _state()
    try:
        for name in (ONE, H, KEPT, OTHER):  # (not loaded before the call: another test may
            sys.modules.pop(name, None)  # have: put back after)
        _put(["publish", H2])  # loaded before the call: kept
        pkg = sys.modules["publish"]
        had = fault.modules()
        assert H2 in had and "publish" in had and KEPT not in had
        _put([ONE, H, KEPT, OTHER])  # loaded for the call
        assert getattr(pkg, "contract", None) is sys.modules[H2]
        fault.release(had)
        assert ONE not in sys.modules and H not in sys.modules  # let go
        assert H2 in sys.modules and KEPT in sys.modules and OTHER in sys.modules  # kept
        assert "publish" in sys.modules and getattr(pkg, "contract", None) is sys.modules[H2]
        assert getattr(sys.modules["board"], "export", None) is None  # (off its package too)
        fault.release([k for k in had if k != H2 and k != "publish"])  # (then not had: go)
        assert H2 not in sys.modules and "publish" not in sys.modules
        assert KEPT in sys.modules and OTHER in sys.modules
    finally:
        _back(before)


def test_policy_1_goes_even_when_the_board_had_it():
    before = _state()
    try:
        _put([ONE])
        had = fault.modules() + [ONE]  # (modules() names only policy h: one had anyway)
        fault.release(had)
        assert ONE not in sys.modules
    finally:
        _back(before)


def test_a_module_named_to_modules_goes_even_when_the_board_had_it():
    # the game's record (board/app.py): board.history let go after it, whoever loaded it,
    # while the other h modules the board had stay
    before = _state()
    try:
        _put(["publish", H2, H])
        had = fault.modules(H)
        assert H not in had and H2 in had
        fault.release(had)
        assert H not in sys.modules and H2 in sys.modules
    finally:
        _back(before)


def test_load_imports_once_and_returns_the_module():
    before = _state()
    try:
        m = sys.modules.get("cribbage.cards")
        assert fault.load("cribbage.cards") is sys.modules["cribbage.cards"]
        assert m is None or fault.load("cribbage.cards") is m
        _put([H])
        assert fault.load(H) is sys.modules[H]  # (loaded: not imported again)
    finally:
        _back(before)


def test_load_without_room_is_a_memory_error_before_the_import():
    class Short:
        def mem_free(self):
            return 100

        def collect(self):
            pass

    real = fault.gc
    fault.gc = Short()
    before = _state()
    try:
        try:
            fault.load(OTHER)
            raise AssertionError("no MemoryError")
        except MemoryError:
            pass
        assert OTHER not in sys.modules
    finally:
        fault.gc = real
        _back(before)


def test_release_allocates_nothing():
    # Under the page's flood a copy of sys.modules' names to walk failed for memory, and what
    # a request had loaded stayed for good (each later request counted it as the board's).
    # On MicroPython the heap is locked for the call: one allocation would be a MemoryError.
    # (The package is the real board package, as on a board: a stand-in object's __dict__
    # is made for each look on MicroPython, a module's is its own.)
    before = _state()
    try:
        _put([ONE, H])
        had = []
        try:
            import micropython

            lock, unlock = micropython.heap_lock, micropython.heap_unlock
        except (ImportError, AttributeError):  # CPython: the same calls, no lock to take
            lock = unlock = lambda: None
        lock()
        try:
            fault.release(had)
        finally:
            unlock()
        assert ONE not in sys.modules and H not in sys.modules
        assert getattr(sys.modules["board"], "export", None) is None
        assert getattr(sys.modules["board"], "later", None) is None
    finally:
        _back(before)
