"""The whole board app on the real MicroPython binary: a complete game entered on the keys of
the fake board (engine + renderer + keypad + storage), tools/bench/mp_board.py printing the
GAME line checked here, run twice:

* from .mpy files as `make build` makes them (tools/build.py's mpy-cross call), in the 96k heap
  the core's tests get (this 64-bit port's objects are about twice an ESP32's);
* from source, as `make dev` / `mpremote mount` runs it (every module compiled on the heap
  first), in SOURCE_HEAP: more than an ESP32 without PSRAM offers (~112 KB): since the
  crash-proofing of issue 9 (boot guard, deferred saves, fault recovery) and the typed entry's
  own object the source tree no longer compiles on such a board (the peak is ~89 KB, but the
  compiler wants blocks of 2 KB in one piece in a heap its earlier modules left fragmented: it
  runs in 128k from one checkout's folder and needs 132k from another, whose longer paths shift
  the blocks): run it there from .mpy (make flash), not from source. A Pico has ~190 KB:
  `make dev` runs there.

and, third, booted the way firmware/main.py boots a board (tools/bench/main_game.py: the board
module first, boards/fake.py with its display, then board.app), from .mpy, one whole game at
each of 2, 3, 4, 5 and 6 players in MAIN_HEAP: the whole process (firmware, app, display
text, the fake board, asyncio and the script) peaks at ~105 KB live (see the README's heap
figures); and serving the live page to a client all game, in WEB_HEAP. Fourth, the same two
with the firmware in a ROMFS image (tools/bench/rom_game.py: the code runs in place, as from a
board's ROMFS partition), in ROM_HEAP_KB (issue 9's goal: 80 KB) and ROM_WEB_HEAP_KB beside
the image.

A MemoryError anywhere fails the run. The peak the script reports is the app's (its own code
and benchlib's are measured before the firmware loads and left out; the two add up to the
heap in use at the worst moment, which must fit with room to spare)."""

import os
import subprocess

import pytest

import build  # tools/build.py
from hostenv import ROOT, venv_program

MICROPYTHON = venv_program("micropython")
MPY_HEAP = "96k"
SOURCE_HEAP = "136k"  # (128k-132k needed, by the checkout's folder: see above)
MAIN_HEAP = "132k"  # booted as main.py, with the display, from files: ~105 KB live at the
# peak (from ROMFS, the goal of issue 9, 80 KB, is met: ROM_HEAP_KB); it runs in 128k since the
# save is written in pieces and the journal is made at its size up front (neither needs a block
# of the game's size in a fragmented heap)
WEB_HEAP = "192k"  # and serving the live page to a client (board/web.py): the goal is 96k
MAIN_PATH = ".:lib:.frozen"  # the firmware's folder, its lib/ (microdot), asyncio (frozen)


def play(path, heap):
    """Run the game script with firmware from path in heap; the GAME line's numbers. The
    firmware is imported from the current folder, as a board imports it from its filesystem's
    root: each module's __file__ is a string on the heap, so a long temporary folder would
    cost the game memory a board does not spend."""
    env = dict(os.environ, MICROPYPATH=".:" + os.path.join(ROOT, "tools/bench"),
               MP_BOARD_CHILD="test")  # run here, in heap: no re-run with a bigger one
    p = subprocess.run([MICROPYTHON, "-X", "heapsize=" + heap,
                        os.path.join(ROOT, "tools/bench/mp_board.py")],
                       capture_output=True, text=True, env=env, cwd=path, timeout=300)
    assert p.returncode == 0, p.stderr + p.stdout
    game = [line.split() for line in p.stdout.splitlines() if line.startswith("GAME ")]
    assert len(game) == 1, p.stdout
    g = game[0]
    # GAME over winner W scores A B events N peak P heap H harness S saved True
    assert g[-1] == "True"  # the saved game reloads as the game played
    winner, a, b = int(g[3]), int(g[5]), int(g[6])
    assert max(a, b) >= 121 and min(a, b) < 121 and (a, b)[winner] >= 121
    assert int(g[8]) > 100  # events: a real game, not a stub
    assert "IDLE alloc 0" in p.stdout.splitlines()  # the loop allocates nothing when idle
    return {"peak": int(g[10]), "heap": int(g[12]), "harness": int(g[14])}


def test_whole_game_from_mpy_in_96k(tmp_path):
    build.build("esp32", os.path.join(ROOT, "firmware"), str(tmp_path))  # as `make build`
    r = play(str(tmp_path / "esp32"), MPY_HEAP)
    assert r["heap"] < 100 * 1024  # it did run in the small heap
    assert r["peak"] + r["harness"] < r["heap"]


def test_whole_game_from_source():
    r = play(os.path.join(ROOT, "firmware"), SOURCE_HEAP)
    assert r["heap"] < 140 * 1024  # it did run in the heap it was given
    assert r["peak"] + r["harness"] < r["heap"]


@pytest.fixture(scope="module")
def main_tree(tmp_path_factory):
    """The esp32 tree as `make build` makes it, with tools/bench/main_game.py compiled beside
    it (from source, every local name of the script would be interned on the heap)."""
    out = tmp_path_factory.mktemp("main")
    build.build("esp32", os.path.join(ROOT, "firmware"), str(out))
    tree = str(out / "esp32")
    r = subprocess.run([build.mpy_cross(), "-O3", "-o", os.path.join(tree, "main_game.mpy"),
                        os.path.join(ROOT, "tools/bench/main_game.py")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return tree


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_whole_game_booted_as_main_py(main_tree, players):
    """A whole game at each number of players, booted as main.py boots (board module first,
    with the display), from .mpy in MAIN_HEAP: every key taken, the game won and saved."""
    g, out = run_main(main_tree, MAIN_HEAP, str(players))
    assert out.count("\nMAIN ") + out.startswith("MAIN ") == 1, out
    # MAIN players P sides S winner W score N events E peak X heap H saved True
    assert int(g["players"]) == players and g["saved"] == "True"
    assert int(g["score"]) >= 121 and 0 <= int(g["winner"]) < int(g["sides"])
    assert int(g["events"]) > 100  # a real game, not a stub
    heap = int(g["heap"])
    assert heap < int(MAIN_HEAP[:-1]) * 1024 + 4096  # it ran in the heap it was given
    assert int(g["peak"]) < heap


# From a ROMFS image (build/esp32.romfs, tools/bench/rom_game.py): the code stays in flash, so
# the heap holds only what it makes. The budgets are the heap beside the image (which this port
# has to hold in its heap: rom_heap() adds it): the game ~66 KB live at the peak, in the 80 KB
# of issue 9's goal (it runs in 78), and the next game after it; the page with a client ~109
# KB live.
ROM_HEAP_KB = 80
ROM_GAMES = 20  # in a row, each recorded (seventy at 2-6 players, tried: no fault)
ROM_WEB_HEAP_KB = 128
# The names a whole game interns (every global, attribute, argument and short string of the
# code it loads, and this harness's few): this port keeps them in pools of 20, 40, ... 320
# (620 in all); the 621st takes a pool of 640 names, 7 KB in one piece, which a fragmented
# 80 KB heap cannot find. A game interns 609-613 (2-6 players), and the OK that records it and
# starts the next game 613-616 (the history's and the summary's modules); the page's server
# adds ~300.
NAME_POOLS = 5


def rom_heap(image, budget_kb):
    """-X heapsize for budget_kb of heap beside the image's block (this port's heap gives
    about 98.8 % of heapsize to objects: the rest is its allocation table)."""
    block = (os.path.getsize(image) + 15) // 16 * 16
    return "%dk" % ((budget_kb * 1024 + block) * 1000 // 988 // 1024), block


@pytest.fixture(scope="module")
def rom_data(main_tree, tmp_path_factory):
    """A board's filesystem beside its ROMFS image: the game script only (compiled)."""
    data = tmp_path_factory.mktemp("romdata")
    with open(os.path.join(main_tree, "main_game.mpy"), "rb") as f:
        (data / "main_game.mpy").write_bytes(f.read())
    return str(data), main_tree + build.ROMFS_EXT


def run_rom(rom_data, budget_kb, *args):
    data, image = rom_data
    heap, block = rom_heap(image, budget_kb)
    g, out = game_lines([MICROPYTHON, "-X", "heapsize=" + heap,
                         os.path.join(ROOT, "tools/bench/rom_game.py"), image, *args],
                        ".:.frozen", data)
    assert int(g["score"]) >= 121, out
    assert int(g["heap"]) - block <= budget_kb * 1024  # beside the image: within the budget
    return g, int(g["peak"]) - block


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_game_after_game_from_a_romfs_image(rom_data, players):
    """Booted as main.py boots, with the firmware's .mpy files in a ROMFS image (a board whose
    MicroPython has a ROMFS partition, `make flash ROMFS=1`): the whole game in ROM_HEAP_KB
    beside the image, ~65 KB live at its peak (from files: ~105 KB, MAIN_HEAP); then OK
    after each win records the game with its summary (board/history.py and cribbage/
    summary.py load, and the game is replayed on a heap in pieces) and starts the next, for
    ROM_GAMES games in the same heap: a board goes on game after game. Its names stay in
    NAME_POOLS."""
    import history as tool  # tools/history.py

    g, live = run_rom(rom_data, ROM_HEAP_KB, str(players), "7", "0", str(ROM_GAMES))
    assert int(g["players"]) == players and int(g["events"]) > 100
    assert live < 72 * 1024, live  # (the most of all the games)
    with open(os.path.join(rom_data[0], "history"), "rb") as f:  # (the board's /data)
        recs = tool.records(f.read())
    assert g["phase"] == "0" and len(recs) == ROM_GAMES, (g, len(recs))  # and the next game
    for r in recs:  # each game's record, with its summary (byte 11: SUMMARY)
        assert r[4] == int(g["sides"]) and r[11] & 2, r
    assert int(g["n_pool"]) <= NAME_POOLS, (
        "the games interned %s names: past 620 the next pool takes 7 KB at once (see "
        "NAME_POOLS)" % g["n_qstr"])


def test_the_page_and_a_client_from_a_romfs_image(rom_data):
    from webkit import free_port
    g, live = run_rom(rom_data, ROM_WEB_HEAP_KB, "2", "7", str(free_port()))
    assert int(g["pushed"]) > 5 and live < ROM_WEB_HEAP_KB * 1024


def run_main(tree, heap, *args):
    """main_game's MAIN line (and the WEB line, with a port) as a dict; the output."""
    return game_lines([MICROPYTHON, "-X", "heapsize=" + heap, "-m", "main_game", *args],
                      MAIN_PATH, tree)


def game_lines(cmd, path, cwd):
    """Run main_game (cmd) with MICROPYPATH path in cwd: its MAIN and WEB lines' numbers as a
    dict, and the output; the run must end well and the save match the game."""
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, MICROPYPATH=path), cwd=cwd)
    assert p.returncode == 0, p.stderr + p.stdout
    g = {}
    for line in p.stdout.splitlines():
        if line.startswith(("MAIN ", "WEB ", "NEXT ")):
            w = line.split()
            g.update(zip(w[1::2], w[2::2]))
        elif line.startswith("qstr pool: "):  # micropython.qstr_info(): n_pool=5, n_qstr=613, ...
            g.update(kv.split("=") for kv in line[11:].split(", "))
    assert g.get("saved") == "True", p.stdout
    return g, p.stdout


def test_whole_game_serving_the_page_to_a_client(main_tree):
    """The live page served (board/web.py, microdot from the build's lib/) with a client of
    its live stream connected all game, from .mpy, in WEB_HEAP: every key taken, the stream
    pushed the changes, and the game won and saved."""
    from webkit import free_port
    g, out = run_main(main_tree, WEB_HEAP, "2", "7", str(free_port()))
    assert "web: the page is at http://127.0.0.1:" in out, out
    assert int(g["pushed"]) > 20 and int(g["bytes"]) > 10000  # state pushed all game
    assert int(g["peak"]) < int(g["heap"])


def test_short_of_memory_the_board_plays_without_its_page(main_tree):
    """Where the heap cannot hold the page's server (128k), the web task says so and
    stops; the game is played to its end as without Wi-Fi."""
    from webkit import free_port
    g, out = run_main(main_tree, "128k", "2", "7", str(free_port()))
    assert "web: stopped: MemoryError" in out, out
    assert g["pushed"] == "0" and int(g["score"]) >= 121
