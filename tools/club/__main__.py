"""python -m club: the club service (service.py)."""

import sys

from club.service import main

sys.exit(main())
