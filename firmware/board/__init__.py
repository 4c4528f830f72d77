"""The hardware-facing app: layout, renderer, keypad, storage, settings, display text, app.

THE HARDWARE INTERFACE (the MicroPython examples/hwapi pattern). The app never constructs
hardware: a board module (firmware/boards/<name>.py, chosen in firmware/board_config.py)
builds it and hands the app one dict, `hw`, with these keys:

  layout       board.layout.Layout: where every LED is (parameters of the build)
  strip        the LEDs: `.buf` (bytearray, bpp bytes per LED, in the strip's colour order)
               and `.write()`; optional `.ORDER` (neopixel's, default GRB) and `.bpp` (3)
  keys         optional: a key source with get() -> event byte (kind | key, see
               board.keypad) or -1, and name(event) -> "0".."9" "A".."D" "*" "#" or "a"..
               (buttons); update(now)/held(k)/run(clock) if it scans. When absent the app
               builds a board.keypad.Keypad from:
  rows, cols   the 4x4 matrix pins as callables: rows[r](0/1) drive, cols[c]() read (0 =
               pressed; pull-ups); machine.Pin objects are such callables
  buttons      optional discrete buttons, callables reading 0 when pressed ("+1" per side)
  display      optional: an object with fill(c), text(s, x, y, c), show() -- the
               micropython-lib ssd1306 driver's SSD1306_I2C, or None (LEDs only)
  clock        callable -> milliseconds (time.ticks_ms on a board; wraps at 2**30)
  sleep_ms     optional callable(ms), used only by the boot self-test check
  storage_dir  folder for the saved game and settings ("/data" on a board)
  fs           optional filesystem object (open/rename/remove/mkdir, e.g. a vfs.VfsLfs2);
               None: the running system's (littlefs on a board, the host's folder)
  watchdog     optional callable(timeout_ms) -> object with feed() (machine.WDT); used only
               when the watchdog setting is on
  net          optional: an async function -> the address the board is reachable at, or
               None (no network): a board with Wi-Fi (boards/wifi.py) joins the network in
               it; then the live page is served (board/web.py), as its own asyncio task
  web_port     optional: the page's port (80); web_host: the address to listen on (0.0.0.0)

A host's own handles go under keys starting "fake_" or "sim_" (the fake board's matrix and
buttons, the simulator's key feed): the app leaves them alone. Any other key the app does not
know is refused when it starts (board.boot.HW_KEYS): a misspelt key is not silently ignored.

Start it with board.app.run(hw) (asyncio, forever), or drive board.app.App(hw) step by step:
app.boot() (a key held at power-up starts the LED self-test), app.step(now_ms) handles queued
key events and draws a frame (strip.write() only when a pixel changed); app.key("5") /
app.long_key("*") inject key presses. What a simulator or a test reads: app.m (the match
engine's state), app.err (the last refused entry's message, or None), app.lines() (the
display's text, also without a display), app.view (what the LEDs show), app.cfg (settings).

Modules (small, so each compiles in a small heap; text/menu/geometry/selftest load only when
used: every function, name and string of a loaded module stays in RAM):
layout (the LED map), render (View -> strip buffer), keypad (scan -> events), storage (saved
game), settings, app (loop, key dispatch) with entry (typing, OK) and state (engine -> View),
text + screen (display lines), menu (settings, advisor), geometry (LED positions), selftest
(the LED self-test's frames).
Importing this package loads nothing.
"""
