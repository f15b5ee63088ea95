"""``scoremap``: a position's cube decision at every score of a match and at money."""

from __future__ import annotations

from typing import Optional

import typer
from typing_extensions import Annotated

from bgtools.base import jsonout
from bgtools.cli.common import check_ply, check_range, chosen_met, fail, note, os_message, output_file_ok

ID_HELP = "Position ID, POSITIONID:MATCHID, or XGID (the player on roll decides; its score and cube are ignored)."


def scoremap(
    ctx: typer.Context,
    id: Annotated[str, typer.Argument(help=ID_HELP, metavar="ID")],
    length: Annotated[int, typer.Option("--length", "-n", help="Match length: every score of it is shown.")] = 7,
    ply: Annotated[int, typer.Option("--ply", "-p", help="Cube lookahead 0-2.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="JSON instead of the table.")] = False,
    out: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE.svg",
                                               help="Also draw the grid as an SVG picture ('-' = stdout).")] = None,
    jacoby: Annotated[bool, typer.Option("--jacoby/--no-jacoby", help="Money: the Jacoby rule.")] = True,
    beavers: Annotated[bool, typer.Option("--beavers/--no-beavers", help="Money: beavers allowed.")] = True,
) -> None:
    """The cube action of a position (cube centred) at every score of an N-point match and at money, with the
    no double / double-take / double-pass equities and the double and take margins."""
    from bgtools.core.matchstate import parse_any_id
    from bgtools.engine.cubeful.met import load_met

    met = chosen_met(ctx) or load_met()
    check_ply(ply, 2)
    check_range("--length", length, 1, met.length)
    if out is not None:
        output_file_ok(out)
    try:
        pos, ms = parse_any_id(id)
    except ValueError as e:
        raise fail(f"{id}: {e}")
    if ms is not None and (ms.cube != 1 or ms.cube_owner >= 0):
        note(f"{id}: the map has the cube centred at 1; the ID's cube is ignored")
    from bgtools.analysis.scoremap import score_map

    m = score_map(pos, length, ply, jacoby=jacoby, beavers=beavers, met=met)
    if out is not None:
        from bgtools.base.fileio import atomic_write

        try:
            atomic_write(out, m.svg())
        except OSError as e:
            raise fail(f"{out}: cannot write: {os_message(e)}")
    if out == "-":
        return
    if as_json:
        typer.echo(jsonout.dumps({"id": id, **m.to_dict()}))
        return
    typer.echo(f"{id}  cube action by score, {length}-point match, {ply}-ply (cube centred; a 1-away score is "
               "post-Crawford)")
    for line in m.grid_lines():
        typer.echo(line)
    typer.echo("")
    for line in m.table_lines():
        typer.echo(line)
