"""Where each LED is and what it is: the layout's descriptions, for the simulator and the
drill template (board/layout.py's Layout.what/xy/size call these). Kept apart so a board,
which never asks, does not load them.
"""

from micropython import const

# what() kinds (their names, for the page and the simulator: KIND_NAMES[kind])
START = const(0)
HOLE = const(1)
FINISH = const(2)
GAMES = const(3)
TURN = const(4)
CRIB = const(5)
KIND_NAMES = ("start", "hole", "finish", "games", "turn", "crib")


def what(L, pixel):
    """(kind, lane, n) of a pixel: kind is START HOLE FINISH GAMES TURN CRIB."""
    if not 0 <= pixel < L.count:
        raise ValueError("no pixel %r on a %d-LED board" % (pixel, L.count))
    if pixel < L.first_start:
        lane, k = divmod(pixel, L.header)
        if k == 0:
            return (TURN, lane, 0)
        if k == 1:
            return (CRIB, lane, 0)
        return (GAMES, lane, k - 2)
    if pixel < L.first_track:
        return (START, pixel - L.first_start, 0)
    if pixel < L.first_finish:
        for i in range(len(L._track)):
            if L._track[i] == pixel:
                lane, s = divmod(i, L.holes)
                return (HOLE, lane, s + 1)
    lane = 0 if L.shared_finish else pixel - L.first_finish
    return (FINISH, lane, L.holes + 1)

def _col_x(L, col):
    return col * L.pitch + (col // L.group) * L.group_gap

def _line_y(L, band, lane):
    return band * ((L.lanes - 1) * L.lane_pitch + L.band_gap) + lane * L.lane_pitch

def xy(L, pixel):
    """(x, y) in mm of the LED's centre; x grows right, y grows down, band 0 at y = 0."""
    kind, lane, n = what(L, pixel)
    left = -(L.pitch + L.group_gap)
    if kind == HOLE:
        band, k = divmod(n - 1, L.row)
        col = k if band % 2 == 0 else L.row - 1 - k
        return (_col_x(L, col), _line_y(L, band, lane))
    if kind == START:
        return (left, _line_y(L, 0, lane))
    if kind == FINISH:
        last = L.bands - 1
        x = _col_x(L, L.row - 1) - left if last % 2 == 0 else left
        if L.shared_finish:
            return (x, _line_y(L, last, 0) + (L.lanes - 1) * L.lane_pitch / 2)
        return (x, _line_y(L, last, lane))
    # the status header, one block of LEDs per lane above band 0
    k = 0 if kind == TURN else 1 if kind == CRIB else 2 + n
    x = (lane * (L.header + 1) + k) * L.pitch
    return (x, -L.band_gap)

def size(L):
    """(width, height) in mm of the box holding every LED centre, and its top-left."""
    xs = []
    ys = []
    for p in range(L.count):
        x, y = xy(L, p)
        xs.append(x)
        ys.append(y)
    return (max(xs) - min(xs), max(ys) - min(ys), min(xs), min(ys))
