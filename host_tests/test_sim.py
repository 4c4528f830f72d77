"""The simulator: complete games typed on the keypad of the real firmware app, running in the
real micropython binary; asserts on the scores and on the LED frame (which pixels are lit, in
which colour)."""

import os

import pytest
from board.keypad import KEYS_4X4
from hostenv import ROOT
from sim.games import game_keys, settings_keys
from cribbage import match as M
from sim.keys import parse_keys
from sim.runner import HW_DIR, Sim, micropython

SIM = os.path.join(ROOT, "tools", "sim")  # the command line, as the README runs it

HOLE, START, FINISH = 1, 0, 2  # board.layout kinds (as the driver reports them)


def run(tmp_path, keys, refused=0, **kw):
    """The board after keys on a new simulator in tmp_path/store: (its layout, final state);
    it must not crash, and refuse `refused` entries (None: any number)."""
    s = Sim(str(tmp_path / "store"), **kw)
    st = s.run(parse_keys(keys))
    assert not st.get("crash"), st["crash"]
    assert not s.errors, s.errors
    if refused is not None:
        assert st["refused"] == refused, st["refusals"]  # (0: every key did what it was for)
    return s.board, st


def pixel(board, kind, lane, n):
    for i, p in enumerate(board.pixels):
        if (p[2], p[3], p[4]) == (kind, lane, n):
            return i
    raise AssertionError("no %r" % ((kind, lane, n),))


def hue(c):
    """'red', 'green' or 'blue': the strongest channel of a lit LED."""
    return ("red", "green", "blue")[c.index(max(c))]


def lit_holes(board, lit, lane):
    """Scores of the lit track holes of one lane."""
    return sorted(p[4] for i, p in enumerate(board.pixels)
                  if i in lit and p[2] == HOLE and p[3] == lane)


# One deal entered card by card. Red (seat 0) deals, Blue is pone. Starter 5 of hearts.
# The play: Blue 10C (10), Red 5S (15: Red 2), Blue JD (25), Red 6C (31: Red 2),
# Blue KH (10), Red 4D (14), Blue 9C (23), Red 3H (26, last card: Red 1) -> Red 5.
# The show: Blue 10C JD KH 9C = 15s 6 + run of three 3 = 9; Red 5S 6C 4D 3H = 15s 4,
# pair 2, two runs of four 8 = 14; Red's crib AC 2C 7S 8D = 15s 6 -> Red 25, Blue 9.
# Keyed as few as the board takes: OK for the first deal, the starter and each card go in with
# their suits, one OK for both hands (filled in from the play: with two players the pone's OK
# counts the dealer's too; a second OK would be refused), the crib typed. ONE_DEAL_TYPED is
# the same deal as it was keyed before the board filled hands in: an OK after every card,
# every hand typed over the filled-in one; the board takes both.
# ONE_DEAL_CARDS and ONE_DEAL_SYMBOLS: the same deal with the cards written as cards (in
# parentheses as `make score` writes them, or with suit symbols): the same keys are pressed.
ONE_DEAL = "# 5C 0A 5D 11B 6A 13C 4B 9A 3C # 1A2A7D8B#"
ONE_DEAL_TYPED = ("# 5C# 10A# 5D# 11B# 6A# 13C# 4B# 9A# 3C "
                  "10A11B13C9A# 5D6A4B3C# 1A2A7D8B#")
ONE_DEAL_CARDS = "# (5H 10C 5S JD 6C KH 4D 9C 3H) # (AC 2C 7S 8D)#"
ONE_DEAL_SYMBOLS = "# 5♥ 10♣ 5♠ J♦ 6♣ K♥ 4♦ 9♣ 3♥ # A♣ 2♣ 7♠ 8♦ #"


@pytest.mark.parametrize("keys", [ONE_DEAL, ONE_DEAL_TYPED, ONE_DEAL_CARDS, ONE_DEAL_SYMBOLS])
def test_one_deal_card_by_card(tmp_path, keys):
    board, st = run(tmp_path, keys)
    assert st["scores"] == [["Red", 25], ["Blue", 9]]
    assert st["phase"] == "deal" and st["error"] == ""
    # the same hands scored by the core agree with the hand-counted numbers above
    from dealer.cardtext import parse, parse_many
    from cribbage.score import score_hand

    starter = parse("5H")
    assert score_hand(parse_many("10C JD KH 9C"), starter) == 9
    assert score_hand(parse_many("5S 6C 4D 3H"), starter) == 14
    assert score_hand(parse_many("AC 2C 7S 8D"), starter, True) == 6
    # the LED frame: each side's front peg and back peg, in its own lane and colour
    lit = board.lit(bytes.fromhex(st["frame"]))
    assert lit_holes(board, lit, 0) == [19, 25]  # Red: back peg 19 (before the crib), front 25
    assert lit_holes(board, lit, 1) == [9]  # Blue: front 9, back peg in the start hole
    assert pixel(board, START, 1, 0) in lit
    front, back = lit[pixel(board, HOLE, 0, 25)], lit[pixel(board, HOLE, 0, 19)]
    assert hue(front) == "red" and hue(back) == "red"
    assert sum(back) < sum(front)  # the back peg is dimmer: told apart without colour
    assert hue(lit[pixel(board, HOLE, 1, 9)]) == "blue"
    assert st["display"][0].startswith("R25 B9")


COLOURS = ("red", "blue", "green")  # hue of sides 0, 1, 2 (board/render.py's palette)


@pytest.mark.parametrize("seed,players,target", [(1, 2, 121), (2, 2, 121), (4, 3, 121),
                                                 (5, 2, 61)])
def test_complete_game_matches_the_engine(tmp_path, seed, players, target):
    """A whole game, every card typed (players and game set in the board's menu first): the
    board ends where the engine's own game ends, and shows the win."""
    keys, m = game_keys(seed, players, target)
    board, st = run(tmp_path, keys)
    assert (st["players"], st["target"]) == (players, target)
    assert [s for _n, s in st["scores"]] == list(m.score[:m.sides])
    assert st["games"] == list(m.games[:m.sides])
    assert st["phase"] == "over" and st["error"] == ""
    w = m.winner
    assert st["winner"] == ("Red", "Blue", "Green")[w]
    lit = board.lit(bytes.fromhex(st["frame"]))
    # a win lights the winner's whole lane up to the finish, in the winner's colour
    lane = w % board.lanes
    assert lit_holes(board, lit, lane)[:target - 1] == list(range(1, min(target, 121)))
    # (a side sharing the winner's lane still shows its pegs there, blinking)
    shared = {x for side in range(m.sides) if side != w and side % board.lanes == lane
              for x in (m.score[side], m.back[side])}
    assert {hue(lit[i]) for i, p in enumerate(board.pixels)
            if p[2] == HOLE and p[3] == lane and p[4] < target
            and p[4] not in shared} == {COLOURS[w]}
    assert hue(lit[pixel(board, FINISH, 0, 121)]) == COLOURS[w]
    # a loser alone on its lane keeps its front peg where its score is
    for side in range(m.sides):
        if side % board.lanes != lane and m.sides <= board.lanes:
            assert m.score[side] in lit_holes(board, lit, side)
            assert hue(lit[pixel(board, HOLE, side, m.score[side])]) == COLOURS[side]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_five_card_game_matches_the_engine(tmp_path, seed):
    """--cards 5: the board's cards setting set in its menu, then a whole game of five-card
    cribbage typed (the pone's three for last pegged by the board itself; a hand the play did
    not enter in full typed after the cards filled in): the board ends where the engine's
    own five-card game ends, nothing refused."""
    keys, m = game_keys(seed, cards=5)
    assert m.cards() == 5 and (m.players, m.target) == (2, 61) and m.phase == M.OVER
    assert keys.startswith(settings_keys(cards=5) + " ")
    board, st = run(tmp_path, keys)
    assert (st["players"], st["target"], st["cards"]) == (2, 61, 5)
    assert [s for _n, s in st["scores"]] == list(m.score[:2]) and max(m.score) >= 61
    assert st["games"] == list(m.games[:2])
    assert st["phase"] == "over" and st["error"] == ""
    assert st["winner"] == ("Red", "Blue")[m.winner]
    keys6, _m = game_keys(seed)  # the six-card game's state says nothing of cards
    assert "cards" not in run(tmp_path / "six", keys6)[1]


def test_autoplay_five_card_on_the_command_line(capsys):
    code, out, err = cli_err(capsys, "--autoplay", "2", "--cards", "5")
    assert code == 0 and err == "", err
    assert "autoplay: seed 2, five-card, 2 players, game 61: " in out
    keys, m = game_keys(2, cards=5)
    assert "scores: Red %d, Blue %d" % tuple(m.score[:2]) in out and "phase: over" in out
    for bad in (["--players", "3"], ["--game", "121"]):  # five-card: two players to 61
        with pytest.raises(SystemExit):
            cli_err(capsys, "--autoplay", "1", "--cards", "5", *bad)
        assert "two players to 61" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # the board's own setting, not a key script's
        cli_err(capsys, "--keys", "#", "--cards", "5")
    assert "--cards 5 goes with --autoplay" in capsys.readouterr().err


def test_restart_resumes_the_saved_game(tmp_path):
    """Quit half way and start again with the same storage: the game goes on from there."""
    keys, m = game_keys(3)
    words = keys.split(" ")
    half = len(words) // 2
    _board, mid = run(tmp_path, " ".join(words[:half]))
    assert mid["phase"] != "over"
    assert os.listdir(tmp_path / "store")  # the saved game is a file on the host
    _board, st = run(tmp_path, " ".join(words[half:]))
    assert [s for _n, s in st["scores"]] == list(m.score[:2])
    assert st["phase"] == "over"


def test_a_wrong_entry_is_refused_and_flashes(tmp_path):
    board, before = run(tmp_path, "# 5C# 10A# 5D#")
    assert before["scores"] == [["Red", 2], ["Blue", 0]]
    s = Sim(str(tmp_path / "store"))
    # the five of spades again (already played); then look at the board every 100 ms
    st = s.run(parse_keys("5D#") + ["state", "wait 100"] * 8 + ["wait 2000"])
    assert st["error"], st
    assert st["scores"] == before["scores"] and st["phase"] == "play"
    header = [i for i, p in enumerate(board.pixels) if p[2] in (3, 4, 5)]  # games turn crib

    def header_red(state):
        lit = board.lit(bytes.fromhex(state["frame"]))
        return all(i in lit and hue(lit[i]) == "red" for i in header)

    flashes = [header_red(x) for x in s.states]
    assert any(flashes) and not all(flashes)  # it flashes: on and off
    assert not header_red(st)  # and stops after a second; the error text stays
    assert any("!" in line for line in st["lines"])


def test_a_refusal_names_the_player_as_the_display_does(tmp_path, capsys):
    """Issue 22 #11: the printout's error names players (Red), as the display does (board/
    text.py's who()), never the engine's seats ("seat 0")."""
    from board.screen import wrap

    # ONE_DEAL's play and hands, then the crib's first card typed as Red's 5S: refused at its
    # suit key (the keys stop there, so the refusal is the last thing the display says)
    keys = "# 5C 0A 5D 11B 6A 13C 4B 9A 3C # 5D"
    _board, st = run(tmp_path, keys, refused=None)
    assert st["error"] == st["refusals"][0] == "5S is in Red's hand"
    shown, d = wrap("! " + st["error"]), st["display"]  # the display's own "!" lines
    assert any(d[i:i + len(shown)] == shown for i in range(len(d)))
    code, out = cli(capsys, "--keys", keys, "--show")  # the board drawn, and the printout
    assert code == 1
    assert "error:  5S is in Red's hand" in out  # the drawn board's error line
    assert "last error: 5S is in Red's hand" in out and "refused: 5S is in Red's hand" in out
    assert "seat" not in out


@pytest.mark.parametrize("target", ["rp2040", "esp32"])
def test_built_tree_plays_a_game(tmp_path, target):
    """The .mpy tree `make build` makes for each board, with the fake board (tools/maker/build.py
    --host), runs the same whole game in micropython (every module imported from .mpy: no
    source is left in the tree but main/board_config)."""
    import build

    out = tmp_path / "build"
    build.build(target, os.path.join(ROOT, "firmware"), str(out), host=True)
    tree = out / target
    sources = [str(p.relative_to(tree)) for p in tree.rglob("*.py")]
    assert sorted(sources) == ["board_config.py", "main.py"]
    keys, m = game_keys(1)
    _board, st = run(tmp_path, keys, firmware=str(tree))
    assert [s for _n, s in st["scores"]] == list(m.score[:2])
    assert st["games"] == list(m.games[:2])
    assert st["phase"] == "over"


def test_scripted_command_line(tmp_path):
    """tools/sim --keys prints the final state and writes a PNG of the board."""
    import subprocess
    import sys

    png = tmp_path / "board.png"
    r = subprocess.run([sys.executable, SIM,
                        "--storage", str(tmp_path / "s"), "--keys", "# 5C# 10A# 5D#",
                        "--png", str(png)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "scores: Red 2, Blue 0" in r.stdout
    assert "phase: play" in r.stdout and "last error: none" in r.stdout
    from PIL import Image

    img = Image.open(png)
    assert img.size[0] > 500 and img.size[1] > 200
    r = subprocess.run([sys.executable, SIM,
                        "--storage", str(tmp_path / "s"), "--keys", "5X"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "'X' is not a keypad key" in r.stderr


def cli(capsys, *args):
    """tools/sim's command line in this process: (exit status, stdout)."""
    from sim import cli as sim_cli

    code = sim_cli.main(list(args))
    return code, capsys.readouterr().out


def cli_err(capsys, *args):
    """tools/sim's command line in this process: (exit status, stdout, stderr)."""
    from sim import cli as sim_cli

    code = sim_cli.main(list(args))
    got = capsys.readouterr()
    return code, got.out, got.err


def test_scripted_runs_never_touch_the_interactive_game(tmp_path, capsys, monkeypatch):
    """--keys and --autoplay play on a temporary folder (deleted after) unless --storage is
    given: the interactive board's game (.sim/, here a stand-in) is never changed."""
    import tempfile

    from sim import cli as sim_cli

    inter = tmp_path / "inter"
    monkeypatch.setattr(sim_cli, "STORAGE", str(inter))
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    code, out = cli(capsys, "--storage", str(inter), "--keys", "7#")
    assert code == 0 and "scores: Red 7, Blue 0" in out
    assert "saved game: %s" % inter in out
    saved = (inter / "game").read_bytes()
    code, out = cli(capsys, "--keys", "2#")
    assert code == 0 and "scores: Red 2, Blue 0" in out  # a new board, not Red 9
    assert "saved game: not kept" in out
    code, out = cli(capsys, "--autoplay", "1", "--upto", "6")
    assert code == 0 and "autoplay: seed 1, 2 players, game 121:" in out
    code, out = cli(capsys, "--fresh", "--keys", "3#")
    assert code == 0 and "scores: Red 3, Blue 0" in out
    assert (inter / "game").read_bytes() == saved  # untouched by all three
    assert not os.listdir(temp)  # and their temporary folders are gone
    code, out = cli(capsys, "--storage", str(inter), "--keys", "2#")
    assert "scores: Red 9, Blue 0" in out  # --storage goes on from the saved game


def test_fresh_forgets_the_game_and_keeps_the_settings(tmp_path, capsys):
    import json

    from sim.games import settings_keys

    store = str(tmp_path / "s")
    code, out = cli(capsys, "--storage", store, "--keys", settings_keys(players=3) + " 7#")
    assert code == 0 and "scores: Red 7, Blue 0, Green 0" in out
    (tmp_path / "s" / "history").write_bytes(b"kept")  # finished games: not the game
    code, out = cli(capsys, "--storage", store, "--fresh", "--keys", "", "--json")
    st = json.loads(out)
    assert st["players"] == 3 and [s for _n, s in st["scores"]] == [0, 0, 0]
    assert (tmp_path / "s" / "history").read_bytes() == b"kept"
    # --autoplay starts from a new board: the default settings too
    code, out = cli(capsys, "--storage", store, "--autoplay", "1", "--upto", "3", "--json")
    assert json.loads(out)["players"] == 2


def test_the_printout_names_the_cards_typed(tmp_path, capsys):
    """Keypad letters are suits A-D (C = hearts), not card letters: the printout says which
    card each typed number and letter is."""
    code, out = cli(capsys, "--keys", "# 5C 0A (5S)")
    assert code == 0
    assert "cards typed: 5C = 5\u2665, 0A = 10\u2663, 5D = 5\u2660" in out
    assert "scores: Red 2, Blue 0" in out


def test_buttons_and_a_board_without_display(tmp_path):
    """The two "+1" buttons peg for their side; without the OLED the LEDs still show it."""
    board, st = run(tmp_path, "[a][a][b]", display=False)
    assert st["scores"] == [["Red", 2], ["Blue", 1]]
    assert "display" not in st
    lit = board.lit(bytes.fromhex(st["frame"]))
    assert lit_holes(board, lit, 0) == [1, 2] and lit_holes(board, lit, 1) == [1]


@pytest.mark.parametrize("board", ["pico", "esp32"])
def test_real_board_modules_run_the_game(tmp_path, board):
    """firmware/hw/pico.py and esp32_devkit.py themselves (their pin maps, pulls, the
    I2C scan for the OLED) build the hardware on fake machine/neopixel/ssd1306 modules,
    and the keys, wired by pin number, play a whole game."""
    keys, m = game_keys(2)
    board_, st = run(tmp_path, keys, board=board)
    assert [s for _n, s in st["scores"]] == list(m.score[:2])
    assert st["phase"] == "over"
    assert st["display"][0] == st["lines"][0]  # the OLED was found on the bus and drawn
    assert board_.keys == KEYS_4X4 + "ab"  # the 4x4 keypad, then buttons a and b


def test_fake_machine_refuses_what_the_port_refuses():
    import subprocess

    code = (
        "import machine\n"
        "def try_pin(plat, p, *a):\n"
        "    machine.PLATFORM = plat\n"
        "    try:\n"
        "        machine.Pin(p, *a)\n"
        "        print('ok')\n"
        "    except ValueError as e:\n"
        "        print('refused', e)\n"
        "try_pin('esp32', 6, machine.Pin.OUT)\n"
        "try_pin('esp32', 35, machine.Pin.IN, machine.Pin.PULL_UP)\n"
        "try_pin('esp32', 35, machine.Pin.IN)\n"
        "try_pin('rp2', 23, machine.Pin.OUT)\n"
        "try_pin('rp2', 22, machine.Pin.OUT)\n"
    )
    r = subprocess.run([micropython(), "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, MICROPYPATH=HW_DIR),
                       timeout=60)
    lines = r.stdout.splitlines()
    assert lines[0].startswith("refused") and "flash" in lines[0]
    assert lines[1].startswith("refused") and "input only" in lines[1]
    assert lines[2] == "ok"
    assert lines[3].startswith("refused")
    assert lines[4] == "ok"


def sims_at_once(argvs, burners):
    """Run tools/sim once per argv, all at the same time, while `burners` processes keep
    every core busy: [(exit status, stdout, stderr)] in argv order."""
    import subprocess
    import sys

    burn = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(burners)]
    try:
        runs = [subprocess.Popen([sys.executable, SIM, *argv], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for argv in argvs]
        outs = [p.communicate(timeout=600) for p in runs]  # (a bound, not a measure)
        return [(p.returncode, o, e) for p, (o, e) in zip(runs, outs)]
    finally:
        for p in burn:
            p.kill()
            p.wait()


def test_scripted_runs_are_the_same_however_busy_the_machine(tmp_path):
    """Issue 22 #15: scripted runs play in virtual time. Six whole games typed at once, on a
    machine whose cores (up to four) are kept busy, end identically, LED for LED, where the engine's
    own game ends (before, most ended at the first deal with "who deals?": asyncio still
    stamped the app's tasks with the real clock, so a slow start held the app back while
    the keys went by)."""
    import json

    keys, m = game_keys(6, 3, 121)
    runs = sims_at_once([["--autoplay", "6", "--players", "3", "--json"]] * 3
                        + [["--keys", keys, "--json"]] * 3, burners=min(os.cpu_count() or 2, 4))
    assert [code for code, _o, _e in runs] == [0] * 6, [e for _c, _o, e in runs]
    states = [json.loads(o.splitlines()[-1]) for _c, o, _e in runs]
    assert all(st == states[0] for st in states)  # the same frame, display, scores
    st = states[0]
    assert st["phase"] == "over" and st["refused"] == 0
    assert [s for _n, s in st["scores"]] == list(m.score[:m.sides])


def test_a_scripted_run_that_went_wrong_exits_1(tmp_path, capsys):
    """A run that did not do what it was told says why and exits 1: an entry the board
    refused (even if later keys went on), a key the board has not got."""
    code, out, err = cli_err(capsys, "--keys", "# 5C 0A 5D 5D 11B")  # 5♠ twice, then J♦
    assert code == 1 and "the board refused 1 entry" in err
    assert "refused: 5S was already played" in out
    assert "scores: Red 2, Blue 0" in out and "last error: none" in out  # (J♦ went on)
    code, out, err = cli_err(capsys, "--keys", "[c]")  # the fake board has buttons a, b only
    assert code == 1 and "no key 'c' on this board" in err
    code, out, err = cli_err(capsys, "--keys", "# 5C 0A 5D")
    assert code == 0 and "refused" not in out + err


def test_autoplay_that_did_not_reach_the_end_exits_1(tmp_path, capsys, monkeypatch):
    """--autoplay exits 1 when the board does not end where the engine's game ended (here a
    key of the script lost on the way: the board refuses what follows)."""
    from sim import cli as sim_cli

    def lossy(seed, players, target, **kw):
        keys, m = game_keys(seed, players, target, **kw)
        return " ".join(keys.split(" ")[:-1]), m  # the last entry lost

    monkeypatch.setattr(sim_cli, "game_keys", lossy)
    code, out, err = cli_err(capsys, "--autoplay", "1")
    assert code == 1 and "phase: over" not in out
    assert "the autoplayed game did not reach its end" in err
    monkeypatch.undo()
    code, out, err = cli_err(capsys, "--autoplay", "1")
    assert code == 0 and "phase: over" in out and err == ""
