"""The static HTML report: content, escaping, and that headless Chromium renders it."""
import shutil
import subprocess
import zlib

import pytest

from conformance.html_report import chart_svg, render

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def summary():
    return {
        "certified": False,
        "contractVersion": 1,
        "generator": {"name": "holdem-cert", "version": "0.1.0"},
        "engine": {"certified": True, "engine": {"name": "bundled"},
                   "families": {"rng": {"passed": 34, "failed": 0, "divergent": 0, "skipped": 0}},
                   "failures": [], "divergences": [{"id": "deck.seed0.hand1", "rulings": ["R2"]}]},
        "roster": {"ok": True, "problems": []},
        "bots": [
            {"id": "sample-caller", "name": "Sample Caller", "color": "#2dd4bf", "verdict": "certified", "reasons": [],
             "profile": {"vpip": 0.9, "pfr": 0.0, "aggressionFactor": 0.0, "allInRate": 0.01}, "timing": {"p50": 0.2, "p95": 0.4}},
            {"id": "evil", "name": "<script>alert(1)</script>", "color": "#f43f5e", "verdict": "rejected",
             "reasons": ["eval at 3:5 <b>"], "profile": None, "timing": None},
        ],
        "showcase": {"seed": 1, "botSeed": 2, "hands": 3,
                     "seats": [{"label": "Sample Caller", "chips": [10000, 10500, 20000], "place": 1, "errors": 0},
                               {"label": "Sample Tight", "chips": [10000, 9500, 0], "place": 2, "errors": 1}]},
    }


def test_page_has_every_section_and_escapes_bot_text():
    page = render(summary())
    for text in ("Engine", "Roster", "Bots", "Showcase tournament", "Sample Caller", "divergent on R2", "VPIP", "90%"):
        assert text in page
    assert "<script>" not in page and "&lt;script&gt;" in page and "&lt;b&gt;" in page
    assert render(summary()) == page  # deterministic


def test_chart_has_one_line_per_seat_scaled_to_the_chips():
    svg = chart_svg({"a": [0, 50, 100], "b": [100, 50, 0]}, {"a": "#fff", "b": "#000"}, width=240, height=140)
    assert svg.count("<polyline") == 2
    assert 'points="40.0,100.0 120.0,70.0 200.0,40.0"' in svg  # 0 at the bottom, the top at the top


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_headless_chromium_renders_the_page(tmp_path):
    page = tmp_path / "index.html"
    page.write_text(render(summary()))
    dom = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=60)
    assert "Showcase tournament" in dom.stdout and "<polyline" in dom.stdout
    shot = tmp_path / "shot.png"
    subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile2'}", f"--screenshot={shot}",
                    "--window-size=1100,1400", page.as_uri()], capture_output=True, timeout=60)
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    # The page is dark with coloured lines: the decoded image is not a single colour.
    assert len(set(zlib.decompress(png_image_data(data))[:200000])) > 20


def png_image_data(data: bytes) -> bytes:
    """The concatenated IDAT chunks of a PNG (walking the chunk list)."""
    out, i = b"", 8
    while i < len(data):
        length, kind = int.from_bytes(data[i:i + 4], "big"), data[i + 4:i + 8]
        if kind == b"IDAT":
            out += data[i + 8:i + 8 + length]
        i += 12 + length
    return out
