"""What the page sends that is made from the game and the board, not kept: this game deal by
deal (GET /deals), every LED's place (GET /layout), what is wrong with the Wi-Fi file's broker
entry (GET /club)."""

from board.fault import room


def deal_rows(m):
    """This game deal by deal: [dealer side, [hand, crib, play] per side (None: not shown),
    all each side pegged in the deal (his heels, penalties and muggins too: the race's
    steps, which add up to the score)]. The game replays itself (cribbage/summary.py): a
    failure half way is raised, the game restored or to be restored (app.broken: see
    page/routes.py's now_deals)."""
    room("cribbage.summary")
    from cribbage import summary as S
    try:
        b = b"".join(S.dumps(m, 255))
    except ValueError:
        return []
    out = []
    for dealer, heels, crib, hands, plays, pegs, pens, mugs in S.rows(b, 0, m.sides):
        row = []
        got = []
        at = m.side_of(dealer)
        for side in range(m.sides):
            c = crib if side == at else None
            row.append([hands[side], c, plays[side] + pegs[side]])
            got.append((hands[side] or 0) + (c or 0) + plays[side] + pegs[side] + pens[side]
                       + mugs[side] + (heels if side == at else 0))
        out.append([at, row, got])
    return out


def layout(L):
    """Every LED's place (mm) and what it is, a band of the board at a time (streamed)."""
    from board.geometry import KIND_NAMES
    yield '{"count":%d,"lanes":%d,"holes":%d,"leds":[' % (L.count, L.lanes, L.holes)
    n = L.count
    for i in range(0, n, 30):
        part = []
        for p in range(i, min(i + 30, n)):
            x, y = L.xy(p)
            kind, lane, k = L.what(p)
            part.append('[%.1f,%.1f,"%s",%d,%d]' % (x, y, KIND_NAMES[kind], lane, k))
        yield ("," if i else "") + ",".join(part)
    yield "]}"


def wifi_fault():
    """What is wrong with the Wi-Fi file's broker entry, naming the field (hw/wifi.py's
    fault(), at its PATH: the simulator's is in its storage), or "" (none, or a good one)."""
    from hw import wifi

    return wifi.fault(wifi.PATH, "broker")
