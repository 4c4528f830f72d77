"""The LED self-test's frames (Renderer.selftest): apart, so a board that never runs the test
does not keep its code in RAM. It uses the renderer's public calls only."""

from board.render import RED, WHITE, STATUS, PALETTE


def selftest(r, step):
    """Frame `step` of the self-test into renderer r's strip buffer; False when done."""
    n = r.layout.count
    r.blank()
    if step < 3 * n:
        colour, p = divmod(step, n)
        # red, green, blue: palette entries chosen for pure-ish channels
        r.lone(p, (RED, 2, 1)[colour])
        return True
    if step < 3 * n + 3:  # all white, scaled under the limit as a frame is
        v = PALETTE[3 * WHITE] * STATUS * r.brightness >> 16
        allowed = r.budget()
        total = 3 * v * n
        if total > allowed:
            v = v * allowed // total
            total = 3 * v * n
        r.last_ma = r.estimate(total)
        buf = r.buf
        for k in range(0, n * r.bpp, r.bpp):
            buf[k + r.o_r] = v
            buf[k + r.o_g] = v
            buf[k + r.o_b] = v
        return True
    return False
