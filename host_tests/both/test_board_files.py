"""What stands in the way of the board's files: a directory where a file belongs (made by hand
or by a tool; the saves used to fail for ever, OSError 21), a file bigger than its format
holds (not read), an empty one (said). On real littlefs under MicroPython (vfs.VfsLfs2 on
blockdev.py's RAM flash, as on a board) and on the host's own filesystem under CPython.
(A module of its own: test_board_storage.py's 4096-byte littlefs test wants 32 KB in one
piece of the 96k heap.)
"""

from blockdev import RamBlocks
from check import ON_MICROPYTHON, raises
from board.storage import Storage
from test_board_storage import CutFs, pack, unpack



def real_fs(flash=None):
    """(folder, fs) of a real filesystem with directories: littlefs on a RAM flash under
    MicroPython (vfs.VfsLfs2, as on a board; flash: the buffer, 24 blocks of 256 bytes, taken
    once by the test), the host's own in a fresh folder under CPython (fs None: the os
    module)."""
    if ON_MICROPYTHON:
        import vfs

        dev = RamBlocks(flash, 256)
        dev.wipe()
        vfs.VfsLfs2.mkfs(dev)
        return "/data", vfs.VfsLfs2(dev)
    import tempfile

    return tempfile.mkdtemp() + "/data", None


def _mkdir_with(fs, p, content):
    mkdir = fs.mkdir if fs is not None else __import__("os").mkdir
    mkdir(p)
    if content:  # a file, and a directory with a file in it
        mkdir(p + "/sub")
        for n in (p + "/note", p + "/sub/deep"):
            f = (fs.open if fs is not None else open)(n, "wb")
            f.write(b"keep me")
            f.close()


def _read(fs, p):
    f = (fs.open if fs is not None else open)(p, "rb")
    try:
        return f.read()
    finally:
        f.close()


def test_a_directory_in_the_way_of_a_save_is_cleared_and_what_it_holds_kept():
    """game.tmp, settings.tmp, history.tmp (the temporary files) or game, settings, history
    (the real ones) made a directory: each save used to fail for ever (OSError 21). Now the
    save clears it: an empty directory is removed, one with content is moved aside as
    NAME.bad with all of it (nothing deleted); the save goes through and loads back."""
    tried = 0
    flash = bytearray(24 * 256)
    for name in ("game", "settings", "history"):
        for where in (".tmp", ""):
            for content in (False, True):
                folder, fs = real_fs(flash)
                st = Storage(folder, fs)
                p = st.path(name + where)
                _mkdir_with(fs, p, content)
                data = pack("%s %s %s" % (name, where, content))
                st.save(name, data)
                assert st.load(name, unpack) == unpack(data), (name, where)
                st.save(name, pack("again"))  # and every save after it
                assert Storage(folder, fs).load(name, unpack) == "again", (name, where)
                if content:  # moved aside whole
                    assert _read(fs, p + ".bad/note") == b"keep me"
                    assert _read(fs, p + ".bad/sub/deep") == b"keep me"
                tried += 1
    assert tried == 12


def test_a_directory_where_a_file_is_read_is_no_file():
    """A directory named as the history (or the game) reads as no file and is cleared, so the
    next save writes the file; a directory that cannot be cleared still raises."""
    folder, fs = real_fs(bytearray(24 * 256))
    st = Storage(folder, fs)
    _mkdir_with(fs, st.path("history"), True)
    assert st.open("history") is None and st.read("history") is None
    assert _read(fs, st.path("history.bad/note")) == b"keep me"
    _mkdir_with(fs, st.path("game"), False)
    assert st.load("game", unpack) is None and st.bad is None
    st.save("game", pack("one"))
    assert st.load("game", unpack) == "one"
    # neither removable (content) nor movable (history.bad is there): the error stands
    _mkdir_with(fs, st.path("history"), True)
    e = raises(OSError, st.open, "history")
    assert e.args[0] in (21, 13), e.args  # EISDIR (EACCES: some hosts)
    assert _read(fs, st.path("history/note")) == b"keep me"


def test_a_file_bigger_than_its_bound_is_not_read_and_an_empty_one_is_said():
    fs = CutFs()
    st = Storage("/data", fs)
    st.save("game", pack("x" * 60))
    assert st.load("game", unpack, 64) == "x" * 60 and st.bad is None
    assert st.load("game", unpack, 63) is None and st.bad == "game too big: kept as game.bad"
    assert "/data/game" not in fs.files and fs.files["/data/game.bad"] == pack("x" * 60)
    st.save("game", b"")
    assert st.load("game", unpack) is None and st.bad == "empty file"
    # an empty temporary file (a first save cut short) with no real one is nothing to say
    st.delete("game")
    fs.files["/data/game.tmp"] = bytearray()
    assert st.load("game", unpack) is None and st.bad is None
