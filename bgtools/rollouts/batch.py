"""Batch rollouts on disk: files of position IDs in, results files out.

:func:`read_id_file` reads IDs one a line or from a CSV ``id`` column; :class:`OutputFile`
appends one complete record per position (JSON lines or CSV) and, resuming, tells which
records are there already.
"""

from __future__ import annotations

import os

from bgtools.base import jsonout
from bgtools.base.jsonout import csv_cell
from bgtools.rollouts.settings import OUTPUTS, RolloutError, RolloutSettings

__all__ = ["read_id_file", "OutputFile", "CSV_COLUMNS", "json_scalar"]

CSV_COLUMNS = ("id", "trials", "seed", "ply", "cubeful", "truncate", "vr", "bearoff_truncation", "evaluator",
               *OUTPUTS[:5], *(f"{o}_se" for o in OUTPUTS[:5]), "equity", "equity_se", "cubeful_equity",
               "cubeful_equity_se", "mwc", "mwc_se", "mwc_cubeful", "mwc_cubeful_se")


def read_id_file(path: str) -> list[tuple[int, str]]:
    """(line number, ID) from a file of IDs, one a line (blank and ``#`` lines skipped), or
    a CSV file with an ``id`` column (e.g. from ``bgtools export``)."""
    import csv
    import io
    import sys

    text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8-sig").read()
    lines = text.splitlines()
    first = next((ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")), "")
    header = [h.strip().lower() for h in next(csv.reader([first]))] if "," in first else []
    if "id" in header:
        start = lines.index(first)
        reader = csv.reader(io.StringIO("\n".join(lines[start:])))
        col = header.index("id")
        out = []
        for i, row in enumerate(reader):
            if i == 0 or not row or not any(c.strip() for c in row):
                continue
            if col >= len(row):
                raise RolloutError(f"{path}: CSV row {i + 1} has no id field")
            out.append((start + i + 1, row[col].strip()))
        return out
    return [(n, ln.strip()) for n, ln in enumerate(lines, start=1) if ln.strip() and not ln.lstrip().startswith("#")]


def _flat(label: str, rec: dict) -> dict:
    """A record as CSV strings (the column set is fixed)."""
    row = {c: "" for c in CSV_COLUMNS}
    row["id"] = label
    for k, v in rec.items():
        if k == "probs":
            for name, x in zip(OUTPUTS[:5], v):
                row[name] = csv_cell(x)
        elif k == "probs_se":
            for name, x in zip(OUTPUTS[:5], v):
                row[f"{name}_se"] = csv_cell(x)
        elif k in row:
            row[k] = v if isinstance(v, str) else (csv_cell(v) if isinstance(v, float) else json_scalar(v))
    return row


def json_scalar(v) -> str:
    """JSON text of a value; a standard error of one trial (NaN) is null, never ``NaN``."""
    return jsonout.dumps(v)


class OutputFile:
    """Append-only results file (JSON lines, or CSV when the name ends in ``.csv``): one
    complete record per position, flushed and synced as it is written.  ``resume`` keeps
    what is there (dropping a torn last line) and reports which records it holds."""

    def __init__(self, path: str, resume: bool) -> None:
        import csv

        self.path = path
        self.csv = path.lower().endswith(".csv")
        self.done: list[tuple] = []
        if resume and os.path.exists(path):
            with open(path, "rb+") as f:
                data = f.read()
                keep = data.rfind(b"\n") + 1
                if keep < len(data):
                    f.truncate(keep)  # a record cut short by a crash
                    data = data[:keep]
            text = data.decode("utf-8")
            if self.csv:
                rows = list(csv.DictReader(text.splitlines()))
                if text and tuple(text.splitlines()[0].split(",")) != CSV_COLUMNS:
                    raise RolloutError(f"{path}: not a bgtools rollout CSV (different columns)")
                self.done = [self._key_csv(r) for r in rows]
            else:
                import json

                for n, line in enumerate(text.splitlines(), start=1):
                    try:
                        rec = json.loads(line)
                    except ValueError:
                        raise RolloutError(f"{path}: line {n} is not JSON") from None
                    self.done.append(self._key_json(rec))
            self.f = open(path, "a", encoding="utf-8", newline="")
        else:
            self.f = open(path, "w", encoding="utf-8", newline="")
        if self.csv and self.f.tell() == 0:
            self._write(",".join(CSV_COLUMNS) + "\n")

    @staticmethod
    def _key_json(rec: dict) -> tuple:
        return tuple(json_scalar(rec.get(k)) for k in ("id", *RolloutSettings().key(), "evaluator"))

    @staticmethod
    def _key_csv(row: dict) -> tuple:
        return tuple(row.get(k, "") if k == "id" else row.get(k, "") for k in ("id", *RolloutSettings().key(), "evaluator"))

    def key(self, label: str, settings: RolloutSettings, evaluator: str) -> tuple:
        rec = {"id": label, **settings.key(), "evaluator": evaluator}
        if self.csv:
            return self._key_csv(_flat(label, rec))
        return self._key_json(rec)

    def _write(self, text: str) -> None:
        self.f.write(text)
        self.f.flush()
        os.fsync(self.f.fileno())

    def write(self, label: str, rec: dict) -> None:
        import csv
        import io

        if self.csv:
            buf = io.StringIO()
            csv.DictWriter(buf, CSV_COLUMNS, lineterminator="\n").writerow(_flat(label, rec))
            self._write(buf.getvalue())
        else:
            self._write(json_scalar({"id": label, **rec}) + "\n")

    def close(self) -> None:
        self.f.close()
