"""``rollout``: Monte Carlo rollouts of positions, locally or on a Dask cluster."""

from __future__ import annotations

import contextlib
import os
import time
from typing import List, Optional

import typer

from bgtools.base import jsonout
from typing_extensions import Annotated

from bgtools.cli.common import check_range, chosen_met, fail, note, resolve_jobs


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


def _print_cube(label: str, r, settings) -> None:
    typer.echo(f"{label}  cube decision by rollout, {r.trials} trials per branch, seed {settings.seed}")
    if r.double_take is None:
        typer.echo(f"  no double {r.no_double:+.4f} ±{r.no_double_se:.4f}; no cube action available")
        return
    typer.echo(f"  No double     {r.no_double:+.4f} ±{r.no_double_se:.4f}")
    typer.echo(f"  Double, take  {r.double_take:+.4f} ±{r.double_take_se:.4f}")
    typer.echo(f"  Double, pass  {r.double_pass:+.4f}")
    typer.echo(f"  Proper cube action: {r.action}")


def _print_settled(r, evaluator: str) -> None:
    s = r.settings
    what = "cubeful equity" if s.cubeful else "cubeless equity"
    d = f"{r.dice[0]}{r.dice[1]}" if r.dice else ""
    typer.echo(f"{r.label}  {d}: {len(r.options.labels)} plays on the same dice, {r.trials} trials each, "
               f"{s.ply}-ply, seed {s.seed}{', VR' if s.variance_reduction else ''}"
               f"{f', truncated at {s.truncate}' if s.truncate else ''}  ({evaluator}; {what})")
    v, se, dse = r.values(), r.ses(), r.diff_ses()
    best = r.best
    width = max(len(m) for m in r.options.labels)
    for k, j in enumerate(r.ranking(), start=1):
        diff = "" if j == best else f"  {v[j] - v[best]:+.4f} ±{dse[j]:.4f}"
        typer.echo(f"  {k:2d}. {r.options.labels[j]:<{width}}  {v[j]:+.4f} ±{se[j]:.4f}{diff}")


def _candidates(text: Optional[str]) -> Optional[int]:
    """``--candidates``: a number of plays, or ``all`` (None)."""
    if text is None or text.strip().lower() == "all":
        return None
    try:
        n = int(text)
    except ValueError:
        raise fail(f"--candidates {text}: give a number of plays or 'all'") from None
    check_range("--candidates", n, 1, 10_000)
    return n


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
    ctx: typer.Context,
    ids: Annotated[Optional[List[str]], typer.Argument(help="Position IDs, POSITIONID:MATCHID, or XGIDs.",
                                                       metavar="ID")] = None,
    input: Annotated[Optional[str], typer.Option("--input", "-i", metavar="FILE",
                                                 help="File of IDs, one a line, or a CSV with an id or position_id "
                                                 "column, e.g. from 'bgtools export' ('-' = stdin).")] = None,
    trials: Annotated[int, typer.Option("--trials", "-n", help="Games per position.")] = 1296,
    seed: Annotated[int, typer.Option("--seed", help="Dice seed: same seed, same dice, same results.")] = 1,
    ply: Annotated[int, typer.Option("--ply", "-p", help="Checker play: 0 or 1 ply (1 ply chooses by cubeless equity, also in --cubeful rollouts).")] = 0,
    cubeful: Annotated[bool, typer.Option("--cubeful/--cubeless", help="Play with the cube (money or the match score).")] = False,
    truncate: Annotated[int, typer.Option("--truncate", help="Stop after N half-moves and evaluate (0 = play to the end).")] = 0,
    vr: Annotated[bool, typer.Option("--vr/--no-vr", help="Variance reduction.")] = False,
    bearoff: Annotated[bool, typer.Option("--bearoff-truncation/--no-bearoff-truncation", help="Stop where the two-sided bear-off database is exact.")] = True,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", help="Roll out in N local processes (0 = one per "
                                                "CPU); the same results as one.  [default: 1]")] = None,
    workers: Annotated[Optional[int], typer.Option("--workers", "-w", hidden=True, help="Old name of --jobs.")] = None,
    dask: Annotated[Optional[str], typer.Option("--dask", metavar="ADDRESS",
                                                help="Address of a dask.distributed scheduler to send the work to.")] = None,
    output: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE",
                                                  help="Write one record per position (.csv, else JSON lines; "
                                                  "'-' = stdout), each as soon as it is done; an existing non-empty "
                                                  "file needs --resume (add to it) or --force (overwrite it).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Add to --output, skipping positions it already holds with "
                                         "the same settings.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --output file.")] = False,
    weights: Annotated[Optional[str], typer.Option("--weights", metavar="FILE",
                                                   help="Network weights (.npz) instead of the shipped rollout net.")] = None,
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
    candidates: Annotated[Optional[str], typer.Option("--candidates", metavar="N|all",
                                                      help="Settle a checker play: roll out the best N plays of "
                                                      "--dice (or all) on the same dice, each with its "
                                                      "difference from the best and that difference's standard "
                                                      "error (the N chosen by the analysis net at 0 ply, or by "
                                                      "--weights).")] = None,
    dice: Annotated[Optional[str], typer.Option("--dice", metavar="DICE", help="The roll of --candidates, e.g. 31 "
                                                "(default: the ID's dice).")] = None,
    until_se: Annotated[Optional[float], typer.Option("--until-se", metavar="X", help="With --candidates or "
                                                      "--cube-decision: stop once every option's standard error of "
                                                      "its difference from the best is below X (--trials at "
                                                      "most; checked every 144 trials).")] = None,
    stop_sigma: Annotated[Optional[float], typer.Option("--stop-sigma", metavar="K", help="With --candidates or "
                                                        "--cube-decision: stop once the best leads every other "
                                                        "option by K standard errors of the difference.")] = None,
    extend: Annotated[Optional[int], typer.Option("--extend", metavar="K", help="Add K trials to the records of "
                                                  "candidates or cube decisions in --input (default: --output), "
                                                  "written to --output (default: in place): the same numbers as "
                                                  "one rollout of the total length.")] = None,
) -> None:
    """Roll out positions: probabilities, cubeless/cubeful equity and match winning chances, with standard errors."""
    from bgtools.base.fileio import OutputError
    from bgtools.engine.nets.networks import WeightsFileError, evaluator_name, load_weights
    from bgtools.rollouts import RolloutError, RolloutSettings
    from bgtools.rollouts.settings import MAX_TRIALS, MAX_TRUNCATE
    from bgtools.base.parallel import ParallelError
    from bgtools.rollouts.batch import Batch, BatchRun

    if (until_se is not None or stop_sigma is not None) and candidates is None and not cube_decision and extend is None:
        raise fail("--until-se and --stop-sigma go with --candidates, --cube-decision or --extend")
    if candidates is not None and cube_decision:
        raise fail("--candidates settles a checker play, --cube-decision the cube: give one")
    if dice is not None and candidates is None:
        raise fail("--dice goes with --candidates N (or all)")
    for name, value in (("--until-se", until_se), ("--stop-sigma", stop_sigma)):
        if value is not None and not value > 0:
            raise fail(f"{name} {value}: give a positive number")
    if extend is not None and (ids or candidates is not None or cube_decision or resume):
        raise fail("--extend takes the records of --input or --output, not IDs, --candidates, --cube-decision "
                   "or --resume")
    if candidates is not None and resume:
        raise fail("--resume goes with batches, not --candidates (--extend lengthens a record)")
    if extend is not None:
        return _extend(extend, input, output, weights,
                       resolve_jobs("--jobs", next((j for j in (jobs, workers) if j is not None), 1)), dask,
                       until_se, stop_sigma, chosen_met(ctx))
    if not ids and input is None:
        raise fail("give IDs, or --input FILE")
    if resume and output is None:
        raise fail("--resume needs --output")
    if jobs is not None and workers is not None and jobs != workers:
        raise fail("--jobs and --workers are the same option: give one")
    n = resolve_jobs("--jobs", next((j for j in (jobs, workers) if j is not None), 1))
    check_range("--trials", trials, 1, MAX_TRIALS)
    check_range("--truncate", truncate, 0, MAX_TRUNCATE, " half-moves (0 = play to the end)")
    check_range("--seed", seed, 0, 2**63 - 1)
    if dask is not None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise fail("--dask needs dask.distributed: pip install 'bgtools[dask]'")
    try:
        settings = RolloutSettings(trials=trials, seed=seed, ply=ply, cubeful=cubeful, truncate=truncate,
                                   variance_reduction=vr, bearoff_truncation=bearoff, jacoby=jacoby, beavers=beavers,
                                   pruning=not no_prune, met=chosen_met(ctx))
        net = load_weights(weights, "rollout")
        if candidates is not None:
            return _settle(ids or [], input, candidates, dice, settings, net, weights, output, force, as_json,
                           n, dask, until_se, stop_sigma)
        batch = Batch.load(ids or [], input, jacoby, beavers, settings.table)
        run = BatchRun(batch, settings, net, evaluator_name(net), output, resume, force, cube=cube_decision,
                       stop=(until_se, stop_sigma))
    except (RolloutError, WeightsFileError, OutputError) as e:
        raise fail(str(e))
    for label in batch.rolled:
        note(f"{label}: ignoring the rolled dice: a rollout starts before the roll")
    if dask is None and (cube_decision or run.todo):  # compile (or load) the kernels first, not under the bar
        from bgtools.rollouts import warm_up

        try:
            warm_up(net, settings.ply, helpers=1 if n > 1 else 0)  # (two cores: two processes compile)
        except RolloutError as e:
            raise fail(str(e))
    if cube_decision:
        progress, on_chunk, on_position = contextlib.nullcontext(), None, lambda: None
    else:
        progress, on_chunk, on_position = _progress(len(run.todo) * trials, len(run.todo))
    try:
        with progress:
            for label, res, rec in run.run(jobs=n, dask=dask, on_chunk=on_chunk):
                on_position()
                if output is not None:
                    continue
                if as_json:
                    typer.echo(jsonout.dumps({"id": label, **(res.to_dict() if cube_decision else rec)}))
                elif cube_decision:
                    _print_cube(label, res, settings)
                else:
                    _print_rollout(label, res, run.evaluator)
    except (RolloutError, OutputError, ParallelError) as e:
        raise fail(str(e))
    except OSError as e:
        raise fail(f"{dask or 'rollout'}: {e}")


def _settle(ids: List[str], input: Optional[str], candidates: Optional[str], dice: Optional[str], settings, net,
            weights_path: Optional[str], output: Optional[str], force: bool, as_json: bool, jobs: int,
            dask: Optional[str], until_se: Optional[float], stop_sigma: Optional[float]) -> None:
    """``rollout --candidates``: each ID's plays settled by rollout, printed or written to ``output``."""
    from bgtools.base.fileio import OutputError, atomic_write, check_output
    from bgtools.base.parallel import ParallelError
    from bgtools.cli.common import parse_dice
    from bgtools.engine.nets.networks import evaluator_name
    from bgtools.engine.nets.nn import NeuralEvaluator
    from bgtools.rollouts import RolloutError
    from bgtools.rollouts.candidates import settle_id

    if input is not None:
        raise fail("--candidates takes IDs on the command line, not --input")
    if not ids:
        raise fail("--candidates: give an ID")
    count = _candidates(candidates)
    try:
        roll = None if dice is None else parse_dice(dice)
    except ValueError as e:
        raise fail(f"--dice: {e}")
    if output is not None:
        if output.lower().endswith(".csv"):
            raise fail("--candidates writes JSON lines, not CSV")
        try:
            kind, target = check_output(output)
        except OutputError as e:
            raise fail(str(e))
        if kind == "atomic" and not force and os.path.exists(target) and os.path.getsize(target) > 0:
            raise fail(f"{output}: exists and is not empty; --force overwrites it, --extend adds trials to it")
    evaluator = evaluator_name(net)
    ranker = None if weights_path is None else NeuralEvaluator(net)
    records = []
    try:
        for text in ids:
            r = settle_id(text, roll, count, settings, net, ranker, jobs, dask, until_se, stop_sigma)
            records.append(r.record(evaluator))
            if output is None and as_json:
                typer.echo(jsonout.dumps(records[-1]))
            elif output is None:
                _print_settled(r, evaluator)
        if output is not None:
            atomic_write(output, "".join(jsonout.dumps(rec) + "\n" for rec in records))
    except (RolloutError, OutputError, ParallelError) as e:
        raise fail(str(e))
    except OSError as e:
        raise fail(f"{dask or 'rollout'}: {e}")


def _extend(more: int, input: Optional[str], output: Optional[str], weights: Optional[str], jobs: int,
            dask: Optional[str], until_se: Optional[float], stop_sigma: Optional[float], met=None) -> None:
    """``rollout --extend K``: the records of ``input`` (or ``output``) K trials longer, into ``output``."""
    from bgtools.base.fileio import OutputError
    from bgtools.base.parallel import ParallelError
    from bgtools.engine.nets.networks import WeightsFileError, evaluator_name, load_weights
    from bgtools.rollouts import RolloutError
    from bgtools.rollouts.candidates import extend_file
    from bgtools.rollouts.settings import MAX_TRIALS

    check_range("--extend", more, 1, MAX_TRIALS)
    source = input if input is not None else output
    if source is None:
        raise fail("--extend needs the records: --output FILE (extended in place) or --input FILE")
    try:
        net = load_weights(weights, "rollout")
        done = extend_file(source, output if output is not None else source, more, evaluator_name(net), net,
                           jobs, dask, met, until_se, stop_sigma)
    except (RolloutError, WeightsFileError, OutputError, ParallelError) as e:
        raise fail(str(e))
    except OSError as e:
        raise fail(f"{dask or 'rollout'}: {e}")
    if output != "-":
        trials = ", ".join(sorted({str(r.get("trials")) for r in done}))
        note(f"{output or source}: {len(done)} record{'s' if len(done) != 1 else ''}, now {trials} trials")
