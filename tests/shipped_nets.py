"""The shipped nets' files, for tests that must not move when another analysis net is shipped."""

from importlib import resources

from bgtools.engine.nets.nn import SHIPPED_WEIGHTS

#: the rollout net's file: it changes only with the rollouts, so data played by it stay the same when a new
#: analysis net is shipped
ROLLOUT_NET = str(resources.files("bgtools") / "data" / SHIPPED_WEIGHTS["rollout"])
