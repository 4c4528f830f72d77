"""A release packed in one file (issue 31: the Pico W's room on flash): the tree in a
littlefs image (slots.IMAGE), installed as one file with every file in it read back through
the image, mounted read-only by the loader. MicroPython only (vfs.VfsLfs2; under CPython the
tests return at once): host_tests/test_release.py installs the real release's image."""

from otakit import GAME, app_files, board, boot, bundle, get, image, image_bundle, update

import slots
from check import ON_MICROPYTHON, raises
from ota.install import UpdateError


def test_a_slot_packed_in_an_image_installs_boots_from_its_mount_and_confirms():
    """A release's tree in one file (slots.IMAGE, a littlefs image: the Pico W's room on
    flash): every file in it read back through the image before the flip; the loader mounts
    it read-only and the app runs from the mount; the next update goes into the other slot.
    MicroPython only (vfs.VfsLfs2)."""
    if not ON_MICROPYTHON:
        return
    files = board()
    man = update(files, image_bundle("0.7.0"))
    assert [f[0] for f in man["files"]] == [slots.IMAGE] and len(man["tree"]) == 6
    assert slots.read(files) == ("a", "r", "T", 0)
    assert get(files, "slot_a/board/app.mpy") is None  # (in the image, not the folder)
    assert boot(files) == ("slot_a", "ran") and slots.read(files) == ("a", "r", "C", 0)
    mnt = slots.mounted[0]
    assert mnt == "/slot_a/app"
    import sys
    assert "slotimg" in sys.modules  # (the mount's block device: kept while it is mounted)
    for p, d in app_files("0.7.0"):
        with open(mnt + "/" + p, "rb") as f:
            assert f.read() == d, p
    e = raises(OSError, open, mnt + "/board/new.mpy", "wb")  # read-only
    assert e.errno == 30
    update(files, image_bundle("0.8.0"), running="0.7.0")
    assert boot(files) == ("slot_b", "ran") and slots.mounted[0] == "/slot_b/app"
    # the third goes where the first was, the flat app at the root long gone
    assert get(files, "board_config.py") is None and get(files, "data/game") == GAME
    update(files, image_bundle("0.9.0", files=app_files("0.9.0", "raise")), running="0.8.0")
    assert boot(files) == ("slot_a", "raised") and slots.read(files) == ("b", "a", "C", 0)
    assert boot(files) == ("slot_b", "ran")
    slots.unmount(slots.mounted)
    slots.mounted = None


def test_a_bad_image_is_refused_and_nothing_is_pointed_at():
    if not ON_MICROPYTHON:
        return
    other = app_files("0.7.0")
    other[1] = ("board/app.mpy", b"B" + other[1][1][1:])  # the image's, not the manifest's
    for why, data in (
            ("board/app.mpy in app.img: not the manifest's",
             lambda: image_bundle(img=image(other))),
            ("version.mpy in app.img: not the manifest's",
             lambda: image_bundle(img=image(app_files("0.7.0")[:-1]))),  # (one missing)
            ("app.img: not a filesystem", lambda: image_bundle(img=[bytes(512)] * 8)),
            ("a tree without its image", lambda: bundle("0.7.0", tree=[["a.mpy", 1, "0" * 64]])),
            ("bad path", lambda: image_bundle(tree=[("../main.py", b"x")]))):
        files = board()
        e = raises(UpdateError, update, files, data())
        assert why in str(e), (why, str(e))
        assert slots.read(files) == ("r", "r", "C", 0), why
        assert boot(files)[0] == "" and slots.mounted is None, why
