"""Typing and confirming: the entry line (a number, cards, go) and what OK does with it.

Part of the App (board/app.py, whose docstring has the key map): App inherits these methods.
Split out so each module compiles within a small heap.
"""

from cribbage import match as M
from cribbage.cards import fmt

NORMAL = 0  # the app's modes
MENU = 1
ADVISE = 2
SUITS = "ABCD"


class Entry:
    # --- typing ----------------------------------------------------------------------------

    def _digit(self, d):
        if self.go_pending:
            return self._error("go is waiting: OK or back")
        if self.num < 0:
            self.num = d
            self.ndig = 1
        elif self.ndig == 1 and self.num > 0:
            self.num = self.num * 10 + d
            self.ndig = 2
        else:
            self._error("%d%d: too many digits" % (self.num, d))

    def _max_cards(self):
        if self.mode == ADVISE:
            return 6
        if self._showing():
            return 4
        return 1

    def _suit(self, s):
        r = self.num
        if not 1 <= r <= 13:
            return self._error("no card %d: 1=A 11=J 12=Q 13=K" % r)
        c = (r - 1) * 4 + s
        if c in self.cards:
            return self._error("%s is typed already" % fmt(c))
        if len(self.cards) >= self._max_cards():
            return self._error("that is all the cards: OK or back")
        if self._showing() and c == self.m.starter_card:
            return self._error("%s is the starter" % fmt(c))
        self.cards.append(c)
        self.num = -1
        self.ndig = 0

    def _letter(self, name):
        m = self.m
        if name == "A":
            if self.cards:
                return self._error("A: finish or clear the cards first")
            self.seat = (self.seat + 1) % m.players
            self.msg = ("player", self.seat)  # board/text.py words it
        elif name == "B":
            if m.phase != M.PLAY or self.cards:
                return self._error("go is only said in the play")
            self.go_pending = True
        elif name == "C":
            if getattr(m, "_mug", 0) and m.muggins_on and not self.cards and not self.show_next:
                return self._do(m.muggins)
            if m.phase == M.OVER:
                return self._error("the game is over: OK for the next")
            self.show_next = not self.show_next
        elif name == "D":
            if self.cards:
                return self._error("D: finish or clear the cards first")
            self.mode = MENU
            self.item = 0

    def _back(self):
        if self.go_pending:
            self.go_pending = False
        elif self.num >= 0:
            if self.ndig == 2:
                self.num //= 10
                self.ndig = 1
            else:
                self.num = -1
                self.ndig = 0
        elif self.cards:
            self.cards.pop()
            self.advice = None
        elif self.show_next:
            self.show_next = False
        elif self.mode == ADVISE:
            self.mode = NORMAL
            self._clear_entry()
        else:
            self.msg = ""

    # --- confirming -------------------------------------------------------------------------

    def _showing(self):
        """True when typed cards/points are a hand (or crib) of the show."""
        return self.mode == NORMAL and (self.m.phase == M.SHOW or self.show_next)

    def _shower(self):
        """The seat whose hand (or crib: the dealer) the show takes next."""
        m = self.m
        return m.turn if m.phase == M.SHOW else m.pone()

    def _dealt(self):
        """Deal when the game waits for a deal; False (with an error) if nobody can deal."""
        m = self.m
        if m.phase != M.DEAL:
            return True
        if m.next_dealer < 0:
            self._error("who deals? A to choose, then OK")
            return False
        return self._do(m.deal)

    def _do(self, fn, *args):
        """Apply one engine event; on success save the game and clear the entry."""
        try:
            pts = fn(*args)
        except ValueError as e:
            self._error(str(e))
            return False
        m = self.m
        self._clear_entry()
        self.msg = ""
        if m.last_side >= 0 and pts:
            self.msg = (m.last_side, m.last_points)
        self._save()
        return True

    def _save(self):
        self.store.save("game", self.m.dumps())

    def _ok(self):
        m = self.m
        if self.mode == ADVISE:
            return self._error("A: your crib, B: theirs")
        if self.go_pending:
            return self._do(m.go)
        if self.cards:
            if self._showing():
                if len(self.cards) != 4:
                    return self._error("a hand is 4 cards: %d typed" % len(self.cards))
                if m.muggins_on and self.num < 0:
                    return self._error("muggins is on: type your count, then OK")
                if m.phase == M.DEAL and not self._dealt():
                    return
                hand = list(self.cards)
                return self._do(m.show, hand, self.num)
            if self.num >= 0:
                return self._error("finish the card: a suit A B C D")
            c = self.cards[0]
            if m.phase == M.DEAL and not self._dealt():
                return
            if m.phase == M.STARTER:
                return self._do(m.starter, c)
            if m.phase == M.PLAY:
                return self._do(m.play, c)
            return self._error("no card is wanted now")
        if self.num >= 0:
            if self._showing():
                if m.phase == M.DEAL and not self._dealt():
                    return
                return self._do(m.show, None, self.num)
            return self._do(m.peg, m.side_of(self.seat), self.num)
        if m.phase == M.DEAL:
            if m.next_dealer < 0:
                return self._do(m.deal, self.seat)
            return self._do(m.deal)
        if m.phase == M.OVER:
            return self._do(m.next_game)
        if m.phase == M.STARTER:
            return self._do(m.starter)
        self._error("nothing to confirm: type first")

    # --- the menu and the advisor: board/menu.py, loaded when first used -------------------

    def _menu_key(self, name):
        from board.menu import menu_key
        menu_key(self, name)

    def _advise(self, name):
        from board.menu import advise
        advise(self, name)

