"""Settling a decision by rollout: candidate plays on the same dice, the standard error of
each difference, stopping rules, and extending a stored record byte for byte."""

from __future__ import annotations

import json
import math
import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bgtools.base import jsonout
from bgtools.core.position import Position
from bgtools.rollouts import Job, RolloutSettings, rollout_many, run_chunk
from bgtools.rollouts.candidates import KIND, extend_record, settle_id
from bgtools.rollouts.paired import run_paired

DATA = Path(__file__).parent / "data"
#: judge_dev positions (../shared/oracle) where gnubg's 2-ply best play leads the second by
#: more than 0.1 (money, cubeless); every legal play with its 2-ply equity, best first
ORACLE = [json.loads(line) for line in (DATA / "candidates_oracle.jsonl").read_text().splitlines()]
OPENING = "4HPwATDgc/ABMA"
FAST = RolloutSettings(trials=144, seed=7, truncate=6, variance_reduction=True)


@pytest.mark.parametrize("row", ORACLE, ids=lambda r: f"{r['idx']}-{r['judge_category']}")
def test_the_rollout_ranks_gnubgs_clear_best_play_first(row):
    r = settle_id(row["position_id"], (int(row["dice"][0]), int(row["dice"][1])), None,
                  RolloutSettings(trials=288, seed=1))
    assert set(r.options.ids) == {p["position_id"] for p in row["plays"]}  # every play, as gnubg lists them
    assert r.options.ids[r.best] == row["plays"][0]["position_id"], (r.options.labels, r.values())


def test_each_option_sums_as_its_plain_rollout_bit_for_bit():
    pos = Position.from_id(OPENING)
    jobs = [Job.make(pos), Job.make(Position.from_id(ORACLE[0]["position_id"]))]
    s = replace(FAST, trials=150)
    full, total = run_paired(jobs, s, 5, np.array([1.0, 1.0]))
    plain = list(rollout_many(jobs, s))
    for j in range(2):
        part = total.partial(j)
        assert part.n == 150 and plain[j].probs == tuple(float(v) for v in part.mean()[:5])
        assert plain[j].equity == float(part.mean()[5]) and plain[j].equity_se == float(part.se()[5])
    assert full.n == 144


def test_the_standard_error_of_a_difference_comes_from_the_per_trial_differences():
    r = settle_id(OPENING, (3, 1), 3, replace(FAST, trials=40))
    # each trial of each play by itself (a chunk of one trial is that trial's values)
    vals = np.array([[-run_chunk(job, r.settings, t, 1).sums[5] for t in range(40)] for job in r.options.jobs])
    best = r.best
    for j in range(3):
        d = vals[j] - vals[best]
        assert math.isclose(r.values()[j], vals[j].mean(), rel_tol=0, abs_tol=1e-12)
        assert math.isclose(r.diff_ses()[j], d.std(ddof=1) / math.sqrt(40), rel_tol=1e-9, abs_tol=1e-15)
    # common dice: the games after two plays go much the same way for the first turns, so
    # their difference is known better than the two standard errors together would say
    # (here 0.0134 against 0.0181; in full games the dice matter less and the gain is a few %)
    short = settle_id(OPENING, (3, 1), 2, RolloutSettings(trials=432, seed=2, truncate=4))
    j = short.ranking()[1]
    assert short.diff_ses()[j] < 0.85 * math.hypot(short.ses()[j], short.ses()[short.best])


def test_extend_gives_the_record_of_one_longer_rollout_byte_for_byte():
    s = replace(FAST, trials=200)  # not a whole number of chunks: the last one is played again
    short = settle_id(OPENING, (4, 2), 3, s).record("ev")
    assert short["kind"] == KIND and short["trials"] == 200 and short["sums"]["n"] == 144
    longer = extend_record(json.loads(jsonout.dumps(short)), 250, "ev")
    once = settle_id(OPENING, (4, 2), 3, replace(s, trials=450)).record("ev")
    assert jsonout.dumps(longer) == jsonout.dumps(once)
    twice = extend_record(json.loads(jsonout.dumps(extend_record(short, 100, "ev"))), 150, "ev")
    assert jsonout.dumps(twice) == jsonout.dumps(once)
    with pytest.raises(Exception, match="evaluator"):
        extend_record(short, 10, "another net")


def test_the_record_names_what_chose_the_candidates_and_keeps_it_when_extended():
    """The candidates are the best plays by the ranking evaluator (the shipped analysis net, with
    its pruning net, at the rollout's ply), which is not the net that rolls them out."""
    from bgtools.engine.evaluation import default_evaluator, evaluator_setting

    s = replace(FAST, trials=72)
    rec = json.loads(jsonout.dumps(settle_id(OPENING, (4, 2), 3, s).record("ev")))
    assert rec["ranked_by"] == {"evaluator": evaluator_setting(default_evaluator()), "ply": s.ply}
    assert default_evaluator().version in rec["ranked_by"]["evaluator"]
    assert extend_record(rec, 72, "ev")["ranked_by"] == rec["ranked_by"]
    with pytest.raises(Exception, match="ranked_by"):
        extend_record({**rec, "ranked_by": "gen9w"}, 72, "ev")


def test_stop_sigma_stops_early_on_a_clear_play_and_not_on_a_close_one():
    s = RolloutSettings(trials=144 * 8, seed=3, truncate=10, variance_reduction=True)
    clear = next(r for r in ORACLE if r["idx"] == 210)  # gnubg: the best leads by 0.84
    r = settle_id(clear["position_id"], (5, 4), None, s, stop_sigma=3.0)
    assert r.trials < s.trials and r.trials % 144 == 0
    assert r.options.ids[r.best] == clear["plays"][0]["position_id"]
    # the opening 31: 8/5 6/5 leads 24/23 13/10 by 0.17, with a standard error of 0.003
    r = settle_id(OPENING, (3, 1), 2, s, stop_sigma=3.0)
    assert r.trials == 144 and r.options.labels[r.best] == "8/5 6/5"
    # the opening 43: 13/10 13/9 and 24/21 13/9 within a thousandth: never 3 sigma apart
    close = settle_id(OPENING, (4, 3), 2, s, stop_sigma=3.0)
    j = close.ranking()[1]
    assert close.trials == s.trials, (close.values(), close.diff_ses())
    assert close.values()[close.best] - close.values()[j] < 3.0 * close.diff_ses()[j]


def test_until_se_stops_at_a_chunk_boundary_below_the_target():
    s = replace(FAST, trials=144 * 6)
    loose = settle_id(OPENING, (6, 5), 2, s, until_se=0.05)
    assert loose.trials < s.trials and loose.trials % 144 == 0 and max(loose.diff_ses()) < 0.05
    # the same stop, the same numbers, whatever the workers
    assert jsonout.dumps(settle_id(OPENING, (6, 5), 2, s, jobs=2, until_se=0.05).record("e")) == \
        jsonout.dumps(loose.record("e"))



def test_one_pool_serves_every_stage_of_a_stopping_rollout(monkeypatch):
    """A rollout asked at each chunk whether to stop runs in stages; they share one executor."""
    from bgtools.rollouts import paired

    made, closed = [], []
    real = paired.make_executor

    def counting(*a, **k):
        ex, window = real(*a, **k)
        made.append(ex)
        orig = ex.close
        ex.close = lambda: (closed.append(ex), orig())[1]
        return ex, window

    monkeypatch.setattr(paired, "make_executor", counting)
    s = replace(FAST, trials=144 * 6)
    r = settle_id(OPENING, (4, 3), 2, s, until_se=1e-9)  # never met: every stage runs
    assert r.trials == s.trials
    assert len(made) == 1 and closed == made

# -- the command -----------------------------------------------------------------------------------------------
def _cli(*args):
    from typer.testing import CliRunner

    from bgtools.cli.app import app

    return CliRunner().invoke(app, ["rollout", *args, "--jobs", "1"])


def test_the_command_prints_each_play_with_its_difference(tmp_path):
    r = _cli(OPENING, "--dice", "31", "--candidates", "3", "--trials", "144", "--truncate", "4", "--vr")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert "3 plays on the same dice, 144 trials each" in lines[0]
    assert "8/5 6/5" in lines[1] and len(lines) == 4 and all("±" in ln for ln in lines[1:])


def test_extend_and_cube_decision_records_through_the_command(tmp_path):
    common = ["--truncate", "4", "--vr", "--seed", "5"]
    f, g = tmp_path / "c.jsonl", tmp_path / "once.jsonl"
    assert _cli(OPENING, "--dice", "42", "--candidates", "2", "-n", "150", "-o", str(f), *common).exit_code == 0
    r = _cli(OPENING, "--dice", "42", "--candidates", "2", "-n", "150", "-o", str(f), *common)
    assert r.exit_code == 2 and "exists" in r.output  # never overwritten without --force
    assert _cli("--extend", "300", "-o", str(f)).exit_code == 0
    assert _cli(OPENING, "--dice", "42", "--candidates", "2", "-n", "450", "-o", str(g), *common).exit_code == 0
    assert f.read_bytes() == g.read_bytes()
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".")]  # no temporary file left
    # the cube decision, extended into another file
    cube = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    c, c2, c3 = tmp_path / "cube.jsonl", tmp_path / "cube2.jsonl", tmp_path / "cube3.jsonl"
    assert _cli(cube, "--cube-decision", "-n", "150", "-o", str(c), *common).exit_code == 0
    assert _cli("--extend", "140", "-i", str(c), "-o", str(c2)).exit_code == 0
    assert _cli(cube, "--cube-decision", "-n", "290", "-o", str(c3), *common).exit_code == 0
    assert c2.read_bytes() == c3.read_bytes() and json.loads(c2.read_text())["trials"] == 290
    # '-' is standard output
    r = _cli("--extend", "144", "-i", str(c), "-o", "-")
    assert r.exit_code == 0 and json.loads(r.stdout)["trials"] == 294


def test_the_command_writes_records_to_stdout_and_refuses_what_does_not_go_together():
    r = _cli(OPENING, "--dice", "31", "--candidates", "2", "-n", "144", "--truncate", "2", "-o", "-")
    assert r.exit_code == 0, r.output
    rec = json.loads(r.stdout)
    assert rec["kind"] == KIND and rec["best"] == "8/5 6/5" and len(rec["plays"]) == 2
    assert rec["plays"][0]["diff"] == 0.0 and rec["plays"][1]["diff_se"] > 0.0
    for args in ([OPENING, "--dice", "31"], [OPENING, "--until-se", "0.01"], [OPENING, "--candidates", "2"],
                 [OPENING, "--dice", "31", "--candidates", "x"], ["--extend", "10"],
                 [OPENING, "--dice", "31", "--candidates", "2", "--stop-sigma", "-1"]):
        r = _cli(*args)
        assert r.exit_code == 2 and "bgtools: error:" in r.output, (args, r.output)
