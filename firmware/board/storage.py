"""Saved games on flash: write a temporary file, then rename it over the real one.

littlefs (and POSIX) rename atomically, so after a power cut at any moment the real file holds
either the old game or the new one: at most the entry being confirmed is lost. On a
filesystem where rename will not replace a file (FAT), the old file is removed first and
load() falls back to the temporary file, which is complete by then.

    st = Storage("/data")             # a folder; fs: an object with open/rename/remove/mkdir
    st.save("game", data_bytes)       # after every confirmed event
    m = st.load("game", loads)        # at boot: loads(bytes) -> object, or ValueError
The saved bytes carry their own check (the engine's CRC-32): load() tries the real file, then
the temporary one, and returns None when neither parses. Save per event, never per frame: a
flash write stalls an RP2040.
"""
# No file is read past the size its format allows (load's n): a bigger one is not read at all,
# it is unreadable. A directory where one of the board's files belongs (made by hand, or by a
# tool) is cleared out of the way (clear): removed when empty, else moved aside as NAME.bad
# with what it holds (never deleted).

import gc
import os

from micropython import const

_MOST = const(16384)  # load()'s default bound: a game (its journal holds 4 KB at most)
_DIR = const(0x4000)  # stat()'s mode bit for a directory


class Storage:
    def __init__(self, folder="/data", fs=None):
        self.folder = folder.rstrip("/") if folder not in ("", "/") else ""
        # fs None: the running system's filesystem (littlefs on a board, the host's on a PC):
        # the os module's rename/remove/mkdir and the builtin open
        self.fs = fs if fs is not None else os
        self._open = fs.open if fs is not None else open
        if self.folder:
            try:
                self.fs.mkdir(self.folder)
            except OSError:
                pass  # it exists
        self.saves = 0
        self.bad = None  # why the last load() found a file it could not read

    def path(self, name):
        return (self.folder + "/" if self.folder else "") + name

    def save(self, name, data, *args):
        """Write data as name, atomically: NAME.tmp first, then rename over NAME. data: bytes,
        a tuple of parts written one after the other, or a function data(file, *args) that
        writes the open file (it may read the file it replaces, as board/history.py does:
        nothing is renamed until it returns, nor if it raises)."""
        real = self.path(name)
        tmp = real + ".tmp"
        try:
            f = self._open(tmp, "wb")
        except OSError:
            if not self.clear(tmp):  # a directory in the way: gone, else the error stands
                raise
            f = self._open(tmp, "wb")
        try:
            if isinstance(data, tuple):  # parts, written one after the other
                for part in data:
                    f.write(part)
            elif callable(data):
                data(f, *args)
            else:
                f.write(data)
        finally:
            f.close()
        try:
            self.fs.rename(tmp, real)
        except OSError:  # a directory in the way; or a filesystem that will not rename over
            if not self.clear(real):  # a file (then the old one goes first)
                self.fs.remove(real)
            self.fs.rename(tmp, real)
        self.saves += 1

    def clear(self, p):
        # If the path p (where a file of the board's belongs) is a directory, clear it out of
        # the way: removed when empty, else moved aside as p.bad, its content with it (nothing
        # in it is deleted). True when it was a directory and is gone.
        fs = self.fs
        try:
            if fs.stat(p)[0] & _DIR:  # (littlefs's rmdir removes a file too: asked first)
                try:
                    fs.rmdir(p)
                except OSError:  # not empty: aside, with all it holds
                    fs.rename(p, p + ".bad")
                return True
        except Exception:  # noqa: BLE001  (not there; no stat(): no dirs; p.bad there too)
            pass
        return False

    def open(self, name, n=-1):
        """The file saved as name, open for reading (read(n), seek(offset), close()), or None
        when there is no such file (any other error is raised: a file that is there must
        never read as missing)."""
        # A directory of that name is cleared away (clear()): no file. n >= 0: a file of more
        # bytes (than its format holds) is moved aside unread as NAME.bad, self.bad says so,
        # and it is no file.
        p = self.path(name)
        try:
            f = self._open(p, "rb")
        except OSError as e:
            if e.args and e.args[0] == 2:  # ENOENT
                return None
            if self.clear(p):
                return None
            raise
        if n >= 0 and f.seek(0, 2) > n:  # (seek returns where it is: the size)
            f.close()
            self.fs.rename(p, p + ".bad")  # (an older one replaced)
            self.bad = "%s too big: kept as %s.bad" % (name, name)
            return None
        f.seek(0)
        return f

    def read(self, name, n=-1):
        """The bytes saved as name, or None when there is no such file (as open())."""
        f = self.open(name, n)
        if f is None:
            return None
        try:
            return f.read()
        finally:
            f.close()

    def load(self, name, parse, n=_MOST):
        """parse(bytes) of the saved name, else of its temporary file, else None; why a file
        that is there could not be had in self.bad."""
        # Unreadable: it does not parse (corrupt: ValueError), is empty ("empty file": the
        # real file only, an empty temporary one is a first save cut short), is bigger than n
        # bytes, or cannot be read twice (an OSError or a MemoryError, the heap collected in
        # between). board/boot.py sets it aside.
        self.bad = None
        for p in (name, name + ".tmp"):
            for again in (0, 1):
                try:
                    data = self.read(p, n)
                    if not data:
                        if data is not None and p is name:
                            self.bad = "empty file"  # (board/boot.py removes it)
                        break
                    return parse(data)
                except ValueError as e:  # corrupt, truncated: no second try
                    self.bad = self.bad or str(e)
                    break
                except Exception as e:  # noqa: BLE001  (MemoryError, OSError: once more)
                    gc.collect()
                    if again:
                        self.bad = self.bad or "%s %s" % (type(e).__name__, e)
        return None

    def saved(self, m, fn, v, r):
        """Game m saved as "game" (m.dump writes it in pieces: no block of its size), tried
        once more after a gc.collect(); then the frame beside it, fn(v, r, crc) (board/
        render.py's dumps(): View v as Renderer r drew it, for the game whose saved bytes
        end with crc), as "frame": board/boot.py's frame() draws it at the next power-up,
        before the app loads, if it is this game's; a failure costs only that (the frame
        goes). None, or what the display is to say when the game could not be saved (the
        game goes on in memory; the next entry saves it again)."""
        for again in (0, 1):
            try:
                self.save("game", m.dump)
                break
            except Exception as e:  # noqa: BLE001
                gc.collect()
                if again:
                    try:
                        return "not saved (%s %s): the game goes on" % (type(e).__name__, e)
                    except Exception:  # noqa: BLE001
                        return "not saved (out of memory): the game goes on"
        try:
            self.save("frame", fn(v, r, self.crc("game")))
        except Exception:  # noqa: BLE001
            self.delete("frame")
        return None

    def crc(self, name, n=-1):
        """The last 4 bytes of the saved name (a saved game's: their CRC-32, which ties the
        frame saved beside it to it: board/render.py's dumps()); OSError when there is no
        such file (as open(), n its bound)."""
        f = self.open(name, n)
        if f is None:
            raise OSError(2)
        try:
            f.seek(f.seek(0, 2) - 4)
            return f.read(4)
        finally:
            f.close()

    def delete(self, name):
        for n in (name, name + ".tmp"):
            try:
                self.fs.remove(self.path(n))
            except Exception:  # noqa: BLE001  (not there, or failing: nothing to do)
                pass
