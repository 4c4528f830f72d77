"""The display's text: the scores, what the board waits for, the typed entry, the spoken
count or the last message, and the error (8 lines of 16 characters, see board/screen.py); in
the menu, the penalty entry, the statistics and the advisor, their page's lines from
board/menutext.py (loaded when one shows). board/menu.py only says what their keys do.

Loaded only when there is a display (or the simulator asks): an LED-only board skips it.
"""

from cribbage import events, match as M
from cribbage.cards import fmt, fmt_many
from cribbage.score import score_hand
from cribbage.spoken import breakdown, play_why, spoken

from board import screen
from board.screen import seat_name
from board.keypad import ticks_diff, ticks_add
from board.modes import NORMAL, MSG_TEXT, MSG_PLAYER, VERSION_MSG
from board.entry import showing, shower, dealer_next

from micropython import const

_SCROLL_MS = const(1200)


def lines(v):
    """(the display's text now (also what the simulator prints), when it changes without
    an event: a long count scrolls on; -1 never). Reads the View (v: the app's snapshot, with
    the game v.m, the entry v.e, the mode and what was said), writes nothing."""
    m = v.m
    redraw = -1
    out = []  # "R45 B38": each side's initial and score (wrapped to the display's width)
    for s in range(m.sides):
        out.append(screen.SIDE_NAMES[s][0] + str(m.score[s]))
    out = screen.wrap(" ".join(out))
    first = n = 0  # the play's starter and go rows: out[first:first + n] (given up, starter
    # first, when the screen is short of rows)
    if v.mode != NORMAL:  # the menu, its penalty entry, statistics or advisor: their page
        from board.fault import load  # (the menu's pages: loaded the first time one shows,
        out = load("board.menutext").page(v, out)  # and kept, as the menu: fault.py's table)
    else:
        out.extend(screen.wrap(prompt(v)))
        if m.phase == M.PLAY and not v.e.show_next:  # the starter, who said go, the pile
            first = len(out)
            if m.starter_card >= 0:
                out.append("starter " + fmt(m.starter_card))
            if m.gone:
                said = "go"  # ("go Blue": who has said go in this series)
                for seat in range(m.players):
                    if m.gone >> seat & 1:
                        said += " " + seat_name(m, seat)
                out.extend(screen.wrap(said))
            n = len(out) - first
            if len(m.pile):  # (a mistyped card shows)
                out.extend(screen.wrap(fmt_many(m.pile)))
        entry = fmt_many(v.e.cards)
        if v.e.num >= 0:
            entry += (" " if entry else "") + str(v.e.num)
            if not v.e.cards and not showing(v) and m.phase != M.OVER:
                entry += " to " + seat_name(m, v.e.seat)  # a plain peg: whose (A picks)
        if v.e.mug >= 0:  # calling muggins (board/entry.py): who takes it
            entry = "muggins %d for %s? A next, OK" % (m.overlooked(),
                                                        screen.SIDE_NAMES[v.e.mug])
        else:
            entry = "> " + entry
        out.extend(screen.wrap(entry))  # 4 cards and a count: two lines
        if v.counting >= 0 and not m.muggins_on and \
                len(v.e.cards) == (3 if m.cards() == 5 and v.counting == 0 else 4):
            # (muggins: counted after OK; 4 cards (five-card: 3): the view's update, not a
            # fault since, said it is one)
            items = breakdown(v.e.cards, m.starter_card, v.counting == 1)
            total = 0
            for item in items:
                total += item[2]
            out.append("= %d" % total)
            more = dealer_next(v)
            if more:  # one OK counts the dealer's hand too: its count, before the OK
                out.append("then %s = %d" % (seat_name(m, m.dealer), score_hand(
                    more, m.starter_card, False) if len(more) == 4 else sum(
                    item[2] for item in breakdown(more, m.starter_card, False))))
            said = screen.wrap(spoken(items))
            room = screen.ROWS - len(out)
            if len(said) > room:  # too long for the screen: it scrolls, a line a second
                t = ticks_diff(v.now, v.count_at)
                k = (t // _SCROLL_MS) % (len(said) - room + 2)
                said = said[min(k, len(said) - room):]
                # drawn again at the next line's time (else only when an event changes it)
                redraw = ticks_add(v.now, _SCROLL_MS - t % _SCROLL_MS)
            out.extend(said[:room])
        elif v.msg[0] == VERSION_MSG[0]:  # power-up: the firmware's version is the first line
            out.insert(0, message(v))
            first += 1
        elif v.msg[0] != MSG_TEXT or v.msg[1]:
            out.extend(screen.wrap(message(v)))
            short = m.overlooked()
            if short and v.e.mug < 0:  # the claim is pegged: now the true count, and the call
                out.extend(screen.wrap("counts %d: %d missed, C muggins" % (m.got + short, short)))
    if v.power is not None:  # the battery's line (board/power.py): into out
        v.power.lines(out)
    if v.err:
        err = screen.wrap("! " + who(m, v.err))
    else:
        err = ()
    while n and len(out) + len(err) > screen.ROWS:
        out.pop(first)  # (the entry and what was said come first)
        n -= 1
    if err:
        out = out[:max(0, screen.ROWS - len(err))] + err
    return out, redraw


def draw(d, v):
    """lines(v), drawn on the display d (board/screen.py's draw()): (the text, when it
    changes without an event), for the app to keep (App.step)."""
    got = lines(v)
    screen.draw(d, got[0])
    return got


def prompt(v):
    """The line saying what the board waits for."""
    m = v.m
    p = m.phase
    if p == M.DEAL:
        d = m.next_dealer if m.next_dealer >= 0 else v.e.seat
        if m.mode != events.SINGLE and not m.deals:  # a match's game: the totals so far
            return "deal: %s\n%s" % (seat_name(m, d), totals(m))
        return "deal: " + seat_name(m, d)
    if p == M.STARTER:
        return "starter card?\n%s dealt" % seat_name(m, m.dealer)
    if v.e.show_next or p == M.SHOW:
        seat = shower(m)
        crib = p == M.SHOW and m.crib_next
        return "%s %s" % ("crib" if crib else "hand", seat_name(m, seat))
    if p == M.PLAY:
        return "play %s %d" % (seat_name(m, m.turn), m.count)
    how = ":\n" + screen.RESULTS[m.result] if m.result > events.WIN else ""
    won = "%s wins%s\n%s" % (screen.SIDE_NAMES[m.winner], how, totals(m))
    if m.match_won() >= 0:  # best of 3 or 5 is over: OK starts a new match
        won += "\nmatch to %s\nOK: new match" % screen.SIDE_NAMES[m.winner]
    return won


def totals(m):
    """Each side's games won ("games 1 0"), or in ACC mode its game points ("points 5 2")."""
    return "%s %s" % ("points" if m.mode == events.ACC else "games",
                      " ".join(str(g) for g in m.games[:m.sides]))



def who(m, text):
    """The engine's "seat 1" in a refusal as the player's colour ("Blue"): the display's and
    the simulator's printout's one reading of it."""
    i = text.find("seat ")
    if i >= 0 and text[i + 5:i + 6].isdigit() and int(text[i + 5]) < m.players:
        return text[:i] + seat_name(m, int(text[i + 5])) + text[i + 6:]
    return text


def message(v):
    """The last message (v.msg, board/modes.py: MSG_TEXT, VERSION_MSG, MSG_PLAYER or
    MSG_PEGGED) in words."""
    m = v.m
    msg = v.msg
    kind = msg[0]
    if kind != MSG_TEXT:
        if kind == VERSION_MSG[0]:
            from version import VERSION  # (loaded with the display's text only)
            return "firmware %s" % VERSION
        if kind == MSG_PLAYER:
            return "player: " + seat_name(m, msg[1])
        side = screen.SIDE_NAMES[msg[1]]  # MSG_PEGGED
        why = m.last_why  # (cribbage.events WHY_*: the event that set msg pegged last)
        if why == events.WHY_PLAY:
            return side + " " + play_why(m.last_play)
        if why == events.WHY_GO:
            return side + " go 1"
        word = "" if why == events.WHY_PEG else events.why(why)  # (one table: cribbage.events)
        return "%s +%d%s" % (side, msg[2], " " + word if word else "")
    return msg[1]
