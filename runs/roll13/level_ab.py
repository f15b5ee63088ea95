"""The rollout tier's CPU time with each rollout net, one after the other in one process (the same analysis net).

From the repository root: ``PYTHONPATH=. python runs/roll13/level_ab.py`` (samples/selfplay-7pt.mat at --level rollout,
no cache; gen8 from runs/gen8/plain/fit.npz, then the shipped rollout net).
"""
from __future__ import annotations

import time

from bgtools.analysis import AnalysisSettings
from bgtools.analysis.levels import analyse_level
from bgtools.engine.evaluation import default_evaluator
from bgtools.engine.nets.nn import NeuralEvaluator, Weights
from bgtools.formats import read_match

m = read_match("samples/selfplay-7pt.mat")
shipped = default_evaluator()
assert isinstance(shipped, NeuralEvaluator)
for name, rw in (("gen8", Weights.load("runs/gen8/plain/fit.npz")), ("roll13", shipped.rollout_weights)):
    ev = NeuralEvaluator(shipped.weights, shipped.name, shipped.version, prune=shipped.prune, rollout_weights=rw)
    t = time.process_time()
    a = analyse_level(m, AnalysisSettings(level="rollout"), ev, cache=None, label="7pt")
    print(f"{name}: {time.process_time() - t:.1f} CPU s; level {a.level}", flush=True)
