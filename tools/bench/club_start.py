# main_club.py's start: the club's publisher started beside the page, as board/tasks.py starts
# it on a board whose configuration names a broker, and then this module let go, so that none
# of the bench's own code is on the heap during the games (a board has none: board/tasks.py,
# resident in the page's run too, starts the publisher). Imported by main_club.py before
# main_game.py; main_game.py's board.tasks.web(app) calls web() below once, which starts the
# publisher's task (app.hw["club"]: (the Publisher, its task), for club_done.py) and hands the
# publisher to the page's task.

import sys

import board.tasks

_web = board.tasks.web


def web(app):
    import asyncio

    from publish.task import Publisher

    board.tasks.web = _web  # (then this module is let go: nothing holds its code)
    sys.modules.pop("club_start", None)
    import os

    app.hw["broker"] = {"host": "127.0.0.1", "port": int(sys.argv[6]), "prefix": "cribbage",
                        "board": "t1", "secret": os.getenv("CLUB_KEY")}.copy  # (a fresh dict, as
    # hw/wifi.py's broker() reads one: publish/link.py's start() takes the secret out of it)
    p = Publisher(app)
    app.hw["club"] = (p, asyncio.create_task(p.run()))  # (held while the app runs)
    return _web(app, p)


try:
    import os

    os.remove("outbox")  # a fresh board (main_game.py removes the rest)
except OSError:
    pass
board.tasks.web = web
