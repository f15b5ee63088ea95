"""``train``: TD(lambda) self-play training of the neural evaluator."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from typing_extensions import Annotated

from bgtools.cli.common import fail, os_message


def train(
    run: Annotated[str, typer.Option("--run", metavar="FOLDER",
                                     help="Run folder (ckpt.npz, best.npz, log.csv); resumed if it exists.")],
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
    """Train the neural evaluator by seeded TD(lambda) self-play (resumable)."""
    from bgtools.training.train import TrainConfig, train_run

    try:
        h = tuple(int(v) for v in hidden.split(","))
    except ValueError:
        raise fail(f"--hidden: expected three integers, got {hidden!r}")
    if len(h) != 3 or min(h) < 1:
        raise fail(f"--hidden: expected three positive integers, got {hidden!r}")
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
