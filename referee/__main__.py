"""``python -m referee`` runs the command line."""

import sys

from referee.cli import main

sys.exit(main())
