"""The engine over a board's life: any number of games in a bounded save, undo that replays
one deal at most, atomic events, version 1 saves, a full journal. (Its own module so that it
compiles within MicroPython's 96 KB test heap.)"""

import gc
import binascii

from cribbage.score import score_hand  # noqa: F401  (first: the scorer's 6 KB table)
gc.collect()  # (the garbage of its compile gone before the engine compiles: a 96 KB heap)
from cribbage import match  # noqa: E402
from cribbage.match import Match, loads  # noqa: E402
from dealer import autoplay  # noqa: E402
from check import raises, ON_MICROPYTHON  # noqa: E402
from matchkit import C, plays, two, unchanged, journal, can_redo  # noqa: E402

STRATS = ("greedy", "greedy")


def counting(m):
    """Count the events m applies from now on (an instance attribute shadows the method)."""
    seen = [0]
    apply = Match.apply

    def counted(b, i, at):
        seen[0] += 1
        return apply(m, b, i, at)

    m.apply = counted
    return seen


def test_games_after_games_keep_the_save_and_its_replay_the_same_size():
    m = Match()
    rand = autoplay.seeded(7)
    after_first = 0
    most = 0
    games = 12 if ON_MICROPYTHON else 60
    for g in range(games):
        autoplay.play_game(m, rand, STRATS)
        assert m.phase == match.OVER and sum(m.games) >= g + 1
        won = m.state()
        most = max(most, len(m.dumps()))
        assert loads(m.dumps()).state() == won
        m.next_game()
        size = len(m.dumps())
        if g == 0:
            after_first = size
        assert size == after_first  # the finished game left the journal: nothing grows
        assert m.events == 0 and m.deals == 0 and m.score == [0, 0]
        assert loads(m.dumps()).state() == m.state()
    assert most < 600  # one game's journal: ~300 bytes (cards entered for every deal)
    assert sum(m.games) >= games


def test_undo_replays_one_deal_at_most_also_across_deals():
    m = Match()
    rand = autoplay.seeded(3)
    autoplay.play_game(m, rand, STRATS)
    deal_events = []  # events of each deal, from the journal
    for ev in journal(m):
        if ev[0] & 0xF0 == match.E_DEAL:
            deal_events.append(0)
        if deal_events:
            deal_events[-1] += 1
    longest = max(deal_events)
    seen = counting(m)
    undone = 0
    while m.undo():
        assert seen[0] <= longest  # never more than one deal, wherever the undo lands
        seen[0] = 0
        undone += 1
    assert undone > 60 and m.deals == 0
    while m.redo():
        assert seen[0] <= 1
        seen[0] = 0
    assert m.phase == match.OVER


def test_a_refused_entry_after_a_deal_is_rolled_back_with_its_redo_events():
    m = two()
    for pts in (2, 0, 0):  # the play not entered, the counts: the next deal may come
        m.show(points=pts)
    m.peg(0, 5)
    m.undo()
    at = m.mark()
    saved = m.dumps()
    m.deal()
    raises(ValueError, m.play, 5)  # no play before the starter
    m.rollback(at)
    assert m.dumps() == saved and can_redo(m)
    assert m.redo() and m.score == [7, 0] and m.phase == match.DEAL


def test_an_event_that_fails_half_way_is_in_neither_state_nor_journal():
    m = two()
    plays(m, "9H 6H")
    st, saved = m.state(), m.dumps()
    apply = Match.apply

    once = [True]

    def fails(b, i, at):  # the event is applied, then the heap runs out (once)
        k = apply(m, b, i, at)
        if once[0]:
            once[0] = False
            raise MemoryError()
        return k

    m.apply = fails
    raises(MemoryError, m.play, C("5D")[0])
    del m.apply
    assert m.state() == st and m.dumps() == saved
    assert m.play(C("5D")[0]) == 0 and m.count == 20  # and the game goes on


def test_a_game_of_endless_redeals_is_refused_and_changes_nothing():
    m = Match()
    m.deal(0)
    while True:
        for _ in range(3):  # nothing entered but the counts: 0, 0 and the crib 0
            m.show(points=0)
        try:
            m.deal()
        except ValueError as e:
            assert "deals" in str(e)
            break
    assert m.deals == match.MAX_DEALS and len(m.dumps()) < 800
    unchanged(m, m.deal)
    while m.deals == match.MAX_DEALS:
        m.undo()
    m.deal()  # room for one again


def old_save(settings, events, committed=-1):
    """A version 1 save (earlier firmware): every game in one journal."""
    j = b"".join(events)
    n = len(j) if committed < 0 else committed
    body = bytes((1,)) + settings + bytes((n & 255, n >> 8, len(j) & 255, len(j) >> 8)) + j
    crc = binascii.crc32(body) & 0xFFFFFFFF
    return body + bytes(crc >> (8 * i) & 255 for i in range(4))


def test_version_1_saves_load_keeping_only_the_current_game():
    m = Match()
    for g in range(3):  # three games pegged by hand: 121 in 9 pegs of up to 15
        m.deal(0)
        for k in range(9):
            m.peg(g % 2, 15 if k < 8 else 1)
        assert m.phase == match.OVER
        m.next_game()
    m.deal(1)
    m.peg(0, 5)
    m.peg(1, 7)
    m.undo()
    ev = []
    for g in range(3):
        ev.append(bytes((match.E_DEAL | 0,)))
        for k in range(9):
            ev.append(bytes((match.E_PEG | g % 2, 15 if k < 8 else 1)))
        ev.append(bytes((match.E_NEW_GAME,)))
    ev += [bytes((match.E_DEAL | 1,)), bytes((match.E_PEG | 0, 5)), bytes((match.E_PEG | 1, 7))]
    data = old_save(m.settings(), ev, committed=sum(len(e) for e in ev) - 2)
    old = loads(data)
    assert old.state() == m.state() and old.games == [6, 3]  # double skunks: 3 games each
    assert can_redo(old) and old.redo() and old.score == [5, 7]
    assert len(old.dumps()) < 60  # the current game only
    bad = bytearray(data)
    bad[20] ^= 1
    assert "checksum" in str(raises(ValueError, loads, bytes(bad)))


def test_written_in_pieces_a_save_is_dumps_bytes():
    """The board saves with dump(file): head, the journal in place, the CRC, so that no block
    the size of the game is needed; what lands in the file is dumps()'s bytes, at every point
    of a game (with its redo tail, after a finished game, while undo shows it), and with the
    slow CRC of a port without binascii.crc32."""
    import io

    from cribbage import game as saved  # (the saved form's: game.py)

    m = Match(players=3, muggins=True)
    rand = autoplay.seeded(11)
    seen = 0
    autoplay.cut_for_deal(m, rand)
    for _ in range(2):
        while m.phase != match.OVER:
            autoplay.play_deal(m, rand, ("greedy",) * 3)
            for undo in (0, 2):
                for _ in range(undo):
                    m.undo()
                f = io.BytesIO()
                m.dump(f)
                assert f.getvalue() == m.dumps() and loads(f.getvalue()).state() == m.state()
                seen += 1
                for _ in range(undo):
                    m.redo()
        m.next_game()
        m.undo()  # the finished game's end, showing
        f = io.BytesIO()
        m.dump(f)
        assert f.getvalue() == m.dumps()
        m.redo()
        autoplay.cut_for_deal(m, rand)  # (who deals the next game: the players cut)
    assert seen >= 4

    class NoCrc:  # a port built without binascii.crc32
        pass

    data = bytes(range(256)) * 3
    want = saved.crc32(data[500:], saved.crc32(data[:500]))
    assert want == binascii.crc32(data) & 0xFFFFFFFF
    real = saved.binascii
    saved.binascii = NoCrc()
    try:
        assert saved.crc32(data[500:], saved.crc32(data[:500])) == want
        f = io.BytesIO()
        m.dump(f)
        assert loads(f.getvalue()).state() == m.state()
    finally:
        saved.binascii = real
