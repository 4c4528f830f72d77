"""A Match's settings, checked and set (cribbage/match.py's Match(): its arguments say what
each is). A board makes a Match at power-up, at a new game and when it loads a save only: this
code is loaded for that and let go after (board/fault.py's table, policy 1: issue 34, off the
game's heap; where memory may be short, the board loads it first with fault.load())."""

from .events import SINGLE, BEST_OF_3, BEST_OF_5, ACC, say

from micropython import const

# Why Match() refuses its settings, one a line (see events.say).
_NO = """players must be 2 to 6, not %r
the game is 121 or 61 points, not %r
skunk lines must be 0 (off) to %d
the double skunk line %d is above the skunk line %d
a game counts 1 to 9 games
the match mode is 0 to 3, not %r
who deals the next game is 0 to 2, not %r
the cards are 6, or 5: five-card cribbage, a game of 2 players to 61"""
_PLAYERS = const(0)
_TARGET = const(1)
_LINES = const(2)
_DOUBLE = const(3)
_GAMES = const(4)
_MODE = const(5)
_DEAL_RULE = const(6)
_FIVE_GAME = const(7)


def match(m, players, target, muggins, skunk_line, skunk_games, double_line, double_games,
          pairs, mode, deal, cards):
    """Match m's settings checked (ValueError, m unchanged) and set."""
    if mode not in (SINGLE, BEST_OF_3, BEST_OF_5, ACC):
        raise ValueError(say(_NO, _MODE, (mode,)))
    if deal not in (0, 1, 2):
        raise ValueError(say(_NO, _DEAL_RULE, (deal,)))
    if players not in (2, 3, 4, 5, 6):
        raise ValueError(say(_NO, _PLAYERS, (players,)))
    if target not in (61, 121):
        raise ValueError(say(_NO, _TARGET, (target,)))
    if cards != 6 and (cards != 5 or players != 2 or target != 61):
        raise ValueError(say(_NO, _FIVE_GAME))
    if skunk_line == -1 or skunk_line is None:
        skunk_line = 91 if target == 121 else 31
    if double_line == -1 or double_line is None:
        double_line = 61 if target == 121 else 0
    if mode == ACC:  # the American Cribbage Congress's game points
        skunk_games = 3
        double_line = 0
    if not (0 <= skunk_line < target and 0 <= double_line < target):
        raise ValueError(say(_NO, _LINES, (target - 1,)))
    if double_line and double_line > skunk_line:
        raise ValueError(say(_NO, _DOUBLE, (double_line, skunk_line)))
    if not (1 <= skunk_games <= 9 and 1 <= double_games <= 9):
        raise ValueError(say(_NO, _GAMES))
    m.players = players
    m.sides = 3 if pairs and players == 6 else 2 if players in (4, 6) else players
    m.target = target
    m.muggins_on = bool(muggins)
    m.skunk_line = skunk_line
    m.skunk_games = skunk_games
    m.double_line = double_line
    m.double_games = double_games
    m.mode = mode
