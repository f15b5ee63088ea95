"""Where a rollout's time goes, function by function: a rollout run over and over under Linux ``perf``, with a map
of the compiled kernels' functions written for ``perf report`` (the method of
``benchmarks/results/rollout_bearin_study_20261205.txt`` and ``rollout_cache_layout_study_20261206.txt``).

Numba's compiled code is anonymous to ``perf``; at the end of the run this script writes ``/tmp/perf-PID.map`` (the
file ``perf`` reads for code made at run time), naming each function of every kernel compiled in this process by its
address.  The kernels are compiled afresh in a temporary cache folder (code loaded from the cache carries no
function list); the figures are from the timed rounds after it.  The kernel's inlined helpers count as the kernel.

    perf record -F 4000 -o perf.data python benchmarks/rollout_profile.py d7sBADB25xsAAA --mode cubeless --trials 2592 --rounds 25
    perf report -i perf.data --stdio --sort sym --dsos '[JIT] tid PID'     # PID: the process's, printed at the end

Without ``perf`` the rounds still run and print their games per CPU second.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
_CACHE = tempfile.mkdtemp(prefix="bgtools-profile-")
os.environ["BGTOOLS_NUMBA_CACHE_DIR"] = _CACHE  # a fresh compile, whose functions keep their modules
atexit.register(shutil.rmtree, _CACHE, True)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

MODES = ("cubeless", "cubeless+VR", "cubeful")


def write_perf_map() -> Path:
    """``/tmp/perf-PID.map``: each compiled function of this process's Numba dispatchers, from its address to the next."""
    from numba.core.dispatcher import Dispatcher

    names: dict[int, str] = {}
    for obj in gc.get_objects():
        if not isinstance(obj, Dispatcher):
            continue
        for cres in obj.overloads.values():
            lib = cres.library
            module = getattr(lib, "_final_module", None)
            if module is None:
                continue
            for fn in module.functions:
                if fn.is_declaration:
                    continue
                try:
                    addr = lib.get_pointer_to_function(fn.name)
                except Exception:  # (a symbol the library does not export)
                    continue
                if addr:
                    names[int(addr)] = fn.name
    addrs = sorted(names)
    path = Path(f"/tmp/perf-{os.getpid()}.map")
    with path.open("w") as f:
        for a, b in zip(addrs, addrs[1:] + [addrs[-1] + 4096]):
            f.write(f"{a:x} {b - a:x} {names[a]}\n")
    return path


def main(argv: list[str] | None = None) -> int:
    from dataclasses import replace

    from bgtools.core.position import Position
    from bgtools.engine.nets.nn import Weights, load_default_network
    from bgtools.rollouts import Job, RolloutSettings, rollout_many
    from bgtools.rollouts.executors import clear_caches

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("position", help="Position ID")
    ap.add_argument("--mode", choices=MODES, default="cubeless")
    ap.add_argument("--trials", type=int, default=2592)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--weights", default=None, help="an .npz (default: the shipped rollout net)")
    a = ap.parse_args(argv)
    net = Weights.load(a.weights) if a.weights else load_default_network("rollout").weights
    s = RolloutSettings(trials=a.trials, seed=1, cubeful=a.mode == "cubeful", variance_reduction="VR" in a.mode,
                        bearoff_truncation=False, jacoby=False)
    job = replace(Job.make(Position.from_id(a.position), None, jacoby=False), first_cube=False)
    next(rollout_many([job], s, net, jobs=1))  # the compile
    rates = []
    for _ in range(a.rounds):
        clear_caches()  # cold, as the speed benchmark runs them
        t0 = time.process_time()
        res = next(rollout_many([job], s, net, jobs=1))
        rates.append(a.trials / (time.process_time() - t0))
    print(f"{a.position} {a.mode} {a.trials} trials: games per CPU second, median of {a.rounds}: "
          f"{sorted(rates)[len(rates) // 2]:.0f}; {res.plies / a.trials:.1f} plies a game")
    print(f"perf map: {write_perf_map()} (process {os.getpid()})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
