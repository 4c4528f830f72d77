"""The refusal tables stay in step with their indices and their arguments.

Each firmware module that refuses things keeps its messages as one string, one a line (`_NO`),
and names the lines with `_X = const(k)` (see cribbage.events.say). Nothing at run time checks
that the names, the lines and the `%` arguments agree, so this test reads every call site:
each index names a line that exists, each call passes as many arguments as its line has `%`
fields, every line is said somewhere; and what a card played out of the play is told.
"""

import ast
import re

from cribbage import events
from sourcekit import firmware_sources

# the functions that take (table default _NO, index, args): name -> (index arg, args arg)
CALLERS = {"say": (1, 2), "_refuse": (0, 1), "no": (0, 1)}
FIELD = re.compile(r"%[-0-9.]*[sdrx]")


def modules():
    """(path, tree) of every firmware module with a refusal table."""
    for rel, _path, source in firmware_sources():
        tree = ast.parse(source)
        if table(tree) is not None:
            yield rel, tree


def table(tree):
    """The lines of the module's _NO, or None."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == ["_NO"]:
            return node.value.value.split("\n")
    return None


def consts(tree):
    """name -> value of the module's `_X = const(k)` lines."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and getattr(node.value.func, "id", "") == "const":
            out[node.targets[0].id] = ast.literal_eval(node.value.args[0])
    return out


def calls(tree):
    """(line, index node, args node or None, table node or None) of every refusal call."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if name not in CALLERS:
            continue
        i, a = CALLERS[name]
        args = node.args
        if name == "say":
            if not (args and isinstance(args[0], ast.Name)):
                continue  # say(table, k, args) inside a helper: checked at its callers
            tab = args[0]
        else:
            tab = args[2] if len(args) > 2 and name == "_refuse" else None
        if len(args) <= i:
            continue
        yield node.lineno, args[i], args[a] if len(args) > a else None, tab


def test_every_refusal_names_a_line_with_its_arguments():
    seen = 0
    for rel, tree in modules():
        lines = table(tree)
        names = consts(tree)
        said = set()
        for lineno, index, args, tab in calls(tree):
            if tab is not None and getattr(tab, "id", "_NO") != "_NO":
                continue  # another table: its own module checks it
            where = "%s:%d" % (rel, lineno)
            if isinstance(index, ast.IfExp):  # a or b: both must fit the arguments
                options = [index.body, index.orelse]
            else:
                options = [index]
            for opt in options:
                if not isinstance(opt, ast.Name) or not opt.id.isupper():
                    continue  # computed (a helper's k, pegging's phase): checked elsewhere
                assert opt.id in names, where + ": %s is not a const of the module" % opt.id
                k = names[opt.id]
                assert 0 <= k < len(lines), where + ": %s = %d, the table has %d lines" % (
                    opt.id, k, len(lines))
                said.add(k)
                want = len(FIELD.findall(lines[k]))
                if args is None:
                    got = 0
                elif isinstance(args, ast.Tuple):
                    got = len(args.elts)
                else:
                    continue  # a variable: not countable here
                assert got == want, where + ": %r takes %d arguments, given %d" % (
                    lines[k], want, got)
                seen += 1
        if rel == "cribbage/pegging.py":
            said.update(range(events.OVER + 1))  # say(_NO, self.phase)
        unsaid = [lines[k] for k in range(len(lines)) if k not in said]
        assert not unsaid, "%s: lines never said: %r" % (rel, unsaid)
    assert seen > 60  # the walk found the call sites (a broken walk must not pass)


def test_a_card_played_out_of_the_play_is_refused_by_phase():
    """What the board says to a card played outside the play, in each phase of a whole game
    (pegging's first lines, by phase number; the game over is the match's own word)."""
    from dealer import autoplay
    from cribbage.match import Match

    def refusal(m):
        before = m.dumps()
        try:
            m.play(0)
        except ValueError as e:
            assert m.dumps() == before
            return str(e)
        raise AssertionError("played in phase %d" % m.phase)

    m = Match(players=2)
    said = {m.phase: refusal(m)}
    rand = autoplay.seeded(1)
    autoplay.cut_for_deal(m, rand)

    def seen(m, what, *_):
        if m.phase != events.PLAY:
            said.setdefault(m.phase, refusal(m))

    autoplay.play_game(m, rand, [autoplay.GREEDY] * 2, seen)
    said.setdefault(m.phase, refusal(m))
    assert said == {events.DEAL: "no play now: deal first",
                    events.STARTER: "no play now: turn the starter first",
                    events.SHOW: "no play now: the play is over",
                    events.OVER: "the game is over: undo, or start the next game"}


def test_a_drifted_table_is_caught(tmp_path, monkeypatch):
    # the check itself can fail: one line fewer than the consts name
    src = ('_NO = """one %d\ntwo"""\n_ONE = const(0)\n_TWO = const(2)\n'
           'def f():\n    say(_NO, _ONE, (1,))\n    say(_NO, _TWO)\n')
    tree = ast.parse(src)
    monkeypatch.setattr(__import__(__name__), "modules", lambda: [("x.py", tree)])
    try:
        test_every_refusal_names_a_line_with_its_arguments()
    except AssertionError as e:
        assert "_TWO = 2, the table has 2 lines" in str(e)
    else:
        raise AssertionError("a drifted table passed")
