"""The key script of `tools/sim --keys`, as commands for the driver (tools/sim/mp_driver.py).

Every character is one press of that keypad key (0-9 A-D * #; a-d count as A-D); spaces and
commas are ignored; "~X" holds X for a long press; "." lets a second pass; "[a]" presses
discrete button a.

Cards can be written as cards instead of keys, and are typed as the keypad's presses:
"(5H 10C JD)" -- cards in parentheses, as `make score` writes them -- or a rank with a suit
symbol, "5♥", "10♣", "K♠". A card written with letters outside parentheses is keys: "5C" is
5 then key C, and key C is HEARTS on the keypad (A clubs, B diamonds, C hearts, D spades),
while `make score` reads 5C as the five of clubs. keypad_cards() names the cards a script
types, for the printout of a scripted run ("5C = 5♥").
"""

import re

import hostenv  # noqa: F401  (firmware/ on sys.path)
from board.keypad import KEYS_4X4
from dealer.cardtext import parse

HOLD_MS = 80  # a normal key press (debounce is 30 ms)
GAP_MS = 80
LONG_MS = 1200  # a long press (the keypad's long_ms is 700)

SUIT_KEYS = "ABCD"  # the keypad's suit letters: clubs, diamonds, hearts, spades
SYMBOLS = "\u2663\u2666\u2665\u2660"  # ♣ ♦ ♥ ♠, in that order
OUTLINE = "\u2667\u2662\u2661\u2664"  # ♧ ♢ ♡ ♤
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
# a card written with a suit symbol: rank (A 1 2-10 T J Q K) then the symbol
SYMBOL_CARD = re.compile("(10|[1-9]|[AaTtJjQqKk])[%s%s]" % (SYMBOLS, OUTLINE))


def card_keys(card):
    """The key presses that type a card: its rank as a number (1 = ace, 0 = ten, 11 = jack ..
    13 = king), then the suit letter (A clubs, B diamonds, C hearts, D spades), as the app's
    key map says."""
    r = card // 4 + 1
    return "%d%s" % (0 if r == 10 else r, SUIT_KEYS[card % 4])


def card_symbol(card):
    """A card with its suit symbol, unmistakable for keys: 5♥, 10♣, K♠."""
    return RANKS[card // 4] + SYMBOLS[card % 4]


def expand_cards(script):
    """The script with every card written as a card ("(5H JD)", "5♥") replaced by the keys
    that type it ("5C 11B", "5C"); the rest is left as it is. ValueError names a bad card, an
    unclosed "(", or digits typed just before a card (the board would read them as part of
    its rank: "1 5♥" is 15 then C)."""
    out = []
    i = 0
    s = script
    pending = ""  # digits typed and not yet ended by another key

    def card(keys, what):
        if pending:
            raise ValueError("digits typed right before the card %s: the board would read "
                             "the keys %s as one card, rank %s" % (what, " ".join(pending + keys),
                                                                   pending + keys[:-1]))
        out.append(" " + keys + " ")

    while i < len(s):
        ch = s[i]
        if ch == "(":
            j = s.find(")", i)
            if j < 0:
                raise ValueError("'(' without ')' in the key script at %d" % i)
            words = s[i + 1:j].replace(",", " ").split()
            for w in words:
                try:
                    c = parse(w)
                except ValueError as e:
                    raise ValueError("%s (in the cards at %d)" % (e, i)) from None
                card(card_keys(c), w)
                pending = ""
            i = j + 1
            continue
        if ch == "[":  # a button name is not a card
            j = s.find("]", i)
            j = len(s) - 1 if j < 0 else j
            out.append(s[i:j + 1])
            pending = ""
            i = j + 1
            continue
        m = SYMBOL_CARD.match(s, i)
        if m:
            card(card_keys(parse(m.group(0))), m.group(0))
            i = m.end()
            continue
        if ch.isdigit():
            pending += ch
        elif not (ch.isspace() or ch == ","):
            pending = ""
        out.append(ch)
        i += 1
    return "".join(out)


def parse_keys(script):
    """The key script as driver commands; ValueError names the bad character."""
    cmds = []
    i = 0
    s = expand_cards(script)
    while i < len(s):
        ch = s[i]
        if ch.isspace() or ch == ",":
            i += 1
            continue
        hold = HOLD_MS
        if ch == "~":
            hold = LONG_MS
            i += 1
            if i >= len(s):
                raise ValueError("'~' at the end of the key script: which key to hold?")
            ch = s[i]
        if ch == ".":
            cmds.append("wait 1000")
            i += 1
            continue
        if ch == "[":
            j = s.find("]", i)
            if j < 0:
                raise ValueError("'[' without ']' in the key script at %d" % i)
            cmds.append("key %s %d %d" % (s[i + 1:j], hold, GAP_MS))
            i = j + 1
            continue
        key = ch.upper() if ch in "abcd" else ch
        if key not in KEYS_4X4:
            raise ValueError("%r is not a keypad key (0-9 A-D * #) at position %d%s"
                             % (ch, i, _hint(ch)))
        cmds.append("key %s %d %d" % (key, hold, GAP_MS))
        i += 1
    return cmds


def _hint(ch):
    if ch.upper() in "HS":
        return ("; a card as a card: (5%s) or 5%s; on the keypad the suits are A clubs, "
                "B diamonds, C hearts, D spades" % (ch.upper(), SYMBOLS["CDHS".index(ch.upper())]))
    return ""


def keypad_cards(script):
    """[(keys, card)] for every card the script types on the keypad: a number (1-13, 0 or 10
    = ten) then a suit letter A-D, as the board reads it ("5C" -> (5C, 5 of hearts)). Only the
    keys: what the board is doing at the time (a menu, a refusal) is not known here."""
    found = []
    digits = ""
    for ch in expand_cards(script):
        if ch.isspace() or ch == ",":
            continue
        if ch.isdigit():
            digits += ch
            continue
        key = ch.upper()
        if key in SUIT_KEYS and digits:
            n = int(digits)
            rank = 9 if n in (0, 10) else n - 1
            if (0 <= rank < 13 and digits[0] != "0") or digits == "0":
                found.append((digits + key, rank * 4 + SUIT_KEYS.index(key)))
        digits = ""
    return found


def describe_cards(script):
    """The printout's line naming the cards a key script types, or "" if it types none:
    "cards typed: 5C = 5♥, 10A = 10♣ (keypad suits: A ♣ B ♦ C ♥ D ♠)"."""
    found = keypad_cards(script)
    if not found:
        return ""
    return "cards typed: %s (keypad suits: A %s B %s C %s D %s)" % (
        ", ".join("%s = %s" % (k, card_symbol(c)) for k, c in found), *SYMBOLS)
