"""The club's side of club night (issue 24): the boards' games through an MQTT broker into one
SQLite file, and the club page (standings, live tables, tournament, exports). docs/club.md says
how to run it and what the messages are.

    contract.py   the topics (what a board sends where); BadMessage
    schema.py     the payloads' declared shapes, checked at the door (pydantic)
    sign.py       a board's signature on its games: the wire format, the key derivations
    intake.py     the door: every message from the broker checked, or refused and kept
    registry.py   the club's boards (name, key) and accounts; the broker's password file, ACL
    cli.py        python -m club boards add/list/remove, broker-files
    says.py       the club's signed, retained message to each board (its night, an update)
    releases.py   the releases kept and their rollout; each board's own signed copy
    sqlfile.py    the SQLite file opened the one way its parts share it
    store.py      SQLite: every game once, by its record id (signed: by counter, revised,
                  withdrawn); the refused; the tournament
    night.py      standings by ACC game points, a player's games, special hands, the race
    season.py     seasons: nights together, Grass Roots points, a player's season
    ratings.py    Elo ratings over every counted game, recomputed from the store
    tally.py      the league's standings and ratings kept incrementally (saved, read back)
    league.py     a league of clubs: the bridge config, a Club per club, the league's page
    tournament.py pairings (rotation), the top quarter's knock-out bracket
    page.py       the pages' data, drawn by templates/ (Jinja2, autoescaped): HTML and SVG
    web.py        the web side: Flask's routes on waitress; the CSV
    director.py   the director's password, sessions, tries, kept tournaments and log
    service.py    the service: MQTT subscriber, and main() (python -m club)
    screenshots.py  the pages pictured in Chromium for docs/club.md (make club-pictures)
    simboard.py   simulated boards: real games of the core as the messages a board sends
"""
