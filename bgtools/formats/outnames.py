"""Output names for commands that write one or more files per match file (``convert``,
``annotate --out-dir``): one naming rule and one policy for names that clash.

The rule: an output is named after its input with the input's match suffix (and ``.gz``)
replaced by the output's suffix, in the output folder; inputs found under a folder keep
their place below it (``in/2024/a.mat`` -> ``out/2024/a.json``).  Where two inputs would
get one name (``a.mat`` and ``a.sgf`` -> ``a.json``), each keeps its own suffix in the name
(``a.mat.json``, ``a.sgf.json``); inputs that still clash (the same file name from two
folders written into one flat folder) get ``-2``, ``-3``, ... in the order given.  Nothing is
ever written twice to one name.

>>> output_stem("games/a.MAT.gz"), output_stem(".mat")
('a', '.mat')
>>> plan = plan_outputs(["x/a.mat", "x/a.sgf", "y/b.xg"], "out", [".json"])
>>> [p.outputs for p in plan.pairs]
[('out/a.mat.json',), ('out/a.sgf.json',), ('out/b.json',)]
>>> [p.outputs for p in plan_outputs(["x/a.mat", "y/a.mat"], "out", [".json"]).pairs]
[('out/a.json',), ('out/a-2.json',)]
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import NamedTuple, Optional, Sequence

from bgtools.formats.read import MATCH_SUFFIXES

__all__ = ["NamedOutputs", "OutputPlan", "output_stem", "plan_outputs"]


def output_stem(path: str) -> str:
    """The input's file name without ``.gz`` and its match suffix (the whole name where
    nothing would be left)."""
    name = os.path.basename(path)
    for ext in (".gz", *MATCH_SUFFIXES):
        if name.lower().endswith(ext) and len(name) > len(ext):
            name = name[: -len(ext)]
    return name


class NamedOutputs(NamedTuple):
    """One input and its outputs, one per suffix asked for, in that order."""

    source: str
    outputs: tuple[str, ...]


@dataclass
class OutputPlan:
    """The outputs of every input, in input order; ``renamed``: the inputs whose plain name
    clashed with another's, with the first output each got instead."""

    pairs: list[NamedOutputs]
    renamed: list[tuple[str, str]] = field(default_factory=list)


def _place(source: str, root: Optional[str]) -> str:
    """The folder below the output folder where ``source``'s outputs go ('' = the top)."""
    if root is None or source == "-":
        return ""
    rel = os.path.relpath(os.path.dirname(os.path.abspath(source)), os.path.abspath(root))
    return "" if rel == "." or rel.startswith("..") else rel


def plan_outputs(sources: Sequence[str], outdir: str, suffixes: Sequence[str],
                 root: Optional[str] = None) -> OutputPlan:
    """Name the outputs of ``sources`` in ``outdir`` (see the module's rule).  ``root``: the
    folder the inputs were found under, whose sub-folders are kept in ``outdir``; without it
    every output goes straight into ``outdir``."""
    where = [_place(s, root) for s in sources]
    plain = [os.path.join(w, output_stem(s)) for s, w in zip(sources, where)]
    counts: dict[str, int] = {}
    for p in plain:
        counts[p] = counts.get(p, 0) + 1
    full = [os.path.join(w, os.path.basename(s)) for s, w in zip(sources, where)]
    n_full: dict[str, int] = {}
    for f in full:
        n_full[f] = n_full.get(f, 0) + 1
    # a clash is resolved by the input's own suffix where that tells the inputs apart
    stems = [p if counts[p] == 1 or n_full[f] > 1 else f for p, f in zip(plain, full)]
    taken: dict[str, int] = {}
    pairs: list[NamedOutputs] = []
    renamed: list[tuple[str, str]] = []
    for s, p, stem in zip(sources, plain, stems):
        n = taken.get(stem, 0) + 1
        taken[stem] = n
        final = stem if n == 1 else f"{stem}-{n}"
        outs = tuple(os.path.join(outdir, final + suf) for suf in suffixes)
        pairs.append(NamedOutputs(s, outs))
        if final != p:
            renamed.append((s, outs[0] if outs else final))
    return OutputPlan(pairs, renamed)
