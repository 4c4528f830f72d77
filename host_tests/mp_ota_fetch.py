"""The board's fetch of an update over HTTP (firmware/ota/fetch.py) in the real micropython
binary: run by host_tests/test_ota_fetch.py, which serves the bundles on 127.0.0.1.

    MICROPYPATH=firmware:tools/host:host_tests/both micropython mp_ota_fetch.py BASE NAME...

For each NAME, a fresh board (otakit's: the app at the root, a saved game, littlefs on a RAM
flash) fetches BASE/NAME (timeout 1 s) and prints one line: "NAME ok VERSION RECORD" (the
update installed, the record flipped), or "NAME refused MESSAGE RECORD" (nothing pointed at:
the record as it was), then the saved game's check.
"""

import sys


def main(base, names):
    import otakit
    import slots
    from ota.fetch import fetch
    from ota.install import UpdateError

    for name in names:
        files = otakit.board()
        try:
            man = fetch(base + "/" + name, timeout=1, files=files, board="rp2040",
                        running=otakit.OLD, keep=2048)
            what = "ok %s" % man["version"]
        except UpdateError as e:
            what = "refused %s" % e
        rec = slots.read(files)
        game = otakit.get(files, "data/game") == otakit.GAME
        print("%s %s | %s%s%s | game %s" % (name, what, rec[0], rec[1], rec[2], game))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
