"""``python -m solver.cli`` is the ``capsa`` command."""

import sys

from solver.cli import main

sys.exit(main())
