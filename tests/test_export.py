"""Export of match files as tables: the whole sample corpus, formats, CLI behaviour, README snippet."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import re
import shlex
import warnings
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import bgtools
from bgtools import export as ex
from bgtools.export import writer as ex_writer
from bgtools.cli.app import app
from bgtools.formats import read_match, read_matches
from bgtools.model import Double, replay_game
from bgtools.model.problems import MatchWarning

from gnubg_import import KNOWN  # files where gnubg reads otherwise, and why

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data" / "matches"
CORPUS = str(DATA) + "/"

BAD_FILES = {"cube_take.mat", "dance.mat", "doubles_hit_bearoff.mat",  # one illegal move each
             "Squire-Jørgensen-Harmand-Unger 7 point match 18-08-2024.xg", "5nqfGw9bWG3deTaU.bgf"}
SMALL = [str(DATA / "realmatches" / "halheinrich-bgmatchformat"), str(DATA / "selfplay" / "01*.mat"),
         str(DATA / "realmatches" / "gnu-gibbon")]
runner = CliRunner()


def _readme_export_section() -> tuple[str, str]:
    text = (ROOT / "README.md").read_text()
    sec = text.split("## Export\n", 1)[1].split("\n## ", 1)[0]
    sh = re.search(r"```sh\n(.*?)```", sec, re.S).group(1).strip()
    py = re.search(r"```python\n(.*?)```", sec, re.S).group(1)
    return sh, py


@pytest.fixture(scope="module")
def corpus():
    return list(read_matches([CORPUS]))


@pytest.fixture(scope="module")
def steps(corpus):
    return list(_steps(corpus))


@pytest.fixture(scope="module")
def moves(corpus):
    return ex.to_dataframe(corpus)


@pytest.fixture(scope="module")
def readme_csv(tmp_path_factory):
    """Run the README's export command on the sample corpus (the test copies of ../shared)."""
    sh, _ = _readme_export_section()
    argv = shlex.split(sh)
    assert argv[:2] == ["bgtools", "export"] and "my-matches/" in argv
    argv = [CORPUS if a == "my-matches/" else a for a in argv[1:]]
    cwd = tmp_path_factory.mktemp("readme")
    old = os.getcwd()
    os.chdir(cwd)
    try:
        r = runner.invoke(app, argv)
    finally:
        os.chdir(old)
    return cwd, r


def _good_games(m):
    return [(i, g) for i, g in enumerate(m.games) if not g.errors]


def _steps(corpus):
    """(match, step) for the good games; games set up from an edited board have no known positions."""
    for m in corpus:
        for i, g in _good_games(m):
            if not g.props.get("_setup"):
                yield from ((m, s) for s in replay_game(m, g, i))


def _known(moves):
    """The rows whose board is known (not in a game that starts from an edited board)."""
    return moves[moves.position_id.notna()]


def _pips(side) -> int:
    return sum((i + 1) * n for i, n in enumerate(side[:24])) + 25 * side[24]


# ----------------------------------------------------------------------------- the corpus
def test_row_count_is_the_number_of_actions(corpus, moves):
    assert len(corpus) == 111  # 91 text files, 9 .xg, 11 .bgf
    bad = {Path(m.source).name for m in corpus if any(g.errors for g in m.games)}
    assert bad == BAD_FILES
    assert len(moves) == sum(len(g.actions) for m in corpus for _, g in _good_games(m)) > 15000
    per_game = moves.groupby(["match_no", "game_no"]).size().to_dict()
    want = {(k, i + 1): len(g.actions) for k, m in enumerate(corpus, 1) for i, g in _good_games(m)
            if g.actions}
    assert per_game == want
    everything = ex.to_dataframe(corpus, keep_bad_games=True, columns=["row_key", "action"])
    assert len(everything) == sum(len(g.actions) for m in corpus for g in m.games)
    assert moves.row_key.is_unique
    assert list(moves.action.cat.categories) == ["roll", "double", "take", "drop", "beaver", "resign", "win",
                                                 "set_board"]
    # every kind of action occurs in the samples but board edits (tests/test_board_edit.py)
    assert set(moves.action.unique()) == set(ex.ACTIONS) - {"set_board"}


def test_ids_and_moves_are_the_replayed_ones(steps, moves):
    want = {"position_id": [], "match_id": [], "xgid": [], "move": [], "hit": [], "legal_plays": [],
            "row_key": []}
    for m, s in steps:
                want["row_key"].append(f"{m.source}:{s.game_index + 1}:{s.index}")
                want["position_id"].append(s.position_id)
                want["match_id"].append(s.match_id)
                want["xgid"].append(s.xgid)
                want["move"].append(s.play.notation() if s.play else None)
                want["hit"].append(bool(s.play.hits) if s.play else None)
                want["legal_plays"].append(s.legal_plays if s.action.__class__.__name__ == "Roll" else None)
    unknown = moves[moves.position_id.isna()]
    assert set(unknown.file.map(lambda f: Path(f).name)) == {"edited.sgf.gz"} and len(unknown) == 1
    moves = _known(moves)
    for col in ("row_key", "position_id", "match_id", "xgid", "move"):
        got = moves[col].astype(object).where(moves[col].notna(), None).tolist()
        assert got == want[col], col
    played = moves.move.notna()
    assert moves.hit[played].tolist() == [h for h in want["hit"] if h is not None]
    rolls = moves.action == "roll"
    assert moves.legal_plays[rolls].tolist() == [n for n in want["legal_plays"] if n is not None]
    assert moves.hit[moves.status == "dance"].eq(False).all()
    assert moves.die1[rolls].ge(moves.die2[rolls]).all() and moves.dice[~rolls].isna().all()


def test_pips_off_bar_agree_with_a_direct_count(steps, moves):
    got = _known(moves)[["pips_player", "pips_opponent", "off_player", "off_opponent", "bar_player", "bar_opponent",
                 "pip_diff"]].to_numpy().tolist()
    want = []
    for _, s in steps:
        me, opp = s.position.on_roll, s.position.opponent
        if s.action.player != s.state.player_on_roll:  # the taker/dropper acts, the doubler is on roll
            me, opp = opp, me
        want.append([_pips(me), _pips(opp), 15 - sum(me), 15 - sum(opp), me[24], opp[24],
                     _pips(me) - _pips(opp)])
    assert got == want
    first = moves[moves.action_index == 0]
    assert first.pips_player.eq(167).all() and first.position_id.eq("4HPwATDgc/ABMA").sum() > 300


def test_turns_cube_score_and_result_columns(corpus, moves):
    takes = moves[moves.action == "take"]
    # the taker acts; the doubler is on roll, so the cube owner before the take is never the taker
    assert (takes.cube_owner != "player").all() and takes.match_id.notna().all()
    after = moves.shift(-1)
    dbl = moves.action == "double"
    answered = dbl & after.action.isin(["take", "drop", "beaver"])
    assert answered.sum() > 0.95 * dbl.sum()
    assert (after.move_no[answered] == moves.move_no[answered]).all()  # answer in the doubler's turn
    assert (after.player_index[answered] != moves.player_index[answered]).all()
    assert moves.result.abs().eq(moves.points).all()
    player, winner = moves.player.astype(object), moves.winner.astype(object)
    assert (moves.result > 0).eq(player == winner)[moves.winner.notna()].all()
    money = moves.match_length == 0
    assert moves.away_player[money].isna().all()
    assert (moves.away_player + moves.score_player == moves.match_length)[~money].all()
    wins = moves[moves.action == "win"]
    assert (wins.player.astype(object) == wins.winner.astype(object)).all()
    for m in corpus[:5]:
        rows = moves[moves.file == m.source]
        assert set(rows.player.unique()) == set(m.players)


def test_matches_level_names_every_format_and_refuses_an_undeclared_category():
    real = DATA / "realmatches"
    files = [real / "xg-kevung-gbf" / "test.xg", real / "bgf-gammonview" / "5nqfGw9bWG3deTaU.bgf",
             real / "kevung-gbf" / "test.mat"]
    matches = ex.to_dataframe([str(f) for f in files], "matches")
    assert matches.format.tolist() == ["xg", "bgf", "mat"]  # not NaN: every reader's format is a category
    col = next(c for c in ex.table.MATCH_COLUMNS if c.name == "format")
    data = {c.name: [None] for c in ex.table.MATCH_COLUMNS}
    data["format"] = ["gnu"]
    with pytest.raises(ValueError, match="'format'.*gnu"):
        ex.table.frame(data, [col])


def test_games_and_matches_levels(corpus, moves):
    games = ex.to_dataframe(corpus, "games")
    assert len(games) == sum(len(_good_games(m)) for m in corpus)
    assert games.actions.sum() == len(moves)
    played = moves.status == "play"
    assert games.plays.sum() == (played & moves.move.notna()).sum()
    assert games.doubles.sum() == moves.action.isin(["double", "beaver"]).sum()
    matches = ex.to_dataframe(corpus, "matches")
    assert len(matches) == len(corpus)
    # against gnubg's own rebuild of each file (games, plays, doubles, final score)
    counts = {}
    for folder in ("realmatches", "selfplay"):
        for line in (DATA / folder / "gnubg_counts.jsonl").read_text().splitlines():
            rec = json.loads(line)
            name = str(DATA / folder / rec["file"]) + (".gz" if rec["file"].endswith(".sgf") else "")
            counts[name] = rec
    checked = 0
    for row in matches.itertuples():
        rec = counts.get(os.path.normpath(row.file))
        if rec is None or Path(row.file).name in BAD_FILES or Path(row.file).name in KNOWN:
            continue
        assert (row.games, row.plays, row.doubles, [row.score0, row.score1]) == \
               (rec["games"], rec["plays"], rec["doubles"], rec["final_score"]), row.file
        checked += 1
    assert checked >= 80
    won = matches[matches.winner.notna()]
    assert ((won.score0 >= won.match_length) | (won.score1 >= won.match_length)).all()


def test_readme_command_exports_the_corpus_and_csv_reads_back(readme_csv, moves):
    cwd, r = readme_csv
    assert r.exit_code == 1, r.output  # three sample files hold an illegal move
    errs = r.stderr.splitlines()
    listed = [ln for ln in errs if ln.startswith("bgtools: error: ")]
    assert {Path(ln.split(": ")[2]).name for ln in listed} == BAD_FILES
    assert all("1 game(s) left out" in ln and ("line " in ln or ", move " in ln) for ln in listed)
    assert f"{len(moves)} rows from 111 file(s)" in errs[-1]
    back = ex.read_csv(cwd / "moves.csv")
    pd.testing.assert_frame_equal(back, moves)
    assert not [p for p in os.listdir(cwd) if p.endswith(".tmp")]


def test_readme_snippet_gives_the_average_pips_at_first_doubles(readme_csv, steps):
    cwd, _ = readme_csv
    _, code = _readme_export_section()
    printed = []
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # e.g. pandas' DtypeWarning on a column of mixed types
            exec(compile(code, "README.md", "exec"), {"print": printed.append})
    finally:
        os.chdir(old)
    (got,) = printed
    # directly from the replay: the doubler is on roll at his double
    firsts: dict[str, list[int]] = {}
    seen = set()
    for m, s in steps:
        if isinstance(s.action, Double) and (m.source, s.action.player) not in seen:
            seen.add((m.source, s.action.player))
            firsts.setdefault(m.players[s.action.player], []).append(_pips(s.position.on_roll))
    want = {k: round(sum(v) / len(v), 1) for k, v in firsts.items()}
    assert got.to_dict() == pytest.approx(want)
    assert list(got.values) == sorted(got.values)


# ----------------------------------------------------------------------------- formats
def test_parquet_keeps_dtypes_across_row_groups(tmp_path):
    pytest.importorskip("pyarrow")
    out = tmp_path / "m.parquet"
    rep = ex.export_files(SMALL, str(out), batch_rows=500)
    import pyarrow.parquet as pq

    assert pq.ParquetFile(out).num_row_groups > 3
    df = ex.to_dataframe(SMALL)
    back = pd.read_parquet(out)
    assert rep.rows == len(df) == len(back)
    assert back.dtypes.to_dict() == df.dtypes.to_dict()
    assert list(back.action.cat.categories) == list(ex.ACTIONS)
    pd.testing.assert_frame_equal(back, df, check_categorical=False)
    again = tmp_path / "m2.parquet"
    ex.export_files(SMALL, str(again), batch_rows=500, jobs=2)
    assert again.read_bytes() == out.read_bytes()


def test_jobs_give_the_same_bytes(tmp_path):
    outs = []
    for j in ("1", "2"):
        out = tmp_path / f"m{j}.csv.gz"
        r = runner.invoke(app, ["export", *SMALL, "-o", str(out), "--jobs", j])
        assert r.exit_code == 1, r.output
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    back = ex.read_csv(tmp_path / "m1.csv.gz")
    pd.testing.assert_frame_equal(back, ex.to_dataframe(SMALL))


def test_stdout_jsonl_and_levels(tmp_path):
    r = runner.invoke(app, ["export", *SMALL, "-o", "-", "--level", "games"])
    assert r.exit_code == 1
    games = ex.to_dataframe(SMALL, "games")
    lines = r.stdout.splitlines()
    assert lines[0] == ",".join(c.name for c in ex.GAME_COLUMNS) and len(lines) == len(games) + 1
    out = tmp_path / "m.jsonl"
    r = runner.invoke(app, ["export", *SMALL, "-o", str(out), "--level", "matches",
                            "--columns", "row_key,winner", "--columns", "score0, score1"])
    assert r.exit_code == 1
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    matches = ex.to_dataframe(SMALL, "matches")
    assert [list(x) for x in recs] == [["row_key", "winner", "score0", "score1"]] * len(matches)
    assert [x["score0"] for x in recs] == matches.score0.tolist()
    assert sum(x["winner"] is None for x in recs) == matches.winner.isna().sum() > 0


def test_columns_pick_and_order(tmp_path):
    out = tmp_path / "m.csv"
    r = runner.invoke(app, ["export", SMALL[0], "-o", str(out), "--columns", "pips_player,row_key,move"])
    assert r.exit_code == 1
    back = ex.read_csv(out)
    assert list(back.columns) == ["pips_player", "row_key", "move"]
    full = ex.to_dataframe(SMALL[0])
    pd.testing.assert_frame_equal(back, full[["pips_player", "row_key", "move"]])


def test_clean_files_exit_zero_and_stdin(tmp_path):
    src = DATA / "selfplay" / "015.mat"
    r = runner.invoke(app, ["export", str(src), "-o", str(tmp_path / "a.csv")])
    assert r.exit_code == 0 and "error" not in r.stderr
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "a.csv").stat().st_mode & 0o777 == 0o666 & ~umask  # not mkstemp's private mode
    r = runner.invoke(app, ["export", "-", "-o", "-", "--columns", "row_key,move"], input=src.read_bytes())
    assert r.exit_code == 0
    assert r.stdout.splitlines()[1].startswith("<stdin>:1:0,")
    assert len(r.stdout.splitlines()) == len(ex.read_csv(tmp_path / "a.csv")) + 1


@functools.cache
def _tiny_match():
    return read_match(" 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4\n"
                      "  2) 66: 24/18(2) 13/7(2)\n")


@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                        min_size=0, max_size=12), min_size=2, max_size=2))
@settings(max_examples=25, deadline=None)
def test_csv_round_trip_of_any_player_names(names):
    m = dataclasses.replace(_tiny_match(), players=tuple(names), source=f"dir, \"x\"/{names[0]}.mat")
    df = ex.to_dataframe(m)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for suffix in (".csv", ".csv.gz"):
            out = os.path.join(tmp, "m" + suffix)
            ex.write_dataframe(df, out)
            pd.testing.assert_frame_equal(ex.read_csv(out), df)
    blank = [not "".join(ch for ch in n if ch.isprintable()).strip() for n in names]
    assert df.player.isna().tolist() == [blank[0], blank[1], blank[0]]
    assert not any(ch in str(x) for x in df.player.dropna() for ch in "\r\n")


# ----------------------------------------------------------------------------- errors
def test_bad_usage_is_one_line_and_writes_nothing(tmp_path, monkeypatch):
    out = tmp_path / "x.csv"
    cases = [
        (["export", SMALL[0], "-o", str(tmp_path / "x.xlsx")], "cannot tell the format"),
        (["export", SMALL[0], "-o", str(out), "--columns", "row_key,equity"], "unknown column(s) for level moves: equity"),
        (["export", SMALL[0], "-o", str(out), "--level", "turns"], "unknown level 'turns'"),
        (["export", str(tmp_path / "nope"), "-o", str(out)], "no such file or folder"),
        (["export", str(tmp_path), "-o", str(out)], "no match files found"),
        (["export", SMALL[0], "-o", str(tmp_path / "no" / "x.csv")], "folder does not exist"),
        (["export", SMALL[0], "-o", str(out), "--jobs", "-1"], "--jobs -1"),
    ]
    for argv, msg in cases:
        r = runner.invoke(app, argv)
        assert r.exit_code == 2, argv
        assert r.stderr.count("\n") == 1 and msg in r.stderr and "Traceback" not in r.output, r.stderr
    monkeypatch.setitem(__import__("sys").modules, "pyarrow", None)
    monkeypatch.setitem(__import__("sys").modules, "pyarrow.parquet", None)
    r = runner.invoke(app, ["export", SMALL[0], "-o", str(tmp_path / "x.parquet")])
    assert r.exit_code == 2 and "pip install 'bgtools[parquet]'" in r.stderr
    with pytest.raises(ImportError, match="bgtools\\[parquet\\]"):
        ex.export_files([SMALL[0]], str(tmp_path / "y.parquet"))
    assert os.listdir(tmp_path) == []


def test_unreadable_files_are_listed_and_the_rest_exported(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.mat").write_bytes((DATA / "selfplay" / "015.mat").read_bytes())
    (folder / "b.sgf").write_text("(;FF[4]GM[6] this is not a match")
    (folder / "c.mat.gz").write_bytes(b"not gzip")
    out = tmp_path / "m.csv"
    r = runner.invoke(app, ["export", str(folder), "-o", str(out)])
    assert r.exit_code == 2  # unreadable input (README exit codes); the good file is still exported
    seen = []

    class Counting:
        def __init__(self, total):
            seen.append(total)

        def __enter__(self):
            return lambda: seen.append("file")

        def __exit__(self, *exc):
            return False

    rep = ex.export_files([str(folder)], str(tmp_path / "again.jsonl"), progress=Counting)
    assert seen == [3, "file", "file", "file"] and len(rep.problems) == 2
    assert [p.unreadable for p in rep.problems] == [True, True]
    listed = [ln for ln in r.stderr.splitlines() if ln.startswith("bgtools: error:")]
    assert [ln.split(": ")[2] for ln in listed] == [str(folder / "b.sgf"), str(folder / "c.mat.gz")]
    assert "gzip" in listed[1]
    back = ex.read_csv(out)
    assert len(back) == len(ex.to_dataframe(str(folder / "a.mat"))) > 100
    assert set(back.file) == {str(folder / "a.mat")}


def test_failed_export_leaves_the_old_output_alone(tmp_path, monkeypatch):
    out = tmp_path / "m.csv"
    out.write_text("old\n")
    calls = []

    def boom(task):
        calls.append(task)
        if len(calls) > 2:
            raise KeyboardInterrupt
        return real(task)

    real = ex_writer._work
    monkeypatch.setattr(ex_writer, "_work", boom)
    with pytest.raises(KeyboardInterrupt):
        ex.export_files(SMALL, str(out), batch_rows=10)
    assert out.read_text() == "old\n" and os.listdir(tmp_path) == ["m.csv"]


def test_kept_bad_games_have_no_board_after_the_illegal_move():
    path = str(DATA / "realmatches" / "halheinrich-bgmatchformat" / "doubles_hit_bearoff.mat")
    assert len(ex.to_dataframe(path)) == 0 and len(ex.to_dataframe(path, "games")) == 0
    df = ex.to_dataframe(path, keep_bad_games=True)
    m = read_match(path)
    assert len(df) == len(m.games[0].actions)
    status = df.status.astype(object).where(df.status.notna(), None).tolist()
    bad = status.index("illegal")
    assert status[:bad] == ["play"] * bad and set(status[bad + 1:]) <= {"unchecked", None}
    assert df.position_id[:bad + 1].notna().all() and df.position_id[bad + 1:].isna().all()
    assert df.pips_player[bad + 1:].isna().all() and df.legal_plays[bad:].isna().all()
    assert df.move[bad] is pd.NA and df.cube.notna().all()
    games = ex.to_dataframe(path, "games", keep_bad_games=True)
    assert games.errors.tolist() == [1]
    assert ex.to_dataframe(path, "matches").errors.tolist() == [1]


def test_nothing_is_left_out_of_the_library_table_silently(tmp_path):
    bad = str(DATA / "realmatches" / "halheinrich-bgmatchformat" / "doubles_hit_bearoff.mat")
    good = str(DATA / "selfplay" / "015.mat")
    missing = str(tmp_path / "nope.mat")
    for level in ("moves", "games"):
        with pytest.warns(MatchWarning) as caught:
            df = ex.to_dataframe([good, bad, missing], level)
        said = [str(w.message) for w in caught if isinstance(w.message, MatchWarning)]
        assert any(t.startswith(f"{bad}:8:") and "game 1" in t and "game left out of the table" in t for t in said)
        assert any(t.startswith(f"{missing}: not read, no rows from this file") for t in said)
        assert not any(t.startswith(good) for t in said)
        assert len(df) > 0 and set(df.file.astype(str)) == {good}
    # kept games, and the matches level (a row per readable match), leave out no game
    with warnings.catch_warnings():
        warnings.simplefilter("error", bgtools.MatchWarning)  # as docs/export.md says
        assert len(ex.to_dataframe(bad, keep_bad_games=True)) > 0
        assert len(ex.to_dataframe([good, bad], "matches")) == 2
        with pytest.raises(MatchWarning, match="not read"):
            ex.to_dataframe(missing, "matches")


def test_library_entry_points():
    assert bgtools.to_dataframe is ex.to_dataframe
    one = read_match(DATA / "selfplay" / "015.mat")
    a = bgtools.to_dataframe(one, columns=["row_key", "xgid"])
    b = bgtools.to_dataframe([str(DATA / "selfplay" / "015.mat")], columns=["row_key", "xgid"])
    assert a.xgid.tolist() == b.xgid.tolist() and a.row_key.iloc[0].endswith("015.mat:1:0")
    with pytest.raises(ValueError, match="unknown column"):
        bgtools.to_dataframe(one, columns=["nope"])


def test_docs_table_lists_every_column():
    doc = (ROOT / "docs" / "export.md").read_text()
    for level, cols in ex.COLUMNS.items():
        section = doc.split(f"## {level.capitalize()} level", 1)[1].split("\n## ", 1)[0]
        rows = re.findall(r"^\| `(\w+)` \| (\S+) \|", section, re.M)
        assert rows == [(c.name, c.dtype) for c in cols], level
    assert "docs/export.md" in (ROOT / "README.md").read_text()
