"""The page's server (firmware/page/server.py) apart from its routes: its one shim over
MicroPython's asyncio internals (Readable: the accept loop's wait for a connection) works on
the real MicroPython the board runs; the server itself knows no route and no app."""

import ast
import os
import subprocess

from hostenv import ROOT, venv_program
from webkit import free_port

SERVER = os.path.join(ROOT, "firmware", "page", "server.py")


def test_the_accept_loops_wait_is_asyncios_own_on_micropython():
    """A task awaiting Readable(listening socket) waits while the loop runs on, and wakes as
    soon as a client connects (then accept() has it)."""
    r = subprocess.run([venv_program("micropython"), os.path.join(ROOT, "host_tests",
                                                                  "mp_readable.py"),
                        str(free_port())], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware")
                                + ":.frozen"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "READABLE waited True accepted 1" in r.stdout and "DONE" in r.stdout, r.stdout


def test_the_server_knows_no_route_and_no_app():
    """page/server.py imports neither the page's HTTP, nor its routes, the PIN or the app, and
    reaches into asyncio's internals in one place only (Readable)."""
    with open(SERVER) as f:
        text = f.read()
    tree = ast.parse(text)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module or "")
    assert names <= {"asyncio", "gc", "socket", "board.keypad", "micropython"}, names
    assert text.count("_io_queue") == 1 and text.count('"core"') == 1
    assert "Readable" in text
