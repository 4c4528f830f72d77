"""How long after a board's game is acknowledged a killed broker can still lose it (issue 30;
a measurement, not a test): the club service's session is absent (its games queue at the
broker), a board publishes a game (QoS 1) and has the broker's acknowledgement, and D seconds
later the broker is killed (SIGKILL: a power cut); started again, does the service's session
still hold the game? Tried with the broker's persistence settings as given, for each D.

    python tools/clubnet/club_broker_window.py [--tries 5] [--conf "autosave_interval 1"]

Prints, per delay, how many of the tries lost the game. Needs /usr/sbin/mosquitto.
"""

import argparse
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
from localnet import accepts, free_port, wait

MOSQUITTO = "/usr/sbin/mosquitto"
DELAYS = (0.0, 0.05, 0.2, 0.5, 0.9, 1.5)


def client(port, cid, clean):
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=cid, clean_session=clean,
                    protocol=mqtt.MQTTv311)
    got = []
    c.on_message = lambda cl, u, m: got.append(bytes(m.payload))
    c.connect("127.0.0.1", port, keepalive=30)
    c.loop_start()
    return c, got


def once(conf_lines, delay):
    """True if the game survived the kill."""
    tmp = tempfile.mkdtemp(prefix="broker-window-")
    port = free_port()
    conf = os.path.join(tmp, "mosquitto.conf")
    with open(conf, "w") as f:
        f.write("listener %d 127.0.0.1\nallow_anonymous true\npersistence true\n"
                "persistence_location %s/\nmax_queued_messages 0\nuser %s\n%s\n"
                % (port, tmp, pwd.getpwuid(os.getuid()).pw_name, "\n".join(conf_lines)))
    log = open(os.path.join(tmp, "log"), "a")  # noqa: SIM115
    try:
        broker = subprocess.Popen([MOSQUITTO, "-c", conf], stdout=log, stderr=log)
        wait("club_broker_window", "the broker", lambda: accepts(port), 20)
        svc, _ = client(port, "club", False)  # the service's session, then it goes away
        svc.subscribe("cribbage/+/game", qos=1)
        time.sleep(0.3)
        svc.disconnect()
        svc.loop_stop()
        time.sleep(1.2)  # (its session saved, whatever the settings: only the game is new)
        board, _ = client(port, "board-t1", True)
        board.publish("cribbage/t1/game", b"game", qos=1).wait_for_publish(10)
        time.sleep(delay)
        broker.send_signal(signal.SIGKILL)
        broker.wait()
        board.loop_stop()
        broker = subprocess.Popen([MOSQUITTO, "-c", conf], stdout=log, stderr=log)
        wait("club_broker_window", "the broker", lambda: accepts(port), 20)
        svc, got = client(port, "club", False)
        end = time.monotonic() + 1.5
        while not got and time.monotonic() < end:
            time.sleep(0.02)
        svc.disconnect()
        svc.loop_stop()
        broker.terminate()
        broker.wait()
        return bool(got)
    finally:
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--tries", type=int, default=5)
    ap.add_argument("--conf", action="append", default=None,
                    help='a config line (again for more): default "autosave_interval 1"')
    a = ap.parse_args()
    if not os.path.exists(MOSQUITTO):
        sys.exit("club_broker_window: no %s" % MOSQUITTO)
    lines = a.conf or ["autosave_interval 1"]
    print("config: %s" % "; ".join(lines))
    for d in DELAYS:
        lost = sum(not once(lines, d) for _ in range(a.tries))
        print("killed %.2f s after the acknowledgement: %d of %d games lost"
              % (d, lost, a.tries), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
