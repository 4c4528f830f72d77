"""One home for what the display shows, and one reader of the play's bits (issue 21), read
from the source with ast:

* board/menu.py decides what the keys mean in the menu, the penalty entry, the statistics and
  the advisor (it returns commands, board/modes.py) and builds no line of the display: no
  string formatted or joined there but a refusal's words (REFUSE, ...), no list of lines,
  nothing of board/screen.py or board/text.py. The display's lines on those pages are
  board/menutext.py's (page(), asked by board/text.py when a page shows: loaded only then).
* The bits of what a card in the play made (cribbage/score.py's play_parts) are laid out and
  read in score.py only: no other firmware module shifts or masks them (spoken.play_why reads
  them through score.play_cards and play_points, and names only the flags).
"""

import ast
import os

from sourcekit import FIRMWARE, firmware_sources

MENU = os.path.join(FIRMWARE, "board", "menu.py")
SCORE = os.path.join(FIRMWARE, "cribbage", "score.py")


def _parents(tree):
    up = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            up[child] = node
    return up


def _texty(node):
    """True if node is a string, or a string formatted or joined."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)):
        return _texty(node.left) or _texty(node.right)
    return False


def _refusal(node, up):
    """True if node is inside a (REFUSE, ...) command."""
    while node in up:
        node = up[node]
        if isinstance(node, ast.Tuple) and node.elts and isinstance(node.elts[0], ast.Name) \
                and node.elts[0].id == "REFUSE":
            return True
    return False


def display_text_built(source):
    """Where source builds display text: [(line, what)]. A string formatted or joined outside
    a refusal, a string put into a list (append, extend, insert), an import of the display's
    modules."""
    tree = ast.parse(source)
    up = _parents(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and _texty(node) and not _refusal(node, up):
            found.append((node.lineno, "text formatted"))
        elif isinstance(node, ast.JoinedStr) and not _refusal(node, up):
            found.append((node.lineno, "f-string"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("append", "extend", "insert") \
                and any(_texty(a) or (isinstance(a, (ast.Tuple, ast.List))
                                      and any(_texty(e) for e in a.elts)) for a in node.args):
            found.append((node.lineno, "a line of text added"))
        elif isinstance(node, ast.ImportFrom) and node.module in ("board.screen", "board.text",
                                                                  "board.menutext"):
            found.append((node.lineno, "imports " + node.module))
        elif isinstance(node, ast.ImportFrom) and node.module == "board" \
                and any(a.name in ("screen", "text", "menutext") for a in node.names):
            found.append((node.lineno, "imports the display's module"))
    return found


def test_the_menu_builds_no_line_of_the_display():
    with open(MENU) as f:
        found = display_text_built(f.read())
    assert found == [], "board/menu.py builds display text (board/text.py's job): %r" % found


def test_the_finder_sees_display_text_and_lets_a_refusal_be():
    built = ('from board.screen import seat_name\n'
             'def lines(app, out):\n'
             '    out.append("MENU %d/%d" % (1, 2))\n'
             '    out.extend(("A/B move", "# ok"))\n'
             '    return "> " + str(app.e.num)\n')
    assert sorted(display_text_built(built)) == [
        (1, "imports board.screen"), (3, "a line of text added"), (3, "text formatted"),
        (4, "a line of text added"), (5, "text formatted")]
    refusals = ('def key(app, err):\n'
                '    if err:\n'
                '        return (REFUSE, "history unreadable (%s)" % err)\n'
                '    return (REFUSE, "A-D, OK or *")\n')
    assert display_text_built(refusals) == []


# the play's bits: a value holding them is named parts (score.py, spoken.py, pegging.py) or is
# a match's last_play
def _bits(node):
    return (isinstance(node, ast.Name) and node.id == "parts") or (
        isinstance(node, ast.Attribute) and node.attr == "last_play")


def play_bits_read(source):
    """Lines of source that shift the play's bits, or mask them with a number (the layout),
    rather than test a named flag (PLAY_15, PLAY_31, PLAY_LAST, PLAY_GO)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.BinOp, ast.AugAssign)):
            a, b = (node.left, node.right) if isinstance(node, ast.BinOp) else (node.target,
                                                                                 node.value)
            if not (_bits(a) or _bits(b)):
                continue
            if isinstance(node.op, (ast.RShift, ast.LShift)) or (
                    isinstance(node.op, ast.BitAnd)
                    and isinstance(a if _bits(b) else b, ast.Constant)):
                found.append(node.lineno)
    return found


def test_only_the_scorer_knows_the_layout_of_the_plays_bits():
    readers = {}
    for rel, path, source in firmware_sources():
        if path != SCORE:
            lines = play_bits_read(source)
            if lines:
                readers[rel] = lines
    assert readers == {}, "the play's bits read outside cribbage/score.py: %r" % readers
    with open(SCORE) as f:
        assert play_bits_read(f.read())  # (the finder sees the scorer's own reading)


def test_the_finder_sees_a_read_of_the_bits():
    assert play_bits_read("k = parts >> 2 & 7\n") == [1]
    assert play_bits_read("r = m.last_play & 0xE0\n") == [1]
    assert play_bits_read("if parts & PLAY_GO:\n    parts |= PLAY_LAST\n") == []
