"""Issue 37 (far races): the shipped analysis net's picks on the judge sets at one ply, with the bgtools of a given
checkout (a git worktree of the commit before, or this one), as ``benchmarks/judge.py`` picks them (``--prune shipped``
at 2 ply).  gnubg's 2-ply values only measure.

    python runs/far20/judge_picks.py CHECKOUT PLY OUT.json SET ...
"""
import json
import sys

sys.path.insert(0, sys.argv[1])
sys.path.insert(1, sys.argv[1] + "/benchmarks")
import bgtools  # noqa: E402

print(bgtools.__file__, file=sys.stderr)
from judge import load_records, our_picks  # noqa: E402

from bgtools.engine.nets.networks import load_weights  # noqa: E402
from bgtools.engine.nets.nn import NeuralEvaluator  # noqa: E402
from bgtools.engine.nets.prune import load_default_pruning  # noqa: E402

ply = int(sys.argv[2])
out = {}
for s in sys.argv[4:]:
    ev = NeuralEvaluator(load_weights(None), prune=load_default_pruning() if ply == 2 else None)
    out[s] = our_picks(load_records(s), ev, ply)
with open(sys.argv[3], "w") as f:
    json.dump(out, f)
