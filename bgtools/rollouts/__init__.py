"""Rollouts: settings and results, the game kernel, executors, batch files.

The names the CLI and scripts use, re-exported from the modules that define them.
"""

from bgtools.rollouts.batch import OutputFile, read_ids
from bgtools.rollouts.dice import roll_dice
from bgtools.rollouts.executors import run_chunk, run_chunks, warm_up
from bgtools.rollouts.rollout import rollout, rollout_many
from bgtools.rollouts.settings import CHUNK, OUTPUTS, Job, Partial, RolloutError, RolloutResult, RolloutSettings

__all__ = ["Job", "OutputFile", "RolloutError", "RolloutSettings", "RolloutResult", "Partial", "read_ids",
           "rollout", "rollout_many", "roll_dice", "run_chunk", "run_chunks", "warm_up", "CHUNK", "OUTPUTS"]
