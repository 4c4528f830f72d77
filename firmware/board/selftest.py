"""The LED self-test's frames (Renderer.selftest): apart, so a board that never runs the test
does not keep its code in RAM."""

from board.render import RED, WHITE, FRONT, STATUS


def selftest(r, step):
    """Frame `step` of the self-test into renderer r's strip buffer; False when done."""
    n = r.layout.count
    buf = r.buf
    for k in range(len(buf)):
        buf[k] = 0
    r._n_old = 0
    r._n = 0
    if step < 3 * n:
        colour, p = divmod(step, n)
        # red, green, blue: palette entries chosen for pure-ish channels
        r._add(p, (RED, 2, 1)[colour], FRONT)
    elif step < 3 * n + 3:
        for p in range(n):
            r._add(p, WHITE, STATUS)
    else:
        r._write()
        return False
    r._sum = 0
    for j in range(3 * r._n):
        r._sum += r._rgb[j]
    r._limit()
    r._write()
    return True
