"""``python -m referee.cli`` runs the command line (as ``python -m referee`` does)."""

import sys

from referee.cli import main

sys.exit(main())
