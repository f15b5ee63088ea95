"""What an analysis says: thresholds, error and luck classes, ratings, and the value types
(:class:`Decision`, :class:`PlayerSummary`, :class:`MatchAnalysis`) with their JSON and tables.

Definitions are in :mod:`bgtools.analysis.analyse` and ``docs/analysis.md``.

>>> error_class(0.07), luck_class(-0.4), rating(0.004)
('bad', 'unlucky', 'World class')
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Callable, Iterable, Literal, Optional

if TYPE_CHECKING:
    from bgtools.engine.cubeful.met import MatchEquityTable

from bgtools.core.matchstate import MatchState
from bgtools.core.position import Position, PositionClass
from bgtools.model.fileanalysis import ERROR_THRESHOLDS, ERRORS, ErrorClass, classify_error

#: what a decision is about
DecisionKind = Literal["checker", "cube"]
#: gnubg's luck classes
LuckClass = Literal["very unlucky", "unlucky", "none", "lucky", "very lucky"]

__all__ = [
    "DecisionKind", "ErrorClass", "LuckClass",
    "AnalysisSettings", "Candidate", "CubeAnalysis", "Decision", "PlayerSummary", "GameSummary",
    "MatchAnalysis", "error_class", "luck_class", "ERROR_THRESHOLDS", "ERRORS", "LUCK_THRESHOLDS", "RATINGS", "PHASES",
    "rating", "LEVELS", "json_lines", "decisions_frame",
]

#: luck thresholds (gnubg defaults): above +0.6 very lucky, +0.3 lucky; below -0.3 / -0.6
LUCK_THRESHOLDS = (0.6, 0.3)
#: gnubg's rating bands by normalised error rate per decision (upper bounds)
RATINGS = ((0.002, "Supernatural"), (0.005, "World class"), (0.008, "Expert"), (0.012, "Advanced"),
           (0.018, "Intermediate"), (0.026, "Casual player"), (0.035, "Beginner"), (math.inf, "Awful!"))
#: a position's phase: the label of its :class:`~bgtools.core.position.PositionClass`, indexed by it
PHASES = tuple(c.label for c in PositionClass)
#: the analysis levels (``annotate --level``; their tiers are in :mod:`bgtools.analysis.levels`)
LEVELS = ("fast", "strong", "deep", "rollout")


def error_class(loss: float) -> ErrorClass:
    """``"none"``, ``"doubtful"``, ``"bad"`` or ``"very bad"`` (an :class:`ErrorClass`) for a
    normalised equity loss."""
    return classify_error(loss)


def luck_class(luck: float) -> LuckClass:
    """``"very lucky"`` ... ``"very unlucky"``, ``"none"`` in between."""
    hi, lo = LUCK_THRESHOLDS
    if luck > hi:
        return "very lucky"
    if luck > lo:
        return "lucky"
    if luck < -hi:
        return "very unlucky"
    if luck < -lo:
        return "unlucky"
    return "none"


def rating(error_rate: float) -> str:
    """gnubg's verbal rating for a normalised error rate per decision."""
    for limit, name in RATINGS:
        if error_rate < limit:
            return name
    return RATINGS[-1][1]


# ----------------------------------------------------------------------------- value types
@dataclass(frozen=True, slots=True)
class AnalysisSettings:
    """Search settings; all of them are part of the evaluation-cache key of the values they change
    (the cache holds cubeless values: ``met`` changes none of them)."""

    ply: int = 2
    keep: int = 8
    threshold: float = 0.16
    keep1: int = 4
    threshold1: float = 0.08
    cube: bool = True
    luck_ply: int = 0
    close_cube: float = 0.16
    #: at ply >= 2, close cube decisions are valued by the cubeful lookahead (as ``eval``), not
    #: by the cube formula on the ply's cubeless probabilities (see ``analysis.analyse``)
    cube_lookahead: bool = True
    #: at ply 2 and 3, the checker plays within :data:`~bgtools.analysis.analyse.CUBEFUL_WINDOW` of the best (at most
    #: ``CUBEFUL_KEEP``) are valued by the cubeful lookahead (every node of the search takes its own cube decision,
    #: as gnubg and XG value plays), not by the cube formula once on their cubeless probabilities; it reuses the
    #: cubeless search's tree (docs/analysis.md, "gnubg on the same plays"); False: the cube formula alone
    cubeful_plays: bool = True
    max_candidates: int = 8
    #: at ply 2 and 3, the close checker plays of races and crashed positions with short games are settled by rollouts
    #: to the end of at most this many trials (:func:`~bgtools.analysis.endgame.is_endgame` and the constants beside
    #: it); 0: off
    endgame_trials: int = 648
    #: the evaluator's pruning net, where it has one, ranks each roll's replies inside the search
    #: (:mod:`bgtools.engine.nets.prune`); False: the full net values every reply
    prune: bool = True
    #: a named tier plan (:data:`LEVELS`, :mod:`bgtools.analysis.levels`); None: every decision at ``ply``
    level: Optional[str] = None
    #: the rollout tier's trials per candidate (and per cube branch)
    rollout_trials: int = 432
    #: the rollout tier's truncation in half-moves (0: games played to the end)
    rollout_truncate: int = 7
    #: the match equity table of match play (None: the shipped one); not in :meth:`to_dict`
    met: Optional["MatchEquityTable"] = field(default=None, repr=False)

    def to_dict(self) -> dict:
        """The search settings by name (what an analysis' JSON shows)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "met"}

    def __post_init__(self) -> None:
        if self.level is not None and self.level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {self.level!r}")
        if self.endgame_trials != 0 and self.endgame_trials < 2:
            raise ValueError(f"endgame trials must be 0 (off) or at least 2, not {self.endgame_trials}")
        if self.rollout_trials < 2:
            raise ValueError(f"rollout trials must be at least 2, not {self.rollout_trials}")
        if not 0 <= self.ply <= 3:
            raise ValueError(f"ply must be 0 to 3, not {self.ply}")
        if not 0 <= self.luck_ply <= 2:
            raise ValueError(f"luck ply must be 0 to 2, not {self.luck_ply}")


@dataclass(frozen=True, slots=True)
class Candidate:
    """A play with its cubeless ``probs`` (mover's view, after the play), normalised cubeful
    ``equity``, ``mwc`` (match play) and the ``ply`` it was evaluated at."""

    move: str
    probs: tuple[float, ...]
    equity: float
    mwc: Optional[float]
    ply: int
    steps: tuple = ()  #: the play's checker steps (mover's numbering)
    se: Optional[float] = None  #: standard error of ``equity`` (a rollout), None for an evaluation
    trials: int = 0  #: rollout trials behind ``equity`` (0: an evaluation at ``ply``)
    #: standard error of this play's difference from the best rolled-out one (common dice)
    diff_se: Optional[float] = None

    @property
    def method(self) -> str:
        """What valued the play: ``"N-ply"`` or ``"rollout"``."""
        return "rollout" if self.trials else f"{self.ply}-ply"


@dataclass(frozen=True, slots=True)
class CubeAnalysis:
    """The doubler's cube decision: normalised no double / double-take / double-pass values,
    the same in MWC (match play), the proper ``action`` and the proper ``response``."""

    probs: tuple[float, ...]
    nd: float
    dt: float
    dp: float
    action: str  #: "no double", "double" or "too good"
    response: str  #: "take", "pass" or (money with beavers allowed) "beaver"
    mwc: Optional[tuple[float, float, float]] = None
    ply: int = 0
    #: standard errors of (nd, dt) when a rollout valued them (dp is exact)
    se: Optional[tuple[float, float]] = None
    trials: int = 0  #: rollout trials (0: an evaluation at ``ply``)

    @property
    def method(self) -> str:
        """What valued the decision: ``"N-ply"`` or ``"rollout"``."""
        return "rollout" if self.trials else f"{self.ply}-ply"

    def answer_value(self, answer: str) -> float:
        """The doubler's normalised value of a double answered by ``answer`` ("take",
        "pass" or "beaver": a take redoubled at once, the taker keeping the cube at twice
        the stake, so twice the double/take value)."""
        return {"take": self.dt, "pass": self.dp, "beaver": 2.0 * self.dt}[answer]

    @property
    def doubled(self) -> float:
        """The doubler's value of a double with the proper response."""
        return self.answer_value(self.response)


@dataclass(frozen=True, slots=True)
class Decision:
    """One analysed action.  ``equity_loss`` is normalised (see the module notes);
    ``mwc_loss`` the same in match winning chance (match play only).  ``position`` and
    ``state`` are the values before the action (the position seen from the player on roll);
    their IDs (:attr:`position_id`, :attr:`match_id`) are made where a decision is written."""

    row_key: str
    game: int  #: 1-based index of the game in the match
    action_index: int  #: 0-based index of the action in the game (the export row key's last part)
    move_number: int  #: 1-based turn number in the game
    player: int
    player_name: str
    kind: DecisionKind  #: "checker" or "cube"
    dice: Optional[str]
    played: str
    best: str
    equity_loss: float
    error_class: ErrorClass
    phase: str
    position: Position
    state: MatchState
    mwc_loss: Optional[float] = None
    forced: bool = False
    counted: bool = True  #: counts in the error rates
    luck: Optional[float] = None
    luck_mwc: Optional[float] = None
    luck_class: Optional[LuckClass] = None
    candidates: tuple[Candidate, ...] = ()
    played_index: Optional[int] = None
    legal_plays: Optional[int] = None
    cube: Optional[CubeAnalysis] = None
    win_after: Optional[float] = None  #: player 0's cubeless game winning chance after the action
    mwc_after: Optional[float] = None  #: player 0's cubeful match winning chance after the action
    steps: tuple = ()  #: checker steps of the play made (mover's numbering)
    file: Optional[dict] = None  #: the match file's own figure (XG, BGBlitz), see analysis.filecompare
    #: the analysis level's tier that last valued it ("screen", "deep", "rollout"; "" without levels)
    tier: str = ""

    @property
    def method(self) -> str:
        """What valued the decision: ``"N-ply"`` or ``"rollout"`` (the best candidate's, or the cube's)."""
        if self.kind == "checker":
            return self.candidates[0].method if self.candidates else ""
        return self.cube.method if self.cube is not None else ""

    @property
    def position_id(self) -> str:
        """gnubg's Position ID of :attr:`position`."""
        return self.position.position_id()

    @property
    def match_id(self) -> str:
        """gnubg's Match ID of :attr:`state`."""
        return self.state.match_id()

    def to_dict(self) -> dict:
        """Every field by name, the position and state as their IDs (``position_id``, ``match_id``)."""
        d: dict = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "position":
                d["position_id"] = self.position_id
            elif f.name == "state":
                d["match_id"] = self.match_id
            elif f.name == "candidates":
                d["candidates"] = [asdict(c) for c in v]
            elif f.name == "cube":
                d["cube"] = None if v is None else asdict(v)
            elif f.name == "file":
                d["file"] = None if v is None else dict(v)
            else:
                d[f.name] = v
        return d

    def summary_dict(self) -> dict:
        """The flat record written by ``bgtools annotate --json`` (one line per decision)."""
        d = {k: getattr(self, k) for k in (
            "row_key", "game", "move_number", "player", "player_name", "kind", "dice", "played", "best",
            "equity_loss", "mwc_loss", "error_class", "phase", "luck", "luck_class", "position_id", "match_id")}
        d["equity_loss"] = round(self.equity_loss, 6)
        d["method"] = self.method
        if self.tier:
            d["tier"] = self.tier
        if self.kind == "checker":
            d["candidates"] = [{"move": c.move, "equity": round(c.equity, 6), "ply": c.ply,
                                **({"se": round(c.se, 6), "diff_se": round(c.diff_se or 0.0, 6), "trials": c.trials}
                                   if c.se is not None else {})}
                               for c in self.candidates[:5]]
        elif self.cube is not None:
            c = self.cube
            d["cube"] = {"nd": round(c.nd, 6), "dt": round(c.dt, 6), "dp": round(c.dp, 6),
                         "action": c.action, "response": c.response}
            if c.se is not None:
                d["cube"].update(nd_se=round(c.se[0], 6), dt_se=round(c.se[1], 6), trials=c.trials)
        if self.file is not None:
            d["file"] = self.file
        return d


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """Totals for one player (definitions in ``docs/analysis.md``)."""

    player: int
    name: str
    unforced_moves: int
    checker_loss: float
    cube_decisions: int
    cube_loss: float
    checker_errors: dict
    cube_errors: dict
    errors_by_phase: dict
    luck: float
    luck_points: float
    luck_mwc: Optional[float]
    result: float  #: points won (money) or match result minus the starting MWC (match)
    luck_adjusted: float
    mwc_loss: Optional[float] = None

    @property
    def checker_error_rate(self) -> float:
        return self.checker_loss / self.unforced_moves if self.unforced_moves else 0.0

    @property
    def cube_error_rate(self) -> float:
        return self.cube_loss / self.cube_decisions if self.cube_decisions else 0.0

    @property
    def error_rate(self) -> float:
        n = self.unforced_moves + self.cube_decisions
        return (self.checker_loss + self.cube_loss) / n if n else 0.0

    @property
    def pr(self) -> float:
        """500 x mean normalised equity lost per counted decision."""
        return 500.0 * self.error_rate

    @property
    def rating(self) -> str:
        return rating(self.error_rate)

    def to_dict(self) -> dict:
        d = asdict(self)
        d.update(checker_error_rate=self.checker_error_rate, cube_error_rate=self.cube_error_rate,
                 error_rate=self.error_rate, pr=self.pr, rating=self.rating)
        return d


@dataclass(frozen=True, slots=True)
class GameSummary:
    """Per game: luck totals (normalised) of both players and the result."""

    game: int
    number: int
    score: tuple[int, ...]  #: (player 0, player 1)
    luck: tuple[float, ...]
    loss: tuple[float, ...]
    winner: Optional[int]
    points: int


@dataclass(frozen=True)
class MatchAnalysis:
    """The analysis of one match: decisions in match order, summaries, settings."""

    source: str
    players: tuple[str, str]
    length: int
    decisions: tuple[Decision, ...]
    players_summary: tuple[PlayerSummary, ...]  #: player 0, player 1
    games: tuple[GameSummary, ...]
    settings: AnalysisSettings
    evaluator: str
    skipped_games: tuple[int, ...] = ()
    cache_hits: int = 0
    cache_misses: int = 0
    file_comparison: Optional[dict] = None  #: agreement with the file's own analysis (filecompare)
    #: per player, PR in XG's convention (ours, and XG's rebuilt from the file): analysis.xgpr
    xg_pr: tuple = ()
    #: the analysis level (analysis.levels): its name, tiers, decisions each re-valued, seconds
    level: Optional[dict] = None

    @property
    def errors(self) -> list[Decision]:
        """The decisions classed doubtful or worse, in match order."""
        return [d for d in self.decisions if d.error_class != "none"]

    def to_dict(self) -> dict:
        return {"source": self.source, "players": list(self.players), "length": self.length,
                "evaluator": self.evaluator, "settings": self.settings.to_dict(),
                "skipped_games": list(self.skipped_games),
                "summary": [p.to_dict() for p in self.players_summary],
                "games": [asdict(g) for g in self.games],
                "decisions": [d.to_dict() for d in self.decisions],
                **({"file_comparison": self.file_comparison} if self.file_comparison else {}),
                **({"xg_pr": [x.to_dict() for x in self.xg_pr]} if self.xg_pr else {}),
                **({"level": self.level} if self.level else {})}

    def json_lines(self, all_rows: bool = False, xg_counted: Optional[Callable[["Decision"], bool]] = None) -> list[str]:
        """One JSON line per decision (forced plays and uncounted cube checks only with ``all_rows``);
        ``xg_counted``: whether XG's PR convention counts a decision (``analysis.xgpr.counted_xg``),
        said on each line."""
        return json_lines(self.decisions, all_rows, xg_counted)

    def to_dataframe(self):
        """One row per analysed action keyed by ``row_key`` (joins onto ``bgtools export``):
        checker columns ``checker_*``, cube columns ``cube_*``, luck."""
        return decisions_frame(self.decisions)


def json_lines(decisions: Iterable[Decision], all_rows: bool = False,
               xg_counted: Optional[Callable[[Decision], bool]] = None) -> list[str]:
    """The JSON lines of :meth:`MatchAnalysis.json_lines` for ``decisions`` (a game's, say)."""
    return [json.dumps({**d.summary_dict(), **({"xg_counted": xg_counted(d)} if xg_counted else {})},
                       ensure_ascii=False) for d in decisions if all_rows or (not d.forced and d.counted)]


def decisions_frame(decisions: Iterable[Decision]):
    """The table of :meth:`MatchAnalysis.to_dataframe` for ``decisions`` (a game's, say: the
    tables of the games one after the other are the match's)."""
    import pandas as pd

    rows: dict[str, dict] = {}
    for d in decisions:
        r = rows.setdefault(d.row_key, {"row_key": d.row_key, "game": d.game, "action_index": d.action_index,
                                        "move_number": d.move_number, "player": d.player_name,
                                        "phase": d.phase})
        if d.kind == "checker":
            r.update(checker_played=d.played, checker_best=d.best, checker_equity_loss=d.equity_loss,
                     checker_mwc_loss=d.mwc_loss, checker_error=d.error_class, forced=d.forced,
                     luck=d.luck, luck_mwc=d.luck_mwc, luck_class=d.luck_class,
                     checker_equity=d.candidates[d.played_index].equity if d.candidates else None)
        else:
            cu = d.cube
            r.update(cube_played=d.played, cube_best=d.best, cube_equity_loss=d.equity_loss,
                     cube_mwc_loss=d.mwc_loss, cube_error=d.error_class, cube_counted=d.counted,
                     cube_nd=cu.nd, cube_dt=cu.dt, cube_dp=cu.dp, cube_action=cu.action, cube_response=cu.response)
    cols = ["row_key", "game", "action_index", "move_number", "player", "phase", "forced", "checker_played",
            "checker_best", "checker_equity", "checker_equity_loss", "checker_mwc_loss", "checker_error",
            "luck", "luck_mwc", "luck_class", "cube_played", "cube_best", "cube_equity_loss", "cube_mwc_loss",
            "cube_error", "cube_counted", "cube_nd", "cube_dt", "cube_dp", "cube_action", "cube_response"]
    df = pd.DataFrame(list(rows.values()), columns=cols)
    for c in ("checker_equity", "checker_equity_loss", "checker_mwc_loss", "luck", "luck_mwc", "cube_equity_loss",
              "cube_mwc_loss", "cube_nd", "cube_dt", "cube_dp"):
        df[c] = df[c].astype("float64")
    for c in ("forced", "cube_counted"):
        df[c] = df[c].astype("boolean")
    for c in ("row_key", "player", "phase", "checker_played", "checker_best", "checker_error", "luck_class",
              "cube_played", "cube_best", "cube_error", "cube_action", "cube_response"):
        df[c] = df[c].astype("string")
    df["game"] = df["game"].astype("int32")
    df["action_index"] = df["action_index"].astype("int32")
    df["move_number"] = df["move_number"].astype("int32")
    return df

