"""Issue 37 (bear-ins): the shipped analysis net's picks on the judge sets at one ply, with bear-ins valued by the
mover's next two rolls (``on``) or by the net (``off``, as before), as ``benchmarks/judge.py`` picks them
(``--prune shipped`` at 2 ply).  gnubg's 2-ply values only measure.

    python runs/bearin18/judge_picks.py on|off PLY OUT.json SET ...
"""
import functools
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bgtools.engine.evaluation as evaluation  # noqa: E402
from judge import load_records, our_picks  # noqa: E402

from bgtools.engine.nets.networks import load_weights  # noqa: E402
from bgtools.engine.nets.nn import NeuralEvaluator  # noqa: E402
from bgtools.engine.nets.prune import load_default_pruning  # noqa: E402

if sys.argv[1] == "off":  # our_picks takes evaluate_plays from the module when it runs
    evaluation.evaluate_plays = functools.partial(evaluation.evaluate_plays, bear_ins=False)
ply = int(sys.argv[2])
out = {}
for s in sys.argv[4:]:
    ev = NeuralEvaluator(load_weights(None), prune=load_default_pruning() if ply == 2 else None)
    out[s] = our_picks(load_records(s), ev, ply)
with open(sys.argv[3], "w") as f:
    json.dump(out, f)
