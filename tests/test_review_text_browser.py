"""End-to-end in Chromium, at a desktop and a phone (390x844, touch) viewport: the review page
takes hands as a player writes them, rows between bars (an id first, a declared natural, any
card notation), shows the interval of the mean EV lost as "between X and Y" (never below 0),
names the strong-back-weak-front mistake, and does it all in English, Bahasa Indonesia and
Tiếng Việt with no English left on the page outside card notation and the server's own
words, quoted (``lang="en"``) after the page's reason for a line it could not read. Screenshots go
to ``artefacts/review/``."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from browser_support import DESKTOP, watched_page

from api.i18n import catalog
from api.i18n import t as say

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
VIEWPORTS = {"desktop": (DESKTOP, {}), "phone": (PHONE, {"has_touch": True, "is_mobile": True})}
ARTEFACTS = Path(os.environ.get("ARTEFACTS_DIR", Path(__file__).resolve().parents[1] / "artefacts")) / "review"
DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad"
TEXT = "\n".join([
    "# Friday's table",
    "deal 1 | 3c 4d 9s | Ac Ad Jh 8c 5s | 7s 7h 7d Qs Qh",   # a full house kept back
    "deal 2 | 5S 3C 2H | as,ad,kh,7c,6d | K♦ Q♣ J♠ 10♠ 9♥",  # any notation
    f"deal 3 | natural | {DRAGON}",
    "6h 6s Ks | 7s 8h 8s 9d Qh | 2d 3c 4c 5s Ad",
    "As Kd Qh",                                              # no bars: not reviewed
    "",
])
# English words of the page that must not be left in the other languages
ENGLISH = re.compile(r"\b(Hands?|Review|Line|lost|Front|Middle|Back|rows?|between|Played|"
                     r"exactly|Kickers|Foul|Show|Order|Upload|Rules|Method|Opponents|Seed|"
                     r"Download|natural|Your|Best|mistake|Strong|weak)\b")


def _summary(client, opponents: int = 3) -> dict:
    return client.post("/v1/capsa/review", json={"text": TEXT, "opponents": opponents}).get_json()


@pytest.mark.parametrize("lang", ["en", "id", "vi"])
@pytest.mark.parametrize("view", list(VIEWPORTS))
def test_plain_text_review_in_each_language(browser, live, lang, view, tmp_path):
    want = _summary(live.app.test_client())
    s = want["summary"]
    assert s["hands"] == 4 and [e["line"] for e in want["errors"]] == [6]
    viewport, options = VIEWPORTS[view]
    with watched_page(browser, live.url, viewport, **options) as page:
        page.goto(f"{live.url}/static/review.html?lang={lang}")
        page.wait_for_selector("body[data-ready=true]")
        assert page.get_attribute("html", "lang") == lang
        assert page.inner_text("h1") == say(lang, "review.title")
        if view == "desktop":  # a file of them, uploaded
            played = tmp_path / "played.txt"
            played.write_text(TEXT, encoding="utf-8")
            page.set_input_files("#file", str(played))
            page.wait_for_selector("body[data-loaded='played.txt']")
            assert page.input_value("#lines") == TEXT
        else:  # typed (pasted)
            page.fill("#lines", TEXT)
        if view == "phone":
            page.tap("#review-btn")
        else:
            page.click("#review-btn")
        page.wait_for_selector("#results:not([hidden]) #hand-list li")

        assert page.inner_text("#sum-hands").strip() == "4"
        low, high = s["mean_ev_lost_ci95"]
        assert 0 <= low <= s["mean_ev_lost"] <= high
        assert page.get_attribute("#sum-ci", "data-value") == f"{low} {high}"
        between = say(lang, "review.sum.between", low="(.+)", high="(.+)")
        assert re.fullmatch(between, page.inner_text("#sum-ci").strip())
        # the ids pass through; the full house kept back has its own class, in words
        item = page.locator('#hand-list li[data-line="2"]')
        assert item.get_attribute("data-mistake") == "front_too_weak"
        assert "deal 1" in item.inner_text()
        item.locator("summary").click()
        body = item.locator(".rv-body")
        body.locator(".rv-compare").wait_for()
        assert say(lang, "review.mistake.front_too_weak") in body.inner_text()
        assert say(lang, "review.mistake.front_too_weak.why") in body.inner_text()
        assert say(lang, "review.row.front") in body.locator(".rv-mine").inner_text()
        # the declared natural is reviewed with what it was worth
        natural = page.locator('#hand-list li[data-line="4"]')
        natural.locator("summary").click()
        natural.locator(".rv-natural-facts").wait_for()
        # the line that could not be read, numbered, and what is wrong in the page's language
        bad = page.locator("#errors-list li").first
        assert bad.get_attribute("data-line") == "6" and bad.get_attribute("data-code") == "format"
        assert say(lang, "review.line_error.format") in bad.inner_text()
        if lang == "en":  # the server's own words: shown in English, a tooltip elsewhere
            assert bad.locator("q[lang=en]").inner_text() == want["errors"][0]["error"]
        else:
            assert bad.locator("q").count() == 0
            assert bad.get_attribute("title") == want["errors"][0]["error"]

        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"] + 1, f"{view}: the page is {width}px wide"
        if view == "phone":  # fingertip-sized controls
            for sel in ("#review-btn", "#dl-csv", "#dl-jsonl", "#filter", "#sort",
                        '#hand-list li[data-line="2"] summary'):
                box = page.locator(sel).bounding_box()
                assert box and box["height"] >= 44 and box["width"] >= 44, (sel, box)
        if lang != "en":
            shown = page.evaluate("document.body.innerText")
            for text in (shown, page.title()):
                left = sorted(set(ENGLISH.findall(text)))
                assert not left, f"{lang}: English left on the page: {left}"
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTEFACTS / f"plain-text-{lang}-{view}.png"), full_page=True)


def test_every_review_message_is_in_each_catalog():
    keys = {k for k in catalog("en").messages if k.startswith("review.")}
    for lang in ("id", "vi"):
        assert keys <= set(catalog(lang).messages), lang
    # the page names each mistake class the coach knows
    from solver.games.capsa.coach import MISTAKES

    for m in MISTAKES:
        assert f"review.mistake.{m}" in keys and f"review.mistake.{m}.why" in keys

