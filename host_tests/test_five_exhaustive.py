"""Five-card cribbage's three-card hand scorer against a plain reference, every case.

A hand's points depend only on the four ranks, which card is the starter, and which of the
four cards share a suit. Every multiset of three hand ranks, every starter rank and every
suit pattern (the 15 ways to split four cards into suits) is one case; together they are
every hand and starter there is, up to the order of the hand and the naming of the suits.
The reference is written from Hoyle's rules with itertools, sharing nothing with the firmware.
"""

import itertools

from cribbage.score import hand as score_three


def _pip(rank):
    return min(rank + 1, 10)


def reference(hand_ranks, starter_rank, suits):
    """Hoyle's count of a three-card hand (ranks 0..12) and the starter; suits: each of the
    four cards' suit (the starter's last)."""
    ranks = list(hand_ranks) + [starter_rank]
    pts = 0
    for size in (2, 3, 4):  # fifteens: 2 each
        for combo in itertools.combinations(ranks, size):
            if sum(_pip(r) for r in combo) == 15:
                pts += 2
    for a, b in itertools.combinations(ranks, 2):  # pairs: 2 each (a pair royal is three)
        if a == b:
            pts += 2
    for size in (4, 3):  # runs: the longest, every way it can be made
        runs = [c for c in itertools.combinations(ranks, size)
                if len(set(c)) == size and max(c) - min(c) == size - 1]
        if runs:
            pts += size * len(runs)
            break
    if suits[0] == suits[1] == suits[2]:  # a flush: the three hand cards, one more with it
        pts += 4 if suits[3] == suits[0] else 3
    for r, s in zip(hand_ranks, suits):  # his nobs
        if r == 10 and s == suits[3]:
            pts += 1
    return pts


def _patterns():
    """The 15 ways to give four cards suits, each with its suits named in first-use order."""
    out = []
    for p in itertools.product(range(4), repeat=4):
        if p[0] == 0 and all(p[i] <= max(p[:i]) + 1 for i in range(1, 4)):
            out.append(p)
    return out


def test_every_three_card_hand_and_starter_scores_as_the_reference():
    patterns = _patterns()
    assert len(patterns) == 15
    cases = 0
    seen = set()
    for hand in itertools.combinations_with_replacement(range(13), 3):
        for starter in range(13):
            for suits in patterns:
                cards = [r * 4 + s for r, s in zip(list(hand) + [starter], suits)]
                if len(set(cards)) < 4:
                    continue  # the same card twice
                want = reference(hand, starter, suits)
                got = score_three(cards[:3], cards[3])
                assert got == want, (cards, got, want)
                seen.add(got)
                cases += 1
    assert cases > 40000
    # the counts a three-card hand can make: exactly those the show accepts as points
    # (pegging.py's show refuses any other count typed for a three-card hand)
    assert seen == set(range(16)) | {20}


def test_random_five_card_games_keep_the_rules_and_add_up():
    """Computer players (dealer.autoplay) play whole five-card games, every strategy: each
    deal has one series of play (no count after a go or 31), each hand three cards and the
    crib four, the pone of the first deal starts on 3; the summary's totals are the scores,
    and every save replays to the same game."""
    from cribbage import summary as S
    from dealer import autoplay
    WHY_LAST = 9  # (events.py: three for last)
    from cribbage.match import Match, loads, PLAY, SHOW, OVER

    for seed in range(120):
        m = Match(players=2, target=61, cards=5)
        resets = []

        def seen(m, what, seat, pts, cards, resets=resets):
            if what == "deal":
                assert [len(h) for h in cards[0]] == [3, 3] and len(cards[1]) == 4
                if m.deals == 1:
                    assert m.last_why == WHY_LAST and m.score[m.pone()] == 3
            if what in ("play", "go") and m.phase == PLAY and m.count == 0:
                resets.append(m.deals)  # a second series: never in five-card
            if what in ("play", "go") and m.phase == SHOW:
                assert sum(m.played) <= 6

        strategies = [seed % 4, (seed // 4) % 4]
        autoplay.play_game(m, autoplay.seeded(seed), strategies, seen)
        assert m.phase == OVER and max(m.score) >= 61 and resets == []
        assert loads(m.dumps()).state() == m.state()
        parts = b"".join(S.dumps(m, 40))
        for k in range(2):
            t = dict(zip(S.TOTALS, S.totals(parts, 0, 2, k)))  # (by name)
            assert (t["hand"] + t["crib"] + t["play"] + t["heels"] + t["pegged"]
                    + t["penalties"] + t["muggins_taken"]) == m.score[k], (seed, t)
