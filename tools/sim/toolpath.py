"""tools/ on sys.path for a tool of this folder, then tools/hostenv.py's folders (firmware/,
tools/host/, every job folder of tools/): a tool here runs as `python tools/<job>/x.py`, where
sys.path[0] is this folder, not tools/. A tool's first import:
    import toolpath  # noqa: F401  (tools/, firmware/ on sys.path)
(The same file in every job folder: whichever is found first does the same.)"""

import os
import sys

_TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _TOOLS not in sys.path:
    sys.path.insert(1, _TOOLS)
import hostenv  # noqa: E402, F401
