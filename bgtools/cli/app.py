"""The ``bgtools`` command line: thin wrappers over the library.

Exit codes: 0 success, 1 the input was read but has errors (e.g. illegal moves in a
match file), 2 bad usage or unreadable input (bad IDs, dice, missing files).
Heavy modules (numba kernels) are imported inside the commands that need them so
that ``bgtools --help`` and ``bgtools show`` start fast.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer
from typing_extensions import Annotated

from bgtools.base.version import __version__

app = typer.Typer(
    name="bgtools",
    help="Backgammon analysis from the shell: positions, legal moves, match files, evaluation.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"bgtools {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True,
                                                    help="Print the version and exit.")] = None,
) -> None:
    """bgtools: backgammon positions, moves, match files and analysis."""


def fail(message: str, code: int = 2) -> "typer.Exit":
    """Print a one-line error to stderr and return the Exit to raise."""
    typer.echo(f"bgtools: error: {message}", err=True)
    return typer.Exit(code)


def _open_lines(path: str):
    if path == "-":
        return sys.stdin
    p = Path(path)
    if not p.exists():
        raise fail(f"{path}: no such file")
    return p.open(encoding="utf-8-sig")


def _parse_dice(text: str) -> tuple[int, int]:
    t = text.strip().replace("-", "").replace(",", "").replace(" ", "")
    if len(t) != 2 or not t.isdigit() or not all("1" <= c <= "6" for c in t):
        raise ValueError(f"dice {text!r} must be two digits 1-6, e.g. 31")
    return int(t[0]), int(t[1])


# --------------------------------------------------------------------------- show
@app.command()
def show(
    id: Annotated[str, typer.Argument(help="Position ID, POSITIONID:MATCHID, or XGID.")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object instead of the board.")] = False,
) -> None:
    """Print the board, pip counts, IDs and match state of a position."""
    from bgtools.core.matchstate import parse_any_id, to_xgid
    from bgtools.core.position import PositionError

    try:
        pos, ms = parse_any_id(id)
    except PositionError as e:
        raise fail(str(e))
    from bgtools.core.matchstate import MatchState

    state = ms or MatchState(game_state=1, player_on_roll=1, turn=1)
    info = {
        "position_id": pos.position_id(),
        "match_id": state.match_id(),
        "xgid": to_xgid(pos, state),
        "board": [list(pos.opponent), list(pos.on_roll)],
        "pips": list(pos.pips),
        "borne_off": list(pos.borne_off),
        "on_bar": list(pos.on_bar),
        "class": pos.classify().name.lower(),
        "match_state": state.to_dict(),
    }
    try:
        from bgtools.engine.race import race_report  # optional: present once the evaluation engine lands

        info.update(race_report(pos))
    except ImportError:
        pass
    if as_json:
        typer.echo(json.dumps(info))
        return
    typer.echo(pos.ascii())
    typer.echo(f"Position ID: {info['position_id']}   Match ID: {info['match_id']}")
    typer.echo(f"XGID: {info['xgid']}")
    typer.echo(f"Pips: on roll {info['pips'][0]}, opponent {info['pips'][1]}   class: {info['class']}")
    s = state
    length = "money" if s.is_money else f"{s.match_length}-point match"
    owner = "centred" if s.cube_owner == -1 else f"player {s.cube_owner}"
    dice = "not rolled" if s.dice == (0, 0) else f"{s.dice[0]}{s.dice[1]}"
    typer.echo(
        f"{length}, score {s.score[0]}-{s.score[1]}, cube {s.cube} ({owner}), player {s.player_on_roll} on roll, dice {dice}"
        + (", Crawford game" if s.crawford else "")
    )
    for key in ("race",):
        if key in info:
            typer.echo(f"Race: {info[key]}")


# --------------------------------------------------------------------------- moves
def _moves_record(id_text: str, dice_text: str) -> dict:
    from bgtools.core.matchstate import parse_any_id
    from bgtools.core.movegen import legal_plays

    pos, _ = parse_any_id(id_text)
    dice = _parse_dice(dice_text)
    plays = legal_plays(pos, dice)
    return {
        "id": id_text,
        "dice": f"{dice[0]}{dice[1]}",
        "plays": [{"move": p.notation(), "position_id": p.after_id} for p in plays],
    }


@app.command()
def moves(
    id: Annotated[Optional[str], typer.Argument(help="Position ID, POSITIONID:MATCHID, or XGID.")] = None,
    dice: Annotated[Optional[str], typer.Argument(help="The roll, e.g. 31.")] = None,
    input: Annotated[Optional[str], typer.Option("--input", "-i",
                                                 help="File of 'ID DICE' lines ('-' = stdin).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines instead of a table.")] = False,
) -> None:
    """List the legal plays of a position for a roll (or for every line of --input).

    Each play's position_id is the position after the play with the opponent on roll.
    """
    from bgtools.core.position import PositionError

    if input is None and (id is None or dice is None):
        raise fail("give ID and DICE, or --input FILE")
    errors = 0
    if input is not None:
        items = []
        for lineno, line in enumerate(_open_lines(input), start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split()
            items.append((lineno, parts))
    else:
        items = [(0, [id, dice])]
    for lineno, parts in items:
        where = f"line {lineno}: " if lineno else ""
        if len(parts) != 2:
            typer.echo(f"bgtools: error: {where}expected 'ID DICE', got {' '.join(parts)!r}", err=True)
            errors += 1
            continue
        try:
            rec = _moves_record(parts[0], parts[1])
        except (PositionError, ValueError) as e:
            typer.echo(f"bgtools: error: {where}{e}", err=True)
            errors += 1
            continue
        if as_json:
            typer.echo(json.dumps(rec))
        else:
            if input is not None:
                typer.echo(f"{rec['id']} {rec['dice']}:")
            if not rec["plays"]:
                typer.echo("  (no legal play)")
            for i, p in enumerate(rec["plays"], start=1):
                typer.echo(f"{i:4d}. {p['move']:<28} {p['position_id']}")
    if errors:
        raise typer.Exit(2)


@app.command()
def train(
    run: Annotated[str, typer.Option("--run", help="Run folder (ckpt.npz, best.npz, log.csv); resumed if it exists.")],
    games: Annotated[int, typer.Option("--games", help="Total games of the run.")] = 1_000_000,
    hidden: Annotated[str, typer.Option("--hidden", help="Hidden units of the contact,crashed,race nets.")] = "128,64,64",
    alpha: Annotated[float, typer.Option("--alpha", help="Initial learning rate.")] = 0.1,
    alpha_min: Annotated[float, typer.Option("--alpha-min", help="Floor of the learning rate.")] = 0.02,
    halflife: Annotated[int, typer.Option("--alpha-halflife", help="Games over which the rate halves.")] = 100_000,
    lam: Annotated[float, typer.Option("--lambda", help="TD lambda at the start (decays with the rate).")] = 0.7,
    seed: Annotated[int, typer.Option("--seed")] = 1,
    chunk: Annotated[int, typer.Option("--chunk", help="Games per log line.")] = 500,
    ckpt_every: Annotated[int, typer.Option("--ckpt-every", help="Games between checkpoints.")] = 5_000,
    eval_every: Annotated[int, typer.Option("--eval-every", help="Games between strength checks (0: none).")] = 25_000,
    eval_games: Annotated[int, typer.Option("--eval-games", help="Duplicate-dice games per strength check.")] = 1_000,
    init: Annotated[Optional[str], typer.Option("--init", help="Start a new run from these weights (.npz; their "
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
    cfg = TrainConfig(games=games, hidden=h, alpha=alpha, alpha_min=alpha_min, alpha_halflife=halflife, lam=lam,
                      seed=seed, chunk=chunk, ckpt_every=ckpt_every, eval_every=eval_every, eval_games=eval_games)
    if init is not None and not Path(init).is_file():
        raise fail(f"--init: {init}: no such file")
    train_run(run, cfg, echo=lambda s: typer.echo(s, err=False), init=init)


# --------------------------------------------------------------------------- check / convert
@app.command()
def check(
    paths: Annotated[List[str], typer.Argument(help="Match files, folders, globs; '-' reads stdin.")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON line per file.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Stop each file at its first error.")] = False,
) -> None:
    """Replay every game of match files (.mat/.txt, SGF, FIBS oldmoves, JSON) under the rules.

    Prints games, plays, doubles, final score and errors (with line numbers) per file.
    Exit status 1 when any error was found, 2 when a file cannot be read at all.
    """
    from bgtools.formats.read import expand_paths, read_match
    from bgtools.model.match import Match, match_summary
    from bgtools.model.problems import MatchProblem, MatchFileError

    files = list(expand_paths(paths))
    show_bar = sys.stderr.isatty() and len(files) > 1 and not as_json
    any_err = unreadable = False

    def one(path: str) -> Match:
        try:
            if path == "-":
                return read_match(sys.stdin.buffer.read(), name="<stdin>", strict=strict)
            if not Path(path).is_file():
                raise MatchFileError(MatchProblem("no such file", path))
            return read_match(Path(path), name=path, strict=strict)
        except MatchFileError as e:
            err = e.error if e.error.file else MatchProblem(e.error.message, path, e.error.line, e.error.column,
                                                          e.error.game, e.error.move)
            return Match(("", ""), 0, source=path, file_errors=[err])

    def report(m: Match) -> None:
        nonlocal any_err, unreadable
        s = match_summary(m)
        if m.file_errors and not m.games:
            unreadable = True
        if s["errors"]:
            any_err = True
        if as_json:
            typer.echo(json.dumps(s, ensure_ascii=False))
            return
        typer.echo(f"{s['file']}: {s['games']} games, {s['plays']} plays, {s['doubles']} doubles, "
                   f"final score {s['final_score'][0]}-{s['final_score'][1]}"
                   + (f", {len(s['errors'])} error(s)" if s["errors"] else ""))
        for e in m.errors:
            typer.echo(f"  {e}")

    if show_bar:
        from rich.progress import Progress
        from rich.console import Console

        with Progress(console=Console(stderr=True), transient=True) as prog:
            task = prog.add_task("checking", total=len(files))
            for f in files:
                report(one(f))
                prog.advance(task)
    else:
        for f in files:
            report(one(f))
    if any_err or unreadable:
        raise typer.Exit(2 if unreadable else 1)


_FORMAT_SUFFIX = {"mat": ".mat", "sgf": ".sgf", "json": ".json"}


@app.command()
def convert(
    src: Annotated[str, typer.Argument(help="A match file or a folder of them.")],
    out: Annotated[str, typer.Option("--output", "-o", help="Output file (or folder when SRC is a folder).")],
    to: Annotated[Optional[str], typer.Option("--to", help="mat, sgf or json (default: from the output suffix).")] = None,
) -> None:
    """Convert match files between .mat, SGF and JSON (written atomically, never half-written)."""
    from bgtools.formats.read import expand_paths, read_match
    from bgtools.model.problems import MatchFileError
    from bgtools.formats.matchjson import write_json
    from bgtools.formats.matfile import write_mat
    from bgtools.formats.sgf import write_sgf

    writers = {"mat": write_mat, "sgf": write_sgf, "json": write_json}
    if to is not None and to not in writers:
        raise fail(f"--to {to!r}: expected mat, sgf or json")
    src_p, out_p = Path(src), Path(out)
    if not src_p.exists():
        raise fail(f"{src}: no such file or folder")
    if src_p.is_dir():
        if to is None:
            raise fail("converting a folder needs --to mat|sgf|json")
        jobs = []
        for f in expand_paths([src]):
            rel = Path(f).relative_to(src_p)
            jobs.append((Path(f), (out_p / rel).with_suffix(_FORMAT_SUFFIX[to])))
    else:
        fmt = to or {".mat": "mat", ".txt": "mat", ".sgf": "sgf", ".json": "json"}.get(out_p.suffix.lower())
        if fmt is None:
            raise fail(f"{out}: cannot tell the format from the suffix; use --to mat|sgf|json")
        to = fmt
        jobs = [(src_p, out_p)]
    errors = 0
    for s, o in jobs:
        try:
            m = read_match(s, name=str(s))
        except MatchFileError as e:
            typer.echo(f"bgtools: error: {e}", err=True)
            errors += 1
            continue
        for e in m.errors:
            typer.echo(f"bgtools: warning: {e}", err=True)
        try:
            o.parent.mkdir(parents=True, exist_ok=True)
            writers[to](m, o)
        except OSError as e:
            raise fail(f"{o}: cannot write: {e.strerror or e}")
    if errors:
        raise typer.Exit(2)


# --------------------------------------------------------------------------- export
def _rich_progress(total: int):
    """Context manager giving ``advance()`` for a file progress bar on stderr."""
    from contextlib import contextmanager

    from rich.console import Console
    from rich.progress import Progress

    @contextmanager
    def bar():
        with Progress(console=Console(stderr=True), transient=True) as prog:
            task = prog.add_task("exporting", total=total)
            yield lambda: prog.advance(task)

    return bar()


@app.command()
def export(
    paths: Annotated[List[str], typer.Argument(help="Match files, folders, globs; '-' reads stdin.")],
    out: Annotated[str, typer.Option("--output", "-o", help="Output: .csv, .csv.gz, .jsonl or .parquet; "
                                                              "'-' = CSV on stdout.")],
    level: Annotated[str, typer.Option("--level", help="One row per action (moves), game or match.")] = "moves",
    columns: Annotated[Optional[List[str]], typer.Option("--columns", help="Comma-separated columns to "
                                                           "write, in this order (default: all).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Parse files in N processes (0 = one per CPU); "
                                                           "the output is the same for any N.")] = 1,
    keep_bad_games: Annotated[bool, typer.Option("--keep-bad-games", help="Also write games with errors "
                                                 "(board columns empty after an illegal move).")] = False,
) -> None:
    """Export match files as a table, one row per action, game or match (columns: docs/export.md).

    Files with errors are listed on stderr, their good games written, and the exit status is 1.
    """
    import glob
    import os

    from bgtools.export import columns_for, export_files, output_format

    try:
        fmt = output_format(out)
        names = [n.strip() for c in columns for n in c.split(",") if n.strip()] if columns else None
        columns_for(level, names)
    except ValueError as e:
        raise fail(str(e))
    if fmt == "parquet":
        try:
            import pyarrow.parquet  # noqa: F401
        except ImportError:
            raise fail("writing Parquet needs pyarrow: pip install 'bgtools[parquet]'")
    if jobs < 0:
        raise fail(f"--jobs {jobs}: expected 0 (one per CPU) or more")
    jobs = jobs or os.cpu_count() or 1
    for p in paths:
        if p != "-" and not os.path.exists(p) and not glob.glob(p, recursive=True):
            raise fail(f"{p}: no such file or folder")
    if out != "-" and not os.path.isdir(os.path.dirname(os.path.abspath(out))):
        raise fail(f"{out}: the folder does not exist")
    from bgtools.formats.read import expand_paths

    files = list(expand_paths(paths))
    if not files:
        raise fail(f"no match files found in {' '.join(paths)}")
    progress = _rich_progress if sys.stderr.isatty() and len(files) > 1 else None
    try:
        report = export_files(files, out, level=level, columns=names, jobs=jobs,
                              keep_bad_games=keep_bad_games, progress=progress)
    except OSError as e:
        raise fail(f"{out}: cannot write: {e.strerror or e}")
    for p in report.problems:
        typer.echo(f"bgtools: error: {p}", err=True)
    where = "stdout" if out == "-" else out
    bad = f"; {len(report.problems)} file(s) had errors" if report.problems else ""
    typer.echo(f"bgtools: {report.rows} rows from {report.files} file(s) written to {where}{bad}", err=True)
    if report.problems:
        raise typer.Exit(1)


# --------------------------------------------------------------------------- eval / hint / bearoff
def _batch_items(input: str, nfields: int, what: str):
    """(lineno, fields) for each non-blank, non-comment line of an --input file."""
    for lineno, line in enumerate(_open_lines(input), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        yield lineno, line.split()


def _check_ply(ply: int) -> None:
    if not 0 <= ply <= 3:
        raise fail(f"--ply {ply}: use 0, 1, 2 or 3")


@app.command("eval")
def eval_cmd(
    id: Annotated[Optional[str], typer.Argument(help="Position ID, POSITIONID:MATCHID, or XGID.")] = None,
    ply: Annotated[int, typer.Option("--ply", "-p", help="Lookahead: 0 = static evaluator, 1, 2.")] = 0,
    input: Annotated[Optional[str], typer.Option("--input", "-i", help="File of IDs, one a line ('-' = stdin).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines.")] = False,
) -> None:
    """Cubeless probabilities and equity of a position, player on roll before his roll."""
    from bgtools.core.matchstate import parse_any_id
    from bgtools.core.position import PositionError

    _check_ply(ply)
    if input is None and id is None:
        raise fail("give an ID, or --input FILE")
    from bgtools.engine.evaluation import default_evaluator, evaluate

    ev = default_evaluator()
    items = list(_batch_items(input, 1, "ID")) if input is not None else [(0, [id])]
    errors = 0
    for lineno, parts in items:
        where = f"line {lineno}: " if lineno else ""
        try:
            if len(parts) != 1:
                raise ValueError(f"expected one ID, got {' '.join(parts)!r}")
            pos, _ = parse_any_id(parts[0])
        except (PositionError, ValueError) as e:
            typer.echo(f"bgtools: error: {where}{e}", err=True)
            errors += 1
            continue
        e = evaluate(pos, ply, ev)
        if as_json or input is not None:
            typer.echo(json.dumps({"id": parts[0], "probs": list(e.probs), "equity": e.equity, "ply": e.ply,
                                   "evaluator": e.evaluator_version}))
        else:
            w, wg, wbg, lg, lbg = e.probs
            typer.echo(f"{parts[0]}  {ply}-ply  ({e.evaluator_version})")
            typer.echo(f"  win {w:.4f}  gammon {wg:.4f}  backgammon {wbg:.4f}")
            typer.echo(f"  lose {1 - w:.4f}  gammon {lg:.4f}  backgammon {lbg:.4f}")
            typer.echo(f"  cubeless equity {e.equity:+.4f}")
    if errors:
        raise typer.Exit(2)


@app.command()
def hint(
    id: Annotated[Optional[str], typer.Argument(help="Position ID, POSITIONID:MATCHID, or XGID.")] = None,
    dice: Annotated[Optional[str], typer.Argument(help="The roll, e.g. 31.")] = None,
    ply: Annotated[int, typer.Option("--ply", "-p", help="Lookahead: 0 = static evaluator, 1, 2.")] = 0,
    input: Annotated[Optional[str], typer.Option("--input", "-i", help="File of 'ID DICE' lines ('-' = stdin).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines.")] = False,
) -> None:
    """Rank the legal plays of a roll by cubeless equity, best first, with the difference to the best."""
    from bgtools.core.matchstate import parse_any_id
    from bgtools.core.position import PositionError

    _check_ply(ply)
    if input is None and (id is None or dice is None):
        raise fail("give ID and DICE, or --input FILE")
    from bgtools.engine.evaluation import default_evaluator, rank_plays

    ev = default_evaluator()
    items = list(_batch_items(input, 2, "ID DICE")) if input is not None else [(0, [id, dice])]
    errors = 0
    for lineno, parts in items:
        where = f"line {lineno}: " if lineno else ""
        try:
            if len(parts) != 2:
                raise ValueError(f"expected 'ID DICE', got {' '.join(parts)!r}")
            pos, _ = parse_any_id(parts[0])
            d = _parse_dice(parts[1])
        except (PositionError, ValueError) as e:
            typer.echo(f"bgtools: error: {where}{e}", err=True)
            errors += 1
            continue
        ranked = rank_plays(pos, d, ply, ev)
        if as_json or input is not None:
            typer.echo(json.dumps({"id": parts[0], "dice": f"{d[0]}{d[1]}",
                                   "evaluator": f"{ev.name} {ev.version}",
                                   "plays": [r.to_dict() for r in ranked]}))
            continue
        typer.echo(f"{parts[0]} {d[0]}{d[1]}  ({ev.name} {ev.version})")
        if not ranked:
            typer.echo("  (no legal play)")
        for i, r in enumerate(ranked, start=1):
            diff = "" if i == 1 else f"({r.diff:+.4f})"
            typer.echo(f"{i:4d}. {r.ply}-ply {r.play.notation():<28} {r.equity:+.4f} {diff}")
    if errors:
        raise typer.Exit(2)


# --------------------------------------------------------------------------- rollout
@app.command()
def rollout(
    ids: Annotated[Optional[List[str]], typer.Argument(help="Position IDs, POSITIONID:MATCHID, or XGIDs.")] = None,
    input: Annotated[Optional[str], typer.Option("--input", "-i", help="File of IDs, one a line, or a CSV with an id column ('-' = stdin).")] = None,
    trials: Annotated[int, typer.Option("--trials", "-n", help="Games per position.")] = 1296,
    seed: Annotated[int, typer.Option("--seed", help="Dice seed: same seed, same dice, same results.")] = 1,
    ply: Annotated[int, typer.Option("--ply", "-p", help="Checker play: 0 or 1 ply.")] = 0,
    cubeful: Annotated[bool, typer.Option("--cubeful/--cubeless", help="Play with the cube (money or the match score).")] = False,
    truncate: Annotated[int, typer.Option("--truncate", help="Stop after N half-moves and evaluate (0 = play to the end).")] = 0,
    vr: Annotated[bool, typer.Option("--vr/--no-vr", help="Variance reduction.")] = False,
    bearoff: Annotated[bool, typer.Option("--bearoff-truncation/--no-bearoff-truncation", help="Stop where the two-sided bear-off database is exact.")] = True,
    workers: Annotated[Optional[int], typer.Option("--workers", "-w", help="Local worker processes (default: all cores).")] = None,
    dask: Annotated[Optional[str], typer.Option("--dask", help="Address of a dask.distributed scheduler to send the work to.")] = None,
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="Append one record per position (.csv, else JSON lines).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Skip positions already in --output with the same settings.")] = False,
    weights: Annotated[Optional[str], typer.Option("--weights", help="Network weights (.npz) instead of the shipped net.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines on stdout.")] = False,
) -> None:
    """Roll out positions: probabilities, cubeless/cubeful equity and match winning chances, with standard errors."""
    import os
    import time

    from bgtools.core.matchstate import parse_any_id
    from bgtools.core.position import PositionError

    if not ids and input is None:
        raise fail("give IDs, or --input FILE")
    if resume and output is None:
        raise fail("--resume needs --output")
    if workers is not None and workers < 1:
        raise fail(f"--workers {workers}: use 1 or more")
    if dask is not None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise fail("--dask needs dask.distributed: pip install 'bgtools[dask]'")
    from bgtools.rollouts.rollout import Job, OutputFile, RolloutError, RolloutSettings, read_id_file, rollout_many

    try:
        settings = RolloutSettings(trials=trials, seed=seed, ply=ply, cubeful=cubeful, truncate=truncate,
                                   variance_reduction=vr, bearoff_truncation=bearoff)
    except RolloutError as e:
        raise fail(str(e))
    items: list[tuple[str, str]] = []
    if input is not None:
        if input != "-" and not Path(input).is_file():
            raise fail(f"{input}: no such file")
        try:
            items += [(f"line {n}: ", t) for n, t in read_id_file(input)]
        except (RolloutError, UnicodeDecodeError, OSError) as e:
            raise fail(str(e))
    items += [("", t) for t in ids or []]
    jobs, labels = [], []
    for where, text in items:
        try:
            pos, ms = parse_any_id(text)
            jobs.append(Job.make(pos, ms))
        except (PositionError, RolloutError, ValueError) as e:
            raise fail(f"{where}{text}: {e}")
        labels.append(text)
    if weights is not None:
        from bgtools.engine.nn import Weights

        try:
            net = Weights.load(weights)
        except (OSError, ValueError, KeyError) as e:
            raise fail(f"{weights}: not a bgtools weights file ({e})")
    else:
        from bgtools.engine.nn import load_default_network

        default = load_default_network()
        if default is None:
            raise fail("no shipped network: pass --weights FILE")
        net = default.weights
    evaluator = str(net.meta.get("version", "nn"))
    out = None
    if output is not None:
        try:
            out = OutputFile(output, resume)
        except (RolloutError, OSError, UnicodeDecodeError) as e:
            raise fail(f"{output}: {e}" if not str(e).startswith(output) else str(e))
    todo = list(range(len(jobs)))
    if out is not None and out.done:
        have: dict = {}
        for k in out.done:
            have[k] = have.get(k, 0) + 1
        todo = []
        for i, lab in enumerate(labels):
            k = out.key(lab, settings, evaluator)
            if have.get(k, 0) > 0:
                have[k] -= 1
            else:
                todo.append(i)
    n_workers = workers or os.cpu_count() or 1

    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    progress = Progress(TextColumn("rollout"), BarColumn(), TextColumn("{task.fields[pos]} positions"),
                        TextColumn("{task.fields[rate]} games/s"), TimeRemainingColumn(), console=console,
                        disable=not console.is_terminal, transient=False)
    total_games = len(todo) * trials
    t0 = time.perf_counter()
    state = {"games": 0, "pos": 0}
    task = progress.add_task("rollout", total=total_games, pos=f"0/{len(todo)}", rate="-")

    def on_chunk(j: int, n: int) -> None:
        state["games"] += n
        dt = time.perf_counter() - t0
        progress.update(task, advance=n, rate=f"{state['games'] / dt:,.0f}" if dt > 0 else "-")

    try:
        with progress:
            results = rollout_many([jobs[i] for i in todo], settings, net, workers=n_workers, dask=dask,
                                   on_chunk=on_chunk)
            for i, res in zip(todo, results):
                rec = res.record(evaluator)
                state["pos"] += 1
                progress.update(task, pos=f"{state['pos']}/{len(todo)}")
                if out is not None:
                    out.write(labels[i], rec)
                elif as_json or len(jobs) > 1:
                    typer.echo(json.dumps({"id": labels[i], **rec}))
                else:
                    _print_rollout(labels[i], res, evaluator)
    except RolloutError as e:
        raise fail(str(e))
    except OSError as e:
        raise fail(f"{dask or 'rollout'}: {e}")
    finally:
        if out is not None:
            out.close()


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


bearoff_app = typer.Typer(help="Bear-off databases.", no_args_is_help=True)
app.add_typer(bearoff_app, name="bearoff")


@bearoff_app.command("build")
def bearoff_build() -> None:
    """Build the one- and two-sided bear-off databases into the cache now."""
    from bgtools.engine.bearoff import build_databases, save_databases

    db = build_databases()
    try:
        path = save_databases(db)
    except OSError as e:
        raise fail(f"cannot write the bear-off cache: {e.strerror or e}")
    typer.echo(f"one-sided: 54264 positions in {db.build_seconds['one_sided']:.1f} s; "
               f"two-sided: 924 x 924 positions in {db.build_seconds['two_sided']:.1f} s")
    typer.echo(f"saved {path}")


@app.command()
def board(
    id: Annotated[str, typer.Argument(help="Position ID, POSITIONID:MATCHID, or XGID.")],
    output: Annotated[str, typer.Option("-o", "--output", help="SVG file to write ('-' = stdout).")] = "-",
    play: Annotated[Optional[str], typer.Option("--play", help="Draw this play as arrows, e.g. '8/5 6/5' (needs --dice).")] = None,
    dice: Annotated[Optional[str], typer.Option("--dice", help="The roll of --play, e.g. 31.")] = None,
) -> None:
    """Draw a position as an SVG board diagram (player on roll at the bottom)."""
    from bgtools.core.matchstate import parse_any_id
    from bgtools.core.position import PositionError
    from bgtools.analysis.svg import board_svg

    try:
        pos, ms = parse_any_id(id)
        steps = None
        caption = ""
        if play is not None:
            if dice is None:
                raise fail("--play needs --dice")
            from bgtools.core.moveparse import parse_play

            roll = _parse_dice(dice)
            made = parse_play(pos, roll, play)
            steps, caption = made.steps, f"{roll[0]}{roll[1]}: {made.notation()}"
    except (PositionError, ValueError) as e:
        raise fail(str(e))
    svg = board_svg(pos, play=steps, caption=caption, cube=(ms.cube if ms else None))
    if output == "-":
        typer.echo(svg)
        return
    from bgtools.base.fileio import atomic_write

    atomic_write(output, svg)


# --------------------------------------------------------------------------- annotate / report
@app.command()
def annotate(
    paths: Annotated[List[str], typer.Argument(help="Match files, folders or globs.")],
    json_lines: Annotated[bool, typer.Option("--json", help="Write one JSON line per decision to stdout.")] = False,
    outdir: Annotated[Optional[str], typer.Option("--output", "-o", help="Folder for the analysis files.")] = None,
    formats: Annotated[str, typer.Option("--format", "-f", help="With -o, comma-separated: json (match + "
                                         "analysis), jsonl, csv, parquet, sgf (gnubg properties), html.")] = "json",
    ply: Annotated[int, typer.Option("--ply", help="Search depth 0-3 (2 = gnubg's default analysis).")] = 2,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Analyse files in N processes (0 = one per CPU).")] = 1,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not read or fill the evaluation cache.")] = False,
    all_rows: Annotated[bool, typer.Option("--all", help="JSON lines also for forced plays and clear cube "
                                           "positions.")] = False,
) -> None:
    """Analyse matches like gnubg's "analyse match": checker and cube errors, luck, ratings (docs/analysis.md).

    Without --json or -o, prints a summary per player.  Files with errors are reported on
    stderr (their good games are analysed) and the exit status is 1.
    """
    import glob
    import os

    from bgtools.analysis.annotate import OUTPUT_FORMATS, annotate_file, output_paths
    from bgtools.analysis.records import AnalysisSettings

    _check_ply(ply)
    fmts = [f.strip().lower() for f in formats.split(",") if f.strip()]
    for f in fmts:
        if f not in OUTPUT_FORMATS:
            raise fail(f"--format {f}: use {', '.join(OUTPUT_FORMATS)}")
    if "parquet" in fmts and outdir:
        try:
            import pyarrow.parquet  # noqa: F401
        except ImportError:
            raise fail("writing Parquet needs pyarrow: pip install pyarrow")
    if jobs < 0:
        raise fail(f"--jobs {jobs}: expected 0 (one per CPU) or more")
    jobs = jobs or os.cpu_count() or 1
    for p in paths:
        if not os.path.exists(p) and not glob.glob(p, recursive=True):
            raise fail(f"{p}: no such file or folder")
    from bgtools.formats.read import expand_paths

    files = list(expand_paths(paths))
    if not files:
        raise fail(f"no match files found in {' '.join(paths)}")
    if outdir:
        try:
            os.makedirs(outdir, exist_ok=True)
        except OSError as e:
            raise fail(f"{outdir}: cannot create the folder: {e.strerror or e}")
    settings = AnalysisSettings(ply=ply)
    tasks, seen = [], {}
    for f in files:
        outs = {}
        if outdir:
            outs = output_paths(f, outdir, fmts)
            key = tuple(outs.values())
            if key in seen:
                seen[key] += 1
                stem = os.path.basename(next(iter(outs.values()))).split(".")[0] + f"-{seen[key]}"
                outs = output_paths(f, outdir, fmts, stem=stem)
            else:
                seen[key] = 1
        tasks.append((f, outs, settings, not no_cache, json_lines, all_rows))
    progress = _rich_progress(len(tasks)) if sys.stderr.isatty() else None
    results = []
    problems = 0

    def handle(res) -> None:
        nonlocal problems
        for line in res.lines:
            typer.echo(line)
        for prob in res.problems:
            problems += 1
            typer.echo(f"bgtools: error: {prob}", err=True)
        results.append(res)

    from contextlib import nullcontext

    with (progress or nullcontext(lambda: None)) as advance:
        if jobs == 1 or len(tasks) == 1:
            for t in tasks:
                handle(annotate_file(t))
                advance()
        else:
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(max_workers=min(jobs, len(tasks))) as pool:
                for res in pool.map(annotate_file, tasks):
                    handle(res)
                    advance()
    if not json_lines and not outdir:
        for res in results:
            for s in res.summary:
                typer.echo(f"{res.path}: {s['name']}: {s['unforced_moves']} unforced moves, error rate "
                           f"{1000 * s['checker_error_rate']:.1f}, {s['cube_decisions']} cube decisions, "
                           f"error rate {1000 * s['cube_error_rate']:.1f}; overall {1000 * s['error_rate']:.1f} "
                           f"({s['rating']}), PR {s['pr']:.1f}; luck {s['luck']:+.3f}; errors "
                           f"{s['checker_errors']['doubtful']}/{s['checker_errors']['bad']}/"
                           f"{s['checker_errors']['very bad']} (doubtful/bad/very bad)")
    if outdir:
        n = sum(len(r.written) for r in results)
        typer.echo(f"bgtools: {n} file(s) written to {outdir}", err=True)
    if problems:
        raise typer.Exit(1)


@app.command()
def report(
    match_file: Annotated[str, typer.Argument(help="A match file (.mat, .sgf, .txt, .json).")],
    out: Annotated[str, typer.Option("--output", "-o", help="The HTML file to write.")],
    ply: Annotated[int, typer.Option("--ply", help="Search depth 0-3.")] = 2,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not use the evaluation cache.")] = False,
) -> None:
    """One self-contained HTML page: summary, equity chart and a board diagram for each error."""
    import os

    from bgtools.analysis.annotate import annotate_file
    from bgtools.analysis.records import AnalysisSettings

    _check_ply(ply)
    if not os.path.isfile(match_file):
        raise fail(f"{match_file}: no such file")
    if not os.path.isdir(os.path.dirname(os.path.abspath(out))):
        raise fail(f"{out}: the folder does not exist")
    res = annotate_file((match_file, {"html": out}, AnalysisSettings(ply=ply), not no_cache, False, False))
    for prob in res.problems:
        typer.echo(f"bgtools: error: {prob}", err=True)
    if not res.written:
        raise typer.Exit(2)
    typer.echo(f"bgtools: report written to {out}", err=True)
    if res.problems:
        raise typer.Exit(1)


def main() -> None:
    """Entry point of the ``bgtools`` script."""
    app()


if __name__ == "__main__":
    main()
