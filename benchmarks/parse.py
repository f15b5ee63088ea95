"""Match-file parsing + replay speed over the shared corpora, against gnubg's `import mat`.

    PYTHONPATH=. python benchmarks/parse.py [--baseline DIR] [--repeat N] [--jobs N] [--rounds N] [FOLDER ...]

Reads every .mat/.txt file (default: ../shared/realmatches and ../shared/selfplay, else
tests/data/matches), parses and replays it with bgtools (legal-move check of every play),
and prints moves (rolls) per second, best of ``--repeat`` runs, with the split of the time
(the parts timed in turn, best of each):

* lexing: Lark's basic lexer over the same lines (tokens only, no parser);
* parsing: Lark's LALR parse with the inline transformer, less the lexing;
* reading: walking the parsed lines into games (``parse_mat`` less the Lark parse);
* replay: resolving and checking every play (``finish_match``);

and the same with each Lark lexer ("contextual", "basic") and, when it is importable, with
lark-cython's plugin.  ``--jobs N`` (default 2): the wall time of reading the same files
through the library's parallel path with N worker processes already started (see
:func:`bench_jobs`; run it without ``taskset`` so that the workers get a core each).
``--baseline DIR``: the same figures (total, split and ``--jobs``) for another bgtools tree
(e.g. ``git archive HEAD`` unpacked there), in a subprocess, in the same run.  ``--rounds N``:
all of it (this tree, ``--jobs``, the baseline, gnubg) N times in turn, the best of each kept,
so that the changing load of a shared machine falls on every figure alike.
When gnubg is installed (``gnubg`` on PATH or /usr/games), times gnubg 1.07 importing the
same files in one process (its own clock around the import loop) and as a whole process.
All times are CPU seconds of the process doing the work (``time.process_time``; for the
whole gnubg process, its user + system time), best of the runs, so that other load on a
shared machine counts less; run it on one core (``taskset -c 0``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: the bgtools tree to time: this checkout, or another one for ``--baseline`` (set by it)
ROOT = Path(os.environ.get("BGTOOLS_BENCH_TREE") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))

import bgtools.formats.matgrammar as _mg  # noqa: E402

if (ROOT / "grammars" / "mat.lark").exists():  # an editable install maps the package's grammar
    _mg.grammar_text = lambda: (ROOT / "grammars" / "mat.lark").read_text(encoding="utf-8")  # to its own checkout

from bgtools.formats import read_match  # noqa: E402
from bgtools.formats.matfile import mat_from_lines, mat_lines  # noqa: E402
from bgtools.formats.matgrammar import build_parser, mat_parser, parse_lines  # noqa: E402
from bgtools.formats.read import decode_bytes  # noqa: E402
from bgtools.model import Roll  # noqa: E402
from bgtools.model.replay import finish_match  # noqa: E402


def files_in(folders) -> list[Path]:
    out = []
    for f in folders:
        out += sorted(p for p in Path(f).rglob("*") if p.suffix in (".mat", ".txt"))
    return out


def _best(fn, repeat: int) -> float:
    best = None
    for _ in range(repeat):
        t = time.process_time()
        fn()
        dt = time.process_time() - t
        best = dt if best is None else min(best, dt)
    return best


def bench_bgtools(files, repeat=5):
    import warnings

    warnings.simplefilter("ignore")  # "???" rolls with several plays warn; not timed here
    read_match(files[0])  # warm-up: numba kernels, the parser (from Lark's cache)
    moves = sum(1 for f in files for g in read_match(f).games for a in g.actions if isinstance(a, Roll))
    lines = [mat_lines(decode_bytes(f.read_bytes())) for f in files]
    texts = ["\n".join(x) + "\n" for x in lines]
    p = mat_parser()
    basic = build_parser(lexer="basic")  # Lark's lexer alone: the lexing share of the time
    parsed = [parse_lines(x, p) for x in lines]
    unreplayed = [mat_from_lines(pl, str(f)) for f, pl in zip(files, parsed)]
    parts = {
        "total": lambda: [read_match(f) for f in files],
        "lex": lambda: [list(basic.lex(t)) for t in texts],
        "parse": lambda: [parse_lines(x, p) for x in lines],
        "reader": lambda: [mat_from_lines(pl, str(f)) for f, pl in zip(files, parsed)],
        "replay": lambda: [finish_match(m, m.source) for m in unreplayed],
    }
    # the parts in turn, each run of them once, best of ``repeat`` per part: a change of the
    # load on a shared machine then falls on every part alike
    best = dict.fromkeys(parts, float("inf"))
    for _ in range(repeat):
        for name, fn in parts.items():
            best[name] = min(best[name], _best(fn, 1))
    total, lex, parse, reader, replay = best.values()
    split = {"lexing": lex, "parsing": parse - lex, "reading": reader, "replay": replay}
    return moves, total, split


def _read_task(path) -> tuple[int, float]:
    """What ``bgtools check`` does with a file in a worker: read and replay it, hand back a
    small result (here the number of rolls, and the worker's CPU seconds for it), not the Match."""
    t = time.process_time()
    n = sum(1 for g in read_match(path).games for a in g.actions if isinstance(a, Roll))
    return n, time.process_time() - t


def bench_jobs(files, jobs=2, repeat=5) -> dict:
    """Wall seconds (best of ``repeat``) to read and replay ``files`` through the library's
    parallel path (:func:`bgtools.base.parallel.ordered_map`, ``jobs`` forked workers, the
    files handed over in chunks of :func:`~bgtools.base.parallel.chunk_size` as ``bgtools
    check --jobs`` does), the workers already started: the clock starts when the first file
    is handed to the pool, after a warm-up task per worker and a pause that let every worker
    come up, and stops when the last result is back.  Also the CPU seconds the tasks took in
    the workers (all together) and this process took meanwhile, each the least of the runs:
    wall time above a ``jobs``-th of those is time the workers waited for a core (another
    load on a shared machine).  ``{"wall", "tasks_cpu", "parent_cpu"}``."""
    import threading

    from bgtools.base import parallel

    chunk_size = getattr(parallel, "chunk_size", None)  # (a baseline tree may have no chunks)
    chunk = chunk_size(len(files), jobs) if chunk_size else 1
    kw = {"chunk": chunk} if chunk_size else {}
    warm = jobs * chunk  # a first task of warm-up files per worker
    best: dict = {}
    for _ in range(repeat):
        t0 = [0.0, 0.0]
        ready = threading.Event()

        def items():
            for _ in range(warm):  # warm-up: forks the workers (all at once with fork), a task each
                yield files[0]
            ready.wait(0.5)
            t0[0], t0[1] = time.perf_counter(), time.process_time()
            yield from files

        out = list(parallel.ordered_map(_read_task, items(), jobs=jobs, **kw))
        dt, parent = time.perf_counter() - t0[0], time.process_time() - t0[1]
        assert sum(n for n, _ in out) > 0 and len(out) == warm + len(files)
        _keep_best(best, {"wall": dt, "tasks_cpu": sum(c for _, c in out[warm:]), "parent_cpu": parent})
    return best


def bench_lexers(files, repeat=5):
    """Lark parse time with each lexer, and with lark-cython's plugin when importable."""
    import lark

    from bgtools.formats.matgrammar import LEXERS, MatCells, grammar_text

    lines = [mat_lines(decode_bytes(f.read_bytes())) for f in files]
    out = {}
    try:
        import lark_cython
    except ImportError:
        lark_cython = None
    for lexer in LEXERS:
        for cy in (False, True):
            if cy and lark_cython is None:
                continue
            cells = MatCells()
            kw = dict(parser="lalr", lexer=lexer, start=["file", "line"], transformer=cells,
                      maybe_placeholders=False)
            if cy:
                kw["_plugins"] = lark_cython.plugins
            p = cells.parser = lark.Lark(grammar_text(), **kw)
            out[f"{lexer}{' + lark-cython' if cy else ''}"] = _best(lambda: [parse_lines(x, p) for x in lines], repeat)
    return out


def bench_baseline(folder: str, folders, nfiles: int, repeat: int, jobs: int) -> dict:
    """The figures of :func:`bench_bgtools` (and of :func:`bench_jobs` with ``jobs`` > 1) run
    the same way on another bgtools tree (this file run there with ``BGTOOLS_BENCH_TREE``),
    in a subprocess of this run: ``{"total", "split", "jobs"}``."""
    r = subprocess.run([sys.executable, __file__, "--json", "--repeat", str(repeat), "--jobs", str(jobs),
                        *map(str, folders)], capture_output=True, text=True, timeout=900, cwd=folder,
                       env=dict(os.environ, BGTOOLS_BENCH_TREE=folder))
    if r.returncode:
        raise SystemExit(f"baseline run failed:\n{r.stderr}")
    d = json.loads(r.stdout.strip().splitlines()[-1])
    if d["files"] != nfiles:
        raise SystemExit(f"baseline run read {d['files']} files, not {nfiles}")
    return d


def _keep_best(best: dict, new: dict) -> None:
    """Fold ``new`` figures (seconds, or dicts of them) into ``best``: the least of each."""
    for k, v in new.items():
        if isinstance(v, dict):
            _keep_best(best.setdefault(k, {}), v)
        elif v is not None:
            best[k] = v if best.get(k) is None else min(best[k], v)


GNUBG_SCRIPT = """
import gnubg, json, time
files = json.load(open(%r))
t = time.process_time()
for f in files:
    gnubg.command('import mat "%%s"' %% f)
json.dump({"seconds": time.process_time() - t}, open(%r, "w"))
"""


def bench_gnubg(files):
    exe = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
    if not exe:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        spec, res, script = Path(tmp, "f.json"), Path(tmp, "r.json"), Path(tmp, "s.py")
        spec.write_text(json.dumps([str(f) for f in files]))
        script.write_text(GNUBG_SCRIPT % (str(spec), str(res)))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([exe, "-t", "-q", "-p", str(script)], capture_output=True, timeout=600,
                       env=dict(os.environ, HOME=tmp))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        return json.loads(res.read_text())["seconds"], wall


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*")
    ap.add_argument("--baseline", help="another bgtools tree to time in the same run")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=1,
                    help="time everything (this tree, --jobs, the baseline, gnubg) this many times in turn and "
                         "keep the best of each figure, so that a shared machine's changing load falls on all alike")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes for the parallel figure (1: skip it)")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # used by --baseline
    ap.add_argument("--no-binary", action="store_true", help="skip the eXtreme Gammon and BGBlitz readers")
    args = ap.parse_args(argv)
    folders = args.folders or [p for p in (ROOT.parent / "shared" / "realmatches",
                                           ROOT.parent / "shared" / "selfplay") if p.exists()] \
        or [ROOT / "tests" / "data" / "matches"]
    files = files_in(folders)
    if args.json:  # for --baseline: the figures of this tree only
        moves, dt, split = bench_bgtools(files, args.repeat)
        w = bench_jobs(files, args.jobs, args.repeat)["wall"] if args.jobs > 1 else None
        print(json.dumps({"files": len(files), "moves": moves, "total": dt, "split": split, "jobs": w}))
        return
    best: dict = {}
    moves = 0
    for _ in range(max(1, args.rounds)):
        moves, dt, split = bench_bgtools(files, args.repeat)
        _keep_best(best, {"total": dt, "split": split})
        if args.jobs > 1:
            _keep_best(best, {"jobs": bench_jobs(files, args.jobs, args.repeat)})
        if args.baseline:
            _keep_best(best, {"baseline": bench_baseline(args.baseline, folders, len(files), args.repeat, args.jobs)})
        g = bench_gnubg(files)
        if g is not None:
            _keep_best(best, {"gnubg": {"inproc": g[0], "whole": g[1]}})
    dt = best["total"]
    rounds = f", best of {args.rounds} rounds" if args.rounds > 1 else ""
    print(f"files: {len(files)}, rolls parsed and replayed: {moves}")
    print(f"bgtools: {dt:.3f} s  ->  {moves / dt:,.0f} moves/s  ({len(files) / dt:,.1f} files/s{rounds})")
    print("  split (best of each part alone): " + ", ".join(f"{k} {v:.3f} s" for k, v in best["split"].items()))
    for name, s in bench_lexers(files, args.repeat).items():
        print(f"  Lark parse with the {name} lexer: {s:.3f} s")
    if args.jobs > 1:
        w = best["jobs"]["wall"]
        print(f"bgtools --jobs {args.jobs} (library's parallel path, workers started, wall time): {w:.3f} s  ->  "
              f"{moves / w:,.0f} moves/s")
        print(f"  CPU in the workers' tasks {best['jobs']['tasks_cpu']:.3f} s (per worker: "
              f"{best['jobs']['tasks_cpu'] / args.jobs:.3f} s), in this process meanwhile "
              f"{best['jobs']['parent_cpu']:.3f} s")
    if args.baseline:
        base = best["baseline"]
        b = base["total"]
        print(f"baseline {args.baseline}: {b:.3f} s  ->  {moves / b:,.0f} moves/s (this tree: {b / dt:.2f}x as fast)")
        print("  split (best of each part alone): " + ", ".join(f"{k} {v:.3f} s" for k, v in base["split"].items()))
        if base.get("jobs"):
            bw = base["jobs"]
            print(f"  baseline --jobs {args.jobs}: {bw:.3f} s  ->  {moves / bw:,.0f} moves/s "
                  f"(this tree: {bw / best['jobs']['wall']:.2f}x as fast)")
    if not args.no_binary:  # gnubg reads neither format: records per second of our readers
        sys.path.insert(0, str(Path(__file__).parent))
        import parse_binary

        print("binary formats (benchmarks/parse_binary.py):")
        parse_binary.main(["--repeat", str(max(1, args.repeat // 2))])
    if "gnubg" not in best:
        print("gnubg: not installed, no comparison")
        return
    inproc, wall = best["gnubg"]["inproc"], best["gnubg"]["whole"]
    print(f"gnubg import mat, in-process: {inproc:.3f} s -> {moves / inproc:,.0f} moves/s; "
          f"whole gnubg process (start-up included): {wall:.3f} s -> {moves / wall:,.0f} moves/s")
    print(f"ratio bgtools/gnubg speed: {inproc / dt:.2f}x in-process, {wall / dt:.2f}x against the whole process"
          + (f"; --jobs {args.jobs}: {wall / best['jobs']['wall']:.2f}x against the whole process"
             if args.jobs > 1 else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
