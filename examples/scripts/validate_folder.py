"""Validate every record in a folder from Python and pinpoint the illegal moves.

python examples/scripts/validate_folder.py examples/records
"""

from __future__ import annotations

import sys
from pathlib import Path

from referee.records import validate_source


def main(folder: str) -> int:
    illegal = 0
    for path in sorted(Path(folder).rglob("*.json*")):
        for report in validate_source(path):
            if report.legal:
                continue
            illegal += 1
            if report.error is not None:
                e = report.error
                print(f"{path.name}: ply {e.ply} {e.move!r} breaks {e.reason}")
            else:
                print(f"{path.name}: {report.summary().split(': ', 1)[1]}")
    print(f"{illegal} illegal records")
    return 1 if illegal else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "examples/records"))
