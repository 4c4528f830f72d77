"""A slot's image as a block device (the boot loader's: never updated over the air).

slotboot.image_fs() mounts a slot's image (one littlefs file, slotboot.IMAGE) through Image;
the mount keeps it for as long as the app runs, so it is a module of its own, loaded only on
a board whose slot is an image: a class of slotboot's would keep all of slotboot with it, and
one of slots.py would sit on the heap of every board, flashed ones too (issue 34)."""


class Image:
    """A read-only block device over an open file of block-byte blocks, for vfs.VfsLfs2."""

    def __init__(self, f, block):
        self.f = f
        self.b = block
        self.n = f.seek(0, 2) // block

    def readblocks(self, n, buf, off=0):
        self.f.seek(n * self.b + off)
        return 0 if self.f.readinto(buf) == len(buf) else -5  # (EIO: the file is short)

    def writeblocks(self, n, buf, off=0):
        return -30  # EROFS

    def ioctl(self, op, arg):
        return self.n if op == 4 else self.b if op == 5 else 0
