"""The count item by item, for people: breakdown() lists what a hand scores (fifteens, pairs,
runs, flush, nobs), spoken() says it ("fifteen two, fifteen four and a pair is six");
play_why() says what a card in the play made ("15 and a pair, 4": score.py's PLAY_* bits,
read through score.py, which alone knows their layout).

Loaded by the board's display text, the tools and the tests; it allocates freely. The board
itself scores with score.py (allocation-free); tools/tables/tablegen.py builds the advisor's
ranks' table from rank_items() here, and the tests check the three agree on every hand.
"""

from .cards import PIP, JACK
from . import score

from micropython import const

# The kinds of items, as they are said; an item's kind is its string here: KINDS[_FIFTEEN] is
# "fifteen". (Strings in a constant tuple are objects: a name of their own per kind would be
# one more interned on a board for good.)
KINDS = ("fifteen", "pair", "pair royal", "double pair royal", "run", "flush", "nobs")
_FIFTEEN = const(0)
_PAIR = const(1)
_RUN = const(4)
_FLUSH = const(5)
_NOBS = const(6)


def rank_items(cards):
    """Fifteens, pairs and runs in these cards (any number), as (kind, cards, points) items
    in the order they are said. Depends only on ranks; the tables are built from it."""
    n = len(cards)
    items = []
    for m in range(1, 1 << n):
        total = 0
        for i in range(n):
            if m >> i & 1:
                total += PIP[cards[i]]
        if total == 15:
            fifteen = []  # (loops, not comprehensions: each of those is code of its own kept
            for i in range(n):  # on a board's heap, ~70 bytes on a 64-bit port)
                if m >> i & 1:
                    fifteen.append(cards[i])
            items.append((KINDS[_FIFTEEN], tuple(fifteen), 2))
    by_rank = []
    for _ in range(13):
        by_rank.append([])
    for c in cards:
        by_rank[c >> 2].append(c)
    for group in by_rank:
        k = len(group)
        if k >= 2:
            items.append((KINDS[_PAIR + k - 2], tuple(group), k * (k - 1)))  # pair, royal, double
    # Runs: every maximal stretch of three or more consecutive ranks, once per way of
    # choosing one card of each rank (4-4-5-6-6 is four runs of three).
    r = 0
    while r < 13:
        if not by_rank[r]:
            r += 1
            continue
        end = r
        while end + 1 < 13 and by_rank[end + 1]:
            end += 1
        if end - r >= 2:
            runs = [()]
            for q in range(r, end + 1):
                longer = []
                for run in runs:
                    for c in by_rank[q]:
                        longer.append(run + (c,))
                runs = longer
            for run in runs:
                items.append((KINDS[_RUN], run, len(run)))
        r = end + 1
    return items


def breakdown(hand, starter, crib=False):
    """The count as a player says it: a list of (kind, cards, points) items, fifteens first,
    then pairs, runs, flush and nobs. The points add up to score_hand(hand, starter, crib)
    (three cards: a hand of five-card cribbage, score.hand)."""
    if len(hand) == 3 and not crib:
        from .score import hand as count  # (a name a board has anyway)

        total = count(hand, starter)  # validates
    else:
        total = score.score_hand(hand, starter, crib)  # validates
    items = rank_items(list(hand) + [starter])
    suit = hand[0] & 3
    flush = True
    for c in hand:
        if c & 3 != suit:
            flush = False
    if flush:
        if starter & 3 == suit:
            items.append((KINDS[_FLUSH], tuple(hand) + (starter,), len(hand) + 1))
        elif not crib:
            items.append((KINDS[_FLUSH], tuple(hand), len(hand)))
    for c in hand:
        if c >> 2 == JACK and c & 3 == starter & 3:
            items.append((KINDS[_NOBS], (c,), 1))
    assert sum(i[2] for i in items) == total
    return items


def number_word(n):
    if n <= 20:  # (the words in one string: 21 string objects were ~1.3 KB of a board's heap)
        w = ("nought one two three four five six seven eight nine ten eleven twelve thirteen "
             "fourteen fifteen sixteen seventeen eighteen nineteen twenty ")
        i = 0
        for _ in range(n):
            i = w.find(" ", i) + 1
        return w[i:w.find(" ", i)]
    return "twenty-" + number_word(n - 20) if n < 30 else str(n)


def spoken(items):
    """'fifteen two, fifteen four, and a pair is six, ...' with the running total."""
    words = []
    total = 0
    for kind, cards, pts in items:
        total += pts
        if kind == KINDS[_FIFTEEN]:
            words.append("fifteen " + number_word(total))
        elif kind == KINDS[_NOBS]:
            words.append("one for his nobs is " + number_word(total))
        elif kind == KINDS[_RUN]:
            words.append("a run of %s is %s" % (number_word(len(cards)), number_word(total)))
        else:
            words.append("a %s is %s" % (kind, number_word(total)))
    if not words:
        return "nineteen (nothing)"
    if len(words) > 1:
        words[-1] = "and " + words[-1]
    return ", ".join(words)


# play_why's words, by their place in its table
_W_PAIR = const(0)
_W_15 = const(1)
_W_31 = const(2)
_W_LAST = const(3)


def play_why(parts):
    """What a card in the play made, in words, from play_parts()'s bits (score.py: this reads
    them through play_points() and play_cards()): "15 for 2", "pair 2", "run of 4", "31 for
    2", "last card 1", "15 and a pair, 4"."""
    # its words (a constant tuple: strings in it are objects, not names interned on the board
    # for good; pair royal and double pair royal are KINDS')
    words = ("a pair", "15", "31", "last card")
    said = []
    if parts & score.PLAY_15:
        said.append(words[_W_15])
    if parts & score.PLAY_31:
        said.append(words[_W_31])
    same, run = score.play_cards(parts)  # the cards of its rank at the end of the pile, its run
    if same > 1:
        said.append(words[_W_PAIR] if same == 2 else KINDS[_PAIR + same - 2])
    if run:
        said.append("run of %d" % run)
    if parts & score.PLAY_GO:
        said.append("go")
    if parts & score.PLAY_LAST:
        said.append(words[_W_LAST])
    pts = score.play_points(parts)
    if len(said) > 1:
        return "%s and %s, %d" % (", ".join(said[:-1]), said[-1], pts)
    w = said[0] if said else ""
    if w[:3] == "run":
        return w  # its points are its length
    if w == words[_W_15] or w == words[_W_31]:
        return "%s for %d" % (w, pts)
    return "%s %d" % (w[2:] if w == words[_W_PAIR] else w, pts)
