"""Wi-Fi, on the boards that have it (ESP32, Pico W): join the network named in /wifi.json,
{"ssid": "...", "password": "...", "country": "GB"} (country optional: the radio's
regulatory domain, two letters, where the port sets one), written by `make flash WIFI=file`
(never in the build, never served by the page, never printed). The board's name on the
network is "cribbage" (http://cribbage.local/ where the port answers mDNS); otherwise the
display shows the address.

A file that cannot be used is said on the console (the board's log), naming the field and
what is wrong with it (hw/wifiwhy.py, loaded only then): "wifi: /wifi.json: ..." when the
board cannot join, "club: /wifi.json: ..." when the broker entry is refused.
"""

from micropython import const

_JOIN_MS = const(20000)  # a try; then the radio rests and the board plays on without its page
_RETRY_MS = const(60000)  # until the next try (after a power cut the router may come up late)
PATH = "/wifi.json"


def joiner(path=PATH, setup=None, light=None):
    """hw["net"] for board/web.py: a Net, whose await net() gives the board's address once it
    has joined (it tries every minute until then), or None at once without credentials; None
    on a port without Wi-Fi (a plain Pico). setup(wlan): the board's own radio settings, once
    joined; light: a Pin lit once joined (the Pico W's LED)."""
    try:
        import network
    except ImportError:
        return None
    if not hasattr(network, "WLAN"):
        return None
    return Net(network, path, setup, light)


class Net:
    """The board's Wi-Fi: await net() joins; sleep() turns the radio off while the board
    sleeps (board/power.py: WLAN.active(False), then deinit() where the port has it, which on
    the Pico W powers the CYW43 down: its WL_ON low, and lets the RP2040 lightsleep), wake()
    turns it on and joins again in the background. The page's server keeps its socket and the
    club's link reconnects by itself (publish/), so both resume once the board has joined."""

    def __init__(self, network, path, setup, light):
        self.network = network
        self.path = path
        self.setup = setup
        self.light = light
        self.w = None  # the interface once joined (sleep() and wake() act only then)
        self.creds = ("", "")  # (ssid, password) once read
        self.task = None  # the join after a wake
        self.asleep = False

    async def __call__(self):
        import json

        from board.keypad import sleep_ms

        network = self.network
        path = self.path
        try:
            with open(path) as f:
                cfg = json.load(f)
            ssid = cfg["ssid"]
            password = cfg.get("password", "")
            if not (isinstance(ssid, str) and ssid and isinstance(password, str)):
                raise ValueError
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            why("wifi", path, "credentials", "no Wi-Fi: the board plays without its page")
            return None  # no credentials: no page
        try:
            network.hostname(cfg.get("hostname", "cribbage"))  # mDNS name (MicroPython 1.20+)
        except (AttributeError, OSError, ValueError, TypeError):
            pass
        if "country" in cfg:
            try:
                network.country(cfg["country"])  # before the radio starts
            except (AttributeError, OSError, ValueError, TypeError):
                print("wifi: country %r not set" % cfg["country"])
        self.creds = (ssid, password)
        w = network.WLAN(network.STA_IF)
        while True:
            addr = await self.join(w)
            if addr:
                return addr
            print("wifi: %s not joined: the board plays without its page, and tries again in "
                  "a minute" % ssid)
            w.active(False)
            await sleep_ms(_RETRY_MS)

    async def join(self, w):
        """One try at joining (up to _JOIN_MS): the address, or None."""
        from board.keypad import sleep_ms

        ssid, password = self.creds
        try:
            w.active(True)
            w.connect(ssid, password)
            for _ in range(_JOIN_MS // 250):
                if self.asleep:
                    return None  # (the board went to sleep meanwhile)
                if w.isconnected():
                    self.w = w
                    if self.setup:
                        self.setup(w)
                    if self.light:
                        self.light.value(1)
                    return w.ifconfig()[0]
                await sleep_ms(250)
        except (OSError, TypeError) as e:
            print("wifi: %r" % e)
        return None

    def sleep(self):
        """The radio off (the board sleeps): only once joined."""
        w = self.w
        if w is None or self.asleep:
            return
        self.asleep = True
        try:
            w.active(False)
            off = getattr(w, "deinit", None)
            if off is not None:
                off()  # (the Pico W: the CYW43 powered down)
        except (OSError, TypeError, ValueError) as e:
            print("wifi: radio off: %r" % e)

    def wake(self):
        """The radio on again and joined in the background (its own task)."""
        if not self.asleep:
            return
        self.asleep = False
        import asyncio

        self.task = asyncio.create_task(self.rejoin())

    async def rejoin(self):
        """Join again after a sleep, every minute until joined (or asleep again)."""
        from board.keypad import sleep_ms

        w = self.network.WLAN(self.network.STA_IF)
        while not self.asleep:
            addr = await self.join(w)
            if addr:
                print("wifi: joined again:", addr)
                return
            if self.asleep:
                return
            print("wifi: not joined again: the page waits; tried again in a minute")
            await sleep_ms(_RETRY_MS)


def broker(path=PATH, uid=b""):
    """The club's MQTT broker named in the Wi-Fi file (board/publish.py publishes to it):
    {"host", "port", "prefix", "board"} and, with the board's identity (`make club-board`'s
    file: the board logs in and signs its games, docs/club-board.md), "secret" (64 hex
    digits) from its "broker" entry ({"host": "192.168.1.10",
    "port": 1883, "prefix": "cribbage", "board": "t1"}: only host is needed), or None when
    the file names none or is unreadable. The board's id defaults to the last 3 bytes of uid
    (machine.unique_id()) in hex. With "club" too when the file has a "club" entry: the club
    page's address ("http://192.168.1.10:8124"), for the board's page to ask the club's names
    there rather than at the broker's host, port 8124."""
    import json

    try:
        with open(path) as f:
            cfg = json.load(f)
        b = cfg["broker"]
        if isinstance(b, str):
            b = {"host": b}
        host = b["host"]
        board = b.get("board") or "".join("%02x" % c for c in bytes(uid)[-3:]) or "board"
        port = b.get("port", 1883)
        prefix = b.get("prefix", "cribbage")
        secret = b.get("secret")  # (make club-board's: the board's key, 64 hex digits)
        if not (isinstance(host, str) and host and _word(board, 16) and _word(prefix, 32)
                and type(port) is int and 0 < port < 65536 and (secret is None or _key(secret))):
            raise ValueError
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        # none named, or no file: nothing to say (joiner says a missing file); else what is
        # wrong (tools/maker/flash.py says it before it is written)
        why("club", path, "broker", "the board publishes nothing to the club")
        return None
    out = {"host": host, "port": port, "prefix": prefix, "board": board}
    if secret:
        out["secret"] = secret
    club = cfg.get("club")
    if isinstance(club, str) and club:
        out["club"] = club
    return out


def why(who, path, check, then):
    """Say on the console what is wrong with the Wi-Fi file at path, if anything (fault()),
    and then what follows: 'club: /wifi.json: "broker": "port" is ...; the board ...'."""
    t = fault(path, check)
    if t:
        print("%s: %s; %s" % (who, t, then))


def fault(path=PATH, check="broker"):
    """What is wrong with the Wi-Fi file at path, naming the file and the field ("" when
    nothing is): check "broker", its broker entry (none, or no file: nothing wrong), or
    "credentials", the network (no file: wrong). For the console and the page's club status:
    hw/wifiwhy.py's fault(), loaded for this and let go (a board whose file is right
    never holds it)."""
    from board.fault import modules, release

    had = None
    try:
        had = modules()
        from hw import wifiwhy

        return wifiwhy.fault(path, check)
    except Exception as e:  # noqa: BLE001  (no room to explain: say that much)
        return "%s cannot be used (%r)" % (path, e)
    finally:
        release(had)


def _word(s, n):
    """s is a topic level of at most n letters, digits, "-" and "_" (no "/", "+", "#")."""
    if not isinstance(s, str) or not 0 < len(s) <= n:
        return False
    for c in s:
        if not (c.isalpha() or c.isdigit() or c in "-_"):
            return False
    return True


def _key(s):
    """s is a board's secret as the club writes it: 64 hex digits."""
    if not isinstance(s, str) or len(s) != 64:
        return False
    for c in s:
        if c not in "0123456789abcdefABCDEF":
            return False
    return True
