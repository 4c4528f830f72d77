"""The deal: its cards, the play and the show, and how each journal event changes the game.

Play (a Rules: rules.py, the score) holds the deal's state the renderer reads (turn, count,
pile, played, gone, crib_next, starter_card: public attributes) and the deal's where-table
(its layout below: the one table of it, read only here), and apply() applies one journal event:
each handler validates everything first (the play's and the show's checks and counts are
pegging.py's pure functions) and only then changes the state, so a refused event
(ValueError) leaves the game exactly as it was. Whoever keeps the journal (game.py) gives
apply() each event's journal offset and provides checkpoint(k, at) (record the state before
deal k, its event at offset at) and undone(at) (the state before the event at offset at: a
false go's card is taken back).
"""

from . import cards, events as ev, score  # (as X: a name each here would cost the heap)
from .rules import Rules
from . import pegging

from micropython import const

# The deal's where-table (_where), byte by byte: the one table of its layout. Its readers are
# this class's methods; the rest of the engine gets what they need as plain values (pegging.py)
# or through its calls (cards(), dead(), check_card(), settings()), so no module keeps a copy.
# [card] for each of the DECK cards: where it is known to be this deal (events.py's AT_*).
# [_GO_AT + seat]: the lowest count the seat said go at this deal (0: none); a dead seat's: the
# count that says which of his cards are dead (0: all).
_GO_AT = const(52)
_DEAD = const(58)  # a bit per seat whose cards are dead (a failure to play, sheet 000)
# [_RULES]: the game's rules the settings byte carries, the one byte a new deal keeps: who deals
# the next game (the low 2 bits: 0 round the table, as earlier firmware; _DEAL_CUT the players
# cut for deal, sheets 000-004; _DEAL_LOSER the loser, with 3+ sides the first losing seat in
# turn; ACC points' rule 1.5 has the loser deal whatever it says), | _ALL_DEAD (a failure to
# play kills every card the offender has left, as saves of earlier firmware were played; else
# only "those cards" that fitted at his go), | _FIVE (five-card cribbage: three cards each in
# the play and the show, one series of play).
_RULES = const(59)
# [_GO_DEAD + seat]: a dead seat's lowest count he said go at since his latest penalty where a
# live card of his would have fitted (under his dead line), + 1 (0: none): a live card played
# later that fitted there proves another false go (sheet 000 sets no limit: each is a penalty).
_GO_DEAD = const(60)
_WHERE = const(66)  # bytes in all
_DEAL_CUT = const(1)
_DEAL_LOSER = const(2)
_ALL_DEAD = const(4)
_FIVE = const(8)
_DEAD_LAST = const(16)  # E_DEAD's seat byte | this: the card taken back was his last (events.py)

# Why an event is refused, one a line (see events.say).
_NO = """the game is over: undo, or start the next game
no seat %d
bad peg %d for side %d
no side %d
unknown event %d
%d deals in one game: start a new game
not a card: %d
the starter is turned after the deal, before the play
%s is already in play
seat %d cannot pay side %d: not in the play, his own side, or his cards are dead
no false go: the card just played did not prove one"""
_OVER = const(0)
_SEAT = const(1)
_BAD_PEG = const(2)
_SIDE = const(3)
_UNKNOWN = const(4)
_DEALS = const(5)
_NOT_CARD = const(6)
_STARTER_WHEN = const(7)
_IN_PLAY = const(8)
_BAD_DEAD = const(9)
_NOT_FALSE_GO = const(10)


class Play(Rules):
    # (the fields: rules.py's Rules; the deal's where-table: _where, above)

    def __init__(self, deal, cards, fitted):
        # deal: who deals the next game (0-2); cards: 6, or 5 (five-card cribbage); fitted:
        # False for a game saved by earlier firmware (every card left dead)
        self._where = bytearray(_WHERE)
        self._where[_RULES] = deal | (_FIVE if cards == 5 else 0) | (0 if fitted else _ALL_DEAD)
        Rules.__init__(self)
        self.pile = bytearray(8)
        self.played = bytearray(self.players)

    # --- what the deal says -----------------------------------------------------------------

    def settings(self):
        """The settings as the 7 bytes dumps() stores."""
        # (byte 2: muggins, | 2 for six players in two teams: saves before them lack it,
        # | the match mode << 2: saves before it have 0, SINGLE; | who deals the next game
        # << 4, | 64 when a failure to play kills only the cards that fitted: saves before
        # them have 0: the deal round the table, every card dead, as they were played;
        # | 128 five-card cribbage: saves before it have 0, six cards)
        r = self._where[_RULES]
        return bytes((self.players, self.target, (1 if self.muggins_on else 0)
                      | (2 if self.players == 6 and self.sides == 2 else 0) | self.mode << 2
                      | (r & 3) << 4 | (0 if r & _ALL_DEAD else 64) | (128 if r & _FIVE else 0),
                      self.skunk_line,
                      self.skunk_games, self.double_line, self.double_games))

    def cards(self):
        """5 in five-card cribbage (hands of three, one series of play), else 6."""
        return 5 if self._where[_RULES] & _FIVE else 6

    def dealer_next(self):
        """Who deals the game after this won one (-1: the players cut for deal)."""
        d = self.next_dealer  # the deal goes on round the table (0)
        rule = self._where[_RULES] & 3
        if self.mode == ev.ACC or rule == _DEAL_LOSER:  # ACC rule 1.5: the loser deals the next
            while d >= 0 and d % self.sides == self.winner:  # game (the first losing seat
                d = (d + 1) % self.players  # from there)
        elif rule == _DEAL_CUT:
            d = -1  # the players cut for deal (the sheets): deal(dealer) or cut() names him
        return d

    def played_cards(self, seat, hand):
        """Append the cards seat played this deal (as entered) to the list hand."""
        w = self._where
        for c in range(cards.DECK):
            if w[c] == seat + 1:
                hand.append(c)

    def dead(self):
        # A bit per seat whose cards are dead this deal (a failure to play: those that fitted
        # at his go, out of the play; the seat shows them with its hand).
        return self._where[_DEAD]

    def check_card(self, c):
        # ValueError when card c (0..51) cannot be in the hand, or the crib, the show takes
        # next: the starter, a card another seat played (any, for the crib), a card shown in a
        # hand. show() checks each card so; the board asks as each card is typed.
        crib = self.phase == ev.SHOW and self.crib_next
        pegging.check_card(self._where, c, self.turn if self.phase == ev.SHOW else self.pone(),
                           crib)

    def false_go(self):
        # The seat whose card just played proves a false go (he said go at a count it fitted
        # under, sheet 000's failure to play): penalty(side, FALSE_GO) takes it; else -1.
        # Also when the card's points won the game: a dead card wins nothing, so that win
        # stands only once the players let the false go pass (any other event: next_game()).
        f = self._fg  # (the card's event index << 3 | the seat)
        return f & 7 if f >= 0 and f >> 3 == self.events - 1 else -1

    def next_active(self, seat):
        # The next seat left of seat (seat itself last) that has cards, has not said go in this
        # series and whose cards left are not all dead, or -1.
        n = self.players
        w = self._where
        for k in range(1, n + 1):
            t = (seat + k) % n
            if self.played[t] < (3 if w[_RULES] & _FIVE else 4) and not self.gone >> t & 1 \
                    and not (w[_DEAD] >> t & 1 and not w[_GO_AT + t]):
                return t
        return -1

    def state(self) -> tuple:
        """The derived state as one tuple (tests compare it; allocates)."""
        return Rules.state(self) + (
            self.turn, self.crib_next, self.count, bytes(self.pile), bytes(self.played),
            self.gone, self.starter_card, bytes(self._where), self._plays, self._last_player,
            self._fg)

    # checkpoint(k, at): record the state before deal k, its event at journal offset at;
    # undone(at): the state before the event at journal offset at. The journal's keeper's
    # (game.py's Game, which every Play is): a Play keeps no journal. Not defined here (two
    # empty methods would cost every board's heap, issue 34): the type checker is told at
    # the two calls.

    # --- the state before any event, and at a deal -------------------------------------------

    def start(self, games, dealer):
        """The state of a fresh game before any event: games won so far, who deals first."""
        Rules.start(self, games, dealer)
        self._new_deal()

    def _new_deal(self):
        self.turn = -1
        self.crib_next = False
        self.count = 0
        self.pile[:] = b""  # emptied in place: MicroPython keeps its room (no del on bytearray)
        p = self.played
        for k in range(self.players):
            p[k] = 0
        self.gone = 0
        self._fg = -1  # a card proving a false go: its event's index << 3 | the seat
        self.starter_card = -1
        w = self._where
        for i in range(_WHERE):
            if i != _RULES:
                w[i] = 0
        self._plays = 0  # cards out of the hands in this play: played, or dead
        self._last_player = -1

    # --- how each event changes the state ---------------------------------------------------

    def apply(self, b, i, at):
        # Validate and apply the event at b[i] (at: its offset in the journal); return its
        # size. ValueError changes nothing.
        k = b[i]
        self.got = 0
        if self.phase == ev.OVER and not (k & 0xF8 == ev.E_DEAD | 8 and self.false_go() >= 0):
            raise ValueError(ev.say(_NO, _OVER))  # (but a false go its card's win proved)
        n = ev.size(b, i, self.players)  # an unknown code is refused here
        w = self._where
        if k < cards.DECK:
            self.card(k)
        elif k == ev.E_GO:  # the seat to play cannot; when nobody can, one for the go
            t = self.turn  # (-1 out of the play, which pegging.go refuses first)
            pegging.go(self.phase, self.count, t >= 0 and w[_DEAD] >> t & 1)
            g = w[_GO_AT + t]
            if w[_DEAD] >> t & 1:  # some of his cards are dead (the rest did not fit at his go)
                if g and self.count < g and (not w[_GO_DEAD + t]
                                             or self.count < w[_GO_DEAD + t] - 1):
                    w[_GO_DEAD + t] = self.count + 1  # a live card may fit: a false go?
                if self.count <= 21:  # any live card would fit: he has none, his cards are dead
                    w[_GO_AT + t] = 0
                    self._plays += (3 if w[_RULES] & _FIVE else 4) - self.played[t]
            elif not g or self.count < g:
                w[_GO_AT + t] = self.count  # the lowest of the deal
            self.gone |= 1 << t
            self.pass_on(t)
        elif k & 0xF0 == ev.E_DEAL:
            d = k & 15
            if d >= self.players:
                raise ValueError(ev.say(_NO, _SEAT, (d,)))
            if self.deals >= ev.MAX_DEALS:
                raise ValueError(ev.say(_NO, _DEALS, (ev.MAX_DEALS,)))
            self.checkpoint(self.deals, at)  # pyright: ignore[reportAttributeAccessIssue]
            self._new_deal()
            self.dealer = d
            self.next_dealer = (d + 1) % self.players
            self.deals += 1
            self.phase = ev.STARTER
            if self.deals == 1 and w[_RULES] & _FIVE:
                # five-card cribbage: the pone takes three for last at the start of the game
                self.points((d + 1) % self.players % self.sides, 3, ev.WHY_LAST)
        elif k == ev.E_STARTER:
            c = b[i + 1]
            if self.phase != ev.STARTER:
                raise ValueError(ev.say(_NO, _STARTER_WHEN))
            if c != ev.NO_CARD and c != ev.JACK_UNSEEN:
                if c >= cards.DECK:
                    raise ValueError(ev.say(_NO, _NOT_CARD, (c,)))
                if w[c]:
                    raise ValueError(ev.say(_NO, _IN_PLAY, (cards.fmt(c),)))
                self.starter_card = c
                w[c] = ev.AT_STARTER
            self.phase = ev.PLAY
            self.turn = self.pone()
            if c == ev.JACK_UNSEEN or (c < cards.DECK and c >> 2 == cards.JACK):
                self.points(self.dealer % self.sides, 2, ev.WHY_HEELS)
        elif k & 0xF0 == ev.E_SHOW:
            self.shown(b, i + 1, k & 1, b[i + n - 1] if k & 2 else -1)
        elif k & 0xF0 == ev.E_PEG:
            side = k & 15
            pts = b[i + 1]
            if side >= self.sides or not 1 <= pts <= ev.MAX_PLAY_PEG:
                raise ValueError(ev.say(_NO, _BAD_PEG, (pts, side)))
            self.points(side, pts, ev.WHY_PEG)
        elif k & 0xF0 == ev.E_PENALTY:
            side = k & 7
            if side >= self.sides:
                raise ValueError(ev.say(_NO, _SIDE, (side,)))
            self.points(side, 2, ev.WHY_PENALTY)
        elif k & 0xF0 == ev.E_DEAD:
            # A failure to play after a go (sheet 000: "he may not subsequently play those
            # cards and his opponent scores two points"): "those cards" are the ones that
            # fitted when he said go (at his lowest go count of the deal; no go said: at the
            # count now if he is to play, else all): dead, out of the play (they count in the
            # show); the rest he plays as they fit (and says go at any count once only dead
            # cards are left: they are out). A game saved by earlier firmware (_ALL_DEAD) kills
            # all his cards left, as it was played. If he was to play and now cannot, the play
            # passes on; then two are pegged to side. k & 8: a false go, proved by the card
            # just played (journal offset back): it is taken back first, dead (it fitted; it
            # stays in the journal: undo brings it back). A seat already dead pays again for
            # each go since his penalty where a live card of his fitted (_GO_DEAD: the sheet
            # sets no limit); its cards die too. seat | _DEAD_LAST: the card taken back was his
            # last, so all his cards are dead: the play goes on without him at once, its go or
            # last card's point pegged before the two (rules.md; a save of earlier firmware
            # lacks it, and waited for his go, as it was played). (Here, not in a method of its
            # own: a function object fewer on every board's heap, issue 34.)
            side = k & 7
            seat = b[i + 1]
            back = at - 1 if k & 8 else -1
            last = seat & _DEAD_LAST
            seat &= ~_DEAD_LAST
            if back >= 0 and self._fg != (self.events - 1) << 3 | seat:
                raise ValueError(ev.say(_NO, _NOT_FALSE_GO))
            c = 3 if w[_RULES] & _FIVE else 4
            if seat >= self.players or side >= self.sides or seat % self.sides == side \
                    or (w[_DEAD] >> seat & 1 and not w[_GO_DEAD + seat]) \
                    or (last and (back < 0 or self.played[seat] != c)):
                raise ValueError(ev.say(_NO, _BAD_DEAD, (seat, side)))
            if back >= 0:
                g = self.events
                # the state before the card (it was played in the play, after a go), the
                # events' count kept (so nothing below refuses now)
                self.undone(back)  # pyright: ignore[reportAttributeAccessIssue]
                self.events = g
            if self.phase != ev.PLAY or not self._plays:
                raise ValueError(ev.say(_NO, _BAD_DEAD, (seat, side)))
            was = w[_GO_AT + seat] if w[_DEAD] >> seat & 1 else -1  # his dead line (0: all)
            if was >= 0:  # dead already: his live cards that fitted at his go since die too
                g = w[_GO_DEAD + seat] - 1
            else:
                w[_DEAD] |= 1 << seat
                g = 0 if w[_RULES] & _ALL_DEAD else w[_GO_AT + seat] or \
                    (self.count if self.turn == seat else 0)
            w[_GO_DEAD + seat] = 0
            if g <= 21 or last:  # (every card fits at 21: all dead)
                g = 0
            w[_GO_AT + seat] = g  # his cards of pips 31 - g or less are dead (g 0: all)
            if not g:
                if was != 0:  # (out: played, or dead; was 0: all were out already)
                    self._plays += c - self.played[seat]
                if self.turn == seat:  # (when the last cards out are his, it is his turn)
                    self.pass_on(seat)
            elif self.turn == seat and self.count >= g:  # (else to play: a live card, over
                # 31 - g, may fit: he plays it or says go)
                self.gone |= 1 << seat  # no card of his may go on now: as if he said go
                self.pass_on(seat)
            if self.phase != ev.OVER:  # (a go point the dead cards brought may have won)
                self.points(side, 2, ev.WHY_PENALTY)
        elif k & 0xF0 == ev.E_MUGGINS:
            self.call(k & 15)
        elif k == ev.E_CUT:
            self.who(b, i + 1)
        else:
            raise ValueError(ev.say(_NO, _UNKNOWN, (k,)))
        self.events += 1
        return n

    # --- the play and the show (their checks and counts: pegging.py) -----------------------

    def card(self, c):
        # The seat whose turn it is plays card c: the play's points of the series, plus one
        # when it is the last card of the play (or nobody can go on after it) unless it made 31.
        seat = self.turn  # (-1 out of the play, which pegging.play refuses first)
        w = self._where
        if pegging.play(w, self.phase, self.count, seat, w[_GO_AT + seat] if seat >= 0 else 0,
                        1 + w[_GO_DEAD + seat] if seat >= 0 and w[_DEAD] >> seat & 1 else 0, c):
            self._fg = self.events << 3 | seat  # a false go (false_go() names him until the
            # next event)
        self.pile.append(c)
        self.count += cards.PIP[c]
        w[c] = seat + 1
        self.played[seat] += 1
        self._plays += 1
        self._last_player = seat
        parts = score.play_parts(self.pile)
        # (five-card cribbage, _FIVE: three cards each, one series)
        last = self._plays == (3 if w[_RULES] & _FIVE else 4) * self.players
        if self.count == 31:
            self.end_series()
        elif last:
            parts |= score.PLAY_LAST  # one for the last card
        else:
            nxt = self.next_active(seat)
            if nxt < 0:  # he has no cards left and nobody else can go on: one for the go
                parts |= score.PLAY_GO
                self.end_series()
            else:
                self.turn = nxt
        self.last_play = parts
        pts = score.play_points(parts)
        if last:
            self.end_play()
        self.points(seat % self.sides, pts, ev.WHY_PLAY)

    def pass_on(self, seat):
        # seat cannot play on: the next seat who can plays; when nobody can, one for the go to
        # the last card's player (none after a 31) and the count resets, or the play is over.
        nxt = self.next_active(seat)
        if nxt >= 0:
            self.turn = nxt
            return
        last = self._last_player
        pts = 1 if self.count else 0
        if self._plays == (3 if self._where[_RULES] & _FIVE else 4) * self.players:  # (dead
            self.end_play()  # cards took the last ones out)
        else:
            self.end_series()
        self.points(last % self.sides, pts, ev.WHY_GO)

    def end_series(self):
        # Count back to 0; the seat left of the last card's player leads (one with cards).
        # Five-card cribbage has one series: no count after a go or a 31 (Hoyle): the play ends.
        if self._where[_RULES] & _FIVE:
            self.end_play()
            return
        self.count = 0
        self.pile[:] = b""
        self.gone = 0
        self.turn = self.next_active(self._last_player)

    def end_play(self):
        self.phase = ev.SHOW
        self.count = 0
        self.pile[:] = b""
        self.gone = 0
        self.turn = self.pone()
        self.crib_next = False

    def shown(self, b, i, has_cards, claim):
        # The next hand (or the crib) shown: its cards at b[i:i+4] when has_cards, the points
        # claimed (or entered) in claim (-1: none). See Match.show.
        phase = self.phase
        w = self._where
        n = 3 if w[_RULES] & _FIVE else 4
        if phase == ev.SHOW:
            seat = self.turn
            crib = self.crib_next
        else:
            seat = self.pone()
            crib = False
        pts = pegging.show(w, phase, n * self.players - self._plays if self._plays else 0,
                           b, i, has_cards, claim, seat, crib, self.played[seat],
                           self.starter_card, n)
        mug = pts >> 8
        # valid: apply
        if phase != ev.SHOW:
            self.end_play()
        if has_cards:
            for a in range(4 if crib else n):
                w[b[i + a]] = ev.AT_CRIB if crib else ev.AT_HAND + seat
        if crib:
            self.phase = ev.DEAL
            self.turn = -1
            self.crib_next = False
        elif seat == self.dealer:
            self.crib_next = True
        else:
            self.turn = (seat + 1) % self.players
        if self.muggins_on and mug:
            self.mug = mug
            self.shower = self.events << 3 | seat % self.sides
        self.points(seat % self.sides, pts & 255, ev.WHY_CRIB if crib else ev.WHY_HAND)
