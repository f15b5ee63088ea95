"""``annotate`` and ``report``: match analysis like gnubg's "analyse match"."""

from __future__ import annotations

import os
import sys
from contextlib import closing, nullcontext
from typing import List, Optional

import typer
from typing_extensions import Annotated

from bgtools.cli.common import (EXIT_ERRORS, EXIT_USAGE, check_ply, chosen_met, error, fail, note, os_message,
                                output_file_ok, resolve_jobs, rich_progress, warning)
from bgtools.cli.matches import match_files

PLY_HELP = "Search depth 0-3 for checker plays (2 = gnubg's default analysis; 3 is slow)."
LEVEL_HELP = ("A tier plan instead of one --ply: fast (0 ply), strong (2 ply, the default), deep (3 ply for close "
              "decisions), rollout (deep, then errors and close decisions rolled out); docs/analysis.md.")
PR_HELP = ("PR convention shown first: bgtools (every unforced decision) or xg (obvious decisions left out as "
           "eXtreme Gammon does; XG's own PR rebuilt from an analysed .xg file beside it).")
#: cube decisions are analysed through the match equity table, which covers this many points
MET_POINTS = 25


def summary_lines(res, pr: str = "bgtools") -> list[str]:
    """The text summary of one analysed file: result, then a line per player with units (``pr``:
    "xg" adds each player's PR in XG's convention)."""
    out = []
    if res.summary:
        p0, p1 = (n or f"player {i}" for i, n in enumerate(res.players))
        s0, s1 = res.final_score
        length = "money session" if res.length == 0 else f"{res.length}-point match"
        if res.length and max(s0, s1) >= res.length:
            who = f"{p0 if s0 > s1 else p1} won {max(s0, s1)}-{min(s0, s1)}"
        else:
            who = "unfinished"
        out.append(f"{res.path}: {length}, {p0} vs {p1}, final score {s0}-{s1} ({who})")
        if res.length > MET_POINTS:
            out.append(f"{res.path}: cube decisions not analysed: the match equity table covers matches up "
                       f"to {MET_POINTS} points, this one is {res.length}")
    for s in res.summary:
        ce = s.checker_errors
        out.append(
            f"{res.path}: {s.name}: checker play: {s.unforced_moves} unforced moves, error rate "
            f"{1000 * s.checker_error_rate:.1f}; cube: {s.cube_decisions} decisions, error rate "
            f"{1000 * s.cube_error_rate:.1f}; overall error rate {1000 * s.error_rate:.1f} "
            f"({s.rating}), PR {s.pr:.1f}; luck {s.luck:+.3f}; checker errors "
            f"{ce['doubtful']}/{ce['bad']}/{ce['very bad']} (doubtful/bad/very bad)")
    if pr == "xg":
        for x in res.xg_pr:
            ours = "-" if x.pr is None else f"{x.pr:.1f}"
            line = f"{res.path}: {x.name}: PR in XG's convention {ours} ({x.counted} decisions counted)"
            if x.file_counted:
                line += f"; XG's own PR rebuilt from the file {x.file_pr:.1f} ({x.file_counted} counted)"
            out.append(line)
    lv = res.level
    if lv:
        tiers = ", ".join(f"{k} {lv['revalued'][k]} ({100 * lv['share'][k]:.0f}%, {lv['cpu_seconds'][k]:.0f} CPU s)"
                          for k in lv["revalued"])
        roll = (f"; rollouts of {lv['rollout_trials']} trials truncated at {lv['rollout_truncate']} half-moves"
                if "rollout_trials" in lv else "")
        late = (f"; {lv['endgame_settled']} late-game plays settled at the screen by rollouts of up to "
                f"{lv['endgame_trials']} trials" if lv.get("endgame_settled") else "")
        out.append(f"{res.path}: level {lv['name']}: {lv['decisions']} decisions; re-valued per tier: {tiers}{roll}"
                   f"{late}")
    out.extend(f"{res.path}: {line}" for line in res.comparison)
    if res.summary:
        out.append(f"{res.path}: error rates are mean normalised equity lost per decision x1000 (as gnubg's "
                   "mEMG); PR = 500 x mean loss; luck in normalised equity")
    return out


def annotate(
    ctx: typer.Context,
    paths: Annotated[List[str], typer.Argument(help="Match files, folders or globs.", metavar="PATH")],
    json_lines: Annotated[bool, typer.Option("--json", help="Write one JSON line per decision to stdout.")] = False,
    outdir: Annotated[Optional[str], typer.Option("--out-dir", "-d", metavar="FOLDER",
                                                  help="Folder for the analysis files (one set per match, named after it as convert names its outputs: a.mat -> a.report.html; inputs sharing a name keep their suffix or get -2).")] = None,
    output: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE",
                                                  help="One analysis file for one match, in the one --format "
                                                  "given.")] = None,
    formats: Annotated[str, typer.Option("--format", "-f", metavar="FORMATS",
                                         help="With --out-dir or -o, comma-separated: json (match + analysis), "
                                         "jsonl, csv, parquet, sgf (gnubg properties), html.")] = "json",
    ply: Annotated[Optional[int], typer.Option("--ply", help=PLY_HELP + " [default: 2]")] = None,
    level: Annotated[Optional[str], typer.Option("--level", metavar="LEVEL", help=LEVEL_HELP)] = None,
    rollout_trials: Annotated[int, typer.Option("--rollout-trials", metavar="N",
                                                help="Trials per candidate in the rollout level's rollouts.")] = 432,
    endgame_trials: Annotated[Optional[int], typer.Option("--endgame-trials", metavar="N",
                                                help="At 2 and 3 ply, settle the close plays of races and crashed "
                                                "positions by rollouts to the end of at most N trials each, stopping "
                                                "once the best is clear (0 = off: the search's values alone; "
                                                "docs/analysis.md).  [default: 648]")] = None,
    pr: Annotated[str, typer.Option("--pr", metavar="CONVENTION", help=PR_HELP)] = "bgtools",
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Analyse files in N processes (0 = one per CPU).")] = 1,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not read or fill the evaluation cache.")] = False,
    no_prune: Annotated[bool, typer.Option("--no-prune", help="Value every reply with the full net inside the "
                                           "search (slower), not only those the pruning net ranks first.")] = False,
    all_rows: Annotated[bool, typer.Option("--all", help="JSON lines also for forced plays and clear cube "
                                           "positions.")] = False,
    dask: Annotated[Optional[str], typer.Option("--dask", metavar="ADDRESS", help="Address of a dask.distributed "
                                                "scheduler: one task per file there (same output).")] = None,
) -> None:
    """Analyse matches like gnubg's "analyse match": checker and cube errors, luck, ratings (docs/analysis.md).

    Without --json, --out-dir or -o, prints a summary per match and player.  Files with
    errors are reported on stderr (their good games are analysed) and the exit status is 1;
    2 when a file cannot be read at all.
    """
    from bgtools.analysis.annotate import OUTPUT_FORMATS, AnnotateTask, annotate_files, output_paths, plan_output_paths
    from bgtools.analysis.records import LEVELS, AnalysisSettings
    from bgtools.analysis.xgpr import PR_CONVENTIONS
    from bgtools.base.parallel import ParallelError

    if ply is not None and level is not None:
        raise fail("give --level or --ply, not both")
    check_ply(2 if ply is None else ply)
    if level is not None and level not in LEVELS:
        raise fail(f"--level {level}: use {', '.join(LEVELS)}")
    if pr not in PR_CONVENTIONS:
        raise fail(f"--pr {pr}: use {' or '.join(PR_CONVENTIONS)}")
    if not 2 <= rollout_trials <= 1_000_000:
        raise fail(f"--rollout-trials {rollout_trials}: use 2 to 1000000")
    if endgame_trials is None:
        endgame_trials = AnalysisSettings().endgame_trials
    elif endgame_trials != 0 and not 2 <= endgame_trials <= 1_000_000:
        raise fail(f"--endgame-trials {endgame_trials}: use 0 (off) or 2 to 1000000")
    fmts = [f.strip().lower() for f in formats.split(",") if f.strip()]
    for f in fmts:
        if f not in OUTPUT_FORMATS:
            raise fail(f"--format {f}: use {', '.join(OUTPUT_FORMATS)}")
    if outdir and output:
        raise fail("give --out-dir FOLDER or -o FILE, not both")
    if output is not None:
        if os.path.isdir(output):
            raise fail(f"{output}: is a folder; -o takes a file name (use --out-dir for a folder)")
        if len(fmts) != 1:
            raise fail(f"-o {output}: give one --format (several formats need --out-dir)")
        output_file_ok(output)
    if "parquet" in fmts and (outdir or output):
        try:
            import pyarrow.parquet  # noqa: F401
        except ImportError:
            raise fail("writing Parquet needs pyarrow: pip install pyarrow")
    jobs = resolve_jobs("--jobs", jobs)
    files = match_files(paths, allow_stdin=False)
    if output is not None and len(files) != 1:
        raise fail(f"-o {output}: {len(files)} match files; use --out-dir for several")
    if not (outdir or output) and formats != "json":
        note(f"--format {formats} writes files only with --out-dir FOLDER or -o FILE; "
             + ("writing JSON lines to stdout" if json_lines else "printing the summary instead"))
    if outdir:
        if os.path.exists(outdir) and not os.path.isdir(outdir):
            raise fail(f"{outdir}: is a file; --out-dir takes a folder")
        try:
            os.makedirs(outdir, exist_ok=True)
        except OSError as e:
            raise fail(f"{outdir}: cannot create the folder: {os_message(e)}")
        if not os.access(outdir, os.W_OK | os.X_OK):
            raise fail(f"{outdir}: cannot write: permission denied")
    settings = AnalysisSettings(ply=2 if ply is None else ply, prune=not no_prune, level=level,
                                rollout_trials=rollout_trials, endgame_trials=endgame_trials, met=chosen_met(ctx))
    tasks: list[AnnotateTask] = []
    named = plan_output_paths(files, outdir, fmts) if outdir else [{} for _ in files]
    for f, outs in zip(files, named):
        if output:
            outs = {fmts[0]: output}
        elif outdir and outs != output_paths(f, outdir, fmts):
            note(f"{f}: written to {next(iter(outs.values()))} (another input has the same name)")
        tasks.append(AnnotateTask(f, outs, settings, use_cache=not no_cache, want_lines=json_lines, all_rows=all_rows,
                                  pr=pr))
    progress = rich_progress(len(tasks), "analysing") if sys.stderr.isatty() else None
    written = 0
    status = 0
    summary = not json_lines and not (outdir or output)

    def handle(res) -> None:
        nonlocal status, written
        for prob in res.problems:
            error(prob.plain())
        for w in res.warnings:
            warning(w.plain())
        if res.problems:
            status = EXIT_USAGE if not res.summary else max(status, EXIT_ERRORS)
        written += len(res.written)
        if summary:
            for line in summary_lines(res, pr):
                typer.echo(line)

    try:
        with (progress or nullcontext(lambda: None)) as advance, \
                closing(annotate_files(tasks, jobs=min(jobs, len(tasks)), dask=dask, emit=typer.echo)) as results:
            for res in results:
                handle(res)
                advance()
    except ParallelError as e:
        raise fail(str(e))
    except OSError as e:
        raise fail(f"{e.filename or outdir or output}: cannot write: {os_message(e)}")
    if outdir or output:
        note(f"{written} file(s) written to {outdir or output}")
    if status:
        raise typer.Exit(status)


def report(
    ctx: typer.Context,
    match_file: Annotated[str, typer.Argument(help="A match file (.mat, .sgf, .txt, .json).", metavar="MATCH")],
    out: Annotated[str, typer.Option("--output", "-o", metavar="FILE", help="The HTML file to write.")],
    ply: Annotated[int, typer.Option("--ply", help=PLY_HELP)] = 2,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not use the evaluation cache.")] = False,
) -> None:
    """One self-contained HTML page: summary, equity chart and a board diagram for each error."""
    from bgtools.analysis.annotate import AnnotateTask, annotate_file
    from bgtools.analysis.records import AnalysisSettings

    check_ply(ply)
    if not os.path.isfile(match_file):
        raise fail(f"{match_file}: no such file")
    output_file_ok(out)
    try:
        res = annotate_file(AnnotateTask(match_file, {"html": out}, AnalysisSettings(ply=ply, met=chosen_met(ctx)),
                                         use_cache=not no_cache))
    except OSError as e:
        raise fail(f"{out}: cannot write: {os_message(e)}")
    for prob in res.problems:
        error(prob.plain())
    for w in res.warnings:
        warning(w.plain())
    if not res.written:
        raise typer.Exit(EXIT_USAGE)
    note(f"report written to {out}")
    if res.problems:
        raise typer.Exit(EXIT_ERRORS)
