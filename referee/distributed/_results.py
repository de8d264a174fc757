"""Reports written for later analysis: JSON Lines, or Parquet with one flat row per game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from referee.records import ValidationReport

__all__ = ["ResultsWriter"]


_COLUMNS: tuple[tuple[str, str], ...] = (
    ("where", "string"),
    ("game", "string"),
    ("public", "bool_"),
    ("legal", "bool_"),
    ("status", "string"),
    ("plies", "int64"),
    ("games", "int64"),
    ("error_round", "int64"),
    ("error_ply", "int64"),
    ("error_move", "string"),
    ("error_reason", "string"),
    ("error_message", "string"),
    ("error_evidence", "string"),
    ("result_mismatch", "string"),
    ("input_error", "string"),
    ("match_error", "string"),
    ("match_result", "string"),
    ("outcome_winner", "int64"),
    ("outcome_reason", "string"),
)


def _row(report: ValidationReport) -> dict[str, Any]:
    error, outcome = report.error, report.outcome
    return {
        "where": report.where,
        "game": report.game,
        "public": report.public,
        "legal": report.legal,
        "status": "unreadable"
        if report.input_error is not None
        else "legal"
        if report.legal
        else "illegal",
        "plies": report.plies,
        "games": report.games,
        "error_round": None if error is None else error.round,
        "error_ply": None if error is None else error.ply,
        "error_move": None if error is None else error.move,
        "error_reason": None if error is None else error.reason,
        "error_message": None if error is None else error.message,
        "error_evidence": None
        if error is None or error.evidence is None
        else json.dumps(error.evidence, ensure_ascii=False),
        "result_mismatch": report.result_mismatch,
        "input_error": report.input_error,
        "match_error": report.match_error,
        "match_result": None
        if report.match_result is None
        else json.dumps(report.match_result, ensure_ascii=False),
        "outcome_winner": None if outcome is None else outcome.winner,
        "outcome_reason": None if outcome is None else outcome.reason,
    }


class ResultsWriter:
    """Writes reports to a ``.jsonl`` file (one :meth:`ValidationReport.to_json`
    per line) or a ``.parquet`` file (one flat row per game, see the docs page),
    a batch at a time, so memory stays flat.

    Parquet needs ``pyarrow``, which the ``dask`` extra installs.

    >>> import tempfile, pathlib
    >>> from referee.records import loads_document, validate
    >>> report = validate(loads_document('{"game": "schotten-totten", "moves": ["pass"]}', "x:1"))
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "results.jsonl"
    >>> with ResultsWriter(out) as writer:
    ...     writer.write(report)
    >>> out.read_text().count("\\n")
    1
    """

    def __init__(self, path: str | Path, *, batch: int = 4096) -> None:
        self.path = Path(path)
        self._batch_size = batch
        self._rows: list[dict[str, Any]] = []
        self._parquet: Any = None
        self._schema: Any = None
        self._text: IO[str] | None = None
        if self.path.suffix == ".parquet":
            try:
                import pyarrow as pa
                import pyarrow.parquet as pq
            except ImportError:
                raise ImportError(
                    "Parquet results need pyarrow: pip install 'referee[dask]'"
                ) from None
            self._schema = pa.schema([(name, getattr(pa, kind)()) for name, kind in _COLUMNS])
            self._parquet = pq.ParquetWriter(str(self.path), self._schema)
        elif self.path.suffix == ".jsonl":
            self._text = self.path.open("w", encoding="utf-8")
        else:
            raise ValueError(f"results go to a .jsonl or .parquet file, got {str(path)!r}")

    def write(self, report: ValidationReport) -> None:
        """Add one report."""
        if self._text is not None:
            self._text.write(json.dumps(report.to_json(), ensure_ascii=False) + "\n")
            return
        self._rows.append(_row(report))
        if len(self._rows) >= self._batch_size:
            self._flush()

    def _flush(self) -> None:
        if self._rows:
            import pyarrow as pa

            self._parquet.write_table(pa.Table.from_pylist(self._rows, schema=self._schema))
            self._rows.clear()

    def close(self) -> None:
        """Write what is left and close the file."""
        if self._text is not None:
            self._text.close()
        elif self._parquet is not None:
            self._flush()
            self._parquet.close()

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
