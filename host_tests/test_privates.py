"""No module reads or writes another module's private names (issue 33): read from the source
with ast, every module of firmware/.

A name is private when it starts with one underscore (not a dunder). It may be reached only
as `self._x` (or `cls._x`) in a method of the class that defines `_x` (a method or attribute
of its body, or `self._x = ...` in one of its methods), or of a base class the same module
defines; nested functions inside such a method count as the method. Anything else is a reach
into another's private: `m._j`, `jl._replay`, `self._x` in a module-level function (a function
bound on a class from another module), a subclass reading its base's private from another
module, and `from m import _x`. getattr with a string is not looked at.

The cribbage engine (firmware/cribbage) is strict. The board's modules (firmware/board/*)
are being reshaped by others as this is written: their reaches today are listed in ALLOWED,
one a line with its reason, for the lead to empty at merge; a new reach there fails too, and
so does a listed one that is gone (the list only shrinks).
"""

import ast

from sourcekit import firmware_sources

# path under firmware/ -> the reaches it has today (ast.unparse of each, once per kind).
# TO EMPTY AT MERGE: each one a board module's reach the App's and the page's reshaping
# (issue 33, items 2 and 3) removes.
ALLOWED = {
    # the geometry reads the layout's private track table
    "board/geometry.py": {"L._track"},
    # the page's server awaits asyncio's private I/O queue (MicroPython's): the one isolated,
    # tested shim (page/server.py's Readable; host_tests/test_page_server.py runs it)
    "page/server.py": {"getattr(asyncio, 'core')._io_queue"},
    # the timed keypad (a Keypad: board/keypad.py) reads its base's debounced and raw key
    # bits to park its timer when no key is down (issue 34): a method of the Keypad's would
    # cost the board an interned name; to become one when the names' margin allows
    "board/keytimer.py": {"self._raw", "self._state"},
}


def _private(name):
    return name.startswith("_") and not name.startswith("__")


def _defined(cls):
    """The private names a class defines: in its body, and as self._x = ... in its methods."""
    out = set()
    for node in cls.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.add(node.name)
            if node.args.args:
                me = node.args.args[0].arg
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store) \
                            and isinstance(sub.value, ast.Name) and sub.value.id == me:
                        out.add(sub.attr)
        elif isinstance(node, ast.Assign):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
    return {n for n in out if _private(n)}


def reaches(source, path="<test>"):
    """Every reach into another's private in the module source: [(line, text)]."""
    tree = ast.parse(source, path)
    classes = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}

    def own(cls):  # the privates a class may reach on self: its own and its local bases'
        names = _defined(cls)
        for b in cls.bases:
            if isinstance(b, ast.Name) and b.id in classes and classes[b.id] is not cls:
                names |= own(classes[b.id])
        return names

    out = []

    def visit(node, me, mine):
        # me: the name of self (or cls) here, mine: the privates it may reach (or None)
        for child in ast.iter_child_nodes(node):
            m, ok = me, mine
            if isinstance(child, ast.ClassDef):
                m, ok = None, None
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) \
                    and isinstance(node, ast.ClassDef):
                args = child.args.args
                m, ok = (args[0].arg, own(node)) if args else (None, None)
            if isinstance(child, ast.Attribute) and _private(child.attr):
                if not (isinstance(child.value, ast.Name) and child.value.id == me
                        and child.attr in ok):
                    out.append((child.lineno, ast.unparse(child)))
            elif isinstance(child, ast.ImportFrom):
                for a in child.names:
                    if _private(a.name):
                        out.append((child.lineno, "from %s%s import %s" % (
                            "." * child.level, child.module or "", a.name)))
            visit(child, m, ok)

    visit(tree, None, None)
    return out


def test_no_module_reaches_another_modules_private():
    found = {}
    n = 0
    for rel, _path, source in firmware_sources():
        n += 1
        hits = {text for _line, text in reaches(source, rel)}
        if hits:
            found[rel] = hits
    assert n > 50  # the walk saw the firmware (cribbage, board, boards)
    new = {rel: sorted(hits - ALLOWED.get(rel, set())) for rel, hits in found.items()}
    assert not {rel: h for rel, h in new.items() if h}, new
    gone = {rel: sorted(ok - found.get(rel, set())) for rel, ok in ALLOWED.items()}
    assert not {rel: g for rel, g in gone.items() if g}, "gone: empty ALLOWED of %r" % gone


def test_the_allowed_reaches_are_the_boards_only():
    # the cribbage engine is strict: nothing of it may be allowed
    assert all(rel.startswith(("board/", "page/")) for rel in ALLOWED)


def test_the_engine_as_it_was_is_caught():
    # the check itself can fail: the reaches the engine had before issue 33 (a module-level
    # function taking the Match as self, saved.py writing its privates, saved1.py driving
    # _do/_ev/_n, a private imported), and what is allowed (a class's own, a local base's)
    source = (
        "from .journal import _size\n"
        "def undo(self):\n    n = self._n\n    self._replay(n)\n"
        "def loads(data, cls):\n    m = cls()\n    m._where[59] |= 4\n    m._base_dealer = 1\n"
        "    return m\n"
        "class Match:\n"
        "    def __init__(self):\n        self._n = 0\n        self.x = 1\n"
        "    def undo(self):\n        def inner():\n            return self._n\n"
        "        return inner() + self._j\n"
        "class Sub(Match):\n    def go(self):\n        return self._n\n"
        "class Other:\n    def go(self, m):\n        return m._n + self._n\n")
    assert [t for _l, t in reaches(source)] == [
        "from .journal import _size", "self._n", "self._replay", "m._where",
        "m._base_dealer", "self._j", "m._n", "self._n"]


def test_a_subclass_in_another_module_does_not_read_its_base_private():
    # (Match(Game(Rules)) across match.py, game.py, rules.py: each reaches its own only)
    assert [t for _l, t in reaches("from .rules import Rules\nclass Game(Rules):\n"
                                   "    def f(self):\n        return self._where\n")] \
        == ["self._where"]
