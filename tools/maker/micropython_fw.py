"""Put official MicroPython on a board, then check the version it answers with.

    python tools/maker/micropython_fw.py --board pico|pico_w|esp32 --firmware FILE
                                   [--port P] [--drive DIR] [--dry-run]

The file comes from https://micropython.org/download/ (FIRMWARES says which one per board):
- Pico, Pico W: the .uf2 is copied onto the RPI-RP2 drive the Pico shows while in its boot
  loader (hold BOOTSEL while plugging it in; a Pico already running MicroPython is sent there
  with `mpremote bootloader`). The UF2 file carries its own flash addresses: no offset.
- ESP32 DevKit: esptool (PyPI, in the venv) erases the flash, then writes the .bin at 0x1000,
  where the classic ESP32's second-stage boot loader starts (the official instructions for
  ESP32_GENERIC; the S2/S3/C3 chips start at 0x0 and are not this board).
Then the board must answer over mpremote with MicroPython flash.MIN_MICROPYTHON or newer; an
older one is refused with the reason (flash.WHY_MIN), also before writing when the file's name
says its version. --dry-run prints the tool, the commands and the offset and runs nothing.
ESPTOOL=command and MPREMOTE=command replace the tools (the tests use fakes).
"""

import argparse
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

import toolpath  # noqa: F401  (tools/, firmware/ on sys.path: toolpath.py)
import flash
from hostenv import venv_program
from flash import FlashError

DOWNLOAD = "https://micropython.org/download/"
# board -> what to download and how it goes on: the official board name that starts the file
# name, its extension, the tool; for esptool the chip and the offset of the write.
FIRMWARES = {
    "pico": {"name": "RPI_PICO", "ext": ".uf2", "tool": "uf2"},
    "pico_w": {"name": "RPI_PICO_W", "ext": ".uf2", "tool": "uf2"},
    "esp32": {"name": "ESP32_GENERIC", "ext": ".bin", "tool": "esptool", "chip": "esp32",
              "offset": "0x1000"},
}
# Official board names that are not these boards (a file for one is refused).
OTHER_BOARDS = ("RPI_PICO2", "RPI_PICO2_W", "ESP32_GENERIC_S2", "ESP32_GENERIC_S3",
                "ESP32_GENERIC_C3", "ESP32_GENERIC_C6")
# Where desktops mount the Pico's boot loader drive (Linux, then macOS).
DRIVE_GLOBS = ("/media/*/RPI-RP2", "/run/media/*/RPI-RP2", "/media/RPI-RP2", "/Volumes/RPI-RP2")
BAUD = "460800"
WAIT_S = 30  # how long the board may take to answer after flashing (an ESP32 formats first)


def esptool():
    """The esptool command: $ESPTOOL, else the venv's, else from PATH."""
    if os.environ.get("ESPTOOL"):
        return shlex.split(os.environ["ESPTOOL"])
    return [venv_program("esptool") or "esptool"]


def check_file(board, path):
    """Refuse a file that is not this board's MicroPython or is too old (by its name).
    Returns the version the name says, or None (a name not in the official form: warned)."""
    fw = FIRMWARES[board]
    name = os.path.basename(path)
    page = DOWNLOAD + fw["name"] + "/"
    if not name.lower().endswith(fw["ext"]):
        raise FlashError("%s is not a %s file: for BOARD=%s download %s-<date>-v<version>%s "
                         "from %s" % (name, fw["ext"], board, fw["name"], fw["ext"], page))
    made_for = name.split("-")[0]
    known = [f["name"] for f in FIRMWARES.values()] + list(OTHER_BOARDS)
    if made_for in known and made_for != fw["name"]:
        raise FlashError("%s is MicroPython for %s, not for BOARD=%s: download %s-...%s from %s"
                         % (name, made_for, board, fw["name"], fw["ext"], page))
    if made_for not in known:
        print("note: %s is not named like an official %s file (%s-<date>-v<version>%s); "
              "going on" % (name, fw["name"], fw["name"], fw["ext"]))
    m = re.search(r"-v(\d+\.\d+(?:\.\d+)?)", name)
    if not m:
        return None
    v = flash.version_tuple(m.group(1))
    flash.check_micropython(v, "%s is" % name)
    return v


def find_drive(globs=DRIVE_GLOBS):
    """The mounted RPI-RP2 drive (it holds INFO_UF2.TXT), or None."""
    for pattern in globs:
        for d in sorted(glob.glob(pattern)):
            if os.path.isfile(os.path.join(d, "INFO_UF2.TXT")):
                return d
    return None


def no_drive():
    return FlashError(
        "no RPI-RP2 drive: unplug the Pico, hold its BOOTSEL button while plugging it in, and "
        "let go; it shows up as a drive named RPI-RP2 (Linux: /media/$USER/RPI-RP2 or "
        "/run/media/$USER/RPI-RP2; macOS: /Volumes/RPI-RP2). If your desktop does not mount "
        "it, mount it and give it: make micropython ... DRIVE=/path/to/RPI-RP2")


def esptool_cmds(board, port, firmware):
    """Erase the whole flash, then write the firmware at the board's offset."""
    fw = FIRMWARES[board]
    base = [*esptool(), "--chip", fw["chip"], *(["--port", port] if port else [])]
    return [base + ["erase-flash"],
            base + ["--baud", BAUD, "write-flash", fw["offset"], firmware]]


def describe(board):
    """What --dry-run says about the tool and the offset for board."""
    fw = FIRMWARES[board]
    if fw["tool"] == "uf2":
        return ("tool: UF2 copy onto the RPI-RP2 drive (no offset: the UF2 file carries its "
                "own flash addresses); file: %s-<date>-v<version>.uf2" % fw["name"])
    return ("tool: esptool (--chip %s): erase-flash, then write-flash at offset %s; file: "
            "%s-<date>-v<version>.bin" % (fw["chip"], fw["offset"], fw["name"]))


def put_uf2(firmware, port, drive, dry):
    """Copy the UF2 onto the boot loader drive (sending a running MicroPython there first)."""
    found = drive or find_drive()
    if dry:
        if not found:
            print(flash.shown([flash.mpremote(), *flash.connect(port), "bootloader"])
                  + "   # if no RPI-RP2 drive is mounted yet")
        print("$ " + shlex.join(["cp", firmware, (found or "<RPI-RP2 drive>") + "/"]))
        return
    if drive and not os.path.isfile(os.path.join(drive, "INFO_UF2.TXT")):
        raise FlashError("%s is not the Pico's RPI-RP2 drive (no INFO_UF2.TXT in it)" % drive)
    if not found:  # a Pico running MicroPython: into its boot loader, and wait for the drive
        cmd = [flash.mpremote(), *flash.connect(port), "bootloader"]
        print(flash.shown(cmd), flush=True)
        subprocess.run(cmd, capture_output=True, text=True)
        for _ in range(40):
            found = find_drive()
            if found:
                break
            time.sleep(0.5)
        else:
            raise no_drive()
    dest = os.path.join(found, os.path.basename(firmware))
    print("$ " + shlex.join(["cp", firmware, dest]), flush=True)
    shutil.copyfile(firmware, dest)
    if hasattr(os, "sync"):
        os.sync()  # the Pico restarts into MicroPython once the whole file is written


def put_esp32(board, firmware, port, dry):
    for cmd in esptool_cmds(board, port, firmware):
        print("$ " + shlex.join(cmd), flush=True)
        if dry:
            continue
        r = subprocess.run(cmd)
        if r.returncode:
            raise FlashError("esptool failed (its message is above). Hold the DevKit's BOOT "
                             "button while it connects if it never does; give PORT=/dev/ttyUSB0 "
                             "if it picks the wrong port")


def wait_for_board(port, wait_s=WAIT_S):
    """The board as flash.PROBE reads it, once it answers after its restart."""
    end = time.monotonic() + wait_s
    while True:
        try:
            return flash.read_board(port)
        except FlashError as e:
            if time.monotonic() > end:
                raise FlashError("the board did not answer over mpremote after flashing (%s). "
                                 "Unplug it and plug it in, then: python tools/maker/flash.py files"
                                 % e) from None
            time.sleep(1)


def check_answer(board, b):
    """The board runs MicroPython for its port, new enough (else refused with the reason)."""
    want = flash.BOARDS[board][1]
    if b.platform != want:
        raise FlashError("the board answers as MicroPython for %s, not %s" % (b.platform, want))
    flash.check_micropython(b.version)
    is_w = "Pico W" in (b.machine or "")
    if board in ("pico", "pico_w") and b.machine and is_w != (board == "pico_w"):
        print("note: the board calls itself %r: is BOARD=%s right?" % (b.machine, board))
    print("the board runs MicroPython %s on %s%s: supported (%d.%d or newer). Next: make flash "
          "BOARD=%s" % (b.version, b.platform, " (%s)" % b.machine if b.machine else "",
                        *flash.MIN_MICROPYTHON, board))


def put(board, firmware, port, drive, dry, wait_s=WAIT_S):
    """Check the file, put it on the board, check what the board answers."""
    if not firmware:
        raise FlashError("give the file: make micropython BOARD=%s FIRMWARE=path (download it "
                         "from %s%s/)" % (board, DOWNLOAD, FIRMWARES[board]["name"]))
    print(describe(board))
    check_file(board, firmware)
    if not dry and not os.path.isfile(firmware):
        raise FlashError("no file %s" % firmware)
    if FIRMWARES[board]["tool"] == "uf2":
        put_uf2(firmware, port, drive, dry)
    else:
        put_esp32(board, firmware, port, dry)
    if dry:
        print(flash.shown(flash.probe_cmd(port)) + "   # the version check")
        return
    check_answer(board, wait_for_board(port, wait_s))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", choices=sorted(FIRMWARES), required=True)
    ap.add_argument("--firmware", default="", help="the file downloaded from " + DOWNLOAD)
    ap.add_argument("--port", default=None, help="serial port; default: the first board found")
    ap.add_argument("--drive", default=None, help="the Pico's RPI-RP2 drive, if not found")
    ap.add_argument("--dry-run", action="store_true", help="print the tool and commands only")
    a = ap.parse_args(argv)
    try:
        drive = os.path.expanduser(a.drive) if a.drive else None
        put(a.board, os.path.expanduser(a.firmware), a.port, drive, a.dry_run)
    except FlashError as e:
        sys.stderr.write("micropython: %s\n" % e)
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("\nmicropython: interrupted\n")
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
