"""tools/bench/rollout_time.py (issue 31's timing: the director's click to every board updated) run
small: two boards in the unix port, a small bundle, with Mosquitto and the club service real.
It must see every board updated (each its slot record flipped, on trial); the seconds it prints
are its figure (docs/updates.md), never asserted here."""

import pytest

import rollout_time
from clubkit import HAVE_MOSQUITTO, WHY_SKIPPED

pytestmark = [pytest.mark.skipif(not HAVE_MOSQUITTO, reason=WHY_SKIPPED), pytest.mark.slow]


def test_the_rollout_timing_sees_every_board_updated(tmp_path):
    done = rollout_time.measure(boards=2, kind="small", keep=str(tmp_path))
    assert sorted(done) == ["t1", "t2"]
    for b in ("t1", "t2"):
        with open(tmp_path / b / "slots.rec", "rb") as f:
            assert f.read(4) == b"SarT"
