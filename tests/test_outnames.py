"""Issue 34 item 4: one naming rule and one clash policy for every command that writes
files per match file (``convert`` of a folder, ``annotate --out-dir``)."""

from __future__ import annotations

import os

from bgtools.analysis.annotate import plan_output_paths
from bgtools.formats.convert import plan_conversion
from bgtools.formats.outnames import output_stem, plan_outputs


def _tree(tmp_path, names):
    src = tmp_path / "in"
    for n in names:
        p = src / n
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x")
    return src


def _stem(path: str, suffix: str) -> str:
    assert path.endswith(suffix), path
    return os.path.basename(path[: -len(suffix)])


def test_stem_drops_gz_and_one_match_suffix():
    assert output_stem("d/a.mat.gz") == "a"
    assert output_stem("d/a.SGF") == "a"
    assert output_stem("d/a.b.xg") == "a.b"
    assert output_stem("d/.xg") == ".xg"  # nothing would be left: the name is kept


def test_convert_and_annotate_name_the_same_inputs_alike(tmp_path):
    src = _tree(tmp_path, ["a.mat", "a.sgf", "b.xg", "c.mat.gz"])
    files = sorted(str(p) for p in src.iterdir())
    conv = plan_conversion(str(src), str(tmp_path / "out"), "json", expand=lambda _: files)
    conv_stems = {s: _stem(d, ".json") for s, d in conv.pairs}
    ann = plan_output_paths(files, str(tmp_path / "out"), ["html"])
    ann_stems = {f: _stem(o["html"], ".report.html") for f, o in zip(files, ann)}
    assert conv_stems == ann_stems
    by_name = {os.path.basename(k): v for k, v in conv_stems.items()}
    assert by_name == {"a.mat": "a.mat", "a.sgf": "a.sgf", "b.xg": "b", "c.mat.gz": "c"}
    assert sorted(os.path.basename(s) for s, _ in conv.renamed) == ["a.mat", "a.sgf"]


def test_folders_are_kept_below_the_output_folder(tmp_path):
    src = _tree(tmp_path, ["2024/a.mat", "2025/a.mat"])
    files = sorted(str(p) for p in src.rglob("*.mat"))
    plan = plan_outputs(files, "out", [".json"], root=str(src))
    assert [p.outputs for p in plan.pairs] == [(os.path.join("out", "2024", "a.json"),),
                                              (os.path.join("out", "2025", "a.json"),)]
    assert plan.renamed == []


def test_same_file_name_from_two_folders_into_one_flat_folder_is_numbered(tmp_path):
    src = _tree(tmp_path, ["x/a.mat", "y/a.mat", "z/a.sgf"])
    files = [str(src / "x/a.mat"), str(src / "y/a.mat"), str(src / "z/a.sgf")]
    outs = [o["json"] for o in plan_output_paths(files, "out", ["json", "html"])]
    assert outs == ["out/a.analysis.json", "out/a-2.analysis.json", "out/a.sgf.analysis.json"]
    assert len(set(outs)) == 3
    multi = plan_output_paths(files, "out", ["json", "html"])
    assert [o["html"] for o in multi] == ["out/a.report.html", "out/a-2.report.html", "out/a.sgf.report.html"]
