"""``eval``, ``hint`` and ``bearoff build``: the evaluator on single positions."""

from __future__ import annotations

from typing import Optional

import typer

from bgtools.base import jsonout
from typing_extensions import Annotated

from bgtools.cli.common import EXIT_USAGE, check_ply, chosen_met, fail, input_items, note, os_message, parse_dice, run_lines

ID_HELP = "Position ID, POSITIONID:MATCHID, or XGID."
PLY_HELP = "Lookahead 0-3: 0 = static evaluator, 1-3 = plies of search (3 is slow)."


def _rolled(ms) -> Optional[tuple[int, int]]:
    return None if ms is None or tuple(ms.dice) == (0, 0) else (int(ms.dice[0]), int(ms.dice[1]))


CUBE_HELP = "Show the cube decision (default) or only the cubeless numbers."
JACOBY_HELP = "Money: the Jacoby rule (gammons count single until the cube is turned); default: the ID's, else on."
BEAVERS_HELP = "Money: beavers allowed; default: the XGID's, else on."


def _is_xgid(text: str) -> bool:
    return text.strip().upper().startswith("XGID=") or text.count(":") >= 8


def _print_assessment(label: str, a, ply: int) -> None:
    e = a.evaluation
    w, wg, wbg, lg, lbg = e.probs
    typer.echo(f"{label}  {ply}-ply  ({e.evaluator_version})")
    typer.echo(f"  win {w:.4f}  gammon {wg:.4f}  backgammon {wbg:.4f}")
    typer.echo(f"  lose {1 - w:.4f}  gammon {lg:.4f}  backgammon {lbg:.4f}")
    typer.echo(f"  cubeless equity {e.equity:+.4f}")
    for line in a.cube_lines():
        typer.echo(line)


def eval_cmd(
    ctx: typer.Context,
    id: Annotated[Optional[str], typer.Argument(help=ID_HELP, metavar="ID")] = None,
    ply: Annotated[int, typer.Option("--ply", "-p", help=PLY_HELP)] = 0,
    input: Annotated[Optional[str], typer.Option("--input", "-i", metavar="FILE",
                                                 help="File of IDs, one a line ('-' = stdin).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines instead of text.")] = False,
    cube: Annotated[bool, typer.Option("--cube/--no-cube", help=CUBE_HELP)] = True,
    jacoby: Annotated[Optional[bool], typer.Option("--jacoby/--no-jacoby", help=JACOBY_HELP)] = None,
    beavers: Annotated[Optional[bool], typer.Option("--beavers/--no-beavers", help=BEAVERS_HELP)] = None,
) -> None:
    """Probabilities, cubeless equity and the cube decision of a position, player on roll before his roll
    (cube decisions at 0-2 ply, by a cubeful lookahead)."""
    from bgtools.core.matchstate import parse_any_id

    check_ply(ply)
    if input is None and id is None:
        raise fail("give an ID, or --input FILE")
    from bgtools.engine.assess import assess_position
    from bgtools.engine.evaluation import default_evaluator

    ev = default_evaluator()
    met = chosen_met(ctx)

    def handle(parts: list[str]) -> None:
        if len(parts) != 1:
            raise ValueError(f"expected one ID, got {' '.join(parts)!r}")
        pos, ms = parse_any_id(parts[0])
        rolled = _rolled(ms)
        if rolled is not None:
            note(f"{parts[0]}: ignoring the rolled dice {rolled[0]}{rolled[1]}: eval is before the roll "
                 "(use hint for the plays of a roll)")
        a = assess_position(pos, ms, ply, evaluator=ev, cube=cube, jacoby=jacoby, beavers=beavers,
                            id_sets_beavers=_is_xgid(parts[0]), met=met)
        if as_json:
            typer.echo(jsonout.dumps({"id": parts[0], **a.to_dict()}))
            return
        _print_assessment(parts[0], a, ply)

    if run_lines(input_items(input, [id]), handle):
        raise typer.Exit(EXIT_USAGE)


def hint(
    ctx: typer.Context,
    id: Annotated[Optional[str], typer.Argument(help=ID_HELP, metavar="ID")] = None,
    dice: Annotated[Optional[str], typer.Argument(help="The roll, e.g. 31 (default: the dice of an XGID "
                                                  "or Match ID that has them).", metavar="DICE")] = None,
    ply: Annotated[int, typer.Option("--ply", "-p", help=PLY_HELP)] = 0,
    input: Annotated[Optional[str], typer.Option("--input", "-i", metavar="FILE",
                                                 help="File of 'ID [DICE]' lines ('-' = stdin).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines instead of a table.")] = False,
    jacoby: Annotated[Optional[bool], typer.Option("--jacoby/--no-jacoby", help=JACOBY_HELP)] = None,
    beavers: Annotated[Optional[bool], typer.Option("--beavers/--no-beavers", help=BEAVERS_HELP)] = None,
    rolls: Annotated[bool, typer.Option("--rolls", help="The best play and its equity for each of the 21 rolls "
                                        "(ranked as for one roll), with its margin over the second best.")] = False,
) -> None:
    """Rank the legal plays of a roll best first (money: cubeless equity; at a match score: cubeful equity at
    that score), with the difference to the best;
    with no dice (and none in the ID), the cube decision before the roll; with --rolls, the best play of every roll."""
    from bgtools.core.matchstate import parse_any_id

    check_ply(ply)
    if input is None and id is None:
        raise fail("give ID and DICE, or --input FILE")
    from bgtools.engine.evaluation import default_evaluator, rank_plays

    ev = default_evaluator()
    met = chosen_met(ctx)

    def handle(parts: list[str]) -> None:
        if len(parts) not in (1, 2):
            raise ValueError(f"expected 'ID DICE', got {' '.join(parts)!r}")
        pos, ms = parse_any_id(parts[0])
        if rolls:
            if len(parts) == 2:
                raise ValueError("--rolls shows every roll: give no dice")
            _print_rolls(parts[0], pos, ms, ply, ev, as_json, met)
            return
        rolled = parse_dice(parts[1]) if len(parts) == 2 else _rolled(ms)
        if rolled is None:  # before the roll: the question is the cube
            from bgtools.engine.assess import assess_position

            a = assess_position(pos, ms, ply, evaluator=ev, jacoby=jacoby, beavers=beavers,
                                id_sets_beavers=_is_xgid(parts[0]), met=met)
            if as_json:
                typer.echo(jsonout.dumps({"id": parts[0], **a.to_dict()}))
            else:
                _print_assessment(parts[0], a, ply)
            return
        d = rolled
        if ms is not None and not ms.is_money:  # at a match score gammons count as the score says
            from bgtools.engine.cubeful.scoreplay import rank_plays_at_score

            ranked = rank_plays_at_score(pos, d, ms, ply, ev, met=met)
            away = ms.away
            me = ms.player_on_roll
            equity_at = f"{ms.match_length}-point match, {away[me]}-away {away[1 - me]}-away"
        else:
            ranked = rank_plays(pos, d, ply, ev)
            equity_at = "money, cubeless"
        if as_json:
            typer.echo(jsonout.dumps({"id": parts[0], "dice": f"{d[0]}{d[1]}",
                                   "evaluator": f"{ev.name} {ev.version}", "equity_at": equity_at,
                                   "plays": [r.to_dict() for r in ranked]}))
            return
        typer.echo(f"{parts[0]} {d[0]}{d[1]}  ({ev.name} {ev.version}; equity: {equity_at})")
        if not ranked:
            typer.echo("  (no legal play)")
        for i, r in enumerate(ranked, start=1):
            diff = "" if i == 1 else f"({r.diff:+.4f})"
            typer.echo(f"{i:4d}. {r.ply}-ply {r.play.notation():<28} {r.equity:+.4f} {diff}")

    if run_lines(input_items(input, [id] + ([dice] if dice is not None else [])), handle):
        raise typer.Exit(EXIT_USAGE)


def _print_rolls(label: str, pos, ms, ply: int, ev, as_json: bool, met=None) -> None:
    from bgtools.engine.cubeful.scoreplay import best_play_per_roll

    rows = best_play_per_roll(pos, None if ms is None or ms.is_money else ms, ply, ev, met)
    equity_at = "money, cubeless" if ms is None or ms.is_money else (
        f"{ms.match_length}-point match, {ms.away[ms.player_on_roll]}-away {ms.away[1 - ms.player_on_roll]}-away")
    if as_json:
        typer.echo(jsonout.dumps({"id": label, "evaluator": f"{ev.name} {ev.version}", "equity_at": equity_at,
                                  "ply": ply, "rolls": [r.to_dict() for r in rows]}))
        return
    typer.echo(f"{label}  best play of each roll, {ply}-ply  ({ev.name} {ev.version}; equity: {equity_at})")
    typer.echo(f"  roll  {'best play':<28} {'equity':>8} {'margin':>8}  plays")
    for r in rows:
        d = f"{r.dice[0]}{r.dice[1]}"
        if r.best is None:
            typer.echo(f"  {d:>4}  {'(no legal play)':<28}")
            continue
        margin = f"{r.margin:+.4f}" if r.margin is not None else "-"
        typer.echo(f"  {d:>4}  {r.best.play.notation():<28} {r.best.equity:+.4f} {margin:>8}  {r.plays:5d}")


bearoff_app = typer.Typer(help="Bear-off databases.", no_args_is_help=True)


@bearoff_app.command("build")
def bearoff_build() -> None:
    """Build the one- and two-sided bear-off databases into the cache now."""
    from bgtools.engine.bearoff import build_databases, save_databases

    db = build_databases()
    try:
        path = save_databases(db)
    except OSError as e:
        raise fail(f"cannot write the bear-off cache: {os_message(e)}")
    typer.echo(f"one-sided: 54264 positions in {db.build_seconds['one_sided']:.1f} s; "
               f"two-sided: 924 x 924 positions in {db.build_seconds['two_sided']:.1f} s")
    typer.echo(f"saved {path}")
