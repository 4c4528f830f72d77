"""The engine's state (and the typed entry) -> the View the renderer draws.

Part of the App (board/app.py): App inherits these methods. The preview is what the typed
entry would peg: points as typed, a play card's points, a hand's count.
"""

from cribbage import match as M
from cribbage.cards import PIP
from cribbage.score import score_play, breakdown

NORMAL = 0  # the app's modes
MENU = 1
ADVISE = 2


class State:
    # --- state -> view and text ----------------------------------------------------------------

    def _preview(self):
        """(side, points) the typed entry would peg, or (-1, 0)."""
        m = self.m
        if self.mode != NORMAL or m.phase == M.OVER:
            return -1, 0
        if self._showing():
            seat = self._shower()
            if seat < 0:
                return -1, 0
            if len(self.cards) == 4 and m.starter_card >= 0:
                crib = m.phase == M.SHOW and m.crib_next
                try:
                    items = breakdown(self.cards, m.starter_card, crib)
                except ValueError:
                    return -1, 0
                total = 0
                for it in items:
                    total += it[2]
                self.count_items = items
                if self.num >= 0:
                    total = self.num
                elif m.muggins_on:
                    return -1, 0  # the player must count it himself
                return m.side_of(seat), total
            if self.num >= 0 and not self.cards:
                return m.side_of(seat), self.num
            return -1, 0
        if self.cards and m.phase == M.PLAY and self.num < 0:
            c = self.cards[0]
            if m.count + PIP[c] > 31:
                return -1, 0
            for x in m.pile:  # (MicroPython has no `int in bytearray`)
                if x == c:
                    return -1, 0
            pile = bytearray(m.pile)
            pile.append(c)
            try:
                pts = score_play(pile)
            except ValueError:
                return -1, 0
            return m.side_of(m.turn), pts
        if self.num >= 0 and not self.cards:
            return m.side_of(self.seat), self.num
        return -1, 0

    def _update(self):
        """Copy the engine's state (and the typed entry) into the View."""
        m = self.m
        v = self.view
        v.sides = m.sides
        v.target = m.target
        for s in range(m.sides):
            v.front[s] = min(m.score[s], 255)
            v.back[s] = min(m.back[s], 255)
            v.games[s] = min(m.games[s], 255)
        if m.phase in (M.PLAY, M.SHOW) and m.turn >= 0:
            v.turn = m.side_of(m.turn)
        elif m.phase == M.OVER:
            v.turn = -1
        else:
            v.turn = m.side_of(self.seat)
        v.crib = m.side_of(m.dealer) if m.dealer >= 0 else -1
        v.winner = m.winner if m.phase == M.OVER else -1
        r = m.result if m.phase == M.OVER else 0
        v.skunk = 2 if r == M.DOUBLE_SKUNK else 1 if r in (M.SKUNK, M.LURCH) else 0
        v.won = (m.double_games if r == M.DOUBLE_SKUNK else m.skunk_games if v.skunk
                 else 1) if r else 0
        v.skunk_line = m.skunk_line
        v.double_line = m.double_line
        had = self.count_items is not None
        self.count_items = None
        side, pts = self._preview()
        if self.count_items is not None and not had:
            self.count_at = self.now  # the spoken count scrolls from its start
        if side >= 0 and pts > 0:
            v.preview_side = side
            v.preview_score = min(m.score[side] + pts, m.target)
        else:
            v.preview_side = -1
        for k in range(len(v.marks)):
            v.marks[k] = -1
        if self.mode == ADVISE and self.advice:  # light the entry positions to throw
            throw = self.advice[0][1]
            for k in range(len(throw)):
                v.marks[k] = self.layout.hole(0, throw[k] + 1)
        elif self.mode == MENU:
            v.marks[0] = self.layout.hole(0, self.item + 1)
        self._text = None
        v.dirty = True

