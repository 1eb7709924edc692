"""The HTML report: content, escaping, colours, the chart, the hand replayer, and that headless
Chromium renders it (its structure after script, no overflow at 480 px, a screenshot)."""
import json
import re
import shutil
import subprocess
import zlib
from pathlib import Path

import pytest

from conformance.cli.certify import distinct_colors
from conformance.harness.runner import BotSpec, RunnerOptions, run_tournament
from conformance.report.html import chart_svg, nice_ticks, render
from conformance.report.replayer import data_island

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")


@pytest.fixture(scope="module")
def log():
    """A short real tournament: its hand records and seat names (two seats share a botName)."""
    bots = [BotSpec.from_file(ROOT / "bots/sample-caller.js", id="caller", name="Twin"),
            BotSpec.from_file(ROOT / "bots/sample-tight.js", id="tight", name="Twin"),
            BotSpec.from_file(ROOT / "bots/equity-bot.js", id="equity", name="Equity </script><b>")]
    result = run_tournament(bots, 11, 3, RunnerOptions(tournament={"max_hands": 12}))
    return result.hands, [b.seat_name for b in bots]


def summary(log=None):
    hands, names = log or ([], ["Twin", "Twin"])
    chips = [[h["endStacks"][s] for h in hands] or [10000, 10500, 20000] for s in range(len(names))]
    return {
        "certified": False,
        "contractVersion": 1,
        "generator": {"name": "holdem-cert", "version": "0.1.0"},
        "engine": {"certified": False, "verdict": "NOT CERTIFIED: 1 failed in evaluate",
                   "engine": {"source": "wheel.js"},
                   "families": {"rng": {"passed": 34, "failed": 0, "divergent": 0, "skipped": 0},
                                "evaluate": {"passed": 80, "failed": 1, "divergent": 2, "skipped": 0}},
                   "smoke": [{"id": "smoke.load", "passed": True, "message": "the engine loaded"}],
                   "failures": [{"id": "evaluate.order.wheel-beats-trips", "family": "evaluate",
                                 "clause": ["rules.wheel", "helper.evaluate"],
                                 "message": "sign(value(a) - value(b)) is -1, expected +1", "diff": ""}],
                   "divergences": [{"id": "deck.seed0.hand1", "family": "deck", "rulings": ["R2"],
                                    "message": "a different outcome that is well formed", "diff": "- a\n+ b"}]},
        "roster": {"ok": False, "entries": ["sample-caller"],
                   "problems": [{"id": "sample-caller", "field": "bytes", "message": "is 3, the file has 4",
                                 "severity": "error"}]},
        "bots": [
            {"id": "sample-caller", "name": "Sample Caller", "color": "#2dd4bf", "verdict": "certified", "reasons": [],
             "profile": {"vpip": 0.9, "pfr": 0.0, "aggressionFactor": 0.0, "allInRate": 0.01}, "timing": {"p50": 0.2, "p95": 0.4}},
            {"id": "evil", "name": "<script>alert(1)</script>", "color": "#f43f5e", "verdict": "rejected",
             "reasons": ["eval at 3:5 <b>"], "profile": None, "timing": None},
        ],
        "showcase": {"seed": 1, "botSeed": 2, "hands": len(hands), "note": "the bots' engine helper is the engine under test",
                     "seats": [{"label": n, "bot": f"bot{s}", "color": "#123456", "chips": chips[s], "place": s + 1,
                                "errors": 0} for s, n in enumerate(names)],
                     "unseated": [{"bot": "tenth", "reason": "the table holds 9 and 9 bots listed before it were seated"}],
                     "log": hands},
    }


def test_page_has_every_section_and_escapes_bot_text():
    page = render(summary())
    for text in ("Engine", "Roster", "Bots", "Showcase tournament", "Sample Caller", "VPIP", "90%", "Not seated",
                 "tenth", "the table holds 9"):
        assert text in page
    assert page.count("<script>") == 1  # the replayer's own script; bot text never becomes one
    assert "<script>alert" not in page and "&lt;script&gt;" in page and "&lt;b&gt;" in page
    assert render(summary()) == page  # deterministic


def test_every_failure_shows_its_message_and_clause_summaries():
    page = render(summary())
    assert "sign(value(a) - value(b)) is -1, expected +1" in page  # a failure explained only by its message
    assert "<code>rules.wheel</code> — Rules: A2345 is a five-high straight" in page
    assert "['rules.wheel'" not in page and "[&#x27;" not in page  # never a Python list
    assert "divergent on R2 (R2 — dealHand(seed, handNumber) derivation)" not in page  # the title, once
    assert "divergent on R2 (dealHand(seed, handNumber) derivation)" in page
    assert "is 3, the file has 4" in page


def test_failure_boxes_show_input_and_reproduction_when_the_summary_has_them():
    s = summary()
    s["engine"]["failures"][0].update(input={"cards": ["Ah", "2c"]}, repro="node repro.js")
    page = render(s)
    assert "<summary>input</summary>" in page and "&quot;Ah&quot;" in page
    assert "<summary>reproduction</summary><pre>node repro.js</pre>" in page


def test_counts_are_coloured():
    page = render(summary())
    assert '<td class="n bad">1</td>' in page  # evaluate failed 1
    assert '<td class="n warn">2</td>' in page and '<td class="n ok">80</td>' in page
    assert '<td class="n zero">0</td>' in page


def test_the_page_is_self_contained():
    page = render(summary())
    assert not re.search(r"(?i)https?:|//[a-z]|\bsrc=|\bhref=|@import|url\(", page)


def test_nice_ticks():
    assert nice_ticks(30000) == [0, 10000, 20000, 30000]
    assert nice_ticks(32350) == [0, 10000, 20000, 30000, 40000]
    assert nice_ticks(60, 8) == [0, 10, 20, 30, 40, 50, 60]
    assert nice_ticks(3) == [0, 1, 2, 3]


def test_chart_draws_every_seat_with_ticked_axes():
    svg = chart_svg([("a", "#fff", [0, 50, 100]), ("a", "#000", [100, 50, 0])], width=240, height=140)
    assert svg.count("<polyline") == 2 and 'stroke="#fff"' in svg and 'stroke="#000"' in svg  # same label, both
    assert svg.count('class="tick y"') >= 3 and svg.count('class="tick x"') >= 2
    top = re.findall(r'<polyline[^>]*points="([^"]+)"', svg)[0].split()
    assert float(top[0].split(",")[1]) > float(top[-1].split(",")[1])  # more chips higher up


def test_seats_get_distinct_colours_even_when_the_roster_repeats_one():
    colors = distinct_colors(["#123456", "#123456", "#ABCDEF", "#abcdef", "#2dd4bf"])
    assert len({c.lower() for c in colors}) == 5 and colors[0] == "#123456" and colors[2] == "#ABCDEF"
    assert colors[4] == "#2dd4bf"  # a seat's own colour is kept when no earlier seat has it


def test_data_island_cannot_end_the_script_early():
    island = data_island("x", {"name": "</script><script>alert(1)</script><!--"})
    assert island.count("</script>") == 1 and "<!--" not in island.split(">", 1)[1]
    assert json.loads(island.split(">", 1)[1].rsplit("<", 1)[0]) == {"name": "</script><script>alert(1)</script><!--"}


# ---- in Chromium -------------------------------------------------------------------------------

PROBE = """<script>
(function () {
  var out = {};
  out.scrollWidth = document.documentElement.scrollWidth;
  out.innerWidth = window.innerWidth;
  var root = document.getElementById('showcase-replayer');
  var games = JSON.parse(document.getElementById('showcase-replayer-data').textContent);
  // every frame of every hand: chips are conserved (the pot counts the street's bets, as the
  // contract's pots do), the last frame has the hand's end stacks
  out.conserved = true; out.endStacks = true; out.frames = 0; out.streets = true;
  var size = {preflop: 0, flop: 3, turn: 4, river: 5};
  games.forEach(function (g) {
    var frames = HoldemReplayer.framesFromHand(g.data, g.names);
    var total = g.data.startStacks.reduce(function (a, b) { return a + b; }, 0);
    frames.forEach(function (f) {
      out.frames += 1;
      var here = f.pot + f.seats.reduce(function (a, s) { return a + s.stack; }, 0);
      if (here !== total) out.conserved = false;
      if (f.board.length !== size[f.street]) out.streets = false;
      var opensStreet = f.note.indexOf(f.street + ':') === 0 || f.note.indexOf('the board runs out') === 0;
      if (opensStreet && f.seats.some(function (s) { return s.bet !== 0; })) out.streets = false;
    });
    var last = frames[frames.length - 1];
    if (JSON.stringify(last.seats.map(function (s) { return s.stack; })) !== JSON.stringify(g.data.endStacks)) out.endStacks = false;
  });
  var step = root.querySelector('.rp-step').textContent;
  root.querySelector('[data-step=forward]').click();
  root.querySelector('[data-step=forward]').click();
  out.afterForward = root.querySelector('.rp-step').textContent;
  root.querySelector('[data-step=back]').click();
  out.afterBack = root.querySelector('.rp-step').textContent;
  out.first = step;
  out.cards = root.querySelectorAll('.card').length;
  out.seats = root.querySelectorAll('.rp-seat').length;
  out.games = root.querySelectorAll('select option').length;
  var pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""


def chromium(tmp_path: Path, html: str, *args: str) -> subprocess.CompletedProcess:
    page = tmp_path / f"page{len(list(tmp_path.glob('page*')))}.html"
    page.write_text(html, encoding="utf-8")
    profile = tmp_path / f"profile-{page.stem}"
    return subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args, page.as_uri()],
                          capture_output=True, text=True, timeout=90)


def probe(tmp_path: Path, html: str, width: int) -> dict:
    dom = chromium(tmp_path, html.replace("</body>", PROBE + "</body>"), f"--window-size={width},900", "--dump-dom").stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom)
    assert found, dom[-2000:]
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


@needs_chromium
def test_the_replayer_steps_through_hands_in_chromium(tmp_path, log):
    result = probe(tmp_path, render(summary(log)), 1100)
    assert result["games"] == len(log[0]) == 12
    assert result["conserved"] and result["endStacks"] and result["streets"] and result["frames"] > 12 * 3
    assert result["first"].startswith("frame 1 of ") and result["afterForward"].startswith("frame 3 of ")
    assert result["afterBack"].startswith("frame 2 of ")
    assert result["seats"] == 3 and result["cards"] >= 6  # every seat's hole cards


@needs_chromium
def test_no_horizontal_overflow_at_480_px(tmp_path, log):
    s = summary(log)
    s["engine"]["failures"][0]["diff"] = "Value of categoryCounts[0] changed from 1302540 to 1303560. " * 3
    s["engine"]["failures"][0]["id"] = "evaluate.order.a-very-long-vector-identifier-that-does-not-fit-anywhere"
    result = probe(tmp_path, render(s), 480)
    assert result["innerWidth"] <= 500 and result["scrollWidth"] <= result["innerWidth"], result


@needs_chromium
def test_headless_chromium_renders_the_page(tmp_path, log):
    html = render(summary(log))
    dom = chromium(tmp_path, html, "--dump-dom").stdout
    assert "Showcase tournament" in dom and "<polyline" in dom and 'class="rp-seat' in dom
    shot = tmp_path / "shot.png"
    chromium(tmp_path, html, f"--screenshot={shot}", "--window-size=1100,1400")
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


def test_the_fuzz_row_names_its_games_and_seed_and_a_fuzz_failure_shows_its_shrunk_vector():
    s = summary()
    s["engine"]["engine"]["fuzz"] = {"seed": 77, "games": 12, "budgetSeconds": 15.0}
    s["engine"]["families"]["fuzz"] = {"passed": 11, "failed": 1, "divergent": 0, "skipped": 0}
    s["engine"]["failures"].append({"id": "hands.fuzz.77.11", "family": "fuzz", "clause": ["timing.fallback"],
                                    "message": "first divergence", "diff": "",
                                    "vector": {"id": "hands.fuzz-77-11", "input": {"steps": [{"timeout": True}]}}})
    page = render(s)
    assert "<td>fuzz (12 games, seed 77)</td>" in page
    assert "the game shrunk: a hands vector" in page and "hands.fuzz-77-11" in page
