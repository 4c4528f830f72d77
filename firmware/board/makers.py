"""The making of what the board makes once, at power-up (board/boot.py, the board module): a
Layout's, a Renderer's and a View's fields (each class's __init__ calls its maker here, and
keeps what a maker returns as its own privates). Loaded for that and let go after
(board/fault.py's table, policy 1: issue 34, off the game's heap). It imports nothing of the
board's: the classes' modules import it, lazily."""

from array import array

from micropython import const

_MAX_SIDES = const(6)  # board/render.py's (the View's sizes)
_MAX_MARKS = const(8)


def layout(L, lanes, holes, row, group, shared_finish, games, pitch, group_gap, lane_pitch,
           band_gap):
    """board/layout.py's Layout L made (Layout(): its arguments): checked, its sizes set;
    returns its table of track holes' pixels (L._track: the Layout sets its own)."""
    if lanes < 1 or lanes > 6:
        raise ValueError("lanes must be 1..6, not %r" % (lanes,))
    if holes < row or row < 1 or holes % row:
        raise ValueError("holes (%r) must be a whole number of rows of %r" % (holes, row))
    if group < 1 or row % group:
        raise ValueError("a row of %r holes does not split into groups of %r" % (row, group))
    if games < 0:
        raise ValueError("games LEDs must be 0 or more")
    L.lanes = lanes
    L.holes = holes
    L.row = row
    L.group = group
    L.bands = holes // row
    L.shared_finish = shared_finish
    L.games = games
    L.pitch = pitch
    L.group_gap = group_gap
    L.lane_pitch = lane_pitch
    L.band_gap = band_gap
    L.header = 2 + games  # per lane: turn, crib, games...
    L.n_finish = 1 if shared_finish else lanes
    L.first_start = lanes * L.header
    L.first_track = L.first_start + lanes
    L.first_finish = L.first_track + lanes * holes
    L.count = L.first_finish + L.n_finish
    # pixel of track hole (lane, score 1..holes): one table, lane-major
    t = array("H", bytes(2 * lanes * holes))
    for band in range(L.bands):
        for lane in range(lanes):
            line = band * lanes + lane
            for k in range(row):
                score = band * row + k + 1  # k-th hole along the band's direction
                # the band's direction and the strip's direction on this line
                col = k if band % 2 == 0 else row - 1 - k  # column from the left
                along = col if line % 2 == 0 else row - 1 - col
                t[lane * holes + score - 1] = L.first_track + line * row + along
    return t


def renderer(r, layout, strip, brightness, limit_ma, colours):
    """board/render.py's Renderer r made (Renderer(): its arguments): the strip's order and
    settings set; returns the frame's buffers, their most at once (this frame's lit pixels
    and their values, the last frame's, the frame that last lit each pixel: the Renderer
    sets its own)."""
    r.layout = layout
    r.strip = strip
    r.buf = strip.buf
    r.bpp = getattr(strip, "bpp", 3)
    order = getattr(strip, "ORDER", (1, 0, 2, 3))  # neopixel: GRB on the wire
    r.o_r = order[0]
    r.o_g = order[1]
    r.o_b = order[2]
    r.brightness = brightness
    r.limit_ma = limit_ma
    r.colours = colours  # the palette: the "colours" setting (0 usual, 1 colour-blind)
    # the most a frame lights: a won lane, the header (or the error flash), three pegs
    # and two skunk holes per side, the preview, the marks (the self-test's all-white
    # frame writes the strip itself)
    n = min(layout.holes + layout.first_track + 5 * _MAX_SIDES + 1 + _MAX_MARKS, layout.count)
    r.last_ma = 0  # the last frame's estimate, after scaling
    return (array("H", bytes(2 * n)), bytearray(3 * n), array("H", bytes(2 * n)),
            bytearray(layout.count))


def view(v, sides, target):
    """board/render.py's View v made (View(): its arguments): every field at once, what the
    LEDs show first (at power-up, and a new game's: commands.start)."""
    v.sides = sides
    v.target = target
    v.front = bytearray(_MAX_SIDES)  # scores 0..255
    v.back = bytearray(_MAX_SIDES)
    v.games = bytearray(_MAX_SIDES)
    v.turn = -1  # side to play / enter, or -1
    v.crib = -1  # side owning the crib, or -1
    v.preview_side = -1  # side whose typed points preview, or -1
    v.preview_score = 0  # the score the preview would peg to
    v.at = 0  # ticks_ms when the preview appeared: it blinks lit first, from then
    v.winner = -1
    v.skunk = 0  # 0 none, 1 skunk, 2 double skunk (of the game just won)
    v.won = 0  # games the game just won counts for (to blink them)
    v.skunk_line = 91  # the lowest loser's score that is no skunk
    v.double_line = 61
    v.error_at = -1  # ticks_ms when an error was signalled, or -1
    v.marks = array("h", [-1] * _MAX_MARKS)  # pixels to blink white, -1 = none
    v.dirty = True  # set after changing anything: Renderer.maybe() draws only then
    v.m = None  # the game (cribbage.match.Match), read by its public names
    v.e = None  # the typed entry (board/entry.py's Entry)
    v.mode = 0  # what the keys mean now (board/modes.py), the menu's item, the
    v.item = 0  # penalty's kind
    v.pen = 0
    v.msg = None  # the message line (board/modes.py) and the error (None: none)
    v.err = None
    v.counting = -1  # the entry is a hand with its count: 0, 1 the crib (else -1)
    v.count_at = 0  # since when (the display's spoken count scrolls from it)
    v.now = 0  # ticks_ms of the app's turn
    v.power = None  # board/power.py's states (their display lines), or None
    v.cfg = None  # the settings (board/settings.py)
    v.display = None  # the display, or None (LEDs only)
    v.store = None  # the files (board/storage.py): the statistics' pages read them
