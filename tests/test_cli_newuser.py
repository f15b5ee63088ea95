"""Issue 13: the CLI as a new user meets it: exit codes, one-line errors, outputs that never
clash, consistent options, readable help and a summary that says what its numbers are."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli.app import app
from bgtools.formats import read_match

runner = CliRunner()
DATA = Path(__file__).parent / "data" / "matches"
M001 = str(DATA / "selfplay" / "001.mat")
OPENING = "4HPwATDgc/ABMA"
ROLLED_XGID = "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:4:0:9:10"  # dice 52 rolled
GOOD = " 1 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4\n"
ILLEGAL = " 1 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 24/10\n"
TWO_GAMES_ONE_BAD = (" 3 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 24/10\n\n"
                     " Game 2\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4\n")


@pytest.fixture(autouse=True)
def _cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("BGTOOLS_CACHE_DIR", str(tmp_path / "cache"))


def one_line_error(r, code: int = 2, *words: str) -> str:
    """The command failed with ``code`` and exactly one ``bgtools: error:`` line on stderr."""
    assert r.exit_code == code, (r.exit_code, r.output)
    assert "Traceback" not in r.output
    errs = [ln for ln in r.stderr.splitlines() if ln.startswith("bgtools: error:")]
    assert len(errs) == 1, r.stderr
    for w in words:
        assert w in errs[0], errs[0]
    return errs[0]


# ----------------------------------------------------------------------------- exit codes
def test_check_strict_on_an_illegal_move_exits_one(tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_text(ILLEGAL)
    for extra in ([], ["--strict"]):
        r = runner.invoke(app, ["check", *extra, str(bad)])
        line = one_line_error(r, 1, "'24/10'", "bad.mat:4:")
        assert line.count("bad.mat") == 1  # the file is named once
        assert "bad.mat" in r.stdout and "error" in r.stdout and "24/10" not in r.stdout  # errors on stderr


def test_an_empty_folder_is_exit_two_for_check_and_export(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    for argv in (["check", str(empty)], ["export", str(empty), "-o", str(tmp_path / "x.csv")],
                 ["annotate", str(empty)]):
        one_line_error(runner.invoke(app, argv), 2, "no match files found")
    assert not (tmp_path / "x.csv").exists()


def test_unreadable_files_exit_two_in_check_export_and_annotate(tmp_path):
    junk = tmp_path / "junk.mat"
    junk.write_bytes(b"\x00\xffnot a match\n")
    r = runner.invoke(app, ["check", str(junk)])
    assert one_line_error(r, 2).count("junk.mat") == 1
    r = runner.invoke(app, ["export", str(junk), M001, "-o", str(tmp_path / "m.csv")])
    assert one_line_error(r, 2).count("junk.mat") == 1
    assert len((tmp_path / "m.csv").read_text().splitlines()) > 10  # the good file is still exported
    r = runner.invoke(app, ["annotate", str(junk), "--ply", "0", "--no-cache"])
    assert one_line_error(r, 2).count("junk.mat") == 1


# ----------------------------------------------------------------------------- no tracebacks
def test_output_into_a_folder_is_a_one_line_error(tmp_path):
    one_line_error(runner.invoke(app, ["board", OPENING, "-o", str(tmp_path)]), 2, "is a folder")
    one_line_error(runner.invoke(app, ["report", M001, "-o", str(tmp_path), "--ply", "0"]), 2, "is a folder")


def test_unwritable_output_is_a_one_line_error(tmp_path, monkeypatch):
    import bgtools.analysis.annotate as annotate_mod
    import bgtools.base.fileio as fileio

    def denied(path, data):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(fileio, "atomic_write", denied)
    monkeypatch.setattr(annotate_mod, "atomic_write", denied)
    one_line_error(runner.invoke(app, ["board", OPENING, "-o", str(tmp_path / "b.svg")]), 2, "Permission denied")
    r = runner.invoke(app, ["report", M001, "-o", str(tmp_path / "r.html"), "--ply", "0", "--no-cache"])
    one_line_error(r, 2, "Permission denied")


def test_a_match_too_long_for_a_match_id_check_and_export_agree(tmp_path):
    big = tmp_path / "big.mat"
    big.write_text(GOOD.replace(" 1 point match", " 40000 point match"))
    a = one_line_error(runner.invoke(app, ["check", str(big)]), 2, "40000", "32767")
    b = one_line_error(runner.invoke(app, ["export", str(big), "-o", str(tmp_path / "x.csv")]), 2, "40000")
    assert "big.mat" in a and "big.mat" in b


def test_train_run_that_is_a_file(tmp_path):
    f = tmp_path / "run"
    f.write_text("not a folder")
    one_line_error(runner.invoke(app, ["train", "--run", str(f), "--games", "0"]), 2, "is a file")


# ----------------------------------------------------------------------------- convert
def test_convert_never_maps_two_inputs_onto_one_name(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.mat").write_text(GOOD)
    (src / "a.sgf").write_bytes(_sgf_of(GOOD))
    r = runner.invoke(app, ["convert", str(src), "--out-dir", str(tmp_path / "out"), "--to", "json"])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a.mat.json", "a.sgf.json"]
    assert r.stderr.count("another input has the same name") == 2
    for name in ("a.mat", "a.sgf"):
        assert read_match(tmp_path / "out" / f"{name}.json") == read_match(src / name)


def _sgf_of(text: str) -> bytes:
    from bgtools.formats.sgf import format_sgf

    return format_sgf(read_match(text)).encode()


def test_convert_writes_the_good_games_and_exits_one(tmp_path):
    src = tmp_path / "two.mat"
    src.write_text(TWO_GAMES_ONE_BAD)
    out = tmp_path / "two.json"
    r = runner.invoke(app, ["convert", str(src), "-o", str(out)])
    assert r.exit_code == 1
    assert "game(s) 1 not converted" in r.stderr and "'24/10'" in r.stderr
    back = read_match(out)
    assert [g.number for g in back.games] == [2] and not back.errors


def test_convert_reads_stdin(tmp_path):
    out = tmp_path / "s.sgf"
    r = runner.invoke(app, ["convert", "-", "-o", str(out)], input=Path(M001).read_bytes())
    assert r.exit_code == 0, r.output
    assert read_match(out) == read_match(M001)


# ----------------------------------------------------------------------------- rollout -o
def test_rollout_refuses_to_overwrite_without_resume_or_force(tmp_path):
    out = tmp_path / "r.jsonl"
    out.write_text('{"id": "keep me"}\n')
    one_line_error(runner.invoke(app, ["rollout", OPENING, "-o", str(out)]), 2, "--resume", "--force")
    assert out.read_text() == '{"id": "keep me"}\n'
    help_text = runner.invoke(app, ["rollout", "--help"]).stdout
    assert "--force" in help_text and "Append" not in help_text
    r = runner.invoke(app, ["rollout", OPENING, "-o", str(out), "--force", "--trials", "36", "--truncate", "2",
                            "--jobs", "1"])
    assert r.exit_code == 0, r.output
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["id"] for x in recs] == [OPENING] and recs[0]["trials"] == 36


# ----------------------------------------------------------------------------- options
@pytest.mark.parametrize("argv, words", [
    (["rollout", OPENING, "--workers", "1000"], ["--jobs 1000"]),
    (["rollout", OPENING, "--jobs", "1000"], ["--jobs 1000"]),
    (["export", M001, "-o", "x.csv", "--jobs", "1000"], ["--jobs 1000"]),
    (["annotate", M001, "--jobs", "1000"], ["--jobs 1000"]),
    (["train", "--run", "r", "--alpha", "-1"], ["--alpha -1"]),
    (["eval", OPENING, "--ply", "4"], ["--ply 4", "0, 1, 2 or 3"]),
    (["annotate", M001, "--ply", "-1"], ["--ply -1", "0, 1, 2 or 3"]),
])
def test_options_out_of_range_are_refused(argv, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_line_error(runner.invoke(app, argv), 2, *words)
    assert not (tmp_path / "x.csv").exists() and not (tmp_path / "r").exists()


def test_ply_help_states_the_accepted_range():
    for cmd in ("eval", "hint", "annotate", "report"):
        assert "0-3" in runner.invoke(app, [cmd, "--help"]).stdout, cmd


def test_eval_and_hint_input_print_a_table_unless_json(tmp_path):
    f = tmp_path / "ids.txt"
    f.write_text(f"{OPENING}\n")
    r = runner.invoke(app, ["eval", "--input", str(f)])
    assert r.exit_code == 0 and "cubeless equity" in r.stdout and not r.stdout.startswith("{")
    assert json.loads(runner.invoke(app, ["eval", "--input", str(f), "--json"]).stdout)["id"] == OPENING
    f.write_text(f"{OPENING} 31\n")
    r = runner.invoke(app, ["hint", "--input", str(f)])
    assert r.exit_code == 0 and "8/5 6/5" in r.stdout and not r.stdout.startswith("{")
    assert json.loads(runner.invoke(app, ["hint", "--input", str(f), "--json"]).stdout)["dice"] == "31"


def test_hint_takes_the_dice_of_an_xgid_and_eval_says_it_ignores_them():
    r = runner.invoke(app, ["hint", ROLLED_XGID, "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["dice"] == "52"
    r = runner.invoke(app, ["hint", OPENING])  # no dice: the question before the roll is the cube
    assert r.exit_code == 0 and "Proper cube action:" in r.stdout
    r = runner.invoke(app, ["eval", ROLLED_XGID])
    assert r.exit_code == 0 and "ignoring the rolled dice 52" in r.stderr
    assert "ignoring" not in runner.invoke(app, ["eval", OPENING]).stderr


def test_rollout_of_several_ids_prints_like_one_and_says_it_ignores_dice():
    args = ["--trials", "36", "--truncate", "2", "--jobs", "1"]
    one = runner.invoke(app, ["rollout", OPENING, *args])
    two = runner.invoke(app, ["rollout", OPENING, ROLLED_XGID, *args])
    assert one.exit_code == 0 and two.exit_code == 0, two.output
    assert two.stdout.startswith(one.stdout) and two.stdout.count("cubeless equity") == 2
    assert "ignoring the rolled dice" in two.stderr and "ignoring" not in one.stderr


def test_annotate_format_without_output_says_what_it_does(tmp_path):
    r = runner.invoke(app, ["annotate", M001, "-f", "csv", "--ply", "0", "--no-cache"])
    assert r.exit_code == 0
    assert "--format csv writes files only with --out-dir" in r.stderr and "printing the summary" in r.stderr
    assert "unforced moves" in r.stdout


def test_annotate_dash_o_is_a_file(tmp_path):
    out = tmp_path / "a.csv"
    r = runner.invoke(app, ["annotate", M001, "-o", str(out), "-f", "csv", "--ply", "0", "--no-cache"])
    assert r.exit_code == 0, r.output
    assert out.read_text().startswith("row_key,")
    one_line_error(runner.invoke(app, ["annotate", M001, "-o", str(tmp_path)]), 2, "--out-dir")


COMMANDS = ["show", "moves", "board", "check", "convert", "export", "eval", "hint", "rollout", "annotate",
            "report", "train", "bearoff build"]


@pytest.mark.parametrize("cmd", COMMANDS)
def test_help_reads_like_a_person_wrote_it(cmd):
    r = runner.invoke(app, [*cmd.split(), "--help"], terminal_width=200)
    assert r.exit_code == 0
    assert not re.search(r"<(bool|int|str|float|list)", r.stdout), r.stdout
    from typer.main import get_command

    command = get_command(app)
    for part in cmd.split():
        command = command.commands[part]
    for p in command.params:
        if getattr(p, "hidden", False):
            continue
        assert p.help, f"{cmd}: {p.name} has no help"


def test_workers_is_a_hidden_alias_of_jobs():
    r = runner.invoke(app, ["rollout", "--help"], terminal_width=200)
    assert "--jobs" in r.stdout and "--workers" not in r.stdout


def test_rollout_input_reads_the_exports_position_id_column(tmp_path):
    csv_file = tmp_path / "moves.csv"
    r = runner.invoke(app, ["export", M001, "-o", str(csv_file), "--columns", "row_key,position_id"])
    assert r.exit_code == 0, r.output
    lines = csv_file.read_text().splitlines()
    csv_file.write_text("\n".join(lines[:3]) + "\n")
    out = tmp_path / "r.jsonl"
    r = runner.invoke(app, ["rollout", "--input", str(csv_file), "--trials", "36", "--truncate", "2", "--jobs", "1",
                            "-o", str(out)])
    assert r.exit_code == 0, r.output
    ids = [json.loads(x)["id"] for x in out.read_text().splitlines()]
    assert ids == [ln.split(",")[-1] for ln in lines[1:3]] and ids[0] == OPENING


# ----------------------------------------------------------------------------- the summary
def test_annotate_summary_says_what_its_numbers_are():
    r = runner.invoke(app, ["annotate", M001, "--ply", "0", "--no-cache"])
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "1-point match, Alice vs Bob, final score 3-0 (Alice won 3-0)" in out
    assert "x1000" in out and "checker play:" in out and "cube:" in out
    assert "cube decisions not analysed" not in out


def test_annotate_summary_of_a_long_match_says_cube_was_not_analysed(tmp_path):
    long = tmp_path / "long.mat"
    long.write_text(GOOD.replace(" 1 point match", " 31 point match"))
    r = runner.invoke(app, ["annotate", str(long), "--ply", "0", "--no-cache"])
    assert r.exit_code == 0, r.output
    assert "cube decisions not analysed: the match equity table covers matches up to 25 points" in r.stdout


def test_a_bad_weights_file_and_an_id_less_csv_are_one_line_errors(tmp_path):
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip file")
    one_line_error(runner.invoke(app, ["rollout", OPENING, "--weights", str(junk)]), 2,
                   "junk.npz", "not a bgtools weights file")
    csv_file = tmp_path / "x.csv"
    csv_file.write_text("game,move\n1,8/5 6/5\n")
    one_line_error(runner.invoke(app, ["rollout", "--input", str(csv_file)]), 2, "x.csv", "'position_id'")


def test_rollout_of_one_trial_writes_json_and_csv_without_nan(tmp_path):
    """A standard error of one trial is not a number: null in JSON, an empty CSV cell."""
    r = runner.invoke(app, ["rollout", OPENING, "--trials", "1", "--json", "--jobs", "1"])
    assert r.exit_code == 0, r.output
    assert "NaN" not in r.stdout and json.loads(r.stdout)["equity_se"] is None
    out = tmp_path / "r.csv"
    r = runner.invoke(app, ["rollout", OPENING, "--trials", "1", "-o", str(out), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert "nan" not in text.lower() and ",," in text


def test_ctrl_c_during_annotate_keeps_the_outputs_of_finished_files(tmp_path, monkeypatch):
    """Item 6: a Ctrl-C while the second file is analysed leaves the first file's outputs
    complete and no half-written file or temporary behind."""
    from bgtools.analysis import annotate as annotate_mod

    src = tmp_path / "in"
    src.mkdir()
    (src / "a.mat").write_text(GOOD)
    (src / "b.mat").write_text(GOOD.replace("A :", "C :"))
    real = annotate_mod.analyse_level
    calls = []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(annotate_mod, "analyse_level", interrupted)
    out = tmp_path / "out"
    r = runner.invoke(app, ["annotate", str(src), "--ply", "0", "--out-dir", str(out), "-f", "json,csv",
                            "--jobs", "1", "--no-cache"])
    assert r.exit_code != 0 and len(calls) == 2
    done = sorted(p.name for p in out.iterdir())
    assert done == ["a.analysis.csv", "a.analysis.json"], done  # b's outputs were never started
    assert json.loads((out / "a.analysis.json").read_text())["analysis"]["decisions"]


def test_a_dangling_symlink_says_what_it_is(tmp_path):
    link = tmp_path / "gone.mat"
    link.symlink_to(tmp_path / "nowhere.mat")
    err = one_line_error(runner.invoke(app, ["check", str(link)]), 2, "symbolic link to a missing file")
    assert "nowhere.mat" in err
