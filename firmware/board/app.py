"""The board app: keys -> entries -> match engine -> View -> renderer -> pixels (one way).

Entry point: App(hw) then app.run() (asyncio, on a board or in the simulator), or
app.step(now) / app.key(name) / app.long_key(name) driven by tests. `hw` is the dict a board
module builds (see board/__init__.py): the app never constructs hardware.

THE KEY MAP (4x4 keypad; stick the suit symbols beside A B C D)

  | keys                  | what they do                                                  |
  |-----------------------|---------------------------------------------------------------|
  | 0-9                   | type a number: points, or a card's rank                       |
  | number then A B C D   | a card: the number is its rank (1=ace, 2-10, 11=jack,         |
  |                       | 12=queen, 13=king), the letter its suit: A=clubs B=diamonds  |
  |                       | C=hearts D=spades. 5 of hearts: 5 C. King of spades: 1 3 D    |
  | #                     | OK: confirm what is typed (it previews first, OK pegs it)     |
  | *                     | back: delete the last key or card; cancel                     |
  | hold *  /  hold #     | undo  /  redo (any number of times)                           |
  | A (nothing typed)     | next player: who a plain peg goes to (and who deals first)    |
  | B (nothing typed)     | go (in the play)                                              |
  | C (nothing typed)     | count a hand now (ends an unentered play); after an           |
  |                       | under-claimed count with muggins on: take the muggins points  |
  | D (nothing typed)     | menu: new game, settings, discard advisor, LED test           |
  | buttons a, b, ...     | +1 point for side 1, 2, ... (hold to repeat)                  |

What OK does follows the game (the display, or the blinking LEDs, say what is expected):
  * between deals, nothing typed: deal (the first time, the player chosen with A deals);
  * after the deal: type the starter card, OK (or just OK if you do not enter it);
  * the play: type each card as it is played, OK; B then OK for go; the board pegs
    fifteens, pairs, runs, 31, the go and the last card itself;
  * the show: type the four cards, the count is spoken on the display and previewed on the
    track, OK pegs it (muggins on: type your count after the cards, then OK); or type just
    the points, OK;
  * any time: a number then OK pegs those points (1-15) for the chosen player;
  * game over: OK starts the next game (games won are kept).
A wrong entry (a card twice, an impossible count, a key that means nothing now) flashes
the LEDs red, says why on the display, and changes nothing.
"""

from cribbage import match as M
from cribbage.cards import fmt, PIP
from cribbage.score import score_play, breakdown, spoken

from board.keypad import Keypad, DOWN, UP, LONG, REPEAT, KIND
from board.render import Renderer, View
from board.settings import Settings, loads as settings_loads, NAMES, HELP
from board.storage import Storage
from board import screen

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

NORMAL = const(0)
MENU = const(1)
ADVISE = const(2)

MENU_ITEMS = ("new game",) + NAMES + ("advisor", "LED test")
SUITS = "ABCD"
WATCHDOG_MS = const(8000)
SELFTEST_HOLD_MS = const(600)


def _ticks_diff(a, b):
    return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000


class App:
    def __init__(self, hw):
        self.hw = hw
        self.layout = hw["layout"]
        self.clock = hw["clock"]
        self.display = hw.get("display")
        self.strip = hw["strip"]
        keys = hw.get("keys")
        if keys is None:
            keys = Keypad(hw.get("rows", ()), hw.get("cols", ()), hw.get("buttons", ()))
        self.keys = keys
        self.store = Storage(hw.get("storage_dir", "/data"), hw.get("fs"))
        self.cfg = self.store.load("settings", settings_loads) or Settings()
        self.renderer = Renderer(self.layout, self.strip, self.cfg.get("bright"),
                                 self.cfg.get("limit"))
        self.m = self.store.load("game", M.loads) or self._new_match()
        self.view = View(self.m.sides, self.m.target)
        self.wdt = None
        self.mode = NORMAL
        self.item = 0  # menu item
        self.seat = 0  # the seat chosen with A
        self.err = None
        self.msg = ""
        self.now = 0
        self.selftest_step = -1
        self._clear_entry()
        self._held_long = ""
        self._text = None
        self.frames = 0
        self.watchdog(self.cfg.get("watchdog"))
        self._update()

    # --- setup ---------------------------------------------------------------------------

    def _new_match(self):
        c = self.cfg
        return M.Match(players=c.get("players"), target=c.get("game"),
                       muggins=bool(c.get("muggins")),
                       skunk_line=-1 if c.get("skunk") else 0,
                       double_line=-1 if c.get("skunk") else 0)

    def watchdog(self, on):
        """Start the watchdog (opt-in: it cannot be stopped until reset)."""
        make = self.hw.get("watchdog")
        if on and make is not None and self.wdt is None:
            self.wdt = make(WATCHDOG_MS)

    def _clear_entry(self):
        self.num = -1
        self.ndig = 0
        self.cards = []
        self.go_pending = False
        self.show_next = False
        self.count_items = None
        self.advice = None

    # --- the key events ------------------------------------------------------------------

    def event(self, ev):
        """One keypad event (kind | key) from the key source."""
        kind = ev & KIND
        name = self.keys.name(ev)
        if self.selftest_step >= 0:
            return
        if name in "*#":  # these have a long meaning: act on release, or on LONG
            if kind == LONG:
                self._held_long = name
                self.long_key(name)
            elif kind == UP:
                if self._held_long != name:
                    self.key(name)
                self._held_long = ""
        elif name in "abcdef":
            if kind == DOWN or kind == REPEAT:
                self._button(name)
        elif kind == DOWN:
            self.key(name)

    def key(self, name):
        """A short press of the key called name ("5", "A", "#", "*", ...)."""
        self.err = None
        if self.mode == MENU:
            self._menu_key(name)
        elif "0" <= name <= "9":
            self._digit(ord(name) - 48)
        elif name in SUITS:
            if self.num >= 0:
                self._suit(SUITS.index(name))
            elif self.mode == ADVISE:
                self._advise(name)
            else:
                self._letter(name)
        elif name == "#":
            self._ok()
        elif name == "*":
            self._back()
        else:
            self._error("key %s means nothing here" % name)
        self._update()

    def long_key(self, name):
        """A long press: hold * undo, hold # redo."""
        self.err = None
        self._clear_entry()
        if self.mode != NORMAL:
            self.mode = NORMAL
        elif name == "*":
            if self.m.undo():
                self.msg = "undone"
                self._save()
            else:
                self._error("nothing to undo")
        elif name == "#":
            if self.m.redo():
                self.msg = "redone"
                self._save()
            else:
                self._error("nothing to redo")
        self._update()

    def _button(self, name):
        side = "abcdef".index(name)
        if side >= self.m.sides:
            return self._error("no side %d" % (side + 1))
        self._do(self.m.peg, side, 1)
        self._update()

    def _error(self, text):
        self.err = text
        self.view.error_at = self.now

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
            self.msg = "player: " + self._seat_name(self.seat)
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
            self.msg = "%s +%d" % (screen.SIDE_NAMES[m.last_side], m.last_points)
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

    # --- the menu and the advisor ---------------------------------------------------------

    def _menu_key(self, name):
        item = MENU_ITEMS[self.item]
        if name in "AD":
            self.item = (self.item + 1) % len(MENU_ITEMS)
            self.num = -1
        elif name == "B":
            self.item = (self.item - 1) % len(MENU_ITEMS)
            self.num = -1
        elif name == "*":
            self.mode = NORMAL
            self._clear_entry()
        elif "0" <= name <= "9":
            d = ord(name) - 48
            self.num = d if self.num < 0 or self.num > 999 else self.num * 10 + d
        elif name == "#":
            if item == "new game":
                self.m = self._new_match()
                self.view = View(self.m.sides, self.m.target)
                self._save()
                self.mode = NORMAL
                self.seat = 0
                self.msg = "new game: A picks the dealer, OK deals"
            elif item == "advisor":
                self.mode = ADVISE
                self._clear_entry()
            elif item == "LED test":
                self.mode = NORMAL
                self.selftest_step = 0
            else:
                try:
                    if self.num >= 0:
                        self.cfg.set(item, self.num)
                    else:
                        self.cfg.step(item)
                except ValueError as e:
                    self._error(str(e))
                self.num = -1
                self.store.save("settings", self.cfg.dumps())
                self.renderer.brightness = self.cfg.get("bright")
                self.renderer.limit_ma = self.cfg.get("limit")
                self.watchdog(self.cfg.get("watchdog"))
                self.msg = "new game to apply" if item in NAMES[:4] else ""
        else:
            self._error("in the menu: A/B move, digits set, OK, * leave")

    def _advise(self, name):
        if name not in "AB":
            return self._error("A: your crib, B: theirs")
        n = len(self.cards)
        if n not in (5, 6):
            return self._error("type 5 or 6 cards, then A or B")
        try:
            from cribbage.advise import best_discards  # lazily: only this mode needs it
        except ImportError:
            return self._error("no advisor on this board")
        try:
            self.advice = best_discards(self.cards, name == "A", 3)
        except ValueError as e:
            return self._error(str(e))

    # --- state -> view and text ----------------------------------------------------------------

    def _seat_name(self, seat):
        m = self.m
        name = screen.SIDE_NAMES[m.side_of(seat)]
        if m.players > m.sides:
            name += str(seat // m.sides + 1)
        return name

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
            if m.count + PIP[c] > 31 or c in m.pile:
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
        self.count_items = None
        side, pts = self._preview()
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

    def lines(self):
        """The display's text now (also what the simulator prints)."""
        m = self.m
        out = screen.scores(m.score, m.sides)
        if self.mode == MENU:
            item = MENU_ITEMS[self.item]
            out.append("MENU %d/%d" % (self.item + 1, len(MENU_ITEMS)))
            out.append(item)
            if item in NAMES:
                out.append("= %d" % self.cfg.get(item))
                out.append(HELP[NAMES.index(item)])
            if self.num >= 0:
                out.append("> %d" % self.num)
            out.append("A/B move # ok")
        elif self.mode == ADVISE:
            out.append("ADVISOR 5-6 cards")
            out.append("> " + " ".join(fmt(c) for c in self.cards)
                       + (" %d" % self.num if self.num >= 0 else ""))
            if self.advice:
                for pts, throw in self.advice:
                    out.append("%s %d.%02d" % (" ".join(fmt(self.cards[i]) for i in throw),
                                               int(pts), int(pts * 100 + 0.5) % 100))
            else:
                out.append("then A mine B not")
        else:
            out.append(self._prompt())
            entry = " ".join(fmt(c) for c in self.cards)
            if self.num >= 0:
                entry += (" " if entry else "") + str(self.num)
            if self.go_pending:
                entry = "GO?"
            out.append("> " + entry)
            if self.count_items is not None and not (m.muggins_on and self.num < 0):
                out.extend(screen.wrap(spoken(self.count_items)))
            elif self.msg:
                out.extend(screen.wrap(self.msg))
        if self.err:
            err = screen.wrap("! " + self.err)
            out = out[:max(0, screen.ROWS - len(err))] + err
        return out

    def _prompt(self):
        m = self.m
        p = m.phase
        if p == M.DEAL:
            d = m.next_dealer if m.next_dealer >= 0 else self.seat
            return "deal: " + self._seat_name(d)
        if p == M.STARTER:
            return "starter? " + self._seat_name(m.dealer) + " dealt"
        if self.show_next or p == M.SHOW:
            seat = self._shower()
            crib = p == M.SHOW and m.crib_next
            return ("crib " if crib else "hand ") + self._seat_name(seat)
        if p == M.PLAY:
            return "play %s %d" % (self._seat_name(m.turn), m.count)
        games = " ".join(str(g) for g in m.games[:m.sides])
        return "%s wins %s" % (screen.SIDE_NAMES[m.winner],
                               ("", "", "skunk", "2 skunk", "lurch")[m.result]) + " " + games

    # --- the loop -------------------------------------------------------------------------

    def step(self, now):
        """One turn of the loop: handle queued key events, draw a frame, feed the watchdog."""
        self.now = now
        keys = self.keys
        if self.selftest_step >= 0:
            if self.renderer.selftest(self.selftest_step):
                self.selftest_step += 1
            else:
                self.selftest_step = -1
            self.strip.write()
            while keys.get() >= 0:
                pass
            return
        while True:
            ev = keys.get()
            if ev < 0:
                break
            self.event(ev)
        if self.renderer.frame(self.view, now):
            self.strip.write()
            self.frames += 1
        d = self.display
        if d is not None and self._text is None:
            self._text = self.lines()
            screen.draw(d, self._text)
        if self.err is not None and self.view.error_at >= 0 and \
                _ticks_diff(now, self.view.error_at) > 10000:
            self.view.error_at = -1
        if self.wdt is not None:
            self.wdt.feed()

    def boot(self):
        """At power-up: a key held down for SELFTEST_HOLD_MS starts the LED self-test."""
        keys = self.keys
        if not hasattr(keys, "update"):
            return False
        t0 = self.clock()
        t = t0
        while _ticks_diff(t, t0) < SELFTEST_HOLD_MS:
            keys.update(t)
            t = self._sleep_sync(10)
        for k in range(len(keys.names)):
            if keys.held(k):
                self.selftest_step = 0
                while keys.get() >= 0:
                    pass
                return True
        return False

    def _sleep_sync(self, ms):
        sleep = self.hw.get("sleep_ms")
        if sleep is not None:
            sleep(ms)
        else:
            adv = getattr(self.clock, "advance", None)
            if adv is not None:
                adv(ms)
        return self.clock()

    async def run(self, frame_ms=20):
        """The app's tasks: the keypad scan (its own task) and this loop, forever."""
        import asyncio
        sleep_ms = getattr(asyncio, "sleep_ms", None)
        if sleep_ms is None:
            async def sleep_ms(ms):
                await asyncio.sleep(ms / 1000)
        if hasattr(self.keys, "run"):
            asyncio.create_task(self.keys.run(self.clock))
        while True:
            self.step(self.clock())
            await sleep_ms(frame_ms)


def run(hw):
    """Start the app on hardware hw (blocks forever): what main.py calls."""
    import asyncio
    app = App(hw)
    app.boot()
    asyncio.run(app.run())
