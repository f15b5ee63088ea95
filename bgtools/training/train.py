"""Seeded TD(lambda) self-play training of the nets in :mod:`bgtools.engine.nets.nn`.

Each game is played greedily at 0-ply by the current nets (both sides), with the chooser
of :mod:`bgtools.engine.chooser` (no bear-off databases).  When it ends,
every position ``s_t`` (player on roll before his roll) is moved toward its lambda-return,
seen from its own side::

    G_T = exact result,   G_t = (1 - lam) * flip(V(s_{t+1})) + lam * flip(G_{t+1})

where ``flip`` turns the five outputs of the opponent into ours (win <-> 1 - win, our
gammons <-> his).  The update is a gradient step on the cross-entropy of the sigmoid
outputs, through the net of the position's class.  Game ``g`` of a run uses the seed
``seed * 10**9 + g``, so a run stopped at a checkpoint resumes to the same weights.

A run folder holds ``ckpt.npz`` (weights, games done, config), ``best.npz`` (the weights
that scored best against pubeval so far), ``snapshots/`` (the weights at each strength
check) and ``log.csv``.
"""

from __future__ import annotations

import csv
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numba as nb
import numpy as np

from bgtools.engine.chooser import choose0, new_chooser_buffers, swap_into
from bgtools.engine.nets.nn import Weights, encode_net, forward_row, init_weights
from bgtools.engine.outputs import turn_into
from bgtools.engine.play import MAX_TURNS, duel_chooser, game_over_board, opening_board

__all__ = ["TrainConfig", "td_games", "train_run", "LOG_FIELDS"]

LOG_FIELDS = ["games", "hours", "games_per_s", "alpha", "lambda", "turns_per_game", "ppg", "ci95", "eval_games", "note"]


@nb.njit(cache=True, fastmath=True)
def _update(board, target, alpha, net, ev, dh) -> None:
    """One gradient step of the net of ``board``'s class toward ``target``."""
    x = ev.x
    h = ev.h
    y = ev.y
    c = encode_net(board, net, x, ev.mb)
    if c < 0:
        return
    W1 = net.W1s[c]
    b1 = net.b1s[c]
    W2 = net.W2s[c]
    b2 = net.b2s[c]
    nin = W1.shape[0]
    nh = W1.shape[1]
    forward_row(x, nin, W1, b1, W2, b2, h, y, ev.idx)
    d = np.empty(5, np.float32)
    for o in range(5):
        d[o] = target[o] - y[o]
    for k in range(nh):
        s = 0.0
        for o in range(5):
            s += W2[k, o] * d[o]
        dh[k] = s * h[k] * (1.0 - h[k]) * alpha
    for k in range(nh):
        for o in range(5):
            W2[k, o] += alpha * d[o] * h[k]
    for o in range(5):
        b2[o] += alpha * d[o]
    for j in range(nin):
        v = x[j]
        if v != 0.0:
            for k in range(nh):
                W1[j, k] += v * dh[k]
    for k in range(nh):
        b1[k] += dh[k]


@nb.njit(cache=True)
def _td_kernel(ch, first_game, n_games, seed, alpha, lam, stats):
    """Play and learn from ``n_games`` games chosen by ``ch`` (0 ply; its net is trained in
    place); ``stats`` += (games, turns, first-player points)."""
    traj = np.zeros((MAX_TURNS + 1, 2, 25), np.int8)
    V = np.zeros((MAX_TURNS + 1, 5), np.float64)
    buf = new_chooser_buffers(ch.net)
    dh = np.empty(buf.ev.h.shape[0], np.float32)
    bp = np.empty(5, np.float64)
    G = np.empty(5, np.float64)
    fG = np.empty(5, np.float64)
    fV = np.empty(5, np.float64)
    for g in range(n_games):
        np.random.seed(seed * 1000000000 + first_game + g)
        board = opening_board()
        traj[0] = board
        t = 0
        while t < MAX_TURNS:
            while True:
                d1 = np.random.randint(1, 7)
                d2 = np.random.randint(1, 7)
                if t > 0 or d1 != d2:
                    break
            i = choose0(board, max(d1, d2), min(d1, d2), ch, buf, bp)
            if i >= 0:
                swap_into(buf.mine.boards[i], board)
            else:
                swap_into(board.copy(), board)
            for o in range(5):
                V[t + 1, o] = bp[o]  # the position now on roll, from his side
            t += 1
            traj[t] = board
            if game_over_board(board):
                break
        T = t
        stats[0] += 1
        stats[1] += T
        # the side on roll at T lost; it is player T % 2
        pts = 1.0 + V[T, 3] + V[T, 4]
        stats[2] += pts if T % 2 == 1 else -pts
        for o in range(5):
            G[o] = V[T, o]
        for s in range(T - 1, -1, -1):
            turn_into(G, fG)
            turn_into(V[s + 1], fV)
            for o in range(5):
                G[o] = (1.0 - lam) * fV[o] + lam * fG[o]
            _update(traj[s], G, alpha, ch.net, buf.ev, dh)


def td_games(weights: Weights, first_game: int, n_games: int, seed: int, alpha: float, lam: float) -> np.ndarray:
    """Train ``weights`` in place on games ``first_game .. first_game + n_games - 1``;
    return (games, turns, points of the side that moved first)."""
    stats = np.zeros(3, np.float64)
    _td_kernel(duel_chooser(weights, 0), first_game, n_games, seed, float(alpha), float(lam), stats)
    return stats


@dataclass(frozen=True)
class TrainConfig:
    """Settings of a TD run (stored in its checkpoint; a resumed run keeps them)."""

    games: int = 1_000_000
    hidden: tuple[int, int, int] = (128, 64, 64)
    alpha: float = 0.1
    alpha_min: float = 0.02
    alpha_halflife: int = 100_000
    lam: float = 0.7
    seed: int = 1
    chunk: int = 500
    ckpt_every: int = 5_000
    eval_every: int = 25_000
    eval_games: int = 1_000
    eval_seed: int = 777

    def alpha_at(self, games_done: int) -> float:
        return max(self.alpha_min, self.alpha * 0.5 ** (games_done / self.alpha_halflife))

    def lam_at(self, games_done: int) -> float:
        """lambda decays with the learning rate (lam at the start, lam * alpha_min / alpha at the floor)."""
        return self.lam * self.alpha_at(games_done) / self.alpha


def _write_log(path: Path, row: dict) -> None:
    new = not path.exists()
    with path.open("a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=LOG_FIELDS)
        if new:
            w.writeheader()
        w.writerow(row)


def _version(games: int) -> str:
    return f"nn-{time.strftime('%Y%m%d')}-{games // 1000}k"


def train_run(run_dir: str | Path, config: TrainConfig | None = None, echo=print, max_games: int | None = None,
              init: str | Path | None = None) -> Weights:
    """Train (or resume) the run in ``run_dir`` until ``config.games`` games are done.

    ``config`` is used for a new run; an existing ``ckpt.npz`` brings its own settings
    (only ``games`` may be raised).  ``max_games`` caps the games played by this call.
    ``init`` starts a new run from saved weights, carrying on their game count and hours
    (a later stage of training with other settings).
    """
    from bgtools.engine.play import duel_vs_pubeval

    run = Path(run_dir)
    run.mkdir(parents=True, exist_ok=True)
    ckpt = run / "ckpt.npz"
    log = run / "log.csv"
    if ckpt.exists():
        w = Weights.load(ckpt)
        stored = dict(w.meta["config"])
        stored["hidden"] = tuple(stored["hidden"])
        if config is not None and config.games > stored["games"]:
            stored["games"] = config.games
        cfg = TrainConfig(**stored)
        done = int(w.meta["games"])
        hours = float(w.meta.get("hours", 0.0))
        best = float(w.meta.get("best_ppg", -9.0))
        echo(f"resuming {run} at {done} games")
    elif init is not None:
        cfg = config or TrainConfig()
        w = Weights.load(init)
        cfg = TrainConfig(**{**asdict(cfg), "hidden": w.hidden})
        done = int(w.meta.get("games", 0))
        hours = float(w.meta.get("hours", 0.0))
        best = -9.0
        echo(f"new run {run} from {init} at {done} games: alpha {cfg.alpha_at(done):.4f}, lambda {cfg.lam_at(done):.3f}")
    else:
        cfg = config or TrainConfig()
        w = init_weights(cfg.hidden, cfg.seed)
        done, hours, best = 0, 0.0, -9.0
        echo(f"new run {run}: hidden {cfg.hidden}, alpha {cfg.alpha}, lambda {cfg.lam}")

    def save(path: Path) -> None:
        meta = {"name": "bgtools-nn", "version": _version(done), "games": done, "hours": hours,
                "best_ppg": best, "config": asdict(cfg), "hidden": list(cfg.hidden), "method": "td"}
        Weights(w.W1, w.b1, w.W2, w.b2, meta).save(path)

    stop = cfg.games if max_games is None else min(cfg.games, done + max_games)
    last_ckpt = done
    try:
        while done < stop:
            n = min(cfg.chunk, stop - done)
            a = cfg.alpha_at(done)
            t0 = time.perf_counter()
            st = td_games(w, done, n, cfg.seed, a, cfg.lam_at(done))
            dt = time.perf_counter() - t0
            done += n
            hours += dt / 3600.0
            row = {"games": done, "hours": f"{hours:.4f}", "games_per_s": f"{n / dt:.1f}", "alpha": f"{a:.4f}",
                   "lambda": f"{cfg.lam_at(done - n):.3f}", "turns_per_game": f"{st[1] / st[0]:.1f}",
                   "ppg": "", "ci95": "", "eval_games": "", "note": ""}
            if cfg.eval_every and done % cfg.eval_every == 0:
                r = duel_vs_pubeval(w, cfg.eval_games, seed=cfg.eval_seed)
                row.update(ppg=f"{r.ppg:.4f}", ci95=f"{r.ci95:.4f}", eval_games=r.games)
                echo(f"{done} games: vs pubeval {r}")
                (run / "snapshots").mkdir(exist_ok=True)
                save(run / "snapshots" / f"g{done:08d}.npz")
                if r.ppg > best:
                    best = r.ppg
                    save(run / "best.npz")
                    row["note"] = "best"
            _write_log(log, row)
            if done - last_ckpt >= cfg.ckpt_every or done >= stop or row["ppg"]:
                save(ckpt)
                last_ckpt = done
                echo(f"{done} games, {n / dt:.1f} games/s, alpha {a:.4f}, {hours:.3f} h")
    except KeyboardInterrupt:
        echo("interrupted: the last checkpoint is kept")
    return w
