"""Cards: parsing every spelling a player uses, formatting back, tables, errors."""

from check import raises
from cribbage import cards
from dealer import cardtext
from cribbage.cards import fmt
from dealer.cardtext import parse, parse_many


def test_parse_spellings():
    assert parse("5H") == cardtext.card(4, 2)
    assert parse("10h") == parse("TH") == parse("th") == cardtext.card(9, 2)
    assert parse("TD") == cardtext.card(9, 1)
    assert parse("AS") == cardtext.card(0, 3) == parse("1s")
    assert parse("QC") == cardtext.card(11, 0)
    assert parse("KD") == 51 - 2
    assert parse("5\u2665") == parse("5H")
    assert parse("J\u2660") == parse("JS")
    assert parse(" 7c ") == parse("7C")


def test_parse_many():
    assert parse_many("5H 5C 5S JD") == [parse("5H"), parse("5C"), parse("5S"), parse("JD")]
    assert parse_many("5H,5C, 5S") == [18, 16, 19]
    assert parse_many("") == []


def test_bad_tokens_are_named():
    for bad in ("5X", "11H", "ZZ", "H", "", "5", "0S", "QQ"):
        e = raises(ValueError, parse, bad)
        assert repr(bad) in str(e), str(e)
    e = raises(ValueError, parse_many, "5H 5Z JD")
    assert "'5Z'" in str(e)


def test_round_trip_all_52():
    seen = set()
    for c in range(52):
        text = fmt(c)
        assert parse(text) == c
        assert parse(text.lower()) == c
        seen.add(text)
    assert len(seen) == 52
    assert fmt(parse("10S")) == "10S"
    assert cards.fmt_many(parse_many("AS 10D KC")) == "AS 10D KC"


def test_rank_suit_pip_tables():
    assert len(cardtext.RANK) == len(cardtext.SUIT) == len(cards.PIP) == 52
    for c in range(52):
        assert cardtext.RANK[c] * 4 + cardtext.SUIT[c] == c
    assert cards.PIP[parse("AH")] == 1
    assert cards.PIP[parse("9H")] == 9
    for face in ("10C", "JC", "QD", "KS"):
        assert cards.PIP[parse(face)] == 10
    assert sum(cards.PIP) == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 * 4)


def test_names():
    assert cardtext.name(parse("5H")) == "five of hearts"
    assert cardtext.name(parse("JS")) == "jack of spades"


def test_check_distinct():
    cards.check_distinct(parse_many("5H 5C 5S JD 5D"))
    e = raises(ValueError, cards.check_distinct, parse_many("5H 5C 5H"))
    assert "5H" in str(e)
    raises(ValueError, cards.check_distinct, [3, 52])
    raises(ValueError, fmt, 52)
    raises(ValueError, cardtext.card, 13, 0)
