"""The discard advisor as a player strategy for simulations, and a show-only comparison.

advisor_discard(hand, dealer) -> the cards to throw (one or two card ints), chosen by
cribbage.advise.best_discards: kept hand's exact average over the unseen starters, plus the
crib table's value for your own crib, minus it for the opponent's. hand_only_discard() is the
same without the crib term (the best average hand, whoever's crib it is), for comparison.

tools/sim/simulate.py imports this for `--strategy advisor`. Run on its own it plays N two-player
deals of the show only (no pegging: every deal both hands, the crib and the starter are
scored) and prints how many points a deal the advisor gains over the other strategies, then
plays N/10 whole games through the match engine against a greedy-show player:
    python tools/sim/advisor_player.py [N] [--seed S]
"""

import random
import sys

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from cribbage import advise
from cribbage.score import score_hand


def advisor_discard(hand, dealer):
    """The cards to throw from 6 (or 5) dealt cards: the advisor's best discard."""
    throw = advise.best_discards(hand, dealer, 1)[0][1]
    return [hand[i] for i in throw]


def hand_only_discard(hand, dealer):
    """The cards to throw keeping the four with the best average hand; the crib is ignored."""
    m = advise.rank(hand, dealer)
    best = 0
    for k in range(1, m):
        if advise.HAND[k] > advise.HAND[best]:
            best = k
    throws = advise.THROWS6 if m == 15 else advise.THROWS5
    return [hand[i] for i in throws[best]]


def first_four_discard(hand, dealer):
    """Throw the last cards dealt: a strategy that does not look (a floor for comparison)."""
    return list(hand[4:])


STRATEGIES = {"advisor": advisor_discard, "hand-only": hand_only_discard,
              "first-four": first_four_discard}


def show_deal(deck, me, other, i_deal):
    """Show points of one deal for the player using `me` against one using `other`: my hand
    (+ my crib when I deal) minus the opponent's hand (+ crib). deck: 13+ shuffled cards."""
    mine, theirs = list(deck[0:6]), list(deck[6:12])
    starter = deck[12]
    t_mine = me(mine, i_deal)
    t_theirs = other(theirs, not i_deal)
    keep_mine = [c for c in mine if c not in t_mine]
    keep_theirs = [c for c in theirs if c not in t_theirs]
    crib = t_mine + t_theirs
    c = score_hand(crib, starter, True)
    net = score_hand(keep_mine, starter) - score_hand(keep_theirs, starter)
    return net + (c if i_deal else -c)


def paired_gain(n, seed, a="advisor", b="hand-only"):
    """Mean and standard error of (a's net - b's net) per deal on the same deals, both against
    b: the gain per deal of playing a instead of b."""
    rng = random.Random(seed)
    sa, sb = STRATEGIES[a], STRATEGIES[b]
    diffs = []
    for k in range(n):
        deck = rng.sample(range(52), 13)
        i_deal = k % 2 == 0
        diffs.append(show_deal(deck, sa, sb, i_deal) - show_deal(deck, sb, sb, i_deal))
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, (var / n) ** 0.5


def games(n, seed):
    """n two-player games to 121, the advisor (autoplay's greedy: advisor discard, greedy
    play) against greedy-show (best average hand, greedy play), seats alternating. Returns
    (advisor wins, games, deals, advisor minus greedy-show show points, and in the play)."""
    from dealer import autoplay
    from cribbage.match import Match

    tally = {"show": 0, "play": 0}
    adv_seat = [0]

    def seen(m, what, seat, pts, cards):
        sign = 1 if m.side_of(seat) == m.side_of(adv_seat[0]) else -1
        if what in ("hand", "crib"):
            tally["show"] += sign * pts
        elif what in ("play", "go"):
            tally["play"] += sign * pts

    rand = autoplay.seeded(seed)
    wins = deals = 0
    greedy, show = autoplay.GREEDY, autoplay.SHOW
    for g in range(n):
        adv_seat[0] = g % 2
        strategies = [greedy, show] if g % 2 == 0 else [show, greedy]
        m = Match(players=2)
        autoplay.play_game(m, rand, strategies, seen)
        wins += m.winner == m.side_of(adv_seat[0])
        deals += m.deals
    return wins, n, deals, tally["show"], tally["play"]


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("deals", nargs="?", type=int, default=20000,
                    help="two-player deals played (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="the deals' seed (default: 1)")
    a = ap.parse_args(argv)
    n, seed = a.deals, a.seed
    mean, se = paired_gain(n, seed)
    print("%d two-player deals, show only (hands + crib, no pegging), seed %d" % (n, seed))
    print("advisor vs hand-only (best average hand, crib ignored): %+.3f +/- %.3f points a deal"
          % (mean, se))
    mean, se = paired_gain(n, seed, "advisor", "first-four")
    print("advisor vs first-four (keeps the first four dealt):     %+.3f +/- %.3f points a deal"
          % (mean, se))
    g = max(n // 10, 1)
    wins, g, deals, show, play = games(g, seed)
    p = wins / g
    print("%d games to 121, advisor vs greedy-show (best average hand), both greedy in the play:"
          % g)
    print("  advisor wins %.1f%% +/- %.1f%%; per deal: show %+.3f points, play %+.3f points"
          % (100 * p, 100 * (p * (1 - p) / g) ** 0.5, show / deals, play / deals))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
