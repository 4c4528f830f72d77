"""A filesystem for the board benchmarks and the starvation test (mp_soak.py, host_tests/
mp_starve.py): fakeboard/ramfs.py's RamFs for the saved game and settings, the history file on
the host's disk. (Not in leanboard.py: mp_board.py's harness would carry it, on a 96k heap.)"""


class FlashFs:
    """fakeboard/ramfs.py's RamFs (open/rename/remove/mkdir, its dict in .files) for the saved
    game and settings, with the history file (board/history.py: up to 8 KB, rewritten after
    each game) in the host's folder `disk`: a board keeps it on flash, not in the heap the
    benchmarks measure, and one bytes object of the whole file rewritten after each game is
    not what a board's heap sees either (littlefs writes and reads it in pieces)."""

    def __init__(self, disk):
        import os
        from fakeboard.ramfs import RamFs

        self.os = os
        self.ram = RamFs()
        self.files = self.ram.files
        self.disk = disk
        try:
            os.mkdir(disk)
        except OSError:
            pass  # it exists
        for name in ("history", "history.tmp"):  # a fresh run
            try:
                os.remove(disk + "/" + name)
            except OSError:
                pass

    def _real(self, path):
        """The host path of a history file's path, else None (it is in RAM)."""
        i = path.rfind("/")
        return self.disk + path[i:] if path.startswith("history", i + 1) else None

    def open(self, path, mode):
        real = self._real(path)
        return open(real, mode) if real else self.ram.open(path, mode)

    def rename(self, a, b):
        real = self._real(a)
        if real:
            self.os.rename(real, self._real(b))
        else:
            self.ram.rename(a, b)

    def remove(self, path):
        real = self._real(path)
        if real:
            self.os.remove(real)
        else:
            self.ram.remove(path)

    def mkdir(self, path):
        pass
