"""Score a show hand and say the count: python tools/score.py 5H 5C 5S JD 5D [--crib]

Four hand cards then the starter. Prints each item (fifteens, pairs, runs, flush, nobs), the
count as a player says it, and the total. A bad card: one line on stderr, exit status 2.
"""

import sys

import hostenv  # noqa: F401  (firmware/ on sys.path)
from cribbage import cards, cardtext, spoken

USAGE = "usage: score.py CARD CARD CARD CARD STARTER [--crib]   (cards like 5H 10D JS AC)"


def main(argv):
    crib = "--crib" in argv
    words = [a for a in argv if a != "--crib"]
    options = [w for w in words if w.startswith("-")]
    if options:
        return fail("unknown option %s. %s" % (options[0], USAGE))
    try:
        given = cardtext.parse_many(" ".join(words))
        if len(given) != 5:
            raise ValueError("need 4 hand cards and the starter, got %d card%s"
                             % (len(given), "" if len(given) == 1 else "s"))
        hand, starter = given[:4], given[4]
        items = spoken.breakdown(hand, starter, crib)
    except ValueError as e:
        return fail(str(e))
    print("%s %s + starter %s" % ("crib" if crib else "hand", cards.fmt_many(hand),
                                  cards.fmt(starter)))
    for item in items:
        print("  " + describe(item))
    print(spoken.spoken(items))
    print("total %d" % sum(i[2] for i in items))
    return 0


def describe(item):
    """One item of the count as a line: 'fifteen  5H 10C  2'."""
    kind, cards_of, pts = item
    return "%-18s %-16s %2d" % (kind, cards.fmt_many(cards_of), pts)


def fail(msg):
    sys.stderr.write("score.py: %s\n" % msg)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
