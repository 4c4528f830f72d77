"""A club tournament: who plays whom at which table, game by game, and the top quarter's
knock-out bracket.

Pairing is a rotation (the circle method of a round robin), not a Swiss draw: with p players
(an odd count gets a bye, "None") it gives p-1 rounds in which nobody meets anyone twice, so
nine games need ten players or more; the whole night's draw is known before the first card
(print it, post it), and a table that finishes early never waits for the slowest table's
result to learn its next opponent, which a Swiss draw by standing must. docs/club.md says more.

    rounds = rotation(players, games)     # [[(a, b), ...] per game]
    done = played_rounds(rounds, games)   # per round, per pair: the game message that settled it
    bracket(rows, games_after)            # the knock-out of the standings' top quarter
"""

from . import night


def rotation(players, games):
    """games rounds of pairs (a, b) by the circle method: player 0 stays, the others turn one
    place a round. A bye is b None. After p-1 rounds (p even; p rounds odd) the draw repeats."""
    ps = list(players)
    if len(ps) % 2:
        ps.append(None)
    n = len(ps)
    if n < 2:
        return [[] for _ in range(games)]
    fixed, rest = ps[0], ps[1:]
    out = []
    for r in range(games):
        k = r % (n - 1)
        turn = rest[len(rest) - k:] + rest[:len(rest) - k]
        ring = [fixed, *turn]
        pairs = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None:
                a, b = b, a
            pairs.append((a, b))
        # the bye last, then the tables in order
        pairs.sort(key=lambda p: p[1] is None)
        out.append(pairs)
    return out


def tables(pairs, count):
    """Each pair's table (1..count; more pairs than tables: None, they play after), the bye
    at none: a list of (table, a, b)."""
    out = []
    t = 0
    for a, b in pairs:
        if b is None:
            out.append((None, a, None))
            continue
        t += 1
        out.append((t if t <= count else None, a, b))
    return out


def _key(a, b):
    return frozenset((a, b))


def played_rounds(rounds, games):
    """For each round, for each pair: the game between those two that settled it, or None.
    Games between two players are taken in the order they came, a round at a time (a pair that
    meets twice in the draw needs two games)."""
    waiting = {}
    for msg in games:
        named = [r["name"] for r in night.results(msg)]
        if len(named) == 2:
            waiting.setdefault(_key(*named), []).append(msg)
    out = []
    for pairs in rounds:
        got = []
        for a, b in pairs:
            q = waiting.get(_key(a, b)) if b is not None else None
            got.append(q.pop(0) if q else None)
        out.append(got)
    return out


def next_round(rounds, done):
    """The first round with a pair (not a bye) still to play, or None when all are played."""
    for r, (pairs, got) in enumerate(zip(rounds, done)):
        for (_, b), g in zip(pairs, got):
            if b is not None and g is None:
                return r
    return None


def tournament_games(games, players, since):
    """The games that count for the tournament: two named players, both in it, since it began."""
    inside = set(players)
    out = []
    for msg in games:
        if msg.get("received", since) < since:
            continue
        named = [r["name"] for r in night.results(msg)]
        if len(named) == 2 and all(n in inside for n in named):
            out.append(msg)
    return out


def seeding(size):
    """The bracket's first-round order of seeds 1..size (size a power of 2): 1 meets size,
    and 1 and 2 can meet only in the final."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def _seed(m):
    """The seed of a match's winner (None: not played yet)."""
    if m["winner"] is None:
        return None
    return m["seed_a"] if m["winner"] == m["a"] else m["seed_b"]


def bracket(rows, games_after):
    """The knock-out of the standings' top quarter (at least 2): rounds of matches, each a dict
    a, b (names; None: a bye or not known yet), seed_a, seed_b, winner (a name or None),
    id (the game that decided it). games_after: the games played once the qualifying games
    were done, oldest first: the first game between a match's two players decides it."""
    q = max(2, len(rows) // 4)
    if len(rows) < 2:
        return []
    seeds = rows[:q]
    size = 1
    while size < q:
        size *= 2
    order = seeding(size)
    cur = []
    for i in range(0, size, 2):
        sa, sb = order[i], order[i + 1]
        cur.append((sa, seeds[sa - 1]["name"] if sa <= q else None,
                    sb, seeds[sb - 1]["name"] if sb <= q else None))
    used = set()
    rounds = []
    while cur:
        matches = []
        for sa, a, sb, b in cur:
            m = {"seed_a": sa, "a": a, "seed_b": sb, "b": b, "winner": None, "id": None}
            if not rounds and sb > q:  # a bye (first round only)
                m["winner"] = a
            elif a is not None and b is not None:
                for msg in games_after:
                    if msg["id"] in used:
                        continue
                    rs = night.results(msg)
                    if {r["name"] for r in rs} == {a, b} and len(rs) == 2:
                        used.add(msg["id"])
                        m["winner"] = next(r["name"] for r in rs if r["won"])
                        m["id"] = msg["id"]
                        break
            matches.append(m)
        rounds.append(matches)
        if len(matches) == 1:
            break
        cur = []
        for i in range(0, len(matches), 2):
            x, y = matches[i], matches[i + 1]
            cur.append((_seed(x), x["winner"], _seed(y), y["winner"]))
    return rounds
