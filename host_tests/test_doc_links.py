"""The docs people read point where they say (issue 35.21): every relative link and picture
in README.md and docs/*.md names a file (or folder) of the repository that exists, and no doc
cites a path outside the repository (a checkout's own folders, a home, /tmp)."""

import glob
import os
import re

import pytest
from hostenv import ROOT

DOCS = ["README.md"] + sorted(os.path.relpath(p, ROOT)
                              for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)", re.M)  # [name]: target
# Paths of a machine, not of the repository: a checkout's folders, homes, temporary files.
# (A reader's own file in an example, FIRMWARE=~/Downloads/..., is theirs to name: not these.)
OUTSIDE = re.compile(r"(?<![\w.:/-])(?:/work/|/home/|/root/|/Users/|/tmp/|file://)")


def read(doc):
    with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
        return f.read()


def prose(text):
    """text without its fenced code blocks (a command's output may show any path)."""
    return re.sub(r"^(```|~~~).*?^\1", "", text, flags=re.M | re.S)


def links(text):
    return LINK.findall(text) + REF.findall(text)


def local(target):
    """The file part of a link that is the repository's (None: a web address, a mail, an
    anchor in the same page)."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
        return None
    return target.split("#")[0].split("?")[0]


@pytest.mark.parametrize("doc", DOCS)
def test_every_relative_link_names_a_file_that_exists(doc):
    text = prose(read(doc))
    here = os.path.dirname(os.path.join(ROOT, doc))
    broken = []
    for target in links(text):
        path = local(target)
        if path is None:
            continue
        full = os.path.normpath(os.path.join(here, path))
        inside = os.path.commonpath([full, os.path.normpath(ROOT)]) == os.path.normpath(ROOT)
        if path.startswith("/") or not inside:
            broken.append("%s (outside the repository)" % target)
        elif not os.path.exists(full):
            broken.append(target)
    assert not broken, "%s links to what is not there: %s" % (doc, ", ".join(broken))


@pytest.mark.parametrize("doc", DOCS)
def test_no_doc_cites_a_path_outside_the_repository(doc):
    text = read(doc)
    bad = [line.strip() for line in text.splitlines() if OUTSIDE.search(line)]
    assert not bad, "%s cites a path outside the repository: %s" % (doc, bad)


def test_the_checks_catch_what_they_are_for():
    assert links("see [log](CHANGELOG.md#v1) and ![pic](a.png) and [w](https://x.org)") == [
        "CHANGELOG.md#v1", "a.png", "https://x.org"]
    assert local("https://x.org/a.md") is None and local("#top") is None
    assert local("../CHANGELOG.md#top") == "../CHANGELOG.md"
    assert OUTSIDE.search("(`/work/shared/rules`: the sheets)")
    assert OUTSIDE.search("see /home/me/notes") and not OUTSIDE.search("PORT=/dev/ttyACM0")
    assert not OUTSIDE.search("the board's /wifi.json and /data/game")
    assert prose("a\n```sh\ncd /tmp/x\n```\nb") == "a\n\nb"


def test_the_readmes_simulated_boards_folders_are_ignored_by_git():
    """Issue 35.21: the README's club night of several simulated boards keeps each in its
    own folder (--storage .sim2): folders git ignores, as it does .sim/."""
    import shutil
    import subprocess

    folders = set(re.findall(r"--storage (\.sim\w*)", read("README.md")))
    assert folders, "the README has no recipe for several simulated boards"
    if not shutil.which("git") or subprocess.run(
            ["git", "-C", ROOT, "rev-parse", "--is-inside-work-tree"],
            capture_output=True).returncode:
        pytest.skip("not a git checkout")
    for d in sorted(folders | {".sim", ".sim3"}):
        r = subprocess.run(["git", "-C", ROOT, "check-ignore", "-q", "--no-index",
                            d + "/game"], capture_output=True)
        assert r.returncode == 0, "%s/ is not ignored by git" % d
