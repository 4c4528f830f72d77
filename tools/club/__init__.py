"""The club's side of club night (issue 24): the boards' games through an MQTT broker into one
SQLite file, and the club page (standings, live tables, tournament, exports). docs/club.md says
how to run it and what the messages are.

    contract.py   the topics and the payloads, checked (what a board sends)
    store.py      SQLite: every game once, by its record id; the tournament
    night.py      standings by ACC game points, a player's games, special hands, the race
    tournament.py pairings (rotation), the top quarter's knock-out bracket
    page.py       the pages' data, drawn by templates/ (Jinja2, autoescaped): HTML and SVG
    web.py        the web side: Flask's routes on waitress; the CSV
    director.py   the director's password, sessions, tries, kept tournaments and log
    service.py    the service: MQTT subscriber, and main() (python -m club)
    screenshots.py  the pages pictured in Chromium for docs/club.md (make club-pictures)
    simboard.py   simulated boards: real games of the core as the messages a board sends
"""
