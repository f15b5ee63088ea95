"""``train``: TD(lambda) self-play training of the neural evaluator (``train --run``), and the
stages of the supervised pipeline (``train selfplay|label|racelabel|deepen|decisions|fit|duel --run``)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from typing_extensions import Annotated

from bgtools.cli.common import MAX_COUNT, MAX_SEED, check_ranges, fail, os_message, resolve_jobs


train_app = typer.Typer(help="Train the neural evaluator: TD(lambda) self-play with --run FOLDER, or a stage "
                        "of the supervised pipeline (selfplay, label, racelabel, deepen, decisions, fit, duel, calibrate; see "
                        "docs/training.md), or the pruning net (prune).")


@train_app.callback(invoke_without_command=True)
def train(
    ctx: typer.Context,
    run: Annotated[Optional[str], typer.Option("--run", metavar="FOLDER",
                                               help="TD run folder (ckpt.npz, best.npz, log.csv); resumed if it "
                                               "exists.")] = None,
    games: Annotated[int, typer.Option("--games", help="Total games of the run.")] = 1_000_000,
    hidden: Annotated[str, typer.Option("--hidden", metavar="C,R,R",
                                        help="Hidden units of the contact,crashed,race nets.")] = "128,64,64",
    alpha: Annotated[float, typer.Option("--alpha", help="Initial learning rate (above 0, at most 10).")] = 0.1,
    alpha_min: Annotated[float, typer.Option("--alpha-min", help="Floor of the learning rate (0 to --alpha).")] = 0.02,
    halflife: Annotated[int, typer.Option("--alpha-halflife", help="Games over which the rate halves.")] = 100_000,
    lam: Annotated[float, typer.Option("--lambda", help="TD lambda at the start, 0 to 1 (decays with the rate).")] = 0.7,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the self-play dice and the initial weights.")] = 1,
    chunk: Annotated[int, typer.Option("--chunk", help="Games per log line.")] = 500,
    ckpt_every: Annotated[int, typer.Option("--ckpt-every", help="Games between checkpoints.")] = 5_000,
    eval_every: Annotated[int, typer.Option("--eval-every", help="Games between strength checks (0: none).")] = 25_000,
    eval_games: Annotated[int, typer.Option("--eval-games", help="Duplicate-dice games per strength check.")] = 1_000,
    init: Annotated[Optional[str], typer.Option("--init", metavar="FILE",
                                                help="Start a new run from these weights (.npz; their "
                                                "game count carries on, e.g. a later stage with a lower rate).")] = None,
) -> None:
    """Train the neural evaluator by seeded TD(lambda) self-play (resumable), or run a pipeline stage."""
    if ctx.invoked_subcommand is not None:
        return
    if run is None:
        raise fail("give --run FOLDER (TD training) or a stage: selfplay, label, fit, duel (see --help)")
    from bgtools.training.train import TrainConfig, train_run

    try:
        h = tuple(int(v) for v in hidden.split(","))
    except ValueError:
        raise fail(f"--hidden: expected three integers, got {hidden!r}")
    if len(h) != 3 or min(h) < 1:
        raise fail(f"--hidden: expected three positive integers, got {hidden!r}")
    check_ranges(("--hidden", max(h), 1, 4096), ("--games", games, 0, MAX_COUNT), ("--seed", seed, 0, MAX_SEED),
                 ("--chunk", chunk, 1, MAX_COUNT), ("--alpha-halflife", halflife, 1, MAX_COUNT),
                 ("--ckpt-every", ckpt_every, 1, MAX_COUNT), ("--eval-every", eval_every, 0, MAX_COUNT),
                 ("--eval-games", eval_games, 0, MAX_COUNT))
    if chunk < 1 or games < 0:
        raise fail("--chunk must be positive and --games non-negative")
    if not 0 < alpha <= 10:
        raise fail(f"--alpha {alpha}: use a learning rate above 0 and at most 10")
    if not 0 <= alpha_min <= alpha:
        raise fail(f"--alpha-min {alpha_min}: use 0 to --alpha ({alpha})")
    if not 0 <= lam <= 1:
        raise fail(f"--lambda {lam}: use 0 to 1")
    for name, v in (("--alpha-halflife", halflife), ("--ckpt-every", ckpt_every)):
        if v < 1:
            raise fail(f"{name} {v}: use 1 or more")
    for name, v in (("--eval-every", eval_every), ("--eval-games", eval_games)):
        if v < 0:
            raise fail(f"{name} {v}: use 0 or more")
    if Path(run).exists() and not Path(run).is_dir():
        raise fail(f"--run {run}: is a file; give a folder (new or an earlier run)")
    if init is not None and not Path(init).is_file():
        raise fail(f"--init: {init}: no such file")
    cfg = TrainConfig(games=games, hidden=h, alpha=alpha, alpha_min=alpha_min, alpha_halflife=halflife, lam=lam,
                      seed=seed, chunk=chunk, ckpt_every=ckpt_every, eval_every=eval_every, eval_games=eval_games)
    try:
        train_run(run, cfg, echo=typer.echo, init=init)
    except OSError as e:
        raise fail(f"{e.filename or run}: {os_message(e)}")


RUN_HELP = "Pipeline run folder (data/ under it is regenerated from the seeds; logs and manifests beside)."


PRUNE_HELP = ("Search with the shipped pruning net (each roll's replies ranked by it, the net valuing the "
              "best few): about half the time at 2 ply, a little less deep.")
JOBS_HELP = "Label parts in N processes (0 = one per CPU); the same files as one."
DASK_HELP = "Address of a dask.distributed scheduler: one task per part there (the same files)."


def _stage(fn, run: str, cfg, **how) -> None:
    from bgtools.base.errors import BgtoolsError

    if Path(run).exists() and not Path(run).is_dir():
        raise fail(f"--run {run}: is a file; give a folder")
    try:
        fn(run, cfg, echo=typer.echo, **how)
    except BgtoolsError as e:
        raise fail(str(e))
    except OSError as e:
        raise fail(f"{e.filename or run}: {os_message(e)}")


@train_app.command("selfplay")
def selfplay(
    run: Annotated[str, typer.Option("--run", metavar="FOLDER", help=RUN_HELP)],
    positions: Annotated[int, typer.Option("--positions", help="Positions to record.")] = 50_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the games (game g uses seed*10**9+g).")] = 1,
    weights: Annotated[Optional[str], typer.Option("--weights", metavar="FILE",
                                                   help="The playing net (default: the shipped one).")] = None,
    explore: Annotated[float, typer.Option("--explore", help="Chance that a turn takes a near-best play, 0 to 1.")] = 0.1,
    margin: Annotated[float, typer.Option("--margin", help="Equity window of those plays.")] = 0.04,
    classes: Annotated[Optional[str], typer.Option("--classes", metavar="NAMES",
                                                   help="Record only positions of these nets, comma-separated "
                                                        "(contact, crashed, race; default: all).")] = None,
) -> None:
    """Seeded self-play with exploration: positions for the next generation (resumable)."""
    from bgtools.training.pipeline import SelfplayConfig, run_selfplay

    check_ranges(("--positions", positions, 1, MAX_COUNT), ("--seed", seed, 0, MAX_SEED))
    if positions < 1 or not 0 <= explore <= 1 or margin < 0:
        raise fail("--positions must be positive, --explore 0 to 1, --margin 0 or more")
    names = tuple(c.strip() for c in classes.split(",") if c.strip()) if classes else ()
    _stage(run_selfplay, run, SelfplayConfig(positions=positions, seed=seed, weights=weights, explore=explore,
                                             margin=margin, classes=names))


@train_app.command("label")
def label(
    run: Annotated[str, typer.Option("--run", metavar="FOLDER", help=RUN_HELP)],
    ply: Annotated[int, typer.Option("--ply", help="Search depth of the targets, 0 to 2.")] = 1,
    weights: Annotated[Optional[str], typer.Option("--weights", metavar="FILE",
                                                   help="The labelling net (default: the shipped one).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help=JOBS_HELP)] = 1,
    dask: Annotated[Optional[str], typer.Option("--dask", metavar="ADDRESS", help=DASK_HELP)] = None,
    prune: Annotated[bool, typer.Option("--prune", help=PRUNE_HELP)] = False,
) -> None:
    """Targets for the self-play positions from our own search (resumable, in chunks)."""
    from bgtools.training.pipeline import LabelConfig, run_label

    if not 0 <= ply <= 2:
        raise fail(f"--ply {ply}: use 0 to 2")
    _stage(run_label, run, LabelConfig(ply=ply, weights=weights, prune=prune), jobs=resolve_jobs("--jobs", jobs),
           dask=dask)


@train_app.command("racelabel")
def racelabel(
    run: Annotated[str, typer.Option("--run", metavar="FOLDER", help=RUN_HELP)],
    trials: Annotated[int, typer.Option("--trials", help="Rollout games per race position.")] = 36,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the rollout dice (per row: the same bytes "
                                                     "whatever the parts).")] = 1,
    weights: Annotated[Optional[str], typer.Option("--weights", metavar="FILE",
                                                   help="The net that plays the rollouts (default: the shipped "
                                                        "one).")] = None,
    chunk: Annotated[int, typer.Option("--chunk", help="Positions per part file.")] = 1_000,
    ply: Annotated[int, typer.Option("--ply", help="The rollout players' search, 0 or 1 (about 20 times "
                                                   "the cost).")] = 0,
    vr: Annotated[bool, typer.Option("--vr/--no-vr", help="Variance reduction: subtract each roll's luck (the "
                                                          "0-ply value of its play against the mean of the 36 "
                                                          "rolls): about 9 times less spread and 18 times "
                                                          "the cost a trial.")] = False,
) -> None:
    """Race targets from rollouts of our own net and bear-off databases (positions from
    selfplay --classes race; bear-off positions exactly; resumable, in parts)."""
    from bgtools.training.pipeline import RaceLabelConfig, run_racelabel

    check_ranges(("--trials", trials, 1, MAX_COUNT), ("--seed", seed, 0, MAX_SEED), ("--chunk", chunk, 1, MAX_COUNT))
    if trials < 1 or chunk < 1:
        raise fail("--trials and --chunk must be 1 or more")
    if ply not in (0, 1):
        raise fail(f"--ply {ply}: use 0 or 1")
    _stage(run_racelabel, run, RaceLabelConfig(trials=trials, seed=seed, weights=weights, chunk=chunk, ply=ply,
                                               vr=vr))


@train_app.command("deepen")
def deepen(
    run: Annotated[str, typer.Option("--run", metavar="FOLDER", help=RUN_HELP)],
    count: Annotated[int, typer.Option("--count", help="Labelled rows to search again, deeper.")] = 10_000,
    ply: Annotated[int, typer.Option("--ply", help="Search depth of their new targets, 1 to 3.")] = 2,
    weights: Annotated[Optional[str], typer.Option("--weights", metavar="FILE",
                                                   help="The searching net (default: the shipped one; use the "
                                                   "label stage's).")] = None,
    select: Annotated[str, typer.Option("--select", help="disagree: the rows whose label is furthest from the "
                                        "net's 0-ply value; random: a seeded sample.")] = "disagree",
    seed: Annotated[int, typer.Option("--seed", help="Seed of --select random.")] = 1,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help=JOBS_HELP)] = 1,
    dask: Annotated[Optional[str], typer.Option("--dask", metavar="ADDRESS", help=DASK_HELP)] = None,
    prune: Annotated[bool, typer.Option("--prune", help=PRUNE_HELP)] = False,
) -> None:
    """Deeper targets for the rows where the net's 0 ply and its search disagree most (resumable)."""
    from bgtools.training.label import SELECTIONS
    from bgtools.training.pipeline import DeepenConfig, run_deepen

    if not 1 <= ply <= 3 or count < 1:
        raise fail(f"--ply {ply} --count {count}: use a ply of 1 to 3 and a positive count")
    check_ranges(("--count", count, 1, MAX_COUNT), ("--seed", seed, 0, MAX_SEED))
    if select not in SELECTIONS:
        raise fail(f"--select {select}: use one of {', '.join(SELECTIONS)}")
    _stage(run_deepen, run, DeepenConfig(ply=ply, count=count, weights=weights, select=select, seed=seed,
                                               prune=prune),
           jobs=resolve_jobs("--jobs", jobs), dask=dask)


@train_app.command("decisions")
def decisions(
    run: Annotated[str, typer.Option("--run", metavar="FOLDER", help=RUN_HELP)],
    ply: Annotated[int, typer.Option("--ply", help="The deeper search that judges the 0-ply picks and labels "
                                               "the rows, 1 to 3.")] = 2,
    weights: Annotated[Optional[str], typer.Option("--weights", metavar="FILE",
                                                   help="The net whose picks are judged (default: the shipped "
                                                   "one).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the rolls (one a position, the same whatever "
                                                     "the parts).")] = 1,
    keep: Annotated[int, typer.Option("--keep", help="Plays of a roll valued at --ply: at most this many ...")] = 8,
    threshold: Annotated[float, typer.Option("--threshold", help="... within this much equity of the best "
                                                                 "0-ply play.")] = 0.16,
    rows: Annotated[str, typer.Option("--rows", help="pairs: the positions after both picks of each roll where "
                                      "they part; candidates: after every play valued at --ply.")] = "pairs",
    margin: Annotated[float, typer.Option("--margin", help="pairs: only rolls where the deep pick is better "
                                                           "by more than this (equity).")] = 0.0,
    chunk: Annotated[int, typer.Option("--chunk", help="Positions per part file.")] = 1_000,
    prune: Annotated[bool, typer.Option("--prune/--no-prune", help=PRUNE_HELP)] = True,
    trials: Annotated[int, typer.Option("--trials", help="0: value the best plays by the search at --ply; N: by "
                                        "N-trial race rollouts with variance reduction instead, the plays of a "
                                        "roll on the same dice (race positions only: train selfplay --classes "
                                        "race).")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help=JOBS_HELP)] = 1,
    dask: Annotated[Optional[str], typer.Option("--dask", metavar="ADDRESS", help=DASK_HELP)] = None,
) -> None:
    """Training rows where the net's 0-ply pick and its deeper pick part: one seeded roll of
    each self-play position, its best plays searched at --ply (or, in a race, rolled out:
    --trials); writes data/decisions.npz (fit --data decisions, or --extra; resumable, in parts)."""
    from bgtools.training.decisions import ROWS
    from bgtools.training.pipeline import DecisionsConfig, run_decisions

    if not 1 <= ply <= 3 or keep < 2 or chunk < 1:
        raise fail(f"--ply {ply} --keep {keep} --chunk {chunk}: use a ply of 1 to 3, --keep 2 or more and a "
                   "positive --chunk")
    check_ranges(("--seed", seed, 0, MAX_SEED), ("--keep", keep, 2, 64), ("--chunk", chunk, 1, MAX_COUNT),
                 ("--trials", trials, 0, 1_000_000))
    if not 0 <= threshold <= 3 or not 0 <= margin <= 3:
        raise fail(f"--threshold {threshold} --margin {margin}: use equities from 0 to 3")
    if rows not in ROWS:
        raise fail(f"--rows {rows}: use one of {', '.join(ROWS)}")
    _stage(run_decisions, run, DecisionsConfig(ply=ply, weights=weights, seed=seed, keep=keep, threshold=threshold,
                                               rows=rows, margin=margin, chunk=chunk, prune=prune, trials=trials),
           jobs=resolve_jobs("--jobs", jobs), dask=dask)


@train_app.command("fit")
def fit(
    run: Annotated[str, typer.Option("--run", metavar="FOLDER", help=RUN_HELP)],
    init: Annotated[Optional[str], typer.Option("--init", metavar="FILE",
                                                help="The net to start from (default: the shipped one).")] = None,
    epochs: Annotated[int, typer.Option("--epochs", help="Passes over the data.")] = 8,
    batch: Annotated[int, typer.Option("--batch", help="Mini-batch size.")] = 256,
    lr: Annotated[float, typer.Option("--lr", help="Adam's learning rate.")] = 3e-4,
    lr_end: Annotated[Optional[float], typer.Option("--lr-end", help="Decay the rate geometrically to this by the "
                                                    "last epoch (default: constant).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the split and the order.")] = 1,
    data: Annotated[str, typer.Option("--data", help="The run's data set: labelled, deepened or "
                                        "decisions.")] = "labelled",
    extra: Annotated[Optional[list[str]], typer.Option("--extra", metavar="NPZ",
                                                       help="Another data set (boards, targets) to fit beside "
                                                       "it, e.g. an earlier run's data/labelled.npz; repeatable.")
                     ] = None,
    hidden: Annotated[Optional[str], typer.Option("--hidden", metavar="C,X,R",
                                                  help="Widen the start net first to these hidden units "
                                                  "(contact, crashed, race), e.g. 256,128,64; new units start "
                                                  "silent, so the net plays as before until fitted.")] = None,
    best_per_net: Annotated[bool, typer.Option("--best-per-net",
                                               help="Keep each net (contact, crashed, race) from the epoch "
                                               "of its own lowest held-out loss, not one epoch for all.")] = False,
    contact_inputs: Annotated[bool, typer.Option("--contact-inputs",
                                                 help="The contact and crashed nets also read the 36 inputs of "
                                                 "engine.nets.contactinputs (added at zero weights when the start "
                                                 "net does not, so it plays as before until fitted).")] = False,
    within_roll: Annotated[float, typer.Option("--within-roll", metavar="LAM",
                                               help="Weight of a within-roll loss on the rows of data sets made by "
                                               "train decisions (--rows candidates): their rolls come in whole "
                                               "batches and each play's equity error less its roll's mean is "
                                               "penalised (a net picks by differences). 0: none.")] = 0.0,
    race_inputs: Annotated[bool, typer.Option("--race-inputs",
                                              help="The race net also reads the 32 inputs of engine.nets.raceinputs "
                                              "(checkers off one unit per count, the crossover count; added at zero "
                                              "weights when the start net does not).")] = False,
) -> None:
    """Supervised fit of the net to the labels (cross-entropy, Adam); writes fit.npz (resumable)."""
    from bgtools.training.pipeline import FitConfig, run_fit

    widths = None
    if hidden is not None:
        try:
            widths = tuple(int(x) for x in hidden.split(","))
        except ValueError:
            widths = ()
        if len(widths) != 3 or not all(0 < x <= 4096 for x in widths):
            raise fail(f"--hidden {hidden}: give three unit counts (contact,crashed,race), e.g. 256,128,64")

    if epochs < 1 or batch < 1 or not 0 < lr < 1:
        raise fail("--epochs and --batch must be positive, --lr between 0 and 1")
    check_ranges(("--epochs", epochs, 1, MAX_COUNT), ("--batch", batch, 1, 10**7), ("--seed", seed, 0, MAX_SEED))
    if not 0 <= within_roll <= 1000:
        raise fail(f"--within-roll {within_roll}: use a weight from 0 to 1000")
    if lr_end is not None and not 0 < lr_end < 1:
        raise fail(f"--lr-end {lr_end}: use a rate between 0 and 1")
    if data not in ("labelled", "deepened", "decisions"):
        raise fail(f"--data {data}: use labelled, deepened or decisions")
    for f in extra or ():
        if not Path(f).is_file():
            raise fail(f"--extra: {f}: no such file")
    _stage(run_fit, run, FitConfig(init=init, epochs=epochs, batch=batch, lr=lr, seed=seed, data=data,
                                   extra=tuple(extra or ()), lr_end=lr_end,
                                   hidden=widths,  # type: ignore[arg-type]  # three ints, checked above
                                   best_per_net=best_per_net, contact_inputs=contact_inputs,
                                   race_inputs=race_inputs, within_roll=within_roll))


@train_app.command("duel")
def duel(
    run: Annotated[str, typer.Option("--run", metavar="FOLDER", help=RUN_HELP)],
    a: Annotated[Optional[str], typer.Option("--a", metavar="FILE", help="Net A (default: the run's fit.npz).")] = None,
    b: Annotated[Optional[str], typer.Option("--b", metavar="FILE", help="Net B (default: the shipped net).")] = None,
    games: Annotated[int, typer.Option("--games", help="Duplicate-dice games (pairs count twice).")] = 2_000,
    seed: Annotated[int, typer.Option("--seed", help="Dice seed.")] = 1,
    ply: Annotated[int, typer.Option("--ply", help="Checker play, 0 or 1 ply.")] = 0,
) -> None:
    """Head to head, cubeless money, duplicate dice: net A's points per game against net B, 95 % interval."""
    from bgtools.training.pipeline import DuelConfig, run_duel

    if games < 2 or ply not in (0, 1):
        raise fail("--games must be 2 or more and --ply 0 or 1")
    check_ranges(("--games", games, 2, MAX_COUNT), ("--seed", seed, 0, MAX_SEED))
    _stage(run_duel, run, DuelConfig(a=a, b=b, games=games, seed=seed, ply=ply))


@train_app.command("prune")
def prune(
    run: Annotated[str, typer.Option("--run", metavar="FOLDER", help=RUN_HELP)],
    weights: Annotated[Optional[str], typer.Option("--weights", metavar="FILE",
                                                   help="The main net to rank like (default: the shipped one).")] = None,
    hidden: Annotated[int, typer.Option("--hidden", help="Hidden units of the pruning net.")] = 64,
    epochs: Annotated[int, typer.Option("--epochs", help="Passes over the plays.")] = 8,
    rolls: Annotated[int, typer.Option("--rolls", help="Rolls drawn per position; every play of each is used.")] = 3,
    keep: Annotated[int, typer.Option("--keep", help="Plays per roll the full net values after pruning.")] = 6,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the rolls drawn, the held-out split and the fit.")] = 1,
) -> None:
    """The pruning net: a tiny net fitted to rank the plays of a roll as the main net does
    (from this run's self-play positions, data/positions.npz); writes prune.npz."""
    from bgtools.training.pipeline import PruneConfig, run_prune

    check_ranges(("--hidden", hidden, 1, 4096), ("--epochs", epochs, 1, MAX_COUNT), ("--rolls", rolls, 1, 21),
                 ("--keep", keep, 1, 1000), ("--seed", seed, 0, MAX_SEED))
    _stage(run_prune, run, PruneConfig(weights=weights, hidden=hidden, epochs=epochs, rolls=rolls, keep=keep,
                                       seed=seed))


@train_app.command("calibrate")
def calibrate(
    run: Annotated[str, typer.Option("--run", metavar="FOLDER", help=RUN_HELP)],
    rollouts: Annotated[list[str], typer.Option("--rollouts", metavar="FILE",
                                                help="Records of 'bgtools rollout -o FILE' (cubeless, played to the "
                                                     "end) of self-play positions; give it again for more files.")],
    init: Annotated[Optional[str], typer.Option("--init", metavar="FILE",
                                                help="The net to calibrate (default: the shipped analysis "
                                                "net).")] = None,
    outputs: Annotated[str, typer.Option("--outputs", help="gammons: the four gammon and backgammon outputs move; "
                                         "all: the win output too.")] = "gammons",
    nets: Annotated[str, typer.Option("--nets", help="The nets whose outputs move: contact, crashed, or "
                                      "contact,crashed.")] = "contact",
    layer: Annotated[str, typer.Option("--layer", help="biases: only the output biases move; output: the whole "
                                       "output layer, its weights held near the start net's by --ridge.")] = "biases",
    ridge: Annotated[float, typer.Option("--ridge", help="With --layer output: how firmly the weights stay near "
                                         "the start net's (above 0; larger: closer).")] = 1.0,
) -> None:
    """Fit the output biases (or output layer) of the contact (and crashed) net to our own rollouts; writes
    calibrated.npz."""
    from bgtools.training.calibrate import LAYERS, CalibrateConfig, run_calibrate

    if outputs not in ("gammons", "all"):
        raise fail(f"--outputs {outputs}: use gammons or all")
    if layer not in LAYERS:
        raise fail(f"--layer {layer}: use biases or output")
    if not (0 < ridge < 1e12):
        raise fail(f"--ridge {ridge}: must be above 0")
    for f in rollouts:
        if not Path(f).is_file():
            raise fail(f"--rollouts: {f}: no such file")
    if init is not None and not Path(init).is_file():
        raise fail(f"--init: {init}: no such file")
    if not nets or any(n.strip() not in ("contact", "crashed") for n in nets.split(",")):
        raise fail(f"--nets {nets}: name contact, crashed or contact,crashed")
    _stage(run_calibrate, run, CalibrateConfig(rollouts=tuple(rollouts), init=init, outputs=outputs, nets=nets,
                                               layer=layer, ridge=ridge))
