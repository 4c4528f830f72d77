"""Rank every discard of a dealt hand: python tools/player/advise.py 5H 5C JD 6S 4C KH [--dealer]

Six cards (two players: throw two) or five (three or four players: throw one). --dealer when
the crib is yours (four players: your side's). Prints each discard best first with its expected
points: the kept hand's exact average over every unseen starter, plus the crib table's value
when the crib is yours, minus it when it is not. A bad card: one line on stderr, exit status 2.
"""

import sys

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from cribbage import advise, cards
from dealer import cardtext

USAGE = "usage: advise.py CARD x6 (or x5) [--dealer]   (cards like 5H 10D JS AC)"


def main(argv):
    if "--help" in argv or "-h" in argv:
        print(USAGE + "\n\n" + __doc__)
        return 0
    dealer = "--dealer" in argv
    words = [a for a in argv if a != "--dealer"]
    options = [w for w in words if w.startswith("-")]
    if options:
        return fail("unknown option %s. %s" % (options[0], USAGE))
    try:
        dealt = cardtext.parse_many(" ".join(words))
        ranked = advise.details(dealt, dealer)
    except ValueError as e:
        return fail("%s. %s" % (e, USAGE))
    print("%s, %s crib" % (cards.fmt_many(dealt), "your" if dealer else "the opponent's"))
    print("  %-8s %-12s %6s %6s %6s" % ("throw", "keep", "hand", "crib", "total"))
    for pts, throw, hand, crib in ranked:
        keep = [c for i, c in enumerate(dealt) if i not in throw]
        print("  %-8s %-12s %6.2f %+6.2f %6.2f" % (
            cards.fmt_many([dealt[i] for i in throw]), cards.fmt_many(keep), hand, crib, pts))
    best = ranked[0][1]
    print("throw %s (cards %s)" % (cards.fmt_many([dealt[i] for i in best]),
                                   " and ".join(str(i + 1) for i in best)))
    return 0


def fail(msg):
    sys.stderr.write("advise.py: %s\n" % msg)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
