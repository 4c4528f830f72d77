"""Release bundles (issue 31): tools/maker/release.py builds the board kind's .mpy tree into one
bundle, signs it per board, and the board's own installer (firmware/ota/install.py, here under
CPython on a folder) takes it; `make flash` onto a board with slots makes it flat again."""

import hashlib
import json
import os
import shutil

import pytest

import build
import flash
import otakit
import release
import slots
from hostenv import ROOT
from ota.install import UpdateError, install

SECRET = "".join("%02x" % x for x in range(32))


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    out = tmp_path_factory.mktemp("release")
    return release.make("pico_w", str(out))


@pytest.fixture(scope="module")
def flat(tmp_path_factory):
    """A bundle whose files are the tree's (no image: what a CPython folder installs)."""
    out = tmp_path_factory.mktemp("flat")
    return release.make("pico_w", str(out), flat=True)


def wifi(tmp_path, board="t1", secret=SECRET):
    p = tmp_path / ("wifi-%s.json" % board)
    p.write_text(json.dumps({"ssid": "club", "password": "x", "broker": {
        "host": "192.168.1.10", "board": board, "secret": secret}}))
    return str(p)


def a_board(tmp_path, secret=SECRET):
    """A board flashed without slots, as a folder: a saved game, its Wi-Fi file."""
    root = tmp_path / "board"
    (root / "data").mkdir(parents=True)
    (root / "data" / "game").write_bytes(otakit.GAME)
    (root / "board_config.py").write_text("# the root's app\n")
    (root / "wifi.json").write_text(json.dumps({"broker": {"board": "t1", "secret": secret}}))
    return slots.Files("", otakit.DirFs(str(root)))


def test_the_bundle_is_the_build_tree_less_the_loader(made, tmp_path):
    """A release is one file, the tree packed in a littlefs image (slots.IMAGE) whose every
    file is the build's, named in the manifest's "tree" (path, size, SHA-256)."""
    from littlefs import LittleFS

    sig, man, at = release.read_head(made)
    assert sig == release.UNSIGNED
    m = json.loads(man)
    assert m["version"] == build.read_version() and m["board"] == "rp2040" and m["bundle"] == 1
    tree = tmp_path / "tree"
    build.build("rp2040w", os.path.join(ROOT, "firmware"), str(tree))  # (the Pico W's)
    names = sorted(f[0] for f in m["tree"])
    assert "main.py" not in names and "slots.mpy" not in names  # the root's, never updated
    assert "slotboot.mpy" not in names and "slotimg.mpy" not in names  # (the loader's too)
    assert "board/app.mpy" in names and "ota/install.mpy" in names and "board_config.py" in names
    assert "page/http.mpy" in names and not [n for n in names if n.startswith("lib/")]
    assert len(names) == len(release.build_files(str(tree / "rp2040w")))
    assert [f[0] for f in m["files"]] == [slots.IMAGE] == [release.IMAGE]
    assert release.IMAGE_BLOCK == slots.IMAGE_BLOCK
    with open(made, "rb") as f:
        f.seek(at)
        (_p, n, h), = m["files"]
        img = f.read(n)
        assert hashlib.sha256(img).hexdigest() == h
        assert f.read() == b""
    assert len(img) % slots.IMAGE_BLOCK == 0
    fs = LittleFS(block_size=slots.IMAGE_BLOCK, block_count=len(img) // slots.IMAGE_BLOCK,
                  mount=False)
    fs.context.buffer[:] = img
    fs.mount()
    for path, size, h in m["tree"]:  # the image holds the tree, whole
        with fs.open(path, "rb") as g:
            data = g.read()
        assert len(data) == size and hashlib.sha256(data).hexdigest() == h, path
        assert data == (tree / "rp2040w" / path).read_bytes(), path
    # the same tree packs to the same bytes (a release is reproducible)
    assert release.image(str(tree / "rp2040w"), names) == release.image(
        str(tree / "rp2040w"), names)


def test_the_saved_formats_come_from_the_sources(tmp_path):
    assert release.saves() == {"game": [1, 2], "settings": [1, 6], "history": [1, 2],
                               "outbox": [1, 1]}
    src = tmp_path / "fw"
    shutil.copytree(os.path.join(ROOT, "firmware"), src)
    p = src / "board" / "settings.py"
    assert "\nVERSION = const(6)" in p.read_text()
    p.write_text(p.read_text().replace("\nVERSION = const(6)", "\nVERSION = const(7)"))
    assert release.saves(str(src))["settings"] == [1, 7]
    p.write_text(p.read_text().replace("\nVERSION = const(7)", "\nVERSIONS = 7"))
    with pytest.raises(SystemExit, match=r"settings\.py"):
        release.saves(str(src))


def test_a_bundle_signed_for_a_board_installs_on_it_and_no_other(made, flat, tmp_path):
    """(A flat bundle: the image's own install, read back through MicroPython's littlefs, is
    test_two_slots_and_the_data_fit_the_pico_ws_filesystem's.)"""
    signed = release.sign(flat, wifi(tmp_path))
    assert signed.endswith(".t1.bundle")
    files = a_board(tmp_path)
    with open(signed, "rb") as f:
        man = install(f, files, board="rp2040", running="0.0.1", keep=0)
    assert slots.read(files) == ("a", "r", "T", 0)
    assert otakit.get(files, "slot_a/board/app.mpy")
    assert otakit.get(files, "data/game") == otakit.GAME
    assert slots.version(files, "a") == man["version"]
    other = a_board(tmp_path / "2", secret="ab" * 32)  # another board's secret
    with open(signed, "rb") as f, pytest.raises(UpdateError, match="bad signature"):
        install(f, other, board="rp2040", running="0.0.1", keep=0)
    with open(flat, "rb") as f, pytest.raises(UpdateError, match="not signed"):
        install(f, a_board(tmp_path / "3"), board="rp2040", running="0.0.1", keep=0)


def test_each_boards_packing_follows_its_flash(tmp_path):
    """release.PACKING, by flash (docs/updates.md): the Pico's and the Pico W's updates in one
    image (their small filesystems), the ESP32's flat; `release build --pack` chooses
    otherwise (make release PACK=image|flat), but not an image for an ESP32, whose game would
    lack its heap's 15 % with the slot mounted: refused, saying why, nothing written."""
    assert release.PACKING == {"pico": "image", "pico_w": "image", "esp32": "flat"}
    assert set(release.PACKING) == set(release.KINDS)
    assert release.main(["build", "--board", "pico", "--pack", "flat",
                         "--out", str(tmp_path)]) == 0
    (path,) = tmp_path.iterdir()
    m = json.loads(release.read_head(str(path))[1])
    assert m["board"] == "rp2040" and release.IMAGE not in [f[0] for f in m["files"]]
    assert "board/app.mpy" in [f[0] for f in m["files"]]
    out = tmp_path / "esp32"
    with pytest.raises(SystemExit, match=r"esp32's update cannot be packed as image: .* 15 %"):
        release.main(["build", "--board", "esp32", "--pack", "image", "--out", str(out)])
    assert not out.exists()


def test_an_esp32_release_is_flat_and_installs_and_boots_end_to_end(tmp_path, capsys):
    """The ESP32's release (flat by default) end to end: the club keeps it (python -m club
    release, as its rollout serves it), it installs signed on an ESP32 (ota/install.py, a
    board as a folder) into slot a as the tree's files, on trial; once confirmed, the common
    boot (slotimg.start()) takes the folder: first on sys.path, nothing mounted."""
    import sys

    import slotimg
    from club.cli import main as club

    path = release.make("esp32", str(tmp_path / "out"))
    _sig, man, _at = release.read_head(path)
    m = json.loads(man)
    assert m["board"] == "esp32" and "tree" not in m
    names = [f[0] for f in m["files"]]
    assert release.IMAGE not in names and "board/app.mpy" in names
    assert "board_config.py" in names and "slots.mpy" not in names and "main.py" not in names
    assert club(["--db", str(tmp_path / "club.sqlite"), "release", path]) == 0
    assert "for esp32 kept" in capsys.readouterr().out
    files = a_board(tmp_path)
    with open(release.sign(path, wifi(tmp_path)), "rb") as f:
        install(f, files, board="esp32", running="0.0.1", keep=0)
    assert slots.read(files) == ("a", "r", "T", 0)
    for p, _n, h in m["files"]:
        assert hashlib.sha256(otakit.get(files, "slot_a/" + p)).hexdigest() == h, p
    assert not otakit.get(files, "slot_a/" + slots.IMAGE)
    slots.confirm(files)
    board = tmp_path / "board"
    cwd, path0 = os.getcwd(), list(sys.path)
    os.chdir(board)
    try:
        assert slotimg.start() == ("slot_a", "a", None, None, None)
        assert sys.path[:2] == ["slot_a", "slot_a/lib"]
    finally:
        os.chdir(cwd)
        sys.path[:] = path0


def test_sign_wants_the_boards_secret(made, tmp_path):
    with pytest.raises(SystemExit, match="secret"):
        release.sign(made, wifi(tmp_path, secret="12"))
    assert release.main(["sign", "--wifi", wifi(tmp_path, "t9"), made,
                         "-o", str(tmp_path / "x.bundle")]) == 0
    assert release.read_head(str(tmp_path / "x.bundle"))[0] == release.signature(
        bytes(range(32)), release.read_head(made)[1])


def test_make_flash_onto_a_board_with_slots_makes_it_flat_again():
    """make flash writes the build at the root and removes what is not in it: both slots and
    the pointer record go, so the loader runs the root's app; the data and Wi-Fi file stay."""
    b = flash.parse_listing("\n".join([
        "F 10 aa main.py", "F 10 bb slots.mpy", "F 7 cc slots.rec", "F 9 dd slot_a/board/app.mpy",
        "F 9 ee slot_b/board/app.mpy", "F 9 ff slot_a/slot.json", "F 5 11 data/game",
        "F 5 22 wifi.json"]))
    p = flash.plan({"main.py": (10, "aa"), "slots.mpy": (10, "bb"), "board/app.mpy": (9, "dd"),
                    "board_config.py": (5, "33")}, b)
    removed = {path for path, _why in p["remove"]}
    assert removed == {"slots.rec", "slot_a/board/app.mpy", "slot_b/board/app.mpy",
                       "slot_a/slot.json"}
    assert {path for path, _why in p["keep"]} == {"data/game", "wifi.json"}
    assert "slot_a" in p["rmdir"] and "slot_b/board" in p["rmdir"]


def test_two_slots_and_the_data_fit_the_pico_ws_filesystem():
    """The room on flash (docs/memory.md): the real release, its tree packed in one image,
    installed in the real micropython binary on littlefs of the Pico W's 848 KB (the
    tightest: MicroPython's RPI_PICO_W) and of the Pico's 1408 KB, as a board takes its first
    two updates: flashed without slots (the build's tree at the root), the first update beside
    it, the second into the other slot (the root's app removed). Each state leaves room for
    the saved files at their bounds (a game 16 KB and its temporary copy, the history 8 KB and
    its copy, the settings, outbox and names: under 48 KB in 4 KB blocks) with margin; the
    slot boots from its mounted image; the install's heap stays within a Pico W's (195 KB free
    at boot) with the game running beside it."""
    import io

    got = release.measure("pico_w", io.StringIO())
    data = 48 * 1024
    for kb, fs in got.items():
        assert fs["BOOTED_IMAGE"][0] == build.read_version(), (kb, fs)
        assert fs["SLOT_BYTES"][0] <= 224 * 1024, (kb, fs)  # (456 KB as files)
        # (the first update's state only, until the second: 128 KB of margin until 0.7.0's
        # modules, each a 4 KB block at the root, left 100 KB; docs/memory.md)
        assert fs["ROOT_AND_SLOT_FREE"][0] >= data + 96 * 1024, (kb, fs)
        assert fs["TWO_SLOTS_FREE"][0] >= data + 256 * 1024, (kb, fs)
        assert fs["install's live heap at its peak"][0] < 40 * 1024, (kb, fs)  # (64-bit)
    assert got[848]["SLOT_BYTES"] == got[1408]["SLOT_BYTES"]
