"""The LED self-test's frames (Renderer.selftest): apart, so a board that never runs the test
does not keep its code in RAM."""

from board.render import RED, WHITE, FRONT, STATUS, IDLE_UA, MA_PER_CHANNEL


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
    elif step < 3 * n + 3:  # all white, scaled under the limit as _limit() scales a frame
        r._add(0, WHITE, STATUS)
        v = r._rgb[0]
        idle = n * IDLE_UA // 1000
        allowed = max(0, (r.limit_ma - idle) * 255 // MA_PER_CHANNEL)
        total = 3 * v * n
        if total > allowed:
            v = v * allowed // total
            total = 3 * v * n
        r.last_ma = idle + total * MA_PER_CHANNEL // 255
        bpp = r.bpp
        for p in range(n):
            k = p * bpp
            buf[k + r.o_r] = v
            buf[k + r.o_g] = v
            buf[k + r.o_b] = v
        r._n = 0
        return True
    else:
        r._write()
        return False
    r._sum = 0
    for j in range(3 * r._n):
        r._sum += r._rgb[j]
    r._limit()
    r._write()
    return True
