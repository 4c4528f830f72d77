# main_game.py's whole game, with the firmware in a ROMFS image (tools/maker/build.py --host writes
# build/<target>.romfs with the fake board in it), as a board whose MicroPython has a ROMFS
# partition runs it: the image is mounted at /rom and the modules are imported from it in
# place, so their bytecode and strings stay in flash and only what the code makes takes heap.
#
#     cd <data folder with main_game.mpy> && MICROPYPATH=.:.frozen \
#       micropython -X heapsize=H rom_game.py IMAGE [PLAYERS [SEED [PORT]]]
# This port has no flash to map: the image is read into one block, the heap's first, and
# never freed; give the heap its size on top of the budget (host_tests/test_board_mp.py
# does). Prints "ROMFS image N block B", then main_game's lines.
import gc
import os
import sys
import vfs

n = os.stat(sys.argv[1])[6]
data = bytearray(n)  # the partition's stand-in, at the bottom of the heap for good (a name
with open(sys.argv[1], "rb") as f:  # the port has anyway: this script's names count too)
    f.readinto(data)
vfs.mount(vfs.VfsRom(data), "/rom")
# in place of this script's own folder (tools/bench: main_game.py there is the source; the
# data folder here holds it compiled, as a board would)
sys.path[:1] = ["/rom", "/rom/lib"]
sys.argv[:] = sys.argv[1:]  # main_game's own: PLAYERS SEED [PORT]
gc.collect()
print("ROMFS image %d block %d" % (n, (n + 15) // 16 * 16))
import main_game  # noqa: E402, F401
