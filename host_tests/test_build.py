"""tools/build.py: both targets compile, the tree holds what the board needs, and it runs."""

import os
import subprocess
import sys

import build
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    rows = {t: build.build(t, os.path.join(ROOT, "firmware"), str(out)) for t in build.TARGETS}
    return out, rows


def firmware_modules():
    return [r for r in build.sources(os.path.join(ROOT, "firmware")) if r.endswith(".py")]


def test_every_module_compiled_for_both_targets(built):
    out, rows = built
    mods = firmware_modules()
    assert "cribbage/score.py" in mods
    for target in build.TARGETS:
        names = {r[1] for r in rows[target]}
        for rel in mods:
            if build.keep_as_source(rel):
                assert rel in names
                assert os.path.exists(os.path.join(out, target, rel))
            else:
                mpy = os.path.join(out, target, rel[:-3] + ".mpy")
                with open(mpy, "rb") as f:
                    head = f.read(2)
                assert head == b"M\x06", (rel, head)  # mpy version 6 (loads on v1.23+)
                assert not os.path.exists(os.path.join(out, target, rel))


def test_entry_points_stay_source_and_manifest_is_not_copied():
    assert build.keep_as_source("main.py")
    assert build.keep_as_source("boot.py")
    assert not build.keep_as_source("board/main.py")
    assert not build.keep_as_source("cribbage/score.py")
    assert "manifest.py" not in build.sources(os.path.join(ROOT, "firmware"))


def test_size_report_lists_every_module(built, capsys):
    _out, rows = built
    build.report("rp2040", rows["rp2040"])
    text = capsys.readouterr().out
    assert "cribbage/score.mpy" in text and "-march=armv6m" in text
    assert "total (%d files)" % len(rows["rp2040"]) in text


def test_syntax_error_is_reported(tmp_path):
    src = tmp_path / "fw"
    src.mkdir()
    (src / "bad.py").write_text("def f(:\n")
    with pytest.raises(SystemExit) as e:
        build.build("esp32", str(src), str(tmp_path / "out"))
    assert "bad.py" in str(e.value)


@pytest.mark.parametrize("target", sorted(build.TARGETS))
def test_built_tree_runs_in_micropython(built, target):
    """The core imports from .mpy (not source) in the real micropython binary and scores."""
    out, _rows = built
    code = (
        "from cribbage import score, cards\n"
        "print(score.__file__)\n"
        "print(score.score_hand(cards.parse_many('5H 5C 5S JD'), cards.parse('5D')))\n"
    )
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=96k", "-c", code],
                       env=dict(os.environ, MICROPYPATH=os.path.join(out, target)),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split()
    assert lines[0].endswith("score.mpy")
    assert lines[1] == "29"


def test_package_json_lists_the_board_tree():
    """package.json (for mip) names every module of firmware/ and nothing else."""
    import json

    with open(os.path.join(ROOT, "package.json")) as f:
        text = f.read()
    assert text == build.package_json(os.path.join(ROOT, "firmware")), \
        "run: python tools/build.py --package-json"
    pkg = json.loads(text)
    assert sorted(t for t, _u in pkg["urls"]) == sorted(firmware_modules())
    for target, url in pkg["urls"]:
        assert url == "firmware/" + target and os.path.exists(os.path.join(ROOT, url))
    assert ["ssd1306", "latest"] in pkg["deps"]


def test_freeze_manifest_covers_the_packages():
    """firmware/manifest.py, run the way makemanifest.py runs it, freezes every package of
    the board's tree (main.py and board_config.py stay on the filesystem)."""
    calls = []

    def recorder(name):
        return lambda *a, **k: calls.append((name, a, k))

    env = {name: recorder(name)
           for name in ("include", "require", "metadata", "package", "module", "freeze")}
    with open(os.path.join(ROOT, "firmware", "manifest.py")) as f:
        exec(compile(f.read(), "manifest.py", "exec"), env)
    frozen = {a[0] for n, a, _k in calls if n == "package"}
    tops = {rel.split("/")[0] for rel in firmware_modules() if "/" in rel}
    assert frozen == tops
    for pkg in frozen:
        assert os.path.exists(os.path.join(ROOT, "firmware", pkg, "__init__.py")), pkg
    assert ("require", ("ssd1306",), {}) in calls
    loose = {rel for rel in firmware_modules() if "/" not in rel}
    assert loose == {"main.py", "board_config.py"}
