"""The club's side of an update (issue 31): releases kept by command and checked whole
(tools/club/releases.py), published by the logged-in director (CSRF, the club's Origin) to one
table, then to all, each board served its own copy signed with its registry secret at
/update/<board>/<kind>.bundle, and the boards' versions and update states on the pages
(their state messages' "version" and "update", bounded at the door)."""

import json
import re

import pytest

import otakit
import release
from club import schema, web
from club.cli import main as cli
from club.contract import BadMessage
from club.director import Director
from club.releases import BUNDLE_MOST, Releases, parse
from club.service import Club

PASSWORD = "pegging-29"
HERE = "http://localhost"


@pytest.fixture
def club(tmp_path):
    c = Club(str(tmp_path / "club.sqlite"))
    c.update_url = "http://10.0.0.2:8124"
    yield c
    c.store.close()
    c.registry.close()
    c.releases.close()


def unsigned(version="0.7.0", board="rp2040"):
    return otakit.bundle(version, board=board, sig=b"-")


def client(club):
    d = Director(club.store.path)
    d.set_password(PASSWORD)
    c = web.make_app(club, d).test_client()
    c.environ_base["REMOTE_ADDR"] = "10.0.0.5"
    return c


def login(c):
    r = c.post("/director", data={"do": "login", "password": PASSWORD}, headers={"Origin": HERE})
    assert r.status_code == 200
    return re.search(r'name="csrf" value="([^"]+)"', r.get_data(as_text=True)).group(1)


def post(c, csrf, **form):
    r = c.post("/director", data=dict({"csrf": csrf}, **form), headers={"Origin": HERE})
    return r.status_code, r.get_data(as_text=True)


def signed_by(body, secret):
    """Whether bundle bytes carry secret's signature over their manifest."""
    head = body.split(b"\n", 3)
    man = head[3][:int(head[2])]
    return head[0] == release.MAGIC and head[1] == release.signature(secret, man)


def test_a_release_is_checked_whole_before_it_is_kept(tmp_path):
    good = unsigned()
    assert parse(good)[:2] == ("0.7.0", "rp2040")
    assert parse(otakit.bundle("0.7.0"))[:2] == ("0.7.0", "rp2040")  # (a signature dropped)
    bad = {
        b"hello\n": "not a bundle",
        good[:-5]: "truncated",
        good[:-5] + b"XXXXX": "altered",
        good + b"more": "after the manifest",
        unsigned(board="avr"): "board kind",
        unsigned(version="0.7.x"): "is not one",
        unsigned() + b"\0" * BUNDLE_MOST: "at most",
        b"cribbage-bundle 1\n-\n99999\n{}": "a manifest of",
        b"cribbage-bundle 1\n-\n2\n[]": "JSON",
    }
    rel = Releases(str(tmp_path / "c.sqlite"))
    for data, why in bad.items():
        with pytest.raises(ValueError, match=why):
            rel.add(data)
    assert rel.releases() == []
    assert rel.add(good) == ("0.7.0", "rp2040")
    assert [r["version"] for r in rel.releases()] == ["0.7.0"]
    rel.close()


def test_the_release_command_keeps_a_bundle_and_refuses_a_bad_one(tmp_path, capsys):
    db = str(tmp_path / "club.sqlite")
    p = tmp_path / "cribbage-0.7.0-rp2040.bundle"
    p.write_bytes(unsigned())
    assert cli(["--db", db, "release", str(p)]) == 0
    assert "release 0.7.0 for rp2040 kept" in capsys.readouterr().out
    p.write_bytes(unsigned()[:-1])
    assert cli(["--db", db, "release", str(p)]) == 1
    assert "truncated" in capsys.readouterr().err
    rel = Releases(db)
    assert [(r["version"], r["kind"]) for r in rel.releases()] == [("0.7.0", "rp2040")]
    rel.close()


def test_only_a_few_releases_are_kept_never_the_one_published(tmp_path):
    rel = Releases(str(tmp_path / "c.sqlite"))
    rel.add(unsigned("0.1.0"))
    rel.publish("0.1.0", None)
    for k in range(2, 12):
        rel.add(unsigned("0.%d.0" % k))
    vs = rel.versions()
    assert len(vs) == 7 and "0.1.0" in vs and vs[0] == "0.11.0", vs
    rel.close()


def test_the_director_publishes_to_one_table_then_to_all(club):
    s1 = club.registry.add("t1")
    s2 = club.registry.add("t2")
    club.releases.add(unsigned())
    c = client(club)
    # nothing offered yet: no order, no bundle
    assert club.order("t1") is None
    assert c.get("/update/t1/rp2040.bundle").status_code == 404
    # a write without logging in, from another origin, or without the token: refused
    assert c.post("/director", data={"do": "publish", "version": "0.7.0", "table": "*"},
                  headers={"Origin": HERE}).status_code == 403
    csrf = login(c)
    assert c.post("/director", data={"do": "publish", "version": "0.7.0", "table": "*",
                                     "csrf": csrf},
                  headers={"Origin": "http://evil"}).status_code == 403
    assert post(c, "wrong", do="publish", version="0.7.0", table="*")[0] == 403
    assert club.releases.rollout() is None
    # no such release, no such board: said, nothing published
    status, body = post(c, csrf, do="publish", version="0.9.0", table="t1")
    assert status == 400 and "no release 0.9.0" in body
    status, body = post(c, csrf, do="publish", version="0.7.0", table="t9")
    assert status == 400 and "no board" in body
    assert club.releases.rollout() is None
    # one table first
    status, body = post(c, csrf, do="publish", version="0.7.0", table="t1")
    assert status == 200 and "release 0.7.0 offered to table t1" in body
    assert club.order("t1") == {"version": "0.7.0",
                                "url": "http://10.0.0.2:8124/update/t1/"}
    assert club.order("t2") is None
    r = c.get("/update/t1/rp2040.bundle")
    assert r.status_code == 200 and signed_by(r.data, s1) and not signed_by(r.data, s2)
    assert c.get("/update/t2/rp2040.bundle").status_code == 404
    assert c.get("/update/t1/esp32.bundle").status_code == 404  # (no release of that kind)
    assert c.get("/update/t1/x.bundle").status_code == 404
    assert c.get("/update/nobody/rp2040.bundle").status_code == 404
    assert c.get("/update/%s/rp2040.bundle" % ("x" * 300)).status_code == 404
    # then every board, each its own copy
    status, body = post(c, csrf, do="publish", version="0.7.0", table="*")
    assert status == 200 and "offered to every board" in body
    r2 = c.get("/update/t2/rp2040.bundle")
    assert r2.status_code == 200 and signed_by(r2.data, s2) and not signed_by(r2.data, s1)
    assert club.order("t2")["version"] == "0.7.0"
    body = c.get("/director").get_data(as_text=True)
    assert "Offered: release <b>0.7.0</b> to every board" in body
    assert "published release 0.7.0 to every board" in body  # (the director's log)
    got = c.get("/releases.json").get_json()
    assert got["rollout"]["version"] == "0.7.0" and got["rollout"]["boards"] is None
    assert [b["offered"] for b in got["boards"]] == ["0.7.0", "0.7.0"]
    # stopped: nothing offered any more
    assert post(c, csrf, do="unpublish")[0] == 200
    assert club.order("t1") is False and c.get("/update/t1/rp2040.bundle").status_code == 404
    assert club.releases.rollout() is None and club.releases.stopped()
    assert "No update offered" in c.get("/director").get_data(as_text=True)
    assert post(c, csrf, do="publish", version="0.7.0", table="t2")[0] == 200  # again
    assert club.order("t1") is None and club.order("t2")["version"] == "0.7.0"


def test_the_boards_version_and_update_state_reach_the_pages_bounded(club):
    club.registry.add("t1")
    st = {"sides": 2, "target": 121, "score": [5, 9], "back": [0, 3], "phase": "play",
          "version": "0.6.0", "update": "waiting 0.7.0 (the game's end)"}
    got = schema.state("t1", json.dumps(st).encode())
    assert got["version"] == "0.6.0" and got["update"].startswith("waiting")
    for bad in ({"version": "0.6<script>"}, {"version": "9" * 17}, {"update": "x" * 81},
                {"update": "a\nb"}, {"update": 7}):
        with pytest.raises(BadMessage):
            schema.state("t1", json.dumps(dict(st, **bad)).encode())
    club.states["t1"] = got
    club.status["t1"] = "online"
    c = client(club)
    body = c.get("/").get_data(as_text=True)
    assert "v0.6.0 · waiting 0.7.0 (the game&#39;s end)" in body
    login(c)
    body = c.get("/director").get_data(as_text=True)
    assert "<td>t1</td><td>online</td><td>0.6.0</td><td>waiting 0.7.0" in body


def test_the_clubs_message_to_a_board_carries_its_order_signed(club):
    from club.says import Says
    from club.sign import SAYS_DOMAIN, verify

    s1 = club.registry.add("t1")
    club.registry.add("t2")
    club.releases.add(unsigned())
    club.releases.publish("0.7.0", ["t1"])
    s = Says(club.store.path)
    got = dict(s.due(club))
    fields = json.loads(verify(s1, got["cribbage/t1/says"], SAYS_DOMAIN)[2])
    assert fields["update"] == {"version": "0.7.0", "url": "http://10.0.0.2:8124/update/t1/"}
    assert b"update" not in got["cribbage/t2/says"]
    club.releases.publish("0.7.0", None)  # then all: t2's message changes (a new n)
    assert [t for t, _ in s.due(club)] == ["cribbage/t2/says"]
    club.releases.stop()  # stopped: each board told so ("update": false), a waiting order goes
    got = dict(s.due(club))
    assert json.loads(verify(s1, got["cribbage/t1/says"], SAYS_DOMAIN)[2])["update"] is False
    s.close()
