"""python -m club: the club service (service.py); python -m club boards ... / broker-files:
the club's boards and its broker's files (cli.py)."""

import sys

if any(x in ("boards", "broker-files") for x in sys.argv[1:]):
    from club.cli import main as cli

    sys.exit(cli(sys.argv[1:]))

from club.service import main  # noqa: E402

sys.exit(main())
