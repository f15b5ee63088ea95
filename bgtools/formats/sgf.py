"""gnubg SGF (``GM[6]``) match files: reader and writer.

A match is a collection of game trees, one per game.  Points are letters in White's
numbering (``a`` = White's 1-point ... ``x`` = 24, ``y`` = bar, ``z`` = off), so Black's
own point ``p`` is letter ``25 - p``.  White is gnubg player 0 (first-named), Black
player 1.  ``MI[game:n]`` is 0-based as gnubg writes it; resignations appear only in
``RE[W+2R]``; a beaver is a double answered by a double.  Analysis properties
(``A``, ``DA``, ``LU``, ``BM``, ``GS``, ...) are kept as opaque strings: per game in
``Game.props`` and per action in ``Game.notes`` (one dict per action), and written
back unchanged.  Setup nodes (board edits) are not replayed.  Actions read from XG or
BGBlitz files carry the file's analysis, written as gnubg's properties
(:func:`file_analysis_props`).

>>> from bgtools.formats import read_match
>>> m = read_match("(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[A]PB[B];W[31hefe];B[42qusu])")
>>> m.games[0].actions[1]
Roll(player=1, dice=(4, 2), steps=((8, 4), (6, 4)), status='play')
"""

from __future__ import annotations

import re
from typing import Any, Optional

from bgtools.base.version import __version__
from bgtools.formats.metadata import sgf_root_properties, sgf_standard, with_standard
from bgtools.model.fileanalysis import error_class
from bgtools.model.game import Beaver, Double, Drop, Game, Resign, Roll, SetBoard, Take, Win, resign_level
from bgtools.model.match import Match
from bgtools.model.problems import MatchFileError, MatchProblem

__all__ = ["parse_sgf", "format_sgf", "write_sgf", "parse_collection", "file_analysis_props"]

_TOKEN = re.compile(r"\s*(?:(\()|(\))|(;)|([A-Za-z]+)((?:\s*\[(?:[^\]\\]|\\.)*\])+))", re.S)
_VALUE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]", re.S)
_SETUP = {"AE", "AB", "AW", "CV", "CP", "CO"}
_STRUCT = {"W", "B"}


def _unescape(v: str) -> str:
    return re.sub(r"\\(.)", r"\1", v.replace("\\\n", ""))


def _escape(v: str) -> str:
    return v.replace("\\", "\\\\").replace("]", "\\]")


def parse_collection(text: str, file: str = "") -> list[list[tuple[int, dict]]]:
    """Split SGF text into game trees; each a list of ``(line, {prop: [values]})`` nodes.

    Only the main line of each tree is kept (gnubg writes no variations).
    """
    trees: list[list[tuple[int, dict]]] = []
    pos, n = 0, len(text)
    depth = 0
    cur: Optional[list] = None
    node: Optional[dict] = None
    skip_from = 0  # > 0: inside a second or later variation opened at this depth
    closed: set[int] = set()  # depths at which a variation has already been read

    def lineno(i: int) -> int:
        return text.count("\n", 0, i) + 1

    while pos < n:
        m = _TOKEN.match(text, pos)
        if not m:
            rest = text[pos:]
            if not rest.strip():
                break
            col = pos - text.rfind("\n", 0, pos)
            raise MatchFileError(MatchProblem(f"SGF syntax error near {rest.strip()[:20]!r}", file, lineno(pos), col))
        start, pos = m.start(), m.end()
        if m.group(1):
            depth += 1
            if depth == 1:
                cur = []
                trees.append(cur)
                closed = set()
            elif not skip_from and depth in closed:
                skip_from = depth
            node = None
        elif m.group(2):
            if depth == 0:
                raise MatchFileError(MatchProblem("SGF: ')' without '('", file, lineno(start)))
            if skip_from == depth:
                skip_from = 0
            closed.add(depth)
            closed = {d for d in closed if d <= depth}
            depth -= 1
            node = None
        elif m.group(3):
            if cur is None or depth == 0:
                raise MatchFileError(MatchProblem("SGF: node outside a game tree", file, lineno(start)))
            node = None
            if not skip_from:
                node = {}
                cur.append((lineno(start), node))
        else:
            if node is None:
                if skip_from:
                    continue
                raise MatchFileError(MatchProblem(f"SGF: property {m.group(4)} outside a node", file, lineno(start)))
            node.setdefault(m.group(4).upper(), []).extend(_unescape(v) for v in _VALUE.findall(m.group(5)))
    if depth != 0:
        raise MatchFileError(MatchProblem("SGF: unbalanced parentheses (file cut short?)", file, lineno(n)))
    return trees


def _pt(ch: str, player: int) -> int:
    if ch == "y":
        return 25
    if ch == "z":
        return 0
    i = ord(ch) - ord("a") + 1
    if not 1 <= i <= 24:
        raise ValueError(f"{ch!r} is not a point letter a..z")
    return i if player == 0 else 25 - i


def _board_edit(node: dict, line: int, cube: list) -> Optional[SetBoard]:
    """A gnubg setup node (``PL[W]AE[a:y]AW[..]AB[..]``: the board cleared, every checker
    listed) as a :class:`SetBoard`, with the cube of the ``CP``/``CV`` nodes before it
    (``cube`` = [value, owner], None where not set); None for an edit that changes only
    some points (it needs the board before it) or that cannot be read."""
    if [v.strip() for v in node.get("AE", [])] != ["a:y"]:
        return None
    sides = [[0] * 25, [0] * 25]
    try:
        for tag, pl in (("AW", 0), ("AB", 1)):
            for v in node.get(tag, []):
                v = v.strip()
                if len(v) != 1 or v == "z":
                    return None
                sides[pl][_pt(v, pl) - 1] += 1
    except ValueError:
        return None
    if any(sum(side) > 15 for side in sides):
        return None
    pl_text = node.get("PL", ["W"])[0].strip().upper()
    player = 1 if pl_text == "B" else 0
    owner = None if cube[0] is None else (-1 if cube[1] is None else cube[1])
    return SetBoard(player, (tuple(sides[0]), tuple(sides[1])), cube[0], owner, source="sgf", line=line)


def point_letter(p: int, player: int) -> str:
    if p == 25:
        return "y"
    if p == 0:
        return "z"
    return chr(ord("a") + (p if player == 0 else 25 - p) - 1)


def parse_sgf(text: str, file: str = "", strict: bool = False) -> Match:
    """Parse a gnubg SGF collection into an (unreplayed) :class:`Match`."""
    trees = parse_collection(text, file)
    if not trees:
        raise MatchFileError(MatchProblem("no SGF game tree found", file))
    games: list[Game] = []
    players = ("", "")
    length = 0
    jacoby = False
    crawford = True
    root_tags: dict = {}
    file_errors: list[MatchProblem] = []
    for gi, tree in enumerate(trees):
        if not tree:
            continue
        rline, root = tree[0]
        if "GM" in root and root["GM"][0].strip() != "6":
            raise MatchFileError(MatchProblem(f"SGF game {gi + 1} is GM[{root['GM'][0]}], not backgammon (GM[6])",
                                            file, rline))
        mi = {}
        for v in root.get("MI", []):
            if ":" in v:
                k, _, val = v.partition(":")
                mi[k.strip()] = val.strip()
        errors: list[MatchProblem] = []
        try:
            length = int(mi.get("length", length))
            score = (int(mi.get("ws", 0)), int(mi.get("bs", 0)))
            number = int(mi.get("game", gi)) + 1
        except ValueError:
            errors.append(MatchProblem(f"SGF MI{root.get('MI')} values are not numbers", file, rline, 0, gi + 1))
            score, number = (0, 0), gi + 1
        if gi == 0 or players == ("", ""):
            players = (root.get("PW", [""])[0], root.get("PB", [""])[0])
            root_tags = {k: v[0] for k, v in root.items() if k in ("EV", "RO", "PC", "DT", "AN", "GC", "WR", "BR", "GN")}
        rules: set[str] = set()
        for v in root.get("RU", []):
            rules.update(x.strip() for x in v.split(":"))
        if "Jacoby" in rules:
            jacoby = True
        if gi == 0 and length > 0 and "Crawford" not in rules and rules:
            crawford = False
        props = {k: v for k, v in root.items() if k != "CV"}
        actions: list = []
        notes: list = []
        cube, new = 1, None
        if "CV" in root:  # in the game's root: automatic doubles (money play)
            try:
                cube = int(root["CV"][0])
            except ValueError:
                errors.append(MatchProblem(f"SGF CV[{root['CV'][0]}] is not a cube value", file, rline, 0, number))
        initial_cube = cube
        setup = False
        resign_offer = False
        nodes = tree[1:]
        # gnubg puts some root data in the first node; moves may also sit in the root
        if "W" in root or "B" in root:
            nodes = [(rline, {k: v for k, v in root.items() if k in _STRUCT})] + nodes
        pending_cube: list = [None, None]  # value, owner of CV / CP setup nodes before a board edit
        for line, node in nodes:
            if _SETUP & node.keys():
                if "CV" in node or "CP" in node:
                    try:
                        if "CV" in node:
                            pending_cube[0] = int(node["CV"][0])
                        if "CP" in node:
                            pending_cube[1] = {"c": -1, "w": 0, "b": 1}[node["CP"][0].strip().lower()]
                    except (ValueError, KeyError):
                        setup = True
                if {"AE", "AB", "AW"} & node.keys():
                    edit = _board_edit(node, line, pending_cube)
                    if edit is None:
                        setup = True  # read on, but the game is not replayed
                    else:
                        actions.append(edit)
                        notes.append({k: v for k, v in node.items() if k not in _STRUCT | _SETUP | {"PL"}})
                        if edit.cube is not None:
                            cube, new = edit.cube, None
                        pending_cube = [None, None]
                elif "CO" in node:
                    setup = True
                continue
            who = "W" if "W" in node else ("B" if "B" in node else None)
            extra = {k: v for k, v in node.items() if k not in _STRUCT}
            if who is None:
                pl, di = node.get("PL", [""])[0].strip().upper(), node.get("DI", [""])[0].strip()
                if pl in ("W", "B") and re.fullmatch(r"[1-6][1-6]", di) and not _SETUP & node.keys():
                    # gnubg: dice rolled, no move (a resignation follows)
                    actions.append(Roll(0 if pl == "W" else 1, (int(di[0]), int(di[1])), None, "rolled", "???",
                                        line=line))
                    notes.append({k: v for k, v in extra.items() if k not in ("PL", "DI")})
                continue
            p = 0 if who == "W" else 1
            val = node[who][0].strip()
            low = val.lower()
            loc: dict[str, Any] = dict(line=line, column=0)
            if resign_offer and low in ("accept", "reject", "take", "drop"):
                resign_offer = False
                continue  # the answer to a resignation; RE[...] carries the outcome
            resign_offer = False
            if low == "double":
                if new is not None and actions and isinstance(actions[-1], (Double, Beaver)) \
                        and actions[-1].player != p:
                    new *= 2
                    actions.append(Beaver(p, new, **loc))
                else:
                    new = cube * 2
                    actions.append(Double(p, new, **loc))
            elif low in ("take", "accept"):
                if new is not None:
                    cube = new
                new = None
                actions.append(Take(p, **loc))
            elif low in ("drop", "reject", "pass"):
                new = None
                actions.append(Drop(p, **loc))
            elif low.startswith("resign"):
                resign_offer = True
                continue
            elif re.fullmatch(r"[1-6][1-6][a-z]{0,8}", val) and len(val) % 2 == 0:
                try:
                    steps = tuple((_pt(val[i], p), _pt(val[i + 1], p)) for i in range(2, len(val), 2))
                except ValueError as e:
                    errors.append(MatchProblem(f"SGF move {val!r}: {e}", file, line, 0, number))
                    continue
                actions.append(Roll(p, (int(val[0]), int(val[1])), steps, "play",
                                    " ".join(f"{a}/{b}" for a, b in steps), **loc))
            else:
                errors.append(MatchProblem(f"SGF move {who}[{val}] is not a roll, double, take or drop",
                                         file, line, 0, number))
                continue
            notes.append(extra)
        re_ = root.get("RE", [""])[0].strip()
        m = re.fullmatch(r"([WB])\+(\d+)(R?)(?:esign)?", re_, re.I)
        if m:
            w = 0 if m.group(1).upper() == "W" else 1
            pts = int(m.group(2))
            if m.group(3):
                c = cube if new is None else cube
                actions.append(Resign(1 - w, resign_level(pts, c)))
                notes.append({})
            actions.append(Win(w, pts))
            notes.append({})
        elif re_:
            errors.append(MatchProblem(f"SGF result RE[{re_}] is not W+n or B+n", file, rline, 0, number))
        if setup or pending_cube != [None, None]:  # a setup the game cannot replay, or a cube set alone
            props["_setup"] = ["1"]
        games.append(Game(number, score, tuple(actions), errors=errors, line=rline, props=props,
                          notes=tuple(notes), initial_cube=initial_cube))
    return Match(players, length, tuple(games), crawford=crawford, jacoby=jacoby and length == 0,
                 beavers=any(isinstance(a, Beaver) for g in games for a in g.actions),
                 tags=with_standard(root_tags, sgf_standard(root_tags)), source=file, format="sgf", file_errors=file_errors)


def _resign_points(g: Game) -> bool:
    return any(isinstance(a, Resign) for a in g.actions)


def format_sgf(match: Match) -> str:
    """The match as a gnubg-style SGF collection (analysis properties kept when present)."""
    out = []
    for gi, g in enumerate(match.games):
        root = [f"(;FF[4]GM[6]CA[UTF-8]AP[bgtools:{__version__}]",  # (game: the index, as gnubg needs it)
                f"MI[length:{match.length}][game:{gi}][ws:{g.score[0]}][bs:{g.score[1]}]",
                f"PW[{_escape(match.players[0])}]PB[{_escape(match.players[1])}]"]
        rules = []
        if match.crawford and match.length:
            rules.append("Crawford")
            if g.crawford:
                rules.append("CrawfordGame")
        if match.jacoby and not match.length:
            rules.append("Jacoby")
        if rules:
            root.append(f"RU[{':'.join(rules)}]")
        if g.initial_cube != 1:
            root.append(f"CV[{g.initial_cube}]")  # automatic doubles, as gnubg writes them
        if gi == 0:
            root += [f"{k}[{_escape(v)}]" for k, v in sgf_root_properties(match.tags) if k not in g.props]
        if g.result is not None:
            root.append(f"RE[{'WB'[g.result.winner]}+{g.result.points}{'R' if g.result.how == 'resign' else ''}]")
        skip = {"FF", "GM", "CA", "AP", "MI", "PW", "PB", "RU", "RE", "_setup", "W", "B"}
        for k, vals in g.props.items():
            if k not in skip:
                root.append(k + "".join(f"[{_escape(v)}]" for v in vals))
        out.append("".join(root))
        notes = list(g.notes) if len(g.notes) == len(g.actions) else []
        for k, a in enumerate(g.actions):
            if isinstance(a, (Resign, Win)):
                continue
            if isinstance(a, SetBoard):  # as gnubg writes a board edit (and its cube)
                if a.cube is not None:
                    out.append(f";CP[{'cwb'[(a.owner if a.owner is not None else -1) + 1]}]\n;CV[{a.cube}]")
                out.append(f";PL[{'WB'[a.player]}]AE[a:y]" + "".join(
                    tag + "".join(f"[{point_letter(i + 1 if i < 24 else 25, pl)}]" * n for i, n in enumerate(side))
                    for tag, pl, side in (("AW", 0, a.sides[0]), ("AB", 1, a.sides[1])) if any(side)))
                continue
            who = "WB"[a.player]
            extra = ""
            if notes:
                extra = "".join(key + "".join(f"[{_escape(v)}]" for v in vals) for key, vals in notes[k].items())
            an = getattr(a, "analysis", None)
            if an is not None and not (notes and _ANALYSIS_KEYS & set(notes[k])):
                extra += "".join(key + "".join(f"[{_escape(v)}]" for v in vals)
                                 for key, vals in file_analysis_props(a).items())
            if isinstance(a, Roll) and a.status == "rolled":
                out.append(f";PL[{who}]DI[{a.dice[0]}{a.dice[1]}]{extra}")
                continue
            if isinstance(a, Roll):
                val = f"{a.dice[0]}{a.dice[1]}"
                if a.steps:
                    val += "".join(point_letter(x, a.player) + point_letter(y, a.player) for x, y in a.steps)
            elif isinstance(a, (Double, Beaver)):
                val = "double"
            elif isinstance(a, Take):
                val = "take"
            else:
                val = "drop"
            out.append(f";{who}[{val}]{extra}")
        out.append(")")
    return "\n".join(out) + "\n"


_ANALYSIS_KEYS = {"A", "DA", "LU", "BM", "DO", "BC", "DC", "C"}
_MARKS = {"very bad": ("2", "BM", "BC"), "bad": ("1", "BM", "BC"), "doubtful": ("", "DO", "DC")}


def _gnubg_ply(level: str) -> int:
    """gnubg counts plies from 0 (static); XG and BGBlitz from 1.  Rollouts/XG Roller -> 2."""
    head = level.split("-", 1)[0]
    return max(0, int(head) - 1) if level.endswith("-ply") and head.isdigit() else 2


def file_analysis_props(a) -> dict[str, list[str]]:
    """gnubg SGF node properties for the file's own analysis of an action (``a.analysis``):
    ``A`` candidate plays, ``LU`` luck, ``BM``/``DO`` and ``BC``/``DC`` skill marks, and a ``C``
    comment with the figures (program, level, error, luck, no double / double-take / double-pass)."""
    an = a.analysis
    out: dict[str, list[str]] = {}
    who = {"xg": "eXtreme Gammon", "bgblitz": "BGBlitz"}.get(an.source, an.source)
    text = [f"{who}{' ' + an.level if an.level else ''}:"]
    if isinstance(a, Roll):
        cands = an.candidates
        if cands and 0 <= an.played < len(cands) and all(len(c.probs) == 5 for c in cands):
            vals = [str(an.played)]
            for c in cands:
                letters = "".join(point_letter(x, a.player) + point_letter(y, a.player) for x, y in c.steps)
                probs = " ".join(f"{x:.6f}" for x in c.probs)
                ply = _gnubg_ply(c.level or an.level)
                vals.append(f"{letters} E ver 3 {probs} {c.equity:.6f} {ply}C 0 1 0.000000 1")
            out["A"] = vals
        if an.luck is not None:
            out["LU"] = [f"{an.luck:.5f}"]
            text.append(f"luck {an.luck:+.4f}")
        if an.error is not None:
            text.append(f"play error {an.error:.4f}")
            mark = _MARKS.get(error_class(an.error))
            if mark:
                out[mark[1]] = [mark[0]]
        loss = an.cube_error
    else:
        loss = an.take_error if isinstance(a, (Take, Drop, Beaver)) else an.cube_error
    if loss is not None:
        text.append(f"cube error {loss:.4f}")
        mark = _MARKS.get(error_class(loss))
        if mark:
            out[mark[2] if isinstance(a, Roll) else mark[1]] = [mark[0]]
    if an.no_double is not None:
        unit = " (match winning chances)" if an.unit == "mwc" else ""
        text.append(f"no double {an.no_double:+.4f}, double/take {an.double_take:+.4f}, "
                    f"double/pass {an.double_pass:+.4f}{unit}")
    comment = "; ".join([text[0] + " " + text[1]] + text[2:]) if len(text) > 1 else ""
    if an.comment:
        comment = (comment + "\n" if comment else "") + an.comment
    if comment:
        out["C"] = [comment]
    return out


def write_sgf(match: Match, path) -> None:
    """Write ``match`` as SGF atomically (temporary file + rename)."""
    from bgtools.base.fileio import atomic_write

    atomic_write(path, format_sgf(match))
