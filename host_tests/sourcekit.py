"""The source kit: every module of the firmware as text, for the tests that read the code
itself with ast (who writes the App, who reads a private, who knows a table's layout)."""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")


def firmware_sources(top=FIRMWARE):
    """(path relative to top with '/', the file's path, its source) of every .py below top,
    in a stable order."""
    for folder, dirs, files in os.walk(top):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                with open(path) as src:
                    yield os.path.relpath(path, top).replace(os.sep, "/"), path, src.read()
