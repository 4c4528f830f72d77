"""Dealing real cards: the engine's own deck, shuffled by a random source passed in.

The board never deals (the players hold real cards); the host simulator and tests do, and feed
the cards to match.Match through the same calls a board makes. No random module in here:
shuffle() takes rand(n) -> int in 0..n-1, so a seeded generator makes runs reproducible.

How many cards each seat gets, by the number of players (rule sheet 002 and docs/rules.md):
2: six each, two each to the crib; 3: five each and one from the deck to the crib, one each
to the crib; 4: five each, one each to the crib; 5: five each but the dealer four, the others
one each to the crib; 6: five to the four left of the dealer, four to the dealer and the seat
on his right, the five-card seats one each to the crib. Every hand is four cards after.
"""

from cribbage.cards import DECK


def new_deck():
    """The 52 cards in order, as a bytearray (shuffle it in place)."""
    return bytearray(range(DECK))


def shuffle(deck, rand):
    """Fisher-Yates, in place: rand(n) must return an int 0..n-1."""
    i = len(deck) - 1
    while i > 0:
        j = rand(i + 1)
        if not 0 <= j <= i:
            raise ValueError("rand(%d) gave %r" % (i + 1, j))
        deck[i], deck[j] = deck[j], deck[i]
        i -= 1


def dealt(players, dealer, seat):
    """How many cards seat is dealt, and how many of them it discards to the crib."""
    if not 2 <= players <= 6:
        raise ValueError("players must be 2 to 6, not %r" % (players,))
    if players == 2:
        return 6, 2
    if players <= 4:
        return 5, 1
    if seat == dealer or (players == 6 and seat == (dealer - 1) % players):
        return 4, 0
    return 5, 1


def deal_five(dealer, deck):
    """Five-card cribbage (two players): five each, one at a time, the pone first. Returns
    (hands, crib, rest) as deal_hands does (the crib empty: two each are thrown to it)."""
    hands = [[], []]
    for k in range(10):
        hands[(dealer + 1 + k) % 2].append(deck[k])
    return hands, [], deck[10:]


def deal_hands(players, dealer, deck):
    """Deal from the top of the (shuffled) deck one card at a time round the table, starting
    left of the dealer. Returns (hands, crib, rest): hands[seat] a list of 5 or 6 cards (4
    for some seats in 5/6-handed), crib the cards the deck adds to it (one card in the three-
    handed game), rest the undealt cards (the starter is cut from them)."""
    need = [dealt(players, dealer, s)[0] for s in range(players)]
    hands = [[] for _ in range(players)]
    k = 0
    for _ in range(6):
        for i in range(1, players + 1):
            s = (dealer + i) % players
            if len(hands[s]) < need[s]:
                hands[s].append(deck[k])
                k += 1
    crib = []
    if players == 3:
        crib.append(deck[k])
        k += 1
    return hands, crib, deck[k:]
