"""File formats: one module per format, and :mod:`bgtools.formats.read` to find and read them.

Each reader turns a file into the model of :mod:`bgtools.model` and imports it; the model
never imports a reader.
"""

from bgtools.formats.read import MATCH_SUFFIXES, detect_format, expand_paths, iter_games, read_match, read_matches

__all__ = ["MATCH_SUFFIXES", "detect_format", "expand_paths", "iter_games", "read_match", "read_matches"]
