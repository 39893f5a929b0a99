"""``python -m scoring``: see ``scoring.tools.cli``."""

import sys

from scoring.tools.cli import main

sys.exit(main())
