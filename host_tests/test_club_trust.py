"""The club's door without a broker (issue 30, tools/club: schema.py, sign.py, intake.py,
registry.py, store.py): every message checked before anything is kept, every game signed by
its board's key with a counter it never used, a game id its board's, revisions and
withdrawals, the refused kept for the director, the caps. Each attack here was taken before
(tools/club/contract.py and store.py of issue 24); the broker's half is test_club_attacks.py."""

import json
import sqlite3

import pytest

from club import intake, night, page, schema, sign
from club.registry import Registry, acl_text, mosquitto_hash
from club.service import Club
from club.simboard import SimBoard, payload

GAME = "cribbage/t1/game"


def _club(tmp_path, *boards, unsigned=()):
    club = Club(str(tmp_path / "club.sqlite"))
    keys = {b: club.registry.add(b) for b in boards}
    for b in unsigned:
        club.registry.add(b, unsigned=True)
    return club, keys


def _board(club, keys, name="t1", seed=3, names=("Ann", "Bob"), players=2):
    b = SimBoard(name, seed=seed, players=players, secret=keys[name])
    b.seat(list(names))
    return b


def _counted(tmp_path):
    """A club with board t1 (its key), t1's first game counted: (club, keys, the board, the
    game, its signed message)."""
    club, keys = _club(tmp_path, "t1")
    b = _board(club, keys)
    g = b.play()
    first = b.signed(g)
    assert club.handle(GAME, first) == "new"
    return club, keys, b, g, first


def test_a_signed_game_counts_once_and_its_resend_is_a_duplicate(tmp_path):
    club, keys = _club(tmp_path, "t1")
    b = _board(club, keys)
    g = b.play()
    p = b.signed(g)
    assert p[64:65] == b" " and p.split(b"\n", 1)[1] == payload(g)
    assert club.handle(GAME, p) == "new"
    assert club.handle(GAME, p) == "duplicate"  # the board's resend, the very bytes
    assert club.store.games() == [dict(g, received=club.store.games()[0]["received"],
                                       night=club.night())]
    assert (club.store.count(), club.dropped, club.duplicates) == (1, 0, 1)


def test_nesting_bombs_are_refused_and_acknowledged_and_the_next_game_counts(tmp_path):
    club, keys = _club(tmp_path, "t1", unsigned=["t9"])
    b = _board(club, keys)
    bomb = b"[" * 4000 + b"]" * 4000  # 8 KB: under every cap on size
    deep = b'{"id": "t1-1", "board": "t1", "seats": ' + bomb * 4 + b"}"
    for _ in range(25):  # more than a broker's 20 in-flight slots
        b.counter += 1  # (signed by t1's own key: a board's bug, or its key stolen)
        assert club.handle(GAME, sign.frame(keys["t1"], b.counter, deep)) == "dropped"
        assert club.handle("cribbage/t9/game", deep) == "dropped"  # unsigned board's
        assert club.handle("cribbage/t1/state", bomb) == "dropped"
    assert club.dropped == 75
    assert club.handle(GAME, b.signed(b.play())) == "new"
    why = club.store.rejects(limit=3)
    assert [r["board"] for r in why] == ["t1", "t9", "t1"]
    assert all("recursion limit" in r["reason"] for r in why), why


def _bad_games(g):
    """A real game changed in each way a page would suffer from (or a result be wrong)."""
    def side(k, **kw):
        return lambda m: m["game"]["by_side"][k].update(kw)
    changes = {
        "no won": lambda m: m["game"]["by_side"][0].pop("won"),
        "won a string": side(0, won="yes"),
        "a side's name missing": lambda m: m["game"]["by_side"][1].pop("name"),
        "a side's name of 10 KB": side(1, name="x" * 10000),
        "n29 2000000": side(0, n29=2000000),
        "more 29s than hands and cribs": side(0, n29=200),
        "n28 -1": side(1, n28=-1),
        "deals a string": lambda m: m["game"].update(deals="11"),
        "by_deal not a list": lambda m: m["game"].update(by_deal={"a": 1}),
        "a deal's dealer 9": lambda m: m["game"]["by_deal"][0].update(dealer=9),
        "a deal of 3 sides": lambda m: m["game"]["by_deal"][0]["by_side"].append(
            m["game"]["by_deal"][0]["by_side"][0]),
        "score 100000": side(0, score=100000),
        "score a float": side(0, score=121.5),
        "winner out of range": lambda m: m["game"].update(winner=5),
        "result unknown": lambda m: m["game"].update(result="forfeit"),
        "a seat's name 99 long": lambda m: m["seats"][0].update(name="x" * 99),
        "a seat's side 7": lambda m: m["seats"][1].update(side=7),
        "no seats": lambda m: m.update(seats=[]),
        "id missing": lambda m: m.pop("id"),
        "id of 10 KB": lambda m: m.update(id="t1-" + "1" * 10000),
        "a seat's name a list": lambda m: m["seats"][0].update(name=["A"]),
        "6000 deals": lambda m: m["game"].update(
            by_deal=m["game"]["by_deal"] * 600, deals=6000),
    }
    out = {}
    for why, change in changes.items():
        m = json.loads(payload(g))
        change(m)
        out[why] = m
    return out


def test_missing_and_out_of_range_fields_are_refused_and_kept_as_rejects(tmp_path):
    club, keys = _club(tmp_path, "t1")
    b = _board(club, keys)
    g = b.play()
    bad = _bad_games(g)
    for why, m in bad.items():
        assert club.handle(GAME, b.signed(m)) == "dropped", why
    assert club.store.count() == 0
    assert club.dropped == len(bad)
    assert len(club.store.rejects(limit=100)) == len(bad)
    assert club.handle(GAME, b.signed(g)) == "new"
    # the pages draw what was kept: no 8 MB page from one message
    html = page.club_page(club.night(), club.store.nights(), club.games("all"), {}, {}, None,
                          club.dropped)
    assert len(html) < 40000


def test_a_winner_who_is_not_the_side_that_reached_the_target_is_refused(tmp_path):
    club, keys = _club(tmp_path, "t1")
    b = _board(club, keys)
    g = b.play()
    w = g["game"]["winner"]
    lie = json.loads(payload(g))  # the loser called the winner: a spread of minus the margin
    lie["game"]["winner"] = 1 - w
    lie["game"]["by_side"][w]["won"], lie["game"]["by_side"][1 - w]["won"] = False, True
    assert next(r["spread"] for r in night.results(lie) if r["won"]) < 0
    both = json.loads(payload(g))  # both sides past the target
    both["game"]["by_side"][1 - w]["score"] = g["game"]["target"]
    short = json.loads(payload(g))  # the winner short of the target
    short["game"]["by_side"][w]["score"] = g["game"]["target"] - 1
    flag = json.loads(payload(g))  # won: true on the loser as well
    flag["game"]["by_side"][1 - w]["won"] = True
    for m in (lie, both, short, flag):
        assert club.handle(GAME, b.signed(m)) == "dropped"
    assert club.store.count() == 0
    assert all("won" in r["reason"] or "winner" in r["reason"]
               for r in club.store.rejects(limit=4))


def test_an_unsigned_game_a_wrong_key_and_a_forged_mac_do_not_count(tmp_path):
    club, keys = _club(tmp_path, "t1", "t2")
    b = _board(club, keys)
    g = b.play()
    assert club.handle(GAME, payload(g)) == "dropped"  # plain JSON from a board with a key
    stranger = SimBoard("t1", seed=1, secret=b"\x01" * 32)  # a phone's guess at t1's key
    assert club.handle(GAME, stranger.signed(g)) == "dropped"
    t2 = _board(club, keys, "t2")
    assert club.handle(GAME, t2.signed(g)) == "dropped"  # t2's key on t1's game
    p = bytearray(b.signed(g))
    p[-3] ^= 1  # one bit of the game changed after signing
    assert club.handle(GAME, bytes(p)) == "dropped"
    p = b.signed(g)
    assert club.handle(GAME, p.replace(b" %d\n" % b.counter, b" %d\n" % (b.counter + 7),
                                       1)) == "dropped"  # the counter changed
    assert club.store.count() == 0 and club.dropped == 5
    reasons = [r["reason"] for r in club.store.rejects()]
    assert sum("does not verify" in r for r in reasons) == 4
    assert sum("unsigned" in r for r in reasons) == 1
    assert club.handle(GAME, p) == "new"


def test_a_replayed_counter_never_counts_again(tmp_path):
    club, keys, b, g1, first = _counted(tmp_path)
    # the board withdraws it (an undo past the end): a sniffer's copy of the first message
    # sent again changes nothing
    assert club.handle(GAME, b.withdrawal(g1["id"])) == "withdrawn"
    assert club.handle(GAME, first) == "duplicate"
    assert club.store.count() == 0 and club.store.game(g1["id"]) is None
    # a board whose counter started again (or a replay with other bytes under a used
    # counter) is refused, and the games kept stay as they are
    g2 = b.play()
    reused = sign.frame(keys["t1"], 1, payload(g2))
    assert club.handle(GAME, reused) == "dropped"
    assert "counter 1 used already" in club.store.rejects(limit=1)[0]["reason"]
    assert club.store.count() == 0
    assert club.handle(GAME, b.signed(g2)) == "new"


def test_a_game_id_belongs_to_the_board_that_signed_it(tmp_path):
    club, keys = _club(tmp_path, "t9", "evil")
    evil = _board(club, keys, "evil")
    g = evil.play()
    squat = dict(g, id="t9-1")  # evil's game under t9's first id, first
    assert club.handle("cribbage/evil/game", evil.signed(squat)) == "dropped"
    assert club.handle("cribbage/t9/game", evil.signed(dict(squat, board="t9"))) == "dropped"
    t9 = _board(club, keys, "t9")
    real = t9.play()
    assert club.handle("cribbage/t9/game", t9.signed(real)) == "new"
    assert club.store.game("t9-1")["board"] == "t9"
    assert club.store.game("t9-1")["game"] == real["game"]
    # a board not in the registry: nothing it sends is taken
    assert club.handle("cribbage/phone/game", evil.signed(dict(g, board="phone",
                                                              id="phone-1"))) == "dropped"
    assert "not one of the club's" in club.store.rejects(limit=1)[0]["reason"]


def test_a_revision_replaces_the_game_and_a_withdrawal_removes_it_never_doubled(tmp_path):
    club, keys, b, g, first = _counted(tmp_path)
    corrected = json.loads(payload(g))  # the game undone past its end and ended again
    corrected["seats"][0]["name"] = "Cy"
    second = b.signed(corrected)
    assert club.handle(GAME, second) == "revised"
    assert club.handle(GAME, first) == "duplicate"  # the first, again: the revision stays
    assert [s["name"] for s in club.store.game(g["id"])["seats"]] == ["Cy", "Bob"]
    assert [r["name"] for r in night.standings(club.games("all"))] != [] and \
        {r["name"] for r in night.standings(club.games("all"))} == {"Cy", "Bob"}
    assert club.store.count() == 1
    # the revisions out of order (a resend after a reconnect): the later one stays
    third = json.loads(payload(corrected))
    third["seats"][1]["name"] = "Di"
    p3 = b.signed(third)
    gone = b.withdrawal(g["id"])
    assert club.handle(GAME, gone) == "withdrawn"
    assert club.handle(GAME, p3) == "stale"  # earlier than the withdrawal: no comeback
    assert club.store.count() == 0 and club.games("all") == []
    again = b.signed(corrected)  # ended once more, after the withdrawal: counts again
    assert club.handle(GAME, again) == "revised"
    assert club.store.count() == 1
    # a withdrawal of another board's game, or a malformed one, is refused
    assert club.handle(GAME, b.signed({"id": "t2-1", "board": "t1", "withdraw": True})) == \
        "dropped"
    assert club.handle(GAME, b.signed({"id": g["id"], "board": "t1", "withdraw": 1})) == \
        "dropped"
    assert club.store.count() == 1
    # kept across a reopen, with its counters
    club.store.close()
    club = Club(str(tmp_path / "club.sqlite"))
    assert club.handle(GAME, first) == "duplicate" and club.handle(GAME, gone) == "duplicate"
    assert club.store.count() == 1


def test_live_states_and_status_are_bounded(tmp_path):
    club, keys = _club(tmp_path, "t1")
    b = _board(club, keys)
    st = b.state()
    assert club.handle("cribbage/t1/state", payload(st)) == "state"
    for bad in (dict(st, deal="3"), dict(st, score=[1, 2, 3]), dict(st, names=["x" * 99]),
                dict(st, pile=["5H"] * 5000)):
        assert club.handle("cribbage/t1/state", payload(bad)) == "dropped"
    assert club.live()[0]["t1"]["deal"] == st["deal"]
    for i in range(400):  # invented boards: refused, whatever they send
        assert club.handle("cribbage/x%d/state" % i, payload(dict(st, board="x%d" % i))) == \
            "dropped"
        assert club.handle("cribbage/x%d/status" % i, b"online") == "dropped"
    states, status = club.live()
    assert list(states) == ["t1"] and status == {}
    # known boards: the live states of at most MAX_LIVE kept, the next refused (saying so)
    for i in range(intake.MAX_LIVE + 5):
        club.registry.add("b%d" % i)
    got = [club.handle("cribbage/b%d/state" % i, payload(dict(st, board="b%d" % i)))
           for i in range(intake.MAX_LIVE + 5)]
    assert got.count("state") == intake.MAX_LIVE - 1 and got.count("dropped") == 6
    assert "at most %d" % intake.MAX_LIVE in club.store.rejects(limit=1)[0]["reason"]
    assert len(club.live()[0]) == intake.MAX_LIVE
    assert club.handle("cribbage/t1/state", b"") == "state"  # cleared: room for one more
    assert club.handle("cribbage/b130/state", payload(dict(st, board="b130"))) == "state"
    # their status the same way: at most MAX_LIVE kept, the next refused, a cleared one gone
    got = [club.handle("cribbage/b%d/status" % i, b"online")
           for i in range(intake.MAX_LIVE + 5)]
    assert got.count("status") == intake.MAX_LIVE and got.count("dropped") == 5
    assert "status of %d boards kept already" % intake.MAX_LIVE in club.store.rejects(
        limit=1)[0]["reason"]
    assert club.handle("cribbage/b0/status", b"") == "status"  # cleared: room for one more
    assert club.handle("cribbage/b%d/status" % (intake.MAX_LIVE + 4), b"offline") == "status"
    assert len(club.live()[1]) == intake.MAX_LIVE and "b0" not in club.live()[1]


def test_rejects_are_kept_newest_first_and_bounded(tmp_path):
    club, _ = _club(tmp_path, "t1")
    for i in range(250):
        club.handle("cribbage/t1/status", b"maybe %d" % i)
    r = club.store.rejects(limit=500)
    assert len(r) == 200  # the newest 200
    assert r[0]["board"] == "t1" and r[0]["topic"] == "cribbage/t1/status"
    assert "maybe 249" in r[0]["reason"] and "maybe 50" in r[-1]["reason"]
    assert set(r[0]) == {"at", "board", "topic", "reason"}
    assert len(club.store.rejects()) == 50
    h = club.health()
    assert h["dropped"] == 250 and h["warnings"]


def test_only_a_failing_store_withholds_the_acknowledgement(tmp_path):
    club, keys = _club(tmp_path, "t1")
    b = _board(club, keys)
    p = b.signed(b.play())
    club.store.db.close()  # the disk is gone
    with pytest.raises(sqlite3.Error):
        club.handle(GAME, p)


def test_unsigned_boards_are_taken_only_when_the_registry_says_so_and_warned_of(tmp_path):
    club, keys = _club(tmp_path, "t1", unsigned=["t2"])
    t2 = SimBoard("t2", seed=4)
    t2.seat(["Ann", "Bob"])
    g = t2.play()
    assert club.handle("cribbage/t2/game", payload(g)) == "new"
    assert club.handle("cribbage/t2/game", payload(dict(g, id="t1-1", board="t2"))) == \
        "dropped"  # even unsigned, an id is its board's
    assert club.unsigned_boards() == ["t2"]
    assert any("unsigned" in w and "t2" in w for w in club.warnings())
    assert club.health()["unsigned_boards"] == ["t2"]


def test_every_game_of_2_to_6_players_passes_the_door_as_it_is():
    for players in (2, 3, 4, 5, 6):
        b = SimBoard("t1", seed=players, players=players)
        b.seat([None] * players)
        for _ in range(3):
            g = b.play()
            assert schema.game("t1", payload(g)) == g
            assert schema.state("t1", payload(b.state()))["score"] == b.state()["score"]


def test_the_registry_makes_keys_passwords_and_the_acl(tmp_path):
    reg = Registry(str(tmp_path / "club.sqlite"))
    s = reg.add("t1")
    assert len(s) == 32 and reg.secret("t1") == s
    assert sign.mqtt_password(s) == __import__("hmac").new(
        s, b"mqtt", "sha256").hexdigest()[:32]
    with pytest.raises(ValueError):
        reg.add("t1")
    for bad in ("", "a/b", "t+", "#", "x" * 17):
        with pytest.raises(ValueError):
            reg.add(bad)
    reg.add("old", unsigned=True)
    acl = acl_text(reg.boards(), ["club"])
    head = acl.split("\nuser ")[0]  # the anonymous part: an unsigned board's topics only
    assert [x for x in head.splitlines() if x.startswith("topic")] == [
        "topic write cribbage/old/status", "topic write cribbage/old/state",
        "topic write cribbage/old/game"]
    assert "user club\ntopic read cribbage/+/status" in acl
    assert "user t1\ntopic write cribbage/t1/status\ntopic write cribbage/t1/state\n" \
           "topic write cribbage/t1/game" in acl
    assert "cribbage/#" not in acl
    assert [x for x in acl.splitlines() if "readwrite" in x] == [
        "topic readwrite cribbage/_service/+/lock"]  # (the service's mark: service.py)
    h = mosquitto_hash("pw", salt=b"0" * 12)
    assert h.startswith("$7$101$MDAwMDAwMDAwMDAw$") and len(h.split("$")[-1]) == 88
    assert reg.remove("t1") and reg.board("t1") is None
    reg.close()


def test_the_club_command_adds_lists_and_removes_boards_and_writes_the_broker_files(tmp_path):
    import os
    import subprocess
    import sys

    from hostenv import ROOT

    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "tools"))

    def club(*args, ok=True):
        r = subprocess.run([sys.executable, "-m", "club", *args], cwd=str(tmp_path), env=env,
                           capture_output=True, text=True, timeout=60)
        assert (r.returncode == 0) == ok, r.stderr
        return r.stdout

    (tmp_path / "wifi.json").write_text(json.dumps({"ssid": "club", "password": "pw",
                                                    "broker": {"host": "192.168.1.20"}}))
    out = json.loads(club("boards", "add", "t1", "--wifi", "wifi.json"))
    secret = bytes.fromhex(out["broker"]["secret"])
    assert out == {"broker": {"host": "192.168.1.20", "board": "t1", "secret": secret.hex()}}
    assert len(secret) == 32
    wifi = json.loads((tmp_path / "wifi-t1.json").read_text())
    assert wifi == {"ssid": "club", "password": "pw", "broker": out["broker"]}
    assert (tmp_path / "wifi-t1.json").stat().st_mode & 0o077 == 0  # (its key: private)
    club("boards", "add", "old", "--unsigned", "--host", "10.0.0.2")
    club("boards", "add", "t1", ok=False)  # taken
    club("boards", "add", "club", ok=False)  # the service's account
    club("boards", "add", "a/b", ok=False)
    assert club("boards", "list").split() == ["old", "unsigned", "t1", "signed"]
    broker = tmp_path / "club-broker"
    passwd = (broker / "club.passwd").read_text().splitlines()
    assert sorted(x.split(":")[0] for x in passwd) == ["club", "old", "t1"]
    assert all(x.split(":", 1)[1].startswith("$7$101$") for x in passwd)
    assert "user t1\ntopic write cribbage/t1/status" in (broker / "club.acl").read_text()
    assert "allow_anonymous true" in (broker / "conf.d" / "club-unsigned.conf").read_text()
    assert Registry(str(tmp_path / "club.sqlite")).secret("t1") == secret
    club("boards", "remove", "old")
    club("boards", "remove", "old", ok=False)
    assert "allow_anonymous" not in "".join(
        x for x in (broker / "conf.d" / "club-unsigned.conf").read_text().splitlines()
        if not x.startswith("#"))
    assert "old" not in (broker / "club.acl").read_text()


def test_the_boards_reference_signer_signs_as_the_club_verifies_on_micropython(tmp_path):
    """tools/club/mpsign.py on the MicroPython unix port: its payload verifies at the club
    and its MQTT password is the registry's (the board's engineer builds from it)."""
    import os
    import shutil
    import subprocess

    from hostenv import ROOT

    mp = shutil.which("micropython") or os.path.join(ROOT, ".venv", "bin", "micropython")
    if not os.path.exists(mp):
        pytest.skip("no micropython (make venv installs it)")
    b = SimBoard("t1", seed=5, secret=bytes(range(32)))
    b.seat(["Ann", "Bob"])
    data = payload(b.play())
    (tmp_path / "game.json").write_bytes(data)
    script = (
        "import sys\nsys.path.insert(0, %r)\nimport mpsign\n"
        "s = mpsign.Signer(bytes(range(32)))\ns.start(41)\n"
        "f = open(%r, 'rb')\nwhile True:\n    part = f.read(100)\n    if not part:\n"
        "        break\n    s.update(part)\nsys.stdout.write(s.head().decode())\n"
        "print(mpsign.mqtt_password(bytes(range(32))))\n"
        % (os.path.join(ROOT, "tools", "club"), str(tmp_path / "game.json")))
    out = subprocess.run([mp, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    head, pw = out.stdout.split("\n")[:2]
    signed = (head + "\n").encode() + data
    assert sign.verify(bytes(range(32)), signed) == (41, head[:64], data)
    assert pw == sign.mqtt_password(bytes(range(32)))
