"""Replay under the exact rules: each written play resolved to one legal play, results checked.

:func:`replay` yields one :class:`~bgtools.model.step.Step` per action: the position and match state *before*
it, the play made (hits recomputed from the board), the number of legal plays and the IDs.
:func:`finish_match` (used by every reader) infers Crawford games and replays every game,
collecting problems on the games.  A board edit (:class:`~bgtools.model.game.SetBoard`) sets the
board, and the cube when it says so, as gnubg's "set board" does; whoever acts next is on roll.
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import Iterator, Optional, Sequence, TypeVar

from bgtools.base.collector import gc_paused
from bgtools.core.matchstate import GameState, MatchState
from bgtools.core.movegen import Play
from bgtools.core.position import Position
from bgtools.model.game import (Action, Beaver, Double, Drop, Game, MatchRules, Resign, Result, Roll, SetBoard, Take,
                                Win, RESIGN_NAMES, crawford_flags, resign_level)
from bgtools.model.problems import MatchFileError, MatchProblem, MatchWarning
from bgtools.model.step import Step
from bgtools.model.resolve import apply_steps, forced_play, resolve_play
from bgtools.model.replay_kernel import (DANCE, PLAY, PYTHON, ROLLED, UNKNOWN, KernelRun, pack_rolls, play_steps,
                                         resolve_rolls)

M = TypeVar("M", bound=MatchRules)

__all__ = ["MatchWarning", "Step", "replay", "replay_game", "check_game", "finish_match", "apply_steps", "crawford_flags"]


#: sets a Roll's ``steps`` slot (frozen): only on the fresh Rolls of ``finish_match(fresh=True)``
_SET_STEPS = Roll.__dict__["steps"].__set__

#: what the fast path returns for a play when no Step is wanted (the board is in the kernel's array)
_MOVED = object()

_EDITED = ("the game starts from a board set up in the record (an edited position), which is not replayed: its "
           "moves are kept unchecked, without positions, and not analysed")  #: why such a game is not replayed
#: the opening position (immutable: one for every game) and its array for the kernel
_INITIAL = Position.initial()
_INITIAL_ARRAY = _INITIAL.to_array()  # the kernel copies the board it is given


# ----------------------------------------------------------------------------- replay
class _Replayer:
    """Walks a game's actions, resolving and checking them; shared by readers and :func:`replay`."""

    def __init__(self, match: MatchRules, game: Game, file: str = "", strict: bool = False,
                 want_steps: bool = False, game_index: int = 0, fresh: bool = False):
        self.m = match
        self.fresh = fresh
        self.g = game
        self.file = file
        self.strict = strict
        self.want = want_steps
        self.gi = game_index
        self.errors: list[MatchProblem] = []
        self.out: list[Action] = []
        self.steps: list[Step] = []
        self._k: Optional[KernelRun] = None  # the game's rolls packed for the kernel, its last run
        self._pos: Optional[Position] = None  # the board now, None while it is in the kernel's array
        self._row: tuple = ()  # (the kernel's ``after`` array, the row of the last play in it)
        self._over = False

    def _at(self, a, msg: str) -> MatchProblem:
        return MatchProblem(msg, self.file, getattr(a, "line", 0) or self.g.line, getattr(a, "column", 0),
                            self.g.number, getattr(a, "move_no", 0))

    def err(self, a, msg: str) -> None:
        e = self._at(a, msg)
        if self.strict:
            raise MatchFileError(e)
        self.errors.append(e)

    def warn(self, a, msg: str) -> None:
        """A :class:`MatchWarning` about ``a``: the record reads (as gnubg reads it), but not as written."""
        warnings.warn(MatchWarning(self._at(a, msg)), stacklevel=4)

    def _settle(self, a: Roll, pos: Position) -> tuple[Roll, Optional[Play], int]:
        """Resolve one roll in Python: (the roll as replayed, the play made or None, legal plays)."""
        if a.status in ("rolled", "unknown"):
            play, n = resolve_play(pos, a.dice, "", None)
        else:
            play, n = resolve_play(pos, a.dice, a.text if a.steps is None else None, a.steps)
        if play is not None:
            return replace(a, steps=play.steps, status="play"), play, n
        if a.status == "rolled":
            return a, None, n
        if a.status == "unknown":
            new, play = self._unknown(a, pos, n)
            return new, play, n
        if n == 0:
            return replace(a, steps=(), status="dance"), None, n
        # no move written although plays exist: gnubg plays a forced move, otherwise
        # records the roll only
        if n == 1:
            play = forced_play(pos, a.dice)
            return replace(a, steps=play.steps, status="play"), play, n
        return replace(a, steps=None, status="rolled"), None, n

    def _fast(self, idx: int, a: Roll, pos: Optional[Position]):
        """The roll settled by the compiled kernel (run over the game's rolls from here on
        when its last run does not cover this one); None when the kernel leaves it to Python.

        ``pos`` (the board before the roll) may be None: it is then made only if needed.
        Without ``want_steps`` a play comes back as :data:`_MOVED` and the board after it
        stays in the kernel's array until something asks for :attr:`pos`.
        """
        k = self._k
        if k is None:
            k = self._pack()
        j = k.where[idx]
        if j < 0:  # (not a Roll itself: left to Python)
            return None
        start = k.start
        if not start <= j < k.stop:
            if k.kinds[j] == PYTHON:
                return None
            start = self._run_kernel(k, j, pos or self.pos_for(a.player))
            if start < 0:
                return None
        row = k.rows[j - start]
        if row[0] == PLAY:
            steps = play_steps(row)
            new = Roll(a.player, a.dice, steps, "play", a.text, a.line, a.column, a.move_no, a.analysis)
            if not self.want:
                self._leave_in_kernel(k, j, a.player)
                return new, _MOVED, row[1]
            return new, self._play(a, steps, pos or self.pos_for(a.player), k.after[j]), row[1]
        # settled without a play: a dance, a roll only, an unknown move
        kind, n = k.kinds[j], row[1]
        if row[0] == DANCE:
            return Roll(a.player, a.dice, (), "dance", a.text, a.line, a.column, a.move_no, a.analysis), None, n
        if kind == ROLLED:
            return a, None, n
        if kind == UNKNOWN:  # (called from here, as from _settle: the warning's stack level is the same)
            return self._unknown(a, pos or self.pos_for(a.player), n)[0], None, n
        return replace(a, steps=None, status="rolled"), None, n

    def _plays(self, idx: int) -> int:
        """Append the rolls from action ``idx`` on that the kernel settles as plays, one after
        another with the players taking turns, and return how many (0: the roll at ``idx``
        is not one of them, or lies outside the kernel's last run; :meth:`_fast` and
        :meth:`_settle` take it).  The roll at ``idx`` has passed :meth:`run`'s checks; a
        roll by the player who made the last play ends the run (run() reports it).  Only
        without Steps: the board after the last stays in the kernel's array, as after
        :meth:`_fast`."""
        last_roller = -1
        k = self._k
        if k is None:
            k = self._pack()
        where = k.where
        j = where[idx]
        if j < 0:
            return 0
        if not k.start <= j < k.stop:  # outside the kernel's last run: :meth:`_fast` runs it (once)
            return 0
        acts = self.g.actions
        rows, start, stop = k.rows, k.start, k.stop
        out = self.out
        fresh = self.fresh
        i, n = idx, len(acts)
        while True:
            a = acts[i]
            row = rows[j - start]
            if row[0] != PLAY or a.player == last_roller:
                break
            if fresh and a.steps is None and a.status == "play":  # a reader's own Roll, seen by nothing else:
                _SET_STEPS(a, play_steps(row))  # it takes its play instead of a copy being made
                out.append(a)
            else:
                out.append(Roll(a.player, a.dice, play_steps(row), "play", a.text, a.line, a.column, a.move_no,
                                a.analysis))
            last_roller = a.player
            i += 1
            j += 1
            if i == n or j == stop or where[i] != j:  # the end, or the next action is no settled roll
                break
        took = i - idx
        if took:
            self._leave_in_kernel(k, j - 1, acts[i - 1].player)
        return took

    def _leave_in_kernel(self, k: KernelRun, j: int, player: int) -> None:
        """After ``player``'s play at roll ``j`` of the kernel's run: the board stays in the
        kernel's array (:attr:`pos` makes it when asked), the opponent is on roll."""
        self._pos = None
        self._row = (k.after, j)
        self.persp = 1 - player
        self._over = j == k.stop - 1 and not any(k.after[j, 1].tolist())  # borne off

    def _pack(self) -> KernelRun:
        """The game's rolls packed for the kernel (no run yet)."""
        acts = self.g.actions
        at = [i for i, x in enumerate(acts) if type(x) is Roll]
        meta, paths = pack_rolls([acts[i] for i in at])
        where = [-1] * len(acts)
        for j, i in enumerate(at):
            where[i] = j
        k = self._k = KernelRun(meta, paths, where)
        return k

    def _run_kernel(self, k: KernelRun, j: int, pos: Position) -> int:
        """Run the kernel from roll ``j`` on the board ``pos``; ``j`` (the first roll of the
        run), or -1 when it settles nothing."""
        board = _INITIAL_ARRAY if pos is _INITIAL else pos.to_array()
        stop = resolve_rolls(board, k.meta, k.paths, j, k.res, k.after)
        k.start, k.stop = j, stop
        k.rows = k.res[j:stop].tolist()
        return j if stop > j else -1

    @staticmethod
    def _play(a: Roll, steps: tuple, pos: Position, after) -> Play:
        """The movegen Play of a roll the kernel settled (``after``: its row of the board after)."""
        opp_after, opp_before = tuple(after[0].tolist()), pos.opponent
        hits: tuple[int, ...] = ()
        if opp_after[24] != opp_before[24]:
            hits = tuple(sorted({24 - q for q in range(24) if opp_before[q] == 1 and opp_after[q] == 0},
                                reverse=True))
        d = a.dice if a.dice[0] >= a.dice[1] else (a.dice[1], a.dice[0])
        return Play(d, steps, hits, Position._trusted(tuple(after[1].tolist()), opp_after))

    @property
    def pos(self) -> Position:
        """The board now (seen from :attr:`persp`), made from the kernel's array when it is there."""
        p = self._pos
        if p is None:
            after, j = self._row
            p = self._pos = Position._trusted(tuple(after[j, 1].tolist()), tuple(after[j, 0].tolist()))
        return p

    @pos.setter
    def pos(self, value: Position) -> None:
        self._pos = value

    def _unknown(self, a: Roll, pos: Position, n: int) -> tuple[Roll, Optional[Play]]:
        """An unwritten play ("???"), as gnubg reads it: a dance, the forced play, or the roll only."""
        if n == 0:
            return replace(a, steps=(), status="dance"), None
        if n == 1:
            play = forced_play(pos, a.dice)
            return replace(a, steps=play.steps, status="play"), play
        self.warn(a, f"the play of {a.dice[0]}{a.dice[1]} is not written ({a.text.strip() or '?'}) "
                     f"and {n} plays are legal: the roll is kept without a play")
        return replace(a, steps=None, status="rolled"), None

    def state(self, **kw) -> MatchState:
        m, g = self.m, self.g
        return MatchState(cube=min(self.cube, 2 ** 15), cube_owner=self.owner, crawford=g.crawford,
                          match_length=m.length, score=g.score, jacoby=m.jacoby and m.length == 0,
                          beavers=m.beavers, **kw)

    def pos_for(self, p: int) -> Position:
        return self.pos if self.persp == p else self.pos.swap()

    def run(self) -> tuple[tuple[Action, ...], Optional[Result], list[MatchProblem], list[Step]]:
        g = self.g
        self.pos = _INITIAL
        self.persp = 0
        self.cube = 1
        self.owner = -1
        if g.initial_cube != 1:
            self._automatic_doubles(g)
        pending = None  # (doubler, cube before the double, new cube)
        beavered = False
        last_roller = None
        broken = bool(g.props.get("_setup"))  # after an illegal move or a board edit: read on, replay no more
        result: Optional[Result] = None
        over = False
        dropped = None
        acts = g.actions
        nacts = len(acts)
        idx = -1
        while idx + 1 < nacts:
            idx += 1
            a = acts[idx]
            p = a.player
            if result is not None and not isinstance(a, Win):
                self.err(a, "action after the end of the game")
                self.out.append(a)
                continue
            if isinstance(a, Roll):
                if pending is not None:
                    if beavered and p == pending[0]:
                        t = Take(p, implied=True, line=a.line, column=a.column, move_no=a.move_no)
                        self._cube_step(t, pending, idx, beavered)
                        self.out.append(t)
                        pending = None
                        beavered = False
                    else:
                        self.err(a, "roll while a double awaits an answer")
                        pending = None
                        beavered = False
                if over and not broken:
                    self.err(a, "roll after the game was already won by bearing off")
                    broken = True  # read on, but replay no more
                if last_roller is not None and p == last_roller and not broken:
                    self.err(a, f"player {p + 1} rolls twice in a row")
                last_roller = p
                if a.status == "unchecked":
                    broken = True  # the reader could not follow the board (an edit): check no more
                if broken:
                    new = a if a.status == "rolled" else \
                        replace(a, status="rolled" if a.status == "unknown" else "unchecked")
                    if self.want:
                        self.steps.append(Step(self.gi, g.number, len(self.out), new, self.pos_for(p),
                                               self.state(player_on_roll=p, turn=p, dice=a.dice)))
                    self.out.append(new)
                    continue
                if not self.want:  # the common case: a run of rolls the kernel settles as plays, at once
                    took = self._plays(idx)
                    if took:
                        idx += took - 1
                        last_roller = acts[idx].player
                        over = over or self._over
                        continue
                pos = self.pos_for(p) if self.want else None
                try:
                    r = self._fast(idx, a, pos)
                    if r is None:
                        pos = pos or self.pos_for(p)
                        r = self._settle(a, pos)
                    new, play, n = r
                except ValueError as e:
                    self.err(a, f"illegal move: {e}" if "legal" not in str(e) and "fits" not in str(e)
                             else str(e))
                    bad = replace(a, steps=None, status="illegal")
                    if self.want:
                        self.steps.append(Step(self.gi, g.number, len(self.out), bad, pos or self.pos_for(p),
                                               self.state(player_on_roll=p, turn=p, dice=a.dice), None, 0))
                    self.out.append(bad)
                    broken = True
                    continue
                if self.want:
                    assert pos is not None  # made before the roll when Steps are wanted
                    self.steps.append(Step(self.gi, g.number, len(self.out), new, pos,
                                           self.state(player_on_roll=p, turn=p, dice=a.dice), play, n))
                if play is _MOVED:
                    over = over or self._over
                elif play is not None:
                    self.pos = play.after
                    self.persp = 1 - p
                    if self.pos.is_game_over():
                        over = True
                self.out.append(new)
            elif type(a) is SetBoard:
                if self.want:
                    self.steps.append(Step(self.gi, g.number, len(self.out), a, self.pos_for(a.player),
                                           self.state(player_on_roll=a.player, turn=a.player)))
                self.out.append(a)
                if not broken:
                    try:
                        self._edit(a)
                    except ValueError as e:
                        self.err(a, f"the board edit sets an impossible board: {e}")
                        broken = True
                        continue
                    over = self.pos.is_game_over()
                    last_roller, pending, beavered = None, None, False  # whoever acts next is on roll
            elif isinstance(a, Double):
                if pending is not None and not broken:
                    self.err(a, "double while another double awaits an answer")
                if not broken:
                    if g.crawford:
                        self.err(a, "double in the Crawford game")
                    elif self.owner == 1 - p:
                        self.err(a, f"player {p + 1} doubles but the opponent owns the cube")
                    elif a.cube != 2 * self.cube:
                        self.err(a, f"double to {a.cube} but the cube is at {self.cube}")
                if self.want:
                    self.steps.append(Step(self.gi, g.number, len(self.out), a, self.pos_for(p),
                                           self.state(player_on_roll=p, turn=p)))
                pending = (p, self.cube, a.cube)
                beavered = False
                self.out.append(a)
            elif isinstance(a, (Take, Drop, Beaver)):
                if pending is None or p == pending[0] and not beavered:
                    if not broken:
                        self.err(a, f"{type(a).__name__.lower()} without a double to answer")
                    self.out.append(a)
                    continue
                if isinstance(a, Beaver):
                    if self.want:
                        self._cube_step(a, pending, idx, beavered, record_only=True)
                    self.cube = a.cube
                    self.owner = p
                    pending = (pending[0], pending[2], a.cube)
                    beavered = True
                    self.out.append(a)
                    continue
                self._cube_step(a, pending, idx, beavered)
                self.out.append(a)
                if isinstance(a, Drop):
                    dropped = (1 - p, pending[1])
                pending = None
                beavered = False
            elif isinstance(a, Resign):
                if self.want:
                    self._step(a)
                self.out.append(a)
            elif isinstance(a, Win):
                if result is not None:
                    self.err(a, "a second result for the same game")
                    continue
                result = self._result(a, over, dropped, broken)
                level = max(1, min(3, result.points // max(self.cube, 1)))
                last = self.out[-1] if self.out else None
                if result.how == "resign" and isinstance(last, Resign):
                    # a written resignation ("Concedes"): its level is what the result line says
                    if last.player == result.winner and not broken:
                        self.err(last, f"player {last.player + 1} resigns but is written as the winner")
                    r = replace(last, player=1 - result.winner, level=level)
                    if self.want and self.steps and self.steps[-1].index == len(self.out) - 1:
                        self.steps.pop()
                        self.out.pop()
                        self._step(r)
                        self.out.append(r)
                    else:
                        self.out[-1] = r
                elif result.how == "resign":
                    r = Resign(1 - result.winner, level, line=a.line, column=a.column, move_no=a.move_no)
                    if self.want:
                        self._step(r)
                    self.out.append(r)
                win = replace(a, player=result.winner, points=result.points)
                if self.want:  # the Steps of the actions as they now are, as a replay of them gives
                    self._step(win, game_state=GameState.OVER)
                self.out.append(win)
        # (a file that ends while a double awaits an answer leaves the game open)
        if result is None and over and not broken:
            w = self.persp ^ 1  # the player who just moved
            result = Result(w, self._bearoff_points(w), "bearoff")
        return tuple(self.out), result, self.errors, self.steps

    def _step(self, a: Action, **state) -> None:
        """The Step of ``a`` (a resignation or a result), about to be ``out``'s next action."""
        p = a.player
        self.steps.append(Step(self.gi, self.g.number, len(self.out), a, self.pos_for(p),
                               self.state(player_on_roll=p, turn=p, **state)))

    def _edit(self, a: SetBoard) -> None:
        """Apply a board edit (gnubg's "set board", "set cube value", "set cube owner")."""
        self.pos = a.position(a.player)
        self.persp = a.player
        if a.cube is not None:
            self.cube = a.cube
            self.owner = -1 if a.owner is None else a.owner
        if self._k is not None:
            self._k.start = self._k.stop = 0  # the kernel's run went on from the old board: run it again

    def _cube_step(self, a, pending, idx, beavered, record_only=False):
        doubler = pending[0]
        if self.want:
            self.steps.append(Step(self.gi, self.g.number, len(self.out), a, self.pos_for(doubler),
                                   self.state(player_on_roll=doubler, turn=a.player, double_offered=True)))
        if record_only:
            return
        if isinstance(a, Take):
            if not beavered:
                self.cube = pending[2]
                self.owner = a.player

    def _automatic_doubles(self, g) -> None:
        """Start at ``g.initial_cube`` (centred): automatic doubles, money play only."""
        c = g.initial_cube
        if self.m.length > 0:
            self.err(None, f"game {g.number} starts with the cube at {c}: automatic doubles are for money play only")
        elif c < 1 or c & (c - 1) or c > 2 ** 15:
            self.err(None, f"game {g.number} starts with the cube at {c}, which is not a power of 2 up to 32768")
        else:
            self.cube = c

    def _bearoff_points(self, winner: int) -> int:
        pos = self.pos_for(1 - winner)  # loser's view: on_roll = loser
        loser = pos.on_roll
        if sum(loser) < 15:
            mult = 1
        elif loser[24] or any(loser[18:24]):
            mult = 3
        else:
            mult = 2
        if self.m.length == 0 and self.m.jacoby and self.owner == -1:  # cube centred (after automatic
            mult = 1  # doubles too, as gnubg counts it)
        return self.cube * mult

    def _result(self, a: Win, over: bool, dropped, broken: bool) -> Result:
        p = a.player
        if dropped is not None:
            if dropped[0] != p and not broken:
                self.err(a, f"player {p + 1} wins although player {p + 1} dropped the double")
            elif a.points != dropped[1] and not broken and not self._wins_match(p, a.points, dropped[1]):
                self.warn(a, f"wins {a.points} point(s) but the dropped cube gives {dropped[1]}: counted, as gnubg does")
            return Result(dropped[0], dropped[1], "drop")
        if over and not broken:
            w = self.persp ^ 1
            pts = self._bearoff_points(w)
            if w != p:
                self.err(a, f"player {p + 1} is written as winner but player {w + 1} bore off all checkers")
                return Result(w, pts, "bearoff")
            if a.points != pts and not self._wins_match(p, a.points, pts):
                self.warn(a, f"wins {a.points} point(s) but the board and the cube give {pts}: "
                             f"{pts} counted, as gnubg counts it")
            return Result(p, pts, "bearoff")
        cube = max(self.cube, 1)
        # as gnubg reads it (resign_level): Backgammon Galaxy writes the points the winner needed
        level = resign_level(a.points, cube)
        if not broken and a.points != cube * level and not self._wins_match(p, a.points, cube * level):
            self.warn(a, f"wins {a.points} point(s) by resignation with the cube at {cube}: read as a "
                         f"{RESIGN_NAMES[level]} ({cube * level} point(s)), as gnubg reads it")
        return Result(p, cube * level, "resign")

    def _wins_match(self, p: int, written: int, actual: int) -> bool:
        """Writers may put the match-winning total (or clamp it) on the last game's result."""
        if self.m.length <= 0:
            return False
        need = self.m.length - self.g.score[p]
        return written >= need and actual >= need


def check_game(match: MatchRules, game: Game, file: str = "", strict: bool = False, *,
               keep_steps: bool = False, game_index: int = 0, fresh: bool = False) -> Game:
    """Replay ``game``: resolve its moves, infer the result, collect errors (returns a new Game).

    ``keep_steps``: keep the :class:`Step` of every action on the side, so that
    :func:`replay_game` of the returned game (at ``game_index``) hands them over instead of
    replaying the game again (what ``export`` and ``annotate`` walk after reading).
    ``fresh``: see :func:`finish_match`.
    """
    actions, result, errors, steps = _Replayer(match, game, file, strict, want_steps=keep_steps,
                                               game_index=game_index, fresh=fresh).run()
    if result is None and game.result is not None:
        result = game.result
    kept = None
    if keep_steps and not game.errors and not errors:  # a game with errors is walked as before: replayed again
        kept = _kept(actions, game_index, match, tuple(steps))
    return replace(game, actions=actions, result=result, errors=list(game.errors) + errors, kept_steps=kept)


def finish_match(match: M, file: str = "", strict: bool = False, *, keep_steps: bool = False,
                 fresh: bool = False) -> M:
    """Infer Crawford games and replay every game (used by the readers); ``keep_steps``: see
    :func:`check_game`.

    ``fresh``: the match's Roll objects were made for this call and nothing else holds them
    (:func:`bgtools.formats.read_match` passes the Rolls its .mat reader has just made, then
    drops that unreplayed match): a roll written as a plain play then takes its resolved
    play in place (one Roll per roll instead of two, a twentieth of reading).  Without it
    (the default) ``match`` is left as it was.
    """
    flags = crawford_flags(match.length, [g.score for g in match.games], match.crawford)
    games = []
    with gc_paused():
        for gi, (g, c) in enumerate(zip(match.games, flags)):
            if g.props.get("_setup"):  # said once, while reading
                warnings.warn(MatchWarning(MatchProblem(_EDITED, file, g.line, 0, g.number)), stacklevel=2)
            games.append(check_game(match, g if g.crawford == c else replace(g, crawford=c), file, strict,
                                    keep_steps=keep_steps, game_index=gi, fresh=fresh))
    return replace(match, games=tuple(games))  # type: ignore[type-var]  # a dataclass (Match) in practice


def _rules(match: MatchRules) -> tuple:
    return (match.length, match.crawford, match.jacoby, match.beavers)


def _kept(acts: Sequence[Action], game_index: int, match: MatchRules,
          steps: tuple[Step, ...]) -> Optional[tuple[int, tuple, tuple[Step, ...]]]:
    """:attr:`Game.kept_steps` of a replayed game, or None where the Steps are not its actions'."""
    if len(steps) != len(acts) or any(s.index != i or s.action is not a for i, (s, a) in enumerate(zip(steps, acts))):
        return None  # a record the replay had to mend (a cube answer without a double...): replayed again when walked
    return (game_index, _rules(match), steps)


def replay_game(match: MatchRules, game: Game, game_index: int = 0) -> Iterator[Step]:
    """Yield a :class:`Step` for every action of ``game`` (position and state before it).

    A game read with ``keep_steps`` hands over the Steps of that reading (the same as
    replaying it again: tests/test_kept_steps.py) when asked with the same index and rules.
    """
    kept = game.kept_steps
    if (kept is not None and kept[0] == game_index and kept[1] == _rules(match) and len(kept[2]) == len(game.actions)
            and all(s.action is a for s, a in zip(kept[2], game.actions))):  # not a game made anew from it
        yield from kept[2]
        return
    _, _, _, steps = _Replayer(match, game, want_steps=True, game_index=game_index).run()
    yield from steps


def replay(match: MatchRules) -> Iterator[Step]:
    """Yield a :class:`Step` for every action of every game of ``match``."""
    for i, g in enumerate(match.games):
        yield from replay_game(match, g, i)

