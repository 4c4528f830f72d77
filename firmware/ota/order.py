"""An update order (issue 31): from the club's message to this board (its "update" field,
{"version": "0.7.0", "url": "http://club:8124/update/t1/"}) or from the board's own page with
its PIN (a bundle's address: a board at home). take() checks it and returns at once; the
order is carried out between games only (between(): the last game over and its final frame
shown SETTLE_MS, or a new game not dealt yet), never mid-game: the board fetches the bundle
(ota/fetch.py: streamed to flash, each file checked as it lands), the game and the page
paused while it installs, then restarts into the new version on trial (slots.py).

What the board says of it (the state message's and the page's "update": board/snapshot.py
reads say()): "" nothing; "waiting 0.7.0" (for the game's end); "installing 0.7.0";
"failed 0.7.0: why" (tried again after RETRY_MS, TRIES times at most); "went back from
0.7.0" (a version whose trial failed here is not taken again: the record's previous slot
holds it); "installed 0.7.0: restarting".

The order's state is kept on the app (app.ota: [what it says, [version, url, tries] or None,
the task or None], made at the first order), not in this module: a caller that lets its
modules go after a call (the publisher's, the page's lazy loads) loses nothing, and a second
order never starts a second task.

A url ending in "/" is the club's folder for this board: the bundle is <url><kind>.bundle
(the club keeps one release per board kind).
"""

import sys

from micropython import const
from version import VERSION

SETTLE_MS = const(5000)  # a game over: its final frame shown, its state sent, this long first
POLL_MS = const(500)
RETRY_MS = const(60000)  # a failed fetch (the network, a power cut at the club) again after
TRIES = const(3)  # fetches an order gets before it is given up (till a new one, or a restart)
URL_MOST = const(200)


def say(app):
    """What the board says of its update ("" nothing)."""
    o = getattr(app, "ota", None)
    return o[0] if o else ""


def _set(app, what):
    o = app.ota
    if o[0] != what:
        o[0] = what
        from board.modes import NOTHING  # (resident: the app's)

        app.apply(NOTHING)  # (a change: the state goes out with it)


def check(order):
    """(version or None, url) of an order (a dict); ValueError says what is wrong."""
    if not isinstance(order, dict):
        raise ValueError("update: an order is an object")
    url = order.get("url")
    v = order.get("version")
    if not isinstance(url, str) or not url.startswith("http://") or len(url) > URL_MOST:
        raise ValueError("update: the address is not http://... (at most %d)" % URL_MOST)
    if v is not None and (not isinstance(v, str) or not 0 < len(v) <= 16
                          or not all(c in "0123456789." for c in v)):
        raise ValueError("update: bad version")
    return v, url


def _key(v):
    try:
        return tuple(int(x) for x in v.split("."))
    except ValueError:
        return ()


def went_back(v, files):
    """Whether this board went back from version v (its trial failed): the record's previous
    slot holds v, newer than the one running."""
    import slots

    rec = slots.read(files)
    return (rec[1] != rec[0] and rec[2] == "C" and _key(v) > _key(VERSION)
            and slots.version(files, rec[1]) == v)


def between(app):
    """True between games (the last one over, or the next not dealt yet), with nothing typed
    and no menu open: never mid-game, never a key's entry lost to the restart."""
    from board.modes import NORMAL
    from cribbage.events import DEAL, OVER  # (loaded with the app already)

    m = app.m
    e = app.e
    return ((m.phase == OVER or (m.phase == DEAL and m.deals == 0)) and app.mode == NORMAL
            and not e.cards and e.ndig == 0)


def take(app, order, files=None, reset=None):
    """Take an order (None: the club offers none any more: a waiting one is dropped). Returns
    what the board says of it; ValueError for an order that is not one. files: the flash the
    slots are on (slots.Files; default: the root, or the simulator's folder); reset:
    what restarts the board (machine.reset)."""
    o = getattr(app, "ota", None)
    if o is None:  # (the first order: the app's slot for it made here, host_tests/
        o = app.ota = ["", None, None]  # test_board_door.py's one allowance says why)
    if order is None:
        if o[1] is not None:
            o[1] = None
            _set(app, "")
        return o[0]
    v, url = check(order)
    if v == VERSION:
        o[1] = None
        _set(app, "")
        return "running %s already" % v
    if v is not None and went_back(v, files or _files(app)):
        o[1] = None
        _set(app, "went back from %s" % v)
        return o[0]
    w = o[1]
    if w is not None and w[0] == v and w[1] == url:
        return o[0]  # (the club's retained message again: the same order)
    o[1] = [v, url, 0]
    _set(app, ("waiting " + (v or "")).rstrip())
    if o[2] is None:
        import asyncio

        o[2] = asyncio.create_task(run(app, files, reset))
    return o[0]


def club(pub, v):
    """The club's message's "update" field (publish/says.py's dispatch table): the order, or
    false (the director stopped the rollout: an order waiting is dropped)."""
    take(pub.app, v or None)


def page(web, form, ip):
    """The board's page's POST /update (page/routes.py): a bundle's address, with the PIN
    the board shows (as a new game; a PIN serves once: the form checked by page/writes.py).
    The page's form is its BODY bytes: an address of up to 50 characters. Here, not in the
    page's module: loaded only when used."""
    try:
        got = take(web.app, {"url": form.get("url", "")})
    except ValueError as e:
        return str(e), 400
    web.pin.used(ip)
    return got, 200


def _kind(app):
    """The bundle's board kind: the port's, or the simulator's (hw["sim_kind"]: it poses as a
    Pico W)."""
    k = app.hw.get("sim_kind")
    if k:
        return k
    from ota.install import kind
    return kind()


def _files(app):
    """The flash the slots are on: the root on a board (the simulator's folder, hw
    "sim_root", beside its Wi-Fi file)."""
    import slots

    return slots.Files(app.hw.get("sim_root") or "")


def carry_out(app, files=None, reset=None):
    """Fetch and install the waiting order now (between games: run() calls it). Returns only
    when it did not (what the board says, says why); a success restarts the board."""
    from board.modes import SAY, message

    w = app.ota[1]
    v, url = w[0] or "", w[1]
    w[2] += 1
    _set(app, ("installing " + v).rstrip())
    app.apply((SAY, message("updating to %s: a minute" % (v or "a new version"))))
    app.step(app.clock())  # (the frame that says so, before the loop stops for the install)
    if not between(app):  # (a key that step() took began a game: after it)
        w[2] -= 1
        _set(app, ("waiting " + v).rstrip())
        return
    wdt = app.wdt
    k = _kind(app)
    try:
        from ota.fetch import fetch

        man = fetch(url + k + ".bundle" if url.endswith("/") else url, files=files or _files(app),
                    board=k, progress=None if wdt is None else lambda done, total: wdt.feed())
    except Exception as e:  # noqa: BLE001  (UpdateError; MemoryError: nothing pointed at)
        _set(app, ("failed %s: %s" % (v, e) if v else "failed: %s" % e)[:80])
        app.apply((SAY, message(app.ota[0])))
        return
    app.ota[1] = None
    _set(app, "installed %s: restarting" % man["version"])
    if reset is None:
        reset = app.hw.get("sim_reset")  # (the simulator's: it ends there)
    if reset is None:
        import machine
        reset = machine.reset
    reset()


async def run(app, files=None, reset=None):
    """The order's task: between games (and SETTLE_MS after a game's end), carry it out;
    a failure is tried again after RETRY_MS, TRIES times at most. Ends with no order."""
    from board.keypad import sleep_ms, ticks_diff

    o = app.ota
    since = None
    try:
        while o[1] is not None:
            await sleep_ms(POLL_MS)
            if o[1] is None or not between(app) or getattr(sys.modules.get("slots"), "trial",
                                                               None):  # (confirmed first)
                since = None
                continue
            now = app.clock()
            if since is None:
                since = now
            if ticks_diff(now, since) < SETTLE_MS:
                continue
            carry_out(app, files, reset)
            since = None
            w = o[1]
            if w is not None and w[2] >= TRIES:
                o[1] = None
                _set(app, (o[0] + " (given up)")[:80])
            elif w is not None and o[0].startswith("failed"):
                await sleep_ms(RETRY_MS)
    finally:
        o[2] = None
