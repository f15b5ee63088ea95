"""The HTML report: structure, and a headless-Chromium rendering with a screenshot."""

import os
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest

from bgtools.analysis.analyse import analyse_match
from bgtools.formats import read_match
from bgtools.analysis.report import equity_chart_svg, html_report

DATA = Path(__file__).parent / "data" / "matches"
CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"), "/usr/bin/chromium")
                 if p and os.path.exists(p)), None)
BOARD = (0xD9, 0xB7, 0x7E)  # board field colour in bgtools.analysis.svg
WIN_LINE = (0x2B, 0x6C, 0xB0)  # the chart's winning-chance line


@pytest.fixture(scope="module", autouse=True)
def _cache_dir(tmp_path_factory):
    """bgtools' cache folder in a temporary directory (set before the module's fixtures run)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BGTOOLS_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture(scope="module")
def analysed():
    m = read_match(str(DATA / "selfplay" / "002.mat"))
    return m, analyse_match(m, ply=0, cache=None)


def test_report_structure(analysed):
    m, a = analysed
    html = html_report(m, a)
    errs = a.errors
    assert errs, "the 0-ply analysis of 002.mat finds errors"
    n_checker = sum(d.kind == "checker" for d in errs)
    assert html.count('<figure class="board played">') == n_checker
    assert html.count('<figure class="board best">') == n_checker
    assert html.count('<figure class="board cube">') == len(errs) - n_checker
    assert html.count('class="equity-chart"') == 1 and 'class="win-line"' in html and 'class="mwc-line"' in html
    assert "<script" not in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in html
    for s in a.players_summary:
        assert f"{s.pr:.1f}" in html


def test_chart_points_follow_the_checker_plays(analysed):
    _, a = analysed
    svg = equity_chart_svg(a)
    pts = re.search(r'<polyline points="([^"]+)"[^>]*class="win-line"', svg).group(1).split()
    assert len(pts) == sum(d.kind == "checker" for d in a.decisions)
    assert svg.count("<circle") == sum(d.kind == "checker" and d.error_class != "none" for d in a.decisions)


def _read_png(path: Path) -> np.ndarray:
    """RGB(A) 8-bit non-interlaced PNG -> uint8[h, w, channels] (enough for Chromium screenshots)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w = 8, [], 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0
            ch = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + n
    raw = np.frombuffer(zlib.decompress(b"".join(idat)), np.uint8).reshape(h, 1 + w * ch)
    out = np.zeros((h, w * ch), np.int32)
    prev = np.zeros(w * ch, np.int32)
    for y in range(h):
        f, line = raw[y, 0], raw[y, 1:].astype(np.int32)
        if f == 0:
            cur = line
        elif f == 2:
            cur = (line + prev) & 255
        elif f == 1:
            cur = line.copy()
            for c in range(ch):
                cur[c::ch] = np.cumsum(line[c::ch]) & 255
        else:  # average / Paeth need the running value: per pixel
            cur = line.copy()
            for i in range(w * ch):
                a = cur[i - ch] if i >= ch else 0
                b = prev[i]
                if f == 3:
                    cur[i] = (line[i] + (a + b) // 2) & 255
                else:
                    c = prev[i - ch] if i >= ch else 0
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    cur[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out[y] = cur
        prev = cur
    return out.reshape(h, w, ch)[:, :, :3].astype(np.uint8)


def _chromium(url: str, tmp: Path, shot: Path, size: str) -> str:
    args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            f"--user-data-dir={tmp / 'profile'}", "--enable-logging=stderr", "--v=0", "--hide-scrollbars",
            f"--window-size={size}", f"--screenshot={shot}", url]
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert shot.exists(), p.stderr[-2000:]
    return p.stderr


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_report_renders_in_headless_chromium(analysed, tmp_path):
    m, a = analysed
    page = tmp_path / "report.html"
    page.write_text(html_report(m, a), encoding="utf-8")
    shot = tmp_path / "shot.png"
    log = _chromium(page.as_uri(), tmp_path, shot, "1200,2200")
    assert not [x for x in log.splitlines() if ":CONSOLE" in x], log
    img = _read_png(shot)
    assert img.shape[:2] == (2200, 1200)
    is_board = np.all(img == BOARD, axis=2)
    near_line = np.all(np.abs(img.astype(int) - WIN_LINE) <= 40, axis=2)
    rows_board = np.flatnonzero(is_board.sum(axis=1) > 100)
    rows_line = np.flatnonzero(near_line.sum(axis=1) > 0)
    assert is_board.sum() > 50_000, "board diagrams are drawn"
    assert near_line.sum() > 500, "the chart's line is drawn"
    assert rows_line.min() < rows_board.min(), "the chart comes before the error boards"
    # the console check can fail: a page that logs an error is caught
    bad = tmp_path / "bad.html"
    bad.write_text("<html><body><script>console.error('boom')</script></body></html>")
    log = _chromium(bad.as_uri(), tmp_path, tmp_path / "bad.png", "400,300")
    assert any(":CONSOLE" in x and "boom" in x for x in log.splitlines())
