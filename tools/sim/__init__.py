"""The board simulator: the real firmware app in the real MicroPython binary, fake hardware.

Run it with `python tools/sim` (`make sim`; --help lists the options). One job a module:

    cli.py        the command line: scripted runs (--keys, --autoplay) and their printout
    terminal.py   the interactive terminal UI: your keyboard is the keypad
    runner.py     Sim: one micropython process running the app (mp_driver.py) and its state
    keys.py       the key script language of --keys (keys, or cards written as cards: 5♥,
                  (5H)), as the driver's commands; the cards its keys type, named (5C = 5♥)
    games.py      what a player types: the menu's settings, a whole autoplayed game
    keymap.py     the app's key map in words (board/modes.py's THE KEY MAP), beside the keypad
    ui.py         drawing a frame: the board in the terminal, or a PNG

and, not imported here: mp_driver.py (the MicroPython side, run by runner.Sim in the
micropython binary) and standins/ (fake machine, neopixel and ssd1306 modules for --board). The
simulator's scripts, each run as `python tools/sim/X.py` (toolpath.py: tools/ on the path):

    __main__.py        `python tools/sim` (`make sim`): cli.py's command line
    simulate.py        whole games between computer players, their statistics
    advisor_player.py  the advisor against the greedy player, N games
    golden.py          digests of every frame of scripted games, before and after a refactor
"""
