"""End-to-end in Chromium, at a desktop and a phone (390x844, touch) viewport, in each
language: the play page's review of a Capsa table names the row of each of the solver's top 5
arrangements as players name them (front/middle/back, atas/tengah/bawah, chi 3/2/1) and says
in one sentence why the hint's EV of the same rows differs (the hint's table model against
the review's Monte Carlo deals). Screenshots go to ``artefacts/review/``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser_support import DESKTOP, watched_page

from api.i18n import t as say

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
VIEWPORTS = {"desktop": (DESKTOP, {}), "phone": (PHONE, {"has_touch": True, "is_mobile": True})}
ARTEFACTS = Path(os.environ.get("ARTEFACTS_DIR", Path(__file__).resolve().parents[1] / "artefacts")) / "review"


@pytest.mark.parametrize("lang,view", [("en", "desktop"), ("vi", "phone"), ("id", "phone")])
def test_the_play_pages_review_names_rows_and_says_why_the_hint_differs(browser, live, lang, view):
    viewport, options = VIEWPORTS[view]
    with watched_page(browser, live.url, viewport, **options) as page:
        page.goto(f"{live.url}/static/play.html?lang={lang}")
        page.wait_for_selector("body[data-ready=true]")
        page.select_option("#game", "capsa")
        page.wait_for_function("() => !document.body.hasAttribute('aria-busy')")
        page.select_option("#players", "2")
        page.evaluate("document.getElementById('more-setup').open = true")
        page.fill("#seed", "5")
        page.click("#start-btn")
        page.wait_for_selector("#best-btn")
        page.click("#best-btn")
        page.wait_for_selector("#foul.good")
        page.click("#set-rows-btn")
        page.wait_for_selector("#review:not([hidden]) ol.top5 li")
        assert page.inner_text("#review-why-differ") == say(lang, "review.play.differ")
        labels = page.locator("#review ol.top5 li .top5-label").all_inner_texts()
        rows = [say(lang, f"row.{r}") for r in ("front", "middle", "back")]
        assert [x.lower() for x in labels] == [r.lower() for r in rows] * 5
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"] + 1, f"{view}: the page is {width}px wide"
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        page.locator("#review").screenshot(path=str(ARTEFACTS / f"play-review-{lang}-{view}.png"))
