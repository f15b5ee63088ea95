"""Behaviour fingerprint of the cube code, the duels and their speed: SHA-256 of the output of
``bgtools eval``/``hint`` with the cube at money and match scores, ``scoremap``, ``annotate``,
cube rollouts (``rollout --cube-decision``, cubeful with variance reduction), and of the points
per game of seeded duplicate-dice duels (net vs pubeval, net vs net), with the duels' times.

Run it before and after a change and compare the hashes (byte for byte the same outputs):

    PYTHONPATH=. python benchmarks/fingerprint_cube.py > before.txt
    ... change ...
    PYTHONPATH=. python benchmarks/fingerprint_cube.py > after.txt
    diff <(grep -v seconds before.txt) <(grep -v seconds after.txt)
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import time

#: cube states from tests/data/cube.jsonl.gz: money centred / owned (2, 4) / opponent owns,
#: match centred, 2-away, owned, post-Crawford trailer and leader, Crawford, dead cube
IDS = {
    "money_centred": "3G6IpADbAwAAAQ:cAkAAAAAAAAE",
    "money_owned_2": "ttsdAAC/NwEAMA:UQkAAAAAAAAA",
    "money_owned_4": "bHfAAwKYtwMAbA:AgEAAAAAAAAA",
    "opp_owns": "O1wDMQLvPAcAAA:QgkAAAAAAAAA",
    "match_centred": "254DAGDbthkQAA:MAHgAEAAEAAE",
    "match_2away": "c28HCADbLgAAAA:MAFgATAASAAE",
    "match_owned": "xZ1BlATbBwAgAA:UgkgAiAAQAAE",
    "post_crawford_trailer": "tt0GBEDdfAAAAA:MAFgARAAUAAE",
    "post_crawford_leader": "sM/BAVCynsEBBg:cAmgACAAIAAE",
    "crawford": "vHsAAFA4gCG8Aw:8AlgAVAAUAAE",
    "dead_cube": "/zcAABi5u0MQAA:AQGgADAAGAAE",
}
OPENING = "4HPwATDgc/ABMA:cAkAAAAAAAAA"
CONTACT_MATCH = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5:10"


def commands(quick: bool) -> list[tuple[str, list[str]]]:
    ids = list(IDS.values())
    out: list[tuple[str, list[str]]] = []
    for ply in (0, 1, 2):
        chosen = ids if ply < 2 else [IDS["money_centred"], IDS["match_2away"], IDS["post_crawford_trailer"]]
        out.append((f"eval ply {ply}", ["eval", "--json", "-p", str(ply), "-i", "-", "\n".join(chosen)]))
        out.append((f"hint cube ply {ply}", ["hint", "--json", "-p", str(ply), "-i", "-", "\n".join(chosen)]))
    out.append(("hint 31 at scores ply 0", ["hint", "--json", "-i", "-", "\n".join(f"{i} 31" for i in ids)]))
    out.append(("hint 64 at scores ply 1", ["hint", "--json", "-p", "1", "-i", "-",
                                            "\n".join(f"{i} 64" for i in ids[4:8])]))
    out.append(("hint --rolls match", ["hint", "--json", "--rolls", IDS["match_2away"], ""]))
    out.append(("eval no-jacoby no-beavers", ["eval", "--json", "--no-jacoby", "--no-beavers", "-i", "-",
                                              "\n".join(ids[:4])]))
    out.append(("scoremap 5 ply 0", ["scoremap", "--json", "-n", "5", IDS["match_centred"], ""]))
    out.append(("scoremap 3 ply 1", ["scoremap", "--json", "-n", "3", "-p", "1", IDS["money_centred"], ""]))
    out.append(("scoremap text", ["scoremap", "-n", "7", "--no-jacoby", IDS["match_2away"], ""]))
    trials = "72" if quick else "144"
    for name in ("money_centred", "match_2away", "match_owned"):
        out.append((f"rollout --cube-decision {name}", ["rollout", "--json", "--cube-decision", "-n", trials,
                                                          "--jobs", "1", "--no-vr", IDS[name], ""]))
    out.append(("rollout cubeful vr truncated", ["rollout", "--json", "--cubeful", "--vr", "--truncate", "8", "-n",
                                                 trials, "--jobs", "1", IDS["match_centred"], IDS["money_owned_2"],
                                                 ""]))
    for name, ply in (("matches/selfplay/004.mat", 0), ("matches/selfplay/004.mat", 1), ("levels/game1-7pt.mat", 2),
                      ("library/collection/money_session.mat", 0), ("library/collection/002.mat", 1)):
        out.append((f"annotate {name} ply {ply}", ["annotate", "--json", "--all", "--no-cache", "--ply", str(ply),
                                                   f"tests/data/{name}", ""]))
    return out


def run_cli(args: list[str]) -> tuple[bytes, bytes]:
    """(stdout and exit status: what is fingerprinted, stderr: compile notices vary with the cache)."""
    *argv, stdin = args
    proc = subprocess.run([sys.executable, "-m", "bgtools", *argv], input=stdin.encode(), capture_output=True)
    return proc.stdout + b"\nrc=%d\n" % proc.returncode, proc.stderr


def duels(games: int) -> list[tuple[str, bytes, float]]:
    from bgtools.engine.nets.nn import init_weights, load_default_network
    from bgtools.engine.play import duel_vs_pubeval
    from bgtools.training.duel import duel_weights

    net = load_default_network("rollout")
    assert net is not None
    w = net.weights
    other = init_weights(seed=1)
    duel_vs_pubeval(w, 2, seed=1)  # compile outside the timing
    duel_weights(w, other, 2, seed=1)
    out = []
    t = time.perf_counter()
    r, pts = duel_vs_pubeval(w, games, seed=7, points=True)
    out.append(("duel vs pubeval", str(r).encode() + pts.tobytes(), time.perf_counter() - t))
    t = time.perf_counter()
    r, pts = duel_vs_pubeval(w, games // 4, seed=9, ply=1, points=True)
    out.append(("duel vs pubeval 1 ply", str(r).encode() + pts.tobytes(), time.perf_counter() - t))
    t = time.perf_counter()
    h, pts = duel_weights(w, other, games, seed=3, points=True)
    out.append(("duel head to head", str(h).encode() + repr(h.to_dict()).encode() + pts.tobytes(),
                time.perf_counter() - t))
    t = time.perf_counter()
    h, pts = duel_weights(w, w, games, seed=5, points=True)
    out.append(("duel self", str(h).encode() + pts.tobytes(), time.perf_counter() - t))
    return out


def speed(games: int, trials: int) -> None:
    """CPU seconds of cubeful rollouts (money and match, with and without variance reduction)
    and of duels (vs pubeval, net vs net), each after a warm-up call."""
    from bgtools.core.matchstate import parse_any_id
    from bgtools.engine.nets.nn import init_weights, load_default_network
    from bgtools.engine.play import duel_vs_pubeval
    from bgtools.rollouts import Job, RolloutSettings, run_chunk, warm_up
    from bgtools.training.duel import duel_weights

    net = load_default_network("rollout")
    assert net is not None
    w = net.weights
    warm_up(w)
    for name, gid in (("opening money", OPENING), ("contact 5-point match", CONTACT_MATCH)):
        pos, ms = parse_any_id(gid)
        job = Job.make(pos, ms)
        for vr, n in ((False, trials), (True, max(1, trials // 8))):
            s = RolloutSettings(trials=n, seed=1, cubeful=True, variance_reduction=vr)
            run_chunk(job, s, 0, 1, w)
            c0 = time.process_time()
            run_chunk(job, s, 0, n, w)
            cpu = time.process_time() - c0
            print(f"  cubeful rollout {name} {'VR' if vr else 'no VR'}: {n} games {cpu:.2f} CPU s, "
                  f"{n / cpu:.1f} games/s", flush=True)
    other = init_weights(seed=1)
    duel_vs_pubeval(w, 2, seed=1)
    duel_weights(w, other, 2, seed=1)
    for name, run in (("duel vs pubeval", lambda: duel_vs_pubeval(w, games, seed=7)),
                      ("duel head to head", lambda: duel_weights(w, other, games, seed=3))):
        c0 = time.process_time()
        run()
        cpu = time.process_time() - c0
        print(f"  {name}: {games} games {cpu:.2f} CPU s, {games / cpu:.0f} games/s", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer rollout trials")
    ap.add_argument("--games", type=int, default=200, help="games per duel")
    ap.add_argument("--skip-cli", action="store_true")
    ap.add_argument("--skip-duels", action="store_true")
    ap.add_argument("--dump", metavar="DIR", help="also write each output to DIR/<n>.out")
    ap.add_argument("--only", metavar="TEXT", help="only the commands whose name holds TEXT")
    ap.add_argument("--speed", action="store_true", help="time cubeful rollouts and duels instead")
    ap.add_argument("--trials", type=int, default=576, help="--speed: cubeful rollout trials")
    args = ap.parse_args()
    if args.speed:
        speed(args.games, args.trials)
        return
    if not args.skip_cli:
        for n, (name, argv) in enumerate(commands(args.quick)):
            if args.only and args.only not in name:
                continue
            data, err = run_cli(argv)
            if args.dump:
                with open(f"{args.dump}/{n:02d}.out", "wb") as f:
                    f.write(data + err)
            print(f"{hashlib.sha256(data).hexdigest()[:20]}  {name}", flush=True)
    if not args.skip_duels:
        for name, data, secs in duels(args.games):
            print(f"{hashlib.sha256(data).hexdigest()[:20]}  {name}", flush=True)
            print(f"  {name}: {secs:.2f} seconds", flush=True)


if __name__ == "__main__":
    main()
