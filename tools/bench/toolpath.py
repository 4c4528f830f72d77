"""tools/ on sys.path for a tool run as `python tools/bench/x.py`, then hostenv (see it)."""

import os
import sys

_TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _TOOLS not in sys.path:
    sys.path.insert(1, _TOOLS)
import hostenv  # noqa: E402, F401
