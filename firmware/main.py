"""Boot: build the configured board's hardware, then run the app on it (forever)."""

from board_config import build  # the board's module (firmware/boards/), named in one line

hw = build()

from board.tasks import run  # noqa: E402  (after the hardware: its imports use the heap)

run(hw)
