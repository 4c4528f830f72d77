"""The App's own (board/app.py): what each command does to what the user sees. The table of
command handlers (table[op](app, *args), for the command (op, *args) of board/modes.py), and
the View filled from the game, the entry and the mode after each command (fill). With
board/app.py, the only code that changes the typed entry (app.e), the View (app.view) and the
app's mode, message and error: every other module reads the View and returns commands.
"""


from cribbage import events, match as M

from board.render import View
from board.settings import NAMES, RULES
from board import entry, fault, modes  # (fault.X, modes.X: a hash size fewer in its globals)


def run(app, call):
    """Do what a command asks (board/modes.py says the forms): its op's handler in the
    table (below), with the command's arguments. True if an event went in."""
    op = call[0]
    if not op:  # NOTHING (op 0)
        return False
    if op >= len(table) or table[op] is None:
        raise ValueError("no such command: %r" % (call,))
    on = modes.CALL <= op <= modes.NEW_GAME or op == modes.UNDO  # (a command on the game)
    s = app.record  # the won game's record in progress (App.rest): finished before an
    if on and isinstance(s, tuple) and len(s) > 2:  # engine call, an undo or a new game (the
        s = None  # OK's: its summary, the record written after the next game's frame, as
        app.rest(None, None if op == modes.NEXT_GAME else app.store)  # next_game's own)
    if on and app.broken:  # a fault left the game unrestored (this one's, or one before it
        app.restore()  # this turn): put back first, and no command on it until it is (the
        if app.broken:  # fault said again; App.step tries again before the next turn's keys)
            app.refuse(fault.message(MemoryError()))
            return False
    return table[op](app, *call[1:])


def follow(app):
    """After a command: the entry follows the game (board/entry.py: a false go puts the
    penalty entry), then the View (fill); and whether the entry is a hand with its count
    (the display's spoken count scrolls from its start)."""
    run(app, entry.follow(shown(app)))
    fill(app)
    counting = entry.counting(app.view)
    if counting >= 0 and app.counting < 0:
        app.count_at = app.now
    app.counting = counting


def shown(app):
    """The View with what the display's text and the key handlers read copied in now (the
    game, the entry, the mode, what was said), the snapshot every reader gets."""
    v = app.view
    v.m = app.m
    v.e = app.e
    v.mode = app.mode
    v.item = app.item
    v.pen = app.pen
    v.msg = app.msg
    v.err = app.err
    v.counting = app.counting
    v.count_at = app.count_at
    v.now = app.now
    v.cfg = app.cfg
    v.display = app.display
    v.store = app.store
    v.power = app.power
    return v


def new_match(c):
    """A new match as the settings c (app.cfg) say: the App's first, and each new game's."""
    five = c.get("cards") == 5  # five-card cribbage: two players to 61, whatever else
    return M.Match(players=2 if five else c.get("players"),
                   target=61 if five else c.get("game"),
                   muggins=bool(c.get("muggins")),
                   skunk_line=-1 if c.get("skunk") else 0,
                   double_line=-1 if c.get("skunk") else 0, mode=c.get("match"),
                   deal=c.get("deal"), cards=5 if five else 6)


def fill(app):
    """The View from the engine's state, the typed entry and the mode (after a command:
    follow): the scores, turn, crib and win; the preview (board/entry.py: what the
    entry would peg) and the marks (the menu's item, the penalty's kind, the PIN, the typed
    entry on a board without a display)."""
    m = app.m
    v = shown(app)
    e = app.e
    mode = app.mode
    L = app.layout
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
    elif m.phase == M.DEAL and m.next_dealer >= 0:
        v.turn = m.side_of(m.next_dealer)  # who deals next (A only picks the first dealer)
    elif m.phase == M.STARTER:
        v.turn = m.side_of(m.dealer)  # the dealer turns the starter
    else:
        v.turn = m.side_of(e.seat)
    v.crib = m.side_of(m.dealer) if m.dealer >= 0 else -1
    # a card that proved a false go (the penalty entry asks) wins only once the false go
    # is let go: till then no win on the LEDs
    over = m.phase == M.OVER and not (mode == modes.PENALTY and m.false_go() >= 0)
    v.winner = m.winner if over else -1
    r = m.result if over else 0
    v.skunk = 2 if r == events.DOUBLE_SKUNK else 1 if r in (events.SKUNK, events.LURCH) else 0
    v.won = (m.double_games if r == events.DOUBLE_SKUNK else m.skunk_games if v.skunk
             else 2 if m.mode == events.ACC else 1) if r else 0
    v.skunk_line = m.skunk_line
    v.double_line = m.double_line
    side, pts = entry.preview(v)
    if side >= 0 and pts > 0:
        pts = min(m.score[side] + pts, m.target)
        if v.preview_side != side or v.preview_score != pts:  # a new preview: lit at once,
            v.at = app.now - app.now % 40  # its blink from now (on the renderer's 40 ms grid)
        v.preview_side = side
        v.preview_score = pts
    else:
        v.preview_side = -1
    marks = v.marks
    for k in range(len(marks)):
        marks[k] = -1
    if mode == modes.ADVISE and e.advice:  # light the entry positions to throw
        throw = e.advice[0][1]
        for k in range(len(throw)):
            marks[k] = L.hole(0, throw[k] + 1)
    elif mode == modes.MENU:
        marks[0] = L.hole(0, app.item + 1)
    elif mode == modes.PENALTY:  # white: hole 1 a misdeal, 2 a failure to play, 3 a false go
        marks[0] = L.hole(0, app.pen + 1)
        if e.off >= 0:  # who failed: hole 6 seat 0 (Red, Red1), 7 the seat on its left..
            marks[1] = L.hole(0, 6 + e.off)
    elif app.pin >= 0:  # the live page's PIN, no screen: digit k blinks in lane 1's
        for k in range(4):  # holes 10k+1 .. 10k+10 (the first of the ten: 0, the last: 9)
            marks[k] = L.hole(0, 10 * k + app.pin // (1000, 100, 10, 1)[k] % 10 + 1)
    elif app.display is None:  # no screen: the typed entry blinks white, a hole per card
        n = len(e.cards) + (1 if e.num >= 0 else 0)  # (and one for a number)
        for k in range(min(n, len(marks))):
            marks[k] = L.hole(0, k + 1)
    v.dirty = True

def do(app, fn, *args):
    """CALL: make one engine call; when it goes in, clear the entry (and any menu: a
    penalty), say what it pegged and save the game after the frame. A refusal is said."""
    e = app.e
    m = app.m
    n = m.events
    try:
        pts = fn(*args)
    except ValueError as x:  # (a card refused as typed: the OK after it is a habit
        app.refuse(str(x))   # still, and the refusal stays on the display)
        return False
    except BaseException:  # a fault (board/fault.py keeps the entry): if the event
        if m.events != n:  # went in all the same, the entry went with it
            e.clear()
        raise
    quick = e.quick  # (a card or go that went in as typed: the next OK is a habit; not
    e.clear()  # once it won the game: no entry is left for the OK to be meant for, it
    e.quick = quick and m.phase != M.OVER  # starts the next game)
    app.mode = modes.NORMAL
    app.msg = modes.message("")
    if m.last_side >= 0 and pts:
        app.msg = (modes.MSG_PEGGED, m.last_side, m.last_points)
    app.unsaved = True
    return True

def record(app, save=True):
    """The finished game's record to the history (board/history.py), if it is over and was
    not recorded at its end (App.step records it after the winning frame; this is for a
    record that could not be written then): written now (what it says, a failure to write
    it, said as a refusal), or (save False) returned, its parts made from the game, for
    App.save() to write after the next game's frame."""
    m = app.m
    if m.phase != M.OVER:
        return None
    s = app.record
    app.record = None
    if isinstance(s, tuple) and s[0] == m.events and s[1] is not None:
        return None  # (recorded at its end, after its frame: App.step)
    if not isinstance(s, list):  # (a list: its parts, made as the OK came: run, without
        history = fault.load("board.history")  # loading the history's module again; it is
        s = history.record(m, history.dumps(m))  # let go once the record is written: App.save)
    if not save:
        return s
    said = fault.load("board.history").record_game(m, app.store, s)
    if said:
        app.refuse(said)
    return None


# THE TABLE OF COMMAND HANDLERS: table[op](app, *args) for the command (op, *args) (board/
# modes.py says each form); True if an event went in.

def _refuse(app, text):  # REFUSE (through app.refuse: a simulator counts refusals there)
    app.refuse(text)
    return False


def deal(app, fn, *args):
    """DEAL_FIRST: the engine call, dealing first if the game waits for a deal; a refusal
    takes the deal back."""
    m = app.m
    if m.phase != M.DEAL:
        return do(app, fn, *args)
    before = m.mark()
    m.deal()
    if do(app, fn, *args):
        return True
    m.rollback(before)  # exactly as before, redo events included (one deal of replay)
    return False


def next_game(app):
    """NEXT_GAME: the game is over, OK starts the next (the finished one recorded first: a
    power cut before the game's save records it once). A rule changed since the game began
    (the settings' first RULES names, and cards) applies to it: then it is a new game with
    the new rules, as the menu's (start: games won from 0, A picks the dealer)."""
    m = app.m
    c = app.cfg
    five = c.get("cards") == 5
    if (m.players != (2 if five else c.get("players"))
            or m.target != (61 if five else c.get("game"))
            or m.muggins_on != bool(c.get("muggins"))
            or (m.skunk_line != 0) != bool(c.get("skunk"))
            or m.mode != c.get("match") or m.settings()[2] >> 4 & 3 != c.get("deal")
            or m.cards() != (5 if five else 6)):
        return start(app)
    data = record(app, False)  # (made now, from the finished game; written after the next
    if not do(app, m.next_game):  # game's frame, before its save: App.save)
        return False
    app.record = data
    if m.next_dealer < 0:  # the players cut for deal (settings: deal)
        app.msg = modes.message("cut for deal: A picks the dealer, OK deals")
    return True


def start(app):
    """NEW_GAME: a new game, the menu's or the page's; the finished or abandoned game
    recorded first."""
    record(app)
    had = fault.modules()
    fault.load("cribbage.loadgame")  # (the Match's making, with the room for it checked)
    app.m = new_match(app.cfg)
    app.view = View(app.m.sides, app.m.target)
    fault.release(had)  # (the Match's making: power-up's, let go)
    app.unsaved = True
    app.save()  # (now: the new game is on flash before anything else)
    app.e.clear()
    app.e.seat = 0
    app.msg = modes.message("new game: A picks the dealer, OK deals")
    app.mode = modes.NORMAL
    return False


def settings(app, name, value):
    """SETTINGS: the setting set (value -1: stepped), saved and applied (the menu stays
    open); a value out of its range is refused."""
    cfg = app.cfg
    try:
        if value >= 0:
            cfg.set(name, value)
        else:
            cfg.step(name)
    except ValueError as err:
        app.refuse(str(err))
        return False
    app.store.save("settings", cfg.dumps())
    app.renderer.brightness = cfg.get("bright")
    app.renderer.limit_ma = cfg.get("limit")
    app.renderer.colours = cfg.get("colours")
    app.watchdog(cfg.get("watchdog"))
    app.msg = modes.message("new game to apply" if name in NAMES[:RULES] or name == "cards" else "")
    return False


def selftest(app):  # SELFTEST: the LED self-test runs (App.step draws it)
    app.selftest_step = 0
    app.mode = modes.NORMAL
    return False


def mode(app, mode, k):
    """MODE: the keys mean another thing now; k the menu's item or the penalty's kind."""
    app.mode = mode
    if mode == modes.MENU:
        app.item = k
    elif mode == modes.PENALTY:
        app.pen = k
    return False


def undo(app, redo):  # UNDO: (UNDO, 1) redoes
    if redo and app.m.phase == M.OVER:  # (the next game again, its end as recorded: no undo
        app.record = None  # past it, App.save)
    if app.m.redo() if redo else app.m.undo():
        app.msg = modes.message("redone" if redo else "undone")
        app.unsaved = True
        return True
    app.refuse("nothing to redo" if redo else "nothing to undo")
    return False


def update(app, call, *fields):
    """EDIT: the entry's fields set by name, in order ("cards": its list holds value's;
    "clear": Entry.clear()), then the command call applied."""
    e = app.e
    for k in range(0, len(fields), 2):
        name = fields[k]
        if name == "clear":
            e.clear()
        elif name == "cards":
            e.cards.clear()
            e.cards.extend(fields[k + 1])
        else:
            setattr(e, name, fields[k + 1])
    return run(app, call)


def say(app, msg):  # SAY: the message line says msg
    app.msg = msg
    return False


def pin(app, pin):  # PIN: the live page's PIN on the LEDs (no display); -1: none
    app.pin = pin
    return False


# by op: NOTHING (0, never looked up), REFUSE, CALL, DEAL_FIRST, NEXT_GAME, NEW_GAME,
# SETTINGS, SELFTEST, MODE, UNDO, EDIT, SAY, PIN, and SUSPECT: the game may be half changed,
# restored from its journal before the next entry (App.step)
table = (None, _refuse, do, deal, next_game, start, settings, selftest, mode, undo,
         update, say, pin, lambda app: setattr(app, "broken", True))
