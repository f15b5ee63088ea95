"""Match metadata under the standard keys (date, time, event, round, place, site, rating0/1)
from every format, on real files, and the matches-level export columns that carry them."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from bgtools.export import to_dataframe
from bgtools.formats import read_match
from bgtools.formats.matfile import format_mat
from bgtools.formats.metadata import STANDARD_KEYS, delphi_datetime, iso_date, iso_time, mat_standard
from bgtools.formats.sgf import format_sgf

REAL = Path(__file__).parent / "data" / "matches" / "realmatches"
HSBT = {"date": "2023-11-26", "event": "HSBT Paris 2023", "round": "Tableau Or 2",
        "site": "Paris, F\u00e9d\u00e9ration Fran\u00e7aise de Bridge"}


def read(rel: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read_match(REAL / rel)


def std(m) -> dict:
    return {k: m.tags[k] for k in STANDARD_KEYS if k in m.tags}


def test_one_match_three_formats_same_metadata():
    """The HSBT Paris match as XG wrote it (.xg), as XG exported it (.mat) and as gnubg saved
    it (.sgf): the same date, event, round and site; time where the file has one."""
    xg, mat, sgf = read("xg-kevung-gbf/test.xg"), read("kevung-gbf/test.mat"), read("kevung-gbf/test.sgf.gz")
    for m in (xg, mat, sgf):
        assert {k: m.tags[k] for k in HSBT} == HSBT, m.format
    assert xg.tags["time"] == mat.tags["time"] == "09:30" and "time" not in sgf.tags
    # .mat: "Player 1" is Maxence Job, the second-named (right column) player: his Elo is rating1
    assert mat.tags["Player 1"] == mat.players[1] == "Maxence Job"
    assert mat.tags["rating0"] == mat.tags["Player 2 Elo"] and mat.tags["rating1"] == mat.tags["Player 1 Elo"]
    assert xg.tags["rating0"] == "1600.00/0"
    # the tags as read stay
    assert mat.tags["EventDate"] == "2023.11.26" and sgf.tags["DT"] == "2023-11-26" and xg.tags["Event"]


@pytest.mark.parametrize("rel, want", [
    ("bgchallenge/Mochy_Soren_9pointmatch_11_02_2010_3rd.txt",
     {"date": "2010-11-02", "time": "20:15", "event": "WBT Grand Finale Final", "round": "Round 3",
      "site": "eXtreme Gammon", "rating0": "1564.59/9", "rating1": "1665.83/36"}),
    ("lhm-gnubg-scripts/match1486073.txt", {"site": "BackgammonGalaxy", "rating0": "3,00/0", "rating1": "0,00/0"}),
    ("lhm-gnubg-scripts/match1486073_analyzed.sgf.gz", {"date": "2023-09-05", "site": "BackgammonGalaxy"}),
    ("bgf-gammonview/5nqfGw9bWG3deTaU.bgf", {"date": "2026-01-13", "event": "Sample Club Monthly",
                                             "site": "GammonView"}),
    ("xg-kevung-gbf/Lux Heuler-Franzosen 7 point match 12.08.2024.xg",
     {"date": "2024-08-11", "time": "23:02:56", "event": "Doppel WM", "round": "2", "site": "Aachen",
      "rating0": "1600.00/0", "rating1": "1600.00/0"}),
    ("gnu-gibbon/7point.mat", {}),
])
def test_real_files(rel, want):
    assert std(read(rel)) == want


def test_year_only_date_fills_no_date():
    m = read("bgchallenge/Seigel_Dwek_Florida_1981_Main_1347406675.txt")
    assert m.tags["EventDate"] == "1981" and "date" not in m.tags and m.tags["event"] == "Florida Master Main"


def test_mat_ratings_by_player_tag_names():
    # a file whose Player N names match neither score-line name: file order (Player 1 = player 0)
    m = read("bgchallenge/Moriuchi Toshiyuki-Kawauchi Hibiki 9 point match 2022-05-05_1651826699.txt")
    assert m.tags["rating1"] == "1558.54/11"
    assert mat_standard({"Player 1": "X", "Player 2": "Y", "Player 1 Elo": "1", "Player 2 Elo": "2"},
                        ("Y", "X")) == {"rating0": "2", "rating1": "1"}
    assert mat_standard({"Player 1 Elo": "1", "Player 2 Elo": "2"}, ("A", "B")) == {"rating0": "1", "rating1": "2"}


def test_parsers():
    assert [iso_date(t) for t in ("2022.05.08", "2025-11-08", "2023/9/5", "12.08.2024", "1981", "2022.13.01",
                                  "", "sometime")] == ["2022-05-08", "2025-11-08", "2023-09-05", "2024-08-12",
                                                       "", "", "", ""]
    assert [iso_time(t) for t in ("09.30", "17:44", "9:05:07", "25.00", "x")] == ["09:30", "17:44", "09:05:07",
                                                                               "", ""]
    assert delphi_datetime(0) == ("", "") and delphi_datetime(45514.5) == ("2024-08-10", "12:00")
    assert delphi_datetime(45514.0) == ("2024-08-10", "")


def test_writers_carry_metadata_across_formats():
    """.xg -> .mat keeps date, event, round and site under their .mat names, and a .mat read
    back gives the same standard keys; a .mat written from a .mat has no duplicated tags."""
    xg = read("xg-kevung-gbf/test.xg")
    text = format_mat(xg)
    assert '; [EventDate "2023.11.26"]' in text and '; [Site "Paris' in text and "[date " not in text
    back = read_match(text)
    assert {k: back.tags[k] for k in HSBT} == HSBT and back.tags["time"] == "09:30"
    mat = read("kevung-gbf/test.mat")
    header = [ln for ln in format_mat(mat).splitlines() if ln.startswith("; [")]
    assert len(header) == len({ln.split('"')[0] for ln in header}) == 15  # the file's own 15 tags, once each
    sgf = format_sgf(back)
    assert "DT[2023-11-26]" in sgf and "EV[HSBT Paris 2023]" in sgf and sgf.count("DT[") == 1
    assert std(read_match(sgf)) == {k: v for k, v in std(back).items() if k not in ("time", "place")}


def test_export_matches_level_columns():
    files = [REAL / "kevung-gbf" / "test.mat", REAL / "gnu-gibbon" / "7point.mat",
             REAL / "bgf-gammonview" / "5nqfGw9bWG3deTaU.bgf"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = to_dataframe([str(f) for f in files], level="matches")
    assert list(df.columns[-8:]) == list(STANDARD_KEYS)
    assert df.date.isna().tolist() == [False, True, False]
    assert df.date.iloc[0] == "2023-11-26" and df.event.iloc[2] == "Sample Club Monthly"
    assert df.rating1.iloc[0] == "1600.00/0" and df.site.isna().iloc[1]


def test_gridgammon_ratings_from_the_score_line():
    text = " 3 point match\n\n Game 1\n Alice,1811 : 0                 Bob,1823.5 : 0\n  1) 31: 8/5 6/5\n"
    m = read_match(text)
    assert m.players == ("Alice", "Bob") and m.tags["rating0"] == "1811" and m.tags["rating1"] == "1823.5"
    tagged = '; [Player 1 Elo "1600.00/0"]\n' + text
    assert read_match(tagged).tags["rating0"] == "1600.00/0"  # the header tag wins
    assert "rating0" not in read_match(text.replace(",1811", "")).tags
