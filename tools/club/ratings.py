"""Players' ratings (issue 36): an Elo rating per named player, updated by every counted game
in the order the club stored them, computed again from the stored games whenever asked, so a
revised or withdrawn game (store.py) changes every rating after it back exactly.

Why Elo: Kings Cribbage publishes its rating as a subset of chess's (a linear form: new = old
+ 21 S + (opponent - old) / 25, S +1 a win, -1 a loss, from 1500; kingscribbageonline.com's
ratings_explained page); we take the logistic form it approximates, which needs nothing but
who beat whom, never gives a favourite less than nothing for a win however wide the gap (the
linear form has to be clamped there), and covers two sides and three. The formula
(docs/club.md):

    expected  E_a = 1 / (1 + 10 ** ((R_b - R_a) / SCALE))
    after     R_a' = R_a + K * (S_a - E_a)      S_a: 1 a win, 0 a loss

START 1500, K 32, SCALE 400 (chess's usual figures; a cribbage game carries more luck than a
chess game, so K is not raised above chess's for newcomers). A side's rating is the mean of
its players' (partners, 4 and 6 players); every player of a side gets the side's change. Three
sides: the winner beats each other side, the two losers are not compared (the board ranks
only the winner), each pair's change counted with K / (sides - 1) so that a game moves a
player as much as a two-sided game would. A seat with no name is a player of START who is
never kept. A skunk counts as a win (the game points say how big).
"""

START = 1500.0
K = 32.0
SCALE = 400.0


def expected(ra, rb):
    return 1.0 / (1.0 + 10.0 ** ((rb - ra) / SCALE))


def step(r, hist, gid, sides, win, names):
    """One game rated: r {name: rating} and hist {name: [(game id, rating after)]} updated for
    game gid of sides sides won by side win, names[side] the names seated there (None: an
    unnamed seat). The one step of rate() and of tally.py's incremental tally (exact alike)."""
    side_r = [sum(r.get(n, START) if n else START for n in ns) / len(ns) if ns else START
              for ns in names]
    k = K / max(1, sides - 1)
    delta = [0.0] * sides
    for j in range(sides):
        if j == win:
            continue
        d = k * (1.0 - expected(side_r[win], side_r[j]))
        delta[win] += d
        delta[j] -= d
    for j, ns in enumerate(names):
        for n in ns:
            if n:
                r[n] = r.get(n, START) + delta[j]
                hist.setdefault(n, []).append((gid, r[n]))


def rate(games, ratings=None):
    """Ratings after these games (oldest first): {name: rating}, and the history {name:
    [(game id, rating after)]}. Games with no named winner and loser change nothing."""
    r = dict(ratings or {})
    hist = {}
    for msg in games:
        game = msg["game"]
        sides = game["sides"]
        names = [[] for _ in range(sides)]
        for seat in msg["seats"]:
            names[seat["side"]].append(seat["name"])
        step(r, hist, msg["id"], sides, game["winner"], names)
    return r, hist


def table_of(r, hist):
    """Rows name, rating, games, best first, from rate()'s ratings and history."""
    return [{"name": n, "rating": round(v, 1), "games": len(hist[n])}
            for n, v in sorted(r.items(), key=lambda kv: (-kv[1], kv[0].lower(),
                                                             kv[0]))]
