"""Whole games of cribbage between computer players, through the board's match engine.

    python tools/sim/simulate.py --games 1000 --players 2 [--seed 1] [--strategy greedy]
        [--target 121|61] [--cards 5] [--json]

Strategies (tools/host/dealer/autoplay.py): random (random discards and legal plays), discard
(the advisor's best discard by expected show points, random plays), greedy (advisor's discard,
then the play that pegs most at once). One for every seat, or a comma list per seat:
--strategy greedy,random. Shuffles are Fisher-Yates on the engine's deck (deal.shuffle) from a
seeded generator, so the same arguments print the same numbers.

Prints: average points per hand, per crib and per player in the play (per deal), heels per
deal, skunk/lurch rates, game length in deals, and how often the first dealer's side wins.
Only hands and cribs actually shown count: a game pegged out mid-show stops counting there.
--cards 5 plays five-card cribbage (docs/five-card.md: two players to 61, a hand of three, a
lurch under 31); its pone's three for last are not play points.
"""

import argparse
import json
import sys

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from dealer import autoplay
from cribbage.match import Match
from board.screen import RESULTS  # the result names, as the board says them


class Stats:
    def __init__(self):
        self.hands = self.hand_pts = 0
        self.pone_hands = self.pone_pts = 0
        self.dealer_hands = self.dealer_pts = 0
        self.cribs = self.crib_pts = 0
        self.play_pts = 0
        self.heels = 0
        self.deals = 0
        self.games = 0
        self.first_dealer_wins = 0
        self.results = {}
        self.lengths = []
        self.loser_scores = []
        self.wins = {}

    def seen(self, m, what, seat, pts, cards):
        if what == "deal":
            self.deals += 1
        elif what == "starter":
            self.heels += pts == 2
        elif what == "play" or what == "go":
            self.play_pts += pts
        elif what == "hand":
            self.hands += 1
            self.hand_pts += pts
            if seat == m.pone():
                self.pone_hands += 1
                self.pone_pts += pts
            elif seat == m.dealer:
                self.dealer_hands += 1
                self.dealer_pts += pts
        elif what == "crib":
            self.cribs += 1
            self.crib_pts += pts

    def game_over(self, m, first_dealer):
        self.games += 1
        self.lengths.append(m.deals)
        self.first_dealer_wins += m.winner == m.side_of(first_dealer)
        self.wins[m.winner] = self.wins.get(m.winner, 0) + 1
        name = RESULTS[m.result]
        self.results[name] = self.results.get(name, 0) + 1
        self.loser_scores.append(max(s for i, s in enumerate(m.score) if i != m.winner))


def run(games, players, seed, strategies, target=121, cards=6):
    """Play `games` games (cards 5: five-card cribbage, two players to 61); returns the
    Stats."""
    stats = Stats()
    rand = autoplay.seeded(seed)
    for _ in range(games):
        m = Match(players=players, target=target, cards=cards)
        first = autoplay.cut_for_deal(m, rand)
        autoplay.play_game(m, rand, strategies, stats.seen)
        stats.game_over(m, first)
    return stats


def _avg(total, n):
    return total / n if n else 0.0


def summary(stats, players):
    n = stats.games
    lengths = sorted(stats.lengths)
    return {
        "games": n,
        "players": players,
        "points per hand": round(_avg(stats.hand_pts, stats.hands), 3),
        "points per pone hand": round(_avg(stats.pone_pts, stats.pone_hands), 3),
        "points per dealer hand": round(_avg(stats.dealer_pts, stats.dealer_hands), 3),
        "points per crib": round(_avg(stats.crib_pts, stats.cribs), 3),
        "play points per player per deal": round(_avg(stats.play_pts, stats.deals * players), 3),
        "heels per deal": round(_avg(stats.heels, stats.deals), 4),
        "skunk rate": round(_avg(n - stats.results.get("win", 0), n), 4),
        "results": dict(sorted(stats.results.items())),
        "deals per game": round(_avg(sum(lengths), n), 2),
        "deals per game min/median/max": [lengths[0], lengths[n // 2], lengths[-1]] if n else [],
        "first dealer's side wins": round(_avg(stats.first_dealer_wins, n), 4),
        "loser's average score": round(_avg(sum(stats.loser_scores), n), 2),
        "wins by side": [stats.wins.get(i, 0) for i in range(max(stats.wins) + 1)] if n else [],
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 5, 6))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strategy", default="greedy",
                    help="random, discard or greedy; or one per seat, comma-separated")
    ap.add_argument("--target", type=int, default=None, choices=(121, 61),
                    help="the game's holes (default 121; 61 with --cards 5)")
    ap.add_argument("--cards", type=int, default=6, choices=(6, 5),
                    help="5: five-card cribbage (two players to 61)")
    ap.add_argument("--json", action="store_true", help="one JSON object instead of lines")
    args = ap.parse_args(argv)
    if args.cards == 5 and (args.players != 2 or args.target not in (None, 61)):
        ap.error("--cards 5: five-card cribbage is two players to 61")
    if args.target is None:
        args.target = 61 if args.cards == 5 else 121
    names = args.strategy.split(",")
    if len(names) == 1:
        names = names * args.players
    if len(names) != args.players or any(n not in autoplay.NAMES for n in names):
        ap.error("--strategy: %s, or %d of them separated by commas"
                 % (", ".join(autoplay.NAMES), args.players))
    if args.games < 1:
        ap.error("--games must be 1 or more")
    strategies = [autoplay.NAMES.index(n) for n in names]
    out = summary(run(args.games, args.players, args.seed, strategies, args.target,
                      args.cards), args.players)
    out["strategy"] = ",".join(names)
    out["seed"] = args.seed
    out["target"] = args.target
    if args.cards == 5:  # (six-card: no key, as before)
        out["cards"] = 5
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print("%-32s %s" % (k, v))
    return 0


if __name__ == "__main__":
    sys.exit(main())
