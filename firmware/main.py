"""Boot: build the configured board's hardware, then run the app on it (forever)."""

from board_config import BOARD

hw = getattr(__import__("boards." + BOARD), BOARD).build()

from board.app import run  # noqa: E402  (after the hardware: its imports use the heap)

run(hw)
