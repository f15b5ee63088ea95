"""``show``, ``moves`` and ``board``: one position at a time."""

from __future__ import annotations

import json
from typing import Optional

import typer
from typing_extensions import Annotated

from bgtools.cli.common import EXIT_USAGE, fail, input_items, os_message, output_file_ok, parse_dice, run_lines

ID_HELP = "Position ID, POSITIONID:MATCHID, or XGID."


def position_info(pos, state) -> dict:
    """Everything ``show`` prints about a position, as a JSON-ready dict."""
    from bgtools.core.matchstate import to_xgid

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
    from bgtools.engine.cubeful.race import race_report

    info.update(race_report(pos))
    return info


def show(
    id: Annotated[str, typer.Argument(help=ID_HELP, metavar="ID")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object instead of the board.")] = False,
) -> None:
    """Print the board, pip counts, IDs and match state of a position."""
    from bgtools.core.matchstate import GameState, MatchState, parse_any_id
    from bgtools.core.position import PositionError

    try:
        pos, ms = parse_any_id(id)
    except PositionError as e:
        raise fail(str(e))
    s = ms or MatchState(game_state=GameState(1), player_on_roll=1, turn=1)
    info = position_info(pos, s)
    if as_json:
        typer.echo(json.dumps(info))
        return
    typer.echo(pos.ascii())
    typer.echo(f"Position ID: {info['position_id']}   Match ID: {info['match_id']}")
    typer.echo(f"XGID: {info['xgid']}")
    typer.echo(f"Pips: on roll {info['pips'][0]}, opponent {info['pips'][1]}   class: {info['class']}")
    length = "money" if s.is_money else f"{s.match_length}-point match"
    owner = "centred" if s.cube_owner == -1 else f"player {s.cube_owner}"
    dice = "not rolled" if s.dice == (0, 0) else f"{s.dice[0]}{s.dice[1]}"
    typer.echo(
        f"{length}, score {s.score[0]}-{s.score[1]}, cube {s.cube} ({owner}), player {s.player_on_roll} on roll, dice {dice}"
        + (", Crawford game" if s.crawford else "")
    )
    if "race" in info:
        typer.echo(f"Race: {info['race']}")


def moves_record(id_text: str, dice_text: str) -> dict:
    """The legal plays of a position for a roll, as ``moves --json`` writes them."""
    from bgtools.core.matchstate import parse_any_id
    from bgtools.core.movegen import legal_plays

    pos, _ = parse_any_id(id_text)
    dice = parse_dice(dice_text)
    plays = legal_plays(pos, dice)
    return {
        "id": id_text,
        "dice": f"{dice[0]}{dice[1]}",
        "plays": [{"move": p.notation(), "position_id": p.after_id} for p in plays],
    }


def moves(
    id: Annotated[Optional[str], typer.Argument(help=ID_HELP, metavar="ID")] = None,
    dice: Annotated[Optional[str], typer.Argument(help="The roll, e.g. 31.", metavar="DICE")] = None,
    input: Annotated[Optional[str], typer.Option("--input", "-i", metavar="FILE",
                                                 help="File of 'ID DICE' lines ('-' = stdin).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines instead of a table.")] = False,
) -> None:
    """List the legal plays of a position for a roll (or for every line of --input).

    Each play's position_id is the position after the play with the opponent on roll.
    """
    if input is None and (id is None or dice is None):
        raise fail("give ID and DICE, or --input FILE")

    def handle(parts: list[str]) -> None:
        if len(parts) != 2:
            raise ValueError(f"expected 'ID DICE', got {' '.join(parts)!r}")
        rec = moves_record(parts[0], parts[1])
        if as_json:
            typer.echo(json.dumps(rec))
            return
        if input is not None:
            typer.echo(f"{rec['id']} {rec['dice']}:")
        if not rec["plays"]:
            typer.echo("  (no legal play)")
        for i, p in enumerate(rec["plays"], start=1):
            typer.echo(f"{i:4d}. {p['move']:<28} {p['position_id']}")

    if run_lines(input_items(input, [id, dice]), handle):
        raise typer.Exit(EXIT_USAGE)


def board(
    id: Annotated[str, typer.Argument(help=ID_HELP, metavar="ID")],
    output: Annotated[str, typer.Option("-o", "--output", metavar="FILE",
                                        help="SVG file to write ('-' = stdout).")] = "-",
    play: Annotated[Optional[str], typer.Option("--play", metavar="MOVE",
                                                help="Draw this play as arrows, e.g. '8/5 6/5' (needs --dice).")] = None,
    dice: Annotated[Optional[str], typer.Option("--dice", metavar="DICE", help="The roll of --play, e.g. 31.")] = None,
) -> None:
    """Draw a position as an SVG board diagram (player on roll at the bottom)."""
    from bgtools.analysis.svg import board_svg
    from bgtools.base.fileio import atomic_write
    from bgtools.core.matchstate import parse_any_id
    from bgtools.core.moveparse import parse_play

    if play is not None and dice is None:
        raise fail("--play needs --dice")
    output_file_ok(output)
    steps, caption = None, ""
    try:
        pos, ms = parse_any_id(id)
        if play is not None:
            roll = parse_dice(dice or "")
            made = parse_play(pos, roll, play)
            steps, caption = made.steps, f"{roll[0]}{roll[1]}: {made.notation()}"
    except ValueError as e:
        raise fail(str(e))
    svg = board_svg(pos, play=steps, caption=caption, state=ms)
    if output == "-":
        typer.echo(svg)
        return
    try:
        atomic_write(output, svg)
    except OSError as e:
        raise fail(f"{output}: cannot write: {os_message(e)}")
