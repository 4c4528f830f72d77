"""python -m club: the club service (service.py); python -m club boards ... / broker-files /
season ... / release ... / league-bridge / league-keys / league ...: the club's boards, its
broker's files, its seasons, its releases and its league (cli.py)."""

import sys

if any(x in ("boards", "broker-files", "season", "league-bridge", "league-keys", "release",
                           "league") for x in sys.argv[1:]):
    from club.cli import main as cli

    sys.exit(cli(sys.argv[1:]))

from club.service import main  # noqa: E402

sys.exit(main())
