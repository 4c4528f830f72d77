"""The club's side of club night (issue 24): the boards' games through an MQTT broker into one
SQLite file, and the club page (standings, live tables, tournament, exports). docs/club.md says
how to run it and what the messages are.

    contract.py   the topics and the payloads, checked (what a board sends)
    store.py      SQLite: every game once, by its record id; the tournament
    night.py      standings by ACC game points, a player's games, special hands, the race
    tournament.py pairings (rotation), the top quarter's knock-out bracket
    page.py       the club page, the projector view, the race chart (HTML, SVG)
    service.py    the service: MQTT subscriber and the page's HTTP server (python -m club)
    simboard.py   simulated boards: real games of the core as the messages a board sends
"""
