"""End-to-end: the coach's review page (``/static/review.html``) in a real headless Chromium
against a live server. A file of played hands (non-best arrangements from the solver, one
best, one line that cannot be read) is uploaded and reviewed: the summary shown is the API's,
the charts are drawn, a hand opens on both arrangements, the CSV and JSON lines downloads
hold every reviewed hand, and the bad line is listed with its number. Then the page reviews
this browser's own Capsa session hands, and a server error is shown in words.

Screenshots at desktop and phone width go to ``artefacts/review/`` (or
``$ARTEFACTS_DIR/review``), which git ignores. The browser comes from ``browser_support.py``
(the ``browser`` fixture is in ``conftest.py``).
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from browser_support import DESKTOP, LiveServer

import solver

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
ARTEFACTS = Path(os.environ.get("ARTEFACTS_DIR", Path(__file__).resolve().parents[1] / "artefacts")) / "review"
DECK = [r + s for r in "AKQJT98765432" for s in "shdc"]
CSV_HEADER = ["line", "hand", "ev", "best_ev", "ev_lost", "exact", "mistake", "mistakes",
              "mine_front", "mine_middle", "mine_back", "best_front", "best_middle", "best_back"]
BAD_LINE = '{"front": "As Ks Qs", "middle": "Jh Th"'  # not valid JSON


def _shoot(page, name: str) -> None:
    """Desktop and phone-width screenshots; the page must not be wider than the phone."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(50)  # the charts redraw at the new width
    width = page.evaluate("document.documentElement.scrollWidth")
    page.screenshot(path=str(ARTEFACTS / f"{name}-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    assert width <= PHONE["width"] + 1, f"{name}: the page is {width}px wide at phone width"


def _open(page, live: LiveServer) -> None:
    page.goto(live.url + "/static/review.html")
    page.wait_for_selector("body[data-ready=true]")


def _played_lines(n: int = 8) -> list[str]:
    """Hands set with a non-best arrangement of the solver's top 5 (the first one best)."""
    rng = random.Random(11)
    lines = []
    for i in range(n):
        hand = rng.sample(DECK, 13)
        arrs = solver.arrange(" ".join(hand), "standard", 3, top=5).to_dict()["arrangements"]
        a = arrs[0] if i == 0 else arrs[1 + (i % (len(arrs) - 1))]
        lines.append(json.dumps({"hand": " ".join(hand), "front": a["front"],
                                 "middle": a["middle"], "back": a["back"]}))
    return lines


def _cards(locator) -> list[str]:
    return locator.evaluate_all("els => els.map(e => e.dataset.card)")


def _download(page, button: str) -> str:
    with page.expect_download() as info:
        page.click(button)
    path = info.value.path()
    assert path is not None
    return Path(path).read_text(encoding="utf-8")


def test_upload_review_charts_hand_downloads_and_bad_line(page, live, tmp_path):
    lines = _played_lines()
    lines.insert(3, BAD_LINE)  # line 4
    text = "\n".join(lines) + "\n"
    played = tmp_path / "played.jsonl"
    played.write_text(text, encoding="utf-8")
    want: dict[str, Any] = live.app.test_client().post(
        "/v1/capsa/review", json={"text": text, "rules": "standard", "opponents": 3}).get_json()
    s = want["summary"]
    assert s["hands"] == 8 and s["errors"] == 1 and s["ev_lost"] > 0

    _open(page, live)
    page.set_input_files("#file", str(played))
    page.wait_for_selector("body[data-loaded='played.jsonl']")
    assert page.input_value("#lines") == text
    page.click("#review-btn")
    page.wait_for_selector("#results:not([hidden]) #hand-list li")

    # The summary is the API's.
    def shown(id_: str) -> str:
        return page.inner_text(f"#{id_}").strip()

    assert shown("sum-hands") == str(s["hands"])
    assert shown("sum-exact") == f"{100 * s['exact_share']:.1f}%"
    assert float(shown("sum-mean")) == pytest.approx(s["mean_ev_lost"], abs=5e-4)
    lo, hi = (float(x) for x in shown("sum-ci").removeprefix("between ").split(" and "))
    assert (lo, hi) == pytest.approx(tuple(s["mean_ev_lost_ci95"]), abs=5e-4)
    assert 0 <= lo <= hi
    assert float(shown("sum-total")) == pytest.approx(s["ev_lost"], abs=5e-4)
    assert float(page.get_attribute("#sum-total", "data-value")) == s["ev_lost"]
    assert float(page.get_attribute("#sum-mean", "data-value")) == s["mean_ev_lost"]

    # The charts: a bar per reviewed hand, in line order; a bar per mistake class.
    bars = page.locator("#chart-hands svg rect.rv-bar")
    assert bars.count() == s["hands"]
    assert [int(x) for x in bars.evaluate_all("els => els.map(e => e.dataset.line)")] == \
        [h["line"] for h in want["hands"]]
    assert page.locator("#chart-mistakes svg rect.rv-mbar").count() == len(s["by_mistake"])

    # The line that could not be read, with its number.
    errs = page.locator("#errors-list li")
    assert errs.count() == 1
    assert errs.first.get_attribute("data-line") == "4"
    assert errs.first.inner_text().startswith("Line 4:")
    assert "not valid JSON" in errs.first.inner_text()

    # The hands, costliest first; the first opened shows both arrangements' cards.
    items = page.locator("#hand-list li.rv-hand")
    assert items.count() == s["hands"]
    order = sorted(want["hands"], key=lambda h: (-h["ev_lost"], h["line"]))
    assert [int(x) for x in items.evaluate_all("els => els.map(e => e.dataset.line)")] == \
        [h["line"] for h in order]
    worst = order[0]
    assert worst["line"] == s["worst"][0]["line"]
    items.first.locator("summary").click()
    body = items.first.locator(".rv-body")
    body.locator(".rv-compare").wait_for()
    for row in ("front", "middle", "back"):
        assert sorted(_cards(body.locator(f'.rv-mine .rv-row[data-row="{row}"] .card'))) == \
            sorted(worst["mine"][row])
        assert sorted(_cards(body.locator(f'.rv-best .rv-row[data-row="{row}"] .card'))) == \
            sorted(worst["best"][row])
    assert mistake_label(worst["mistake"]) in body.inner_text()
    _shoot(page, "review")

    # Filtering by a mistake class keeps that class's hands only.
    cls, info = max(s["by_mistake"].items(), key=lambda kv: kv[1]["hands"])
    page.select_option("#filter", cls)
    assert items.count() == info["hands"]
    assert set(items.evaluate_all("els => els.map(e => e.dataset.mistake)")) == {cls}
    # A bar of the chart opens its hand (the filter is widened if it hides it).
    exact_line = next(h["line"] for h in want["hands"] if h["exact"] or h["mistake"] != cls)
    page.click(f'#chart-hands rect.rv-bar[data-line="{exact_line}"]')
    opened = page.locator(f'#hand-list li[data-line="{exact_line}"] details[open] .rv-compare')
    opened.wait_for()
    assert page.input_value("#filter") == "all"

    # Downloads: CSV with the header and a row per reviewed hand; JSON lines likewise.
    rows = list(csv.reader(io.StringIO(_download(page, "#dl-csv"))))
    assert rows[0] == CSV_HEADER
    assert len(rows) == 1 + s["hands"]
    by_line = {h["line"]: h for h in want["hands"]}
    for r in rows[1:]:
        h = by_line[int(r[0])]
        assert r[1].split() == h["hand"]
        assert float(r[4]) == h["ev_lost"] and r[6] == (h["mistake"] or "")
        assert r[8].split() == h["mine"]["front"] and r[13].split() == h["best"]["back"]
    got = [json.loads(x) for x in _download(page, "#dl-jsonl").splitlines() if x.strip()]
    assert got == want["hands"]


def mistake_label(mistake: str | None, lang: str = "en") -> str:
    from api.i18n import t

    return t(lang, f"review.mistake.{mistake or 'exact'}")


def test_session_hands_and_server_error(page, live):
    # A Capsa session in this browser with two finished hands (the second-best rows each time).
    c = live.app.test_client()
    v = c.post("/v1/sessions", json={"game": "capsa", "bots": "table", "seed": 21,
                                     "rules": {"players": 3}}).get_json()
    token = v["token"]
    for n in range(2):
        if n:
            c.post("/v1/sessions/next", json={"token": token})
        a = c.post("/v1/sessions/advice", json={"token": token}).get_json()["arrangements"][1]
        done = c.post("/v1/sessions/move", json={"token": token, "move": {
            "front": a["front"], "middle": a["middle"], "back": a["back"]}}).get_json()
        assert done["terminal"]
    _open(page, live)
    page.evaluate("t => localStorage.setItem('capsa-play-token', t)", token)
    _open(page, live)
    page.wait_for_selector("#session-btn:not([hidden])")
    assert "2 finished hands" in page.inner_text("#session-text")
    page.click("#session-btn")
    page.wait_for_selector("#results:not([hidden]) #hand-list li")
    sent = [json.loads(x) for x in page.input_value("#lines").splitlines() if x.strip()]
    assert len(sent) == 2 and all(len(x["opponents"]) == 2 for x in sent)
    assert page.input_value("#rules") == "session"
    assert page.inner_text("#sum-hands").strip() == "2"
    rules = {k: x for k, x in done["observation"]["rules"].items() if k != "players"}
    want = c.post("/v1/capsa/review", json={"text": page.input_value("#lines"),
                                            "rules": rules}).get_json()
    assert float(page.get_attribute("#sum-total", "data-value")) == want["summary"]["ev_lost"]
    known = want["summary"]["known"]
    assert float(page.get_attribute("#sum-known", "data-value")) == known["actual_points"]
    page.locator("#hand-list li summary").first.click()
    page.locator("#hand-list li .rv-br").first.wait_for()  # the best response to the actual rows
    # A refusal of the server is shown in its words.
    page.select_option("#method", "montecarlo")
    page.fill("#samples", "0")
    page.click("#review-btn")
    page.wait_for_selector("#error:not([hidden])")
    assert "samples" in page.inner_text("#error") and "greater than or equal to 1" in \
        page.inner_text("#error")
