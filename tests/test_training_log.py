"""The stages' CSV logs keep every row under its column names, also across versions."""

import csv

from bgtools.training.datasets import append_log


def _rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_append_log_writes_the_header_with_the_first_row(tmp_path):
    p = tmp_path / "fit.log.csv"
    append_log(p, {"epoch": 0, "val_loss": 0.5})
    append_log(p, {"epoch": 1, "val_loss": 0.25})
    assert _rows(p) == [{"epoch": "0", "val_loss": "0.5"}, {"epoch": "1", "val_loss": "0.25"}]


def test_a_row_with_new_columns_widens_the_header_of_an_older_log(tmp_path):
    """A fit resumed by a version that logs more columns (the held-out error per net): the
    header gains them and the older rows keep theirs, the new cells empty."""
    p = tmp_path / "fit.log.csv"
    append_log(p, {"epoch": 0, "val_loss": 0.5})
    append_log(p, {"epoch": 1, "val_loss": 0.25, "val_mae_race": 0.02})
    append_log(p, {"epoch": 2, "val_loss": 0.125})  # a row without a column leaves it empty
    with open(p, newline="", encoding="utf-8") as f:
        header = next(csv.reader(f))
    assert header == ["epoch", "val_loss", "val_mae_race"]
    assert _rows(p) == [{"epoch": "0", "val_loss": "0.5", "val_mae_race": ""},
                        {"epoch": "1", "val_loss": "0.25", "val_mae_race": "0.02"},
                        {"epoch": "2", "val_loss": "0.125", "val_mae_race": ""}]
    assert b"\r\n" in p.read_bytes() and b"\r\r" not in p.read_bytes()  # one kind of line end throughout
    assert not [q for q in tmp_path.iterdir() if q.name != p.name]  # no temporary left
