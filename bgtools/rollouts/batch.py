"""Batch rollouts as ``bgtools rollout`` runs them: files of position IDs in, results files
out; skip what an output file already holds (``--resume``), roll out the rest, write one
record per position as soon as it is done.

:func:`read_ids` reads IDs one a line or from a CSV ``id`` (or the export's
``position_id``) column, :class:`Batch` makes them jobs, :class:`BatchRun` rolls them out;
:class:`OutputFile` appends one complete record per position (JSON lines or CSV) through
:class:`bgtools.base.fileio.AppendOutput` and, resuming, tells which records are there
already.  :func:`read_ids` is the one reader of a file of IDs.

>>> import tempfile, os
>>> f = os.path.join(tempfile.mkdtemp(), "ids.csv")
>>> _ = open(f, "w").write("game,position_id\\n1,4HPwATDgc/ABMA\\n")
>>> read_ids(f)
[IdLine(line=2, id='4HPwATDgc/ABMA')]
"""

from __future__ import annotations

import csv
import io
import os
import sys
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator, NamedTuple, Optional, Sequence

from bgtools.base import jsonout
from bgtools.base.fileio import AppendOutput, check_output
from bgtools.base.jsonout import csv_cell
from bgtools.engine.cubeful.met import MatchEquityTable
from bgtools.rollouts.rollout import rollout_many
from bgtools.rollouts.settings import OUTPUTS, Job, RolloutError, RolloutSettings

__all__ = ["read_ids", "IdLine", "BatchItem", "json_records", "OutputFile", "Batch", "BatchRun", "CSV_COLUMNS",
           "CUBE_CSV_COLUMNS",
           "KEY_FIELDS", "ID_COLUMNS", "json_scalar", "record_of"]

#: what a record's settings are (``--resume`` re-uses a record only when all of these agree)
KEY_FIELDS = ("trials", "seed", "ply", "cubeful", "truncate", "vr", "bearoff_truncation", "jacoby", "beavers",
              "pruning", "met", "evaluator")
CSV_COLUMNS = ("id", *KEY_FIELDS, *OUTPUTS[:5], *(f"{o}_se" for o in OUTPUTS[:5]), "equity", "equity_se",
               "cubeful_equity", "cubeful_equity_se", "mwc", "mwc_se", "mwc_cubeful", "mwc_cubeful_se")
#: the columns of ``rollout --cube-decision --output F.csv``
CUBE_CSV_COLUMNS = ("id", *KEY_FIELDS, "action", "no_double", "no_double_se", "double_take", "double_take_se",
                    "double_pass", "mwc_no_double", "mwc_double_take", "mwc_double_pass")


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
                self.done = [self._key_json(rec) for _, rec in json_records(text, path)]
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


def json_records(text: str, source: str) -> list[tuple[int, dict]]:
    """(line number, record) of the JSON-lines rollout records in ``text`` (blank lines skipped)."""
    import json

    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            raise RolloutError(f"{source}: line {n} is not JSON") from None
        if not isinstance(rec, dict):
            raise RolloutError(f"{source}: line {n} is not a rollout record")
        out.append((n, rec))
    return out


def record_of(result, settings: RolloutSettings, evaluator: str) -> dict:
    """The record of a cube decision by rollout (:class:`~bgtools.rollouts.cuberollout.CubeRollout`):
    its settings, ``"cube_decision": true`` and its values."""
    return {**settings.key(), "evaluator": evaluator, "cube_decision": True, **result.to_dict()}


#: CSV columns that hold the IDs to roll out, in order of preference (``position_id``: the export's)
ID_COLUMNS = ("id", "position_id")


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    if not os.path.exists(path):
        raise RolloutError(f"{path}: no such file")
    if os.path.isdir(path):
        raise RolloutError(f"{path}: is a folder, not a file of IDs")
    try:
        with open(path, encoding="utf-8-sig") as f:
            return f.read()
    except UnicodeDecodeError:
        raise RolloutError(f"{path}: not a text file of IDs (not UTF-8)") from None
    except OSError as e:
        raise RolloutError(f"{path}: cannot read: {e.strerror or e}") from None


class IdLine(NamedTuple):
    """An ID read from a file and the line it is on."""

    line: int
    id: str


class BatchItem(NamedTuple):
    """One position of a batch done: its label (the ID as given), the result (a
    :class:`~bgtools.rollouts.settings.RolloutResult` or a
    :class:`~bgtools.rollouts.cuberollout.CubeRollout`) and the record written for it."""

    label: str
    result: Any
    record: dict


def read_ids(path: str) -> list[IdLine]:
    """(line number, ID) from a file of IDs, one a line (blank and ``#`` lines skipped), or a
    CSV file whose header has an ``id`` or ``position_id`` column (e.g. ``bgtools export``);
    empty ID cells (games the export could not replay) are skipped."""
    text = _read_text(path)
    lines = text.splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("#")), None)
    if start is None:
        return []
    header = [h.strip().lower() for h in next(csv.reader([lines[start]]))] if "," in lines[start] else []
    col = next((header.index(c) for c in ID_COLUMNS if c in header), None)
    if col is None:
        if header and len(header) > 1 and not any(h.upper().startswith("XGID=") for h in header):
            raise RolloutError(f"{path}: line {start + 1}: a CSV header needs an 'id' or 'position_id' column")
        return [IdLine(n, ln.strip()) for n, ln in enumerate(lines, start=1)
                if ln.strip() and not ln.lstrip().startswith("#")]
    reader = csv.reader(io.StringIO("\n".join(lines[start:])))
    next(reader)
    out = []
    for row in reader:
        lineno = start + reader.line_num
        if not row or not any(c.strip() for c in row):
            continue
        if col >= len(row):
            raise RolloutError(f"{path}: line {lineno}: no {header[col]} field")
        if row[col].strip():
            out.append(IdLine(lineno, row[col].strip()))
    return out


@dataclass
class Batch:
    """The positions of one ``rollout`` command: labels (the IDs as given) and their jobs.

    ``rolled``: the labels whose ID has dice rolled (a rollout starts before the roll, so
    those dice are not used)."""

    labels: list[str]
    jobs: list[Job]
    rolled: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, ids: Sequence[str] = (), input: Optional[str] = None, jacoby: Optional[bool] = None,
             beavers: Optional[bool] = None, met: Optional[MatchEquityTable] = None) -> "Batch":
        """Read ``input`` (a file, '-' = stdin; see :func:`read_ids`) then ``ids``; a bad ID
        raises :class:`RolloutError` naming its line.  ``jacoby``/``beavers``: the money rules,
        ``met`` the match equity table (see :meth:`~bgtools.rollouts.settings.Job.make`)."""
        from bgtools.core.matchstate import parse_any_id

        items: list[tuple[str, str]] = []
        if input is not None:
            items += [(f"line {n}: ", t) for n, t in read_ids(input)]
        items += [("", t) for t in ids]
        labels, jobs, rolled = [], [], []
        for where, text in items:
            try:
                pos, ms = parse_any_id(text)
                jobs.append(Job.make(pos, ms, jacoby, beavers, met))
            except ValueError as e:
                raise RolloutError(f"{where}{text}: {e}") from None
            labels.append(text)
            if ms is not None and tuple(ms.dice) != (0, 0):
                rolled.append(text)
        return cls(labels, jobs, rolled)


def _pending(labels: list[str], out: OutputFile, settings: RolloutSettings, evaluator: str) -> list[int]:
    """Indexes of the labels ``out`` does not hold yet (each record there counts once)."""
    have: dict = {}
    for k in out.done:
        have[k] = have.get(k, 0) + 1
    todo = []
    for i, lab in enumerate(labels):
        k = out.key(lab, settings, evaluator)
        if have.get(k, 0) > 0:
            have[k] -= 1
        else:
            todo.append(i)
    return todo


class BatchRun:
    """One run of a batch: opens ``output`` (refusing a non-empty file unless ``resume``
    appends to it or ``force`` overwrites it), works out what is left (``todo``), and
    :meth:`run` rolls that out, writing each record as soon as its position is done.
    ``cube``: the cube decision of each position (``rollout --cube-decision``: both cube
    branches, cubeful) instead of a plain rollout, ``stop`` its stopping rule (until_se,
    stop_sigma: :func:`~bgtools.rollouts.paired.stop_rule`)."""

    def __init__(self, batch: Batch, settings: RolloutSettings, weights, evaluator: str,
                 output: Optional[str] = None, resume: bool = False, force: bool = False,
                 cube: bool = False, stop: tuple[Optional[float], Optional[float]] = (None, None)) -> None:
        if resume and output is None:
            raise RolloutError("--resume needs --output")
        if resume and force:
            raise RolloutError("--resume and --force do not go together")
        if resume and output == "-":
            raise RolloutError("--resume needs a file, not - (standard output)")
        self.batch, self.weights, self.evaluator, self.cube, self.stop = batch, weights, evaluator, cube, stop
        self.settings = replace(settings, cubeful=True) if cube else settings
        self.out: Optional[OutputFile] = None
        if output is not None:
            kind, target = check_output(output)
            if (kind == "atomic" and not resume and not force and os.path.exists(target)
                    and os.path.getsize(target) > 0):
                raise RolloutError(f"{output}: exists and is not empty; --resume adds to it, --force overwrites it")
            self.out = OutputFile(output, resume, cube)
        self.todo = list(range(len(batch.jobs)))
        if self.out is not None and self.out.done:
            self.todo = _pending(batch.labels, self.out, self.settings, evaluator)

    def run(self, jobs: int = 1, dask=None,
            on_chunk: Optional[Callable[[int, int], None]] = None) -> Iterator[BatchItem]:
        """A :class:`BatchItem` for each position still to do, in input order: the result
        a :class:`~bgtools.rollouts.settings.RolloutResult`, or with ``cube`` a
        :class:`~bgtools.rollouts.cuberollout.CubeRollout`.  On an error the output keeps
        the records written so far (a new file without any is not left behind)."""
        ok = False
        try:
            for item in self._results(jobs, dask, on_chunk):
                if self.out is not None:
                    self.out.write(item.label, item.record)
                yield item
            ok = True
        finally:
            if ok:
                self.close()
            else:
                self.abort()

    def _results(self, jobs: int, dask, on_chunk) -> Iterator[BatchItem]:
        labels = [self.batch.labels[i] for i in self.todo]
        positions = [self.batch.jobs[i] for i in self.todo]
        if self.cube:
            from bgtools.rollouts.cuberollout import cube_rollout_job

            for label, job in zip(labels, positions):
                cube = cube_rollout_job(job, self.settings, self.weights, jobs, dask, None, *self.stop)
                yield BatchItem(label, cube, record_of(cube, self.settings, self.evaluator))
            return
        results = rollout_many(positions, self.settings, self.weights, jobs=jobs, dask=dask, on_chunk=on_chunk)
        for label, res in zip(labels, results):
            yield BatchItem(label, res, res.record(self.evaluator))

    def close(self) -> None:
        if self.out is not None:
            out, self.out = self.out, None
            out.close()

    def abort(self) -> None:
        if self.out is not None:
            out, self.out = self.out, None
            out.abort()
