"""Club night at scale, measured (issue 24; not a test): N simulated boards (real games of the
core, tools/club/simboard.py) publish through one Mosquitto to the club service, as on a club
night but faster: each board a game every INTERVAL seconds (jittered) and its live state at
every deal. Prints the time from a game's publish to its place in the standings (the service
stores it, and the standings are computed from the store: the median and worst of the store's
time plus one standings request's time), and the broker's and the service's CPU and memory.
As a club runs it (issue 30): every board in the club's registry, logged in with its own
password (the broker's password file and ACL from `python -m club broker-files`'s code), each
game signed with the board's key and counter and checked at the club's door.

    python tools/clubnet/club_scale.py [--boards 50] [--games 10] [--interval 1.0] [--json out.json]

Needs /usr/sbin/mosquitto (apt-get install mosquitto). Everything runs on 127.0.0.1 at free
ports, in a temporary folder.
"""

import argparse
import json
import os
import pwd
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from hostenv import ROOT
from localnet import accepts, free_port, wait
from club.registry import Registry, broker_files
from club.sign import mqtt_password
from club.simboard import SimBoard, payload

MOSQUITTO = "/usr/sbin/mosquitto"
NAMES = ["P%02d" % i for i in range(200)]
TICK = os.sysconf("SC_CLK_TCK")


def proc_usage(pid):
    """(CPU seconds so far, resident KB now, peak resident KB) of a process."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / TICK
    rss = hwm = 0
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
            elif line.startswith("VmHWM:"):
                hwm = int(line.split()[1])
    return cpu, rss, hwm


def get(port, path):
    t = time.perf_counter()
    with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path), timeout=30) as r:
        data = json.loads(r.read())
    return data, time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--boards", type=int, default=50)
    ap.add_argument("--games", type=int, default=10, help="games per board")
    ap.add_argument("--interval", type=float, default=1.0, help="seconds between a board's games")
    ap.add_argument("--json", help="write the figures here too")
    a = ap.parse_args()
    if not os.path.exists(MOSQUITTO):
        sys.exit("club_scale: no %s (apt-get install mosquitto)" % MOSQUITTO)
    tmp = tempfile.mkdtemp(prefix="club-scale-")
    port, http = free_port(), free_port()
    conf = os.path.join(tmp, "mosquitto.conf")
    user = pwd.getpwuid(os.getuid()).pw_name
    reg = Registry(os.path.join(tmp, "club.sqlite"))
    keys = {}
    for i in range(a.boards):
        name = "t%02d" % (i + 1)
        keys[name] = reg.add(name)
    passwd, acl = broker_files(reg, tmp, owner=user)
    reg.close()
    with open(conf, "w") as f:
        f.write("listener %d 127.0.0.1\nallow_anonymous false\npassword_file %s\n"
                "acl_file %s\npersistence true\npersistence_location %s/\n"
                "autosave_interval 1\nautosave_on_changes true\nmax_queued_messages 0\n"
                "user %s\n" % (port, passwd, acl, tmp, user))
    logf = open(os.path.join(tmp, "logs"), "a")  # noqa: SIM115  (the children's, to the end)
    broker = subprocess.Popen([MOSQUITTO, "-c", conf], stdout=logf, stderr=logf)
    wait("club_scale", "the broker", lambda: accepts(port))
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "tools"))
    svc = subprocess.Popen([sys.executable, "-m", "club", "--broker", "127.0.0.1:%d" % port,
                            "--db", os.path.join(tmp, "club.sqlite"), "--http", str(http),
                            "--bind", "127.0.0.1"], stdout=logf, stderr=logf, env=env)
    try:
        wait("club_scale", "the club service",
             lambda: accepts(http) and get(http, "/health.json")[0]["connected"])
        return run(a, port, http, broker, svc, keys)
    finally:
        svc.terminate()
        broker.terminate()
        svc.wait(30)
        broker.wait(30)
        logf.close()


def run(a, port, http, broker, svc, keys):
    # the games first (real games of the core), so that playing them costs the run nothing
    t0 = time.perf_counter()
    boards = []
    for i in range(a.boards):
        name = "t%02d" % (i + 1)
        b = SimBoard(name, seed=i + 1, secret=keys[name])
        plan = []
        for g in range(a.games):
            b.seat([NAMES[(2 * i + g) % len(NAMES)], NAMES[(2 * i + g + 1) % len(NAMES)]])
            states = []
            while not b.deal():
                states.append(payload(b.state()))
            msg = b.finish()
            plan.append((states, msg, b.signed(msg)))
        boards.append((b.name, plan))
    print("played %d games on %d boards in %.1f s (before the clock starts)"
          % (a.boards * a.games, a.boards, time.perf_counter() - t0))
    sent = {}  # id -> when published (time.time(): the service stores with the same clock)
    lock = threading.Lock()
    before = {"broker": proc_usage(broker.pid), "service": proc_usage(svc.pid)}

    def board(name, plan, rnd):
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="board-" + name,
                        protocol=mqtt.MQTTv311)
        c.username_pw_set(name, mqtt_password(keys[name]))
        c.will_set("cribbage/%s/status" % name, b"offline", qos=1, retain=True)
        c.connect("127.0.0.1", port, keepalive=30)
        c.loop_start()
        c.publish("cribbage/%s/status" % name, b"online", qos=1, retain=True)
        time.sleep(rnd.random() * a.interval)
        for states, msg, signed in plan:
            for st in states:  # a deal's state, spread over the game's interval
                c.publish("cribbage/%s/state" % name, st, qos=0, retain=True)
                time.sleep(a.interval / (len(states) + 1) * rnd.uniform(0.5, 1.5))
            with lock:
                sent[msg["id"]] = time.time()
            c.publish("cribbage/%s/game" % name, signed, qos=1).wait_for_publish(60)
        c.disconnect()
        c.loop_stop()

    start = time.time()
    threads = [threading.Thread(target=board, args=(n, p, random.Random(i)))
               for i, (n, p) in enumerate(boards)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    total = a.boards * a.games
    wait("club_scale", "%d games at the club" % total,
         lambda: get(http, "/health.json")[0]["games"] >= total, deadline=300)
    wall = time.time() - start
    after = {"broker": proc_usage(broker.pid), "service": proc_usage(svc.pid)}
    games, _ = get(http, "/games.json?night=all")
    lat = sorted(g["received"] - sent[g["id"]] for g in games)
    stand = []
    s = {}
    for _ in range(5):
        s, dt = get(http, "/standings.json?night=all")
        stand.append(dt)
    assert s["games"] == total
    page = []
    for _ in range(3):
        t = time.perf_counter()
        urllib.request.urlopen("http://127.0.0.1:%d/?night=all" % http, timeout=30).read()
        page.append(time.perf_counter() - t)
    health, _ = get(http, "/health.json")
    out = {
        "boards": a.boards, "games": total, "states": sum(len(s) for _, p in boards
                                                          for s, _, _ in p),
        "seconds": round(wall, 1),
        "store_ms": {"median": round(1000 * statistics.median(lat), 1),
                     "p95": round(1000 * lat[int(0.95 * (len(lat) - 1))], 1),
                     "worst": round(1000 * lat[-1], 1)},
        "standings_request_ms": {"median": round(1000 * statistics.median(stand), 1),
                                 "worst": round(1000 * max(stand), 1)},
        "club_page_ms": round(1000 * statistics.median(page), 1),
        "dropped": health["dropped"], "duplicates": health["duplicates"],
    }
    for who in ("broker", "service"):
        cpu = after[who][0] - before[who][0]
        out[who] = {"cpu_s": round(cpu, 2), "cpu_pct": round(100 * cpu / wall, 1),
                    "rss_mb": round(after[who][1] / 1024, 1),
                    "peak_rss_mb": round(after[who][2] / 1024, 1)}
    print(json.dumps(out, indent=1))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
