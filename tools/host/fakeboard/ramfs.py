"""A filesystem in RAM (open/rename/remove/mkdir, the calls board.storage makes): tests and
benchmarks keep their saved games off the disk with it."""


class RamFs:
    """A filesystem in a dict (open/rename/remove/mkdir), for tests that keep off the disk."""

    def __init__(self):
        self.files = {}

    def open(self, path, mode):
        if "w" in mode:
            self.files[path] = b""
            return _RamFile(self, path)
        if path not in self.files:
            raise OSError(2)
        return _RamFile(self, path)

    def rename(self, a, b):
        if a not in self.files:
            raise OSError(2)
        self.files[b] = self.files.pop(a)

    def remove(self, path):
        if path not in self.files:
            raise OSError(2)
        del self.files[path]

    def mkdir(self, path):
        pass


class _RamFile:
    def __init__(self, fs, path):
        self.fs = fs
        self.path = path
        self.pos = 0  # where read(n) reads next (seek() moves it)

    def write(self, b):
        self.fs.files[self.path] += bytes(b)
        return len(b)

    def read(self, n=-1):
        data = self.fs.files[self.path]
        if n < 0 and not self.pos:
            return data  # the whole file: no copy
        end = len(data) if n < 0 else self.pos + n
        out = data[self.pos:end]
        self.pos += len(out)
        return out

    def seek(self, pos, whence=0):
        if whence == 2:  # from the end (board.storage reads a file's size so)
            pos += len(self.fs.files[self.path])
        self.pos = pos
        return pos

    def close(self):
        pass
