"""The physical LED board: the one source of truth for where every LED is and what it means.

The firmware (renderer), the simulator and the drill-template generator all read this.
A different build (a 61-hole board, three lanes, 40 holes a row) is a change of parameters:

    L = Layout()                                   # the default 2-lane 121 board
    L = Layout(lanes=3, holes=60, row=30)          # a 61-hole three-lane board

What a board has, per lane (lane = one player's or partnership's track):
  * a start hole (score 0) and `holes` track holes (scores 1..holes),
  * the finish hole (score holes + 1): one shared by all lanes, or one per lane,
  * `games` LEDs counting games won, a "turn" LED and a "crib" LED (the status header).

Track geometry: the holes run in bands of `row` holes (grouped by `group`, with a small gap
between groups, as on a wooden board). Band 0 runs left to right, band 1 right to left, and so
on; within a band the lanes lie side by side (lane 0 on top). Above band 0 is the status
header: per lane [turn, crib, games...]. Start holes sit left of band 0, the finish after the
last band.

Wiring (the strip's order): the header (lane 0's LEDs, then lane 1's, ...), the start holes
(lane 0 first), then the track lines serpentine from the top: line (band 0, lane 0) left to
right, (band 0, lane 1) right to left, (band 1, lane 0) left to right, ..., then the finish
hole(s). So pixel index != hole number: use hole(lane, score).

API (ints everywhere; pixel = index into the strip):
    L.count                  number of LEDs
    L.hole(lane, score)      pixel of a hole: 0 start, 1..holes track, holes+1 finish
    L.peg(lane, score, target)  pixel a peg at `score` sits in for a game to `target`
                             (target <= finish: straight; longer games wrap round the track)
    L.lap(score, target)     0 on the first time round, 1 on the second (long game, short board)
    L.games_led(lane, k)     pixel of the k-th games-won LED (k from 0)
    L.turn_led(lane), L.crib_led(lane)
    L.xy(pixel)              (x, y) of the LED centre in mm, origin top left of band 0, y down
    L.what(pixel)            (kind, lane, n): kind in START HOLE FINISH GAMES TURN CRIB
                             (n = score for holes, k for games LEDs; board/geometry.py)
hole/peg/led lookups allocate nothing (the renderer calls them per frame).
"""

from array import array

# (what() kinds, START HOLE FINISH GAMES TURN CRIB, are in board/geometry.py, loaded only by
# what() and xy(): the live page, the simulator and the drill template; the game never asks)


class Layout:
    """Two lanes x 121 holes by default; every dimension is a parameter (see module doc).
    Made once, at power-up: its making is board/boot.py's layout(), whose code a board lets
    go after (issue 34)."""
    lanes: int
    holes: int
    row: int
    group: int
    bands: int
    shared_finish: bool
    games: int
    pitch: float
    group_gap: float
    lane_pitch: float
    band_gap: float
    header: int
    n_finish: int
    first_start: int
    first_track: int
    first_finish: int
    count: int
    _track: array

    def __init__(self, lanes=2, holes=120, row=30, group=5, shared_finish=True, games=3,
                 pitch=7.0, group_gap=3.0, lane_pitch=9.0, band_gap=14.0):
        from board.boot import layout  # (power-up's code, let go after: fault.py's table)

        self._track = layout(self, lanes, holes, row, group, shared_finish, games, pitch,
                             group_gap, lane_pitch, band_gap)  # (pixel of track hole
        # (lane, score 1..holes): one table, lane-major)

    # --- lookups (no allocation) ------------------------------------------------------

    def hole(self, lane, score):
        """Pixel of lane's hole for `score`: 0 start, 1..holes track, holes + 1 finish."""
        if score <= 0:
            return self.first_start + lane
        if score > self.holes:
            return self.first_finish + (0 if self.shared_finish else lane)
        return self._track[lane * self.holes + score - 1]

    def peg(self, lane, score, target):
        """Pixel of a peg at `score` in a game to `target`. The winning score sits in the
        finish hole; a game longer than the track goes round again (see lap())."""
        if score <= 0:
            return self.first_start + lane
        if score >= target:
            return self.first_finish + (0 if self.shared_finish else lane)
        if target <= self.holes + 1:
            return self._track[lane * self.holes + score - 1]
        return self._track[lane * self.holes + (score - 1) % self.holes]

    def lap(self, score, target):
        """0 the first time round the track, 1 the second (a 121 game on a 61-hole board)."""
        if score <= 0 or score >= target or target <= self.holes + 1:
            return 0
        return (score - 1) // self.holes

    def games_led(self, lane, k):
        return lane * self.header + 2 + k

    def turn_led(self, lane):
        return lane * self.header

    def crib_led(self, lane):
        return lane * self.header + 1

    # --- descriptions, for the simulator and the drill template: board/geometry.py ------
    # L.what(pixel): (kind, lane, n) of a pixel, kind START HOLE FINISH GAMES TURN CRIB;
    # L.xy(pixel): (x, y) in mm of the LED's centre (x grows right, y down, band 0 at y = 0);
    # L.size(): (width, height, left, top) in mm of the box holding every LED centre.
    # board/geometry.py's functions of the layout, looked up only when asked (the page, the
    # simulator, the drill template; the game never asks): not three methods on every
    # board's heap (issue 34).

    def __getattr__(self, name):
        if name != "what" and name != "xy" and name != "size":
            raise AttributeError(name)
        from board import geometry
        f = getattr(geometry, name)
        return lambda *a: f(self, *a)
