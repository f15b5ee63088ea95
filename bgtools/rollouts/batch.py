"""Batch rollouts on disk: files of position IDs in, results files out.

:func:`read_id_file` reads IDs one a line or from a CSV ``id`` column; :class:`OutputFile`
appends one complete record per position (JSON lines or CSV) through
:class:`bgtools.base.fileio.AppendOutput` and, resuming, tells which records are there already.
"""

from __future__ import annotations

from bgtools.base import jsonout
from bgtools.base.fileio import AppendOutput
from bgtools.base.jsonout import csv_cell
from bgtools.rollouts.settings import OUTPUTS, RolloutError, RolloutSettings

__all__ = ["read_id_file", "OutputFile", "CSV_COLUMNS", "CUBE_CSV_COLUMNS", "KEY_FIELDS", "json_scalar"]

#: what a record's settings are (``--resume`` re-uses a record only when all of these agree)
KEY_FIELDS = ("trials", "seed", "ply", "cubeful", "truncate", "vr", "bearoff_truncation", "jacoby", "beavers",
              "pruning", "met", "evaluator")
CSV_COLUMNS = ("id", *KEY_FIELDS, *OUTPUTS[:5], *(f"{o}_se" for o in OUTPUTS[:5]), "equity", "equity_se",
               "cubeful_equity", "cubeful_equity_se", "mwc", "mwc_se", "mwc_cubeful", "mwc_cubeful_se")
#: the columns of ``rollout --cube-decision --output F.csv``
CUBE_CSV_COLUMNS = ("id", *KEY_FIELDS, "action", "no_double", "no_double_se", "double_take", "double_take_se",
                    "double_pass", "mwc_no_double", "mwc_double_take", "mwc_double_pass")


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


def _flat(label: str, rec: dict, columns: tuple) -> dict:
    """A record as CSV strings (the column set is fixed)."""
    row = {c: "" for c in columns}
    row["id"] = label
    for k, v in rec.items():
        if k in ("probs", "probs_se"):
            for name, x in zip(OUTPUTS[:5], v):
                row[name if k == "probs" else f"{name}_se"] = csv_cell(x)
        elif isinstance(v, dict):
            for sub, x in v.items():
                if f"{k}_{sub}" in row:
                    row[f"{k}_{sub}"] = csv_cell(x)
        elif k in row and k != "id":
            # the settings as JSON scalars (as earlier versions wrote them), results as cells
            row[k] = json_scalar(v) if k in KEY_FIELDS and not isinstance(v, str) else csv_cell(v)
    return row


def json_scalar(v) -> str:
    """JSON text of a value; a standard error of one trial (NaN) is null, never ``NaN``."""
    return jsonout.dumps(v)


class OutputFile:
    """Append-only results file (JSON lines, or CSV when the name ends in ``.csv``): one
    complete record per position, kept as it is written (see
    :class:`~bgtools.base.fileio.AppendOutput`: ``-`` is standard output, devices and pipes
    are written directly, a new or replaced file appears with its first record).  ``resume``
    keeps what is there (dropping a torn last line) and reports which records it holds
    (:attr:`done`).  ``cube``: records of cube decisions (``rollout --cube-decision``)."""

    def __init__(self, path: str, resume: bool, cube: bool = False) -> None:
        import csv

        self.path = path
        self.csv = path.lower().endswith(".csv")
        self.cube = cube
        self.columns = CUBE_CSV_COLUMNS if cube else CSV_COLUMNS
        self.done: list[tuple] = []
        self.out = AppendOutput(path, resume=resume, header=",".join(self.columns) + "\n" if self.csv else "")
        text = self.out.existing
        try:
            if self.csv and text:
                lines = text.splitlines()
                if tuple(lines[0].split(",")) != self.columns:
                    what = "cube decision" if cube else "rollout"
                    raise RolloutError(f"{path}: not a bgtools {what} CSV of this version (other columns); "
                                       "--force overwrites it")
                self.done = [self._key_csv(r) for r in csv.DictReader(lines)]
            elif text:
                import json

                for n, line in enumerate(text.splitlines(), start=1):
                    try:
                        rec = json.loads(line)
                    except ValueError:
                        raise RolloutError(f"{path}: line {n} is not JSON") from None
                    if not isinstance(rec, dict):
                        raise RolloutError(f"{path}: line {n} is not a rollout record")
                    self.done.append(self._key_json(rec))
        except BaseException:
            self.out.abort()
            raise

    @staticmethod
    def _key_json(rec: dict) -> tuple:
        return (*(json_scalar(rec.get(k)) for k in ("id", *KEY_FIELDS)), bool(rec.get("cube_decision", False)))

    def _key_csv(self, row: dict) -> tuple:
        return (*(row.get(k, "") for k in ("id", *KEY_FIELDS)), self.cube)

    def key(self, label: str, settings: RolloutSettings, evaluator: str) -> tuple:
        rec = {"id": label, **settings.key(), "evaluator": evaluator}
        if self.csv:
            return self._key_csv(_flat(label, rec, self.columns))
        return self._key_json({**rec, "cube_decision": self.cube})

    def write(self, label: str, rec: dict) -> None:
        """Add the record of ``label`` (settings and results, as :meth:`RolloutResult.record` gives)."""
        import csv
        import io

        if self.csv:
            buf = io.StringIO()
            csv.DictWriter(buf, self.columns, lineterminator="\n").writerow(_flat(label, rec, self.columns))
            self.out.write(buf.getvalue())
        else:
            self.out.write(json_scalar({"id": label, **rec}) + "\n")

    def close(self) -> None:
        self.out.close()

    def abort(self) -> None:
        """Stop after an error (a new file without records is not left behind)."""
        self.out.abort()


def record_of(result, settings: RolloutSettings, evaluator: str) -> dict:
    """The record of a cube decision by rollout (:class:`~bgtools.rollouts.cuberollout.CubeRollout`):
    its settings, ``"cube_decision": true`` and its values."""
    return {**settings.key(), "evaluator": evaluator, "cube_decision": True, **result.to_dict()}

