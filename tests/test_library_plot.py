"""bgtools.library.plot: the SVG of PR over time parses as XML and holds one point per group,
the band through the intervals and the rolling line, at the right heights."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest

from bgtools.library.plot import PlotError, pr_plot, pr_svg
from bgtools.library.stats import rolling_pr, stats_table
from libframes import synthetic

NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def frames():
    m, d, _ = synthetic(60, np.random.default_rng(4), per_match=40, days=180)
    return m, d


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return root


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == cls]


def test_table_plot(frames, tmp_path):
    m, d = frames
    t = stats_table(d, m, by="month", me=True, resamples=300)
    path = tmp_path / "pr.svg"
    pr_plot(t, path)
    root = parse(path.read_text())
    months = t[t.group != "all"]
    points = by_class(root, "point")
    assert len(points) == len(months) == len(by_class(root, "error-bar"))
    titles = [p.find(NS + "title").text for p in points]
    assert titles[0].startswith(f"{months.group.iloc[0]}: PR {months.pr.iloc[0]:.2f}")
    # one band over every month (all have an interval), its vertices the intervals' ends
    (band,) = by_class(root, "band")
    ys = [float(v.split(",")[1]) for v in band.get("points").split()]
    assert len(ys) == 2 * len(months)
    cy = [float(p.get("cy")) for p in points]
    lo_y, hi_y = ys[:len(months)], ys[len(months):][::-1]
    assert all(h < c < lo for h, c, lo in zip(hi_y, cy, lo_y))  # SVG y grows downwards
    # heights are proportional to PR: the ratio of two points' heights above the axis
    base = float(by_class(root, "grid")[0].get("y1"))  # the 0 line
    assert (base - cy[0]) / (base - cy[1]) == pytest.approx(months.pr.iloc[0] / months.pr.iloc[1], rel=0.02)
    assert len(by_class(root, "overall")) == 1


def test_band_breaks_where_no_interval(frames):
    m, d = frames
    t = stats_table(d, m, by="month", resamples=100)
    t.loc[2, ["pr_lo", "pr_hi"]] = np.nan  # a group of one match: no interval
    root = parse(pr_svg(t))
    bands = by_class(root, "band")
    assert len(bands) == 2 and len(by_class(root, "error-bar")) == len(t) - 2
    assert len(by_class(root, "point")) == len(t) - 1


def test_rolling_plot_html(frames, tmp_path):
    _, d = frames
    r = rolling_pr(d[d.me], 200)
    path = tmp_path / "rolling.html"
    pr_plot(r, path)
    html = path.read_text()
    assert html.startswith("<!DOCTYPE html>")
    root = parse(re.search(r"<svg.*</svg>", html, re.S).group(0))
    (line,) = by_class(root, "pr-line")
    assert len(line.get("points").split()) == min(len(r), 2000)
    assert len(by_class(root, "band")) == 1 and not by_class(root, "point")


def test_long_rolling_line_is_thinned():
    n = 10_000
    r = pd.DataFrame({"n": np.arange(1, n + 1), "pr": np.linspace(3, 6, n), "pr_lo": np.linspace(2, 5, n),
                      "pr_hi": np.linspace(4, 7, n)})
    (line,) = by_class(parse(pr_svg(r)), "pr-line")
    pts = line.get("points").split()
    assert len(pts) <= 2001 and pts[-1].startswith(f"{820 - 20:.1f},")  # the last decision is kept


def test_bad_plots(tmp_path):
    with pytest.raises(PlotError):
        pr_svg(pd.DataFrame({"x": [1]}))
    with pytest.raises(PlotError, match="unknown plot format"):
        pr_plot(pd.DataFrame({"group": ["a"], "pr": [1.0]}), tmp_path / "p.png")
