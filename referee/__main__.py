"""``python -m referee`` runs the command line."""

import sys

try:
    from referee.cli import main

    status = main()
except KeyboardInterrupt:  # Ctrl-C before the command line could catch it
    status = 130
sys.exit(status)
