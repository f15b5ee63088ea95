"""``rollout``: Monte Carlo rollouts of positions, locally or on a Dask cluster."""

from __future__ import annotations

import os
import time
from typing import List, Optional

import typer

from bgtools.base import jsonout
from typing_extensions import Annotated

from bgtools.cli.common import MAX_JOBS, fail, note


def _print_rollout(label: str, r, evaluator: str) -> None:
    s = r.settings
    w, wg, wbg, lg, lbg = r.probs
    se = r.probs_se
    typer.echo(f"{label}  {r.trials} trials, {s.ply}-ply, seed {s.seed}{', VR' if s.variance_reduction else ''}"
               f"{f', truncated at {s.truncate}' if s.truncate else ''}  ({evaluator})")
    typer.echo(f"  win  {w:.4f} ±{se[0]:.4f}  gammon {wg:.4f} ±{se[1]:.4f}  backgammon {wbg:.4f} ±{se[2]:.4f}")
    typer.echo(f"  lose {1 - w:.4f} ±{se[0]:.4f}  gammon {lg:.4f} ±{se[3]:.4f}  backgammon {lbg:.4f} ±{se[4]:.4f}")
    typer.echo(f"  cubeless equity {r.equity:+.4f} ±{r.equity_se:.4f}")
    if r.mwc is not None:
        typer.echo(f"  cubeless MWC    {100 * r.mwc:.2f}% ±{100 * r.mwc_se:.2f}")
    if r.cubeful_equity is not None:
        typer.echo(f"  cubeful equity  {r.cubeful_equity:+.4f} ±{r.cubeful_equity_se:.4f}")
    if r.mwc_cubeful is not None:
        typer.echo(f"  cubeful MWC     {100 * r.mwc_cubeful:.2f}% ±{100 * r.mwc_cubeful_se:.2f}")


def _cube_decisions(batch, settings, net, workers: int, dask, as_json: bool) -> None:
    from bgtools.rollouts.cuberollout import cube_rollout_job

    for label, job in zip(batch.labels, batch.jobs):
        r = cube_rollout_job(job, settings, net, workers, dask)
        if as_json:
            typer.echo(jsonout.dumps({"id": label, **r.to_dict()}))
            continue
        typer.echo(f"{label}  cube decision by rollout, {r.trials} trials per branch, seed {settings.seed}")
        if r.double_take is None:
            typer.echo(f"  no double {r.no_double:+.4f} ±{r.no_double_se:.4f}; no cube action available")
            continue
        typer.echo(f"  No double     {r.no_double:+.4f} ±{r.no_double_se:.4f}")
        typer.echo(f"  Double, take  {r.double_take:+.4f} ±{r.double_take_se:.4f}")
        typer.echo(f"  Double, pass  {r.double_pass:+.4f}")
        typer.echo(f"  Proper cube action: {r.action}")


def _progress(total_games: int, positions: int):
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    progress = Progress(TextColumn("rollout"), BarColumn(), TextColumn("{task.fields[pos]} positions"),
                        TextColumn("{task.fields[rate]} games/s"), TimeRemainingColumn(), console=console,
                        disable=not console.is_terminal, transient=False)
    task = progress.add_task("rollout", total=total_games, pos=f"0/{positions}", rate="-")
    t0 = time.perf_counter()
    state = {"games": 0, "pos": 0}

    def on_chunk(j: int, n: int) -> None:
        state["games"] += n
        dt = time.perf_counter() - t0
        progress.update(task, advance=n, rate=f"{state['games'] / dt:,.0f}" if dt > 0 else "-")

    def on_position() -> None:
        state["pos"] += 1
        progress.update(task, pos=f"{state['pos']}/{positions}")

    return progress, on_chunk, on_position


def rollout(
    ids: Annotated[Optional[List[str]], typer.Argument(help="Position IDs, POSITIONID:MATCHID, or XGIDs.",
                                                       metavar="ID")] = None,
    input: Annotated[Optional[str], typer.Option("--input", "-i", metavar="FILE",
                                                 help="File of IDs, one a line, or a CSV with an id or position_id "
                                                 "column, e.g. from 'bgtools export' ('-' = stdin).")] = None,
    trials: Annotated[int, typer.Option("--trials", "-n", help="Games per position.")] = 1296,
    seed: Annotated[int, typer.Option("--seed", help="Dice seed: same seed, same dice, same results.")] = 1,
    ply: Annotated[int, typer.Option("--ply", "-p", help="Checker play: 0 or 1 ply.")] = 0,
    cubeful: Annotated[bool, typer.Option("--cubeful/--cubeless", help="Play with the cube (money or the match score).")] = False,
    truncate: Annotated[int, typer.Option("--truncate", help="Stop after N half-moves and evaluate (0 = play to the end).")] = 0,
    vr: Annotated[bool, typer.Option("--vr/--no-vr", help="Variance reduction.")] = False,
    bearoff: Annotated[bool, typer.Option("--bearoff-truncation/--no-bearoff-truncation", help="Stop where the two-sided bear-off database is exact.")] = True,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", help=f"Local worker processes, 1 to {MAX_JOBS} "
                                                "(default: all cores).")] = None,
    workers: Annotated[Optional[int], typer.Option("--workers", "-w", hidden=True, help="Old name of --jobs.")] = None,
    dask: Annotated[Optional[str], typer.Option("--dask", metavar="ADDRESS",
                                                help="Address of a dask.distributed scheduler to send the work to.")] = None,
    output: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE",
                                                  help="Write one record per position (.csv, else JSON lines); an "
                                                  "existing non-empty file needs --resume (add to it) or --force "
                                                  "(overwrite it).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Add to --output, skipping positions it already holds with "
                                         "the same settings.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --output file.")] = False,
    weights: Annotated[Optional[str], typer.Option("--weights", metavar="FILE",
                                                   help="Network weights (.npz) instead of the shipped net.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines on stdout instead of text.")] = False,
    cube_decision: Annotated[bool, typer.Option("--cube-decision", help="Roll out both cube branches (no double, "
                                                "double/take) and give the proper cube action (cubeful).")] = False,
    jacoby: Annotated[Optional[bool], typer.Option("--jacoby/--no-jacoby", help="Money: the Jacoby rule (gammons "
                                                   "count single until the cube is turned); default: the ID's, "
                                                   "else on.")] = None,
    beavers: Annotated[Optional[bool], typer.Option("--beavers/--no-beavers", help="Money: beavers allowed (the "
                                                    "cube action's words; rollouts take a beaver as a take); "
                                                    "default: on.")] = None,
    no_prune: Annotated[bool, typer.Option("--no-prune", help="The net values every play of every roll (slower), "
                                           "not only the few the pruning net ranks first.")] = False,
) -> None:
    """Roll out positions: probabilities, cubeless/cubeful equity and match winning chances, with standard errors."""
    from bgtools.engine.networks import WeightsFileError, evaluator_name, load_weights
    from bgtools.rollouts import RolloutError, RolloutSettings
    from bgtools.rollouts.jobs import Batch, BatchRun

    if not ids and input is None:
        raise fail("give IDs, or --input FILE")
    if resume and output is None:
        raise fail("--resume needs --output")
    if jobs is not None and workers is not None and jobs != workers:
        raise fail("--jobs and --workers are the same option: give one")
    n = jobs if jobs is not None else workers
    if n is not None and not 1 <= n <= MAX_JOBS:
        raise fail(f"--jobs {n}: use 1 to {MAX_JOBS}")
    if dask is not None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise fail("--dask needs dask.distributed: pip install 'bgtools[dask]'")
    try:
        settings = RolloutSettings(trials=trials, seed=seed, ply=ply, cubeful=cubeful, truncate=truncate,
                                   variance_reduction=vr, bearoff_truncation=bearoff, jacoby=jacoby, beavers=beavers,
                                   pruning=not no_prune)
        batch = Batch.load(ids or [], input, jacoby, beavers)
        net = load_weights(weights)
        run = BatchRun(batch, settings, net, evaluator_name(net), output, resume, force)
    except (RolloutError, WeightsFileError) as e:
        raise fail(str(e))
    for label in batch.rolled:
        note(f"{label}: ignoring the rolled dice: a rollout starts before the roll")
    if dask is None and (cube_decision or run.todo):  # compile (or load) the kernels first, not under the bar
        from bgtools.rollouts import warm_up

        try:
            warm_up(net, settings.ply)
        except RolloutError as e:
            raise fail(str(e))
    if cube_decision:
        _cube_decisions(batch, settings, net, n or os.cpu_count() or 1, dask, as_json)
        return
    progress, on_chunk, on_position = _progress(len(run.todo) * trials, len(run.todo))
    try:
        with progress:
            for label, res, rec in run.run(workers=n or os.cpu_count() or 1, dask=dask, on_chunk=on_chunk):
                on_position()
                if output is not None:
                    continue
                if as_json:
                    typer.echo(jsonout.dumps({"id": label, **rec}))
                else:
                    _print_rollout(label, res, run.evaluator)
    except RolloutError as e:
        raise fail(str(e))
    except OSError as e:
        raise fail(f"{dask or 'rollout'}: {e}")
