"""Plain, obviously-correct scorers: the oracle the fast core is checked against.

Brute force over subsets, written from the rule sheets without the core's tables or tricks
(only rank = card // 4, suit = card % 4, as the core encodes cards). Slow on purpose.
"""


def rank(c):
    return c // 4


def pip(c):
    return min(c // 4 + 1, 10)


def _consecutive(ranks):
    ranks = sorted(ranks)
    for i in range(1, len(ranks)):
        if ranks[i] != ranks[i - 1] + 1:
            return False
    return True


def hand(hand4, starter, crib=False):
    cards = list(hand4) + [starter]
    pts = 0
    for m in range(1, 32):
        if sum(pip(cards[i]) for i in range(5) if m >> i & 1) == 15:
            pts += 2
    for i in range(5):
        for j in range(i + 1, 5):
            if rank(cards[i]) == rank(cards[j]):
                pts += 2
    for size in (5, 4, 3):  # only the longest runs count; in five cards there is one stretch
        runs = 0
        for m in range(32):
            chosen = [cards[i] for i in range(5) if m >> i & 1]
            if len(chosen) == size and _consecutive([rank(c) for c in chosen]):
                runs += 1
        if runs:
            pts += runs * size
            break
    suits = [c % 4 for c in hand4]
    if suits.count(suits[0]) == 4:
        if starter % 4 == suits[0]:
            pts += 5
        elif not crib:
            pts += 4
    for c in hand4:
        if rank(c) == 10 and c % 4 == starter % 4:
            pts += 1
    return pts


def play(pile):
    """Points for the newest card of the pile (go and last card not included)."""
    total = sum(pip(c) for c in pile)
    assert total <= 31
    pts = 0
    if total == 15 or total == 31:
        pts += 2
    same = 1
    while same < len(pile) and rank(pile[-1 - same]) == rank(pile[-1]):
        same += 1
    pts += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for k in range(len(pile), 2, -1):
        tail = [rank(c) for c in pile[-k:]]
        if len(set(tail)) == k and _consecutive(tail):
            pts += k
            break
    return pts
