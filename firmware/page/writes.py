"""The page's writes (POST /pin, /new-game, /names, /update): the only requests that change
the board, each from the board's own page (its Origin or Referer) and with the PIN the board
shows (page/pin.py). A phone writes rarely and watches all game: this module is loaded for a
write's request and let go after it (page/lazy.py, board/fault.py's table), as the Pin is
once its PIN is off the board (page/routes.py's Web.pin, Web.idle).

    write(web, req)  # page/routes.py's route for the four paths: the answer
"""

from board.modes import NEW_GAME

_NEW_GAME = (NEW_GAME,)  # the app's command (App.apply), as the menu's
_HEX = b"0123456789abcdefABCDEF"
_FORM = "application/x-www-form-urlencoded"


def form(req):
    """Request req's body (page/http.py's Request) as a form (application/x-www-form-
    urlencoded): a dict, the first value of a name kept; None when the request sends no
    form. ValueError for a bad %-escape or bytes that are no UTF-8 (UnicodeError is one)."""
    if req.headers.get("content-type", "").split(";")[0].strip() != _FORM:
        return None
    out = {}
    for pair in req.body.split(b"&"):
        if pair:
            i = pair.find(b"=")
            k = unquote(pair if i < 0 else pair[:i])
            if k not in out:
                out[k] = "" if i < 0 else unquote(pair[i + 1:])
    return out


def _hex(b):
    """The value of hex digit b (one byte), or -1."""
    i = _HEX.find(b) if len(b) == 1 else -1
    return i - 6 if i > 15 else i


def unquote(b):
    """A form's name or value (bytes: "+" a space, "%XX" a byte) as text; ValueError for an
    escape that is not two hex digits or bytes that are no UTF-8."""
    parts = b.replace(b"+", b" ").split(b"%")
    out = bytearray(parts[0])
    for p in parts[1:]:
        hi, lo = _hex(p[:1]), _hex(p[1:2])
        if hi < 0 or lo < 0:
            raise ValueError("bad %-escape")
        out.append(hi << 4 | lo)
        out.extend(p[2:])
    return bytes(out).decode()


def pins(web, req):
    """The PIN and the phones' waits (page/pin.py's Pin): web's, or loaded for request req
    when no PIN is wanted yet (let go once its PIN is off the board, keeping only the
    phones' waits: web.phones)."""
    p = web.pin
    if p is None:
        p = web.pin = web.load(req, "page.pin").Pin(web.app, web.phones, web.idle)
    return p


def ip(addr):
    """The client's address as a key: (ip, port) on a board, a sockaddr's bytes on unix."""
    if isinstance(addr, tuple):
        return addr[0]
    if isinstance(addr, (bytes, bytearray)) and len(addr) >= 8:
        return bytes(addr[4:8])
    return addr


def origin_ok(web, req):
    """A write comes from the board's own page: its Origin (or, without one, its Referer's)
    is the board's address (or a .local name it is asked by); a client that sends neither
    is no browser on another site's page, and may."""
    h = req.headers
    o = h.get("origin")
    if o is None:
        o = h.get("referer")
        if o is None:
            return True
        i = o.find("/", o.find("//") + 2) if "//" in o else -1
        o = o[:i] if i > 0 else o
    if o in web.own:
        return True
    host = h.get("host", "")
    return host.endswith(".local" + web.port) and o == "http://" + host


def pin_form(web, req):
    """A write with the PIN: (its form, None), or (None, why it is refused as (text,
    status)): a form that cannot be read, not from the board's page, the PIN's rules
    (page/pin.py)."""
    try:
        got = form(req) or {}  # ({} when it sends none)
    except ValueError:  # (an escape like "%z" or bytes that are no UTF-8: UnicodeError is one)
        return None, ("the form cannot be read (a bad %-escape or not UTF-8)", 400)
    if not origin_ok(web, req):
        return None, ("not from the board's page", 403)
    no = pins(web, req).refused(ip(req.client), got)
    return (None, no) if no else (got, None)


def write(web, req):
    """The answer to a write, by its path."""
    path = req.path
    if path == "/pin":
        # The board shows a new PIN on its display, for the phone that asked (the page asks
        # before a change); that phone waits before it may ask again (longer each time).
        if not origin_ok(web, req):
            return "not from the board's page", 403
        return pins(web, req).ask(ip(req.client)) or 204
    fields, no = pin_form(web, req)
    if fields is None:  # (refused: no says why)
        return no
    app = web.app
    if path == "/new-game":
        web.pin.used(ip(req.client))
        app.apply(_NEW_GAME)  # as the menu's (a fault in it is the game's: the app's own)
        return ("new game", 200) if app.err is None else (app.err, 500)
    if path == "/names":  # the seats' names (publish/: the club's), set with the PIN
        from page.lazy import passing  # (the page's, loaded: what it loads is let go after)

        try:
            got = passing("publish.contract", "parse_names", fields.get("names", ""))
        except ValueError as e:
            return str(e), 400  # (the PIN still works: the names can be put right)
        web.pin.used(ip(req.client))
        passing("publish.names", "save_names", app.store, got)
        if web.club is not None:
            web.club.names_kept(got)  # (the state goes out again with them)
        return "names kept", 200
    from ota.order import page  # /update: an update with the PIN (ota/order.py's page())
    return page(web, fields, ip(req.client))
