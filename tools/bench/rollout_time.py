"""How long a release takes to reach every board of a club (issue 31): from the director's
click on the club page to every board updated (its new version installed and on trial).

    python tools/bench/rollout_time.py [--boards 20] [--bundle real|small] [--port-base 0]

Every part real, on this machine: Mosquitto with the club's config, password file and ACL
(tools/club/mosquitto.conf, registry.py's broker_files()), the club service as its own
process (python -m club), and N boards running the real firmware in the MicroPython unix port
(tools/sim, real time), each with its key, all between games (none dealt yet). The release
(`real`: the Pico W's bundle built from this checkout as version 99.0.0, 176 KB; `small`:
a few hundred bytes) is kept by `python -m club release`; the director logs in and clicks
Publish for every board (the page's form, its CSRF token). Each board hears the order in the
club's signed message, waits its settling (ota/order.py's SETTLE_MS, 5 s between games),
fetches its own signed copy from the club, checks it into a slot, and restarts (the
simulator ends: the flash it leaves is read here). Prints the seconds from the click to each
board's slot record flipped, and the last.

What this does not have: a chip's speed. A Pico W's install is some 10-15 s of its own
(docs/updates.md: the flash writes, the hashing, the read back), the boards installing side by
side; the download shares the club's Wi-Fi. docs/updates.md adds them to the figure here.
"""

import argparse
import http.cookiejar
import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from hostenv import ROOT

MOSQUITTO = os.environ.get("MOSQUITTO") or "/usr/sbin/mosquitto"
PASSWORD = "rollout-timing"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def until(what, check, deadline=120.0):
    end = time.monotonic() + deadline
    while not check():
        if time.monotonic() > end:
            raise SystemExit("rollout_time: waited %d s for %s" % (deadline, what))
        time.sleep(0.05)


def accepts(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


def broker(folder, reg):
    """Mosquitto on a free port with the club's shipped config, password file and ACL."""
    from club.registry import broker_files

    me = pwd.getpwuid(os.getuid()).pw_name
    passwd, acl = broker_files(reg, folder, owner=me)
    port = free_port()
    with open(os.path.join(ROOT, "tools", "club", "mosquitto.conf")) as f:
        shipped = f.read()
    lines = []
    for line in shipped.splitlines():
        lines.append({"listener": "listener %d 127.0.0.1" % port,
                      "include_dir": "include_dir %s/conf.d" % folder,
                      "password_file": "password_file " + passwd, "acl_file": "acl_file " + acl,
                      "persistence_location": "persistence_location %s/" % folder,
                      "user": "user " + me}.get(line.split(" ", 1)[0], line))
    conf = os.path.join(folder, "mosquitto.conf")
    with open(conf, "w") as f:
        f.write("\n".join(lines) + "\n")
    log = open(os.path.join(folder, "mosquitto.log"), "a")  # noqa: SIM115  (the process's)
    proc = subprocess.Popen([MOSQUITTO, "-c", conf], stdout=log, stderr=log)
    until("the broker", lambda: accepts(port))
    return proc, port


def service(folder, db, broker_port):
    port = free_port()
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "tools"))
    log = open(os.path.join(folder, "club.log"), "a")  # noqa: SIM115  (the process's)
    proc = subprocess.Popen([sys.executable, "-m", "club", "--broker", "127.0.0.1:%d"
                             % broker_port, "--db", db, "--http", str(port), "--bind",
                             "127.0.0.1"], stdout=log, stderr=log, env=env)
    until("the club page", lambda: accepts(port))
    return proc, port


def click(url):
    """The director logs in and publishes the kept release to every board: the time of the
    click (just before the form is sent)."""
    jar = http.cookiejar.CookieJar()
    op = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def post(form):
        req = urllib.request.Request(url + "/director", urllib.parse.urlencode(form).encode(),
                                     headers={"Origin": url})
        with op.open(req, timeout=30) as r:
            return r.read().decode()

    body = post({"do": "login", "password": PASSWORD})
    csrf = re.search(r'name="csrf" value="([^"]+)"', body).group(1)
    version = re.search(r'<select name="version"><option>([^<]+)<', body).group(1)
    t = time.monotonic()
    body = post({"do": "publish", "version": version, "table": "*", "csrf": csrf})
    if "offered to every board" not in body:
        raise SystemExit("rollout_time: the publish was refused")
    return t


def bundle(kind, out):
    """The release's bundle: the Pico W's from this checkout, or a small one (the tests')."""
    if kind == "real":  # (this checkout's firmware as a newer version: the boards run it)
        import release

        src = os.path.join(out, "firmware")
        shutil.copytree(os.path.join(ROOT, "firmware"), src)
        with open(os.path.join(src, "version.py"), "w") as f:
            f.write('VERSION = "99.0.0"\n')
        return release.make("pico_w", out, src=src)
    sys.path.insert(0, os.path.join(ROOT, "host_tests", "both"))
    import otakit

    p = os.path.join(out, "cribbage-99.0.0-rp2040.bundle")
    with open(p, "wb") as f:
        f.write(otakit.bundle("99.0.0", sig=b"-"))
    return p


def flipped(root):
    try:
        with open(os.path.join(root, "slots.rec"), "rb") as f:
            return f.read(4)[3:4] == b"T"
    except OSError:
        return False


def measure(boards=20, kind="real", keep=None):
    """{board: seconds from the click to its record flipped}."""
    from club.cli import main as club_cli
    from club.director import Director
    from club.registry import Registry
    from sim.runner import Sim

    tmp = keep or tempfile.mkdtemp(prefix="rollout-")
    procs, sims = [], []
    try:
        db = os.path.join(tmp, "club.sqlite")
        d = Director(db)
        d.set_password(PASSWORD)
        d.close()
        reg = Registry(db)
        names = ["t%d" % (i + 1) for i in range(boards)]
        keys = {n: reg.add(n) for n in names}
        bproc, bport = broker(os.path.join(tmp, "broker"), reg)
        procs.append(bproc)
        reg.close()
        sproc, sport = service(tmp, db, bport)
        procs.append(sproc)
        if club_cli(["--db", db, "release", bundle(kind, tmp)]) != 0:
            raise SystemExit("rollout_time: the release was refused")
        roots = {}
        for n in names:
            roots[n] = os.path.join(tmp, n)
            os.makedirs(roots[n])
            with open(os.path.join(roots[n], "wifi.json"), "w") as f:
                json.dump({"ssid": "club", "password": "", "broker": {
                    "host": "127.0.0.1", "port": bport, "board": n,
                    "secret": keys[n].hex()}}, f)
            sims.append(Sim(roots[n], realtime=True, web=free_port()))
        for s in sims:  # every board connected and told the night
            until("the boards to hear the club", lambda s=s: s.state() is not None)
        until("every board online", lambda: all(
            v == "online" for v in _status(sport).values()) and len(_status(sport)) == boards)
        t0 = click("http://127.0.0.1:%d" % sport)
        done = {}
        end = time.monotonic() + 600
        while len(done) < boards and time.monotonic() < end:
            for n in names:
                if n not in done and flipped(roots[n]):
                    done[n] = time.monotonic() - t0
            time.sleep(0.02)
        return done
    finally:
        for s in sims:
            try:
                s.close()
            except Exception:  # noqa: BLE001, S110  (ended: updated)
                pass
        for p in reversed(procs):
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
        if keep is None:
            shutil.rmtree(tmp, ignore_errors=True)


def _status(port):
    with urllib.request.urlopen("http://127.0.0.1:%d/state.json" % port, timeout=10) as r:
        return json.loads(r.read())["status"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=20)
    ap.add_argument("--bundle", choices=("real", "small"), default="real")
    a = ap.parse_args(argv)
    if not os.path.exists(MOSQUITTO):
        raise SystemExit("rollout_time: no Mosquitto at %s" % MOSQUITTO)
    done = measure(a.boards, a.bundle)
    times = sorted(done.values())
    for n in sorted(done, key=done.get):
        print("%-4s updated %.1f s after the click" % (n, done[n]))
    print("%d of %d boards updated; the last %.1f s after the click (median %.1f s)" % (
        len(done), a.boards, times[-1] if times else float("nan"),
        times[len(times) // 2] if times else float("nan")))
    return 0 if len(done) == a.boards else 1


if __name__ == "__main__":
    sys.exit(main())
