"""The shipped tables are exactly what the generator builds from the itemised count."""

import tablegen  # tools/tables/tablegen.py
from cribbage import tables


def test_shipped_show_table_matches_generator():
    assert tablegen.show_table() == tables.SHOW
    assert len(tables.SHOW) == 6188 and tables.SHOW_BIAS == tablegen.SHOW_BIAS


def test_tables_source_is_current():
    import os
    path = os.path.join(os.path.dirname(tables.__file__), "tables.py")
    with open(path) as f:
        assert f.read() == tablegen.tables_source(), "run: python tools/tables/gen_tables.py"


def test_table_values_in_range():
    pts = [b - tables.SHOW_BIAS for b in tables.SHOW]
    assert min(pts) == 0 and max(pts) == 28  # 5-5-5-5-ten; nobs makes the 29
