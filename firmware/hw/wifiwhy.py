"""Why a Wi-Fi file (/wifi.json: hw/wifi.py) cannot be used, in words that name the field:
loaded only when hw/wifi.py's own quick check has failed (then let go: a board whose file
is right never holds this module), and by tools/maker/flash.py, which checks a file before it is put
on a board. The one home of these rules: wifi.py accepts exactly what this finds no fault in.
"""

import json

FORMAT = '{"ssid": "your network", "password": "its password"}'
BROKER = ('"broker" is {"host": "192.168.1.10", "port": 1883, "prefix": "cribbage", "board": '
          '"t1"}, the club\'s MQTT broker (only host is needed: "broker": "192.168.1.10")')


def fault(path, check):
    """hw/wifi.py's fault(): what is wrong with the file at path ("" when nothing is);
    check "broker" (no file or no entry: nothing wrong) or "credentials"."""
    cfg, text = read(path)
    if text:  # absent, or not JSON
        return "" if check == "broker" and text[:6] == "cannot" else path + " " + text
    text = broker(cfg) if check == "broker" else credentials(cfg)
    return path + ": " + text if text else ""


def read(path):
    """(the file's JSON, "") or (None, why it cannot be read): absent, or not JSON."""
    try:
        with open(path) as f:
            return json.load(f), ""
    except OSError as e:
        return None, "cannot be read (%s): put one on with make flash WIFI=file" % (
            "no such file" if e.args and e.args[0] == 2 else "error %s" % (e.args[0] if e.args
                                                                           else e))
    except ValueError as e:  # (MicroPython says "syntax error in JSON")
        return None, "is not JSON (%s); it holds %s" % (e, FORMAT)


def credentials(cfg):
    """Why cfg names no network the board can join ("" if it does)."""
    if not isinstance(cfg, dict):
        return "is not an object: it holds " + FORMAT
    ssid = cfg.get("ssid")
    if not (isinstance(ssid, str) and ssid):
        return '"ssid" (the network\'s name) is %s: it holds %s' % (
            "missing" if ssid is None else "not a name: " + show(ssid), FORMAT)
    if not isinstance(cfg.get("password", ""), str):
        return '"password" is text, not ' + show(cfg["password"])
    return ""


def broker(cfg):
    """Why cfg's "broker" entry is no broker the board can publish to ("" if it is one, or
    if there is none): the field, what it holds and what it should."""
    if not isinstance(cfg, dict) or "broker" not in cfg:
        return ""
    b = cfg["broker"]
    if isinstance(b, str):
        b = {"host": b}
    if not isinstance(b, dict):
        return "%s, not %s" % (BROKER, show(b))
    host = b.get("host")
    if not (isinstance(host, str) and host):
        return '"broker": "host" is %s: %s' % (
            "missing" if host is None else "not an address: " + show(host), BROKER)
    port = b.get("port", 1883)
    if type(port) is not int or not 0 < port < 65536:  # (true is no port)
        return '"broker": "port" is a whole number 1 to 65535, like 1883, not %s%s' % (
            show(port), " (text: leave out the quotes)" if isinstance(port, str) else "")
    for key, most in (("board", 16), ("prefix", 32)):
        v = b.get(key)  # (a board id that is empty or null: the board's own, from its uid)
        if (v if key == "board" else key in b) and not word(v, most):
            return ('"broker": "%s" is %s: 1 to %d letters, digits, - or _ (one level of an '
                    'MQTT topic: no "/", "+", "#" or space), not %s'
                    % (key, "this board's id, like \"t1\"" if key == "board"
                       else "the club's topic, like \"cribbage\"", most, show(v)))
    v = b.get("secret")
    if v is not None and not (isinstance(v, str) and len(v) == 64 and all(
            c in "0123456789abcdefABCDEF" for c in v)):
        return ('"broker": "secret" is this board\'s key as the club issued it (make club-board '
                'NAME=%s: 64 hex digits 0-9 a-f), not %s' % (
                    b.get("board") or "t1", "%d characters of text" % len(v)
                    if isinstance(v, str) else show(v)))  # (a key is never shown)
    return ""


def word(s, n):
    """s is a topic level of at most n letters, digits, "-" and "_" (no "/", "+", "#")."""
    if not isinstance(s, str) or not 0 < len(s) <= n:
        return False
    for c in s:
        if not (c.isalpha() or c.isdigit() or c in "-_"):
            return False
    return True


def show(v):
    """v as the file writes it ("1883" with its quotes, 5, true), cut to 40 characters."""
    try:
        t = json.dumps(v)
    except (TypeError, ValueError):
        t = repr(v)
    return t if len(t) <= 40 else t[:37] + "..."
