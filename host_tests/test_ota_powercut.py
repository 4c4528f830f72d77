"""An update that survives the power going at any moment (issue 31): the power cut at every
block program and every block erase of a whole update (the download streamed into the slot
not running, each file checked and read back, the pointer flipped, the trial boot counted, the
confirmation), of a second update right after, and of a third whose app raises (the way
back: the note, the record), on real littlefs (vfs.VfsLfs2 in the real
MicroPython binary, on host_tests/both/blockdev.py's RAM flash, as the rp2 port formats it and
in 512-byte blocks; the second update a release packed in one image file). After every cut
the loader boots an app whose every file is whole, the
saved game is intact, and a further update goes in and confirms.
host_tests/mp_ota_powercut.py does the work (its docstring says how). Heap: 480k (two flash
images of 120 KB for the "pico" flash, the firmware compiled from source)."""

import os
import re
import subprocess

from hostenv import ROOT, venv_program

MICROPYTHON = venv_program("micropython")
CONFIG = re.compile(r"^CONFIG (\w+) block (\d+) blocks (\d+) progsize (\d+): ops (\d+) cuts (\d+) "
                    r"\(erases (\d+)\) booted (.*)$", re.M)


def test_every_block_op_of_two_updates_survives_a_power_cut():
    env = dict(os.environ, MICROPYPATH="firmware:tools/host:host_tests/both")
    p = subprocess.run([MICROPYTHON, "-X", "heapsize=480k", "host_tests/mp_ota_powercut.py"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out
    assert "FAIL" not in out and "Traceback" not in out, out
    total = re.search(r"^micropython: (\d+) passed, (\d+) failed$", p.stdout, re.M)
    assert total and total.group(2) == "0", out
    configs = {m.group(1): m.groups()[1:] for m in CONFIG.finditer(p.stdout)}
    assert sorted(configs) == ["pico", "small"], out
    cuts = 0
    for name, (block, _blocks, _prog, ops, n, erases, booted) in configs.items():
        assert int(block) == (4096 if name == "pico" else 512)
        assert int(ops) == int(n) > 40 and int(erases) > 0, (name, ops, n, erases)
        # the cuts came back on the version before the first update, after it, and after the
        # second: each version's boot was reached and cut
        versions = dict(kv.split(":") for kv in booted.split())
        assert sorted(versions) == ["0.6.0", "0.7.0", "0.8.0"], booted  # (never 0.8.5)
        assert sum(int(x) for x in versions.values()) == int(n), booted
        cuts += int(n)
    assert int(total.group(1)) == cuts, out
