"""Match analysis: checker-play and cube errors, luck and per-player summaries (like gnubg's
"analyse match"), for one match at a time.

:func:`analyse_match` replays a :class:`~bgtools.model.match.Match` and returns a
:class:`MatchAnalysis`: one :class:`Decision` per analysed action and a
:class:`PlayerSummary` per player.  Definitions (see ``docs/analysis.md``):

* **Equity** is cubeful and *normalised*: money equity per unit of the current cube; in
  match play the match winning chance (MWC) mapped linearly so that losing / winning the
  current cube's worth of points is -1 / +1 (gnubg's "EMG").  Cubeful values come from
  the cubeless evaluation through :mod:`bgtools.engine.cubeful.cube` (Janowski, match equity table).
* **Checker play**: the legal plays are evaluated at 0 ply; with ``ply >= 1`` at most
  ``keep`` of them within ``threshold`` of the best go deeper (with ``ply >= 2`` a 1-ply
  stage keeps at most ``keep1`` within ``threshold1``); the play made is always
  evaluated at the full ply.  Its *equity loss* is best minus played.  Forced plays
  (one legal play or none) are not decisions.
* **Error classes** (gnubg 1.07 defaults): loss > 0.03 doubtful, > 0.06 bad, > 0.12 very bad.
* **Cube**: at every turn where the player on roll could double, and at every double
  and answer, the no double / double-take / double-pass values give the proper action
  (the cube formula on the ply's cubeless probabilities; at ply >= 2, where the decision is
  close, the 2-ply cubeful lookahead that ``bgtools eval`` uses);
  the loss of the action taken assumes correct play by the other side.  A cube decision
  counts in the error rates when a double was made or doubling was within
  ``close_cube`` (0.16) of not doubling, or too good.
* **Luck** of a roll: the normalised equity after the best play for that roll (at
  ``luck_ply``) minus the average of the same over all 36 rolls (30 for the opening roll).

>>> from bgtools.formats import read_match
>>> m = read_match(" 1 point match\\n Game 1\\n A : 0   B : 0\\n  1) 31: 8/5 6/5   42: 8/4 6/4\\n")
>>> a = analyse_match(m, ply=0, cache=None)
>>> [(d.kind, d.played, d.error_class) for d in a.decisions]
[('checker', '8/5 6/5', 'none'), ('checker', '8/4 6/4', 'none')]
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional, Sequence, Union

import numba as nb
import numpy as np

from bgtools.analysis.endgame import EndgameRollouts, cube_state, is_endgame
from bgtools.analysis.filecompare import FileFigure, agreement, game_figures
from bgtools.analysis.records import (AnalysisSettings, ErrorClass, Candidate, CubeAnalysis, Decision, GameSummary,
                                      MatchAnalysis, error_class, luck_class, PHASES)
from bgtools.analysis.totals import PlayerTotals, game_summary, player_summaries
from bgtools.core.dice import ROLL_INDEX, ROLL_WAYS
from bgtools.engine.assess import CUBE_MAX_PLY
from bgtools.engine.cubeful.cube import UNAVAILABLE, CubeInfo, cube_values, cube_x
from bgtools.engine.cubeful.met import CubeStake, mwc_after
from bgtools.engine.outputs import clamp, turn_into
from bgtools.formats.read import FileStream, GameReader
from bgtools.model.game import Game
from bgtools.model.match import Match

if TYPE_CHECKING:
    from bgtools.analysis.evalcache import EvalStore
    from bgtools.engine.evaluation import Evaluator

__all__ = ["analyse_match", "AnalysisSettings", "MatchAnalysis", "Decision", "DecisionValuer", "resummarise"]


# ----------------------------------------------------------------------------- the analyser
@nb.njit(cache=True)
def _after_kernel(probs, boards, theirs):
    """Mover's cubeful value (points, or MWC) of positions after his play: the opponent, on
    roll in ``boards``, takes his best cube action (``theirs``: the
    :class:`~bgtools.engine.cubeful.cube.CubeArgs` of the cube seen from him)."""
    money, am, ao, cube, jacoby = theirs.money, theirs.away_opp, theirs.away_me, theirs.cube, theirs.jacoby
    owner, pre, post = theirs.owner, theirs.pre, theirs.post
    n = probs.shape[0]
    raw = np.empty(n)
    po = np.empty(5)
    out = np.empty(4)
    for i in range(n):
        p = probs[i]
        left = 0
        for k in range(25):
            left += boards[i, 0, k]
        if left == 0:  # the mover has borne off: the exact result
            pts = cube * (1 if jacoby and owner == 0 else int(1.0 + p[1] + p[2] + 0.5))
            raw[i] = pts if money else mwc_after(pre, post, am, ao, pts)
            continue
        turn_into(p, po)
        clamp(po)
        code = cube_values(po, theirs, cube_x(boards[i]), out)
        vo = out[0] if code == UNAVAILABLE else max(out[0], min(out[1], out[2]))
        raw[i] = -vo if money else 1.0 - vo
    return raw


#: cube decisions whose formula values (normalised) have two of ND, DT, DP closer than this
#: are valued by the cubeful lookahead (``AnalysisSettings.cube_lookahead``)
LOOKAHEAD_WINDOW = 0.2
#: with ``AnalysisSettings.cubeful_plays``: the plays within this of the best 2- or 3-ply play, at most
#: :data:`CUBEFUL_KEEP` of them, are valued by the cubeful lookahead (wider changes no pick on the shared .xg files)
CUBEFUL_WINDOW = 0.06
CUBEFUL_KEEP = 4
#: positions whose deeper values :meth:`_Analyser.eval_boards` remembers for the run, at most
#: (about 30 MB); past it the memory is let go at the next game
MEMO_LIMIT = 100_000


def _cube_of(state, length_ok: bool) -> CubeInfo:
    """The cube and score seen from the player on roll of ``state``; a match longer than the
    match equity table (not ``length_ok``) is valued as money."""
    info = CubeInfo.from_state(state)
    if not length_ok and not info.money:
        info = CubeInfo(info.cube, info.owner, (0, 0), info.crawford)
    return info


class _Analyser:
    def __init__(self, evaluator, settings: AnalysisSettings, cache) -> None:
        from bgtools.engine.cubeful import cube as _cube
        from bgtools.engine.evaluation import default_evaluator, evaluator_setting, with_pruning
        from bgtools.engine.cubeful.met import load_met

        self.ev = evaluator or default_evaluator()
        if not settings.prune:
            self.ev = with_pruning(self.ev, None)  # a copy: the shared net keeps its pruning
        self.s = settings
        self.cache = cache
        self.met = settings.met or load_met()
        self._cube = _cube
        self._out = np.zeros(4, np.float64)
        self.ev_name = evaluator_setting(self.ev)
        self._memo: dict[tuple[int, bytes], np.ndarray] = {}
        self._search: Optional[Any] = None  # the cube lookahead, made when first needed
        self.cube_max_ply = CUBE_MAX_PLY  # the deepest cube lookahead (analysis.levels goes one deeper)
        self.lookahead_window = LOOKAHEAD_WINDOW
        self.endgame = EndgameRollouts(self.ev, settings, self.met, cache, self.ev_name)

    def new_game(self) -> None:
        """A game starts: the run's memory of values is let go once it holds :data:`MEMO_LIMIT`
        (its values are in the cache, where there is one; a big file's memory stays bounded)."""
        if len(self._memo) > MEMO_LIMIT:
            self._memo.clear()

    # -- evaluation with the cache --------------------------------------------------
    def eval_boards(self, boards: np.ndarray, ply: int, on_replies=None, rolls_of=None) -> np.ndarray:
        """float64[n, 5] for the player on roll of each board (``[1]``).  Deeper than 0 ply,
        values are remembered for the run (the position after a play is the next pre-roll
        position) and kept in the SQLite cache when there is one.  ``on_replies``: as
        :func:`~bgtools.engine.evaluation.evaluate_boards`, for the boards it values;
        ``rolls_of`` too (the boards are the plays of rolls: it counts at 0 ply only)."""
        from bgtools.engine.evaluation import evaluate_boards

        b = np.ascontiguousarray(boards, np.int8).reshape(-1, 2, 25)
        if ply == 0 or b.shape[0] == 0:
            return evaluate_boards(b, ply, self.ev, rolls_of=rolls_of)
        keys = [(ply, row.tobytes()) for row in b]
        out = np.empty((b.shape[0], 5), np.float64)
        miss = []
        for i, k in enumerate(keys):
            v = self._memo.get(k)
            if v is None:
                miss.append(i)
            else:
                out[i] = v
        if miss:
            out[miss] = self._through_store(f"{self.ev_name}|ply={ply}", b[miss],
                                            lambda x: evaluate_boards(x, ply, self.ev, on_replies=on_replies))
        for i in miss:
            self._memo[keys[i]] = out[i].copy()
        return out

    def _through_store(self, setting: str, b: np.ndarray, compute: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """float64[n, 5] rows for boards ``b``: those the SQLite cache (where there is one) holds under ``setting``,
        the others by ``compute(boards)``, then stored there."""
        if self.cache is None:
            return compute(b)
        out = np.empty((b.shape[0], 5), np.float64)
        got = self.cache.get(setting, b)
        miss = [i for i, v in enumerate(got) if v is None]
        for i, v in enumerate(got):
            if v is not None:
                out[i] = v
        if miss:
            new = compute(b[miss])
            out[miss] = new
            self.cache.put(setting, b[miss], new)
        return out

    # -- cubeful values ---------------------------------------------------------------
    def to_norm(self, v: float, c: CubeInfo) -> float:
        """Mover's cubeful value (points or MWC) -> normalised equity."""
        if c.money:
            return v / c.cube
        return self.met.emg(v, c.away[0], c.away[1], c.cube)

    def after_values(self, probs: np.ndarray, boards: np.ndarray, c: CubeInfo) -> tuple[np.ndarray, Optional[np.ndarray]]:
        """Normalised cubeful equity (and MWC) for the mover of positions after his play
        (``boards``: opponent on roll; ``probs``: mover's cubeless view)."""
        raw = _after_kernel(np.ascontiguousarray(probs, np.float64), np.ascontiguousarray(boards, np.int8),
                            c.flipped().args(self.met))
        return self._normalised(raw, c)

    def _normalised(self, raw: np.ndarray, c: CubeInfo) -> tuple[np.ndarray, Optional[np.ndarray]]:
        """Mover's cubeful values (points, or MWC) -> (normalised equities, MWC or None for money)."""
        if c.money:
            return raw / c.cube, None
        return CubeStake.at(self.met, c.away[0], c.away[1], c.cube).normalise(raw), raw

    def cube_analysis(self, position, c: CubeInfo) -> Optional[CubeAnalysis]:
        """The decision of the player on roll before his roll; None when he cannot double.

        The cube formula on the analysis ply's cubeless probabilities screens it; where two of
        ND, DT, DP come within :data:`LOOKAHEAD_WINDOW` and ``settings.cube_lookahead`` (ply >= 2)
        the values are those of the 2-ply cubeful lookahead
        (:class:`~bgtools.engine.cubeful.cubesearch.CubeSearch`: what ``bgtools eval`` gives)."""
        cube = self._cube
        board = position.to_array()
        p = self.eval_boards(board[None], self.s.ply)[0]
        p = np.clip(p, 0.0, 1.0)
        x = cube.cube_x(board)
        code = cube.cube_values(p, c.args(self.met), x, self._out)
        if code == cube.UNAVAILABLE:
            return None
        nd, dt, dp = (float(v) for v in self._out[:3])
        ply = self.s.ply
        if self.s.cube_lookahead and ply >= 2:
            n = [self.to_norm(v, c) for v in (nd, dt, dp)]
            if min(abs(n[0] - min(n[1], n[2])), abs(n[0] - n[2]), abs(n[1] - n[2])) < self.lookahead_window:
                ply = min(ply, self.cube_max_ply)
                nd, dt = self.lookahead(board, c, ply)
                # the action as cube_values names it
                code = cube.ACTIONS.index(cube.Doubling.of(nd, dt, dp))
        mwc = None if c.money else (nd, dt, dp)
        # the answer that leaves the doubler least: a beaver (money, allowed) where the
        # double/take is worth less than nothing to him
        response = "beaver" if c.beavers and dt < 0.0 else ("take" if dt <= dp else "pass")
        ca = CubeAnalysis(tuple(float(v) for v in p), self.to_norm(nd, c), self.to_norm(dt, c),
                          self.to_norm(dp, c), cube.ACTIONS[code], response, mwc, ply)
        if code == cube.DOUBLE and ca.doubled <= ca.nd:  # a beaver makes doubling wrong
            ca = replace(ca, action=cube.ACTIONS[cube.NO_DOUBLE])
        return ca

    def search(self, fresh: bool = True):
        """The cube lookahead (:class:`~bgtools.engine.cubeful.cubesearch.CubeSearch`), made when first
        needed; ``fresh``: what it remembers of the decision before let go (one decision's tree at a time)."""
        from bgtools.engine.cubeful.cubesearch import CubeSearch

        if self._search is None:
            self._search = CubeSearch(self.ev, self.met)
        elif fresh:
            self._search.clear()
        return self._search

    def lookahead(self, board: np.ndarray, c: CubeInfo, ply: int) -> tuple[float, float]:
        """No double and double/take (points or MWC, as :func:`cube_values`) of the cubeful
        lookahead at ``ply``."""
        search = self.search()
        b = np.ascontiguousarray(board, np.int8).reshape(1, 2, 25)
        return (float(search.no_double(b, c, ply)[0]), float(search.double_take(b, c, ply)[0]))

    def cubeful_after(self, boards: np.ndarray, c: CubeInfo, ply: int) -> tuple[np.ndarray, Optional[np.ndarray]]:
        """As :meth:`after_values`, by the cubeful lookahead at ``ply``: the opponent, on roll in ``boards``, takes
        his cube decision at every node of the search (``AnalysisSettings.cubeful_plays``); the trees the
        cubeless values of ``boards`` grew are reused (:meth:`checker` gives them to the search).  The values are
        kept in the SQLite cache, where there is one, under the cube state (:meth:`cubeful_setting`)."""
        b = np.ascontiguousarray(boards, np.int8).reshape(-1, 2, 25)
        theirs_c = c.flipped()

        def search(x: np.ndarray) -> np.ndarray:  # the value in a row's first column, as the cache keeps it
            rows = np.zeros((x.shape[0], 5), np.float64)
            rows[:, 0] = self.search(fresh=False).node(x, theirs_c, ply)
            return rows

        theirs = self._through_store(self.cubeful_setting(theirs_c, ply), b, search)[:, 0]
        return self._normalised(-theirs if c.money else 1.0 - theirs, c)

    def cubeful_setting(self, c: CubeInfo, ply: int) -> str:
        """The cache's name for the cubeful lookahead's values at ``ply`` for the player on roll of ``c``: the
        evaluator, the depth and the whole cube state (with the match equity table's identity in match play)."""
        return f"{self.ev_name}|cubeful ply={ply}|{cube_state(c, self.met)}"

    # -- luck --------------------------------------------------------------------------
    def luck(self, position, dice, c: CubeInfo, opening: bool) -> tuple[float, Optional[float]]:
        from bgtools.engine.children import best_children, expand_children
        from bgtools.engine.evaluation import equity, invert_probs

        board = position.to_array()[None]
        children, offsets = expand_children(board)
        p0 = self.eval_boards(children, self.s.luck_ply)
        best = best_children(equity(p0), offsets)
        mover = invert_probs(p0[best])
        norm, raw = self.after_values(mover, children[best], c)
        hi, lo = max(dice), min(dice)
        r = ROLL_INDEX[hi, lo]
        w = np.where(ROLL_WAYS == 1, 0.0, 2.0) if opening else ROLL_WAYS.astype(np.float64)  # no double opens
        w /= w.sum()
        luck = float(norm[r] - w @ norm)
        return luck, (None if raw is None else float(raw[r] - w @ raw))

    def after_play(self, position, play, c: CubeInfo, player: int) -> tuple[float, Optional[float]]:
        """Player 0's game winning chance (and MWC) after a forced play (None: a dance)."""
        from bgtools.engine.evaluation import invert_probs

        if play is not None:
            board = play.after.to_array()
        else:
            b = position.to_array()
            board = np.stack([b[1], b[0]])
        probs = invert_probs(self.eval_boards(board[None], self.s.ply))
        _, raw = self.after_values(probs, board[None], c)
        w = float(probs[0, 0])
        m = None if raw is None else float(raw[0])
        if player == 1:
            w, m = 1.0 - w, (None if m is None else 1.0 - m)
        return w, m

    # -- checker play -----------------------------------------------------------------
    def checker(self, position, dice, play, c: CubeInfo):
        from bgtools.engine.evaluation import MoveFilter, best_first, equity, invert_probs
        from bgtools.core.movegen import legal_plays

        s = self.s
        plays = legal_plays(position, dice)
        after = np.stack([p.after.to_array() for p in plays])
        target = play.after.to_array().tobytes()
        played = next(i for i in range(len(plays)) if after[i].tobytes() == target)
        probs = invert_probs(self.eval_boards(after, 0, rolls_of=np.zeros(len(after), np.int64)))
        depth = np.zeros(len(plays), np.int64)
        # a late-game position whose close plays rollouts settle (analysis.endgame)
        late = s.ply >= 2 and bool(s.endgame_trials) and is_endgame(position)
        if s.ply >= 1:
            eq = equity(probs)
            keep = [int(i) for i in MoveFilter(s.keep, s.threshold).select(eq)]
            if played not in keep:
                keep.append(played)
            # (at 2 ply a late-game position skips the 1-ply stage: in races the 1-ply values swing with the parity of
            # the search, and the filter dropped the best plays)
            if s.ply >= 2 and not (late and s.ply == 2):
                idx = np.array(keep, np.int64)
                probs[idx] = invert_probs(self.eval_boards(after[idx], 1))
                depth[idx] = 1
                eq1 = equity(probs[idx])
                o1 = np.argsort(-eq1, kind="stable")
                keep = [int(idx[i]) for i in o1[:s.keep1] if eq1[i] >= eq1[o1[0]] - s.threshold1]
                if played not in keep:
                    keep.append(played)
            idx = np.array(keep, np.int64)
            # the cubeful lookahead of the close plays (below) takes the trees of their 2-ply values
            seed = self.search().remember if s.cubeful_plays and s.ply >= 2 else None
            probs[idx] = invert_probs(self.eval_boards(after[idx], s.ply, seed))
            depth[idx] = s.ply
        norm, raw = self.after_values(probs, after, c)
        if s.cubeful_plays and s.ply >= 2:
            deep = [i for i in sorted(range(len(plays)), key=lambda i: -norm[i]) if depth[i] == s.ply]
            # the play made keeps its value when it is not among them (its loss is then at least about the window)
            close = [i for i in deep if norm[i] >= norm[deep[0]] - CUBEFUL_WINDOW][:CUBEFUL_KEEP]
            idx = np.array(close, np.int64)
            n2, r2 = self.cubeful_after(after[idx], c, s.ply)
            norm[idx] = n2
            if raw is not None and r2 is not None:
                raw[idx] = r2
        rolled: dict[int, np.ndarray] = {}
        if late:
            rolled = self.endgame.revalue(position, dice, plays, played, norm, raw, depth == s.ply, c)
        ranking = best_first(plays, norm, depth, rolled)
        shown = ranking[:s.max_candidates]
        if played not in shown:
            shown.append(played)

        def candidate(i: int) -> Candidate:
            cand = Candidate(plays[i].notation(), tuple(float(v) for v in probs[i]), float(norm[i]),
                             None if raw is None else float(raw[i]), int(depth[i]), tuple(plays[i].steps))
            if i in rolled:
                r = rolled[i]
                cand = replace(cand, se=float(r[2]), diff_se=float(r[3]), trials=int(r[4]))
            return cand

        cands = tuple(candidate(i) for i in shown)
        return cands, shown.index(played), len(plays)


class DecisionValuer:
    """Values one decision as :func:`analyse_match` does, at ``settings.ply`` (used by
    :mod:`bgtools.analysis.levels` to re-value the close ones deeper).  ``cube_ply``: the
    cube lookahead's depth, applied to every cube decision asked for (None: as the analysis)."""

    def __init__(self, settings: AnalysisSettings, evaluator: Optional[Evaluator] = None, cache=None,
                 cube_ply: Optional[int] = None) -> None:
        self._an = _Analyser(evaluator, settings, cache)
        if cube_ply is not None:
            self._an.cube_max_ply = cube_ply
            self._an.lookahead_window = float("inf")

    def checker(self, position, dice, play, state) -> tuple[tuple[Candidate, ...], int, int]:
        """(candidates best first, the played one's index, legal plays) of ``play`` with ``dice``."""
        return self._an.checker(position, dice, play, _cube_of(state, True))

    def cube(self, position, state) -> Optional[CubeAnalysis]:
        """The cube decision of the player on roll (None when he cannot double)."""
        return self._an.cube_analysis(position, _cube_of(state, True))


def _phase(position) -> str:
    return PHASES[int(position.classify())]


def analyse_match(match: Union[Match, GameReader, FileStream], ply: int = 2, evaluator: Optional[Evaluator] = None, *,
                  settings: Optional[AnalysisSettings] = None,
                  cache: Union[str, EvalStore, None] = "default", label: Optional[str] = None,
                  progress: Optional[Callable[[int], None]] = None,
                  on_game: Optional[Callable[[Match, Game, list[Decision]], None]] = None,
                  keep: bool = True) -> MatchAnalysis:
    """Analyse every checker play, cube decision and roll of ``match``.

    ``ply`` is the search depth (ignored when ``settings`` is given); ``evaluator``
    defaults to :func:`bgtools.engine.evaluation.default_evaluator`; ``cache`` is an
    :class:`~bgtools.analysis.evalcache.EvalStore`, ``"default"`` (the user cache file) or None.
    ``label`` names the file in row keys (default ``match.source``).  ``progress(n)``
    is called with the number of actions done after each game.  Games with reading
    errors are skipped (their 1-based indices in ``skipped_games``).  ``match`` may be a
    :class:`~bgtools.formats.read.GameReader` or :class:`~bgtools.formats.read.FileStream`
    (``keep_steps=True``): the games are then
    analysed as they are read, and let go after their analysis.  ``on_game(header, game,
    decisions)`` is given each analysed game's decisions as it is done (to write them as they
    go); ``keep=False`` lets them go then (the result's ``decisions`` is empty; its summaries,
    per player and per game, and the file comparison are summed as the games go by).
    """
    from bgtools.model.game import Beaver, Double, Drop, Roll, Take
    from bgtools.model.replay import replay_game

    s = settings or AnalysisSettings(ply=ply)
    own_cache = False
    if isinstance(cache, str):
        from bgtools.analysis.evalcache import EvalStore

        cache, own_cache = EvalStore(), True
    an = _Analyser(evaluator, s, cache)
    decisions: list[Decision] = []
    totals = (PlayerTotals(), PlayerTotals())
    games: list[GameSummary] = []
    figures: list[FileFigure] = []  # the file's own analysis beside ours (analysis.filecompare)
    skipped: list[int] = []
    reader: Optional[Union[GameReader, FileStream]] = None
    read: Iterable[tuple[Match, Game]]
    if isinstance(match, (GameReader, FileStream)):
        reader = read = match
    else:
        whole = match
        read = ((whole, g) for g in whole.games)
    try:
        for gi, (head, g) in enumerate(read):
            if gi == 0:  # (a reader knows the header once it has read the first game)
                match = head
            length_ok = head.length <= an.met.length
            names = (head.players[0] or "player 0", head.players[1] or "player 1")
            label = label if label is not None else (head.source or "<match 1>")
            if g.errors or g.props.get("_setup"):
                skipped.append(gi + 1)
                if progress:
                    progress(len(g.actions))
                continue
            turn, opened_by, first_roll = 0, None, True
            pending: Optional[tuple[CubeAnalysis, CubeInfo, int]] = None
            prefix = f"{label}:{gi + 1}:"
            gd: list[Decision] = []  # the game's decisions
            an.new_game()
            for st in replay_game(head, g, gi):
                a = st.action
                pl = a.player
                if isinstance(a, Roll):
                    if opened_by != pl:
                        turn += 1
                    doubled_now = opened_by == pl
                    opened_by = None
                    if a.status not in ("play", "dance"):
                        if a.status in ("illegal", "unchecked"):
                            break
                        first_roll = False
                        continue
                    pos, state = st.position, st.state
                    c = _cube_of(state, length_ok)
                    base: dict[str, Any] = dict(row_key=prefix + str(st.index), game=gi + 1, action_index=st.index,
                                move_number=turn, player=pl, player_name=names[pl], phase=_phase(pos),
                                position=pos, state=state)
                    if s.cube and not first_roll and not doubled_now and length_ok:
                        ca = an.cube_analysis(pos, c)
                        if ca is not None:
                            best = ca.doubled
                            loss = max(0.0, best - ca.nd)
                            close = best >= ca.nd - s.close_cube or ca.action != "no double"
                            mloss = None if ca.mwc is None else max(0.0, min(ca.mwc[1], ca.mwc[2]) - ca.mwc[0])
                            gd.append(Decision(
                                **base, kind="cube", dice=None, played="no double",
                                best="double" if ca.action == "double" else ca.action, equity_loss=loss,
                                mwc_loss=mloss, error_class=error_class(loss), counted=close, cube=ca))
                    dice = a.dice
                    luck, luck_mwc = an.luck(pos, dice, c, first_roll)
                    first_roll = False
                    dtext = f"{max(dice)}{min(dice)}"
                    lk: dict[str, Any] = dict(luck=luck, luck_mwc=luck_mwc, luck_class=luck_class(luck))
                    if st.play is not None and st.legal_plays > 1:
                        cands, pi, n = an.checker(pos, dice, st.play, c)
                        loss = max(0.0, cands[0].equity - cands[pi].equity)
                        mloss = None if cands[pi].mwc is None else max(0.0, cands[0].mwc - cands[pi].mwc)
                        pw = cands[pi].probs[0] if pl == 0 else 1.0 - cands[pi].probs[0]
                        mw = None if cands[pi].mwc is None else (cands[pi].mwc if pl == 0 else 1 - cands[pi].mwc)
                        gd.append(Decision(
                            **base, kind="checker", dice=dtext, played=cands[pi].move, best=cands[0].move,
                            equity_loss=loss, mwc_loss=mloss, error_class=error_class(loss), candidates=cands,
                            played_index=pi, legal_plays=n, win_after=pw, mwc_after=mw,
                            steps=tuple(st.play.steps), **lk))
                    else:
                        text = st.play.notation() if st.play is not None else ""
                        pw, mw = an.after_play(pos, st.play, c, pl)
                        gd.append(Decision(
                            **base, kind="checker", dice=dtext, played=text, best=text, equity_loss=0.0,
                            error_class=ErrorClass.NONE, forced=True, counted=False, legal_plays=st.legal_plays,
                            steps=tuple(st.play.steps) if st.play is not None else (), win_after=pw,
                            mwc_after=mw, **lk))
                elif isinstance(a, Double):
                    turn += 1
                    opened_by = pl
                    c = _cube_of(st.state, length_ok)
                    if not s.cube or not length_ok:
                        continue
                    ca = an.cube_analysis(st.position, c)
                    if ca is None:
                        continue
                    best = max(ca.nd, ca.doubled)
                    loss = max(0.0, best - ca.doubled)
                    mloss = None
                    if ca.mwc is not None:
                        nd, dt, dp = ca.mwc
                        mloss = max(0.0, max(nd, min(dt, dp)) - min(dt, dp))
                    gd.append(Decision(
                        row_key=prefix + str(st.index), game=gi + 1, action_index=st.index, move_number=turn,
                        player=pl, player_name=names[pl], kind="cube", dice=None, played="double",
                        best="double" if ca.action == "double" else ca.action, equity_loss=loss, mwc_loss=mloss,
                        error_class=error_class(loss), phase=_phase(st.position), position=st.position,
                        state=st.state, cube=ca))
                    pending = (ca, c, pl)
                elif isinstance(a, (Take, Drop, Beaver)) and pending is not None:
                    ca, c, doubler = pending
                    pending = None
                    took = not isinstance(a, Drop)
                    played = "beaver" if isinstance(a, Beaver) else ("take" if took else "pass")
                    # the answer's loss against the best answer the rules allow (for the taker,
                    # the doubler's value is what he minimises)
                    loss = max(0.0, ca.answer_value(played) - ca.doubled)
                    mloss = None
                    if ca.mwc is not None:
                        mloss = max(0.0, (ca.mwc[1] if took else ca.mwc[2]) - min(ca.mwc[1], ca.mwc[2]))
                    gd.append(Decision(
                        row_key=prefix + str(st.index), game=gi + 1, action_index=st.index, move_number=turn,
                        player=pl, player_name=names[pl], kind="cube", dice=None, played=played, best=ca.response,
                        equity_loss=loss, mwc_loss=mloss, error_class=error_class(loss),
                        phase=_phase(st.position), position=st.position, state=st.state, cube=ca))
            for i, f in game_figures(g, gd):
                gd[i] = replace(gd[i], file=f.to_dict())
                figures.append(f)
            for d in gd:
                totals[d.player].add(d)
            games.append(game_summary(gi, g, gd))
            if on_game is not None:
                on_game(head, g, gd)
            if keep:
                decisions.extend(gd)
            if progress:
                progress(len(g.actions))
    finally:
        hits, misses = (cache.hits, cache.misses) if cache is not None else (0, 0)
        if own_cache:
            cache.close()
    if reader is not None:
        match = reader.match()  # the header and the games' summaries
    assert isinstance(match, Match)
    length_ok = match.length <= an.met.length
    label = label if label is not None else (match.source or "<match 1>")
    names = (match.players[0] or "player 0", match.players[1] or "player 1")
    summaries = tuple(totals[p].summary(match, p, names[p], an.met, length_ok) for p in (0, 1))
    compared = None
    if figures:
        compared = agreement(figures)
        compared["source"] = figures[0].source
    return MatchAnalysis(label, names, match.length, tuple(decisions), summaries, tuple(games), s, an.ev_name,
                         tuple(skipped), hits, misses, compared)


def resummarise(match: Match, analysis: MatchAnalysis, decisions: Sequence[Decision]) -> MatchAnalysis:
    """``analysis`` with ``decisions`` (the same ones re-valued) and its per-player and per-game
    totals made again from them (file figures are left to the caller)."""
    from bgtools.engine.cubeful.met import load_met

    met = analysis.settings.met or load_met()  # the table the analysis used
    summaries = player_summaries(match, analysis.players, decisions, met, match.length <= met.length)
    games = tuple(replace(g, loss=tuple(sum(d.equity_loss for d in decisions if d.game == g.game and d.player == p
                                            and d.counted and not d.forced) for p in (0, 1)))
                  for g in analysis.games)
    return replace(analysis, decisions=tuple(decisions), players_summary=summaries, games=games)
