"""Power cuts through a whole update and a second one right after, on real littlefs (issue 31).
Run by host_tests/test_ota_powercut.py in the real micropython binary
(MICROPYPATH=firmware:tools/host:host_tests/both); by hand, from the repo root:

    MICROPYPATH=firmware:tools/host:host_tests/both .venv/bin/micropython -X heapsize=480k \\
        host_tests/mp_ota_powercut.py [pico] [small]

The flash is host_tests/both/blockdev.py's RAM chip formatted as a board formats it ("pico":
4096-byte blocks, progsize=256, the rp2 port's; "small": 512-byte blocks, so every file spans
blocks). It starts as a board flashed without slots: the app at the root, a saved game in
/data, the board's Wi-Fi file with its secret. The update, as a trigger drives it: install
0.7.0 (the download streamed in, each file checked, read back, the pointer flipped), the trial
boot (the loader counts it), the confirmation; then at once the same for 0.8.0 into the other
slot, a release packed as one image file (slots.IMAGE: mounted by the loader); then 0.8.5,
whose app raises at import: the loader goes back to 0.8.0 (its note, the
record). The power is cut at every block program and every block erase of all of that, one cut
per run (nothing sampled), and each time, on what the flash held:
  * the loader boots an app that runs, within a trial's boots (0.8.5 never runs): every file
    of the tree it picks is whole (the root's as flashed; a slot's as its bundle.json says, by
    SHA-256) and the saved game is intact;
  * the board plays on: that app confirms itself if on trial, then an update to 0.9.0 goes
    in, boots and confirms, and the game is still intact.
Prints a CONFIG line per flash (its cuts, how many were of a program and of an erase, and
which version each cut booted), a FAIL line per cut that did not come back, and closes with
'micropython: N passed, N failed'.
"""

import gc
import sys

import vfs
from blockdev import RamBlocks

# name: (block size, blocks, progsize)
CONFIGS = {"pico": (4096, 30, 256), "small": (512, 112, 32)}
ORDER = ("pico", "small")


def tree(version, how=b"good"):
    """The app of a version (smaller than otakit's: the flash is copied once per cut)."""
    pad = (version * 30).encode()[:120]
    return [("app.txt", how), ("board/app.mpy", b"A" + pad),
            ("board_config.py", b"# " + pad), ("version.mpy", version.encode())]


def main(names):
    import otakit
    import slots
    from otakit import GAME, KEY, Src, bundle, get, put

    bundles = {v: bundle(v, files=tree(v)) for v in ("0.7.0", "0.9.0")}
    bundles["0.8.0"] = otakit.image_bundle("0.8.0", files=tree("0.8.0"))  # (one file: packed)
    bundles["0.8.5"] = bundle("0.8.5", files=tree("0.8.5", b"raise"))  # (goes back)
    root = tree("0.6.0")

    def mount(flash, block, prog, cut=-1):
        dev = RamBlocks(flash, block, cut=cut)
        return dev, slots.Files("", vfs.VfsLfs2(dev, progsize=prog))

    def update(files, v, running):
        otakit.install(Src(bundles[v], 256), files, key=KEY, board="rp2040", running=running,
                       keep=0)

    def whole(files, folder):
        """True when every file of the tree in folder is as it was made."""
        if not folder:
            return all(get(files, p) == d for p, d in root)
        import hashlib
        import json
        man = json.loads(get(files, folder + "/bundle.json"))
        for p, _n, h in man["files"]:
            d = get(files, folder + "/" + p)
            if d is None or otakit.hexs(hashlib.sha256(d).digest()) != h:
                return False
        for p, _n, h in man.get("tree", ()):  # (an image's files, read through its mount)
            with open(slots.mounted[0] + "/" + p, "rb") as f:
                if otakit.hexs(hashlib.sha256(f.read()).digest()) != h:
                    return False
        return True

    def running(files):
        return slots.version(files, slots.running) if slots.running != "r" else "0.6.0"

    def script(files):  # the whole update, the second one, and a third that goes back
        update(files, "0.7.0", "0.6.0")
        otakit.boot(files)  # (the trial's boot: counted; the good app confirms)
        update(files, "0.8.0", "0.7.0")
        otakit.boot(files)
        update(files, "0.8.5", "0.8.0")
        otakit.boot(files)  # (it raises: the note, the record back to 0.8.0)

    def up(files):
        """Boots until an app runs: (folder, how); no more than a trial's boots."""
        for _ in range(slots.TRIES + 1):
            folder, how = otakit.boot(files)
            if how == "ran":
                break
        return folder, how

    passed = failed = 0
    for name in names:
        block, blocks, prog = CONFIGS[name]
        gc.collect()
        flash = bytearray(block * blocks)
        image = bytearray(block * blocks)
        dev = RamBlocks(flash, block)
        dev.wipe()
        vfs.VfsLfs2.mkfs(dev, progsize=prog)
        files = slots.Files("", vfs.VfsLfs2(dev, progsize=prog))
        put(files, root)
        put(files, [("data/game", GAME), ("wifi.json", b"{}")])
        image[:] = flash
        dev, files = mount(flash, block, prog)
        script(files)
        n = dev.ops
        assert slots.read(files) == ("b", "a", "C", 0), slots.read(files)
        assert slots.version(files, "b") == "0.8.0" and "0.8.5 failed" in slots.note(files)
        cuts = erases = 0
        booted = {}
        for j in range(n):
            flash[:] = image
            dev, files = mount(flash, block, prog, j)
            try:
                script(files)
            except Exception:  # noqa: BLE001  (the dead board's: its flash fails from the cut
                pass  # on, and what it does then is lost with it)
            assert dev.cut, j
            cuts += 1
            op = dev.cut_op
            erases += op == "erase"
            dev = files = None
            gc.collect()
            why = None
            try:
                dev, files = mount(flash, block, prog)
                folder, how = up(files)  # (a trial confirms; 0.8.5 goes back)
                v = running(files)
                booted[v] = booted.get(v, 0) + 1
                if how != "ran" or not whole(files, folder):
                    why = "booted %s (%r), not whole" % (folder, how)
                elif get(files, "data/game") != GAME:
                    why = "the saved game changed"
                else:
                    update(files, "0.9.0", v)
                    folder, how = up(files)
                    if how != "ran" or running(files) != "0.9.0" or not whole(files, folder):
                        why = "the next update did not take: %s %s" % (folder, how)
                    elif get(files, "data/game") != GAME:
                        why = "the saved game changed after the next update"
            except Exception as e:  # noqa: BLE001
                why = "%s %s" % (type(e).__name__, e)
            if why:
                failed += 1
                print("FAIL %s cut %d (%s): %s" % (name, j, op, why))
            else:
                passed += 1
            dev = files = None
            gc.collect()
        print("CONFIG %s block %d blocks %d progsize %d: ops %d cuts %d (erases %d) booted %s"
              % (name, block, blocks, prog, n, cuts, erases,
                 " ".join("%s:%d" % kv for kv in sorted(booted.items()))))
        flash = image = None
    print("micropython: %d passed, %d failed" % (passed, failed))
    return not failed


if __name__ == "__main__":
    sys.exit(0 if main([a for a in sys.argv[1:] if a in CONFIGS] or ORDER) else 1)
