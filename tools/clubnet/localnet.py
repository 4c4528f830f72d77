"""The loopback network of the host's measurements (club_scale.py, club_broker_window.py,
publish_lag.py): a free port, whether something listens on one, and waiting for a state with
a deadline that says what it waited for."""

import socket
import sys
import time


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def accepts(port):
    """Whether something on 127.0.0.1 accepts a connection on port."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def wait(who, what, check, deadline=60):
    """Poll check() until it is true; after deadline seconds, end the program saying who
    waited for what."""
    end = time.monotonic() + deadline
    while not check():
        if time.monotonic() > end:
            sys.exit("%s: waited %d s for %s" % (who, deadline, what))
        time.sleep(0.02)


def publishers(ports, prefix="pub-"):
    """{name: a paho MQTT client connected to 127.0.0.1:port, its loop running} for each
    (name, port) of ports: the simulated boards' way into each club's broker."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    out = {}
    for name, port in ports.items():
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=prefix + name)
        c.connect("127.0.0.1", port)
        c.loop_start()
        out[name] = c
    return out


def stop(clients=(), procs=()):
    """Disconnect the MQTT clients, then end the processes (brokers, services) in order,
    waiting for each."""
    for c in clients:
        c.loop_stop()
        c.disconnect()
    for p in procs:
        if p is not None:
            p.terminate()
            p.wait(30)
