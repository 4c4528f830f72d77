"""Put the firmware on a board with mpremote: flash a build, run from source, open the REPL.

    python tools/flash.py flash --board pico|esp32 [--port /dev/ttyACM0] [--dry-run]
    python tools/flash.py dev   --board pico|esp32 [--port ...] [--dry-run]
    python tools/flash.py repl  [--port ...] [--dry-run]

flash: checks that a MicroPython board answers on the port, installs the libraries the
firmware uses (`mpremote mip install ssd1306`), copies build/<target>/ (from `make build`)
onto the board's filesystem, writes the board's configuration and resets it.
dev:   mounts firmware/ on the board and runs `import main` from source (no copy, edit and rerun).
repl:  the board's REPL (Ctrl-] or Ctrl-x leaves).
--dry-run prints the mpremote command lines instead of running them. Without --port mpremote
picks the first USB serial board ("auto"). The makefile targets `flash`, `dev`, `repl` call this.
"""

import argparse
import os
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# board name -> (build target, the module in firmware/boards/ with its pin map, sys.platform)
BOARDS = {
    "pico": ("rp2040", "pico", "rp2"),
    "esp32": ("esp32", "esp32_devkit", "esp32"),
}
# micropython-lib packages the firmware imports on a real board
MIP_PACKAGES = ("ssd1306",)
# the one line of configuration that picks the board's pin map (read by firmware/main.py)
CONFIG_FILE = "board_config.py"


class FlashError(Exception):
    """A step failed; the message says what to do."""


def mpremote():
    """The mpremote command from the venv, else from PATH."""
    here = os.path.join(os.path.dirname(sys.executable), "mpremote")
    return here if os.path.exists(here) else "mpremote"


def config_text(board):
    """The board configuration file written onto the device."""
    return 'BOARD = "%s"\n' % BOARDS[board][1]


def connect(port):
    """mpremote's connect arguments: an explicit port, or auto-detect."""
    return ["connect", port or "auto"]


def probe_cmd(port):
    """Asks the board which port of MicroPython it runs (also proves a board answers)."""
    return [mpremote(), *connect(port), "exec", "import sys; print(sys.platform)"]


def flash_cmds(board, port, build_dir, config_path):
    """The mpremote command lines that flash `board` from `build_dir` (a built tree)."""
    m = mpremote()
    cmds = [[m, *connect(port), "mip", "install", p] for p in MIP_PACKAGES]
    steps = []
    for name in sorted(os.listdir(build_dir)):
        if name == CONFIG_FILE:
            continue  # written below for this board
        src = os.path.join(build_dir, name)
        steps.append(["cp", "-r", src, ":"] if os.path.isdir(src) else ["cp", src, ":" + name])
    steps.append(["cp", config_path, ":" + CONFIG_FILE])
    copy = [m, *connect(port)]  # one connection, the steps chained with "+"
    for i, step in enumerate(steps):
        copy += (["+"] if i else []) + step
    cmds.append(copy)
    cmds.append([m, *connect(port), "reset"])
    return cmds


def dev_cmds(board, port, src_dir):
    """Run from source: firmware/ is mounted as the board's working folder, the board's name
    is set in the mounted board_config module (the file on the host stays as it is), then
    main is imported as at boot."""
    m = mpremote()
    module = CONFIG_FILE[:-3]
    return [[m, *connect(port), "mount", src_dir, "exec",
             "import %s; %s.BOARD = %r; import main" % (module, module, BOARDS[board][1])]]


def repl_cmds(port):
    return [[mpremote(), *connect(port), "repl"]]


def explain(port, stderr):
    """A clear message for a failed connection (mpremote's own is terse and sometimes wrong)."""
    text = stderr.strip()
    if "no device found" in text:
        return ("no board found: plug a board running MicroPython into USB, or give the port "
                "(make flash BOARD=pico PORT=/dev/ttyACM0; `mpremote devs` lists ports)")
    if port and port.startswith("/dev/") and not os.path.exists(port):
        return ("no board at %s: that port does not exist. Plugged-in boards show up as "
                "/dev/ttyACM* (Pico) or /dev/ttyUSB* (ESP32 DevKit); `mpremote devs` lists them"
                % port)
    if "failed to access" in text:
        return ("cannot open %s: another program (a serial monitor, an editor, a second "
                "mpremote) holds it, or you lack permission (add yourself to the dialout group)"
                % port)
    return "mpremote failed: %s" % (text or "no output")


def run(cmd, dry, port, capture=False):
    """Run one command (or print it in dry-run mode); raise FlashError with a clear message."""
    print("$ " + shlex.join(cmd), flush=True)
    if dry:
        return ""
    if capture:
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            raise FlashError(explain(port, r.stderr + r.stdout))
        return r.stdout
    r = subprocess.run(cmd, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        sys.stderr.write(r.stderr)
        raise FlashError(explain(port, r.stderr))
    return ""


def check_board(board, port, dry):
    """Make sure a MicroPython board answers, and that it is the port the build is for."""
    out = run(probe_cmd(port), dry, port, capture=True)
    if dry:
        return
    want = BOARDS[board][2]
    lines = out.split()
    got = lines[-1] if lines else ""
    if got == want:
        return
    names = [b for b in BOARDS if BOARDS[b][2] == got]
    if names:
        raise FlashError("the board on %s runs MicroPython for %s, not %s: use BOARD=%s"
                         % (port or "auto", got, want, names[0]))
    raise FlashError("the device on %s did not answer like MicroPython for %s: %r"
                     % (port or "auto", want, out[-80:]))


def do_flash(board, port, dry, build_root):
    target = BOARDS[board][0]
    build_dir = os.path.join(build_root, target)
    if not os.path.isdir(build_dir):
        raise FlashError("no build in %s: run `make build` first" % build_dir)
    check_board(board, port, dry)
    cfg = os.path.join(build_root, CONFIG_FILE + "." + board)
    with open(cfg, "w") as f:
        f.write(config_text(board))
    for cmd in flash_cmds(board, port, build_dir, cfg):
        run(cmd, dry, port)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=("flash", "dev", "repl"))
    ap.add_argument("--board", choices=sorted(BOARDS), default="pico")
    ap.add_argument("--port", default=None, help="serial port; default: the first board found")
    ap.add_argument("--dry-run", action="store_true", help="print the mpremote commands only")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="build root")
    ap.add_argument("--src", default=os.path.join(ROOT, "firmware"), help="source for dev")
    a = ap.parse_args(argv)
    try:
        if a.action == "flash":
            do_flash(a.board, a.port, a.dry_run, a.build)
        elif a.action == "dev":
            check_board(a.board, a.port, a.dry_run)
            for cmd in dev_cmds(a.board, a.port, a.src):
                run(cmd, a.dry_run, a.port)
        else:
            for cmd in repl_cmds(a.port):
                run(cmd, a.dry_run, a.port)
    except FlashError as e:
        sys.stderr.write("%s: %s\n" % (a.action, e))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
