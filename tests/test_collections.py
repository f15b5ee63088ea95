"""Folders of match files: ``check``, ``convert``, ``export`` and ``annotate`` read them in
parallel (``--jobs``) or on a Dask cluster (``--dask``) with output identical to one
process, and :func:`bgtools.base.parallel.ordered_map` streams (bounded work in flight)."""

from __future__ import annotations

import multiprocessing as mp
import shutil
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.base.errors import BgtoolsError
from bgtools.base.parallel import ParallelError, ordered_map
from bgtools.cli.app import app
from bgtools.export import export_files

runner = CliRunner()
DATA = Path(__file__).parent / "data" / "matches"


@pytest.fixture(autouse=True)
def _cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("BGTOOLS_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """About three dozen files in nested folders: good .mat and SGF, files with an illegal
    move, one that cannot be read at all."""
    root = tmp_path_factory.mktemp("corpus")
    sp = DATA / "selfplay"
    for i, f in enumerate(sorted(sp.glob("0[0-2]*.mat")) + sorted(sp.glob("00[1-4].sgf.gz"))):
        sub = root / ("a" if i % 2 else "b")
        sub.mkdir(exist_ok=True)
        shutil.copy(f, sub / f.name)
    shutil.copytree(DATA / "realmatches" / "halheinrich-bgmatchformat", root / "c")
    (root / "junk.mat").write_text("this is not a match\n\x00\x01")
    return root


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _invoke(args):
    return runner.invoke(app, args, catch_exceptions=False)


def test_corpus_is_a_mixed_collection(corpus):
    r = _invoke(["check", str(corpus)])
    assert len(r.stdout.splitlines()) >= 30
    assert r.exit_code == 2  # junk.mat is unreadable
    assert "junk.mat" in r.stderr
    assert "error(s)" in r.stdout  # some files hold illegal moves


@pytest.mark.parametrize("extra", [[], ["--json"], ["--strict"]])
def test_check_jobs_2_is_byte_identical(corpus, extra):
    one = _invoke(["check", str(corpus), "--jobs", "1", *extra])
    two = _invoke(["check", str(corpus), "--jobs", "2", *extra])
    assert one.stdout and one.stdout == two.stdout
    assert one.stderr == two.stderr
    assert one.exit_code == two.exit_code


def test_convert_folder_jobs_2_is_byte_identical(corpus, tmp_path):
    outs = {}
    for j in ("1", "2"):
        out = tmp_path / f"out{j}"
        r = _invoke(["convert", str(corpus), "--out-dir", str(out), "--to", "json", "--jobs", j])
        outs[j] = (r.exit_code, r.stdout, r.stderr.replace(str(out), "OUT"), _tree(out))
    assert outs["1"][3] and len(outs["1"][3]) >= 30
    assert outs["1"] == outs["2"]


def test_convert_bad_jobs_refused(corpus, tmp_path):
    r = runner.invoke(app, ["convert", str(corpus), "--out-dir", str(tmp_path / "o"), "--to", "sgf", "--jobs", "-1"])
    assert r.exit_code == 2 and "--jobs -1" in r.stderr


@pytest.mark.parametrize("suffix", ["csv", "jsonl"])
def test_export_jobs_2_is_byte_identical(corpus, tmp_path, suffix):
    one, two = tmp_path / f"one.{suffix}", tmp_path / f"two.{suffix}"
    r1 = _invoke(["export", str(corpus), "-o", str(one), "--jobs", "1"])
    r2 = _invoke(["export", str(corpus), "-o", str(two), "--jobs", "2"])
    assert r1.exit_code == r2.exit_code == 2
    assert one.stat().st_size > 10_000
    assert one.read_bytes() == two.read_bytes()
    assert r1.stderr.replace(str(one), "OUT") == r2.stderr.replace(str(two), "OUT")


# ----------------------------------------------------------------------------- streaming
def _square(x: int) -> int:
    return x * x


def _fail_on_five(x: int) -> int:
    if x == 5:
        raise ValueError("five")
    return x


class _Feed:
    """A generator of items that counts how many were taken."""

    def __init__(self, n: int):
        self.n, self.taken = n, 0

    def __iter__(self):
        for i in range(self.n):
            self.taken += 1
            yield i


@pytest.mark.parametrize("jobs, chunk", [(1, 1), (2, 1), (2, 3)])
def test_ordered_map_streams_with_bounded_work_in_flight(jobs, chunk):
    feed = _Feed(200)
    seen = []
    for k, r in enumerate(ordered_map(_square, iter(feed), jobs=jobs, in_flight=4, chunk=chunk), 1):
        seen.append(r)
        # the k-th result comes before more than k + 4 items were taken (4 tasks of ``chunk``
        # items in flight, and the rest of the chunk being handed over)
        assert feed.taken <= k + (4 * chunk + chunk - 1 if jobs > 1 else 0), (k, feed.taken)
    assert seen == [i * i for i in range(200)]
    assert feed.taken == 200
    assert not mp.active_children()


def _warn_odd(x: int) -> int:
    if x % 2:
        warnings.warn(f"odd {x}", UserWarning)
    return x


@pytest.mark.parametrize("chunk", [1, 4])
def test_pool_warnings_are_shown_here_in_order(chunk):
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always")
        assert list(ordered_map(_warn_odd, iter(range(12)), jobs=2, chunk=chunk)) == list(range(12))
    assert [str(w.message) for w in log] == [f"odd {i}" for i in range(1, 12, 2)]
    assert all(w.filename == __file__ and w.category is UserWarning for w in log)


@pytest.mark.parametrize("chunk", [1, 4])
def test_ordered_map_raises_in_turn_and_stops_its_workers(chunk):
    got = []
    with pytest.raises(ValueError, match="five"):  # (with chunks of 4: in the middle of the second)
        for r in ordered_map(_fail_on_five, iter(range(50)), jobs=2, chunk=chunk):
            got.append(r)
    assert got == [0, 1, 2, 3, 4]
    assert not mp.active_children()


class _Unpicklable(Exception):
    def __reduce__(self):
        raise TypeError("not picklable")


def _fail_unpicklable_on_five(x: int) -> int:
    if x == 5:
        raise _Unpicklable("five")
    return x


def test_a_chunk_hands_back_the_results_before_an_unpicklable_exception():
    from bgtools.base.parallel import WorkerTraceback

    got = []
    with pytest.raises(RuntimeError, match="_Unpicklable: five") as info:
        for r in ordered_map(_fail_unpicklable_on_five, iter(range(12)), jobs=2, chunk=4):
            got.append(r)
    assert got == [0, 1, 2, 3, 4]
    assert isinstance(info.value.__cause__, WorkerTraceback)
    assert "_fail_unpicklable_on_five" in str(info.value.__cause__)  # the worker's traceback
    assert not mp.active_children()


@pytest.mark.parametrize("chunk", [1, 3])
def test_ordered_map_stopped_early_ends_the_pool(chunk):
    feed = _Feed(10_000)
    gen = ordered_map(_square, iter(feed), jobs=2, chunk=chunk)
    assert next(gen) == 0
    gen.close()
    assert feed.taken <= 5 * chunk
    assert not mp.active_children()


def test_export_files_reads_a_generator_lazily(corpus, tmp_path, monkeypatch):
    from bgtools.export import writer

    files = sorted(str(p) for p in corpus.rglob("*.mat"))
    taken = []
    at_work = []

    def paths():
        for f in files:
            taken.append(f)
            yield f

    real = writer._work

    def spy(task):
        at_work.append(len(taken))
        return real(task)

    monkeypatch.setattr(writer, "_work", spy)
    rep = export_files(paths(), str(tmp_path / "x.csv"))
    assert rep.files == len(files) > 20
    assert at_work == list(range(1, len(files) + 1))  # each file read just before its work


def test_parallel_error_is_a_bgtools_error():
    assert issubclass(ParallelError, BgtoolsError)


# ----------------------------------------------------------------------------- Dask
@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None,
                                  silence_logs=40) as c:
        yield c


def test_export_on_dask_is_byte_identical(corpus, tmp_path, cluster):
    local, remote = tmp_path / "local.csv", tmp_path / "dask.csv"
    r1 = _invoke(["export", str(corpus), "-o", str(local)])
    r2 = _invoke(["export", str(corpus), "-o", str(remote), "--dask", cluster.scheduler_address])
    assert local.stat().st_size > 10_000
    assert local.read_bytes() == remote.read_bytes()
    assert (r1.exit_code, r1.stderr.replace(str(local), "OUT")) == (r2.exit_code, r2.stderr.replace(str(remote), "OUT"))


def test_dask_map_is_ordered_and_bounded(cluster):
    feed = _Feed(60)
    out = []
    for k, r in enumerate(ordered_map(_square, iter(feed), dask=cluster.scheduler_address, in_flight=3), 1):
        out.append(r)
        assert feed.taken <= k + 3
    assert out == [i * i for i in range(60)]


def test_annotate_on_dask_is_byte_identical(tmp_path, cluster):
    folder = tmp_path / "m"
    folder.mkdir()
    for name in ("001.mat", "002.mat", "003.mat", "cube_take.mat"):
        src = DATA / "selfplay" / name
        if not src.exists():
            src = next(DATA.rglob(name))
        shutil.copy(src, folder / name)
    runs = {}
    for how, extra in (("local", ["--jobs", "1"]), ("dask", ["--dask", cluster.scheduler_address])):
        out = tmp_path / how
        r = _invoke(["annotate", str(folder), "--ply", "0", "--no-cache", "--out-dir", str(out),
                     "-f", "json,csv,sgf", *extra])
        j = _invoke(["annotate", str(folder), "--ply", "0", "--no-cache", "--json", *extra])
        s = _invoke(["annotate", str(folder), "--ply", "0", "--no-cache", *extra])
        # (the notice that kernels are compiling comes with whichever run compiles first: not part of the result)
        said = "".join(line for line in r.stderr.splitlines(keepends=True) if not line.startswith("bgtools: compiling"))
        runs[how] = (r.exit_code, said.replace(str(out), "OUT"), _tree(out), j.stdout, s.stdout, s.exit_code)
    assert len(runs["local"][2]) == 12 and runs["local"][3].count("\n") > 50
    assert runs["local"] == runs["dask"]


def test_dask_unreachable_is_a_one_line_error(corpus, tmp_path):
    dask = pytest.importorskip("dask")
    pytest.importorskip("distributed")
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        r = runner.invoke(app, ["export", str(corpus / "a"), "-o", str(tmp_path / "x.csv"),
                                "--dask", "tcp://127.0.0.1:9"])
    assert r.exit_code == 2
    assert "tcp://127.0.0.1:9" in r.stderr and "Traceback" not in r.output
    assert not (tmp_path / "x.csv").exists()
