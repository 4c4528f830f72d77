"""The seats' names of the club publisher (publish/names.py), under CPython and MicroPython:
checked, kept and read back; a bad file is no names. (Its outbox's tests are in
host_tests/test_publish.py: the history's reader wants more heap than make test-mp's from
source.)"""

from fakeboard.ramfs import RamFs
from check import raises
from publish import contract as C, names as N
from board.storage import Storage


def store_with():
    return Storage("/d", RamFs())


def test_names_are_checked_kept_and_read_back():
    assert C.parse_names("Ann,Bob") == ["Ann", "Bob", None, None, None, None]
    assert C.parse_names(" Ann , ,Cy-D.") == ["Ann", None, "Cy-D.", None, None, None]
    assert C.parse_names("") == [None] * 6
    assert "at most 7" in str(raises(ValueError, C.parse_names, "Bartholomew"))
    assert "letters" in str(raises(ValueError, C.parse_names, "A,<b>"))
    assert "at most 6" in str(raises(ValueError, C.parse_names, "a,b,c,d,e,f,g"))
    st = store_with()
    assert N.load_names(st) == [None] * 6
    N.save_names(st, C.parse_names("Ann,,Cy"))
    assert N.load_names(st) == ["Ann", None, "Cy", None, None, None]
    for bad in (b"{", b'{"a": 1}', b'["far too long a name"]', b"x" * 500):
        st.save("names", bad)
        assert N.load_names(st) == [None] * 6


def test_the_names_file_of_earlier_firmware_and_names_kept_for_waiting_games():
    """The seats' names alone (as earlier firmware saves them, and this one while nothing
    waits: no outbox) load as ever; after them, names kept for waiting games ("MARK names",
    publish/names.py's save_names) are not the seats'."""
    st = store_with()
    st.save("names", b'["Ann", "Bob", null, null, null, null]')
    assert N.load_names(st) == ["Ann", "Bob", None, None, None, None]
    N.save_names(st, C.parse_names("Cy,Di"))  # (no outbox: nothing waits, nothing kept)
    assert st.read("names") == b'["Cy", "Di", null, null, null, null]'
    m = "0" * 28
    st.save("names", ('["Ed", null, null, null, null, null, "%s Ann,Bob,,,,"]' % m).encode())
    assert N.load_names(st) == ["Ed", None, None, None, None, None]
    for bad in ("%s Bartholomew,,,,," % m, "%sAnn" % m, "Ann"):
        st.save("names", ('["Ed", null, null, null, null, null, "%s"]' % bad).encode())
        assert N.load_names(st) == [None] * 6
