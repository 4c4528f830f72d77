"""Score a show hand and say the count: python tools/player/score.py 5H 5C 5S JD 5D [--crib]

Four hand cards then the starter (a hand or, with --crib, the crib of the six-card game or of
the five-card game); three hand cards then the starter: a hand of five-card cribbage. Prints
each item (fifteens, pairs, runs, flush, nobs), the count as a player says it, and the total
(the core's score.hand: the rules are the core's, never this tool's). A bad card: one line on
stderr, exit status 2. --help says this.
"""

import argparse
import sys

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from cribbage import cards, score, spoken
from dealer import cardtext

USAGE = ("usage: score.py CARD CARD CARD [CARD] STARTER [--crib]   (cards like 5H 10D JS AC; "
         "score.py --help)")
EPILOG = """examples:
  score.py 5H 5C 5S JD 5D          a six-card game's hand: 29
  score.py 2H 4H 6H 8H QC --crib   a crib: its flush counts only with the starter's suit
  score.py 5H 5C 5S 5D             a five-card game's hand (three cards and the starter): 20
Cards: rank A 2-10 J Q K, suit C D H S (5H, 10D, JS, AC); or 5\u2665. The last card is the
starter. A five-card game's crib is four cards and the starter, as a six-card game's."""


def parse(argv):
    """The options and the cards as typed: (crib, words), or exit (--help, an unknown
    option) as argparse does."""
    ap = argparse.ArgumentParser(
        prog="score.py", usage=USAGE[len("usage: "):],
        description="Score a show hand or crib and say the count as a player says it.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cards", nargs="*", metavar="CARD",
                    help="3 or 4 hand cards (4 for a crib), then the starter")
    ap.add_argument("--crib", action="store_true",
                    help="score a crib (four cards and the starter: a flush needs all five)")
    a = ap.parse_args(argv)
    return a.crib, a.cards


def main(argv):
    crib, words = parse(argv)
    try:
        given = cardtext.parse_many(" ".join(words))
        if crib and len(given) != 5:
            raise ValueError("a crib is 4 cards and the starter, got %d card%s"
                             % (len(given), "" if len(given) == 1 else "s"))
        if len(given) not in (4, 5):
            raise ValueError("need 4 hand cards (3 in five-card cribbage) and the starter, "
                             "got %d card%s" % (len(given), "" if len(given) == 1 else "s"))
        hand, starter = given[:-1], given[-1]
        total = score.hand(hand, starter, crib)  # the count: the core's, which validates
        items = spoken.breakdown(hand, starter, crib)
    except ValueError as e:
        return fail(str(e))
    print("%s%s %s + starter %s" % ("crib" if crib else "hand",
                                    " (five-card cribbage)" if len(hand) == 3 else "",
                                    cards.fmt_many(hand), cards.fmt(starter)))
    for item in items:
        print("  " + describe(item))
    print(spoken.spoken(items))
    print("total %d" % total)
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
