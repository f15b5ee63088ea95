"""Export: match files as tidy tables (pandas, CSV, JSON lines, Parquet), a row per action,
game or match.  :mod:`~bgtools.export.table` builds the rows and columns,
:mod:`~bgtools.export.writer` writes many files to one table.
"""

from bgtools.export.table import (ACTIONS, COLUMNS, FORMATS, GAME_COLUMNS, LEVELS, MATCH_COLUMNS, MOVE_COLUMNS,
                                  Column, columns_for, read_csv, to_dataframe)
from bgtools.export.writer import ExportReport, FileProblem, export_files, output_format, write_dataframe

__all__ = [
    "ACTIONS", "COLUMNS", "FORMATS", "GAME_COLUMNS", "LEVELS", "MATCH_COLUMNS", "MOVE_COLUMNS", "Column",
    "columns_for", "read_csv", "to_dataframe", "ExportReport", "FileProblem", "export_files", "output_format",
    "write_dataframe",
]
