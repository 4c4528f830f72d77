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

    def write(self, b):
        self.fs.files[self.path] += bytes(b)
        return len(b)

    def read(self):
        return self.fs.files[self.path]

    def close(self):
        pass
